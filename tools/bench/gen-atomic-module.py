#!/usr/bin/env python3
"""Writes an LLVM IR module with many float atomic min/max operations.

The compile-time benchmark input of the LLVM pass (docs/llvm-compile-time.md):
COUNT `atomicrmw` instructions in functions of PER_FUNCTION each, cycling
through fmin/fmax/fminimum/fmaximum, float/double/half, the orderings and
address spaces 0/1/3, with every other result used.  Deterministic: the same
arguments give the same module.

The atomics of one function on one type take the same operand (a function
argument), as the min and the max of one value do; with --distinct-operands
each atomic takes a value of its own (an fadd of the argument and a
constant, in front of the atomic).

usage: gen-atomic-module.py [--count N] [--per-function K]
                            [--distinct-operands] [-o FILE]
"""

import argparse
import sys

OPS = ("fmin", "fmax", "fminimum", "fmaximum")
TYPES = (("float", 4), ("double", 8), ("half", 2))
ORDERINGS = ("monotonic", "acquire", "release", "acq_rel", "seq_cst")
ADDRSPACES = (0, 1, 3)


def function(index, first, count, distinct):
    lines = []
    params = []
    for space in ADDRSPACES:
        ptr = "ptr" if space == 0 else f"ptr addrspace({space})"
        params.append(f"{ptr} %p{space}")
    params += [f"{ty} %v{ty}" for ty, _ in TYPES] + ["ptr %out"]
    lines.append(f"define void @f{index}({', '.join(params)}) {{")
    for k in range(count):
        i = first + k
        op = OPS[i % len(OPS)]
        ty, size = TYPES[(i // len(OPS)) % len(TYPES)]
        order = ORDERINGS[(i // 12) % len(ORDERINGS)]
        space = ADDRSPACES[(i // 60) % len(ADDRSPACES)]
        ptr = "ptr" if space == 0 else f"ptr addrspace({space})"
        lines.append(f"  %a{k} = getelementptr inbounds {ty}, {ptr} %p{space}, i64 {k}")
        operand = f"%v{ty}"
        if distinct:
            operand = f"%x{k}"
            lines.append(f"  %x{k} = fadd {ty} %v{ty}, {k + 1}.0")
        lines.append(f"  %r{k} = atomicrmw {op} {ptr} %a{k}, {ty} {operand} {order}, align {size}")
        if k % 2 == 0:
            lines.append(f"  %o{k} = getelementptr inbounds {ty}, ptr %out, i64 {k}")
            lines.append(f"  store {ty} %r{k}, ptr %o{k}, align {size}")
    lines.append("  ret void")
    lines.append("}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--per-function", type=int, default=20)
    parser.add_argument("--distinct-operands", action="store_true",
                        help="a value of its own for every atomic")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    if args.count < 1 or args.per_function < 1:
        parser.error("--count and --per-function must be positive")

    operands = "distinct operands" if args.distinct_operands else "one operand per type"
    chunks = [f"; {args.count} float atomic min/max, {args.per_function} per function, "
              f"{operands}\n"]
    first = 0
    index = 0
    while first < args.count:
        count = min(args.per_function, args.count - first)
        chunks.append(function(index, first, count, args.distinct_operands))
        first += count
        index += 1
    text = "\n\n".join(chunks) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
