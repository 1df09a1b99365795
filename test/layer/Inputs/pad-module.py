#!/usr/bin/env python3
"""Pads a SPIR-V module to at least BYTES bytes with OpSourceExtension
instructions (debug information: the module means the same), placed after
its OpSource.

usage: pad-module.py IN.spv OUT.spv BYTES
"""
import struct
import sys

OP_SOURCE, OP_SOURCE_EXTENSION = 3, 4
CHUNK_WORDS = 60000  # words of one string operand; an instruction has at most 65535


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    data = open(sys.argv[1], "rb").read()
    words = list(struct.unpack("<%dI" % (len(data) // 4), data))
    target = int(sys.argv[3])
    at = 5
    while at < len(words) and words[at] & 0xFFFF != OP_SOURCE:
        at += words[at] >> 16
    if at >= len(words):
        sys.exit("pad-module.py: %s has no OpSource" % sys.argv[1])
    at += words[at] >> 16
    # One string of CHUNK_WORDS words: 'x's, then the terminating NULs.
    text = b"x" * (CHUNK_WORDS * 4 - 1) + b"\0"
    chunk = [((CHUNK_WORDS + 1) << 16) | OP_SOURCE_EXTENSION] + list(
        struct.unpack("<%dI" % CHUNK_WORDS, text))
    pad = []
    while (len(words) + len(pad)) * 4 < target:
        pad += chunk
    words[at:at] = pad
    open(sys.argv[2], "wb").write(struct.pack("<%dI" % len(words), *words))


if __name__ == "__main__":
    main()
