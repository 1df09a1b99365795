#!/usr/bin/env python3
"""Byte-for-byte comparison of two fatomic-opt binaries.

    compare-builds.py --old BIN --new BIN [--seeds DIR] [--random N]
                      [--jobs J] [--work DIR] [--quick]

Runs both binaries with --lower-float-atomic-minmax over one corpus under
many option sets and reports every run whose output words, exit status or
messages differ.  A refactoring of the pass must leave all of them equal.

The corpus:
  - every test/**/*.spvasm (spirv-as) and test/**/*.comp (glslangValidator
    -V), and every test/**/*.spv (the fuzz regression inputs among them);
  - the fuzz seeds that test/fuzz/make_corpus.py writes (--seeds DIR: its
    spirv/ folder), and its target profiles (DIR/profile/*.json);
  - N random shaders of test/diff/gen_shader.py (--random, default 200);
  - the compile-time benchmark's modules (tools/bench-compile/gen_atomics.py
    at 2,000 and 20,000 atomics) and the GPU benchmark's lowered variants
    when a bundle is present (build/gpubench-bundle/src/*.comp).

Option sets: every combination of nan, strategy, early-out, outline and
writers (48), each also with images=retype (96), for the test inputs and the
benchmark modules; twelve representative sets for the seeds and random
shaders; and each profile with the default options for the test inputs.
--quick uses the twelve sets everywhere.

Exit status: 0 when every run agrees, 1 when one differs, 2 on a usage or
set-up error.  Progress goes to standard error.
"""
import argparse
import concurrent.futures as cf
import glob
import hashlib
import itertools
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

REPRESENTATIVE = [
    "", "nan=propagate", "nan=fast", "strategy=cas", "early-out=off",
    "images=retype", "outline=off", "writers=any",
    "nan=propagate,strategy=cas,outline=off",
    "images=retype,nan=fast,writers=any",
    "native=shaderBufferFloat32AtomicMinMax+shaderSharedFloat32AtomicMinMax",
    "strategy=cas,early-out=off,images=retype,outline=off",
]


def full_matrix():
    sets = []
    for nan, strat, eo, outline, writers, images in itertools.product(
            ("number", "propagate", "fast"), ("dispatch", "cas"), ("on", "off"),
            ("on", "off"), ("module", "any"), (False, True)):
        s = "nan=%s,strategy=%s,early-out=%s,outline=%s,writers=%s" % (
            nan, strat, eo, outline, writers)
        sets.append(s + (",images=retype" if images else ""))
    return sets


