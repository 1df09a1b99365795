"""The GPU benchmark's shader variants, as GLSL generated for f32 and f64.

Every variant shares one driver loop (the shape of the hand-written shaders
the lowering was designed with, docs/design.md "Lowering"): invocation i runs
`iters` iterations; iteration k
works on address ((i * 2654435761 + k * 40503) >> 7) & mask with the value
vals[(i + k * 977) % n] (+ 4096 k when adv is set, so that every round raises
the maximum).  `used` variants add each op's result into an accumulator that
is kept alive by a final compare, and store it where the specialization
constant RECORD is set (the runner's untimed recording run); `unused` ones
drop it.

Buffers: binding 0 the values, binding 1 the destination (float/double, and
the hand-written variants' uint/int views of the same buffer), binding 2
{mask, iters, adv}, binding 3 (used modules) the recorded results.  The op is a float atomic max on the destination.

The f32 hand-written variants are the anchors' shaders; the f64 ones are the
same code on 64-bit types (GL_ARB_gpu_shader_int64, GL_EXT_shader_atomic_int64).
The fatomic variants are one plain GLSL atomicMax on the float/double buffer
(GL_EXT_shader_atomic_float2), written in the loop itself (a statement when
its result is unused), lowered by fatomic-opt; `fatomic-helper` writes it in
the helper function `op` that returns its value, called like the hand-written
variants' `op` (`op(a, v);` when unused).
"""

# name -> properties.  kind: "fatomic" (lowered by fatomic-opt with `lower`
# as the pass options and `profile`, a path from the repository's root, as
# its --target-profile; shape "helper": the atomic in the helper `op`, else in
# the loop) or "hand" (hand-written integer code).  memory: "ieee"
# (the buffer holds plain float bits) or "encoded" (it holds U(x)).  legal:
# False where the variant reads memory with a plain load that races with the
# atomics (a data race under the Vulkan memory model: no compiler may emit it).
VARIANTS = {
    "fatomic": dict(kind="fatomic", lower="", memory="ieee", legal=True,
                    what="fatomic-opt --lower-float-atomic-minmax (defaults: "
                         "sign dispatch, atomic-load early-out)"),
    "fatomic-helper": dict(kind="fatomic", lower="", memory="ieee", legal=True, shape="helper",
                           what="fatomic-opt --lower-float-atomic-minmax (defaults) on the "
                                "atomic inside a helper function that returns its value, "
                                "called as a statement when the result is unused"),
    "fatomic-agg": dict(kind="fatomic", lower="aggregate=subgroup", memory="ieee", legal=True,
                        what="fatomic-opt --lower-float-atomic-minmax=aggregate=subgroup "
                             "(one atomic per subgroup where its invocations hit one address)"),
    "fatomic-cas": dict(kind="fatomic", lower="strategy=cas", memory="ieee", legal=True,
                        what="fatomic-opt --lower-float-atomic-minmax=strategy=cas"),
    "fatomic-eo-off": dict(kind="fatomic", lower="early-out=off", memory="ieee", legal=True,
                           what="fatomic-opt --lower-float-atomic-minmax=early-out=off"),
    "fatomic-outline-off": dict(kind="fatomic", lower="outline=off", memory="ieee",
                                legal=True, diagnostic=True,
                                what="fatomic-opt --lower-float-atomic-minmax=outline=off "
                                     "(the lowering written out at the atomic instead of a "
                                     "helper function: shows the driver inlines the helper)"),
    "fatomic-cache-off": dict(kind="fatomic", lower="cache=off", memory="ieee",
                              legal=True, diagnostic=True,
                              what="fatomic-opt --lower-float-atomic-minmax=cache=off (no bound "
                                   "cache: every operation reads memory; shows what the cache "
                                   "gains)"),
    "fatomic-h200-auto": dict(kind="fatomic", lower="", memory="ieee", legal=True,
                              diagnostic=True, profile="test/data/profiles/nvidia-h200.json",
                              what="fatomic-opt --target-profile test/data/profiles/"
                                   "nvidia-h200.json --lower-float-atomic-minmax (defaults: "
                                   "aggregate=auto on the H200's profile; unused f32 results "
                                   "left to the driver's own combining; the Vulkan layer "
                                   "lowers the same there only with writers=module)"),
    "fatomic-agg-cache-off": dict(kind="fatomic", lower="aggregate=subgroup,cache=off",
                                  memory="ieee", legal=True, diagnostic=True,
                                  what="fatomic-opt --lower-float-atomic-minmax="
                                       "aggregate=subgroup,cache=off"),
    "fatomic-eo-off-fast": dict(kind="fatomic", lower="early-out=off,nan=fast", memory="ieee",
                                legal=True, diagnostic=True,
                                what="fatomic-opt --lower-float-atomic-minmax=early-out=off,nan=fast "
                                     "(no NaN fix-up: shows what the fix-up costs without early-out)"),
    "encoded": dict(kind="hand", memory="encoded", legal=True,
                    what="memory holds U(x); one unsigned atomicMax: the integer floor"),
    "dispatch": dict(kind="hand", memory="ieee", legal=True,
                     what="sign bit picks signed max / unsigned min; no early-out"),
    "dispatcheoal": dict(kind="hand", memory="ieee", legal=True,
                         what="dispatch after a relaxed atomicLoad early-out"),
    "casal": dict(kind="hand", memory="ieee", legal=True,
                  what="CAS loop after a relaxed atomicLoad early-out"),
    "casalways": dict(kind="hand", memory="ieee", legal=True,
                      what="CAS loop, no early-out (LLVM AtomicExpand / Mesa shape)"),
    "twoatomic": dict(kind="hand", memory="ieee", legal=True,
                      what="both integer atomics execute, one with an identity operand"),
    "dispatcheo": dict(kind="hand", memory="ieee", legal=False,
                       what="dispatch after a plain-load early-out (racy)"),
    "cas": dict(kind="hand", memory="ieee", legal=False,
                what="CAS loop after a plain-load early-out (racy)"),
    # Not a comparator of the goals (report.py's HAND_LEGAL): the shape of
    # fatomic-agg written by hand, without NaN handling, to compare the
    # emitted code with.
    "aggal": dict(kind="hand", memory="ieee", legal=True, diagnostic=True,
                  what="hand-written subgroup aggregation: where subgroupAllEqual(a), "
                       "subgroupMax of U(v), the elected invocation runs dispatcheoal, "
                       "used results from subgroupBroadcastFirst and subgroupExclusiveMax "
                       "(no NaN handling; diagnostic)"),
}

