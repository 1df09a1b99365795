#!/usr/bin/env python3
"""Runs a lowered shader of the shared-init-*-exec.comp tests on a Vulkan
device and checks each workgroup's maximum.

usage: shared_init_max_check.py VKRUN MODULE DIR PHASES POLICY

Each of GROUPS workgroups of 64 invocations, in each of PHASES phases, sets
a shared float to -inf (invocation 0), waits at a barrier, takes the
maximum of 16 operands per invocation into it with atomicMax (results
unused), waits again, and invocation 0 writes it to out[phase * GROUPS +
group].  The operands of a later phase are all below those of the phase
before, so a bound remembered from an earlier phase would keep a later
phase's maximum from being written.  Some groups get NaN operands of both
signs and both zeros.  POLICY number: the maximum of the numbers (-0 < +0);
propagate: a NaN where the group saw one.
"""
import math
import os
import struct
import sys

from vkrun_job import run_job

GROUPS, LOCAL, PER = 16, 64, 16
N = GROUPS * LOCAL


def float_to_bits(x):
    # struct keeps a quiet NaN's sign and payload both ways.
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_to_float(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def operand(phase, i, k):
    g = i // LOCAL
    j = (i * 37 + k * 11) % (LOCAL * PER)
    if g % 4 == 1 and (i % LOCAL, k) in ((5, 3), (40, 9)):
        return bits_to_float(0x7FC00001 if k == 3 else 0xFFC00002)
    if g % 4 == 2 and k == 0:
        return -0.0 if i % 2 else 0.0
    return float(j) - 500.0 - 4096.0 * phase


def key(x):
    # The order fatomic uses: -0 below +0.
    return (x, math.copysign(1.0, x))


def main():
    vkrun, module, d, phases, policy = sys.argv[1:6]
    phases = int(phases)
    vals = [operand(p, i, k) for p in range(phases) for i in range(N) for k in range(PER)]
    job = {"shader": os.path.abspath(module), "groups": [GROUPS, 1, 1], "buffers": [
        {"name": "vals", "binding": 0, "init": {"u32": [float_to_bits(x) for x in vals]}},
        {"name": "out", "binding": 1, "size": 4 * phases * GROUPS, "output": "out.out"}]}
    run_job(vkrun, d, job)
    with open(os.path.join(d, "out.out"), "rb") as f:
        out = struct.unpack("<%dI" % (phases * GROUPS), f.read()[:4 * phases * GROUPS])
    bad = []
    for p in range(phases):
        for g in range(GROUPS):
            ops = [vals[(p * N + i) * PER + k] for i in range(g * LOCAL, (g + 1) * LOCAL)
                   for k in range(PER)]
            got = bits_to_float(out[p * GROUPS + g])
            nums = [x for x in ops if not math.isnan(x)]
            if policy == "propagate" and len(nums) < len(ops):
                ok = math.isnan(got)
                want = "a NaN"
            else:
                top = max(nums, key=key)
                ok = not math.isnan(got) and key(got) == key(top)
                want = repr(top)
            if not ok:
                bad.append("phase %d group %d: 0x%08x (%r), expected %s"
                           % (p, g, out[p * GROUPS + g], got, want))
    if bad:
        sys.exit("\n".join(bad[:10]))
    print("ok: %d phases x %d groups" % (phases, GROUPS))


if __name__ == "__main__":
    main()
