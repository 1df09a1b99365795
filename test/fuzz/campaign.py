#!/usr/bin/env python3
"""Runs a fuzzing campaign: every fuzz target for a time, several workers each.

usage: campaign.py --bin DIR --seeds DIR --regressions DIR --seconds N
                   [--workers K] [--targets a,b] --out DIR

Each target (fuzz-module, fuzz-pass, fuzz-pass-mutate, fuzz-options,
fuzz-profile, found as DIR/fuzz-NAME) runs as K independent libFuzzer
processes through run_fuzz.py, each with its own seed (1..K) and work
directory, for N seconds of wall time, all targets at once.  Before the
timed runs each target replays its regression inputs.  The output directory
gets one JSON per run (run_fuzz.py --stats), the findings of any run under
OUT/NAME-K/findings, and summary.json / a printed table: executions, exec/s,
coverage and findings per target, and the CPU time the target had
(workers x wall).  Exit status 1 if any run has a finding.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ["module", "pass", "pass-mutate", "options", "profile"]


def seeds_for(name, seeds):
    sub = "spirv" if name in ("module", "pass", "pass-mutate") else name
    return os.path.join(seeds, sub)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--regressions", default=os.path.join(HERE, "regressions"))
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    names = [t for t in a.targets.split(",") if t]
    runner = [sys.executable, os.path.join(HERE, "run_fuzz.py")]
    for name in names:
        binary = os.path.join(a.bin, "fuzz-" + name)
        r = subprocess.run(runner + ["--binary", binary, "--regressions",
                                     os.path.join(a.regressions, name)])
        if r.returncode:
            print("campaign: %s fails its regression inputs" % name)
            return 1
    procs = []
    t0 = time.time()
    for name in names:
        for k in range(1, a.workers + 1):
            tag = "%s-%d" % (name, k)
            log = open(os.path.join(a.out, tag + ".log"), "w")
            cmd = runner + ["--binary", os.path.join(a.bin, "fuzz-" + name),
                            "--seeds", seeds_for(name, a.seeds),
                            "--seconds", str(a.seconds), "--seed", str(k),
                            "--work", os.path.join(a.out, tag),
                            "--stats", os.path.join(a.out, tag + ".json")]
            procs.append((name, tag, subprocess.Popen(cmd, stdout=log,
                                                      stderr=subprocess.STDOUT)))
    print("campaign: %d runs of %d s started (%s x %d workers)" %
          (len(procs), a.seconds, ",".join(names), a.workers), flush=True)
    bad = 0
    for _, tag, p in procs:
        if p.wait():
            bad += 1
            print("campaign: FINDING in %s (see %s.log)" % (tag, tag), flush=True)
    summary = {"seconds_per_run": a.seconds, "workers": a.workers,
               "wall_s": round(time.time() - t0, 1), "targets": {}}
    for name in names:
        agg = {"runs": 0, "executions": 0, "cpu_s": 0, "cov_max": 0, "findings": []}
        for k in range(1, a.workers + 1):
            path = os.path.join(a.out, "%s-%d.json" % (name, k))
            if not os.path.exists(path):
                agg["findings"].append("run %d wrote no statistics" % k)
                continue
            s = json.load(open(path))
            agg["runs"] += 1
            agg["executions"] += s.get("number_of_executed_units", 0)
            agg["cpu_s"] += s.get("wall_s", 0)
            agg["cov_max"] = max(agg["cov_max"], s.get("cov", 0))
            agg["findings"] += ["%d:%s" % (k, f) for f in s.get("findings", [])]
        summary["targets"][name] = agg
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("%-12s %5s %12s %9s %6s %s" % ("target", "runs", "executions", "cpu-min",
                                         "cov", "findings"))
    for name, g in summary["targets"].items():
        print("%-12s %5d %12d %9.1f %6d %s" % (name, g["runs"], g["executions"],
                                               g["cpu_s"] / 60, g["cov_max"],
                                               len(g["findings"])))
    return 1 if bad or any(g["findings"] for g in summary["targets"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
