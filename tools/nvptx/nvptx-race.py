#!/usr/bin/env python3
"""Race tests of the LLVM pass's warp aggregation on an NVIDIA GPU.

This file owns the NVPTX form of the aggregated race cases: their kernel in
LLVM IR, its lowering and PTX checks, and the run on a CUDA device.  The
cases, the observation files and the linearizability oracle are the SPIR-V
suite's (test/exec/race_agg.py, race_model.py), so that both forms of
aggregation answer to one definition.

Per address, the lanes of one warp (all 32, or a divergent subset that a
per-lane condition leaves active) run the lowered float atomic on that one
address, each with an operand of a small table (a NaN among them, except
under nan=fast), while lane 0 of a warp of the partner block runs the racing
writer on the same address: atomicrmw xchg, cmpxchg on the integer view of
the word, or the other float min/max.  Both sides meet at the address with a
bounded wait.  Every operation on the address (the lanes' and the racer's)
must be linearizable: a serial order must give every returned value and the
final memory.  Each case runs in two variants: `fatomic` (the pass's default
for sm_90, aggregated over the warp; the PTX must show the reduction) and
`perlane` (aggregate=off).

Two halves, on two machines, as tools/nvptx/nvptx-bench.py:

  bundle   (here: LLVM 22 and the plugin) writes the IR of every case,
           lowers it (opt -passes=lower-float-atomic-minmax<nan=P;...>),
           compiles it for sm_90 (llc), checks the PTX, and copies this
           script (as run.py) and the oracle's two files beside it.
  run      (there: python3, numpy and CuPy) runs every case for --rounds
           rounds and checks each address with the oracle; writes
           results.json and log.txt to --out; exit status 1 when any
           address is not linearizable.
  selftest the oracle on observations that no serial order gives, the IR of
           every case, and (with --bundle) the PTX checks, which must also
           tell the two variants apart.

usage:
  nvptx-race.py bundle --plugin P --out DIR [--opt opt-22] [--llc llc-22]
  python3 DIR/run.py run --out OUTDIR [--addresses 4096] [--rounds 4]
  nvptx-race.py selftest [--bundle DIR]
"""

import argparse
import json
import multiprocessing
import os
import platform
import re
import shutil
import struct
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The oracle's files: beside run.py in a bundle, in test/exec in the tree.
ORACLE_FILES = ("race_agg.py", "race_model.py")
ORACLE_DIR = next((d for d in (HERE, os.path.join(HERE, "..", "..", "test", "exec"))
                   if os.path.isfile(os.path.join(d, ORACLE_FILES[0]))), HERE)
sys.path.insert(0, ORACLE_DIR)
sys.path.insert(0, HERE)
import nvptx_common  # noqa: E402  (beside this file, and in every bundle)
import race_agg  # noqa: E402
from race_model import widen  # noqa: E402
from nvptx_common import Failure, Log, git_commit, run_tool  # noqa: E402

PROG = "nvptx-race"
TRIPLE = "nvptx64-nvidia-cuda"
CPU = "sm_90"
WARP = 32
BLOCK = 2 * WARP  # two warps per block; each takes every other address
PAIRS = 64        # blocks that run the lowered atomic; as many run the racer
SPIN = 4000       # bound of the wait at the address
VARIANTS = {"fatomic": "outline=off", "perlane": "outline=off;aggregate=off"}
AGGREGATED = ("fatomic",)



def cases():
    """race_agg's cases on f32 (their own names, the SPIR-V suite's) and on
    f64 (`-f64`: the same values widened; the two-half reduction and
    shuffles of 64-bit aggregation)."""
    out = {}
    for name, case in race_agg.cases().items():
        out[name] = dict(case, width=32)
        out[name + "-f64"] = dict(case, width=64, table=[widen(x) for x in case["table"]],
                                  rv=widen(case["rv"]), init=widen(case["init"]))
    return out


