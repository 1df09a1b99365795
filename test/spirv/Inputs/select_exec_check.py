#!/usr/bin/env python3
"""Runs select-same-variable-exec.spvasm's lowered module and checks it.

usage: select_exec_check.py VKRUN MODULE DIR

One workgroup of 64 invocations; invocation i takes the maximum of float(i)
into a[i] (i even) or a[i + 64] (i odd) of a buffer of 128 floats that start
at -inf, and stores the returned value.  Each element is written at most
once, so the result is exact: the chosen elements hold i, the others -inf,
and every returned value is -inf.
"""
import math
import os
import sys

from vkrun_job import floats, run_job

NEG_INF = 0xFF800000


def main():
    vkrun, module, d = sys.argv[1:4]
    job = {"shader": os.path.abspath(module), "groups": [1, 1, 1], "buffers": [
        {"name": "a", "binding": 0, "size": 4 * 128, "init": {"fill_u32": NEG_INF},
         "output": "a.out"},
        {"name": "ret", "binding": 1, "size": 4 * 64, "output": "ret.out"}]}
    run_job(vkrun, d, job)
    a = floats(d, "a.out", 128)
    ret = floats(d, "ret.out", 64)
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
