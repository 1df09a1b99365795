#!/usr/bin/env python3
"""Lowers one shader with fatomic-opt and checks the output.

usage: lower_and_check.py --env ENV INPUT [fatomic-opt args...]

INPUT is GLSL (.comp, compiled with glslangValidator), SPIR-V assembly
(.spvasm, assembled with spirv-as), OpenCL C (.cl, compiled with clang-22 to
a SPIR-V kernel) or a binary (.spv).  The output of
`fatomic-opt INPUT.spv <args> -o OUT` is validated with spirv-val for ENV and
checked for OpBitcast of Logical pointers; its disassembly is printed on
stdout for FileCheck.  Any failure exits non-zero with the tool's message.
Tool paths come from the environment (FATOMIC_OPT, SPIRV_AS, ...), which the
lit configuration sets.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate_spv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def tool(name, default):
    return os.environ.get(name, default)


def run(cmd, what):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write("%s failed (exit %d): %s\n%s%s" % (
            what, p.returncode, " ".join(cmd), p.stdout, p.stderr))
        sys.exit(1)
    return p


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[0] != "--env":
        sys.exit(__doc__)
    env, src, extra = args[1], args[2], args[3:]
    tmp = tempfile.mkdtemp(prefix="fatomic-lit-")
    spv = os.path.join(tmp, "in.spv")
    out = os.path.join(tmp, "out.spv")
    if src.endswith(".comp"):
        run([tool("GLSLANG", "glslangValidator"), "--target-env", env, "-V", src,
             "-o", spv], "glslangValidator")
    elif src.endswith(".spvasm"):
        run([tool("SPIRV_AS", "spirv-as"), "--target-env", env, src, "-o", spv],
            "spirv-as")
    elif src.endswith(".cl"):
        run([tool("CLANG", "clang-22"), "-cl-std=CL3.0", "--target=spirv64",
             "-mllvm", "--spirv-ext=+SPV_EXT_shader_atomic_float_min_max",
             "-c", src, "-o", spv], "clang")
    else:
        spv = src
    run([tool("FATOMIC_OPT", "fatomic-opt"), spv] + extra + ["-o", out], "fatomic-opt")
    err = validate_spv.check(env, out)
    if err:
        sys.stderr.write(err)
        sys.exit(1)
    # Named ids are easier to read in CHECK lines.
    friendly = run([tool("SPIRV_DIS", "spirv-dis"), out], "spirv-dis").stdout
    sys.stdout.write(friendly)


if __name__ == "__main__":
    main()
