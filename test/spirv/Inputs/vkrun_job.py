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


def run_vals_out(vkrun, module, d, vals, groups, n_out):
    """Runs module over `groups` workgroups with the f32 operands vals at
    binding 0 and an output of n_out floats at binding 1; returns the
    output's floats."""
    job = {"shader": os.path.abspath(module), "groups": [groups, 1, 1], "buffers": [
        {"name": "vals", "binding": 0, "init": {"f32": vals}},
        {"name": "out", "binding": 1, "size": 4 * n_out, "output": "out.out"}]}
    run_job(vkrun, d, job)
    return floats(d, "out.out", n_out)


def group_maxima_errors(out, vals, groups, local):
    """The groups g whose out[len(vals) + g] is not the largest of their
    `local` operands, described."""
    n = len(vals)
    bad = []
    for g in range(groups):
        top = max(vals[g * local:(g + 1) * local])
        if out[n + g] != top:
            bad.append("group %d: maximum %r, expected %r" % (g, out[n + g], top))
    return bad


def finish(bad, summary):
    """Exits with the first ten of the errors in bad, or prints summary."""
    if bad:
        sys.exit("\n".join(bad[:10]))
    print(summary)
