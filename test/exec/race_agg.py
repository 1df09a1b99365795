"""Race cases of subgroup aggregation (aggregate=subgroup) for race_suite.py.

This file owns the aggregated race cases: their GLSL shader, the check that
fatomic-opt really aggregated the module, and the linearizability oracle
over every operation on an address.  Standard library only.

Per address, the invocations of one subgroup (all of its lanes, or a subset
that a per-lane condition leaves active) run the lowered atomic on that one
address, each lane with an operand of a small table (a NaN among them),
while one invocation of the neighbouring workgroup runs the racing writer
(atomicExchange, atomicCompSwap on the integer view, or the other min/max)
on the same address; both sides meet at the address with a bounded wait.
The shader records the subgroup size, which lanes took part and with which
operand, and (used results) what each lane's atomic returned.

The oracle: a serial order of all k + 1 operations on the address must
exist that gives every returned value (each lane's where used, the racer's
where it returns one) and the final memory.  It searches the states (racer
done?, how many operations of each (operand, returned) class applied,
memory), memoised, and caches the verdict per observation, since many
addresses give the same one.  It also says where the racer can stand among
the k lowered operations, which shows that the race really happens: the
racer before the subgroup's operations at some addresses, after them at
others.
"""

import collections
import re
import struct

from race_model import (F1, F2, F5, F100, F200, F20000, LOCAL, NEG0, NEG1, NEG_QNAN,
                        POS_QNAN, canon, minmax, same)

SLOTS = 64  # per address: one slot per subgroup lane (a subgroup has <= 64 here)


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

TABLES = {  # the lanes' operands, by NaN policy; the initial memory is F100
    "number": [F5, F1, F200, NEG_QNAN],
    "propagate": [F5, F1, F200, POS_QNAN],
    "fast": [F5, NEG0, F200, NEG1],
}
XCHG = {"number": NEG_QNAN, "propagate": POS_QNAN, "fast": F200}
CAS = {"number": NEG_QNAN, "propagate": POS_QNAN, "fast": F20000}
# The opposite op (a min against the lowered max): a value inside the
# table's range, so that the order shows in the final memory.
OPP = {"number": F2, "propagate": F2, "fast": NEG1}

# (lanes, used, lowered kind, racer kind): all lanes or a divergent subset;
# every racer with used and unused results.
SHAPES = [("all", True, "min", "xchg"), ("all", False, "min", "cas"),
          ("div", True, "max", "min"), ("div", False, "min", "xchg"),
          ("all", True, "min", "cas"), ("div", False, "max", "min")]

# Racers that write what the aggregated atomic must keep: below every
# operand of a min, above every operand of a max.  With unused results the
# racers above write what the lanes overwrite anyway (a NaN, or 200 against
# min 5), so a lost racer write looks like a serial order there; these show
# it in the final memory.  (lanes, lowered kind, racer kind, racer values).
NEG2 = 0xC0000000
BELOW = {"number": NEG1, "propagate": NEG1, "fast": NEG2}
ABOVE = {"number": F20000, "propagate": F20000, "fast": F20000}
KEPT_SHAPES = [("all", "min", "xchg", BELOW), ("div", "min", "cas", BELOW),
               ("all", "max", "xchg", ABOVE)]


def cases():
    out = {}
    for pol in ("number", "propagate", "fast"):
        for lanes, used, kind, rkind in SHAPES:
            rv = {"xchg": XCHG, "cas": CAS}.get(rkind, OPP)[pol]
            name = f"agg-{pol}-{lanes}-{'used' if used else 'unused'}-{kind}-vs-{rkind}"
            out[name] = dict(policy=pol, lanes=lanes, used=used, kind=kind, racer=rkind,
                             rv=rv, init=F100, table=TABLES[pol])
        for lanes, kind, rkind, values in KEPT_SHAPES:
            where = "below" if values is BELOW else "above"
            name = f"agg-{pol}-{lanes}-unused-{kind}-vs-{rkind}-{where}"
            out[name] = dict(policy=pol, lanes=lanes, used=False, kind=kind, racer=rkind,
                             rv=values[pol], init=F100, table=TABLES[pol])
    return out


# ---------------------------------------------------------------------------
# Shader
# ---------------------------------------------------------------------------

