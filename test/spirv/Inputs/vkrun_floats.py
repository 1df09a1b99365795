#!/usr/bin/env python3
"""Runs a lowered compute module on a Vulkan device (one workgroup, without
the device's float atomics) and prints the first N floats of its output
buffer (set 0, binding 0), space-separated, for FileCheck.

usage: vkrun_floats.py VKRUN MODULE DIR N
"""
import os
import sys

from vkrun_job import floats, run_job


def main():
    vkrun, module, d, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    job = {"shader": os.path.abspath(module), "groups": [1, 1, 1], "buffers": [
        {"name": "out", "binding": 0, "size": 4 * n, "output": "out.out"}]}
    run_job(vkrun, d, job)
    print(" ".join("%g" % v for v in floats(d, "out.out", n)))


if __name__ == "__main__":
    main()
