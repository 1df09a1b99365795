#!/usr/bin/python3
"""Differential test: random shaders, lowered and native, against the reference.

  diff_suite.py --build-dir BUILD --seeds A:B [--jobs N] [--keep DIR]
                [--log FILE] [-v]

For each seed in [A, B) gen_shader.py generates a compute shader that mixes
float atomic min/max with loops, branches, helper functions, shared and
buffer memory and integer atomics (its docstring has the details), and
random data.  The shader is compiled with glslangValidator and lowered with
BUILD/bin/fatomic-opt under a NaN policy, strategy and early-out setting
that the seed also picks; the lowered module must pass spirv-val
(vulkan1.2), contain no float min/max atomic, capability or extension, and
no Logical pointer OpBitcast.  Both run on the Vulkan device (ctest forces
lavapipe) with BUILD/bin/fatomic-vkrun: the lowered one on a device created
without float atomics, the original where the device has native f32
min/max (f64 shaders: lowered only; lavapipe has no f64 min/max).

Checks, per seed:
  * the log of float atomics (which invocation did which operation on which
    address, with which operand) is the same in both runs, bit for bit, and
    so are the integer atomics' results, the plain per-invocation outputs,
    the priv slots and their returned values (all independent of the
    interleaving by construction);
  * lowered run, every region: final memory equal to
    fatomic::referenceReduce of the logged operations, returned values
    linearizable (BUILD/bin/fatomic-exec-oracle with the policy);
  * native run: final memory allowed by the specs' table, returned values
    plausible (the oracle's native mode);
  * lowered run, the race region of f32 shaders (float atomics racing
    exchanges, compare-exchanges on an integer view, min against max on one
    address): per address, the final memory and every returned value are
    what some serial order of the address's operations gives
    (gen_shader.race_linearizable with the policy).
Exit status 0 when every seed passes, 1 otherwise, 77 when there is no
Vulkan device or fatomic-opt is not built.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "utils"))
import gen_shader  # noqa: E402
import suite_common  # noqa: E402
from gen_shader import G, LS, NC, NSC, REGIONS, REGION_OP, pack  # noqa: E402

SKIP = 77
CONFIGS = [(nan, strat, eo) for nan in ("number", "propagate", "fast")
           for strat in ("dispatch", "cas") for eo in ("on", "off")]


class Failure(Exception):
    pass


def run(cmd, timeout=300):
    return suite_common.run(cmd, timeout=timeout)


class Env(suite_common.SuiteEnv):
    def __init__(self, a):
        super().__init__(a.build_dir, a.keep, a.log, a.verbose, "fatomic-diff-")
        self.native = False


def config_of(seed):
    return CONFIGS[(seed * 2654435761 >> 7) % len(CONFIGS)]


def static_checks(env, spv):
    problem = suite_common.static_problem(env, spv)
    if problem:
        raise Failure(problem)


def buffers(s, d):
    """The job's buffers; inputs written to files in \\p d."""
    w = s.w
    files = {"vin": pack(s.vin, w), "uin": pack(s.uin, 32), "vc": pack(s.vc, w),
             "sinit": pack(s.sinit, w), "dmin": pack(s.dmin, w), "dmax": pack(s.dmax, w),
             "priv": pack(s.priv, w), "cnt": pack(s.cnt, 32)}
    for n, data in files.items():
        with open(os.path.join(d, n + ".in"), "wb") as f:
            f.write(data)
    B = w // 8
    entry = 16 if w == 32 else 24
    n = G * LS
    return [
        {"name": "vin", "binding": 0, "init": {"file": "vin.in"}},
        {"name": "uin", "binding": 1, "init": {"file": "uin.in"}},
        {"name": "vc", "binding": 2, "init": {"file": "vc.in"}},
        {"name": "sinit", "binding": 3, "init": {"file": "sinit.in"}},
        {"name": "dmin", "binding": 4, "init": {"file": "dmin.in"}, "output": "dmin.out"},
        {"name": "dmax", "binding": 5, "init": {"file": "dmax.in"}, "output": "dmax.out"},
        {"name": "priv", "binding": 6, "init": {"file": "priv.in"}, "output": "priv.out"},
        {"name": "cnt", "binding": 7, "init": {"file": "cnt.in"}, "output": "cnt.out"},
        # outv[n] then nlogs[n]: doubles need the uints after them 8-aligned.
        {"name": "outv", "binding": 8, "size": n * B + n * 4, "output": "outv.out"},
        {"name": "sout", "binding": 9, "size": G * 2 * s.NS * B, "output": "sout.out"},
        {"name": "log", "binding": 10, "size": n * s.maxlog * entry, "output": "log.out"},
    ] + race_buffers(s, d)


