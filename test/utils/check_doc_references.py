#!/usr/bin/env python3
"""Checks that the sources and documents cite documents the repository has.

usage: check_doc_references.py ROOT

1. docs/design.md has the sections the sources cite by name ("Why integer
   atomics work", "Lowering", "NaN policies").
2. No file of the scanned parts names a design document that is not in the
   repository (DESIGN.md, REFERENCE.md, anchors/: the notes the design was
   made from), so a reader can follow every citation.
3. Every citation of docs/design.md (or design.md) that names sections in
   double quotes, `design.md ("A", "B")`, `design.md), "A"` or
   `design.md, "A" and "B"`, names existing ones.

Prints the counts; exit 1 with each offending line.
"""
import os
import re
import sys

REQUIRED = ("Why integer atomics work", "Lowering", "NaN policies")
SCANNED = ("README.md", "include", "lib", "docs", "tools", "test", "scripts",
           "examples", "cmake")
SKIP_DIRS = ("docs/data",)
# This check and its test name the documents it looks for.
SKIP_FILES = ("test/docs/references.test", "test/utils/check_doc_references.py")
SUFFIXES = (".md", ".h", ".cpp", ".c", ".py", ".sh", ".1", ".test", ".txt",
            ".comp", ".spvasm")
MISSING = re.compile(r"\bDESIGN\.md|\bREFERENCE\.md|(?<![\w/])(?:shared/)?anchors/")
CITATION = re.compile(r'design\.md\)?,? \(?((?:"[^"]+"(?:,? and |, )?)+)')


def files(root):
    for part in SCANNED:
        path = os.path.join(root, part)
        if os.path.isfile(path):
            yield part
            continue
        for d, _, names in os.walk(path):
            rel = os.path.relpath(d, root)
            if any(rel == s or rel.startswith(s + "/") for s in SKIP_DIRS):
                continue
            for n in sorted(names):
                if n.endswith(SUFFIXES) and \
                        os.path.join(rel, n) not in SKIP_FILES:
                    yield os.path.join(rel, n)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    errors = []
    design = os.path.join(root, "docs/design.md")
    if not os.path.exists(design):
        print("error: docs/design.md: not in the repository")
        return 1
    with open(design, encoding="utf-8") as f:
        headings = {m.group(1) for m in re.finditer(r"^## (.+)$", f.read(), re.M)}
    for h in REQUIRED:
        if h not in headings:
            errors.append("docs/design.md: no section '## %s'" % h)
    scanned = cited = 0
    for rel in files(root):
        scanned += 1
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        # Join comment continuations so that a citation may wrap.
        for i, line in enumerate(lines):
            if MISSING.search(line):
                errors.append("%s:%d: cites a document the repository does not "
                              "have: %s" % (rel, i + 1, line.strip()))
            text = line + " " + re.sub(r"^\s*(//|;|#|\*)?\s*", "",
                                       lines[i + 1] if i + 1 < len(lines) else "")
            for m in CITATION.finditer(text):
                if m.start() >= len(line):
                    continue
                for name in re.findall(r'"([^"]+)"', m.group(1)):
                    cited += 1
                    if name not in headings:
                        errors.append("%s:%d: cites docs/design.md section "
                                      "'%s', which it does not have"
                                      % (rel, i + 1, name))
    print("docs/design.md: %d sections; %d files scanned, %d section citations"
          % (len(headings), scanned, cited))
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
