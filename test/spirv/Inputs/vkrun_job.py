"""Running one fatomic-vkrun job for the execution checks of test/spirv
(select_exec_check.py, shared_add_max_check.py) and reading its buffers.
"""
import json
import os
import struct
import subprocess
import sys


def run_job(vkrun, d, job):
    """Writes job to d/job.json and runs it with fatomic-vkrun, without the
    device's float atomics; exits with fatomic-vkrun's output if it fails."""
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "job.json")
    with open(path, "w") as f:
        json.dump(job, f)
    p = subprocess.run([vkrun, "-q", "--no-float-atomics", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("fatomic-vkrun exit %d:\n%s" % (p.returncode, p.stdout))


def floats(d, name, n):
    """The first n little-endian floats of the output file d/name."""
    with open(os.path.join(d, name), "rb") as f:
        return list(struct.unpack("<%df" % n, f.read()[:4 * n]))
