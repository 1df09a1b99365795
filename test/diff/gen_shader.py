#!/usr/bin/python3
"""Random GLSL compute shaders that mix float atomic min/max with other work.

Standard library only.  `generate(seed)` returns a Shader: the GLSL source,
its buffer layout and the data to run it with, all fixed by the seed.

A shader has LS invocations in each of G workgroups.  Each invocation runs a
random program of statements, nested up to three deep:

  * float atomicMin / atomicMax on five regions of memory:
      0 dmin, 1 dmax  storage buffers of NA addresses (min only / max only),
      2 smin, 3 smax  shared arrays of NS addresses, initialised from a buffer
                      before a barrier and written out after one,
      4 priv          one storage-buffer slot per invocation (atomicMin);
    operands come from a pool of special values (zeros of both signs,
    subnormals, infinities, NaNs with payloads...) and random numbers,
    sometimes negated, doubled or made absolute; addresses from the
    invocation id, loop counters or random data;
  * uint atomics on a buffer (each counter takes one kind: atomicAdd,
    atomicMax or atomicOr) and atomicAdd on shared counters;
  * plain arithmetic into an accumulator written to a per-invocation output;
  * if/else on random data or loop counters, loops with data-dependent trip
    counts, and helper functions (which may call earlier helpers);
  * an if/else on the value an atomic on the invocation's own priv slot
    returned: only this invocation touches that slot, so the value, and so
    the control flow, does not depend on the interleaving.

f32 shaders also have a *race* region (binding 11, NR addresses) where the
float atomics race foreign writers of the same memory: atomicExchange on the
float, atomicExchange and atomicCompSwap on an integer view of the buffer (a
second block at binding 11), and atomicMin mixed with atomicMax on one
address.  Invocation gid < NRI runs one such operation, its kind, operand and
expected value chosen by the seed (race_* below); its returned value (when
the float atomic's result is used; foreign writers always) goes to a buffer.
The check is linearizability per address: the final memory and every
returned value must be what some serial order of the address's operations
gives (race_linearizable), with the lowered atomics following the NaN
policy's rules.

Every float atomic also writes (region, address, operand, returned value) to
the invocation's slice of a log buffer.  The operands and addresses depend
on the seed and the invocation only, so the log says exactly which
operations ran; the returned values of contended regions depend on the
interleaving and are only checked for linearizability.  priv operands are
clean (distinct finite non-zero numbers), so that everything derived from
priv results is the same on every conforming implementation.
"""

import random
import struct
import sys

LS = 32          # invocations per workgroup
G = 4            # workgroups
NV = 64          # operand pool
NU = 64          # random uints
NVC = 32         # clean operand pool
NC = 8           # uint counters in a buffer
NSC = 4          # uint counters in shared memory
MAX_OPS = 96     # float atomics per invocation, at most

NR = 8           # race region addresses
NRI = 64         # invocations that run a race operation (gid < NRI)
RACE_KINDS = ("min", "max", "xchg", "cas", "uxchg")

REGIONS = ("dmin", "dmax", "smin", "smax", "priv")
REGION_OP = ("min", "max", "min", "max", "min")

EXP = {32: (8, 23), 64: (11, 52)}


def special_values(w):
    e, m = EXP[w]
    sign = 1 << (w - 1)
    inf = ((1 << e) - 1) << m
    one = ((1 << (e - 1)) - 1) << m
    vals = [0, sign, 1, sign | 1, (1 << m) - 1, sign | ((1 << m) - 1),
            1 << m, sign | (1 << m), one, sign | one, inf - 1, sign | (inf - 1),
            inf, sign | inf, inf | (1 << (m - 1)), sign | inf | (1 << (m - 1)),
            inf | 1, sign | inf | 1, inf | (1 << (m - 1)) | 0x12345,
            (1 << w) - 1, (1 << (w - 1)) - 1]
    return vals


def rand_number(rng, w, spread=12):
    e, m = EXP[w]
    bias = (1 << (e - 1)) - 1
    return (rng.getrandbits(1) << (w - 1)) | ((bias + rng.randint(-spread, spread)) << m) \
        | rng.getrandbits(m)


def rand_value(rng, w):
    e, m = EXP[w]
    r = rng.random()
    if r < 0.35:
        return rng.choice(special_values(w))
    if r < 0.45:
        return (rng.getrandbits(1) << (w - 1)) | (rng.getrandbits(m) or 1)  # subnormal
    if r < 0.52:
        return (rng.getrandbits(1) << (w - 1)) | (((1 << e) - 1) << m) | (rng.getrandbits(m) or 1)
    return rand_number(rng, w)


