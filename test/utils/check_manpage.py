#!/usr/bin/env python3
"""Checks that fatomic-opt's man page, its --help and the documentation agree.

usage: check_manpage.py MANPAGE FATOMIC_OPT PIPELINES_MD

1. `man -l MANPAGE` renders without warnings and has the usual sections.
2. Every option `fatomic-opt --help` lists (its own and the spirv-opt ones
   it handles itself, not spirv-opt's pass flags) is in the rendered page,
   and every option the page lists is in --help.
3. Every lowering option key and value of --help is in the man page and in
   the option table of PIPELINES_MD, and that table has no other key.

Prints the rendered page's size and the counts; exit 1 with what differs.
"""
import os
import re
import subprocess
import sys

OPTION = re.compile(r"^  (-[^ ].*?)(?:  |$)")
KEY = re.compile(r"^ {15}([a-z-]+)=(\S+)$")
FLAG = re.compile(r"-{1,2}[A-Za-z][A-Za-z0-9-]*=?")


def help_options(fatomic_opt):
    out = subprocess.run([fatomic_opt, "--help"], capture_output=True, text=True,
                         check=True).stdout
    flags, keys = set(), {}
    for line in out.split("\n"):
        m = OPTION.match(line)
        if m:
            for f in FLAG.findall(m.group(1)):
                flags.add(f)
            continue
        m = KEY.match(line)
        if m:
            values = m.group(2)
            keys[m.group(1)] = ([] if "<" in values else values.split("|"))
    return flags, keys


def render(manpage):
    env = dict(os.environ, LC_ALL="C", MANWIDTH="80")
    p = subprocess.run(["man", "--warnings", "-l", manpage], capture_output=True,
                       text=True, env=env)
    if p.returncode != 0 or p.stderr.strip():
        sys.exit("man -l %s failed or warned:\n%s" % (manpage, p.stderr))
    return p.stdout


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    manpage, fatomic_opt, pipelines = sys.argv[1:]
    text = render(manpage)
    flat = " ".join(text.split())
    errors = []

    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "FATOMIC OPTIONS",
                    "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
        if not re.search(r"^%s$" % section, text, re.M):
            errors.append("man page: no section %s" % section)

    flags, keys = help_options(fatomic_opt)
    for f in sorted(flags):
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(f.rstrip("=")), flat):
            errors.append("in --help but not in the man page: %s" % f)
    # The options the page lists: lines at the first indentation that start
    # with a dash.
    man_flags = set()
    for line in text.split("\n"):
        if re.match(r"^ {7}-", line):
            man_flags.update(FLAG.findall(line))
    help_names = {f.rstrip("=") for f in flags}
    for f in sorted(man_flags):
        if f.rstrip("=") not in help_names:
            errors.append("in the man page but not in --help: %s" % f)

    with open(pipelines, encoding="utf-8") as fh:
        doc = fh.read()
    doc_keys = {}
    for m in re.finditer(r"^\| `([a-z-]+)=` \| (.*?) \|", doc, re.M):
        doc_keys[m.group(1)] = m.group(2)
    for key, values in sorted(keys.items()):
        if "%s=" % key not in flat:
            errors.append("option key %s= not in the man page" % key)
        if key not in doc_keys:
            errors.append("option key %s= not in the table of %s" % (key, pipelines))
        for v in values:
            if not re.search(r"\b%s\b" % re.escape(v), flat):
                errors.append("value %s=%s not in the man page" % (key, v))
            if key in doc_keys and "`%s`" % v not in doc_keys[key]:
                errors.append("value %s=%s not in the table of %s" % (key, v, pipelines))
    for key in sorted(doc_keys):
        if key not in keys:
            errors.append("%s lists %s=, which --help does not have" % (pipelines, key))

    print("man page: %d lines rendered" % text.count("\n"))
    print("--help: %d options, %d option keys; man page: %d options"
          % (len(help_names), len(keys), len({f.rstrip("=") for f in man_flags})))
    for e in errors:
        print("error: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