# Probes: shapes measured once to answer a question (docs/gpu-performance.md,
# "Probes", says which runs and what they showed), compiled into every
# bundle, run by the ctest, and on a GPU only where `gpubench.py run
# --variants` names them.
_SKIPS = (8, 64)
# Selection controls (GL_EXT_control_flow_attributes): name suffix, GLSL
# attribute, SPIR-V SelectionControl.
_CONTROLS = (("df", "dont_flatten", "DontFlatten"), ("fl", "flatten", "Flatten"))
_PROBES = {
    "aggmm": "aggal with the test subgroupMin(a) == subgroupMax(a), and the "
             "per-invocation dispatcheoal in the else branch",
    **{"aggskip%d" % n: "aggmm whose invocations skip the test for %d operations after "
                        "it fails, by a Private counter" % n for n in _SKIPS},
    "aggpost": "dispatcheoal whose invocations that the early-out does not stop "
               "aggregate where they share the address (fatomic's test among them), "
               "the elected one running the integer atomic on the subgroup's maximum",
    "aggfirst": "every invocation's atomicLoad first; then, where the subgroup shares "
                "the address, the keys of those whose operand exceeds what they loaded "
                "are reduced and the elected invocation runs the integer atomic on the "
                "maximum, with no branch on the loads before the subgroup operations",
    "dispatchpre": "relaxed atomicLoad, then dispatch with no early-out, then a "
                   "positive-NaN fix-up decided from the load",
    "dispatcheoalpriv": "dispatcheoal after a branch, never taken, on a Private counter "
                        "that every operation increments: state carried from one "
                        "operation to the next, as the bound cache's",
    **{"dispatcheoalpriv" + tag: "dispatcheoalpriv with its branch marked [[%s]] "
                                 "(SPIR-V selection control %s)" % (attr, control)
       for tag, attr, control in _CONTROLS},
    **{"aggmm" + tag: "aggmm with its uniformity branch marked [[%s]] (SPIR-V "
                      "selection control %s)" % (attr, control)
       for tag, attr, control in _CONTROLS},
    "dispatcheoalprivlate": "dispatcheoalpriv with the atomicLoad before the branch",
    "aggpred": "aggmm whose loading invocations (every one where the subgroup mixes "
               "addresses, the elected one where it shares it) load before anything "
               "else branches, in a selection of the load alone",
    **{"aggpred" + tag: "aggpred with the load's selection marked [[%s]] (SPIR-V "
                        "selection control %s)" % (attr, control)
       for tag, attr, control in _CONTROLS},
}
VARIANTS.update({name: dict(kind="hand", memory="ieee", legal=True, diagnostic=True,
                            probe=True, what=what + " (diagnostic)")
                 for name, what in _PROBES.items()})

