#!/usr/bin/env python3
"""Checks that the C++ files of some folders stay small.

    check_code_size.py [--max-file N] [--max-function N] DIR...

Every .h and .cpp file in each DIR has at most --max-file lines, and every
function body in it (a free function, a method, a constructor; lambdas count
as part of the function that holds them) at most --max-function lines, from
the line of its opening brace to the line of its closing one.  Prints each
file and function over its limit, then a one-line summary with the largest
file and function; exit status 1 if any is over.

Functions are found by brace matching on the text with comments, string and
character literals blanked out: a brace that opens at namespace, class,
struct, enum or union level and follows a parenthesised parameter list (or
a constructor's initialiser list) opens a function.
"""
import argparse
import os
import re
import sys

_SCOPE = re.compile(r"\b(namespace|class|struct|enum|union)\b[^;()]*$")


def blank(text):
    """The text with comments and literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of every function body in the text."""
    code = blank(text)
    stack = []  # one entry per open brace: "scope", "function" or "block"
    found = []
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            head = code[max(code.rfind(";", 0, i), code.rfind("}", 0, i), code.rfind("{", 0, i)) + 1:i]
            in_scope = all(kind == "scope" for kind, _, _ in stack)
            if _SCOPE.search(head.replace("\n", " ")) or head.strip().startswith(("extern", "template")) and "(" not in head:
                kind = "scope"
            elif in_scope and ")" in head:
                kind = "function"
            else:
                kind = "block"
            name = ""
            if kind == "function":
                m = re.search(r"([~\w:]+)\s*\(", head)
                name = m.group(1) if m else "?"
            stack.append((kind, line, name))
        elif c == "}" and stack:
            kind, first, name = stack.pop()
            if kind == "function":
                found.append((name, first, line))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-file", type=int, default=600)
    ap.add_argument("--max-function", type=int, default=120)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    over = 0
    largest_file = ("", 0)
    largest_fn = ("", 0)
    for d in args.dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(d, name)
            text = open(path, encoding="utf-8").read()
            lines = text.count("\n")
            if lines > largest_file[1]:
                largest_file = (path, lines)
            if lines > args.max_file:
                print("%s: %d lines, over %d" % (path, lines, args.max_file))
                over += 1
            for fn, first, last in functions(text):
                length = last - first + 1
                if length > largest_fn[1]:
                    largest_fn = ("%s:%d %s" % (path, first, fn), length)
                if length > args.max_function:
                    print("%s:%d: function %s: %d lines, over %d" % (
                        path, first, fn, length, args.max_function))
                    over += 1
    print("largest file %s (%d lines); longest function %s (%d lines); %d over the limits" % (
        largest_file[0], largest_file[1], largest_fn[0], largest_fn[1], over))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
