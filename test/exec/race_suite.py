#!/usr/bin/python3
"""Race tests of lowered float atomics against other writers of the same memory.

Standard library only; run with /usr/bin/python3.

  race_suite.py --build-dir BUILD [--fatomic-opt PATH] [--addresses N]
                [--agg-addresses N] [--aggregate MODE] [--rounds R]
                [--filter S] [--work DIR]

Each case is a GLSL compute shader in which, for every address of a float
buffer, one invocation runs a lowered float atomic (fatomic-opt, default
options unless the case names some) and an invocation of the neighbouring
workgroup runs a racing writer: an atomicExchange, an atomicCompSwap on the
shader's own integer view of the buffer (a second block at the same
binding), an atomicStore, or the other kind of float atomic (min against
max).  Some racers write a NaN the lowering must handle; others a value the
lowered atomic must keep, so that a write it loses shows in the final
memory.
Neighbouring workgroups run at the same time on lavapipe's threads.

The check is linearizability: for every address, the final memory together
with the racing writer's returned value must be what one of the two serial
orders of the two operations gives (the oracle below computes both orders
with the NaN policy's rules).  A lowering that is not linearizable against
such writers (the load-decided NaN fix-up of `nan=number`, the sticky
single-RMW form of `nan=propagate`, before the writer analysis) fails here on
lavapipe; --fatomic-opt selects another fatomic-opt binary to show it.

The agg-* cases (race_agg.py) lower with aggregate=subgroup: per address a
whole subgroup, or a divergent subset of it, runs the aggregated atomic with
different operands per lane against one racing writer; every operation on
the address (the k lanes' and the racer's) must be linearizable, and the
lowered module must really be aggregated (--aggregate off shows that check
failing).  The oracle checks itself first on observations that no serial
order gives.

The seq-* cases (agg_seq.py) lower with aggregate=subgroup too: invocations
that each run eight atomics on one address with their results used, in
layouts of whole, partial, split and one-operand blocks; every address must
be linearizable in each invocation's program order.

Exit status: 0 all passed, 1 a violation or error (a --filter that matches
no case is one), 77 skipped (no tool or no Vulkan device).
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "utils"))
import agg_seq  # noqa: E402
import race_agg  # noqa: E402
import validate_spv  # noqa: E402

SKIP = 77
from race_model import (F1, F5, F100, F200, F20000, LOCAL, NEG_QNAN, POS_QNAN,  # noqa: E402
                        minmax, same)


# Each case: the lowered atomic (kind, operand), the racing writer, the
# initial value, the pass options.
CASES = {
    # nan=number, result unused: the NaN fix-up must be decided from the
    # integer atomic's own result when an exchange can store a NaN.
    "number-unused-vs-exchange": dict(
        lowered=("min", F5), racer=("xchg", NEG_QNAN), init=F100, policy="number"),
    # The same with a compare-exchange on the integer view of the buffer.
    "number-unused-vs-cas-view": dict(
        lowered=("min", F5), racer=("cas", NEG_QNAN), init=F100, policy="number"),
    # nan=propagate: atomicMin(x, NaN) and atomicMax(x, k) on one address.
    "propagate-min-nan-vs-max": dict(
        lowered=("min", POS_QNAN), racer=("max", F20000), init=F100, policy="propagate"),
    # nan=propagate: atomicExchange(x, +qNaN) against atomicMin(x, 1.0).
    "propagate-exchange-vs-min": dict(
        lowered=("min", F1), racer=("xchg", POS_QNAN), init=F100, policy="propagate"),
    # The other policy: nan=fast (one integer atomic) against an exchange.
    "fast-exchange-vs-min": dict(
        lowered=("min", F5), racer=("xchg", F200), init=F100, policy="fast"),
    # The racers above, but for propagate-exchange-vs-min's NaN (which stays
    # under propagate), write what the lowered atomic overwrites anyway (a
    # NaN under number, 200 against min 5, 20000 against a NaN min), so a
    # lost racer write looks like the serial order "racer first" there.  These racers write what the lowered
    # atomic must keep (below min's operand, above max's): an integer atomic
    # that is not atomic, or a store in its place, loses that write, and the
    # final memory shows it.
    "number-unused-min-vs-exchange-below": dict(
        lowered=("min", F5), racer=("xchg", F1), init=F100, policy="number"),
    "number-unused-max-vs-exchange-above": dict(
        lowered=("max", F5), racer=("xchg", F200), init=F1, policy="number"),
    "number-unused-min-vs-cas-below": dict(
        lowered=("min", F5), racer=("cas", F1), init=F100, policy="number"),
    "number-unused-min-vs-store-below": dict(
        lowered=("min", F5), racer=("store", F1), init=F100, policy="number"),
    "propagate-min-vs-exchange-below": dict(
        lowered=("min", F5), racer=("xchg", F1), init=F100, policy="propagate"),
    "propagate-max-vs-store-above": dict(
        lowered=("max", F5), racer=("store", F200), init=F1, policy="propagate"),
    "fast-min-vs-cas-below": dict(
        lowered=("min", F5), racer=("cas", F1), init=F100, policy="fast"),
}


def shader(case):
    kind, _ = case["lowered"]
    rkind, _ = case["racer"]
    lines = [
        "#version 450",
        "#extension GL_EXT_shader_atomic_float : require",
        "#extension GL_EXT_shader_atomic_float2 : require",
        f"layout(local_size_x = {LOCAL}) in;",
        "layout(std430, set = 0, binding = 0) buffer Params { uint n; float v; float rv; uint pad; } params;",
        "layout(std430, set = 0, binding = 1) buffer Dst { float x[]; } dst;",
        "layout(std430, set = 0, binding = 2) buffer Ret { uint r[]; } ret;",
        "layout(std430, set = 0, binding = 3) buffer Sync { uint s[]; } sync_;",
    ]
    if rkind == "cas":
        lines.append("layout(std430, set = 0, binding = 1) buffer DstU { uint u[]; } dstu;")
    if rkind == "store":
        lines.insert(1, "#extension GL_KHR_memory_scope_semantics : require")
    lines += [
        "void main() {",
        "  // Workgroup p runs the lowered atomic on its share of the addresses,",
        "  // workgroup p + pairs the racing writer on the same addresses in the",
        "  // same order (lavapipe gives each of two threads one half of the",
        "  // workgroups, in order: the two run side by side).",
        "  uint g = gl_WorkGroupID.x, pairs = gl_NumWorkGroups.x / 2u;",
        "  uint share = (params.n + pairs - 1u) / pairs;",
        f"  for (uint j = gl_LocalInvocationID.x; j < share; j += {LOCAL}u) {{",
        "  uint a = (g % pairs) * share + j;",
        "  if (a >= params.n) break;",
        "  // Both sides meet at each address (a bounded wait: a side that runs",
        "  // alone goes on), so that their atomics overlap.",
        "  atomicAdd(sync_.s[a], 1u);",
        "  for (uint t = 0u; t < 2000u && atomicAdd(sync_.s[a], 0u) < 2u; ++t) {}",
        "  if (g < pairs) {",
        f"    atomic{kind.capitalize()}(dst.x[a], params.v);",
        "  } else {",
    ]
    if rkind == "xchg":
        lines.append("    ret.r[a] = floatBitsToUint(atomicExchange(dst.x[a], params.rv));")
    elif rkind == "cas":
        lines.append(f"    ret.r[a] = atomicCompSwap(dstu.u[a], {case['init']}u, floatBitsToUint(params.rv));")
    elif rkind == "store":
        lines.append("    atomicStore(dst.x[a], params.rv, gl_ScopeDevice, 0, 0);")
    else:
        lines.append(f"    atomic{rkind.capitalize()}(dst.x[a], params.rv);")
    lines += ["  }", "  }", "}"]
    return "\n".join(lines) + "\n"


def serial(case):
    """The (final, racer's result) pairs of the two serial orders."""
    kind, v = case["lowered"]
    rkind, rv = case["racer"]
    pol, m0 = case["policy"], case["init"]

    def racer(mem):
        if rkind == "xchg":
            return rv, mem
        if rkind == "cas":
            return (rv if mem == m0 else mem), mem
        if rkind == "store":
            return rv, None
        return minmax(rkind, pol, mem, rv), None

    outs = []
    m1, r = racer(m0)                          # racer first
    outs.append((minmax(kind, pol, m1, v), r))
    m2 = minmax(kind, pol, m0, v)              # lowered atomic first
    m3, r = racer(m2)
    outs.append((m3, r))
    return outs


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def build_lowered(src, d, extra_options, tools):
    """Compiles the GLSL `src` into d and lowers it with fatomic-opt's
    --lower-float-atomic-minmax=`extra_options`; returns the lowered module
    and its disassembly, or raises RuntimeError (a tool failed, or
    spirv-val rejects the module)."""
    comp, spv, low = (os.path.join(d, f) for f in ("s.comp", "s.spv", "low.spv"))
    with open(comp, "w") as f:
        f.write(src)
    steps = [[tools["glslang"], "-V", "--target-env", "vulkan1.2", comp, "-o", spv],
             [tools["opt"], "--target-env=vulkan1.2",
              f"--lower-float-atomic-minmax={extra_options}", spv, "-o", low]]
    for cmd in steps:
        rc, so, se = run(cmd)
        if rc:
            raise RuntimeError(f"{os.path.basename(cmd[0])} failed (exit {rc}):\n{so}{se}")
    err = validate_spv.check("vulkan1.2", low)
    if err:
        raise RuntimeError(err)
    rc, dis, se = run([tools["dis"], low])
    if rc:
        raise RuntimeError(f"spirv-dis failed:\n{se}")
    return low, dis


def build_agg(name, case, args, tools, d):
    """Compiles and lowers an aggregated case into d; returns the lowered
    module, or raises RuntimeError with what went wrong (spirv-val, or a
    module that is not aggregated)."""
    low, dis = build_lowered(race_agg.shader(case), d,
                             f"nan={case['policy']},aggregate={args.aggregate}", tools)
    problem = race_agg.aggregation_problem(dis, case)
    if problem:
        raise RuntimeError(problem)
    return low


def run_agg_case(name, case, args, tools, work):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    try:
        low = build_agg(name, case, args, tools, d)
    except RuntimeError as e:
        return str(e)
    n = args.agg_addresses
    with open(os.path.join(d, "init.bin"), "wb") as f:
        f.write(struct.pack(f"<{n}I", *([case["init"]] * n)))
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump(race_agg.job(case, n, args.pairs, low), f)
    oracle, tally = race_agg.Oracle(case), race_agg.Tally()
    bad_total, example, sizes = 0, None, set()
    for rnd in range(args.rounds):
        for out in ("took.bin", "lret.bin"):
            if os.path.exists(os.path.join(d, out)):
                os.remove(os.path.join(d, out))
        rc, so, se = run([tools["vkrun"], "-q", "--timeout", "120", os.path.join(d, "job.json")])
        if rc:
            return f"fatomic-vkrun exit {rc}:\n{so}{se}"
        sgsize, ex, bad = race_agg.check_round(case, oracle, d, n, tally)
        sizes.add(sgsize)
        bad_total += bad
        example = example or (ex and f"round {rnd} {ex}")
    lanes = ", ".join(f"{k}:{v}" for k, v in sorted(tally.lanes.items()))
    print(f"  {name}: {args.rounds} round(s) x {n} addresses, subgroup size "
          f"{'/'.join(map(str, sorted(sizes)))}, lanes per address {{{lanes}}}, "
          f"{len(oracle.verdicts)} distinct observations; {tally.line()}; "
          f"{bad_total} not linearizable", flush=True)
    if bad_total:
        return f"{bad_total} addresses wrong; e.g. {example}"
    return None


def run_seq_case(name, case, args, tools, work):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    init, ops, addr = agg_seq.layout(case)
    n = len(ops)
    try:
        low, dis = build_lowered(agg_seq.shader(case, n), d,
                                 f"nan={case['policy']},aggregate={args.aggregate}", tools)
    except RuntimeError as e:
        return str(e)
    problem = race_agg.aggregation_problem(dis, case)
    if problem:
        return problem
    agg_seq.write_inputs(d, init, ops, addr)
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump(agg_seq.job(low, n, len(init)), f)
    bad_total, example = 0, None
    for rnd in range(args.rounds):
        rc, so, se = run([tools["vkrun"], "-q", "--timeout", "120", os.path.join(d, "job.json")])
        if rc:
            return f"fatomic-vkrun exit {rc}:\n{so}{se}"
        with open(os.path.join(d, "final.bin"), "rb") as f:
            final = struct.unpack(f"<{len(init)}I", f.read())
        with open(os.path.join(d, "ret.bin"), "rb") as f:
            ret = struct.unpack(f"<{n * agg_seq.OPS}I", f.read())
        bad, first = agg_seq.check(case, init, ops, addr, final, ret)
        bad_total += bad
        example = example or (first and f"round {rnd}: {first}")
    print(f"  {name}: {args.rounds} round(s) x {len(init)} addresses, {n} invocations "
          f"x {agg_seq.OPS} atomics; {bad_total} not linearizable in program order",
          flush=True)
    if bad_total:
        return f"{bad_total} addresses wrong; e.g. {example}"
    return None


def run_case(name, case, args, tools, work):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    comp, spv, low = (os.path.join(d, f) for f in ("s.comp", "s.spv", "low.spv"))
    with open(comp, "w") as f:
        f.write(shader(case))
    rc, so, se = run([tools["glslang"], "-V", "--target-env", "vulkan1.2", comp, "-o", spv])
    if rc:
        return f"glslang failed:\n{so}{se}"
    opts = "nan=" + case["policy"]
    rc, so, se = run([tools["opt"], f"--lower-float-atomic-minmax={opts}", spv, "-o", low])
    if rc:
        return f"fatomic-opt failed:\n{so}{se}"
    # spirv-val for vulkan1.2 and no OpBitcast of a Logical pointer.
    err = validate_spv.check("vulkan1.2", low)
    if err:
        return err
    n = args.addresses
    rkind, rv = case["racer"]
    with open(os.path.join(d, "init.bin"), "wb") as f:
        f.write(struct.pack(f"<{n}I", *([case["init"]] * n)))
    job = {"shader": low, "groups": [2 * args.pairs, 1, 1], "buffers": [
        {"name": "params", "binding": 0,
         "init": {"u32": [n, case["lowered"][1], rv, 0]}},
        {"name": "dst", "binding": 1, "init": {"file": "init.bin"}, "output": "final.bin",
         "check_identical": False},
        {"name": "ret", "binding": 2, "size": 4 * n, "output": "ret.bin",
         "check_identical": False},
        {"name": "sync", "binding": 3, "size": 4 * n}]}
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump(job, f)
    allowed = serial(case)
    bad_total = 0
    example = None
    for rnd in range(args.rounds):
        rc, so, se = run([tools["vkrun"], "-q", "--timeout", "120", os.path.join(d, "job.json")])
        if rc:
            return f"fatomic-vkrun exit {rc}:\n{so}{se}"
        with open(os.path.join(d, "final.bin"), "rb") as f:
            final = struct.unpack(f"<{n}I", f.read(4 * n))
        with open(os.path.join(d, "ret.bin"), "rb") as f:
            ret = struct.unpack(f"<{n}I", f.read(4 * n))
        for a in range(n):
            ok = any(same(case["policy"], final[a], m) and (r is None or ret[a] == r)
                     for m, r in allowed)
            if not ok:
                bad_total += 1
                if example is None:
                    example = (rnd, a, final[a], None if rkind in ("max", "store") else ret[a])
    print(f"  {name}: {args.rounds} round(s) x {n} addresses, "
          f"{bad_total} not linearizable", flush=True)
    if bad_total:
        rnd, a, fm, r = example
        return (f"{bad_total} addresses not linearizable; e.g. round {rnd} address {a}: "
                f"final 0x{fm:08X}, racer returned {'-' if r is None else '0x%08X' % r}; "
                "serial orders give " +
                ", ".join(f"(0x{m:08X}, {'-' if r2 is None else '0x%08X' % r2})" for m, r2 in allowed))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--fatomic-opt")
    ap.add_argument("--addresses", type=int, default=65536)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--agg-addresses", type=int, default=8192,
                    help="addresses of the aggregated (agg-*) cases")
    ap.add_argument("--aggregate", default="subgroup",
                    help="aggregate= of the agg-* cases (off: shows that a module "
                         "that is not aggregated fails)")
    ap.add_argument("--pairs", type=int, default=64)
    ap.add_argument("--filter", default="")
    ap.add_argument("--work")
    args = ap.parse_args()
    todo = [(n, c, run_case) for n, c in CASES.items()]
    todo += [(n, c, run_agg_case) for n, c in race_agg.cases().items()]
    todo += [(n, c, run_seq_case) for n, c in agg_seq.cases().items()]
    todo = [t for t in todo if args.filter in t[0]]
    if not todo:
        # A filter that selects nothing is a mistake, not a pass.
        print(f"race_suite: error: --filter {args.filter!r} matches no case",
              file=sys.stderr)
        return 1
    b = os.path.join(args.build_dir, "bin")
    tools = {"opt": args.fatomic_opt or os.path.join(b, "fatomic-opt"),
             "vkrun": os.path.join(b, "fatomic-vkrun"),
             "glslang": shutil.which("glslangValidator"),
             "val": shutil.which("spirv-val"), "dis": shutil.which("spirv-dis")}
    for t, p in tools.items():
        if not p or not os.access(p, os.X_OK):
            print(f"race_suite: {t} not found; skipped")
            return SKIP
    # validate_spv runs the same spirv-val and spirv-dis.
    os.environ.setdefault("SPIRV_VAL", tools["val"])
    os.environ.setdefault("SPIRV_DIS", tools["dis"])
    rc, so, se = run([tools["vkrun"], "--list-devices"])
    if rc:
        print(f"race_suite: no Vulkan device; skipped\n{so}{se}")
        return SKIP
    wrong = race_agg.self_test() + agg_seq.self_test()
    if wrong:
        print("FAIL oracle self-test:\n  " + "\n  ".join(wrong))
        return 1
    work = args.work or tempfile.mkdtemp(prefix="fatomic-race-")
    failed = 0
    for name, case, fn in todo:
        err = fn(name, case, args, tools, work)
        if err:
            failed += 1
            print(f"FAIL {name}: {err}", flush=True)
        else:
            print(f"ok   {name}", flush=True)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