# Negative controls, never part of the benchmark, which a run that includes
# them must report wrong (wrong_in: in every cell, or in the cells whose
# result is used, where the runner checks returned values).  An unsigned max
# on the raw float bits is wrong for negative operands (and -inf stays in
# memory).  `control-returns-operand` leaves the right memory but returns
# its operand instead of the value it replaced.
CONTROLS = {
    "control-umax": dict(kind="hand", memory="ieee", legal=True, control=True,
                         wrong_in="every",
                         what="negative control: unsigned max on raw float bits "
                              "(wrong by design)"),
    "control-returns-operand": dict(kind="hand", memory="ieee", legal=True, control=True,
                                    wrong_in="used",
                                    what="negative control: dispatch, returning its operand "
                                         "(right memory, wrong returned values)"),
}

WIDTHS = (32, 64)

# Type-dependent spellings.
_TYPES = {
    32: dict(F="float", U="uint", I="int", F2U="floatBitsToUint",
             U2F="uintBitsToFloat", SH="31", Z="0u", ONES="0xFFFFFFFFu",
             SIGN="0x80000000u", L="", EXP="0x7F800000u"),
    64: dict(F="double", U="uint64_t", I="int64_t", F2U="doubleBitsToUint64",
             U2F="uint64BitsToDouble", SH="63", Z="0ul",
             ONES="0xFFFFFFFFFFFFFFFFul", SIGN="0x8000000000000000ul", L="lf",
             EXP="0x7FF0000000000000ul"),
}

_ATOMIC_LOAD = ("atomicLoad(dstu[a], gl_ScopeDevice, gl_StorageSemanticsBuffer, "
                "gl_SemanticsRelaxed)")

_DISPATCH = """{U} b = {F2U}(v);
  {U} o;
  if ((b >> {SH}) == {Z}) o = {U}(atomicMax(dsti[a], {I}(b))); else o = atomicMin(dstu[a], b);
  return {U2F}(o);"""

# The early-out's decision on what the load found (cur), and the load
# before it.
_DECIDE = """{F} c = {U2F}(cur);
  if (!(v > c)) return c;
  """
_EARLY_OUT = "{U} cur = {LOAD};\n  " + _DECIDE

_CAS = """{U} cur = {LOAD};
  while (true) {{
    {F} c = {U2F}(cur);
    if (!(v > c)) return c;
    {U} prev = atomicCompSwap(dstu[a], cur, {F2U}(v));
    if (prev == cur) return c;
    cur = prev;
  }}"""

# The elected invocation's dispatcheoal on w, the subgroup's operand; r is
# what it found.
_ELECTED = """{U} cur = {LOAD};
    r = {U2F}(cur);
    if (w > r) {{
      {U} b = {F2U}(w);
      {U} o;
      if ((b >> {SH}) == {Z}) o = {U}(atomicMax(dsti[a], {I}(b))); else o = atomicMin(dstu[a], b);
      r = {U2F}(o);
    }}"""