class Shader:
    pass


# ---- the race region's model and check -------------------------------------

def _ordered(x, w):
    """U(x): the total order of the lowering (-0 < +0, NaNs by sign)."""
    sign = 1 << (w - 1)
    return x ^ ((1 << w) - 1) if x & sign else x | sign


def _is_nan(x, w):
    e, m = EXP[w]
    return (x & ((1 << (w - 1)) - 1)) > (((1 << e) - 1) << m)


def race_apply(kind, policy, w, mem, v, exp=0):
    """(new memory, returned value) of one race operation on mem."""
    if kind in ("xchg", "uxchg"):
        return v, mem
    if kind == "cas":
        return (v if mem == exp else mem), mem
    wins = _ordered(v, w) < _ordered(mem, w) if kind == "min" else \
        _ordered(v, w) > _ordered(mem, w)
    if policy == "number":
        if _is_nan(v, w):
            return mem, mem
        if _is_nan(mem, w):
            return v, mem
    elif policy == "propagate":
        if _is_nan(mem, w):
            return mem, mem
        if _is_nan(v, w):  # the sticky pattern of the kind
            return ((1 << w) - 1 if kind == "min" else (1 << (w - 1)) - 1), mem
    return (v if wins else mem), mem


def race_linearizable(policy, w, init, final, ops):
    """Whether some serial order of ops (kind, operand, expected, returned
    or None) from init ends in final with every known returned value."""
    n = len(ops)
    seen = set()
    stack = [(0, init)]
    while stack:
        mask, mem = stack.pop()
        if mask == (1 << n) - 1:
            if mem == final:
                return True
            continue
        if (mask, mem) in seen:
            continue
        seen.add((mask, mem))
        for i, (kind, v, exp, ret) in enumerate(ops):
            if mask >> i & 1:
                continue
            new, got = race_apply(kind, policy, w, mem, v, exp)
            if ret is None or ret == got:
                stack.append((mask | 1 << i, new))
    return False


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        rng = self.rng
        self.w = 64 if rng.random() < 0.25 else 32
        self.T = "float" if self.w == 32 else "double"
        self.NA = rng.choice([1, 4, 16])
        self.NS = rng.choice([1, 4, 8])
        # Whether a region's atomics use (and log) their result.  priv always
        # does: its results drive control flow.
        self.ret_used = [rng.random() < 0.6 for _ in range(4)] + [True]
        self.helpers = []
        self.nvar = 0
        # The race region, from an RNG of its own (the rest of the program
        # is the same as without it).
        rr = random.Random(seed * 31 + 7)
        self.race = self.w == 32
        mode = rr.choice(["xchg", "cas", "mixed", "all"])
        self.race_kinds = {"xchg": ["min", "xchg", "uxchg"], "cas": ["max", "cas"],
                           "mixed": ["min", "max"], "all": list(RACE_KINDS)}[mode]
        self.race_ret = rr.random() < 0.5

    # ---- expressions -------------------------------------------------------
    def var(self, prefix):
        self.nvar += 1
        return "%s%d" % (prefix, self.nvar)

    def u(self, loops):
        """A uint expression from the invocation, loop counters and data."""
        rng = self.rng
        terms = ["gid * %du" % rng.randint(1, 13), "%du" % rng.randint(0, 97)]
        if loops and rng.random() < 0.6:
            terms.append("%s * %du" % (rng.choice(loops), rng.randint(1, 7)))
        if rng.random() < 0.3:
            terms.append("uin[(gid + %du) %% %du]" % (rng.randint(0, 63), NU))
        return "(" + " + ".join(terms) + ")"

    def value(self, loops):
        x = "vin[%s %% %du]" % (self.u(loops), NV)
        r = self.rng.random()
        if r < 0.15:
            return "-" + x
        if r < 0.25:
            return "(%s * %s(2))" % (x, self.T)
        if r < 0.32:
            return "abs(%s)" % x
        return x

    def clean(self, loops):
        return "vc[%s %% %du]" % (self.u(loops), NVC)

    def address(self, region, loops):
        n = self.NA if region < 2 else self.NS
        rng = self.rng
        r = rng.random()
        base = "lid" if region >= 2 and rng.random() < 0.5 else "gid"
        if r < 0.4:
            return "(%s * %du + %du) %% %du" % (base, rng.randint(1, 5), rng.randint(0, 9), n)
        if r < 0.7 and loops:
            return "(%s + %s) %% %du" % (rng.choice(loops), base, n)
        if r < 0.85:
            return "uin[%s %% %du] %% %du" % (self.u(loops), NU, n)
        return "%du" % rng.randint(0, n - 1)

    def cond(self, loops):
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            return "(uin[%s %% %du] & 3u) == %du" % (self.u(loops), NU, rng.randint(0, 3))
        if r < 0.6 and loops:
            return "%s < %du" % (rng.choice(loops), rng.randint(1, 3))
        if r < 0.8:
            return "gid %% %du == %du" % (rng.randint(2, 5), rng.randint(0, 1))
        return "%s < %s" % (self.clean(loops), self.clean(loops))

    # ---- statements: each returns (lines, float atomics at most) ------------
    def atomic(self, loops, ind, region=None):
        rng = self.rng
        if region is None:
            region = rng.choice([0, 0, 1, 1, 2, 3, 4])
        fn = "atomicMin" if REGION_OP[region] == "min" else "atomicMax"
        mem = REGIONS[region]
        if region == 4:
            a, v = "gid", self.clean(loops)
        else:
            a, v = self.address(region, loops), self.value(loops)
        av, vv = self.var("a"), self.var("v")
        lines = ["%suint %s = %s;" % (ind, av, a), "%s%s %s = %s;" % (ind, self.T, vv, v)]
        if self.ret_used[region]:
            rv = self.var("r")
            lines.append("%s%s %s = %s(%s[%s], %s);" % (ind, self.T, rv, fn, mem, av, vv))
        else:
            rv = "%s(0)" % self.T
            lines.append("%s%s(%s[%s], %s);" % (ind, fn, mem, av, vv))
        lines.append("%slogOp(%du, %s, %s, %s);" % (ind, region, av, vv, rv))
        return lines, 1

    def statement(self, loops, depth, ind):
        rng = self.rng
        kinds = ["atomic"] * 5 + ["int", "arith", "arith"]
        if depth < 3:
            kinds += ["if", "loop", "privif", "if"]
            if self.helpers:
                kinds.append("call")
        k = rng.choice(kinds)
        if k == "atomic":
            return self.atomic(loops, ind)
        if k == "int":
            r = rng.random()
            # One kind of operation per counter (adds and maxes on one
            # counter would make its value depend on the interleaving).
            if r < 0.4:
                return ["%satomicAdd(cnt[%du], uin[%s %% %du] & 7u);" % (ind, rng.randint(0, 2), self.u(loops), NU)], 0
            if r < 0.6:
                return ["%satomicMax(cnt[%du], uin[%s %% %du]);" % (ind, rng.randint(3, 5), self.u(loops), NU)], 0
            if r < 0.8:
                return ["%satomicOr(cnt[%du], 1u << (gid %% 32u));" % (ind, rng.randint(6, NC - 1))], 0
            return ["%satomicAdd(sc[%du], 1u);" % (ind, rng.randint(0, NSC - 1))], 0
        if k == "arith":
            if rng.random() < 0.5:
                return ["%sacc = acc * %s(0.5) + %s;" % (ind, self.T, self.clean(loops))], 0
            return ["%sacc = max(acc, %s) - %s(1);" % (ind, self.clean(loops), self.T)], 0
        if k == "if":
            a, na = self.block(loops, depth + 1, ind + "  ")
            b, nb = self.block(loops, depth + 1, ind + "  ")
            return (["%sif (%s) {" % (ind, self.cond(loops))] + a + ["%s} else {" % ind] + b
                    + ["%s}" % ind]), max(na, nb)
        if k == "privif":
            lines, n = self.atomic(loops, ind, region=4)
            rv = lines[2].split()[1]  # the priv result variable
            a, na = self.block(loops, depth + 1, ind + "  ")
            b, nb = self.block(loops, depth + 1, ind + "  ")
            return (lines + ["%sif (%s < %s) {" % (ind, rv, self.clean(loops))] + a
                    + ["%s} else {" % ind] + b + ["%s}" % ind]), n + max(na, nb)
        if k == "loop":
            i = self.var("i")
            bound = rng.randint(1, 4)
            if rng.random() < 0.6:
                lim = "(uin[%s %% %du] %% %du) + 1u" % (self.u(loops), NU, bound)
            else:
                lim = "%du" % bound
            body, nb = self.block(loops + [i], depth + 1, ind + "  ")
            return (["%sfor (uint %s = 0u; %s < %s; ++%s) {" % (ind, i, i, lim, i)] + body
                    + ["%s}" % ind]), bound * nb
        # call
        name, nops = rng.choice(self.helpers)
        return ["%sacc = %s(%s, acc);" % (ind, name, self.u(loops))], nops

    def block(self, loops, depth, ind):
        lines, n = [], 0
        for _ in range(self.rng.randint(1, 3)):
            l, k = self.statement(loops, depth, ind)
            lines += l
            n += k
        return lines, n

    # ---- the race region -----------------------------------------------------
    def race_decls(self):
        L = ["layout(std430, binding = 11) buffer DR { float dr[%d]; };" % NR]
        if {"cas", "uxchg"} & set(self.race_kinds):
            L.append("layout(std430, binding = 11) buffer DRU { uint dru[%d]; };" % NR)
        L.append("layout(std430, binding = 12) readonly buffer RIn { uint rk[%d]; uint rop[%d];"
                 " uint rexp[%d]; };" % (NRI, NRI, NRI))
        L.append("layout(std430, binding = 13) writeonly buffer ROut { uint rret[%d]; };" % NRI)
        return L

    def race_function(self):
        L = ["void raceOp() {",
             "  if (gid >= %du) return;" % NRI,
             "  uint ra = gid %% %du, k = rk[gid], r = 0u;" % NR,
             "  float v = uintBitsToFloat(rop[gid]);"]
        for i, kind in enumerate(RACE_KINDS):
            if kind not in self.race_kinds:
                continue
            if kind in ("min", "max"):
                fn = "atomicMin" if kind == "min" else "atomicMax"
                stmt = ("r = floatBitsToUint(%s(dr[ra], v));" % fn if self.race_ret
                        else "%s(dr[ra], v);" % fn)
            elif kind == "xchg":
                stmt = "r = floatBitsToUint(atomicExchange(dr[ra], v));"
            elif kind == "cas":
                stmt = "r = atomicCompSwap(dru[ra], rexp[gid], rop[gid]);"
            else:
                stmt = "r = atomicExchange(dru[ra], rop[gid]);"
            L.append("  if (k == %du) { %s }" % (i, stmt))
        L.append("  rret[gid] = r;")
        L.append("}")
        return L

    # ---- the shader ----------------------------------------------------------
    def program(self):
        T, w = self.T, self.w
        helper_src = []
        for h in range(self.rng.randint(0, 2)):
            name = "helper%d" % h
            body, n = self.block(["k"], 1, "  ")
            helper_src += ["%s %s(uint k, %s acc) {" % (T, name, T)] + body + ["  return acc;", "}"]
            self.helpers.append((name, n))
        body, nops = self.block([], 0, "  ")
        body2, nops2 = self.block([], 1, "  ")
        body += body2
        nops += nops2
        L = ["#version 460", "#extension GL_EXT_shader_atomic_float2 : require"]
        if self.race and "xchg" in self.race_kinds:
            L.append("#extension GL_EXT_shader_atomic_float : require")
        if w == 64:
            L.append("#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require")
        L.append("layout(local_size_x = %d) in;" % LS)
        L.append("layout(std430, binding = 0) readonly buffer In { %s vin[%d]; };" % (T, NV))
        L.append("layout(std430, binding = 1) readonly buffer InU { uint uin[%d]; };" % NU)
        L.append("layout(std430, binding = 2) readonly buffer InC { %s vc[%d]; };" % (T, NVC))
        L.append("layout(std430, binding = 3) readonly buffer SInit { %s sinit[%d]; };" % (T, 2 * self.NS))
        L.append("layout(std430, binding = 4) buffer DMin { %s dmin[%d]; };" % (T, self.NA))
        L.append("layout(std430, binding = 5) buffer DMax { %s dmax[%d]; };" % (T, self.NA))
        L.append("layout(std430, binding = 6) buffer Priv { %s priv[%d]; };" % (T, G * LS))
        L.append("layout(std430, binding = 7) buffer Cnt { uint cnt[%d]; };" % (NC + NSC))
        L.append("layout(std430, binding = 8) writeonly buffer OutV { %s outv[%d]; uint nlogs[%d]; };"
                 % (T, G * LS, G * LS))
        L.append("layout(std430, binding = 9) writeonly buffer SOut { %s sout[%d]; };"
                 % (T, G * 2 * self.NS))
        L.append("struct Entry { uint region; uint addr; %s val; %s ret; };" % (T, T))
        L.append("layout(std430, binding = 10) writeonly buffer Log { Entry lg[%d]; };"
                 % (G * LS * max(nops, 1)))
        if self.race:
            L += self.race_decls()
        L.append("shared %s smin[%d];" % (T, self.NS))
        L.append("shared %s smax[%d];" % (T, self.NS))
        L.append("shared uint sc[%d];" % NSC)
        L.append("uint gid, lid, wg, nlog;")
        L.append("void logOp(uint region, uint addr, %s v, %s r) {" % (T, T))
        L.append("  if (nlog < %du) lg[gid * %du + nlog] = Entry(region, addr, v, r);"
                 % (max(nops, 1), max(nops, 1)))
        L.append("  nlog++;")
        L.append("}")
        L += helper_src
        if self.race:
            L += self.race_function()
        L.append("void main() {")
        L.append("  gid = gl_GlobalInvocationID.x; lid = gl_LocalInvocationID.x;"
                 " wg = gl_WorkGroupID.x; nlog = 0u;")
        L.append("  %s acc = %s(0);" % (T, T))
        L.append("  for (uint s = lid; s < %du; s += %du) { smin[s] = sinit[s]; smax[s] = sinit[%du + s]; }"
                 % (self.NS, LS, self.NS))
        L.append("  if (lid < %du) sc[lid] = 0u;" % NSC)
        L.append("  barrier();")
        if self.race:
            L.append("  raceOp();")
        L += body
        L.append("  barrier();")
        L.append("  for (uint s = lid; s < %du; s += %du) { sout[wg * %du + s] = smin[s];"
                 " sout[wg * %du + %du + s] = smax[s]; }"
                 % (self.NS, LS, 2 * self.NS, 2 * self.NS, self.NS))
        L.append("  if (lid < %du) atomicAdd(cnt[%du + lid], sc[lid]);" % (NSC, NC))
        L.append("  outv[gid] = acc;")
        L.append("  nlogs[gid] = nlog;")
        L.append("}")
        return "\n".join(L) + "\n", nops


