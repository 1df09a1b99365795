#!/usr/bin/env python3
"""Runs select-same-variable-exec.spvasm's lowered module and checks it.

usage: select_exec_check.py VKRUN MODULE DIR

One workgroup of 64 invocations; invocation i takes the maximum of float(i)
into a[i] (i even) or a[i + 64] (i odd) of a buffer of 128 floats that start
at -inf, and stores the returned value.  Each element is written at most
once, so the result is exact: the chosen elements hold i, the others -inf,
and every returned value is -inf.
"""
import json
import math
import os
import struct
import subprocess
import sys

NEG_INF = 0xFF800000


def floats(path, n):
    with open(path, "rb") as f:
        return list(struct.unpack("<%df" % n, f.read()[:4 * n]))


def main():
    vkrun, module, d = sys.argv[1:4]
    os.makedirs(d, exist_ok=True)
    job = {"shader": os.path.abspath(module), "groups": [1, 1, 1], "buffers": [
        {"name": "a", "binding": 0, "size": 4 * 128, "init": {"fill_u32": NEG_INF},
         "output": "a.out"},
        {"name": "ret", "binding": 1, "size": 4 * 64, "output": "ret.out"}]}
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump(job, f)
    p = subprocess.run([vkrun, "-q", "--no-float-atomics", os.path.join(d, "job.json")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("fatomic-vkrun exit %d:\n%s" % (p.returncode, p.stdout))
    a = floats(os.path.join(d, "a.out"), 128)
    ret = floats(os.path.join(d, "ret.out"), 64)
    want = [-math.inf] * 128
    for i in range(64):
        want[i if i % 2 == 0 else i + 64] = float(i)
    bad = ["a[%d] = %r, expected %r" % (k, a[k], want[k]) for k in range(128) if a[k] != want[k]]
    bad += ["ret[%d] = %r, expected -inf" % (i, ret[i]) for i in range(64) if ret[i] != -math.inf]
    if bad:
        sys.exit("\n".join(bad[:10]))
    print("ok: 128 elements, 64 returned values")


if __name__ == "__main__":
    main()
