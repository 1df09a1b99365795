"""Helpers that the NVPTX benchmark (nvptx-bench.py) and race test
(nvptx-race.py) share, on both machines: the error type, the tool runner
and commit of the bundle step, and the run's log.  Each bundle carries a
copy of this file beside its run.py.  Standard library only.
"""

import subprocess


class Failure(Exception):
    """A problem that stops the command with a message and exit status 1."""


def run_tool(cmd, what):
    """The standard output of `cmd`; Failure with its error output when it
    fails."""
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise Failure(f"{what} failed ({' '.join(cmd)}):\n{proc.stderr.strip()}")
    return proc.stdout


def git_commit(here):
    """`git describe` of the checkout holding `here`, or None."""
    try:
        proc = subprocess.run(["git", "-C", here, "describe", "--always", "--dirty"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return proc.stdout.strip() or None
    except OSError:
        return None


class Log:
    """Prints each line and writes it to a file, flushed at once."""

    def __init__(self, path):
        self.file = open(path, "w")

    def __call__(self, text=""):
        print(text, flush=True)
        self.file.write(text + "\n")
        self.file.flush()