# The operand index of lane l at address a: one value for every lane where
# a % 3 == 0, every value where a % 3 == 1, every other value where 2.
IDX = "(a + lane * (a % 3u)) % 4u"
# The divergent subset: a per-lane condition that varies with the address.
COND = "((lane * 7u) ^ (a + (a >> 3))) % 3u != 0u"


def racer_line(case):
    rk, init = case["racer"], case["init"]
    if rk == "xchg":
        return "ret.r[a] = floatBitsToUint(atomicExchange(dst.x[a], params.rv));"
    if rk == "cas":
        return f"ret.r[a] = atomicCompSwap(dstu.u[a], {init}u, floatBitsToUint(params.rv));"
    return f"atomic{rk.capitalize()}(dst.x[a], params.rv);"


def lowered_lines(case):
    op = f"atomic{case['kind'].capitalize()}(dst.x[a], params.vals[idx])"
    call = f"lret.v[a * {SLOTS}u + lane] = floatBitsToUint({op});" if case["used"] else f"{op};"
    body = [f"      uint idx = {IDX};",
            f"      took.t[a * {SLOTS}u + lane] = idx + 1u;",
            f"      {call}"]
    if case["lanes"] == "all":
        return body
    return [f"      if ({COND}) {{"] + ["  " + x for x in body] + ["      }"]


def shader(case):
    L = ["#version 450",
         "#extension GL_EXT_shader_atomic_float : require",
         "#extension GL_EXT_shader_atomic_float2 : require",
         "#extension GL_KHR_shader_subgroup_basic : require",
         f"layout(local_size_x = {LOCAL}) in;",
         "layout(std430, binding = 0) buffer Params { uint n; float rv; uint p0; uint p1; float vals[4]; } params;",
         "layout(std430, binding = 1) buffer Dst { float x[]; } dst;",
         "layout(std430, binding = 2) buffer Ret { uint r[]; } ret;",
         "layout(std430, binding = 3) buffer Sync { uint s[]; } sync_;",
         "layout(std430, binding = 4) buffer Took { uint t[]; } took;",
         "layout(std430, binding = 5) buffer LRet { uint v[]; } lret;",
         "layout(std430, binding = 6) buffer Info { uint sgsize; } info;"]
    if case["racer"] == "cas":
        L.append("layout(std430, binding = 1) buffer DstU { uint u[]; } dstu;")
    L += ["void main() {",
          "  // Workgroup p: subgroup s of it runs the aggregated atomic on",
          "  // addresses s, s + subgroups, ... of the pair's share; workgroup",
          "  // p + pairs (the other lavapipe thread) the racer on the same",
          "  // addresses in the same order, one invocation per address.",
          "  uint g = gl_WorkGroupID.x, pairs = gl_NumWorkGroups.x / 2u;",
          "  uint share = (params.n + pairs - 1u) / pairs;",
          "  uint lane = gl_SubgroupInvocationID;",
          "  if (gl_WorkGroupID.x == 0u && gl_LocalInvocationIndex == 0u) info.sgsize = gl_SubgroupSize;",
          "  for (uint j = gl_SubgroupID; j < share; j += gl_NumSubgroups) {",
          "    uint a = (g % pairs) * share + j;",
          "    if (a >= params.n) break;",
          "    if (subgroupElect()) atomicAdd(sync_.s[a], 1u);",
          "    for (uint t = 0u; t < 2000u && atomicAdd(sync_.s[a], 0u) < 2u; ++t) {}",
          "    if (g < pairs) {"]
    L += lowered_lines(case)
    L += ["    } else if (subgroupElect()) {",
          "      " + racer_line(case),
          "    }",
          "  }",
          "}"]
    return "\n".join(L) + "\n"


def aggregation_problem(dis, case):
    """Why the lowered module (its disassembly) is not aggregated, or None."""
    group = "OpGroupNonUniformUMin" if case["kind"] == "min" else "OpGroupNonUniformUMax"
    if not re.search(r"\b%s\b.*\bReduce\b" % group, dis):
        return f"not aggregated: no {group} Reduce in the lowered module"
    return None


def job(case, n, pairs, low):
    params = [n, case["rv"], 0, 0] + list(case["table"])
    return {"shader": low, "groups": [2 * pairs, 1, 1], "buffers": [
        {"name": "params", "binding": 0, "init": {"u32": params}},
        {"name": "dst", "binding": 1, "init": {"file": "init.bin"}, "output": "final.bin",
         "check_identical": False},
        {"name": "ret", "binding": 2, "size": 4 * n, "output": "ret.bin",
         "check_identical": False},
        {"name": "sync", "binding": 3, "size": 4 * n},
        {"name": "took", "binding": 4, "size": 4 * n * SLOTS, "output": "took.bin",
         "check_identical": False},
        {"name": "lret", "binding": 5, "size": 4 * n * SLOTS, "output": "lret.bin",
         "check_identical": False},
        {"name": "info", "binding": 6, "size": 16, "output": "info.bin"}]}


