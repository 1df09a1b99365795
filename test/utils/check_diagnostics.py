#!/usr/bin/env python3
"""Checks docs/diagnostics.md against the sources, both ways.

usage: check_diagnostics.py DOC ROOT

1. Every message of the catalogue (the first code span of each table row) is
   in the sources: each part between the `…` placeholders must be inside one
   string literal of the files below (adjacent literals joined, printf
   conversions such as %08x taken as placeholders).
2. Every message site of those files (the calls listed in SITES) is in the
   catalogue: each string literal of the site, four characters or longer,
   must appear in the document's code spans.
A named part that a site adds to a literal (NAMED_PARTS) is read as part of
that literal.

Prints a summary line per direction; exit 1 with the offending messages.
"""
import re
import sys

# (file, the calls that produce a message there)
SITES = [
    ("lib/SPIRV/LowerFloatAtomicMinMax.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/SitePlan.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/PointerChain.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/IntegerTypes.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/BufferAlias.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/SharedRetype.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/ImageRetype.cpp", r"\berror\(FailureKind::"),
    ("lib/SPIRV/Module.cpp", r"\bError\s*\+?=|\bsnprintf\("),
    ("lib/SPIRV/ModuleParse.cpp", r"\bError\s*\+?=|\bsnprintf\(|\bbad\(\""),
    ("lib/SPIRV/CApi.cpp", r"(?<!void )\breport\("),
    ("lib/Core/Options.cpp", r"\bError\s*\+?="),
    ("lib/Core/Target.cpp", r"\bError\s*\+?="),
    ("tools/fatomic-opt/CommandLine.cpp", r"(?<!bool )\bfail\("),
    ("tools/fatomic-opt/ModuleFile.cpp", r"\bError\s*\+?="),
    ("tools/fatomic-opt/fatomic-opt.cpp", r"\bDiag\.(error|note)\("),
    ("lib/Layer/Settings.cpp", r"\bS\.Error\s*=|\bsnprintf\("),
    ("lib/Layer/Shaders.cpp", r"\breportError\("),
    ("lib/LLVM/LowerFloatAtomicMinMax.cpp",
     r"\bError\s*\+?=|\bFail\(\"|DiagnosticInfoUnsupported\("),
]

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# Named message parts (`constexpr const char *Name = "..." "...";`) of these
# headers: where a site adds one to a literal (`"..." + Name`), its text
# counts as part of that literal.
NAMED_PARTS = ["lib/SPIRV/LoweringState.h"]
NAMED = re.compile(r'constexpr const char \*(\w+) =\s*((?:"(?:[^"\\\n]|\\.)*"\s*)+);')
PRINTF = re.compile(r"%0?\d*l?[xdus]")


def unescape(s):
    return s.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def statement(text, start):
    """The text from \\p start to the ';' that ends the statement."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            m = LITERAL.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth <= 0:
            return text[start:i]
        i += 1
    return text[start:]


def runs(code):
    """The string literals of \\p code, adjacent ones joined."""
    out, last_end, cur = [], None, None
    for m in LITERAL.finditer(code):
        if cur is not None and code[last_end:m.start()].strip() == "":
            cur += unescape(m.group(1))
        else:
            if cur is not None:
                out.append(cur)
            cur = unescape(m.group(1))
        last_end = m.end()
    if cur is not None:
        out.append(cur)
    return out


def pieces(run):
    return [p for p in PRINTF.split(run)]


def code_spans(text):
    """Inline code spans, single or double backticks."""
    return re.findall(r"``(.+?)``|`([^`]+)`", text)


def catalogue(doc):
    """First code span of each table row (the message), with its line."""
    msgs = []
    for n, line in enumerate(doc.split("\n"), 1):
        if not line.startswith("| ") or line.startswith("|---"):
            continue
        cell = line.split(" | ")[0][2:]
        spans = code_spans(cell)
        if not spans:
            continue
        double, single = spans[0]
        msgs.append((n, double or single))
    return msgs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    doc_path, root = sys.argv[1], sys.argv[2]
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    all_spans = "\n".join(a or b for a, b in code_spans(doc))

    named = {}
    for path in NAMED_PARTS:
        with open(root + "/" + path, encoding="utf-8") as f:
            for m in NAMED.finditer(f.read()):
                named[m.group(1)] = "".join(LITERAL.findall(m.group(2)))

    literals, sites = [], []
    for path, pattern in SITES:
        with open(root + "/" + path, encoding="utf-8") as f:
            text = f.read()
        for name, value in named.items():
            text = re.sub(r'"\s*\+\s*' + name + r"\b",
                          lambda _: '" "' + value + '"', text)
        for r in runs(text):
            literals.extend(pieces(r))
        for m in re.finditer(pattern, text):
            line = text.count("\n", 0, m.start()) + 1
            sites.append((path, line, runs(statement(text, m.start()))))

    errors = []
    msgs = catalogue(doc)
    for n, msg in msgs:
        for part in msg.split("…"):
            part = part.strip()
            if len(part) >= 4 and not any(part in lit for lit in literals):
                errors.append("%s:%d: not in the sources: '%s' (of `%s`)"
                              % (doc_path, n, part, msg))
    print("catalogue -> sources: %d messages checked" % len(msgs))

    checked = 0
    for path, line, site_runs in sites:
        parts = [p.strip() for r in site_runs for p in pieces(r)]
        parts = [p for p in parts if len(p) >= 4]
        if not parts:
            continue
        checked += 1
        for p in parts:
            if p not in all_spans:
                errors.append("%s:%d: message not in %s: '%s'"
                              % (path, line, doc_path, p))
    print("sources -> catalogue: %d message sites checked" % checked)

    for e in errors:
        print("error: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
