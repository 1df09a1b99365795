#!/usr/bin/env python3
"""Checks the spirv-opt pass flags that fatomic-opt lists.

usage: check_pass_flags.py FATOMIC_OPT SPIRV_OPT MANPAGE

1. The flags of `spirv-opt --help` are exactly fatomic-opt's own options
   (the `  -x  description` lines of its --help) and the pass flags its
   --help lists under "spirv-opt pass flags", with no flag in both.
2. The man page's SPIRV-OPT PASS FLAGS section lists the same pass flags.
3. spvtools::Optimizer accepts each of them, with an argument where it takes
   one: `fatomic-opt FLAG [ARG] - -o OUT` on empty input fails only on the
   empty input (the flags are registered before the input is read).

Prints the counts; exit 1 with what differs.
"""
import os
import re
import subprocess
import sys
import tempfile

OPTION = re.compile(r"^  (-[^ ].*?)(?:  |$)")
FLAG = re.compile(r"-{1,2}[A-Za-z][A-Za-z0-9-]*")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def help_sections(fatomic_opt):
    """fatomic-opt's own options and its pass flag entries."""
    text = run([fatomic_opt, "--help"]).stdout
    own, passes, in_passes = set(), [], False
    for line in text.split("\n"):
        if line.startswith("spirv-opt pass flags"):
            in_passes = True
            continue
        if in_passes:
            if line.startswith("    "):
                passes += [e for e in re.split(r" {2,}", line.strip()) if e]
            continue
        m = OPTION.match(line)
        if m:
            own.update(FLAG.findall(m.group(1)))
    return own, passes


def spirv_opt_flags(spirv_opt):
    text = run([spirv_opt, "--help"]).stdout
    return {FLAG.match(l.strip()).group(0) for l in text.split("\n")
            if re.match(r"^  -", l)}


def man_pass_flags(manpage):
    env = dict(os.environ, LC_ALL="C", MANWIDTH="80")
    text = run(["man", "-l", manpage], env=env).stdout
    section = re.search(r"^SPIRV-OPT PASS FLAGS\n(.*?)^\S", text, re.S | re.M)
    if not section:
        return None
    return {FLAG.match(l.strip()).group(0) for l in section.group(1).split("\n")
            if re.match(r"^ {14}-", l)}


def sample_args(entry):
    """The flag of \\p entry with an example argument where it needs one."""
    name = FLAG.match(entry).group(0)
    if entry.endswith("<n>"):
        return [name, "10"]
    if "<set>:<binding>" in entry:
        return [name + "=0:0"]
    if "<spec id>" in entry:
        return [name, "1:1"]
    return [name]


def accepted(fatomic_opt, entry, out):
    p = run([fatomic_opt] + sample_args(entry) + ["-", "-o", out], input="")
    return p.returncode == 1 and p.stderr.strip() == \
        "error: <stdin>: empty input: not a SPIR-V binary", p.stderr.strip()


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    fatomic_opt, spirv_opt, manpage = sys.argv[1:]
    own, entries = help_sections(fatomic_opt)
    passes = {FLAG.match(e).group(0) for e in entries}
    errors = []
    reference = spirv_opt_flags(spirv_opt)
    for f in sorted(reference - own - passes):
        errors.append("in spirv-opt --help but not in fatomic-opt --help: " + f)
    for f in sorted(passes - reference):
        errors.append("listed as a pass flag but not in spirv-opt --help: " + f)
    for f in sorted(passes & own):
        errors.append("both an option and a pass flag: " + f)
    man = man_pass_flags(manpage)
    if man is None:
        errors.append("man page: no SPIRV-OPT PASS FLAGS section")
    else:
        for f in sorted(passes - man):
            errors.append("pass flag not in the man page: " + f)
        for f in sorted(man - passes):
            errors.append("pass flag in the man page but not in --help: " + f)
    good = 0
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            ok, said = accepted(fatomic_opt, e, os.path.join(tmp, "out.spv"))
            good += ok
            if not ok:
                errors.append("not accepted: %s: %s" % (" ".join(sample_args(e)), said))
    print("spirv-opt --help: %d flags; fatomic-opt: %d options, %d pass flags "
          "(%d accepted); man page: %d pass flags"
          % (len(reference), len(own & reference), len(passes),
             good, len(man or ())))
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