# ---------------------------------------------------------------------------
# Oracle
# ---------------------------------------------------------------------------

class Address:
    """What one address's operations were and what they gave: the lowered
    operations as (operand, returned or None), the racer's returned value
    (None where it returns none), the final memory."""

    def __init__(self, ops, racer_ret, final):
        self.classes = tuple(sorted(collections.Counter(ops).items()))
        self.racer_ret, self.final = racer_ret, final

    def key(self):
        return (self.classes, self.racer_ret, self.final)


class Oracle:
    """Linearizability of one case's addresses; see the file's header."""

    def __init__(self, case):
        self.case = case
        self.pol = case["policy"]
        self.width = case.get("width", 32)  # 64: nvptx-race.py's f64 cases
        self.verdicts = {}

    def racer_step(self, mem, rret):
        """Memory after the racer at `mem`, or None where its returned value
        says it did not run at `mem`."""
        c, rk, w = self.case, self.case["racer"], self.width
        if rk in ("xchg", "cas") and not same(self.pol, mem, rret, w):
            return None
        if rk == "xchg":
            return canon(self.pol, c["rv"], w)
        if rk == "cas":
            return canon(self.pol, c["rv"], w) if mem == c["init"] else mem
        return minmax(rk, self.pol, mem, c["rv"], w)

    def positions(self, obs):
        """Where the racer can stand (how many lowered operations before it)
        in the serial orders that give `obs`; empty: not linearizable."""
        k = obs.key()
        if k not in self.verdicts:
            self.verdicts[k] = frozenset(self.search(obs))
        return self.verdicts[k]

    def search(self, obs):
        classes = [c for c, _ in obs.classes]
        limit = tuple(n for _, n in obs.classes)
        kind, pol, w = self.case["kind"], self.pol, self.width
        good, seen, found = {}, set(), set()

        def steps(state):
            done, counts, mem = state
            for i, (v, r) in enumerate(classes):
                if counts[i] < limit[i] and (r is None or same(pol, mem, r, w)):
                    nc = counts[:i] + (counts[i] + 1,) + counts[i + 1:]
                    yield False, (done, nc, canon(pol, minmax(kind, pol, mem, v, w), w))
            if not done:
                m = self.racer_step(mem, obs.racer_ret)
                if m is not None:
                    yield True, (True, counts, m)

        def can_finish(state):
            if state not in good:
                done, counts, mem = state
                good[state] = ((done and counts == limit and same(pol, mem, obs.final, w))
                               or any(can_finish(s) for _, s in steps(state)))
            return good[state]

        def walk(state):
            if state in seen:
                return
            seen.add(state)
            for is_racer, s in steps(state):
                if can_finish(s):
                    if is_racer:
                        found.add(sum(state[1]))
                    walk(s)

        start = (False, (0,) * len(classes), canon(pol, self.case["init"], w))
        if can_finish(start):
            walk(start)
        return found