# Each invocation's result: the broadcast of what the elected one found,
# folded with the exclusive scan of the keys below it; {SET} is what takes
# it ("r = " or "return ").
_SPREAD = """{U} o = {F2U}(subgroupBroadcastFirst(r));
    {U} ko = o ^ ((o >> {SH}) != {Z} ? {ONES} : {SIGN});
    {U} k = max(ko, below);
    {SET}{U2F}(k ^ ((k >> {SH}) != {Z} ? {SIGN} : {ONES}));"""

# The elected invocation's integer atomic on the subgroup's reduced key m,
# with no early-out of its own; r is what it found.
_ELECTED_ON_KEY = """{U} b = m ^ ((m >> {SH}) != {Z} ? {SIGN} : {ONES});
      {U} o;
      if ((b >> {SH}) == {Z}) o = {U}(atomicMax(dsti[a], {I}(b))); else o = atomicMin(dstu[a], b);
      r = {U2F}(o);"""

# aggal: one dispatcheoal per subgroup where its invocations share the
# address; w is the operand that the acting invocation stores.
_AGGREGATED = """bool agg = subgroupAllEqual(a);
  {U} b0 = {F2U}(v);
  {U} u = b0 ^ ((b0 >> {SH}) != {Z} ? {ONES} : {SIGN});
  {F} w = v;
  {U} below = {Z};
  if (agg) {{
    {U} m = subgroupMax(u);
    below = subgroupExclusiveMax(u);
    w = {U2F}(m ^ ((m >> {SH}) != {Z} ? {SIGN} : {ONES}));
  }}
  {F} r = 0.0{L};
  if (!agg || subgroupElect()) {{
    """ + _ELECTED + """
  }}
  if (agg) {{
    """ + _SPREAD.replace("{SET}", "r = ") + """
  }}
  return r;"""

_AGG_SPLIT = """{U} b0 = {F2U}(v);
  {U} u = b0 ^ ((b0 >> {SH}) != {Z} ? {ONES} : {SIGN});
  {TEST}
  if (agg) {{
    {U} m = subgroupMax(u);
    {U} below = subgroupExclusiveMax(u);
    {F} w = {U2F}(m ^ ((m >> {SH}) != {Z} ? {SIGN} : {ONES}));
    {F} r = 0.0{L};
    if (subgroupElect()) {{
      """ + _ELECTED + """
    }}
    """ + _SPREAD.replace("{SET}", "return ") + """
  }}
  """

_TEST_MM = "bool agg = subgroupMin(a) == subgroupMax(a);"

# aggskipN: the test made only where the invocation's Private counter says
# it has not failed in the last N operations.
_TEST_SKIP = """bool agg = false;
  if (aggSkip == 0u) {{ agg = subgroupMin(a) == subgroupMax(a); if (!agg) aggSkip = {P}u; }}
  else {{ aggSkip -= 1u; }}"""

# aggpost: the early-out first, each invocation on its own; those it does
# not stop aggregate.  The elected invocation's integer atomic needs no
# second load: the reduced operand is at least its own, which exceeded
# what it loaded.
_AGG_AFTER_EARLY_OUT = _EARLY_OUT + """{U} b0 = {F2U}(v);
  {U} u = b0 ^ ((b0 >> {SH}) != {Z} ? {ONES} : {SIGN});
  if (subgroupMin(a) == subgroupMax(a)) {{
    {U} m = subgroupMax(u);
    {U} below = subgroupExclusiveMax(u);
    {F} r = 0.0{L};
    if (subgroupElect()) {{
      """ + _ELECTED_ON_KEY + """
    }}
    """ + _SPREAD.replace("{SET}", "return ") + """
  }}
  """ + _DISPATCH

_POS_NAN = "(({X} & ~{SIGN}) > {EXP} && ({X} >> {SH}) == {Z})"

