#!/usr/bin/env python3
"""Validates SPIR-V binaries for one target environment.

usage: validate_spv.py [--max-id-bound N] [--scalar-block-layout] ENV FILE [FILE...]

Each FILE must pass `spirv-val --target-env ENV` and hold no OpBitcast of a
Logical pointer (check_no_logical_ptr_bitcast.py; Debian's spirv-val does not
catch it).  --max-id-bound N and --scalar-block-layout are passed to
spirv-val (a module lowered under fatomic-opt's --max-id-bound, one in
scalar block layout).  Exit 0 and print nothing when every file is
clean.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def check(env, path, val_args=()):
    """Returns an error message, or None when \\p path is valid for \\p env.
    \\p val_args are more arguments for spirv-val."""
    val = os.environ.get("SPIRV_VAL", "spirv-val")
    dis = os.environ.get("SPIRV_DIS", "spirv-dis")
    cmd = [val, "--target-env", env] + list(val_args) + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return "spirv-val %s:\n%s%s" % (" ".join(cmd[1:]), p.stdout, p.stderr)
    p = subprocess.run([dis, "--raw-id", path], capture_output=True, text=True)
    if p.returncode != 0:
        return "spirv-dis %s:\n%s" % (path, p.stderr)
    c = subprocess.run([sys.executable, os.path.join(HERE, "check_no_logical_ptr_bitcast.py")],
                       input=p.stdout, capture_output=True, text=True)
    if c.returncode != 0:
        return "%s: %s%s" % (path, c.stdout, c.stderr)
    return None


def main():
    args = sys.argv[1:]
    val_args = []
    if args[:1] == ["--max-id-bound"]:
        if len(args) < 2 or not args[1].isdigit():
            sys.exit("validate_spv.py: --max-id-bound needs a decimal number\n" + __doc__)
        val_args, args = args[:2], args[2:]
    if args[:1] == ["--scalar-block-layout"]:
        val_args, args = val_args + args[:1], args[1:]
    if len(args) < 2 or args[0].startswith("-"):
        sys.exit(__doc__)
    errors = [e for e in (check(args[0], f, val_args) for f in args[1:]) if e]
    for e in errors:
        sys.stderr.write(e + "\n")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
