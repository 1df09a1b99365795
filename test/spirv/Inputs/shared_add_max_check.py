#!/usr/bin/env python3
"""Runs shared-add-beside-max-exec.comp's lowered module on a Vulkan device
and checks the results.

usage: shared_add_max_check.py VKRUN MODULE DIR

Each of GROUPS workgroups of 64 invocations adds its operands into s[0] with
atomicAdd and takes their maximum into s[1] with atomicMax, both returning
the value they replaced.  Operands are small integers, so every sum is exact
and does not depend on the order.  Checks: each group's final sum and
maximum; the add's returned values form one chain 0 -> ... -> sum (some
order of the adds gives exactly them); the max's returned values are
running maxima of some order (each is -inf or an operand below the final
maximum, or the final maximum itself returned to a smaller operand).
"""
import math
import os
import sys

from vkrun_job import floats, run_job

GROUPS, LOCAL = 16, 64
N = GROUPS * LOCAL


def operand(i):
    # 1..64, shuffled within each group so that order is not index order.
    return float((i * 37) % LOCAL + 1) * (1 + (i // LOCAL) % 3)


def main():
    vkrun, module, d = sys.argv[1:4]
    vals = [operand(i) for i in range(N)]
    job = {"shader": os.path.abspath(module), "groups": [GROUPS, 1, 1], "buffers": [
        {"name": "vals", "binding": 0, "init": {"f32": vals}},
        {"name": "radd", "binding": 1, "size": 4 * N, "output": "radd.out"},
        {"name": "rmax", "binding": 2, "size": 4 * N, "output": "rmax.out"},
        {"name": "out", "binding": 3, "size": 8 * GROUPS, "output": "out.out"}]}
    run_job(vkrun, d, job)
    radd = floats(d, "radd.out", N)
    rmax = floats(d, "rmax.out", N)
    out = floats(d, "out.out", 2 * GROUPS)
    bad = []
    for g in range(GROUPS):
        idx = range(g * LOCAL, (g + 1) * LOCAL)
        total, top = sum(vals[i] for i in idx), max(vals[i] for i in idx)
        if out[2 * g] != total:
            bad.append("group %d: sum %r, expected %r" % (g, out[2 * g], total))
        if out[2 * g + 1] != top:
            bad.append("group %d: max %r, expected %r" % (g, out[2 * g + 1], top))
        chain = sorted((radd[i], vals[i]) for i in idx)
        at = 0.0
        for ret, v in chain:
            if ret != at:
                bad.append("group %d: add returned %r where the chain is at %r" % (g, ret, at))
                break
            at = ret + v
        for i in idx:
            r = rmax[i]
            if not (r == -math.inf or (r in [vals[k] for k in idx] and
                                       (r < top or vals[i] <= r))):
                bad.append("group %d: max returned %r to operand %r" % (g, r, vals[i]))
                break
    if bad:
        sys.exit("\n".join(bad[:10]))
    print("ok: %d groups, sums, maxima and returned values" % GROUPS)


if __name__ == "__main__":
    main()
