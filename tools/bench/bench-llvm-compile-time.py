#!/usr/bin/env python3
"""Compile time of lower-float-atomic-minmax against LLVM's atomic-expand.

Generates the benchmark module (gen-atomic-module.py: 20,000 float atomic
min/max by default), converts it to bitcode, and times, interleaved, RUNS
times each:

  atomic-expand   opt -mtriple=x86_64-unknown-linux-gnu -passes=atomic-expand
  fatomic         opt -mtriple=... -load-pass-plugin=P -passes=lower-float-atomic-minmax
  fatomic+expand  the two in a row (on x86-64 the integer min/max atomics are
                  themselves expanded later, so this is what codegen pays)
  fatomic+inline  lower-float-atomic-minmax,always-inline: the helpers
                  written back at every atomic, as an inliner after the pass
                  does
  outline=off     lower-float-atomic-minmax<outline=off>: the lowering
                  written out at every atomic by the pass itself (and
                  outline=off+expand, as fatomic+expand)
  floor           opt -mtriple=... -passes=no-op-module (reading the module,
                  the final verifier and teardown, common to all)

Every command runs with -disable-output, once as opt runs by default (value
names kept) and once with -discard-value-names (as clang runs its pipeline).
Reports the median wall time of the whole opt process and the median pass
time from -time-passes (the pass's own row, summed over functions), and the
ratios to atomic-expand.

With --callgrind it also counts the instructions executed (valgrind's
callgrind, one run per configuration): those of the whole opt process and
those inside the pass's run() (inclusive).  The counts do not depend on the
machine's load, which on a shared machine makes the times noisy; they leave
out what the times include beyond instructions (cache misses, page faults
for the memory the new IR takes).

--distinct-operands gives every atomic an operand of its own (by default
the atomics of one function on one type share one).  --runs 0 with
--callgrind counts instructions only.

usage: bench-llvm-compile-time.py --plugin PATH [--opt opt-22] [--runs 7]
                                  [--count 20000] [--per-function 20]
                                  [--distinct-operands] [--callgrind]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TRIPLE = "x86_64-unknown-linux-gnu"
HERE = os.path.dirname(os.path.abspath(__file__))


def wall(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def pass_seconds(cmd, names):
    """Sum of the wall-clock column of -time-passes rows naming a pass."""
    out = subprocess.run(cmd + ["-time-passes"], check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True).stderr
    total = 0.0
    for line in out.splitlines():
        if not any(line.rstrip().endswith(name) for name in names):
            continue
        # Columns: user, system, user+system, wall; each "secs (pct%)".
        secs = re.findall(r"([0-9.]+) \(\s*[0-9.]+%\)", line)
        if secs:
            total += float(secs[-1])
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--opt", default=shutil.which("opt-22") or "opt")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--per-function", type=int, default=20)
    parser.add_argument("--distinct-operands", action="store_true",
                        help="an operand of its own for every atomic")
    parser.add_argument("--callgrind", action="store_true",
                        help="also count instructions with valgrind's callgrind")
    args = parser.parse_args()
    if args.callgrind and not shutil.which("valgrind"):
        parser.error("--callgrind needs valgrind (Debian package valgrind)")
    if args.runs < 0 or (args.runs == 0 and not args.callgrind):
        parser.error("--runs must be positive (or 0 with --callgrind)")

    llvm_as = os.path.join(os.path.dirname(os.path.realpath(args.opt)), "llvm-as")
    tmp = tempfile.mkdtemp(prefix="fatomic-bench-")
    try:
        ll = os.path.join(tmp, "atomics.ll")
        bc = os.path.join(tmp, "atomics.bc")
        subprocess.run([sys.executable, os.path.join(HERE, "gen-atomic-module.py"),
                        "--count", str(args.count),
                        "--per-function", str(args.per_function), "-o", ll]
                       + (["--distinct-operands"] if args.distinct_operands else []),
                       check=True)
        subprocess.run([llvm_as, ll, "-o", bc], check=True)

        tables = []
        counts = []
        for discard in (False, True):
            if args.runs:
                tables.append((discard, measure(args, bc, discard)))
            if args.callgrind:
                counts.append((discard, count_instructions(args, bc, discard, tmp)))
    finally:
        shutil.rmtree(tmp)

    operands = "distinct operands" if args.distinct_operands else "one operand per type"
    print(f"module: {args.count} atomicrmw, {args.per_function} per function, "
          f"{operands}; {args.runs} runs each, medians; {args.opt}, -mtriple={TRIPLE}")
    for discard, (walls, passes) in tables:
        print()
        print("with -discard-value-names" if discard else "value names kept (opt default)")
        print(f"{'configuration':18} {'opt wall (s)':>13} {'ratio':>7} "
              f"{'pass time (s)':>14} {'ratio':>7}")
        for name in walls:
            w = walls[name]
            line = f"{name:18} {w:13.3f} {w / walls['atomic-expand']:7.2f}"
            if name in passes:
                p = passes[name]
                line += f" {p:14.3f} {p / passes['atomic-expand']:7.2f}"
            print(line)
    for discard, rows in counts:
        print()
        print("instructions executed (callgrind), "
              + ("with -discard-value-names" if discard else "value names kept"))
        print(f"{'configuration':18} {'opt total (M)':>14} {'ratio':>7} "
              f"{'in the pass (M)':>16} {'ratio':>7}")
        base_total = rows["atomic-expand"][0]
        base_pass = rows["atomic-expand"][1]
        for name, (total, inpass) in rows.items():
            line = f"{name:18} {total / 1e6:14.1f} {total / base_total:7.2f}"
            if inpass is not None:
                line += f" {inpass / 1e6:16.1f} {inpass / base_pass:7.2f}"
            print(line)


def configurations(args, bc, discard):
    base = [args.opt, "-mtriple=" + TRIPLE, "-disable-output", bc]
    if discard:
        base.append("-discard-value-names")
    plugin = ["-load-pass-plugin=" + args.plugin]
    return [
        ("atomic-expand", base + ["-passes=atomic-expand"],
         ["AtomicExpandPass"]),
        ("fatomic", base + plugin + ["-passes=lower-float-atomic-minmax"],
         ["LowerFloatAtomicMinMaxPass"]),
        ("fatomic+expand",
         base + plugin + ["-passes=lower-float-atomic-minmax,atomic-expand"],
         ["LowerFloatAtomicMinMaxPass", "AtomicExpandPass"]),
        ("fatomic+inline",
         base + plugin + ["-passes=lower-float-atomic-minmax,always-inline"],
         ["LowerFloatAtomicMinMaxPass", "AlwaysInlinerPass"]),
        ("outline=off",
         base + plugin + ["-passes=lower-float-atomic-minmax<outline=off>"],
         ["LowerFloatAtomicMinMaxPass"]),
        ("outline=off+expand",
         base + plugin
         + ["-passes=lower-float-atomic-minmax<outline=off>,atomic-expand"],
         ["LowerFloatAtomicMinMaxPass", "AtomicExpandPass"]),
        ("floor", base + ["-passes=no-op-module"], []),
    ]


# The run() of each pass, as callgrind_annotate names it.
PASS_FUNCTIONS = {
    "AtomicExpandPass": "llvm::AtomicExpandPass::run(llvm::Function&",
    # The module form (the default) and the function form.
    "LowerFloatAtomicMinMaxPass": "fatomic::llvmir::LowerFloatAtomicMinMaxPass::run(llvm::",
    "AlwaysInlinerPass": "llvm::AlwaysInlinerPass::run(llvm::Module&",
}


def count_instructions(args, bc, discard, tmp):
    """(whole process, inside the passes' run()) instruction counts."""
    rows = {}
    for name, cmd, passes in configurations(args, bc, discard):
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
                       + cmd, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", out],
                              check=True, stdout=subprocess.PIPE, text=True).stdout
        total = None
        inpass = 0 if passes else None
        for line in text.splitlines():
            m = re.match(r"\s*([0-9,]+)\s", line)
            if not m:
                continue
            n = int(m.group(1).replace(",", ""))
            if "PROGRAM TOTALS" in line:
                total = n
            for p in passes:
                if PASS_FUNCTIONS[p] in line:
                    inpass += n
        if total is None:
            raise SystemExit(f"no instruction count for {name} from callgrind")
        rows[name] = (total, inpass)
        os.remove(out)
    return rows


def measure(args, bc, discard):
    """Median opt wall time and pass time per configuration."""
    configs = configurations(args, bc, discard)
    walls = {name: [] for name, _, _ in configs}
    passes = {name: [] for name, _, _ in configs}
    for name, cmd, _ in configs:  # warm-up
        wall(cmd)
    for _ in range(args.runs):
        for name, cmd, rows in configs:
            walls[name].append(wall(cmd))
            if rows:
                passes[name].append(pass_seconds(cmd, rows))
    return ({n: statistics.median(v) for n, v in walls.items()},
            {n: statistics.median(v) for n, v in passes.items() if v})


if __name__ == "__main__":
    main()
