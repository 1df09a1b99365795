#!/usr/bin/env python3
"""Validates SPIR-V binaries for one target environment.

usage: validate_spv.py ENV FILE [FILE...]

Each FILE must pass `spirv-val --target-env ENV` and hold no OpBitcast of a
Logical pointer (check_no_logical_ptr_bitcast.py; Debian's spirv-val does not
catch it).  Exit 0 and print nothing when every file is clean.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def check(env, path):
    """Returns an error message, or None when \\p path is valid for \\p env."""
    val = os.environ.get("SPIRV_VAL", "spirv-val")
    dis = os.environ.get("SPIRV_DIS", "spirv-dis")
    p = subprocess.run([val, "--target-env", env, path], capture_output=True, text=True)
    if p.returncode != 0:
        return "spirv-val --target-env %s %s:\n%s%s" % (env, path, p.stdout, p.stderr)
    p = subprocess.run([dis, "--raw-id", path], capture_output=True, text=True)
    if p.returncode != 0:
        return "spirv-dis %s:\n%s" % (path, p.stderr)
    c = subprocess.run([sys.executable, os.path.join(HERE, "check_no_logical_ptr_bitcast.py")],
                       input=p.stdout, capture_output=True, text=True)
    if c.returncode != 0:
        return "%s: %s%s" % (path, c.stdout, c.stderr)
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    errors = [e for e in (check(sys.argv[1], f) for f in sys.argv[2:]) if e]
    for e in errors:
        sys.stderr.write(e + "\n")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