def run_quiet(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def build_corpus(args, work):
    """Writes the corpus's modules into work/in; returns [(group, path)]."""
    out = os.path.join(work, "in")
    os.makedirs(out, exist_ok=True)
    corpus = []

    def add(group, name, data):
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(data)
        corpus.append((group, path))

    def slug(path):
        return os.path.relpath(path, ROOT).replace("/", "__")

    for src in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.spvasm"), recursive=True)):
        p = run_quiet(["spirv-as", src, "-o", "-"])
        if p.returncode == 0:
            add("test", slug(src) + ".spv", p.stdout)
    for src in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.comp"), recursive=True)):
        with tempfile.NamedTemporaryFile(suffix=".spv") as t:
            p = run_quiet(["glslangValidator", "-V", "--target-env", "vulkan1.2", src, "-o", t.name])
            if p.returncode == 0:
                add("test", slug(src) + ".spv", open(t.name, "rb").read())
    for src in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.spv"), recursive=True)):
        add("test", slug(src), open(src, "rb").read())
    if args.seeds:
        for src in sorted(glob.glob(os.path.join(args.seeds, "spirv", "*"))):
            add("seed", "seed__" + os.path.basename(src) + ".spv", open(src, "rb").read())
    gen = os.path.join(ROOT, "test", "diff", "gen_shader.py")
    for seed in range(args.random):
        glsl = run_quiet([sys.executable, gen, str(seed)]).stdout
        with tempfile.NamedTemporaryFile(suffix=".comp") as g, \
                tempfile.NamedTemporaryFile(suffix=".spv") as t:
            g.write(glsl)
            g.flush()
            p = run_quiet(["glslangValidator", "-V", "--target-env", "vulkan1.2", g.name, "-o", t.name])
            if p.returncode == 0:
                add("random", "random__%d.spv" % seed, open(t.name, "rb").read())
    gen_atomics = os.path.join(ROOT, "tools", "bench-compile", "gen_atomics.py")
    for n in (2000, 20000):
        asm = run_quiet([sys.executable, gen_atomics, str(n)]).stdout
        p = run_quiet(["spirv-as", "--target-env", "vulkan1.2", "-", "-o", "-"], input=asm)
        if p.returncode == 0:
            add("bench", "bench__atomics-%d.spv" % n, p.stdout)
    for src in sorted(glob.glob(os.path.join(ROOT, "build", "gpubench-bundle", "src", "*.comp"))):
        with tempfile.NamedTemporaryFile(suffix=".spv") as t:
            p = run_quiet(["glslangValidator", "-V", "--target-env", "vulkan1.2", src, "-o", t.name])
            if p.returncode == 0:
                add("bench", "gpubench__" + os.path.basename(src) + ".spv", open(t.name, "rb").read())
    return corpus


def run_one(binary, module, flags, work):
    fd, out = tempfile.mkstemp(dir=work, suffix=".out")
    os.close(fd)
    os.unlink(out)
    try:
        p = run_quiet([binary, module] + flags + ["-o", out], timeout=120)
    except subprocess.TimeoutExpired:
        return -1, "", b"timed out after 120 s"
    data = b""
    if os.path.exists(out):
        data = open(out, "rb").read()
        os.unlink(out)
    err = p.stderr.replace(binary.encode(), b"fatomic-opt").replace(out.encode(), b"OUT")
    return p.returncode, hashlib.sha256(data).hexdigest(), err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--seeds", help="make_corpus.py output folder")
    ap.add_argument("--random", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", help="scratch folder (default: a temporary one)")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    for b in (args.old, args.new):
        if not os.access(b, os.X_OK):
            print("compare-builds.py: error: %s is not an executable" % b, file=sys.stderr)
            return 2
    work = args.work or tempfile.mkdtemp(prefix="fatomic-compare-")
    corpus = build_corpus(args, work)
    matrix = REPRESENTATIVE if args.quick else full_matrix()
    profiles = sorted(glob.glob(os.path.join(args.seeds, "profile", "*.json"))) if args.seeds else []
    jobs = []
    for group, module in corpus:
        sets = matrix if group in ("test", "bench") else REPRESENTATIVE
        for s in sets:
            jobs.append((module, ["--lower-float-atomic-minmax" + ("=" + s if s else "")]))
        if group == "test":
            for prof in profiles:
                jobs.append((module, ["--target-profile=" + prof, "--lower-float-atomic-minmax"]))
    groups = {}
    for g, _ in corpus:
        groups[g] = groups.get(g, 0) + 1
    print("compare-builds: %d modules (%s), %d runs of each binary" % (
        len(corpus), ", ".join("%s %d" % kv for kv in sorted(groups.items())), len(jobs)),
        file=sys.stderr)

    def job(j):
        module, flags = j
        return j, run_one(args.old, module, flags, work), run_one(args.new, module, flags, work)

    differ, done, status = 0, 0, {}
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for (module, flags), a, b in ex.map(job, jobs):
            done += 1
            status[b[0]] = status.get(b[0], 0) + 1
            if a != b:
                differ += 1
                print("DIFFERS: %s %s: old exit %d, new exit %d%s" % (
                    os.path.basename(module), " ".join(flags), a[0], b[0],
                    "" if a[1] == b[1] else ", output differs"))
            if done % 2000 == 0:
                print("compare-builds: %d/%d runs, %d differ" % (done, len(jobs), differ),
                      file=sys.stderr)
    print("compare-builds: %d runs of each binary over %d modules: %d differ; exit statuses of "
          "the new binary: %s" % (len(jobs), len(corpus), differ,
                                  ", ".join("%d: %d" % kv for kv in sorted(status.items()))))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
