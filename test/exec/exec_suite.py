#!/usr/bin/python3
"""Execution tests of float atomic min/max on a real Vulkan driver.

Standard library only; run with /usr/bin/python3.

  exec_suite.py --build-dir BUILD --mode native|lowered|determinism|all
                [--jobs N] [--quick] [--keep DIR] [--log FILE] [--filter S]

Each case compiles a GLSL compute shader (glslangValidator, Vulkan 1.2),
optionally lowers it with BUILD/bin/fatomic-opt, runs it with
BUILD/bin/fatomic-vkrun on whatever Vulkan device the loader gives (ctest
forces lavapipe through VK_ICD_FILENAMES), and checks the buffers it wrote
with BUILD/bin/fatomic-exec-oracle, which holds the checks against the Core
reference model (fatomic::referenceReduce / referenceApply / allowedBySpec;
the checks are described at the top of fatomic-exec-oracle.cpp).

Modes:
  native       the runner's own checks; the ORIGINAL shaders run natively
               where the device has the float min/max feature (checked against
               the specs' table) and are refused with exit 3 where it has not;
               hand-written integer lowerings in GLSL (a CAS loop for every
               policy, sign dispatch for `fast`) run on a device created with
               --no-float-atomics, checked bit-exactly: a self-test of the
               harness that needs no fatomic-opt.
  lowered      every shader lowered by fatomic-opt for each NaN policy and
               strategy, with and without early-out: static checks of the
               output (spirv-val, no OpAtomicFMinEXT/FMaxEXT, no float min/max
               capability, no Logical pointer OpBitcast), then a run on a
               device created with --no-float-atomics, final memory checked
               bit-exactly against referenceReduce and returned values for
               linearizability.
  determinism  lowered shaders run 20 times in one process; the final-memory
               buffers must be bit-identical across runs (and equal to the
               reference).
  layer        the ORIGINAL shaders run through the Vulkan layer
               VK_LAYER_FATOMIC_float_atomic_minmax (BUILD/layer, or
               --layer-dir), which lowers them on the way to the driver:
               every case with FATOMIC_LAYER_FORCE=1 where the driver has
               the feature natively (case names end in /force), so that
               every case is lowered; the module the layer hands the driver
               (FATOMIC_LAYER_DUMP_DIR) gets the static checks, final memory
               is checked bit-exactly against the reference (the layer's NaN
               policy: number, or --layer-options' nan=).  The keep-native
               cases run without FORCE: where the driver has the feature the
               module must reach it byte-identical and run natively.
               Not part of "all".  --hide-float2 DIR puts a test layer
               below it that hides VK_EXT_shader_atomic_float2 from the
               driver (test/layer/hide-float2: lavapipe made to look like
               NVIDIA's driver, which has no float min/max at all).
               --shader-object runs each case as a compute shader object
               (fatomic-vkrun --shader-object), so that the module reaches
               the layer through vkCreateShadersEXT instead of
               vkCreateShaderModule; skipped where the device has no
               VK_EXT_shader_object (lavapipe 22.3).  --ray-tracing
               runs each case's shader as a ray generation shader
               (fatomic-vkrun --ray-tracing: launch size 64 x workgroups,
               lid and wg from gl_LaunchIDEXT), so that the module reaches
               the layer chained into a stage of
               vkCreateRayTracingPipelinesKHR, with a deferred operation;
               Workgroup memory cases are left out (ray tracing stages have
               none); skipped where the device has no ray tracing pipelines
               (lavapipe 22.3).
Exit status: 0 all passed, 1 a failure (a --filter that matches no case is
one), 77 skipped (fatomic-opt not built for
lowered/determinism, no Vulkan device at all, or no shader objects for
--shader-object, no ray tracing pipelines for --ray-tracing).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "utils"))
import suite_common  # noqa: E402

SKIP = 77
LOCAL_SIZE = 64

# ---------------------------------------------------------------------------
# Special values, as raw bit patterns (never Python floats: NaN payloads and
# signalling NaNs must reach the GPU untouched).
# ---------------------------------------------------------------------------

GRID = {
    32: [
        0x00000000, 0x80000000,  # +0, -0
        0x00000001, 0x80000001,  # smallest subnormals
        0x007FFFFF, 0x807FFFFF,  # largest subnormals
        0x00800000, 0x80800000,  # smallest normals
        0x3F800000, 0xBF800000,  # +1, -1
        0x3EAAAAAB, 0xC2F60000,  # 1/3, -123
        0x7F7FFFFF, 0xFF7FFFFF,  # largest finite
        0x7F800000, 0xFF800000,  # +inf, -inf
        0x7FC00000, 0xFFC00000,  # quiet NaNs
        0x7F800001, 0xFF800001,  # signalling NaNs
        0x7FC12345, 0xFFA5A5A5,  # NaNs with payloads
        0x7FFFFFFF, 0xFFFFFFFF,  # the identity / sticky patterns
    ],
    64: [
        0x0000000000000000, 0x8000000000000000,
        0x0000000000000001, 0x8000000000000001,
        0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF,
        0x0010000000000000, 0x8010000000000000,
        0x3FF0000000000000, 0xBFF0000000000000,
        0x3FD5555555555555, 0xC05EC00000000000,
        0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
        0x7FF0000000000000, 0xFFF0000000000000,
        0x7FF8000000000000, 0xFFF8000000000000,
        0x7FF0000000000001, 0xFFF0000000000001,
        0x7FF8000000012345, 0xFFF4A5A5A5A5A5A5,
        0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF,
    ],
}

EXP = {32: (8, 23), 64: (11, 52)}


def sign_bit(w):
    return 1 << (w - 1)


def is_nan(b, w):
    e, m = EXP[w]
    return ((b >> m) & ((1 << e) - 1)) == (1 << e) - 1 and (b & ((1 << m) - 1)) != 0


def rand_number(rng, w, sign=None, spread=12):
    """A random finite normal number around 1.0 (exponents within +-spread)."""
    e, m = EXP[w]
    bias = (1 << (e - 1)) - 1
    exp = bias + rng.randint(-spread, spread)
    mant = rng.getrandbits(m)
    s = rng.getrandbits(1) if sign is None else sign
    return (s << (w - 1)) | (exp << m) | mant


def rand_subnormal(rng, w):
    e, m = EXP[w]
    return (rng.getrandbits(1) << (w - 1)) | (rng.getrandbits(m) or 1)


def rand_nan(rng, w):
    e, m = EXP[w]
    return (rng.getrandbits(1) << (w - 1)) | (((1 << e) - 1) << m) | (rng.getrandbits(m) or 1)


POOLS = ["mixed", "zeros", "subnormal", "nan-operands", "nan-only", "inf",
         "positive", "negative", "palette"]


def pool_value(rng, w, pool, palette):
    grid = GRID[w]
    if pool == "mixed":
        return rng.choice(grid) if rng.random() < 0.2 else rand_number(rng, w)
    if pool == "zeros":
        return rng.choice([0, sign_bit(w)])
    if pool == "subnormal":
        r = rng.random()
        return rng.choice([0, sign_bit(w)]) if r < 0.2 else rand_subnormal(rng, w)
    if pool == "nan-operands":
        return rand_nan(rng, w) if rng.random() < 0.25 else rand_number(rng, w)
    if pool == "nan-only":
        return rand_nan(rng, w) if rng.random() < 0.7 else rng.choice(
            [x for x in grid if is_nan(x, w)])
    if pool == "inf":
        return rng.choice([grid[12], grid[13], grid[14], grid[15],
                           rand_number(rng, w, spread=100)])
    if pool == "positive":
        return rand_number(rng, w, sign=0)
    if pool == "negative":
        return rand_number(rng, w, sign=1)
    return rng.choice(palette)  # "palette": many repeated values (ties)


def make_data(w, naddr, groups, ops_per_inv, parts, seed):
    """Initial memory, and operations (address, value) in dispatch order.

    With 4096 addresses the first len(GRID)^2 addresses hold every pair of
    special values: initial memory GRID[i], exactly one operation GRID[j]
    (placed in part 0).  Every other address gets a value pool (POOLS) and an
    initial value from the grid (NaNs already in memory included) or from its
    pool; its operations are spread at random, so many invocations contend.
    """
    rng = random.Random(seed)
    grid = GRID[w]
    nops = groups * LOCAL_SIZE * ops_per_inv
    per_part = nops // parts
    init = [0] * naddr
    pair_ops = []
    first_free = 0
    if naddr >= len(grid) ** 2:
        g = len(grid)
        for i in range(g):
            for j in range(g):
                init[i * g + j] = grid[i]
                pair_ops.append((i * g + j, grid[j]))
        first_free = g * g
    pools, palettes = {}, {}
    for a in range(first_free, naddr):
        pools[a] = POOLS[(a + seed) % len(POOLS)]
        palettes[a] = [rand_number(rng, w) for _ in range(3)] + [rng.choice(grid)]
        if rng.random() < 0.6:
            init[a] = grid[(a * 7 + seed) % len(grid)]
        else:
            init[a] = pool_value(rng, w, pools[a], palettes[a])
    free = list(range(first_free, naddr))

    def random_op():
        a = rng.choice(free)
        return (a, pool_value(rng, w, pools[a], palettes[a]))

    ops = []
    for p in range(parts):
        part = list(pair_ops) if p == 0 else []
        while len(part) < per_part:
            part.append(random_op())
        rng.shuffle(part)
        ops.extend(part)
    return init, ops


# ---------------------------------------------------------------------------
# Shaders
# ---------------------------------------------------------------------------

SEMS = {
    # name: (GLSL_KHR_memory_scope_semantics arguments or None, description)
    "def": None,
    "relaxed": ("{scope}", "gl_StorageSemanticsNone", "gl_SemanticsRelaxed"),
    "acquire": ("{scope}", "{storage}", "gl_SemanticsAcquire"),
    "release": ("{scope}", "{storage}", "gl_SemanticsRelease"),
    "acqrel": ("{scope}", "{storage}", "gl_SemanticsAcquireRelease"),
    # MakeAvailable makes glslang emit the Vulkan memory model; QueueFamily
    # scope avoids needing VulkanMemoryModelDeviceScope.
    "vmm": ("{vmmscope}", "{storage}",
            "gl_SemanticsRelease | gl_SemanticsMakeAvailable"),
}


def shader_source(w, mem, op, used, sem, impl, policy=None, shape=None, rgen=False):
    """GLSL for one case.  impl: native | hand-cas | hand-dispatch.  rgen:
    a ray generation shader instead of a compute shader (not for Workgroup
    memory)."""
    T = "float" if w == 32 else "double"
    UT = "uint" if w == 32 else "uint64_t"
    IT = "int" if w == 32 else "int64_t"
    hand = impl != "native"
    L = ["#version 460"]
    if not hand:
        L.append("#extension GL_EXT_shader_atomic_float2 : require")
    if w == 64 or hand:
        L.append("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require")
    if hand and w == 64:
        L.append("#extension GL_EXT_shader_atomic_int64 : require")
    if sem != "def":
        L.append("#extension GL_KHR_memory_scope_semantics : require")
    if mem == "bufref":
        L.append("#extension GL_EXT_buffer_reference : require")
    if rgen:
        assert mem != "shared"
        L.append("#extension GL_EXT_ray_tracing : require")
    else:
        L.append(f"layout(local_size_x = {LOCAL_SIZE}) in;")
    ref_field = ""
    if mem == "bufref":
        L.append(f"layout(buffer_reference, std430, buffer_reference_align = 8) buffer DstRef {{ {T} d[]; }};")
        if hand:
            L.append(f"layout(buffer_reference, std430, buffer_reference_align = 8) buffer DstRefU {{ {UT} d[]; }};")
            L.append(f"layout(buffer_reference, std430, buffer_reference_align = 8) buffer DstRefI {{ {IT} d[]; }};")
        ref_field = " DstRef dstRef;"
    L.append(f"layout(std430, binding = 0) buffer Params {{ uint naddr; uint opsPerInv; uint p0; uint p1;{ref_field} }};")
    L.append("layout(std430, binding = 1) readonly buffer Addr { uint addr[]; };")
    L.append(f"layout(std430, binding = 2) readonly buffer Vals {{ {T} vals[]; }};")
    if mem == "image":
        # An r32f storage image, texel a at (a % width, a / width); width
        # comes in p0.
        L.append("layout(binding = 3, r32f) uniform image2D img;")
    if mem == "ssbo":
        L.append(f"layout(std430, binding = 3) buffer Dst {{ {T} dst[]; }};")
        if hand:
            L.append(f"layout(std430, binding = 3) buffer DstU {{ {UT} dstu[]; }};")
            L.append(f"layout(std430, binding = 3) buffer DstI {{ {IT} dsti[]; }};")
    elif mem == "shared":
        L.append(f"layout(std430, binding = 3) readonly buffer Dst {{ {T} dst[]; }};")
        L.append(f"layout(std430, binding = 5) writeonly buffer Out {{ {T} outv[]; }};")
        L.append(f"shared {UT if hand else T} s[4096];")
    if used:
        L.append(f"layout(std430, binding = 4) writeonly buffer Ret {{ {T} ret[]; }};")

    tobits = "floatBitsToUint" if w == 32 else "doubleBitsToUint64"
    frombits = "uintBitsToFloat" if w == 32 else "uint64BitsToDouble"
    fn = "atomicMin" if op == "min" else "atomicMax"
    if mem == "image":
        fn = "image" + fn[0].upper() + fn[1:]
    if mem == "image":
        memf, memu, memi = "img, ivec2(int(a % p0), int(a / p0))", None, None
    elif mem == "ssbo":
        memf, memu, memi = "dst[a]", "dstu[a]", "dsti[a]"
    elif mem == "shared":
        memf, memu, memi = "s[a]", "s[a]", None
    else:
        memf, memu, memi = "dstRef.d[a]", "DstRefU(dstRef).d[a]", "DstRefI(dstRef).d[a]"

    if not hand:
        args = ""
        if SEMS[sem]:
            scope = "gl_ScopeWorkgroup" if mem == "shared" else "gl_ScopeDevice"
            vmmscope = "gl_ScopeWorkgroup" if mem == "shared" else "gl_ScopeQueueFamily"
            storage = ("gl_StorageSemanticsShared" if mem == "shared"
                       else "gl_StorageSemanticsBuffer")
            args = ", " + ", ".join(x.format(scope=scope, vmmscope=vmmscope, storage=storage)
                                    for x in SEMS[sem])
        L.append(f"{T} op(uint a, {T} v) {{ return {fn}({memf}, v{args}); }}")
    else:
        sh = w - 1
        sign = "0x80000000u" if w == 32 else "0x8000000000000000ul"
        absm = "0x7FFFFFFFu" if w == 32 else "0x7FFFFFFFFFFFFFFFul"
        expm = "0x7F800000u" if w == 32 else "0x7FF0000000000000ul"
        allones = "0xFFFFFFFFu" if w == 32 else "0xFFFFFFFFFFFFFFFFul"
        sticky = allones if op == "min" else absm
        zero = "0u" if w == 32 else "0ul"
        L.append(f"bool isNaNBits({UT} b) {{ return (b & {absm}) > {expm}; }}")
        L.append(f"{UT} ord({UT} b) {{ return (b >> {sh}) != {zero} ? ~b : (b | {sign}); }}")
        lt = "<" if op == "min" else ">"
        if policy == "fast":
            if op == "min":
                body = f"return (v >> {sh}) == {zero} ? ({IT}(v) < {IT}(cur) ? v : cur) : (v > cur ? v : cur);"
            else:
                body = f"return (v >> {sh}) == {zero} ? ({IT}(v) > {IT}(cur) ? v : cur) : (v < cur ? v : cur);"
        elif policy == "number":
            body = (f"if (isNaNBits(v)) return cur; if (isNaNBits(cur)) return v; "
                    f"return ord(v) {lt} ord(cur) ? v : cur;")
        else:
            body = (f"if (isNaNBits(cur)) return cur; if (isNaNBits(v)) return {sticky}; "
                    f"return ord(v) {lt} ord(cur) ? v : cur;")
        L.append(f"{UT} combine({UT} cur, {UT} v) {{ {body} }}")
        if impl == "hand-cas":
            L.append(f"""{T} op(uint a, {T} fv) {{
  {UT} v = {tobits}(fv);
  {UT} cur = atomicOr({memu}, {zero});
  for (;;) {{
    {UT} n = combine(cur, v);
    if (n == cur) return {frombits}(cur);
    {UT} prev = atomicCompSwap({memu}, cur, n);
    if (prev == cur) return {frombits}(cur);
    cur = prev;
  }}
}}""")
        else:  # hand-dispatch: the fast policy's one sign-dispatched atomic
            assert policy == "fast" and memi
            pos, neg = ("atomicMin", "atomicMax") if op == "min" else ("atomicMax", "atomicMin")
            L.append(f"""{T} op(uint a, {T} fv) {{
  {UT} v = {tobits}(fv);
  {UT} r;
  if ((v >> {sh}) == {zero}) r = {UT}({pos}({memi}, {IT}(v))); else r = {neg}({memu}, v);
  return {frombits}(r);
}}""")

    L += main_source(mem, used, hand, tobits, frombits, shape, rgen)
    return "\n".join(L) + "\n"


# Inactive invocations (`shape`, aggregated cases): which operations
# (invocation lid, iteration k of opsPerInv) a shape leaves out, in GLSL
# and the same in Python (active()), so that the oracle gets exactly the
# operations that ran.
SHAPE_COND = "((lid * 7u) ^ (lid >> 2)) % 3u != 0u"
SHAPE_EXIT = "lid % 5u == 3u || lid >= 56u"
SHAPE_TRIPS = "opsPerInv - lid % 3u"
SHAPES = ("cond", "exit", "trips", "mixed")


def active(shape, lid, k, ops_per_inv):
    if shape == "cond":
        return ((lid * 7) ^ (lid >> 2)) % 3 != 0
    if shape == "exit":
        return not (lid % 5 == 3 or lid >= 56)
    if shape == "trips":
        return k < ops_per_inv - lid % 3
    return True


def main_source(mem, used, hand, tobits, frombits, shape=None, rgen=False):
    """main(): operation j = base + k * LOCAL_SIZE + lid for k < opsPerInv,
    with the shape's inactive invocations: `cond` the atomic under a
    per-invocation condition, `exit` an early return of some invocations
    before the loop (Workgroup memory: the loop skipped instead, since its
    barriers need every invocation), `trips` a trip count that differs per
    invocation; `mixed` changes only the data (make_mixed).  A ray
    generation shader (rgen) takes lid and wg from its launch ID, in a
    launch of LOCAL_SIZE x workgroups."""
    ids = ("gl_LaunchIDEXT.x, wg = gl_LaunchIDEXT.y" if rgen
           else "gl_LocalInvocationID.x, wg = gl_WorkGroupID.x")
    L = ["void main() {",
         f"  uint lid = {ids};",
         f"  uint base = wg * {LOCAL_SIZE}u * opsPerInv;"]
    if mem == "shared":
        init = f"{tobits}(dst[a])" if hand else "dst[a]"
        L.append(f"  for (uint a = lid; a < naddr; a += {LOCAL_SIZE}u) s[a] = {init};")
        L.append("  barrier();")
    if shape == "exit":
        L.append(f"  if (!({SHAPE_EXIT})) {{" if mem == "shared" else f"  if ({SHAPE_EXIT}) return;")
    trips = SHAPE_TRIPS if shape == "trips" else "opsPerInv"
    L.append(f"  for (uint k = 0u; k < {trips}; ++k) {{")
    L.append(f"    uint j = base + k * {LOCAL_SIZE}u + lid;")
    call = "ret[j] = op(addr[j], vals[j]);" if used else "op(addr[j], vals[j]);"
    L.append(f"    if ({SHAPE_COND}) {call}" if shape == "cond" else f"    {call}")
    L.append("  }")
    if shape == "exit" and mem == "shared":
        L.append("  }")
    if mem == "shared":
        out = f"{frombits}(s[a])" if hand else "s[a]"
        L.append("  barrier();")
        L.append(f"  for (uint a = lid; a < naddr; a += {LOCAL_SIZE}u) outv[wg * naddr + a] = {out};")
    L.append("}")
    return L


# (mem, naddr) -> (workgroups, operations per invocation)
SIZES = {
    ("ssbo", 1): (16, 4), ("ssbo", 64): (32, 4), ("ssbo", 4096): (64, 4),
    ("image", 1): (16, 4), ("image", 64): (32, 4), ("image", 4096): (64, 4),
    ("bufref", 1): (16, 4), ("bufref", 64): (32, 4), ("bufref", 4096): (64, 4),
    ("shared", 1): (8, 8), ("shared", 64): (8, 8), ("shared", 4096): (4, 16),
    ("ssbo", 2): (16, 4), ("shared", 2): (8, 8),  # the `mixed` shape
    ("ssbo", 512): (16, 16),  # the `runs` shape
}

CONFIGS = [(nan, strat, eo)
           for nan in ("number", "propagate", "fast")
           for strat in ("dispatch", "cas")
           for eo in ("on", "off")]

# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


class Env(suite_common.SuiteEnv):
    def __init__(self, args):
        super().__init__(args.build_dir, args.keep, args.log, args.verbose, "fatomic-exec-")
        self.src = os.path.dirname(os.path.abspath(__file__))
        self.cache = {}
        self.features = {}
        self.layer_dir = os.path.abspath(args.layer_dir or os.path.join(self.build, "layer"))
        self.layer_options = args.layer_options
        self.shader_object = args.shader_object
        self.ray_tracing = args.ray_tracing
        m = re.search(r"(?:^|[,;])nan=(\w+)", args.layer_options)
        self.layer_policy = m.group(1) if m else "number"
        self.device = "?"
        self.driver_id = 0  # VkDriverId (fatomic-vkrun --features)


run = suite_common.run


class CaseFailure(Exception):
    pass


def once(env, key, fn):
    """Memoises fn() under key across threads (compiles, lowerings)."""
    with env.lock:
        ev = env.cache.get(key)
        if ev is None:
            ev = env.cache[key] = [threading.Event(), None, None]
            owner = True
        else:
            owner = False
    if owner:
        try:
            ev[1] = fn()
        except Exception as e:  # noqa: BLE001 - re-raised in every waiter
            ev[2] = e
        ev[0].set()
    else:
        ev[0].wait()
    if ev[2]:
        raise ev[2]
    return ev[1]


def compile_glsl(env, src, stage="comp"):
    h = hashlib.sha1(src.encode()).hexdigest()[:16]

    def go():
        d = os.path.join(env.work, "spv")
        os.makedirs(d, exist_ok=True)
        comp = os.path.join(d, h + "." + stage)
        spv = os.path.join(d, h + ".spv")
        with open(comp, "w") as f:
            f.write(src)
        rc, out, err = run([env.glslang, "--target-env", "vulkan1.2", "-V", comp, "-o", spv])
        if rc != 0:
            raise CaseFailure(f"glslangValidator failed on {comp}:\n{out}{err}")
        return spv
    return once(env, ("glsl", h), go)


def lower(env, spv, config, images=False):
    nan, strat, eo = config[:3]
    outline = config[3] if len(config) > 3 else "on"
    aggregate = config[4] if len(config) > 4 else "off"
    cache = config[5] if len(config) > 5 else "on"
    opts = f"nan={nan},strategy={strat},early-out={eo},outline={outline}"
    if aggregate != "off":
        opts += f",aggregate={aggregate}"
    if cache != "on":
        opts += f",cache={cache}"
    if images:
        opts += ",images=retype"

    def go():
        out = (spv[:-4] + f".{nan}.{strat}.eo-{eo}.outline-{outline}.agg-{aggregate}"
               f".cache-{cache}.spv")
        rc, so, se = run([env.fopt, "--target-env=vulkan1.2", spv, "-o", out,
                          f"--lower-float-atomic-minmax={opts}"])
        if rc != 0:
            raise CaseFailure(f"fatomic-opt {opts} failed on {spv} (exit {rc}):\n{so}{se}")
        static_checks(env, out)
        if aggregate == "subgroup":
            aggregated_check(out)
        return out
    return once(env, ("lower", spv, config), go)


def has_bound_cache(spv):
    """Whether the module (after static_checks) holds a bound cache: a
    Private variable of the lowering (the shaders have none of their own)."""
    with open(spv[:-4] + ".spvasm") as f:
        return bool(re.search(r"= OpVariable %\S+ Private\b", f.read()))


def is_aggregated(spv):
    """Whether the module (after static_checks, which leaves its .spvasm)
    holds a subgroup reduction of keys: an aggregated atomic."""
    with open(spv[:-4] + ".spvasm") as f:
        dis = f.read()
    return bool(re.search(r"OpGroupNonUniformU(Min|Max) .*\bReduce\b", dis))


def aggregated_check(spv):
    """An aggregated case whose module holds no subgroup reduction tests
    nothing of the aggregation: a failure."""
    if not is_aggregated(spv):
        raise CaseFailure(f"aggregate=subgroup left {spv} unaggregated (no OpGroupNonUniformUMin/UMax Reduce)")


def layer_aggregates(env, c):
    """Whether the layer (aggregate=auto unless --layer-options says off)
    aggregates case c: a Relaxed f32 atomic on a buffer variable or Workgroup
    memory (not through a buffer reference) on a device whose compute shaders
    have the subgroup operations it needs (fatomic-vkrun --features).  Not
    f64: that needs shaderSubgroupExtendedTypes, which the application
    (fatomic-vkrun) enables only for modules with group operations, and the
    original module has none.  Nor a ray generation shader (--ray-tracing):
    the pass aggregates only in GLCompute entry points."""
    opts = layer_option_values(env)
    if env.ray_tracing:
        return False
    if opts.get("aggregate") == "off" or left_to_driver(env, c, opts):
        return False
    ops = ("subgroupBasic", "subgroupArithmetic") + (
        ("subgroupBallot",) if c.used else ())
    return (c.w == 32 and c.mem in ("ssbo", "shared") and c.sem in ("def", "relaxed")
            and all(env.features.get(o) for o in ops))


def layer_option_values(env):
    """--layer-options as a dict (key=value pairs, split at , or ;)."""
    return dict(re.findall(r"(?:^|[,;])([\w-]+)=(\w+)", env.layer_options))


NVIDIA_PROPRIETARY = 4  # VK_DRIVER_ID_NVIDIA_PROPRIETARY


def left_to_driver(env, c, opts):
    """Whether aggregate=auto leaves case c to the driver (docs/semantics.md,
    "Left to the driver"): NVIDIA's proprietary driver combines
    unused 32-bit atomics on buffer memory itself, and where the bound
    cache applies the per-invocation form is kept.  The cache needs
    writers=module, which the layer's options must give (its default is
    writers=any), and cache, early-out and dispatch left on."""
    cache = (opts.get("cache", "on") == "on" and opts.get("early-out", "on") == "on"
             and opts.get("strategy", "dispatch") == "dispatch"
             and opts.get("writers", "any") == "module")
    return (env.driver_id == NVIDIA_PROPRIETARY and opts.get("aggregate", "auto") == "auto"
            and cache and c.w == 32 and c.mem == "ssbo" and not c.used
            and c.sem in ("def", "relaxed"))


def static_checks(env, spv):
    problem = suite_common.static_problem(env, spv)
    if problem:
        raise CaseFailure(problem)


def pack(values, w):
    return struct.pack("<%d%s" % (len(values), "I" if w == 32 else "Q"), *values)


class Case:
    """One dispatch and its checks."""

    def __init__(self, name, w, mem, op, used, sem, impl, naddr, policy=None,
                 config=None, repeat=1, layer=None, shape=None):
        self.name, self.w, self.mem, self.op, self.used = name, w, mem, op, used
        self.shape = shape  # inactive invocations or mixed addresses (SHAPES)
        self.sem, self.impl, self.naddr = sem, impl, naddr
        self.policy, self.config, self.repeat = policy, config, repeat
        # impl "layer": "lower" (FORCE where the driver has it) or "keep"
        self.layer = layer


def seed_of(name):
    return int(hashlib.sha1(name.encode()).hexdigest()[:8], 16)


# Determinism runs: more work per dispatch, so that the workgroups of a
# CPU driver overlap in time and the interleaving really varies run to run.
DET_SIZES = {("ssbo", 1): (64, 32), ("ssbo", 64): (64, 32),
             ("bufref", 1): (64, 32), ("bufref", 64): (64, 32),
             ("shared", 1): (16, 64), ("shared", 64): (16, 64)}


def run_case(env, c):
    groups, k = (DET_SIZES if c.repeat > 1 else SIZES)[(c.mem, c.naddr)]
    parts = groups if c.mem == "shared" else 1
    rgen = c.impl == "layer" and env.ray_tracing
    src = shader_source(c.w, c.mem, c.op, c.used, c.sem,
                        "native" if c.impl in ("fatomic-opt", "layer") else c.impl,
                        c.policy, c.shape, rgen)
    spv = compile_glsl(env, src, "rgen" if rgen else "comp")
    if c.impl == "fatomic-opt":
        spv = lower(env, spv, c.config, images=c.mem == "image")
    elif c.impl not in ("native", "layer"):
        once(env, ("static", spv), lambda: static_checks(env, spv))
    # Data depends on the shader shape and address count, not on the policy:
    # all policies see the same operands.
    seed = seed_of(f"{c.w}/{c.mem}/{c.op}/{c.naddr}/{c.sem}")
    init, ops = make_data(c.w, c.naddr, groups, k, parts, seed)
    if c.shape == "mixed":
        ops = make_mixed(ops, k)
    if c.shape == "runs":
        init, ops = make_runs(init, ops, k, c.w)
        # The cache is there exactly where it applies.
        want = not c.used and len(c.config) < 6
        if has_bound_cache(spv) != want:
            raise CaseFailure(f"{spv}: bound cache {'missing' if want else 'present'}")
    d = os.path.join(env.work, "cases", re.sub(r"[^A-Za-z0-9_.-]", "_", c.name))
    os.makedirs(d, exist_ok=True)
    B = c.w // 8
    files = {"init.bin": pack(init, c.w), "vals.bin": pack([v for _, v in ops], c.w),
             "addr.bin": pack([a for a, _ in ops], 32)}
    ran = None
    if c.shape in ("cond", "exit", "trips"):
        ran = [j for j in range(len(ops))
               if active(c.shape, j % LOCAL_SIZE, (j // LOCAL_SIZE) % k, k)]
        files["ran.addr.bin"] = pack([ops[j][0] for j in ran], 32)
        files["ran.vals.bin"] = pack([ops[j][1] for j in ran], c.w)
    for n, data in files.items():
        with open(os.path.join(d, n), "wb") as f:
            f.write(data)
    width = min(c.naddr, 64)
    params = {"name": "params", "binding": 0, "size": 32,
              "init": {"u32": [c.naddr, k, width if c.mem == "image" else 0, 0]}}
    bufs = [params,
            {"name": "addr", "binding": 1, "init": {"file": "addr.bin"}},
            {"name": "vals", "binding": 2, "init": {"file": "vals.bin"}}]
    if c.mem == "image":
        # The lowered shader's image is R32ui (images=retype): the application
        # binds an R32_UINT view.
        fmt = "r32f" if c.impl == "native" else "r32ui"
        bufs.append({"name": "img", "binding": 3, "init": {"file": "init.bin"},
                     "output": "final.bin",
                     "image": {"width": width, "height": c.naddr // width, "format": fmt}})
    elif c.mem == "ssbo":
        bufs.append({"name": "dst", "binding": 3, "init": {"file": "init.bin"},
                     "output": "final.bin"})
    elif c.mem == "shared":
        bufs.append({"name": "dst", "binding": 3, "init": {"file": "init.bin"}})
        bufs.append({"name": "out", "binding": 5, "size": parts * c.naddr * B,
                     "output": "final.bin"})
    else:
        params["address_of"] = [{"offset": 16, "buffer": "dstmem"}]
        bufs.append({"name": "dstmem", "init": {"file": "init.bin"}, "output": "final.bin"})
    if c.used:
        # Returned values depend on the interleaving: not compared run to run.
        bufs.append({"name": "ret", "binding": 4, "size": len(ops) * B,
                     "output": "ret.bin", "check_identical": False})
    # A ray tracing launch's size is in invocations.
    job = {"shader": spv, "groups": [LOCAL_SIZE, groups, 1] if rgen else [groups, 1, 1],
           "buffers": bufs}
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump(job, f, indent=1)

    cmd = [env.vkrun, "-q", "--timeout", "120", os.path.join(d, "job.json")]
    native = c.impl == "native"
    if c.impl == "layer":
        if env.shader_object:
            cmd.insert(1, "--shader-object")
        if rgen:
            cmd.insert(1, "--ray-tracing")
        return run_layer_case(env, c, d, cmd, spv, parts)
    if not native:
        cmd.insert(1, "--no-float-atomics")
    if c.repeat > 1:
        cmd[1:1] = ["--repeat", str(c.repeat), "--check-identical", "--outputs-each-run"]
    rc, so, se = run(cmd)
    env.logonly(f"[{c.name}] $ {' '.join(cmd)}\n{so}{se}".rstrip())
    if native:
        feat = "shader%sFloat%dAtomicMinMax" % (
            {"shared": "Shared", "image": "Image"}.get(c.mem, "Buffer"), c.w)
        if not env.features.get(feat):
            if rc == 3 and feat in se:
                return f"refused as expected (device lacks {feat})"
            raise CaseFailure(f"device lacks {feat}: expected exit 3 naming it, got {rc}:\n{so}{se}")
    if rc != 0:
        raise CaseFailure(f"fatomic-vkrun exit {rc}:\n{so}{se}")
    note = ""
    if c.repeat > 1:
        if f"outputs identical across {c.repeat} runs" not in so:
            raise CaseFailure(f"runs not identical:\n{so}")
        note = f"final memory identical in {c.repeat} runs"
        m = re.search(r"differed from run 1 in (\d+) of (\d+) runs", so)
        if m:
            note += f"; returned values (interleaving-dependent) differed in {m.group(1)} of {m.group(2)}"
        if c.used and ran is None:
            # The returned values of every run, not the last run's alone:
            # each run's interleaving is its own.
            for k in range(1, c.repeat):
                check_final(env, c, d, parts, "native" if native else c.policy,
                            ret_suffix=f".run{k}", keep=True)
            note += f"; every run's returned values linearizable"
    if ran is not None:
        keep_ran(d, ran, c.w, c.used)
        note = (f"{note}; " if note else "") + f"{len(ran)} of {len(ops)} operations ran"
    return check_final(env, c, d, parts, "native" if native else c.policy, note,
                       "ran." if ran is not None else "")


def make_mixed(ops, k):
    """The `mixed` shape's addresses (2 of them): in each subgroup some
    invocations on address 0 and the others on address 1, the halves
    changing with the iteration: ((lid >> 2) ^ k) & 1."""
    return [((((j % LOCAL_SIZE) >> 2) ^ ((j // LOCAL_SIZE) % k)) & 1, v) for j, (_, v) in enumerate(ops)]


# The `runs` shape starts every other address at a value that a bound cache
# must not take for a bound (a NaN that `number` replaces, a NaN of the other
# sign, one with a payload) or that every operation passes.
RUNS_INIT = {
    32: [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800000],
    64: [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF0000000000000],
}


def make_runs(init, ops, k, w):
    """The `runs` shape (cache=, docs/semantics.md "The bound cache"): each
    pair of invocations stays on one address for 4 iterations, then moves
    to another, so that each address sees a few invocations, each several
    times in a row: ((invocation >> 1) + (k / 4) * 67) mod naddr."""
    naddr = len(init)
    init = [RUNS_INIT[w][(a >> 1) % 4] if a % 2 == 0 else v for a, v in enumerate(init)]
    per_group = LOCAL_SIZE * k

    def addr(j):
        inv = j // per_group * LOCAL_SIZE + j % LOCAL_SIZE
        return ((inv >> 1) + (j // LOCAL_SIZE) % k // 4 * 67) % naddr
    return init, [(addr(j), v) for j, (_, v) in enumerate(ops)]


def keep_ran(d, ran, w, used):
    """The returned values of the operations that ran (ran.ret.bin)."""
    if not used:
        return
    B = w // 8
    with open(os.path.join(d, "ret.bin"), "rb") as f:
        ret = f.read()
    with open(os.path.join(d, "ran.ret.bin"), "wb") as f:
        f.write(b"".join(ret[j * B:(j + 1) * B] for j in ran))


def check_final(env, c, d, parts, policy, note="", prefix="", ret_suffix="", keep=False):
    """fatomic-exec-oracle on the case's files; prefix "ran." gives it only
    the operations that ran (the shapes with inactive invocations);
    ret_suffix ".runK" the returned values of run K of a repeated case
    (whose final memory is every run's).  The case's directory is removed
    after a pass unless `keep` or --keep."""
    ocmd = [env.oracle, "--op", c.op, "--width", str(c.w),
            "--policy", policy,
            "--naddr", str(c.naddr), "--parts", str(parts),
            "--init", os.path.join(d, "init.bin"), "--vals", os.path.join(d, prefix + "vals.bin"),
            "--addr", os.path.join(d, prefix + "addr.bin"), "--final", os.path.join(d, "final.bin")]
    if c.used:
        ocmd += ["--returned", os.path.join(d, prefix + "ret.bin" + ret_suffix)]
    rc, so, se = run(ocmd)
    env.logonly(f"[{c.name}] {so}{se}".rstrip())
    if rc != 0:
        what = f" (returned values of run {ret_suffix[4:]})" if ret_suffix else ""
        raise CaseFailure(f"oracle (exit {rc}){what}; case files in {d}\n{so}{se}")
    if not env.keep and not keep:
        shutil.rmtree(d, ignore_errors=True)
    m = re.search(r"spec leaves no choice: (\d+)", so)
    if m:
        note = (f"{note}; " if note else "") + f"exact at {m.group(1)} addresses"
    return note


def native_feature(c):
    return "shader%sFloat%dAtomicMinMax" % (
        {"shared": "Shared", "image": "Image"}.get(c.mem, "Buffer"), c.w)


def ray_tracing_check(env, out):
    """A lowered ray tracing case: the module went into the stage's chain
    where the device allows it, and the layer, which lowered it, created the
    pipeline at once for the application's deferred operation (layer.md)."""
    m = re.search(r"^ray tracing pipeline: (.*)$", out, re.M)
    if not m:
        raise CaseFailure(f"fatomic-vkrun --ray-tracing did not say how it made the pipeline:\n{out}")
    how = m.group(1)
    if env.features.get("graphicsPipelineLibrary") and "chained" not in how:
        raise CaseFailure(f"the module was not chained into the stage: {how}")
    if not how.endswith("; VK_OPERATION_NOT_DEFERRED_KHR"):
        raise CaseFailure(f"the layer lowered the module, yet the creation was not "
                          f"VK_OPERATION_NOT_DEFERRED_KHR: {how}")


def run_layer_case(env, c, d, cmd, spv, parts):
    """The original module through the layer; see the layer mode."""
    has = bool(env.features.get(native_feature(c)))
    force = c.layer == "lower" and has
    dump = os.path.join(d, "dump")
    os.makedirs(dump, exist_ok=True)
    below = os.environ.get("VK_INSTANCE_LAYERS")
    lenv = dict(os.environ,
                VK_ADD_LAYER_PATH=os.pathsep.join(
                    [env.layer_dir] + ([os.environ["VK_ADD_LAYER_PATH"]] if below else [])),
                VK_INSTANCE_LAYERS=":".join(
                    ["VK_LAYER_FATOMIC_float_atomic_minmax"] + ([below] if below else [])),
                FATOMIC_LAYER_DUMP_DIR=dump, FATOMIC_LAYER_OPTIONS=env.layer_options,
                FATOMIC_LAYER_FORCE="1" if force else "0")
    rc, so, se = run(cmd, env=lenv)
    env.logonly(f"[{c.name}] $ FATOMIC_LAYER_FORCE={lenv['FATOMIC_LAYER_FORCE']} "
                f"{' '.join(cmd)}\n{so}{se}".rstrip())
    if rc != 0 or "hide-float2:" in se:
        raise CaseFailure(f"fatomic-vkrun through the layer: exit {rc}:\n{so}{se}")
    mods = sorted(os.listdir(dump))
    if len(mods) != 1:
        raise CaseFailure(f"the layer handed the driver {len(mods)} modules, wanted 1: {mods}")
    got = os.path.join(dump, mods[0])
    with open(got, "rb") as f, open(spv, "rb") as g:
        same = f.read() == g.read()
    if has and not force:
        if not same:
            raise CaseFailure(f"{native_feature(c)} is native, yet the layer changed the module ({got})")
        return check_final(env, c, d, parts, "native", "native through the layer")
    if same:
        raise CaseFailure(f"the layer handed the driver the module unlowered ({got})")
    if env.ray_tracing:
        ray_tracing_check(env, so)
    shutil.copy(got, got[:-4] + ".lowered.spv")
    static_checks(env, got[:-4] + ".lowered.spv")
    want = layer_aggregates(env, c)
    if is_aggregated(got[:-4] + ".lowered.spv") != want:
        raise CaseFailure(f"the layer {'did not aggregate' if want else 'aggregated'} "
                          f"({got[:-4]}.lowered.spv); docs/layer.md says it "
                          f"{'does' if want else 'does not'} here")
    return check_final(env, c, d, parts, env.layer_policy,
                       "lowered by the layer" + (" (FORCE)" if force else ""))


# ---------------------------------------------------------------------------
# Case lists
# ---------------------------------------------------------------------------

MEMS = ("ssbo", "shared", "bufref")
NADDRS = (1, 64, 4096)


def sem_variants(mem):
    return ("relaxed", "acquire", "release", "acqrel", "vmm")


def native_cases(quick):
    cases = []
    for w in (32, 64):
        for mem in MEMS:
            for op in ("min", "max"):
                for used in (True, False):
                    for n in NADDRS:
                        cases.append(Case(f"native/f{w}/{mem}/{op}/{'used' if used else 'unused'}/def/{n}",
                                          w, mem, op, used, "def", "native", n))
                for sem in sem_variants(mem):
                    cases.append(Case(f"native/f{w}/{mem}/{op}/used/{sem}/64",
                                      w, mem, op, True, sem, "native", 64))
    # f32 r32f storage images (there are no f64 image formats).
    for op in ("min", "max"):
        for used in (True, False):
            for n in NADDRS:
                cases.append(Case(f"native/f32/image/{op}/{'used' if used else 'unused'}/def/{n}",
                                  32, "image", op, used, "def", "native", n))
    # Hand-written lowerings: the harness's self-test.
    for w in (32, 64):
        for mem in MEMS:
            for op in ("min", "max"):
                for policy in ("number", "propagate", "fast"):
                    for n in (NADDRS if not quick else (64,)):
                        cases.append(Case(f"hand-cas/{policy}/f{w}/{mem}/{op}/used/{n}",
                                          w, mem, op, True, "def", "hand-cas", n, policy))
                if mem != "shared":
                    for n in NADDRS:
                        cases.append(Case(f"hand-dispatch/fast/f{w}/{mem}/{op}/used/{n}",
                                          w, mem, op, True, "def", "hand-dispatch", n, "fast"))
    return cases


def lowered_cases(quick):
    cases = []
    for w in (32, 64):
        for mem in MEMS:
            for op in ("min", "max"):
                for used in (True, False):
                    for cfg in CONFIGS:
                        for n in (NADDRS if not quick else (64,)):
                            cases.append(Case(
                                f"lowered/{cfg[0]}/{cfg[1]}/eo-{cfg[2]}/f{w}/{mem}/{op}/"
                                f"{'used' if used else 'unused'}/def/{n}",
                                w, mem, op, used, "def", "fatomic-opt", n, cfg[0], cfg))
                # The lowering written out at each atomic (outline=off)
                # rather than in shared helper functions.
                for cfg in CONFIGS:
                    cases.append(Case(
                        f"lowered/{cfg[0]}/{cfg[1]}/eo-{cfg[2]}/outline-off/f{w}/{mem}/{op}/used/def/64",
                        w, mem, op, True, "def", "fatomic-opt", 64, cfg[0], cfg + ("off",)))
                # Storage images (images=retype), f32 only.
                if w == 32 and mem == "ssbo":
                    for used in (True, False):
                        for cfg in CONFIGS:
                            for n in (NADDRS if not quick else (64,)):
                                cases.append(Case(
                                    f"lowered/{cfg[0]}/{cfg[1]}/eo-{cfg[2]}/f32/image/{op}/"
                                    f"{'used' if used else 'unused'}/def/{n}",
                                    32, "image", op, used, "def", "fatomic-opt", n, cfg[0], cfg))
                # Subgroup aggregation: one address (every subgroup
                # aggregates), 64 and 4096 (subgroups whose invocations
                # mix addresses take the per-invocation path), each policy,
                # outlined and written out; the keys, the reduction and the
                # rebuilt results are checked like every lowering.
                if mem in ("ssbo", "shared"):
                    for used in (True, False):
                        for nan in ("number", "propagate", "fast"):
                            for outline in ("on", "off"):
                                cfg = (nan, "dispatch", "on", outline, "subgroup")
                                for n in (NADDRS if not quick else (1,)):
                                    cases.append(Case(
                                        f"lowered/{nan}/dispatch/eo-on/outline-{outline}/aggregate/"
                                        f"f{w}/{mem}/{op}/{'used' if used else 'unused'}/def/{n}",
                                        w, mem, op, used, "def", "fatomic-opt", n, nan, cfg))
                cases += shape_cases(w, mem, op, quick)
                cases += runs_cases(w, mem, op, quick)
                # Explicit scopes and semantics: Release and AcquireRelease
                # forbid the early-out; Acquire and Relaxed allow it.
                for sem in sem_variants(mem):
                    for cfg in (("number", "dispatch", "on"), ("propagate", "dispatch", "on"),
                                ("fast", "dispatch", "on"), ("number", "cas", "on"),
                                ("number", "dispatch", "on", "off"),
                                ("number", "cas", "on", "off")):
                        out = "/outline-off" if len(cfg) > 3 else ""
                        cases.append(Case(
                            f"lowered/{cfg[0]}/{cfg[1]}/eo-{cfg[2]}{out}/f{w}/{mem}/{op}/used/{sem}/64",
                            w, mem, op, True, sem, "fatomic-opt", 64, cfg[0], cfg))
    return cases


def shape_cases(w, mem, op, quick):
    """Aggregated atomics with inactive invocations (SHAPES: a per-invocation
    condition, an early exit, per-invocation trip counts; one address, so
    that every subgroup aggregates with the invocations it has left) and
    with subgroups that mix two addresses (the per-invocation path).  Each
    shape with each policy, used and unused results."""
    cases = []
    if mem not in ("ssbo", "shared"):
        return cases
    for shape in SHAPES:
        n = 2 if shape == "mixed" else 1
        for used in (True, False):
            for nan in ("number", "propagate", "fast"):
                if quick and nan != "number":
                    continue
                cfg = (nan, "dispatch", "on", "on", "subgroup")
                cases.append(Case(
                    f"lowered/{nan}/dispatch/eo-on/outline-on/aggregate/{shape}/"
                    f"f{w}/{mem}/{op}/{'used' if used else 'unused'}/def/{n}",
                    w, mem, op, used, "def", "fatomic-opt", n, nan, cfg, shape=shape))
    return cases


def runs_cases(w, mem, op, quick):
    """The bound cache (cache=on, the default, for unused results whose
    memory only lowered atomics of one kind write): runs of operations of
    one invocation on one address, which start at NaNs and infinities
    (make_runs), each policy, per invocation and aggregated, against
    cache=off with the same data."""
    cases = []
    if mem != "ssbo":
        return cases
    for used in (False, True):
        for nan in ("number", "propagate", "fast"):
            if quick and nan != "number":
                continue
            for extra in (("on", "off"), ("on", "subgroup"), ("on", "off", "off")):
                cfg = (nan, "dispatch", "on") + extra
                name = "/".join(("outline-" + extra[0],
                                 "aggregate" if extra[1] == "subgroup" else "per-invocation")
                                + (("cache-off",) if len(extra) > 2 else ()))
                cases.append(Case(
                    f"lowered/{nan}/dispatch/eo-on/{name}/runs/"
                    f"f{w}/{mem}/{op}/{'used' if used else 'unused'}/def/512",
                    w, mem, op, used, "def", "fatomic-opt", 512, nan, cfg, shape="runs"))
    return cases


def layer_cases(quick, ray_tracing=False):
    """The native shaders through the layer: each lowered (FORCE where the
    driver has the feature), and one per shape left alone where native.
    ray_tracing: no Workgroup memory."""
    cases = []
    for w in (32, 64):
        for mem in MEMS:
            if ray_tracing and mem == "shared":
                continue
            for op in ("min", "max"):
                for used in (True, False):
                    for n in (NADDRS if not quick else (64,)):
                        cases.append(Case(
                            f"layer/f{w}/{mem}/{op}/{'used' if used else 'unused'}/def/{n}",
                            w, mem, op, used, "def", "layer", n, layer="lower"))
                for sem in sem_variants(mem):
                    cases.append(Case(f"layer/f{w}/{mem}/{op}/used/{sem}/64",
                                      w, mem, op, True, sem, "layer", 64, layer="lower"))
                cases.append(Case(f"layer-keep-native/f{w}/{mem}/{op}/used/def/64",
                                  w, mem, op, True, "def", "layer", 64, layer="keep"))
    return cases


def determinism_cases(quick, impl="fatomic-opt"):
    cases = []
    for w in (32, 64):
        for mem in MEMS:
            for cfg in (("number", "dispatch", "on"), ("number", "dispatch", "off"),
                        ("propagate", "dispatch", "on"), ("fast", "dispatch", "off"),
                        ("number", "cas", "on")):
                for n in (1, 64):
                    cases.append(Case(
                        f"determinism/{cfg[0]}/{cfg[1]}/eo-{cfg[2]}/f{w}/{mem}/min/used/{n}",
                        w, mem, "min", True, "def", impl, n, cfg[0], cfg, repeat=20))
    return cases


# ---------------------------------------------------------------------------
# The runner's own checks
# ---------------------------------------------------------------------------

def runner_checks(env):
    """(name, fn) pairs; fn raises CaseFailure."""
    checks = []
    d = os.path.join(env.work, "runner")
    os.makedirs(d, exist_ok=True)

    def features():
        rc, so, se = run([env.vkrun, "--features"])
        if rc != 0 or not so.startswith("device: "):
            raise CaseFailure(f"--features exit {rc}:\n{so}{se}")
        for f in ("shaderBufferFloat32AtomicMinMax", "shaderSharedFloat64AtomicMinMax",
                  "shaderBufferInt64Atomics", "shaderSharedInt64Atomics"):
            if not re.search(r"^\s+%s = [01]$" % f, so, re.M):
                raise CaseFailure(f"--features does not print {f}")
        rc2, so2, _ = run([env.vkrun, "--features", "--no-float-atomics"])
        if rc2 != 0:
            raise CaseFailure("--features --no-float-atomics failed")
    checks.append(("runner/features", features))

    def bad_inputs():
        junk = os.path.join(d, "junk.spv")
        with open(junk, "wb") as f:
            f.write(b"this is not SPIR-V")
        job = os.path.join(d, "bad.json")
        with open(job, "w") as f:
            json.dump({"shader": junk, "buffers": []}, f)
        expect = [
            ([env.vkrun, os.path.join(d, "missing.json")], 1, "cannot open job file"),
            ([env.vkrun, job], 1, "not a SPIR-V module"),
            ([env.vkrun, "--bogus"], 1, "unknown option"),
            ([env.vkrun, "--repeat", "0", job], 1, "--repeat"),
        ]
        with open(os.path.join(d, "badjson.json"), "w") as f:
            f.write("{ not json")
        expect.append(([env.vkrun, os.path.join(d, "badjson.json")], 1, "job file"))
        for cmd, code, text in expect:
            rc, so, se = run(cmd)
            if rc != code or text not in se:
                raise CaseFailure(f"{' '.join(cmd)}: wanted exit {code} and '{text}', "
                                  f"got {rc}:\n{so}{se}")
    checks.append(("runner/bad-inputs", bad_inputs))

    def arrays_and_repeat():
        # A descriptor array of three buffers, a hex/u32/fill init, an
        # address_of patch, and --repeat with per-run GPU times.
        src = """#version 460
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 4) in;
layout(buffer_reference, std430) buffer Ref { uint v[]; };
layout(std430, binding = 0) buffer Arr { uint x[]; } arr[3];
layout(std430, binding = 2) buffer P { uint add; uint pad; Ref r; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (int b = 0; b < 3; ++b) arr[b].x[i] = arr[b].x[i] * 10u + uint(b) + add;
  r.v[i] = r.v[i] + 1u;
}
"""
        spv = compile_glsl(env, src)
        job = {"shader": spv, "groups": [2], "buffers": [
            {"name": "arr", "binding": 0, "elements": [
                {"init": {"u32": [1, 2, 3, 4, 5, 6, 7, 8]}, "output": "a0.bin"},
                {"init": {"hex": "01000000 02000000 03000000 04000000"}, "size": 32,
                 "output": "a1.bin"},
                {"init": {"fill_u32": 7}, "size": 32, "output": "a2.bin"}]},
            {"name": "p", "binding": 2, "init": {"u32": [1000, 0, 0, 0]},
             "address_of": [{"offset": 8, "buffer": "refd"}]},
            {"name": "refd", "init": {"u32": list(range(8))}, "output": "r.bin"}]}
        jp = os.path.join(d, "arrays.json")
        with open(jp, "w") as f:
            json.dump(job, f)
        rc, so, se = run([env.vkrun, "--repeat", "3", jp])
        if rc != 0:
            raise CaseFailure(f"exit {rc}:\n{so}{se}")
        if len(re.findall(r"^run \d: gpu [0-9.]+ ms$", so, re.M)) != 3 and "n/a" not in so:
            raise CaseFailure(f"--repeat 3 did not print three GPU times:\n{so}")

        def words(n):
            with open(os.path.join(d, n), "rb") as f:
                b = f.read()
            return list(struct.unpack("<%dI" % (len(b) // 4), b))
        want = {
            "a0.bin": [x * 10 + 0 + 1000 for x in range(1, 9)],
            "a1.bin": [x * 10 + 1 + 1000 for x in (1, 2, 3, 4)] + [1001] * 4,
            "a2.bin": [7 * 10 + 2 + 1000] * 8,
            "r.bin": [x + 1 for x in range(8)],
        }
        for n, v in want.items():
            if words(n) != v:
                raise CaseFailure(f"{n}: got {words(n)}, want {v} (buffers are "
                                  "re-initialised before every run)")
    checks.append(("runner/descriptor-array+address+repeat", arrays_and_repeat))

    def no_float_atomics():
        # A native f32 min shader must be refused on a device created without
        # the float-atomic extensions, naming the missing feature.
        spv = compile_glsl(env, shader_source(32, "ssbo", "min", False, "def", "native"))
        job = {"shader": spv, "groups": [1], "buffers": [
            {"binding": 0, "size": 32}, {"binding": 1, "size": 256},
            {"binding": 2, "size": 256}, {"binding": 3, "size": 256}]}
        jp = os.path.join(d, "nfa.json")
        with open(jp, "w") as f:
            json.dump(job, f)
        rc, so, se = run([env.vkrun, "--no-float-atomics", jp])
        if rc != 3 or "shaderBufferFloat32AtomicMinMax" not in se:
            raise CaseFailure(f"wanted exit 3 naming shaderBufferFloat32AtomicMinMax, "
                              f"got {rc}:\n{so}{se}")
    checks.append(("runner/no-float-atomics-refuses-native", no_float_atomics))
    return checks


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--layer-dir", help="the layer's manifest directory (default BUILD/layer)")
    ap.add_argument("--hide-float2", metavar="DIR",
                    help="run every command with the test layer in DIR that hides "
                         "VK_EXT_shader_atomic_float2 (a driver like NVIDIA's)")
    ap.add_argument("--layer-options", default="",
                    help="FATOMIC_LAYER_OPTIONS for the layer mode")
    ap.add_argument("--shader-object", action="store_true",
                    help="layer mode: run each case as a compute shader object "
                         "(VK_EXT_shader_object), through the layer's vkCreateShadersEXT")
    ap.add_argument("--ray-tracing", action="store_true",
                    help="layer mode: run each case as a ray generation shader "
                         "(VK_KHR_ray_tracing_pipeline), through the layer's "
                         "vkCreateRayTracingPipelinesKHR")
    ap.add_argument("--mode", choices=["native", "lowered", "determinism", "layer", "all"],
                    default="all")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true",
                    help="fewer address counts (64 only) in the big matrices")
    ap.add_argument("--keep", help="keep every file in this directory")
    ap.add_argument("--log", help="also write the output, with every command, here")
    ap.add_argument("--filter", help="only cases whose name contains this")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.shader_object and args.mode != "layer":
        ap.error("--shader-object goes with --mode layer")
    if args.ray_tracing and (args.mode != "layer" or args.shader_object):
        ap.error("--ray-tracing goes with --mode layer, without --shader-object")
    if args.hide_float2:
        os.environ["VK_ADD_LAYER_PATH"] = os.path.abspath(args.hide_float2)
        os.environ["VK_INSTANCE_LAYERS"] = "VK_LAYER_FATOMIC_test_hide_float2"
    env = Env(args)

    for tool, what in ((env.vkrun, "fatomic-vkrun"), (env.oracle, "fatomic-exec-oracle"),
                       (env.glslang, "glslangValidator"), (env.spirv_val, "spirv-val"),
                       (env.spirv_dis, "spirv-dis")):
        if not tool or not os.path.exists(tool):
            env.say(f"error: {what} not found ({tool})")
            return 1
    have_opt = os.path.exists(env.fopt)
    modes = ["native", "lowered", "determinism"] if args.mode == "all" else [args.mode]
    if not have_opt and args.mode in ("lowered", "determinism"):
        env.say(f"SKIP: {env.fopt} is not built yet; the {args.mode} suite needs it")
        return SKIP
    if "layer" in modes and not os.path.exists(
            os.path.join(env.layer_dir, "VkLayer_FATOMIC_float_atomic_minmax.json")):
        env.say(f"error: no layer manifest in {env.layer_dir} (build target fatomic_layer)")
        return 1
    if not have_opt and "lowered" in modes:
        env.say(f"note: {env.fopt} is not built yet: lowered and determinism suites skipped")
        modes = ["native"]

    rc, so, se = run([env.vkrun, "--features"])
    if rc == 2:
        env.say(f"SKIP: no usable Vulkan device: {se.strip()}")
        return SKIP
    if rc != 0:
        env.say(f"error: fatomic-vkrun --features exit {rc}:\n{so}{se}")
        return 1
    env.device = so.splitlines()[0]
    m = re.search(r"^driverID: (\d+)$", so, re.M)
    env.driver_id = int(m.group(1)) if m else 0
    for m in re.finditer(r"^\s+(\w+) = ([01])$", so, re.M):
        env.features[m.group(1)] = m.group(2) == "1"
    env.say(env.device)
    if args.shader_object and not env.features.get("shaderObject"):
        env.say("SKIP: --shader-object: the device has no VK_EXT_shader_object")
        return SKIP
    if args.ray_tracing and not env.features.get("rayTracingPipeline"):
        env.say("SKIP: --ray-tracing: the device has no ray tracing pipelines")
        return SKIP
    env.say("native float min/max: " + ", ".join(
        f"{k}={int(v)}" for k, v in env.features.items() if k.endswith("AtomicMinMax")
        and "Float16" not in k and "sparse" not in k))
    env.say(f"modes: {' '.join(modes)}; fatomic-opt: {'yes' if have_opt else 'not built'}; "
            f"work dir: {env.work}")

    work = []  # (name, fn)
    if "native" in modes:
        work += runner_checks(env)
        work += [(c.name, (lambda c=c: run_case(env, c))) for c in native_cases(args.quick)]
    if "lowered" in modes:
        work += [(c.name, (lambda c=c: run_case(env, c))) for c in lowered_cases(args.quick)]
    if "determinism" in modes:
        work += [(c.name, (lambda c=c: run_case(env, c))) for c in determinism_cases(args.quick)]
    if "layer" in modes:
        work += [(c.name, (lambda c=c: run_case(env, c)))
                 for c in layer_cases(args.quick, args.ray_tracing)]
    if args.filter:
        work = [(n, f) for n, f in work if args.filter in n]
        if not work:
            # A filter that selects nothing is a mistake, not a pass.
            env.say(f"error: --filter {args.filter!r} matches no case of the modes "
                    f"{' '.join(modes)}")
            if not env.keep:
                shutil.rmtree(env.work, ignore_errors=True)
            return 1
    env.say(f"{len(work)} cases")

    passed, failed = 0, []
    start = time.time()

    def do(item):
        name, fn = item
        t0 = time.time()
        try:
            note = fn() or ""
            return name, True, note, time.time() - t0
        except CaseFailure as e:
            return name, False, str(e), time.time() - t0
        except Exception as e:  # noqa: BLE001 - a harness bug is a failure too
            return name, False, f"{type(e).__name__}: {e}", time.time() - t0

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for name, ok, note, dt in ex.map(do, work):
            if ok:
                passed += 1
                line = f"PASS {name}" + (f": {note}" if note else "")
                env.say(line) if args.verbose else env.logonly(line + f" ({dt:.2f}s)")
            else:
                failed.append(name)
                env.say(f"FAIL {name}: {note}")
    env.say(f"time {time.time() - start:.1f}s")
    if failed:
        env.say("failed cases:\n  " + "\n  ".join(failed))
    env.say(f"{passed} passed, {len(failed)} failed")
    if not env.keep and not failed:
        shutil.rmtree(env.work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
