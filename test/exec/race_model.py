"""The float model the race suite's oracles share (race_suite.py, race_agg.py).

This file owns the bit patterns the race cases use, what one float atomic
min/max does to memory under each NaN policy, on the bits of a binary32
float (the default) or a binary64 one (width=64: nvptx-race.py's f64 cases,
made with widen), and the check of several threads' atomics on one address
in program order (in_program_order; also tools/nvptx/nvptx-bench.py's).
Standard library only.
"""

import struct

LOCAL = 64

F100, F5, F1, F20000, F200 = 0x42C80000, 0x40A00000, 0x3F800000, 0x469C4000, 0x43480000
F2 = 0x40000000
NEG0, NEG1 = 0x80000000, 0xBF800000
NEG_QNAN, POS_QNAN = 0xFFC00000, 0x7FC00000


def _top(width):
    return 1 << (width - 1)


def is_nan(b, width=32):
    inf = 0x7F800000 if width == 32 else 0x7FF0000000000000
    return (b & (_top(width) - 1)) > inf


def key(b, width=32):
    """Total order of floats as integers (-0 < +0; NaNs by their bits, the
    order of the fast policy)."""
    return b ^ ((1 << width) - 1) if b & _top(width) else b | _top(width)


def widen(b):
    """The binary64 bits of the binary32 value with bits `b` (a NaN keeps
    its sign and stays quiet)."""
    f = struct.unpack("<f", struct.pack("<I", b))[0]
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def sticky(kind, width=32):
    """The sticky NaN of `kind` under propagate: all bits set for min, all
    but the sign for max (docs/semantics.md)."""
    ones = (1 << width) - 1
    return ones if kind == "min" else ones >> 1


def minmax(kind, policy, mem, v, width=32):
    """Memory after a float atomic min/max under `policy` ('number',
    'propagate' or 'fast'), bit for bit as lib/Core/Reference.cpp says:
    under propagate a NaN in memory stays as it is and a NaN operand is
    stored as the sticky pattern of `kind`.  Bit patterns of `width`
    bits."""
    if policy == "number":
        if is_nan(v, width):
            return mem
        if is_nan(mem, width):
            return v
    elif policy == "propagate":
        if is_nan(mem, width):
            return mem
        if is_nan(v, width):
            return sticky(kind, width)
    lt = key(v, width) < key(mem, width)
    return v if (lt if kind == "min" else not lt and v != mem) else mem


def same(policy, a, b, width=32):
    """Whether two memory values agree: bit for bit under every policy (a
    NaN in memory is never rewritten, and a NaN operand stores a fixed
    pattern)."""
    return a == b


def canon(policy, m, width=32):
    """`m` as the model keeps it: as it is (the bits are exact)."""
    return m


def in_program_order(seqs, init, final, step, same=lambda a, b: a == b):
    """Whether the min/max atomics of several threads on one address, seqs
    (per thread, (operand, returned) pairs in program order), that found
    memory `init` and left `final`, have a serial order that keeps each
    thread's order and in which each returned the memory before it;
    step(mem, v) is memory after one atomic, same() compares two words.
    Memory never returns to a value it has left, so while it holds a value
    every thread's next atomics that return it and leave it run, then at
    most one that returns it and changes it."""
    mem, at = init, [0] * len(seqs)
    while True:
        for t, seq in enumerate(seqs):
            while (at[t] < len(seq) and same(seq[at[t]][1], mem)
                   and same(step(mem, seq[at[t]][0]), mem)):
                at[t] += 1
        moves = [t for t, seq in enumerate(seqs)
                 if at[t] < len(seq) and same(seq[at[t]][1], mem)]
        if len(moves) != 1:
            break
        t = moves[0]
        mem = step(mem, seqs[t][at[t]][0])
        at[t] += 1
    return (not moves and all(at[t] == len(seq) for t, seq in enumerate(seqs))
            and same(mem, final))