# The result is what the step that acted returned: the integer atomic's,
# or the compare-exchange's (the load before them is not the value they
# replaced).
_PRELOAD = """{U} cur = {LOAD};
  {U} b = {F2U}(v);
  {U} o;
  if ((b >> {SH}) == {Z}) o = {U}(atomicMax(dsti[a], {I}(b))); else o = atomicMin(dstu[a], b);
  if (""" + _POS_NAN.replace("{X}", "cur") + """) {{
    while (true) {{
      {U} c = {LOAD};
      if (!""" + _POS_NAN.replace("{X}", "c") + """) {{
        if ((b >> {SH}) == {Z}) o = {U}(atomicMax(dsti[a], {I}(b))); else o = atomicMin(dstu[a], b);
        break;
      }}
      if (atomicCompSwap(dstu[a], c, b) == c) {{ o = c; break; }}
    }}
  }}
  return {U2F}(o);"""

# aggfirst: each invocation's load first, issued before anything else; the
# subgroup operations come while it is in flight, and the early-out decides
# which keys take part (the others offer the identity, 0).  Invocations
# that the early-out stops return what they loaded.
_AGG_LOAD_FIRST = """{U} cur = {LOAD};
  {F} c = {U2F}(cur);
  {U} b0 = {F2U}(v);
  {U} u = b0 ^ ((b0 >> {SH}) != {Z} ? {ONES} : {SIGN});
  if (subgroupMin(a) == subgroupMax(a)) {{
    bool need = v > c;
    {U} uk = need ? u : {Z};
    {U} m = subgroupMax(uk);
    {U} below = subgroupExclusiveMax(uk);
    {F} r = 0.0{L};
    if (m != {Z} && subgroupElect()) {{
      """ + _ELECTED_ON_KEY + """
    }}
    """ + _SPREAD.replace("{SET}", "{F} g = ") + """
    return need ? g : c;
  }}
  if (!(v > c)) return c;
  """ + _DISPATCH

# aggpred: the invocations that will need the load (each one where the
# subgroup mixes addresses, the elected one where it shares it) issue it
# first, in a selection that holds nothing else ({ATTR} before it); the
# elected invocation then decides from it without a second load.
_AGG_PRED = """bool agg = subgroupMin(a) == subgroupMax(a);
  bool el = subgroupElect();
  bool loader = !agg || el;
  {U} cur = {Z};
  {ATTR}if (loader) cur = {LOAD};
  {U} b0 = {F2U}(v);
  {U} u = b0 ^ ((b0 >> {SH}) != {Z} ? {ONES} : {SIGN});
  if (agg) {{
    {U} m = subgroupMax(u);
    {U} below = subgroupExclusiveMax(u);
    {F} w = {U2F}(m ^ ((m >> {SH}) != {Z} ? {SIGN} : {ONES}));
    {F} r = {U2F}(cur);
    if (el && w > r) {{
      """ + _ELECTED_ON_KEY + """
    }}
    """ + _SPREAD.replace("{SET}", "return ") + """
  }}
  """ + _DECIDE + _DISPATCH

# aggmm, and dispatcheoalpriv with {ATTR} before its branch.
_AGGMM = _AGG_SPLIT.replace("{TEST}", _TEST_MM) + _EARLY_OUT + _DISPATCH
_PRIV_BRANCH = "aggSkip += 1u;\n  {ATTR}if (aggSkip == 0u) return v;\n  "
_PRIV = _PRIV_BRANCH + _EARLY_OUT + _DISPATCH
# dispatcheoalprivlate: the load before that branch.
_PRIV_LATE = "{U} cur = {LOAD};\n  " + _PRIV_BRANCH.replace("{ATTR}", "") + _DECIDE + _DISPATCH

