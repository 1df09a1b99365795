#!/usr/bin/env python3
"""Fails when a Logical-addressing SPIR-V module bitcasts a pointer.

Reads `spirv-dis --raw-id` style disassembly (or any spirv-dis output) from a
file or stdin.  In Logical addressing, OpBitcast may not produce or consume a
pointer (newer spirv-val: "Instruction may not have a logical pointer
operand"); Debian's spirv-val 2023.1 accepts it, so tests check it here.
PhysicalStorageBuffer pointers may be bitcast in any addressing model.
Exit 0 and print nothing when the module is clean.
"""
import re
import sys

text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()

addressing = None
ptr_types = {}   # id -> storage class
types_of = {}    # id -> result type id
bitcasts = []
for line in text.splitlines():
    line = line.split(";")[0].strip()
    if not line:
        continue
    m = re.match(r"OpMemoryModel\s+(\w+)", line)
    if m:
        addressing = m.group(1)
        continue
    m = re.match(r"(%\S+)\s*=\s*(Op\w+)\s*(.*)", line)
    if not m:
        continue
    rid, op, rest = m.groups()
    words = rest.split()
    if op in ("OpTypePointer", "OpTypeUntypedPointerKHR"):
        ptr_types[rid] = words[0]
    elif op == "OpTypeForwardPointer":
        pass
    elif words:
        types_of[rid] = words[0]
        if op == "OpBitcast":
            bitcasts.append((rid, words[0], words[1] if len(words) > 1 else None, line))

if addressing is None:
    sys.exit("check_no_logical_ptr_bitcast: no OpMemoryModel in the input")
# Physical32/64 pointers may be bitcast.  Under PhysicalStorageBuffer64 the
# other storage classes are still logical pointers.
if addressing not in ("Logical", "PhysicalStorageBuffer64"):
    sys.exit(0)

bad = []
for rid, rtype, operand, line in bitcasts:
    for ty in (rtype, types_of.get(operand)):
        sc = ptr_types.get(ty)
        if sc is not None and sc != "PhysicalStorageBuffer":
            bad.append(line)
            break
for line in bad:
    print("error: OpBitcast of a Logical pointer: " + line)
sys.exit(1 if bad else 0)