def ir_types(case):
    """(float type, integer type, size) of a case's memory."""
    return ("float", "i32", 4) if case["width"] == 32 else ("double", "i64", 8)


# ---------------------------------------------------------------------------
# LLVM IR
# ---------------------------------------------------------------------------

G = "ptr addrspace(1)"
ATOMIC = 'syncscope("device") monotonic'


def meet_lines(case):
    """Lane 0 of the warp arrives at address %a; the warp then waits (a
    bounded number of rounds) until both sides have."""
    ft = ir_types(case)[0]
    return [
        "meet:",
        "  %a64 = zext i32 %a to i64",
        f"  %sp = getelementptr inbounds i32, {G} %sync, i64 %a64",
        "  %first = icmp eq i32 %lane, 0",
        "  br i1 %first, label %arrive, label %wait",
        "arrive:",
        f"  %arrived = atomicrmw add {G} %sp, i32 1 {ATOMIC}, align 4",
        "  br label %wait",
        "wait:",
        "  %t = phi i32 [ 0, %meet ], [ 0, %arrive ], [ %t.next, %wait ]",
        f"  %s = load atomic i32, {G} %sp {ATOMIC}, align 4",
        "  %both = icmp uge i32 %s, 2",
        "  %t.next = add i32 %t, 1",
        f"  %late = icmp uge i32 %t.next, {SPIN}",
        "  %stop = or i1 %both, %late",
        "  br i1 %stop, label %work, label %wait",
        "work:",
        f"  %dp = getelementptr inbounds {ft}, {G} %dst, i64 %a64",
        "  br i1 %lowered, label %low, label %racer",
    ]


def lowered_lines(case):
    """The lane's operand index and condition (race_agg's IDX and COND), the
    record of what it ran, and the atomic."""
    out = ["low:",
           "  %a3 = urem i32 %a, 3",
           "  %la3 = mul i32 %lane, %a3",
           "  %ia = add i32 %a, %la3",
           "  %idx = and i32 %ia, 3"]
    if case["lanes"] == "div":
        out += ["  %l7 = mul i32 %lane, 7",
                "  %as = lshr i32 %a, 3",
                "  %aas = add i32 %a, %as",
                "  %x = xor i32 %l7, %aas",
                "  %x3 = urem i32 %x, 3",
                "  %takes = icmp ne i32 %x3, 0",
                "  br i1 %takes, label %do, label %next",
                "do:"]
    kind = "f" + case["kind"]
    ft, it, size = ir_types(case)
    out += [f"  %slot0 = mul i32 %a, {race_agg.SLOTS}",
            "  %slot = add i32 %slot0, %lane",
            "  %slot64 = zext i32 %slot to i64",
            f"  %tp = getelementptr inbounds i32, {G} %took, i64 %slot64",
            "  %idx1 = add i32 %idx, 1",
            f"  store i32 %idx1, {G} %tp, align 4",
            "  %idx64 = zext i32 %idx to i64",
            f"  %vp = getelementptr inbounds {ft}, {G} %vals, i64 %idx64",
            f"  %v = load {ft}, {G} %vp, align {size}",
            f"  %old = atomicrmw {kind} {G} %dp, {ft} %v {ATOMIC}, align {size}"]
    if case["used"]:
        out += [f"  %oldbits = bitcast {ft} %old to {it}",
                f"  %lp = getelementptr inbounds {it}, {G} %lret, i64 %slot64",
                f"  store {it} %oldbits, {G} %lp, align {size}"]
    return out + ["  br label %next"]


