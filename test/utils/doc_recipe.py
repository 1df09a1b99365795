#!/usr/bin/env python3
"""Extracts the command blocks of a Markdown document, so tests run exactly
what the documentation shows.

A block is a fenced code block right after a marker line:

    <!-- recipe: NAME -->          a shell block that a test runs
    <!-- recipe-file: PATH -->     a block that must appear verbatim in PATH
                                   (relative to the repository root)

usage:
  doc_recipe.py DOC NAME
      prints the block named NAME (exit 1 if there is none)
  doc_recipe.py --check DOC ROOT TESTDIR
      checks that every `recipe:` block of DOC is extracted by a test under
      TESTDIR (a file that mentions "DOCNAME NAME") and that every
      `recipe-file:` block appears verbatim in its file; prints one line per
      block, exit 1 on the first problem
"""
import os
import re
import sys

MARKER = re.compile(r"^<!-- recipe(-file)?: (\S+) -->$")


def blocks(path):
    """Yields (kind, name, text, line) for each marked block of \\p path."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        kind = "file" if m.group(1) else "run"
        start = i + 1
        if start >= len(lines) or not lines[start].startswith("```"):
            sys.exit("%s:%d: a recipe marker must be followed by a fenced block"
                     % (path, i + 1))
        end = start + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            sys.exit("%s:%d: unterminated block" % (path, start + 1))
        yield kind, m.group(2), "\n".join(lines[start + 1:end]) + "\n", i + 1
        i = end + 1


def extract(doc, name):
    found = [text for kind, n, text, _ in blocks(doc) if kind == "run" and n == name]
    if len(found) != 1:
        sys.exit("%s: %d blocks named '%s' (expected 1)" % (doc, len(found), name))
    sys.stdout.write(found[0])


def check(doc, root, testdir):
    tests = []
    for dirpath, _, files in os.walk(testdir):
        for f in files:
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                tests.append(fh.read())
    docname = os.path.basename(doc)
    names = set()
    count = 0
    for kind, name, text, line in blocks(doc):
        count += 1
        if kind == "run":
            if name in names:
                sys.exit("%s:%d: recipe '%s' defined twice" % (doc, line, name))
            names.add(name)
            used = "%s %s" % (docname, name)
            if not any(used in t for t in tests):
                sys.exit("%s:%d: recipe '%s' is run by no test under %s"
                         % (doc, line, name, testdir))
            print("run by a test: %s" % name)
        else:
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as fh:
                content = fh.read()
            if text not in content:
                sys.exit("%s:%d: this block is not in %s verbatim:\n%s"
                         % (doc, line, name, text))
            print("verbatim in %s: %d lines" % (name, text.count("\n")))
    if count == 0:
        sys.exit("%s: no recipe blocks" % doc)


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "--check":
        check(*args[1:])
    elif len(args) == 2:
        extract(*args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