BODIES = {
    "fatomic": "return atomicMax(dst[a], v);",
    "encoded": """{U} b = {F2U}(v);
  {U} m = b ^ ((b >> {SH}) != {Z} ? {ONES} : {SIGN});
  {U} o = atomicMax(dstu[a], m);
  return {U2F}(o ^ ((o >> {SH}) != {Z} ? {SIGN} : {ONES}));""",
    "dispatch": _DISPATCH,
    "dispatcheo": _EARLY_OUT.replace("{LOAD}", "dstu[a]") + _DISPATCH,
    "dispatcheoal": _EARLY_OUT.replace("{LOAD}", _ATOMIC_LOAD) + _DISPATCH,
    "cas": _CAS.replace("{LOAD}", "dstu[a]"),
    "casal": _CAS.replace("{LOAD}", _ATOMIC_LOAD),
    "aggal": _AGGREGATED.replace("{LOAD}", _ATOMIC_LOAD),
    "aggmm": _AGGMM.replace("{LOAD}", _ATOMIC_LOAD),
    **{"aggskip%d" % n: (_AGG_SPLIT.replace("{TEST}", _TEST_SKIP.replace("{P}", str(n)))
                         + _EARLY_OUT + _DISPATCH).replace("{LOAD}", _ATOMIC_LOAD)
       for n in _SKIPS},
    "aggpost": _AGG_AFTER_EARLY_OUT.replace("{LOAD}", _ATOMIC_LOAD),
    "aggfirst": _AGG_LOAD_FIRST.replace("{LOAD}", _ATOMIC_LOAD),
    "dispatchpre": _PRELOAD.replace("{LOAD}", _ATOMIC_LOAD),
    "dispatcheoalpriv": _PRIV.replace("{ATTR}", "").replace("{LOAD}", _ATOMIC_LOAD),
    **{"dispatcheoalpriv" + tag: _PRIV.replace("{ATTR}", "[[%s]] " % attr).replace(
        "{LOAD}", _ATOMIC_LOAD) for tag, attr, _ in _CONTROLS},
    **{"aggmm" + tag: _AGGMM.replace("  if (agg) {{", "  [[%s]] if (agg) {{" % attr, 1).replace(
        "{LOAD}", _ATOMIC_LOAD) for tag, attr, _ in _CONTROLS},
    "dispatcheoalprivlate": _PRIV_LATE.replace("{LOAD}", _ATOMIC_LOAD),
    "aggpred": _AGG_PRED.replace("{ATTR}", "").replace("{LOAD}", _ATOMIC_LOAD),
    **{"aggpred" + tag: _AGG_PRED.replace("{ATTR}", "[[%s]] " % attr).replace(
        "{LOAD}", _ATOMIC_LOAD) for tag, attr, _ in _CONTROLS},
    "casalways": """{U} cur = dstu[a];
  while (true) {{
    {F} c = {U2F}(cur);
    {U} prev = atomicCompSwap(dstu[a], cur, {F2U}(max(c, v)));
    if (prev == cur) return c;
    cur = prev;
  }}""",
    "control-umax": "return {U2F}(atomicMax(dstu[a], {F2U}(v)));",
    "control-returns-operand": """{U} b = {F2U}(v);
  if ((b >> {SH}) == {Z}) atomicMax(dsti[a], {I}(b)); else atomicMin(dstu[a], b);
  return v;""",
    "twoatomic": """{U} b = {F2U}(v);
  bool neg = (b >> {SH}) != {Z};
  {I} os = atomicMax(dsti[a], neg ? {I}({SIGN}) : {I}(b));
  {U} ou = atomicMin(dstu[a], neg ? b : {ONES});
  return {U2F}(neg ? ou : {U}(os));""",
}

_TEMPLATE = """#version 460
{EXTS}layout(local_size_x = {LOCAL}) in;
layout(std430, binding=0) buffer Vals {{ {F} vals[]; }};
layout(std430, binding=1) buffer Dst {{ {F} dst[]; }};
{VIEWS}layout(std430, binding=2) buffer Par {{ uint mask; uint iters; uint adv; }};
{RECORD}
{F} op(uint a, {F} v);
void main() {{
  uint i = gl_GlobalInvocationID.x;
  uint n = uint(vals.length());
  {F} acc = 0.0{L};
  for (uint k = 0u; k < iters; ++k) {{
    uint j = (i * 2654435761u + k * 40503u);
    {F} v = vals[(i + k * 977u) % n] + (adv != 0u ? {F}(k) * 4096.0{L} : 0.0{L});
    uint a = (j >> 7) & mask;
    {CALL}
  }}
{SINK}}}
{F} op(uint a, {F} v) {{
  {BODY}
}}
"""