def racer_lines(case):
    """Lane 0 of the partner warp: the racing writer, with its returned
    value recorded where it has one."""
    out = ["racer:",
           "  br i1 %first, label %race, label %next",
           "race:",
           f"  %rp = getelementptr inbounds {ir_types(case)[1]}, {G} %ret, i64 %a64"]
    rk = case["racer"]
    ft, it, size = ir_types(case)
    if rk == "xchg":
        out += [f"  %r = atomicrmw xchg {G} %dp, {ft} %rv {ATOMIC}, align {size}",
                f"  %rbits = bitcast {ft} %r to {it}",
                f"  store {it} %rbits, {G} %rp, align {size}"]
    elif rk == "cas":
        out += [f"  %rvbits = bitcast {ft} %rv to {it}",
                f"  %pair = cmpxchg {G} %dp, {it} {case['init']}, {it} %rvbits "
                f"{ATOMIC} monotonic, align {size}",
                f"  %rbits = extractvalue {{ {it}, i1 }} %pair, 0",
                f"  store {it} %rbits, {G} %rp, align {size}"]
    else:
        out += [f"  %r = atomicrmw f{rk} {G} %dp, {ft} %rv {ATOMIC}, align {size}"]
    return out + ["  br label %next"]


def kernel_ir(name, case):
    """The module of one case: @race (the module docstring)."""
    return "\n".join([
        f"; fatomic NVPTX race case {name}: lowered atomicrmw f{case['kind']} "
        f"({case['lanes']} lanes, result {'used' if case['used'] else 'unused'}) "
        f"against {case['racer']}, nan={case['policy']}",
        f'target triple = "{TRIPLE}"',
        "",
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()",
        "",
        f"define ptx_kernel void @race({G} %vals, {G} %dst, {G} %ret, {G} %sync, "
        f"{G} %took, {G} %lret, i32 %n, {ir_types(case)[0]} %rv) #0 {{",
        "entry:",
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "  %g = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
        "  %ng = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()",
        "  %lane = and i32 %tid, 31",
        "  %warp = lshr i32 %tid, 5",
        "  %pairs = lshr i32 %ng, 1",
        "  %n1 = add i32 %n, %pairs",
        "  %n2 = sub i32 %n1, 1",
        "  %share = udiv i32 %n2, %pairs",
        "  %gp = urem i32 %g, %pairs",
        "  %base = mul i32 %gp, %share",
        "  %lowered = icmp ult i32 %g, %pairs",
        "  br label %head",
        "head:",
        "  %j = phi i32 [ %warp, %entry ], [ %j.next, %next ]",
        "  %a = add i32 %base, %j",
        "  %inshare = icmp ult i32 %j, %share",
        "  %inrange = icmp ult i32 %a, %n",
        "  %go = and i1 %inshare, %inrange",
        "  br i1 %go, label %meet, label %exit",
        *meet_lines(case),
        *lowered_lines(case),
        *racer_lines(case),
        "next:",
        f"  %j.next = add i32 %j, {BLOCK // WARP}",
        "  br label %head",
        "exit:",
        "  ret void",
        "}",
        "",
        f'attributes #0 = {{ "target-cpu"="{CPU}" }}',
        ""])


# ---------------------------------------------------------------------------
# PTX checks
# ---------------------------------------------------------------------------

def ptx_problems(ptx, case, variant):
    """Why the PTX of a case is not what its variant must be, or []."""
    problems = []
    if not re.search(r"^\.visible \.entry race\(", ptx, re.M):
        return ["no .entry race"]
    redux = re.findall(r"\bredux\.sync\.(min|max)\.u32\s", ptx)
    if variant in AGGREGATED:
        if not re.search(r"\bmatch\.all\.sync\.b64\s", ptx):
            problems.append("no match.all.sync.b64 (the warp's address test)")
        if case["kind"] not in redux:
            problems.append(f"no redux.sync.{case['kind']}.u32 (not aggregated)")
    elif redux:
        problems.append("a redux.sync (aggregated, which this variant must not be)")
    if re.search(r"\b(max|min)\.f(32|64)\b", ptx):
        problems.append("a float min/max is left")
    return problems


# ---------------------------------------------------------------------------
# bundle
# ---------------------------------------------------------------------------