def race_buffers(s, d):
    if not s.race:
        return []
    with open(os.path.join(d, "dr.in"), "wb") as f:
        f.write(pack(s.dr, 32))
    with open(os.path.join(d, "rin.in"), "wb") as f:
        f.write(pack(s.rk + s.rop + s.rexp, 32))
    return [
        {"name": "dr", "binding": 11, "init": {"file": "dr.in"}, "output": "dr.out",
         "check_identical": False},
        {"name": "rin", "binding": 12, "init": {"file": "rin.in"}},
        {"name": "rret", "binding": 13, "size": 4 * gen_shader.NRI, "output": "rret.out",
         "check_identical": False},
    ]


def race_check(s, d, policy):
    """Linearizability of every race address; returns a note."""
    final = words(read(d, "dr.out"), 32)
    ret = words(read(d, "rret.out"), 32)
    per = {}
    for i in range(gen_shader.NRI):
        kind = gen_shader.RACE_KINDS[s.rk[i]]
        known = s.race_ret or kind not in ("min", "max")
        per.setdefault(i % gen_shader.NR, []).append(
            (kind, s.rop[i], s.rexp[i], ret[i] if known else None))
    for a, ops in sorted(per.items()):
        if not gen_shader.race_linearizable(policy, 32, s.dr[a], final[a], ops):
            raise Failure("race region, address %d: final 0x%08X with returned values %s is "
                          "no serial order of %s from 0x%08X (policy %s)" % (
                              a, final[a], [None if r is None else "0x%08X" % r
                                            for _, _, _, r in ops],
                              [(k, "0x%08X" % v) for k, v, _, _ in ops], s.dr[a], policy))
    return "race %s %d ops" % ("+".join(s.race_kinds), gen_shader.NRI)


def read(d, name):
    with open(os.path.join(d, name), "rb") as f:
        return f.read()