def bits(v, width=32):
    """A bit pattern in hex, `-` for None."""
    return "-" if v is None else "0x%0*X" % (width // 4, v)


def hexed(classes, width=32):
    """((operand, returned), count) pairs with the bit patterns in hex."""
    return ", ".join("(%s, %s) x%d" % (bits(v, width), bits(r, width), n)
                     for (v, r), n in classes)


def words(path, count, width=32):
    with open(path, "rb") as f:
        return struct.unpack(f"<{count}{'I' if width == 32 else 'Q'}",
                             f.read(width // 8 * count))


def observations(case, d, n):
    """The Address observations of one run (files in d) and the subgroup size."""
    w = case.get("width", 32)
    final = words(f"{d}/final.bin", n, w)
    rret = words(f"{d}/ret.bin", n, w)
    took = words(f"{d}/took.bin", n * SLOTS)
    lret = words(f"{d}/lret.bin", n * SLOTS, w)
    sgsize = words(f"{d}/info.bin", 1)[0]
    table = case["table"]
    out = []
    for a in range(n):
        ops = []
        for lane in range(SLOTS):
            t = took[a * SLOTS + lane]
            if t:
                ops.append((table[t - 1], lret[a * SLOTS + lane] if case["used"] else None))
        out.append(Address(ops, rret[a] if case["racer"] in ("xchg", "cas") else None, final[a]))
    return out, sgsize


def check_round(case, oracle, d, n, tally):
    """Checks one run's files in d (every address: the lanes that ran, and
    the oracle); returns (subgroup size, first violation or None, number of
    violations)."""
    obs, sgsize = observations(case, d, n)
    bad, example = 0, None
    for a, o in enumerate(obs):
        want = expected_lanes(case, a, sgsize)
        lanes = sum(c for _, c in o.classes)
        if lanes != len(want):
            bad += 1
            example = example or (f"address {a}: {lanes} lanes ran the atomic, "
                                  f"the program runs {len(want)}")
            continue
        pos = oracle.positions(o)
        tally.add(pos, lanes)
        tally.lanes[lanes] += 1
        if not pos:
            bad += 1
            w = oracle.width
            example = example or (
                f"address {a}: lanes ((operand, returned), count) {hexed(o.classes, w)}, "
                f"racer returned {bits(o.racer_ret, w)}, final {bits(o.final, w)}: "
                "no serial order gives this")
    return sgsize, example, bad


def expected_lanes(case, a, sgsize):
    """Which lanes of the subgroup at address a run the atomic, with which
    operand index (the shader's IDX and COND in Python)."""
    lanes = {}
    for lane in range(sgsize):
        if case["lanes"] == "div" and ((lane * 7) ^ (a + (a >> 3))) % 3 == 0:
            continue
        lanes[lane] = (a + lane * (a % 3)) % 4
    return lanes


class Tally:
    """Where the racer stood, over the addresses of a case."""

    def __init__(self):
        self.first = self.last = self.inside = self.either = self.bad = 0
        self.lanes = collections.Counter()

    def add(self, pos, k):
        if not pos:
            self.bad += 1
        elif pos == {0} and k:
            self.first += 1
        elif pos == {k} and k:
            self.last += 1
        elif all(0 < p < k for p in pos):
            self.inside += 1
        else:
            self.either += 1

    def line(self):
        return (f"racer before the subgroup's operations at {self.first}, after them at "
                f"{self.last}, strictly between at {self.inside}, undecided at {self.either}")


def self_test():
    """The oracle must reject what no serial order gives; returns a list of
    the checks it got wrong (empty: all right)."""
    c = cases()["agg-number-all-used-min-vs-xchg"]
    o = Oracle(c)
    wrong = []

    def expect(name, obs, want):
        got = o.positions(obs)
        if want != got:
            wrong.append(f"{name}: positions {sorted(got)}, want {sorted(want)}")

    # Two lanes: min 5 then min 1, racer stores NaN last.
    expect("racer last", Address([(F5, F100), (F1, F5)], F1, NEG_QNAN), {2})
    # Racer first: lanes see the NaN, the first number replaces it.
    expect("racer first", Address([(F5, NEG_QNAN), (F1, F5)], F100, F1), {0})
    expect("racer between", Address([(F5, F100), (F1, NEG_QNAN)], F5, F1), {1})
    # An inclusive scan: the second lane returns its own fold (1, not 5).
    expect("inclusive scan", Address([(F5, F100), (F1, F1)], F1, NEG_QNAN), set())
    expect("wrong final", Address([(F5, F100), (F1, F5)], F1, F5), set())
    expect("racer saw nothing", Address([(F5, F100), (F1, F5)], F200, NEG_QNAN), set())
    u = Oracle(cases()["agg-fast-all-unused-min-vs-cas"])
    # The compare-exchange saw the initial value: it ran first.
    got = u.positions(Address([(F5, None), (NEG1, None)], F100, NEG1))
    if got != {0}:
        wrong.append(f"fast cas first: positions {sorted(got)}, want [0]")
    # It saw -1: after min -1, before or after min 5.
    got = u.positions(Address([(F5, None), (NEG1, None)], NEG1, NEG1))
    if got != {1, 2}:
        wrong.append(f"fast cas later: positions {sorted(got)}, want [1, 2]")
    if u.positions(Address([(F5, None), (NEG1, None)], F100, F5)):
        wrong.append("fast cas: final 5 accepted (the fold of -1 is lost)")
    return wrong
