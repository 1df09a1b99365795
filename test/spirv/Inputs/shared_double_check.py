#!/usr/bin/env python3
"""Runs shared-double-beside-f32-exec.comp's lowered module on a Vulkan
device and checks it.

usage: shared_double_check.py VKRUN MODULE DIR

Each of GROUPS workgroups of 64 invocations keeps a shared struct of a float
maximum (atomicMax of every operand) and four doubles (the first four
operands times 3).  Checks out[i] = the operand of invocation i % 4 of its
group (3v / 3 is exact in double) and each group's maximum = its largest
operand.
"""
import sys

from vkrun_job import finish, group_maxima_errors, run_vals_out

GROUPS, LOCAL = 8, 64
N = GROUPS * LOCAL


def operand(i):
    table = [-0.5, 0.25, -7.75, 3.0, -2.0, 1024.5, -65536.125, 0.0, 12.5, -96.0]
    return table[i % len(table)] * (1 + (i // 11) % 7)


def main():
    vkrun, module, d = sys.argv[1:4]
    vals = [operand(i) for i in range(N)]
    out = run_vals_out(vkrun, module, d, vals, GROUPS, N + GROUPS)
    bad = []
    for i in range(N):
        want = vals[i - i % LOCAL + i % 4]
        if out[i] != want:
            bad.append("invocation %d: %r, expected %r" % (i, out[i], want))
    bad += group_maxima_errors(out, vals, GROUPS, LOCAL)
    finish(bad, "ok: %d invocations, %d groups" % (N, GROUPS))


if __name__ == "__main__":
    main()