def words(data, w):
    c = "I" if w == 32 else "Q"
    return list(struct.unpack("<%d%s" % (len(data) // (w // 8), c), data))


def parse_log(s, d):
    """Per invocation, the list of (region, addr, val, ret) it logged."""
    raw = read(d, "log.out")
    out = read(d, "outv.out")
    n = G * LS
    B = s.w // 8
    nlogs = struct.unpack("<%dI" % n, out[n * B:n * B + 4 * n])
    fmt = "<IIII" if s.w == 32 else "<IIQQ"
    size = struct.calcsize(fmt)
    logs = []
    for inv in range(n):
        if nlogs[inv] > s.maxlog:
            raise Failure("invocation %d logged %d operations, more than the %d the "
                          "generator allowed for" % (inv, nlogs[inv], s.maxlog))
        base = inv * s.maxlog * size
        logs.append([struct.unpack_from(fmt, raw, base + k * size) for k in range(nlogs[inv])])
    return logs


def oracle(env, s, d, tag, logs, policy):
    """Runs fatomic-exec-oracle over each region; returns a summary."""
    w = s.w
    finals = {"dmin": words(read(d, "dmin.out"), w), "dmax": words(read(d, "dmax.out"), w),
              "priv": words(read(d, "priv.out"), w)}
    sout = words(read(d, "sout.out"), w)
    NS = s.NS
    finals["smin"] = [sout[g * 2 * NS + i] for g in range(G) for i in range(NS)]
    finals["smax"] = [sout[g * 2 * NS + NS + i] for g in range(G) for i in range(NS)]
    inits = {"dmin": s.dmin, "dmax": s.dmax, "priv": s.priv,
             "smin": [s.sinit[i] for g in range(G) for i in range(NS)],
             "smax": [s.sinit[NS + i] for g in range(G) for i in range(NS)]}
    notes = []
    for r, name in enumerate(REGIONS):
        ops = []
        for inv, entries in enumerate(logs):
            for reg, addr, val, ret in entries:
                if reg != r:
                    continue
                if r in (2, 3):
                    addr = (inv // LS) * NS + addr  # each workgroup has its own copy
                ops.append((addr, val, ret))
        if not ops:
            continue
        naddr = len(inits[name])
        if any(a >= naddr for a, _, _ in ops):
            raise Failure("%s: a logged address is out of range for %s" % (tag, name))
        p = os.path.join(d, "%s.%s" % (tag, name))
        with open(p + ".init", "wb") as f:
            f.write(pack(inits[name], w))
        with open(p + ".final", "wb") as f:
            f.write(pack(finals[name], w))
        with open(p + ".vals", "wb") as f:
            f.write(pack([v for _, v, _ in ops], w))
        with open(p + ".addr", "wb") as f:
            f.write(pack([a for a, _, _ in ops], 32))
        cmd = [env.oracle, "--op", REGION_OP[r], "--width", str(w), "--policy", policy,
               "--naddr", str(naddr), "--init", p + ".init", "--vals", p + ".vals",
               "--addr", p + ".addr", "--final", p + ".final"]
        if s.ret_used[r]:
            with open(p + ".ret", "wb") as f:
                f.write(pack([x for _, _, x in ops], w))
            cmd += ["--returned", p + ".ret"]
        rc, so, se = run(cmd)
        env.say("[seed %d] %s %s: %s" % (s.seed, tag, name, (so + se).strip()), always=False)
        if rc != 0:
            raise Failure("%s run, region %s: the oracle (policy %s) says:\n%s%s"
                          % (tag, name, policy, so, se))
        notes.append("%s %d ops" % (name, len(ops)))
    return notes


def run_seed(env, seed):
    s = gen_shader.generate_bounded(seed)
    nan, strat, eo = config_of(seed)
    d = os.path.join(env.work, "seed-%d" % seed)
    os.makedirs(d, exist_ok=True)
    comp = os.path.join(d, "shader.comp")
    with open(comp, "w") as f:
        f.write(s.source)
    spv = os.path.join(d, "shader.spv")
    rc, so, se = run([env.glslang, "--target-env", "vulkan1.2", "-V", comp, "-o", spv])
    if rc != 0:
        raise Failure("glslangValidator failed on %s:\n%s%s" % (comp, so, se))
    low = os.path.join(d, "lowered.spv")
    opts = "nan=%s,strategy=%s,early-out=%s" % (nan, strat, eo)
    rc, so, se = run([env.fopt, "--target-env=vulkan1.2", spv, "-o", low,
                      "--lower-float-atomic-minmax=" + opts])
    if rc != 0:
        raise Failure("fatomic-opt %s failed (exit %d):\n%s%s" % (opts, rc, so, se))
    static_checks(env, low)

    results = {}
    for tag, module in (("lowered", low), ("native", spv)):
        if tag == "native" and (s.w != 32 or not env.native):
            continue
        rd = os.path.join(d, tag)
        os.makedirs(rd, exist_ok=True)
        job = {"shader": module, "groups": [G, 1, 1], "buffers": buffers(s, rd)}
        jp = os.path.join(rd, "job.json")
        with open(jp, "w") as f:
            json.dump(job, f, indent=1)
        cmd = [env.vkrun, "-q", "--timeout", "120", jp]
        # (A float atomicExchange in the race region needs the float atomic
        # features; the static checks have shown that min/max are gone.)
        if tag == "lowered" and not (s.race and "xchg" in s.race_kinds):
            cmd.insert(1, "--no-float-atomics")
        rc, so, se = run(cmd)
        if rc != 0:
            raise Failure("fatomic-vkrun (%s) exit %d:\n%s%s" % (tag, rc, so, se))
        results[tag] = (rd, parse_log(s, rd))

    rd, logs = results["lowered"]
    notes = oracle(env, s, rd, "lowered", logs, nan)
    if s.race:
        notes.append(race_check(s, rd, nan))
    nops = sum(len(l) for l in logs)
    if "native" in results:
        nd, nlogs = results["native"]
        oracle(env, s, nd, "native", nlogs, "native")
        for inv in range(G * LS):
            a = [e[:3] for e in logs[inv]]
            b = [e[:3] for e in nlogs[inv]]
            if a != b:
                raise Failure("invocation %d: the lowered and native runs logged different "
                              "operations (%d vs %d entries)" % (inv, len(a), len(b)))
            pa = [e for e in logs[inv] if e[0] == 4]
            pb = [e for e in nlogs[inv] if e[0] == 4]
            if pa != pb:
                raise Failure("invocation %d: priv results differ between the lowered and "
                              "native runs" % inv)
        for name in ("cnt.out", "outv.out", "priv.out"):
            if read(rd, name) != read(nd, name):
                raise Failure("%s differs between the lowered and native runs" % name)
    if not env.keep:
        shutil.rmtree(d, ignore_errors=True)
    return "f%d %s, %d float atomics, %s%s" % (
        s.w, opts, nops, ", ".join(notes),
        "; native run identical where it must be" if "native" in results else "")


def race_self_test():
    """The race check rejects the histories that the lowering before the
    writer analysis produced on lavapipe (test/exec/race_suite.py) and
    accepts their serial counterparts; returns an error or None."""
    lin = gen_shader.race_linearizable
    F100, F5, F1, F20000 = 0x42C80000, 0x40A00000, 0x3F800000, 0x469C4000
    cases = [
        # number: atomicExchange(x, -NaN) returned 100, atomicMin(x, 5) unused.
        (False, "number", F100, 0xFFC00000, [("min", F5, 0, None), ("xchg", 0xFFC00000, 0, F100)]),
        (True, "number", F100, F5, [("min", F5, 0, None), ("xchg", 0xFFC00000, 0, F100)]),
        # number: a compare-exchange on the integer view.
        (False, "number", F100, 0xFFC00000, [("min", F5, 0, None), ("cas", 0xFFC00000, F100, F100)]),
        # propagate: min(x, NaN) against max(x, 20000).
        (False, "propagate", F100, F20000, [("min", 0x7FC00000, 0, None), ("max", F20000, 0, None)]),
        (True, "propagate", F100, 0xFFFFFFFF, [("min", 0x7FC00000, 0, None), ("max", F20000, 0, None)]),
        # propagate: exchange(x, +qNaN) returned 100 against min(x, 1).
        (False, "propagate", F100, F1, [("min", F1, 0, None), ("xchg", 0x7FC00000, 0, F100)]),
        (True, "propagate", F100, 0x7FC00000, [("min", F1, 0, None), ("xchg", 0x7FC00000, 0, F100)]),
    ]
    for want, policy, init, final, ops in cases:
        if lin(policy, 32, init, final, ops) != want:
            return "race check self-test: %s %s gave %s" % (policy, ops, not want)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--seeds", default="0:40", help="A:B, the seeds A to B-1")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep every file here")
    ap.add_argument("--log", help="also write the output, with per-region details, here")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    env = Env(a)
    err = race_self_test()
    if err:
        env.say("error: " + err)
        return 1
    lo, hi = (int(x) for x in a.seeds.split(":"))
    for tool in (env.vkrun, env.oracle, env.glslang, env.spirv_val, env.spirv_dis):
        if not tool or not os.path.exists(tool):
            env.say("error: %s not found" % tool)
            return 1
    if not os.path.exists(env.fopt):
        env.say("SKIP: %s is not built" % env.fopt)
        return SKIP
    rc, so, se = run([env.vkrun, "--features"])
    if rc == 2:
        env.say("SKIP: no usable Vulkan device: " + se.strip())
        return SKIP
    if rc != 0:
        env.say("error: fatomic-vkrun --features exit %d:\n%s%s" % (rc, so, se))
        return 1
    env.native = bool(re.search(r"^\s+shaderBufferFloat32AtomicMinMax = 1$", so, re.M)) and \
        bool(re.search(r"^\s+shaderSharedFloat32AtomicMinMax = 1$", so, re.M))
    env.say(so.splitlines()[0])
    env.say("seeds %d to %d; native f32 comparison: %s; work dir %s"
            % (lo, hi - 1, "yes" if env.native else "no (device lacks the features)", env.work))
    t0 = time.time()
    failed, total_ops = [], 0

    def one(seed):
        try:
            return seed, True, run_seed(env, seed)
        except Failure as e:
            return seed, False, str(e)
        except Exception as e:  # noqa: BLE001 - a harness bug is a failure too
            return seed, False, "%s: %s" % (type(e).__name__, e)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for seed, ok, note in ex.map(one, range(lo, hi)):
            if ok:
                m = re.search(r"(\d+) float atomics", note)
                total_ops += int(m.group(1)) if m else 0
                env.say("PASS seed %d: %s" % (seed, note), always=a.verbose)
            else:
                failed.append(seed)
                env.say("FAIL seed %d (kept in %s): %s"
                        % (seed, os.path.join(env.work, "seed-%d" % seed), note))
    env.say("%d seeds, %d float atomics executed in the lowered runs, %.1f s"
            % (hi - lo, total_ops, time.time() - t0))
    env.say("%d passed, %d failed%s" % (hi - lo - len(failed), len(failed),
                                        (": seeds " + " ".join(map(str, failed))) if failed else ""))
    if not env.keep and not failed:
        shutil.rmtree(env.work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
