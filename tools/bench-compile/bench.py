#!/usr/bin/env python3
"""Compile-time benchmark: fatomic-opt --lower-float-atomic-minmax against a
spirv-opt --strip-debug round trip on the same generated module.

    bench.py [--fatomic-opt PATH] [--runs 5] [--sizes 2000,20000,200000]
             [--workdir DIR] [--validate-up-to 20000] [--options OPTIONS]

For each N: generates the module (gen_atomics.py), assembles it, then runs
each tool --runs times.  Wall time is the median of the runs; peak RSS is
the largest of the runs' GNU time %M figures.  The input and the fatomic
output are checked with spirv-val --target-env vulkan1.2 for every N up to
--validate-up-to (spirv-val takes minutes on the N=200,000 input).
--options is appended to --lower-float-atomic-minmax= (e.g. outline=off).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_once(cmd, time_tool):
    """Runs cmd under /usr/bin/time; returns (wall seconds, peak RSS in KiB).

    Peak RSS comes from GNU time (%M) rather than from getrusage in this
    process: a child forked from Python starts with Python's pages, which
    would count towards its maxrss.  Wall time is measured around the whole
    run (GNU time adds about a millisecond, to both tools alike)."""
    rss_file = cmd[-1] + ".rss"
    start = time.perf_counter()
    p = subprocess.run([time_tool, "-f", "%M", "-o", rss_file] + cmd,
                       stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}")
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    os.remove(rss_file)
    return wall, rss


def measure(cmd, runs, time_tool):
    results = [run_once(cmd, time_tool) for _ in range(runs)]
    return statistics.median(w for w, _ in results), max(m for _, m in results)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fatomic-opt", default=os.path.join(ROOT, "build", "bin", "fatomic-opt"))
    ap.add_argument("--spirv-opt", default="spirv-opt")
    ap.add_argument("--spirv-as", default="spirv-as")
    ap.add_argument("--spirv-val", default="spirv-val")
    ap.add_argument("--time", default="/usr/bin/time", help="GNU time")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="2000,20000,200000")
    ap.add_argument("--workdir", default="/tmp/fatomic-bench-compile")
    ap.add_argument("--validate-up-to", type=int, default=20000)
    ap.add_argument("--options", default="",
                    help="lowering options, e.g. outline=off")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        asm = os.path.join(args.workdir, f"atomics-{n}.spvasm")
        spv = os.path.join(args.workdir, f"atomics-{n}.spv")
        out_f = os.path.join(args.workdir, f"atomics-{n}.fatomic.spv")
        out_s = os.path.join(args.workdir, f"atomics-{n}.strip.spv")
        with open(asm, "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gen_atomics.py"), str(n)],
                           stdout=f, check=True)
        subprocess.run([args.spirv_as, "--target-env", "vulkan1.2", asm, "-o", spv], check=True)
        if n <= args.validate_up_to:
            subprocess.run([args.spirv_val, "--target-env", "vulkan1.2", spv], check=True)
        flag = "--lower-float-atomic-minmax" + (f"={args.options}" if args.options else "")
        ft, fm = measure([args.fatomic_opt, "--skip-validation", flag, spv, "-o", out_f],
                         args.runs, args.time)
        st, sm = measure([args.spirv_opt, "--skip-validation", "--strip-debug",
                          spv, "-o", out_s], args.runs, args.time)
        valid = "-"
        if n <= args.validate_up_to:
            subprocess.run([args.spirv_val, "--target-env", "vulkan1.2", out_f], check=True)
            valid = "yes"
        rows.append((n, os.path.getsize(spv), os.path.getsize(out_f), ft, st, fm, sm, valid))
        print(f"N={n} done", file=sys.stderr)

    print(f"runs per figure: {args.runs} (time: median; RSS: max); "
          f"options: {args.options or '(defaults)'}")
    print("| N | in KiB | out KiB | fatomic-opt s | spirv-opt s | time ratio | "
          "fatomic-opt RSS MiB | spirv-opt RSS MiB | RSS ratio | out valid |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
    for n, isz, osz, ft, st, fm, sm, valid in rows:
        print(f"| {n:,} | {isz / 1024:,.0f} | {osz / 1024:,.0f} | {ft:.3f} | {st:.3f} | "
              f"{ft / st:.2f} | {fm / 1024:.1f} | {sm / 1024:.1f} | {fm / sm:.2f} | {valid} |")


if __name__ == "__main__":
    main()