LOCAL_SIZE = 256


def properties(variant):
    """The properties of a benchmark variant or a control."""
    return VARIANTS[variant] if variant in VARIANTS else CONTROLS[variant]


# The used modules' recording: fatomic-gpubench sets RECORD (specialization
# constant 0) for one untimed run of each used task, whose operations then
# store what they returned for its linearizability check; in the timed runs
# RECORD is false and the store is dead code that the driver removes.
RECORD = """layout(constant_id = 0) const bool RECORD = false;
layout(std430, binding=3) buffer Rets {{ {F} rets[]; }};
"""


def use(t, used, call):
    """The operation in the loop: a statement when its result is unused;
    else added into acc, and recorded where RECORD is set."""
    if not used:
        return call + ";"
    return ("{F} r = %s;\n    acc += r;\n    if (RECORD) rets[i * iters + k] = r;"
            % call).format(**t)


def sink(t, used):
    """The store that keeps the used results alive.  Only the used modules
    get it: in the unused ones acc stays 0, and a plain store to dst, even
    one never run, is a writer of dst besides the atomics, which keeps
    fatomic from the cheaper form that needs every writer to be a lowered
    atomic (docs/semantics.md, "Concurrency")."""
    return "  if (acc == 12345.678%s) dst[0] = acc;\n" % t["L"] if used else ""


def glsl(variant, width, used):
    """The GLSL source of \\p variant for \\p width (32 or 64) bits."""
    t = _TYPES[width]
    kind = properties(variant)["kind"]
    body = BODIES["fatomic" if kind == "fatomic" else variant]
    exts = []
    if "atomicLoad" in body:
        exts.append("GL_KHR_memory_scope_semantics")
    if "[[" in body:
        exts.append("GL_EXT_control_flow_attributes")
    if width == 64 and kind == "hand":
        exts += ["GL_ARB_gpu_shader_int64", "GL_EXT_shader_atomic_int64"]
    if "subgroup" in body:
        exts += ["GL_KHR_shader_subgroup_vote", "GL_KHR_shader_subgroup_arithmetic",
                 "GL_KHR_shader_subgroup_ballot"]
        if width == 64:
            exts.append("GL_EXT_shader_subgroup_extended_types_int64")
    if kind == "fatomic":
        exts.append("GL_EXT_shader_atomic_float2")
    views = ""
    if kind == "hand":
        views = ("layout(std430, binding=1) buffer DstU {{ {U} dstu[]; }};\n"
                 "layout(std430, binding=1) buffer DstI {{ {I} dsti[]; }};\n").format(**t)
        if "aggSkip" in body:
            views += "uint aggSkip = 0u;\n"
    template = _TEMPLATE
    call = "op(a, v)"
    if kind == "fatomic" and properties(variant).get("shape") != "helper":
        # The plain shader: the atomic written in the loop itself, as a
        # statement when its result is unused (behind a helper function that
        # returns it, the result would be used in SPIR-V).
        call = "atomicMax(dst[a], v)"
        template = template[:template.index("{F} op(uint a, {F} v) {{")]
        template = template.replace("{F} op(uint a, {F} v);\n", "")
    return template.format(
        EXTS="".join("#extension %s : require\n" % e for e in exts),
        LOCAL=LOCAL_SIZE, VIEWS=views, CALL=use(t, used, call),
        RECORD=RECORD.format(**t) if used else "", SINK=sink(t, used),
        BODY=body.format(**t), **t)


def source_name(variant):
    """The name of the GLSL module \\p variant is made from (the fatomic
    variants of one shape share one, lowered with different options)."""
    props = properties(variant)
    if props["kind"] != "fatomic":
        return variant
    return "fatomic-%s-source" % props["shape"] if "shape" in props else "fatomic-source"


def cell_key(width, used):
    """The key of a module in the manifest: f32-used, f64-unused, ..."""
    return "f%d-%s" % (width, "used" if used else "unused")
