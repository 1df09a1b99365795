"""The float model the race suite's oracles share (race_suite.py, race_agg.py).

This file owns the bit patterns the race cases use and what one float
atomic min/max does to memory under each NaN policy, on 32-bit float bits.
Standard library only.
"""

LOCAL = 64

F100, F5, F1, F20000, F200 = 0x42C80000, 0x40A00000, 0x3F800000, 0x469C4000, 0x43480000
F2 = 0x40000000
NEG0, NEG1 = 0x80000000, 0xBF800000
NEG_QNAN, POS_QNAN = 0xFFC00000, 0x7FC00000


def is_nan(b):
    return (b & 0x7FFFFFFF) > 0x7F800000


def key(b):
    """Total order of floats as integers (-0 < +0; NaNs by their bits, the
    order of the fast policy)."""
    return b ^ 0xFFFFFFFF if b & 0x80000000 else b | 0x80000000


def minmax(kind, policy, mem, v):
    """Memory after a float atomic min/max under `policy` ('number',
    'propagate' or 'fast'); under propagate any NaN result is POS_QNAN (the
    checks compare NaN-ness only, the pattern is the lowering's choice)."""
    if policy == "number":
        if is_nan(v):
            return mem
        if is_nan(mem):
            return v
    elif policy == "propagate":
        if is_nan(mem) or is_nan(v):
            return POS_QNAN
    lt = key(v) < key(mem)
    return v if (lt if kind == "min" else not lt and v != mem) else mem


def same(policy, a, b):
    """Whether two memory values agree (any two NaNs under propagate)."""
    if policy == "propagate" and is_nan(a) and is_nan(b):
        return True
    return a == b


def canon(policy, m):
    """\\p m with any NaN written as POS_QNAN under propagate."""
    return POS_QNAN if policy == "propagate" and is_nan(m) else m
