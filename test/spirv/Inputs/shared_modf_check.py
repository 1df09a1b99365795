#!/usr/bin/env python3
"""Runs shared-modf-exec.comp's lowered module on a Vulkan device and checks
it.

usage: shared_modf_check.py VKRUN MODULE DIR

Each invocation of GROUPS workgroups of 64 splits its operand v with
modf(v, whole[lid]) into a shared float array that atomicMax also writes,
then takes max(frac + whole) into a shared maximum and atomicMax(whole[lid],
0.0).  Checks out[i] = max(trunc(v_i), +0.0) (-0.0 below +0.0: the whole
part of -0.5 is -0.0, replaced by +0.0) and each group's maximum = its
largest operand (frac + whole = v exactly).
"""
import math
import sys

from vkrun_job import finish, group_maxima_errors, run_vals_out

GROUPS, LOCAL = 8, 64
N = GROUPS * LOCAL


def operand(i):
    table = [-0.5, 0.25, -7.75, 3.0, -2.0, 1024.5, -1e6 - 0.125, 0.0, -0.0, 12.5]
    return table[i % len(table)] * (1 + (i // 7) % 5)


def main():
    vkrun, module, d = sys.argv[1:4]
    vals = [operand(i) for i in range(N)]
    out = run_vals_out(vkrun, module, d, vals, GROUPS, N + GROUPS)
    bad = []
    for i, v in enumerate(vals):
        want = max(math.trunc(v), 0.0)
        if out[i] != want or math.copysign(1.0, out[i]) != 1.0:
            bad.append("invocation %d: %r, expected %r (operand %r)" % (i, out[i], want, v))
    bad += group_maxima_errors(out, vals, GROUPS, LOCAL)
    finish(bad, "ok: %d invocations, %d groups" % (N, GROUPS))


if __name__ == "__main__":
    main()
