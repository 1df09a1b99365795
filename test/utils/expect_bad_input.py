#!/usr/bin/env python3
"""Checks that fatomic-opt rejects an input the way every error must.

usage: expect_bad_input.py [fatomic-opt args and input...]

Runs `fatomic-opt ARGS -o OUT` twice in a fresh directory: once with OUT
absent and once with OUT an existing file.  Each run must:
  * finish within 60 seconds (no hang);
  * exit with status 1;
  * print nothing on stdout and exactly one line starting with "error:" on
    stderr (notes may precede it; a validator message may continue on the
    next lines, indented);
  * write nothing: OUT absent stays absent, an existing OUT keeps its bytes,
    and no other file (a temporary) is left in the directory.
The two runs must print the same diagnostics.  They are printed on stdout
for FileCheck.  The fatomic-opt binary comes from $FATOMIC_OPT.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SENTINEL = b"an existing output file that a failed run must not touch\n"


def run(args, out):
    cmd = [os.environ.get("FATOMIC_OPT", "fatomic-opt")] + args + ["-o", out]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
    except subprocess.TimeoutExpired:
        sys.exit("expect_bad_input: fatomic-opt hung (over 60 s): %s" % " ".join(cmd))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(rc, so, se, what):
    if rc != 1:
        sys.exit("expect_bad_input: %s: exit status %d, expected 1\n%s%s" % (what, rc, so, se))
    if so:
        sys.exit("expect_bad_input: %s: unexpected output on stdout:\n%s" % (what, so))
    errors = [l for l in se.splitlines() if l.startswith("error:")]
    if len(errors) != 1:
        sys.exit("expect_bad_input: %s: %d error lines, expected exactly one:\n%s"
                 % (what, len(errors), se))
    for l in se.splitlines():
        if not (l.startswith("error:") or l.startswith("note:") or l.startswith(" ")
                or not l.strip()):
            sys.exit("expect_bad_input: %s: stray diagnostic line '%s'" % (what, l))


def main():
    args = sys.argv[1:]
    d = tempfile.mkdtemp(prefix="fatomic-bad-input-")
    try:
        fresh = os.path.join(d, "out.spv")
        rc, so, se = run(args, fresh)
        check(rc, so, se, "with no existing output")
        if os.listdir(d):
            sys.exit("expect_bad_input: files written: %s" % ", ".join(sorted(os.listdir(d))))

        existing = os.path.join(d, "existing.spv")
        with open(existing, "wb") as f:
            f.write(SENTINEL)
        rc2, so2, se2 = run(args, existing)
        check(rc2, so2, se2, "with an existing output")
        with open(existing, "rb") as f:
            if f.read() != SENTINEL:
                sys.exit("expect_bad_input: the existing output file was changed")
        if sorted(os.listdir(d)) != ["existing.spv"]:
            sys.exit("expect_bad_input: files left behind: %s" % ", ".join(sorted(os.listdir(d))))
        if se2 != se:
            sys.exit("expect_bad_input: the two runs printed different diagnostics:\n%s---\n%s"
                     % (se, se2))
        sys.stdout.write(se)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