def cmd_bundle(args):
    if not os.path.isfile(args.plugin):
        raise Failure(f"--plugin: no such file: {args.plugin}")
    for name, tool in (("--opt", args.opt), ("--llc", args.llc)):
        if not shutil.which(tool):
            raise Failure(f"--{name[2:]}: cannot find {tool}")
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    work = tempfile.mkdtemp(prefix=".nvptx-race-", dir=os.path.dirname(out))
    try:
        entries = []
        for name, case in cases().items():
            ll = os.path.join(work, f"{name}.ll")
            with open(ll, "w") as f:
                f.write(kernel_ir(name, case))
            files = {}
            for variant, options in VARIANTS.items():
                lowered = os.path.join(work, f"{name}.{variant}.ll")
                ptx = os.path.join(work, f"{name}.{variant}.ptx")
                passes = (f"lower-float-atomic-minmax<nan={case['policy']};{options}>")
                run_tool([args.opt, "-load-pass-plugin=" + args.plugin, "-passes=" + passes,
                          "-S", ll, "-o", lowered], f"opt on {name} ({variant})")
                run_tool([args.llc, "-O3", "-mtriple=" + TRIPLE, "-mcpu=" + CPU,
                          lowered, "-o", ptx], f"llc on {name} ({variant})")
                problems = ptx_problems(open(ptx).read(), case, variant)
                if problems:
                    raise Failure(f"{os.path.basename(ptx)}: " + "; ".join(problems))
                files[variant] = {"ptx": os.path.basename(ptx), "passes": passes}
            entries.append({"name": name, "case": case, "files": files})
        shutil.copyfile(os.path.abspath(__file__), os.path.join(work, "run.py"))
        shutil.copyfile(nvptx_common.__file__, os.path.join(work, "nvptx_common.py"))
        for f in ORACLE_FILES:
            shutil.copyfile(os.path.join(ORACLE_DIR, f), os.path.join(work, f))
        with open(os.path.join(work, "manifest.json"), "w") as f:
            json.dump({"tool": PROG, "triple": TRIPLE, "cpu": CPU, "commit": git_commit(HERE),
                       "cases": entries}, f, indent=1)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.rename(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    print(f"{PROG}: bundle in {out}: {len(entries)} cases, "
          f"{len(entries) * len(VARIANTS)} PTX files (checked: "
          f"{', '.join(AGGREGATED)} aggregated, the others not), run.py")
    return 0



# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------


def import_gpu():
    try:
        import numpy
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
    except Exception as e:  # ImportError, CUDARuntimeError, ...
        raise Failure(f"run needs numpy, CuPy and a CUDA device ({type(e).__name__}: {e}); "
                      "no results written")
    return numpy, cupy


def run_round(np, cp, fn, case, n, d):
    """One launch; writes the observation files race_agg reads into d (the
    memory's words in the case's width, the lanes' records in 32 bits)."""
    u32, word = np.uint32, np.uint32 if case["width"] == 32 else np.uint64
    vals = cp.asarray(np.array(case["table"], dtype=word))
    dst = cp.asarray(np.full(n, case["init"], dtype=word))
    ret, sync = cp.zeros(n, dtype=word), cp.zeros(n, dtype=u32)
    took = cp.zeros(n * race_agg.SLOTS, dtype=u32)
    lret = cp.zeros(n * race_agg.SLOTS, dtype=word)
    rv = np.array([case["rv"]], dtype=word).view(
        np.float32 if case["width"] == 32 else np.float64)[0]
    fn((2 * PAIRS,), (BLOCK,), (vals, dst, ret, sync, took, lret, u32(n), rv))
    cp.cuda.Device().synchronize()
    for name, arr in (("final", dst), ("ret", ret), ("took", took), ("lret", lret)):
        with open(os.path.join(d, f"{name}.bin"), "wb") as f:
            f.write(cp.asnumpy(arr).astype(arr.dtype.newbyteorder("<")).tobytes())
    with open(os.path.join(d, "info.bin"), "wb") as f:
        f.write(struct.pack("<I", WARP))


def lane_detail(case, d, n, address):
    """Each lane's (operand, returned) at `address`, for the log."""
    w = case["width"]
    took = race_agg.words(os.path.join(d, "took.bin"), n * race_agg.SLOTS)
    lret = race_agg.words(os.path.join(d, "lret.bin"), n * race_agg.SLOTS, w)
    out = []
    for lane in range(WARP):
        t = took[address * race_agg.SLOTS + lane]
        if t:
            got = lret[address * race_agg.SLOTS + lane] if case["used"] else None
            out.append(f"{lane}:{race_agg.bits(case['table'][t - 1], w)}"
                       + ("" if got is None else f"->{race_agg.bits(got, w)}"))
    return " ".join(out)


def cmd_run(args):
    bundle = os.path.abspath(args.bundle or HERE)
    manifest_path = os.path.join(bundle, "manifest.json")
    if not os.path.isfile(manifest_path):
        raise Failure(f"no manifest.json in {bundle}: run the bundle step first")
    wrong = race_agg.self_test()
    if wrong:
        raise Failure("the oracle's self-test failed: " + "; ".join(wrong))
    np, cp = import_gpu()  # before anything is written
    with open(manifest_path) as f:
        manifest = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    log = Log(os.path.join(args.out, "log.txt"))
    props = cp.cuda.runtime.getDeviceProperties(0)
    device = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    log(f"{PROG} run: {device}, driver {cp.cuda.runtime.driverGetVersion()}, "
        f"CuPy {cp.__version__}; bundle {manifest.get('commit')}")
    log(f"{args.rounds} round(s) x {args.addresses} addresses per case and variant; "
        f"{PAIRS} blocks of {BLOCK} run the lowered atomic, {PAIRS} the racer")
    results = {"tool": PROG, "device": device, "host": platform.node(),
               "bundle": manifest.get("commit"), "rounds": args.rounds,
               "addresses": args.addresses, "cases": [], "failures": []}
    started = time.time()
    jobs = [(entry, variant) for entry in manifest["cases"]
            if not args.filter or args.filter in entry["name"] for variant in entry["files"]]
    scratch = tempfile.mkdtemp(prefix="nvptx-race-")
    try:
        # The launches first, each round's files in a directory of their
        # own; then the oracle, on every core (it is the slow half).
        for n, (entry, variant) in enumerate(jobs):
            fn = cp.RawModule(path=os.path.join(bundle, entry["files"][variant]["ptx"]))
            fn = fn.get_function("race")
            for rnd in range(args.rounds):
                d = os.path.join(scratch, f"{n}.{rnd}")
                os.makedirs(d)
                run_round(np, cp, fn, entry["case"], args.addresses, d)
        log(f"launched {len(jobs)} case variants; checking "
            f"({os.cpu_count()} processes)")
        work = [(entry["case"], [os.path.join(scratch, f"{n}.{r}") for r in range(args.rounds)],
                 args.addresses) for n, (entry, _) in enumerate(jobs)]
        with multiprocessing.Pool() as pool:
            verdicts = pool.starmap(check_case, work)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for (entry, variant), verdict in zip(jobs, verdicts):
        record(entry, variant, verdict, results, log)
    results["elapsed_s"] = round(time.time() - started, 1)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    ran = len(results["cases"])
    log(f"{PROG}: {ran - len(results['failures'])} of {ran} case variants linearizable "
        f"at every address ({results['elapsed_s']} s)")
    return 1 if results["failures"] or not ran else 0


def check_case(case, dirs, n):
    """The oracle over every round of one case variant (a worker process)."""
    oracle, tally = race_agg.Oracle(case), race_agg.Tally()
    bad, example = 0, None
    for rnd, d in enumerate(dirs):
        _, ex, b = race_agg.check_round(case, oracle, d, n, tally)
        if ex and not example:
            a = int(re.match(r"address (\d+)", ex).group(1))
            example = (f"round {rnd} {ex}; lane:operand->returned "
                       + lane_detail(case, d, n, a))
        bad += b
    return {"not_linearizable": bad, "first": example, "distinct": len(oracle.verdicts),
            "racer_first": tally.first, "racer_last": tally.last,
            "racer_inside": tally.inside, "racer_either": tally.either,
            "lanes": dict(tally.lanes), "line": tally.line()}


def record(entry, variant, verdict, results, log):
    name, bad = entry["name"], verdict["not_linearizable"]
    lanes = ", ".join(f"{k}:{v}" for k, v in sorted(verdict["lanes"].items()))
    log(f"{'PASS' if not bad else 'FAIL'} {name} {variant}: lanes per address {{{lanes}}}, "
        f"{verdict['distinct']} distinct observations; {verdict['line']}; {bad} not "
        "linearizable" + (f"; e.g. {verdict['first']}" if verdict["first"] else ""))
    results["cases"].append({"name": name, "variant": variant,
                             "passes": entry["files"][variant]["passes"],
                             **{k: v for k, v in verdict.items() if k != "line"}})
    if bad:
        results["failures"].append(f"{name} {variant}: {verdict['first']}")


# ---------------------------------------------------------------------------
# selftest
# ---------------------------------------------------------------------------

def cmd_selftest(args):
    checks = 0

    def expect(cond, what):
        nonlocal checks
        checks += 1
        if not cond:
            raise Failure(f"selftest: {what}")

    wrong = race_agg.self_test()
    expect(not wrong, "the oracle: " + "; ".join(wrong))
    for name, case in cases().items():
        ir = kernel_ir(name, case)
        expect(len(re.findall(rf"^  %old = atomicrmw f{case['kind']} ", ir, re.M)) == 1,
               f"{name}: the lowered atomic is not in the IR once")
        expect(("cmpxchg" in ir) == (case["racer"] == "cas"), f"{name}: the racer")
    if args.bundle:
        with open(os.path.join(args.bundle, "manifest.json")) as f:
            manifest = json.load(f)
        for entry in manifest["cases"]:
            texts = {v: open(os.path.join(args.bundle, f["ptx"])).read()
                     for v, f in entry["files"].items()}
            for variant, text in texts.items():
                for other in texts:
                    accepted = not ptx_problems(text, entry["case"], other)
                    expect(accepted == (other == variant),
                           f"{entry['name']}: the {other} check "
                           f"{'accepts' if accepted else 'rejects'} the {variant} PTX")
    print(f"{PROG} selftest: {checks} checks passed"
          + (f" (bundle {args.bundle})" if args.bundle else ""))
    return 0


def main(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="Run `%(prog)s COMMAND --help` for each command's options; "
               "the head of this file describes the kernel and the oracle.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bundle", help="write, lower, compile and check every case")
    b.add_argument("--plugin", required=True, help="libFatomicLLVMPlugin.so")
    b.add_argument("--out", required=True, help="bundle directory (replaced)")
    b.add_argument("--opt", default="opt-22")
    b.add_argument("--llc", default="llc-22")
    r = sub.add_parser("run", help="run the bundle on a CUDA device (CuPy)")
    r.add_argument("--out", required=True, help="directory for results.json, log.txt")
    r.add_argument("--bundle", help="bundle directory (default: this script's)")
    r.add_argument("--addresses", type=int, default=4096)
    r.add_argument("--rounds", type=int, default=4)
    r.add_argument("--filter", help="only the cases whose name contains this")
    s = sub.add_parser("selftest", help="check the oracle, the IR and a bundle's PTX checks")
    s.add_argument("--bundle", help="also check this bundle's PTX files")
    args = parser.parse_args(argv)
    if args.command == "run" and (args.addresses <= 0 or args.rounds <= 0):
        parser.error("--addresses and --rounds must be positive")
    try:
        return {"bundle": cmd_bundle, "run": cmd_run, "selftest": cmd_selftest}[
            args.command](args)
    except Failure as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