def generate(seed):
    """The shader and data for \\p seed; None when the program came out
    larger than MAX_OPS atomics per invocation (the caller takes the next
    attempt, see generate_bounded)."""
    g = Gen(seed)
    src, nops = g.program()
    if nops > MAX_OPS:
        return None
    rng = random.Random(seed * 7919 + 1)
    s = Shader()
    s.seed, s.source, s.w, s.T = seed, src, g.w, g.T
    s.NA, s.NS, s.maxlog, s.ret_used = g.NA, g.NS, max(nops, 1), g.ret_used
    w = g.w
    s.vin = [rand_value(rng, w) for _ in range(NV)]
    s.uin = [rng.getrandbits(32) for _ in range(NU)]
    clean = set()
    while len(clean) < NVC:
        clean.add(rand_number(rng, w, spread=6))
    s.vc = sorted(clean)
    rng.shuffle(s.vc)
    s.sinit = [rand_value(rng, w) for _ in range(2 * g.NS)]
    s.dmin = [rand_value(rng, w) for _ in range(g.NA)]
    s.dmax = [rand_value(rng, w) for _ in range(g.NA)]
    s.priv = [rng.choice(s.vc) for _ in range(G * LS)]
    s.cnt = [rng.getrandbits(8) for _ in range(NC)] + [0] * NSC
    s.race, s.race_kinds, s.race_ret = g.race, g.race_kinds, g.race_ret
    if g.race:
        rr = random.Random(seed * 31 + 8)
        s.dr = [rand_value(rr, 32) for _ in range(NR)]
        s.rk = [RACE_KINDS.index(rr.choice(g.race_kinds)) for _ in range(NRI)]
        s.rop = [rand_value(rr, 32) for _ in range(NRI)]
        # Expected values that sometimes match: the address's initial value
        # or another operation's operand on it.
        s.rexp = [rr.choice([s.dr[i % NR], s.rop[(i + NR * rr.randint(1, 7)) % NRI],
                             rand_value(rr, 32)]) for i in range(NRI)]
    return s


def generate_bounded(seed):
    """generate(), retrying with derived seeds until the program fits."""
    for attempt in range(100):
        s = generate(seed * 1000 + attempt if attempt else seed)
        if s is not None:
            s.seed = seed
            return s
    raise RuntimeError("no program within %d atomics for seed %d" % (MAX_OPS, seed))


def pack(values, w):
    return struct.pack("<%d%s" % (len(values), "I" if w == 32 else "Q"), *values)


if __name__ == "__main__":
    sys.stdout.write(generate_bounded(int(sys.argv[1]) if len(sys.argv) > 1 else 0).source)
