"""What the execution suites share (test/exec/exec_suite.py and
test/diff/diff_suite.py): running a tool, the build's and the system's tools
with a work folder and a log that threads share, and the static checks of a
lowered module.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))

# What a lowered module must no longer hold.
LOWERED_AWAY = ("OpAtomicFMinEXT", "OpAtomicFMaxEXT", "AtomicFloat32MinMaxEXT",
                "AtomicFloat64MinMaxEXT", "AtomicFloat16MinMaxEXT",
                "SPV_EXT_shader_atomic_float_min_max")


def run(cmd, timeout=600, cwd=None, env=None):
    """Runs cmd; returns its exit status, stdout and stderr."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


class SuiteEnv:
    """The tools of build_dir/bin and of PATH, the work folder (keep, or a
    new temporary one named prefix...), and the output that threads share:
    say() prints a line and writes it to the log file, if any."""

    def __init__(self, build_dir, keep, log, verbose, prefix):
        self.build = os.path.abspath(build_dir)
        b = os.path.join(self.build, "bin")
        self.vkrun = os.path.join(b, "fatomic-vkrun")
        self.oracle = os.path.join(b, "fatomic-exec-oracle")
        self.fopt = os.path.join(b, "fatomic-opt")
        self.glslang = shutil.which("glslangValidator")
        self.spirv_val = shutil.which("spirv-val")
        self.spirv_dis = shutil.which("spirv-dis")
        self.ptr_check = os.path.join(HERE, "check_no_logical_ptr_bitcast.py")
        self.work = keep or tempfile.mkdtemp(prefix=prefix)
        os.makedirs(self.work, exist_ok=True)
        self.keep = bool(keep)
        self.lock = threading.Lock()
        self.log = open(log, "w") if log else None
        self.verbose = verbose

    def say(self, text, always=True):
        """Prints text (unless not always) and writes it to the log."""
        with self.lock:
            if always:
                print(text, flush=True)
            if self.log:
                self.log.write(text + "\n")
                self.log.flush()

    def logonly(self, text):
        self.say(text, always=False)


def static_problem(env, spv):
    """What is wrong with the lowered module spv, or None: spirv-val
    (Vulkan 1.2) rejects it, a float min/max atomic, capability or
    extension is left, or a Logical pointer is bitcast.  Leaves its
    disassembly beside it (.spvasm)."""
    rc, so, se = run([env.spirv_val, "--target-env", "vulkan1.2", spv])
    if rc != 0:
        return f"spirv-val rejects {spv}:\n{so}{se}"
    rc, dis, se = run([env.spirv_dis, spv])
    if rc != 0:
        return f"spirv-dis failed on {spv}:\n{se}"
    with open(spv[:-4] + ".spvasm", "w") as f:
        f.write(dis)
    for bad in LOWERED_AWAY:
        if re.search(r"\b" + bad + r"\b", dis):
            return f"lowered module {spv} still contains {bad}"
    p = subprocess.run([sys.executable, env.ptr_check], input=dis, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        return f"{spv}: pointer OpBitcast in Logical addressing:\n{p.stdout}"
    return None
