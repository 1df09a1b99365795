#!/usr/bin/env python3
"""Derives a malformed SPIR-V binary from a good one, for the bad-input tests.

usage: make_bad_spv.py KIND GOOD.spv OUT
       make_bad_spv.py output-bound GOOD.spv OUT LOWERED.spv TARGET

KIND:
  odd-length     GOOD plus one byte
  wrong-magic    the first word replaced by 0xdeadbeef
  big-endian     every word byte-swapped (a valid big-endian module)
  big-endian-truncated  big-endian, the last word dropped
  header-only    the 20-byte header alone
  bound-zero     header word 3 (the id bound) set to 0
  bound-too-big  the id bound set to 0x400001, above the SPIR-V limit
  bound-near-limit  the id bound set to 4194300, just below the limit
  word-count-zero       the first instruction's word count set to 0
  word-count-past-end   the last instruction's word count running 3 words
                        past the end of the file
  unknown-opcode the first OpFunction's opcode replaced by 0xfff0
  id-above-bound the id bound set to the largest result id (so that id is
                 not below it)
  output-bound   the id bound set so that lowering the result adds as many ids
                 as lowering GOOD did (LOWERED is GOOD lowered) and ends at an
                 output bound of exactly TARGET (a valid module as long as
                 TARGET is within the limit)
"""
import struct
import sys


def main():
    if len(sys.argv) != (6 if sys.argv[1:2] == ["output-bound"] else 4):
        sys.exit(__doc__)
    kind, good, out = sys.argv[1:4]
    data = open(good, "rb").read()
    w = list(struct.unpack("<%dI" % (len(data) // 4), data))
    insts = []  # (start, count, opcode)
    i = 5
    while i < len(w):
        n = w[i] >> 16
        insts.append((i, n, w[i] & 0xFFFF))
        i += n
    raw = None
    if kind == "odd-length":
        raw = data + b"\x00"
    elif kind == "wrong-magic":
        w[0] = 0xDEADBEEF
    elif kind == "big-endian":
        raw = struct.pack(">%dI" % len(w), *w)
    elif kind == "big-endian-truncated":
        raw = struct.pack(">%dI" % (len(w) - 1), *w[:-1])
    elif kind == "header-only":
        w = w[:5]
    elif kind == "bound-zero":
        w[3] = 0
    elif kind == "bound-too-big":
        w[3] = 0x400001
    elif kind == "bound-near-limit":
        w[3] = 4194300
    elif kind == "word-count-zero":
        s, n, op = insts[0]
        w[s] = op
    elif kind == "word-count-past-end":
        s, n, op = insts[-1]
        w[s] = ((n + 3) << 16) | op
    elif kind == "unknown-opcode":
        s, n, op = next(x for x in insts if x[2] == 54)  # OpFunction
        w[s] = (n << 16) | 0xFFF0
    elif kind == "id-above-bound":
        w[3] = w[3] - 1
    elif kind == "output-bound":
        lowered = open(sys.argv[4], "rb").read()
        added = struct.unpack("<I", lowered[12:16])[0] - w[3]
        w[3] = int(sys.argv[5], 0) - added
    else:
        sys.exit("unknown KIND '%s'\n%s" % (kind, __doc__))
    if raw is None:
        raw = struct.pack("<%dI" % len(w), *w)
    with open(out, "wb") as f:
        f.write(raw)


if __name__ == "__main__":
    main()
