"""Aggregated atomics several to an invocation, for race_suite.py.

This file owns the `seq-*` cases: invocations that each run eight float
atomic min/max on one address with their results used, lowered with
subgroup aggregation, in block layouts that put a whole block on one
address, leave some lanes idle, split a block between two addresses, or
give every lane one operand.  After one invocation's first atomic the
subgroup has often diverged, so later atomics meet subgroups that formed at
different times; every address must still be linearizable in each
invocation's program order (race_model.in_program_order).  The same shape
found the used-result warp aggregation of the LLVM pass wrong on an H200
(docs/semantics.md, "Warp aggregation on NVPTX").  Standard library only.
"""

import struct

from race_model import (F1, F2, F5, F100, F200, NEG0, NEG1, NEG_QNAN, POS_QNAN,
                        in_program_order, minmax, same)

OPS = 8          # atomics per invocation
BLOCK = 32       # invocations per layout block (NVIDIA's subgroup size)
BLOCKS = 256     # layout blocks per case
IDLE = 0xFFFFFFFF
SHAPES = ("full", "partial", "mixed", "same")
TABLES = {"number": [F5, F1, F200, NEG_QNAN, F2, F100, NEG1, NEG0],
          "propagate": [F5, F1, F200, POS_QNAN, F2, F100, NEG1, NEG0]}


def cases():
    out = {}
    for pol, form, kind in (("number", "seq", "max"), ("number", "loop", "min"),
                            ("propagate", "seq", "min"), ("propagate", "loop", "max")):
        out[f"seq-{pol}-{form}-{kind}"] = dict(policy=pol, form=form, kind=kind)
    return out


def layout(case):
    """(initial memory per address, OPS operands per invocation, address per
    invocation) of the case's blocks."""
    table = TABLES[case["policy"]]
    init, ops, addr = [], [], []
    for b in range(BLOCKS):
        shape = SHAPES[b % len(SHAPES)]
        a = len(init)
        init.append(table[b % len(table)])
        if shape == "mixed":
            init.append(table[(b + 3) % len(table)])
        split = 1 + b % (BLOCK - 1)
        for lane in range(BLOCK):
            h = lambda k: (b * 7919 + (0 if shape == "same" else lane) * 104729
                           + k * 1299709) % 1000003
            ops.append([table[h(k) % len(table)] for k in range(OPS)])
            if shape == "partial" and ((lane * 7) ^ b) % 3 == 0:
                addr.append(IDLE)
            elif shape == "mixed" and lane >= split:
                addr.append(a + 1)
            else:
                addr.append(a)
    return init, ops, addr


def shader(case, n):
    op = f"atomic{case['kind'].capitalize()}"
    L = ["#version 450",
         "#extension GL_EXT_shader_atomic_float : require",
         "#extension GL_EXT_shader_atomic_float2 : require",
         "layout(local_size_x = 64) in;",
         "layout(std430, binding = 0) buffer Vals { float v[]; } vals;",
         "layout(std430, binding = 1) buffer Addr { uint a[]; } ad;",
         "layout(std430, binding = 2) buffer Dst { float x[]; } dst;",
         "layout(std430, binding = 3) buffer Ret { uint r[]; } ret;",
         "void main() {",
         "  uint i = gl_GlobalInvocationID.x;",
         f"  if (i >= {n}u) return;",
         "  uint a = ad.a[i];",
         "  if (a == 0xffffffffu) return;"]
    if case["form"] == "seq":  # written out; the results stored after the last
        L += [f"  float r{k} = {op}(dst.x[a], vals.v[i * {OPS}u + {k}u]);"
              for k in range(OPS)]
        L += [f"  ret.r[i * {OPS}u + {k}u] = floatBitsToUint(r{k});" for k in range(OPS)]
    else:
        L += [f"  for (uint k = 0u; k < {OPS}u; ++k)",
              f"    ret.r[i * {OPS}u + k] = floatBitsToUint({op}(dst.x[a], vals.v[i * {OPS}u + k]));"]
    return "\n".join(L + ["}"]) + "\n"


def write_inputs(d, init, ops, addr):
    flat = [v for seq in ops for v in seq]
    for name, words in (("vals.bin", flat), ("addr.bin", addr), ("init.bin", init)):
        with open(f"{d}/{name}", "wb") as f:
            f.write(struct.pack(f"<{len(words)}I", *words))


def job(low, n, addresses):
    return {"shader": low, "groups": [(n + 63) // 64, 1, 1], "buffers": [
        {"name": "vals", "binding": 0, "init": {"file": "vals.bin"}},
        {"name": "addr", "binding": 1, "init": {"file": "addr.bin"}},
        {"name": "dst", "binding": 2, "init": {"file": "init.bin"}, "output": "final.bin",
         "check_identical": False},
        {"name": "ret", "binding": 3, "size": 4 * n * OPS, "output": "ret.bin",
         "check_identical": False}]}


def check(case, init, ops, addr, final, ret):
    """(addresses not linearizable in program order, the first of them)."""
    pol, kind = case["policy"], case["kind"]
    per = {}
    for t, a in enumerate(addr):
        if a != IDLE:
            per.setdefault(a, []).append(t)
    bad, first = 0, None
    for a, threads in sorted(per.items()):
        seqs = [[(ops[t][k], ret[t * OPS + k]) for k in range(OPS)] for t in threads]
        if not in_program_order(seqs, init[a], final[a],
                                lambda m, v: minmax(kind, pol, m, v),
                                lambda x, y: same(pol, x, y)):
            bad += 1
            first = first or (f"address {a} ({len(threads)} invocations, initial "
                              f"{init[a]:#x}, final {final[a]:#x})")
    return bad, first


def self_test():
    """Problems of the check on observations made to fail, or []."""
    case = cases()["seq-number-seq-max"]
    init, ops, addr = layout(case)
    final, ret = list(init), [0] * (len(ops) * OPS)
    for t, a in enumerate(addr):  # invocation after invocation: linearizable
        if a == IDLE:
            continue
        for k, v in enumerate(ops[t]):
            ret[t * OPS + k] = final[a]
            final[a] = minmax("max", "number", final[a], v)
    wrong = []
    if check(case, init, ops, addr, final, ret)[0]:
        wrong.append("a serial run is not linearizable")
    moved = next(t for t, a in enumerate(addr) if a != IDLE and
                 any(ret[t * OPS + k] != ret[t * OPS + k + 1] for k in range(OPS - 1)))
    swapped = list(ret)  # one invocation's later result seen first
    k = next(k for k in range(OPS - 1) if ret[moved * OPS + k] != ret[moved * OPS + k + 1])
    swapped[moved * OPS + k], swapped[moved * OPS + k + 1] = \
        swapped[moved * OPS + k + 1], swapped[moved * OPS + k]
    if not check(case, init, ops, addr, final, swapped)[0]:
        wrong.append("results out of program order pass")
    return wrong
