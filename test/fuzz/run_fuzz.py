#!/usr/bin/env python3
"""Runs one fuzz target: its regression inputs, its seeds, or a timed run.

usage: run_fuzz.py --binary BIN [--regressions DIR] [--seeds DIR]
                   [--seconds N --work DIR [--seed S] [--stats FILE]]

--regressions DIR  every file in DIR once (each reproduced a finding that
                   is fixed now); exit non-zero if any still fails.
--seeds DIR        with no --seconds: every seed once.
--seconds N        a libFuzzer run of N seconds over --work (new inputs are
                   kept there) and the seeds, with a 10 s per-input timeout
                   (a hang is a finding) and leak detection.  Findings are
                   written to WORK/findings/ (emptied first).  Prints the final statistics
                   (executions, execs/s, coverage: cov = edges, ft = features)
                   and with --stats also writes them as JSON.
--seed S           libFuzzer's -seed (0 or none: a random one); with the
                   same seed and work directory a run repeats its mutations.

The binary is either a libFuzzer target (FATOMIC_BUILD_FUZZERS) or the
standalone driver (test/fuzz/StandaloneMain.cpp), which only replays files.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time


def files_in(d):
    if not d or not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if os.path.isfile(os.path.join(d, f)) and not f.startswith("README"))


def replay(binary, files, what):
    if not files:
        print("%s: no %s" % (os.path.basename(binary), what))
        return 0
    # Batches keep the command line short.
    for i in range(0, len(files), 200):
        p = subprocess.run([binary] + files[i:i + 200], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        if p.returncode != 0:
            sys.stdout.write(p.stdout[-20000:])
            print("%s: FAILED on the %s (exit %d)" % (os.path.basename(binary), what,
                                                       p.returncode))
            return 1
    print("%s: %d %s ran clean" % (os.path.basename(binary), len(files), what))
    return 0


def timed(binary, seconds, work, seeds, stats_file, seed):
    corpus = os.path.join(work, "corpus")
    findings = os.path.join(work, "findings")
    os.makedirs(corpus, exist_ok=True)
    # Findings of an earlier run are not this run's.
    shutil.rmtree(findings, ignore_errors=True)
    os.makedirs(findings)
    cmd = [binary, "-max_total_time=%d" % seconds, "-timeout=10", "-rss_limit_mb=2048",
           "-print_final_stats=1", "-print_pcs=0", "-reload=0",
           "-artifact_prefix=" + findings + "/", corpus]
    if seed:
        cmd.insert(1, "-seed=%d" % seed)
    if seeds and os.path.isdir(seeds):
        cmd.append(seeds)
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    wall = time.time() - t0
    out = p.stdout
    stats = {"target": os.path.basename(binary), "seconds": seconds, "seed": seed,
             "wall_s": round(wall, 1), "exit": p.returncode}
    m = re.search(r"INFO: Seed: (\d+)", out)  # the one libFuzzer picked, if random
    if m:
        stats["seed"] = int(m.group(1))
    for key in ("number_of_executed_units", "average_exec_per_sec", "new_units_added",
                "slowest_unit_time_sec", "peak_rss_mb"):
        m = re.search(r"stat::%s:\s+(\d+)" % key, out)
        if m:
            stats[key] = int(m.group(1))
    done = re.findall(r"#(\d+)\s+(?:DONE|pulse|NEW|REDUCE|INITED)\s+cov: (\d+) ft: (\d+)"
                      r"(?: corp: (\d+)/(\S+))?", out)
    if done:
        stats["cov"] = int(done[-1][1])
        stats["ft"] = int(done[-1][2])
        if done[-1][3]:
            stats["corpus_units"] = int(done[-1][3])
    m = re.search(r"^fuzz-pass-mutate: (\d+) inputs, (\d+) valid: (\d+) lowered, "
                  r"(\d+) unchanged, (\d+) rejected", out, re.M)
    if m:
        for k, v in zip(("inputs", "valid", "valid_lowered", "valid_unchanged",
                         "valid_rejected"), m.groups()):
            stats[k] = int(v)
    stats["findings"] = sorted(f for f in os.listdir(findings))
    summary = ", ".join("%s=%s" % (k, v) for k, v in stats.items())
    if p.returncode != 0 or stats["findings"]:
        sys.stdout.write(out[-30000:])
        print("FINDING: " + summary)
    else:
        print(summary)
    if stats_file:
        with open(stats_file, "w") as f:
            json.dump(stats, f, indent=1)
    return 1 if p.returncode != 0 or stats["findings"] else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--regressions")
    ap.add_argument("--seeds")
    ap.add_argument("--seconds", type=int)
    ap.add_argument("--work")
    ap.add_argument("--stats")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rc = 0
    if a.regressions:
        rc |= replay(a.binary, files_in(a.regressions), "regression inputs")
    if a.seconds:
        if not a.work:
            sys.exit("--seconds needs --work")
        rc |= timed(a.binary, a.seconds, a.work, a.seeds, a.stats, a.seed)
    elif a.seeds:
        rc |= replay(a.binary, files_in(a.seeds), "seeds")
    return rc


if __name__ == "__main__":
    sys.exit(main())
