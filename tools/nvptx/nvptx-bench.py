#!/usr/bin/env python3
"""Float atomic min/max on an NVIDIA GPU: fatomic's lowering against LLVM's
AtomicExpand compare-exchange loop, through llc's NVPTX back end.

Two halves, run on two machines:

  bundle   (here: LLVM 22 and the plugin, no GPU needed)
           Writes one LLVM IR module per kernel flavour (f32/f64, fmax/fmin,
           result used/unused), each holding a benchmark kernel and the
           special-value kernels.  Every module becomes three PTX files for
           sm_90: `fatomic` (opt -passes=lower-float-atomic-minmax<outline=off>,
           the lowering written out at the atomic as an inliner after the
           pass leaves it, then llc), `calls` (the pass's default,
           outline=on, straight into llc: the atomic is a call of a helper
           function) and `expand` (llc alone: AtomicExpand turns the float
           atomicrmw into a compare-exchange loop).  Checks in the PTX that
           the benchmark kernel of `fatomic` uses integer atom.max/atom.min
           and an atomic load and no float min/max, that the one of `calls`
           calls a function that does, and that the one of `expand` is a
           loop around atom.cas with a float max/min in it.  Writes the
           special-value expectations (fatomic-nvptx-expect, from the Core
           reference model), copies this script as run.py, and records a
           manifest.

  run      (there: python3, numpy and CuPy; no LLVM)
           Loads every PTX with cupy.RawModule.  Correctness: the
           special-value kernels (monotonic, with the early-out, and acq_rel,
           without it) must leave exactly the reference model's memory, and
           every returned value must be one memory could hold.  Timing: each
           thread does ITERS atomics at a hashed address, with random or
           rising values, over 1, 1024 and 2^20 addresses; CUDA events, the
           median of RUNS launches after one warm-up; the final memory of
           every launch is compared bit for bit with the per-address maximum
           (minimum) computed on the host.  Writes results.json and log.txt
           to --out.

  selftest (anywhere with numpy) checks the host-side logic: the index and
           value arithmetic and the host expectation against a plain Python
           emulation of the kernel, the order map, the special-value file,
           and the PTX checks (which must also reject the wrong PTX).

  emit-ir  prints one kernel module (for inspection).

The benchmark kernel (per thread i, iteration k < ITERS):
    j = i * 2654435761 + k * 40503            (32-bit wrap-around)
    address = (j >> 7) & MASK
    v = vals[(i + k * 977) & (NVALS - 1)]  (+ k * 4096 for fmax, - k * 4096
        for fmin, when rising: every round then beats the previous one)
    old = atomicrmw fmax|fmin ptr addrspace(1) dst[address], v
          syncscope("device") monotonic
    (result used: old is summed and the sum stored if it has one
    particular bit pattern, which it never has)
The same address and value scheme as the Vulkan benchmark (tools/gpubench,
docs/gpu-performance.md).

usage:
  nvptx-bench.py bundle --plugin P --expect-tool T --out DIR
                        [--opt opt-22] [--llc llc-22] [--ptxas PATH]
  python3 DIR/run.py run --out OUTDIR [--runs 5] [--time-limit 210]
  nvptx-bench.py selftest [--bundle DIR]
  nvptx-bench.py emit-ir --type f32 --op fmax [--used]
"""

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PROG = "nvptx-bench"
TRIPLE = "nvptx64-nvidia-cuda"
CPU = "sm_90"

TYPES = ("f32", "f64")
OPS = ("fmax", "fmin")
ADDRESS_COUNTS = (1, 1024, 1 << 20)
PATTERNS = ("random", "rising")
VARIANTS = ("fatomic", "calls", "expand")
# The variants that are fatomic's lowering, checked against its contract;
# AtomicExpand follows LLVM's fmax/fmin instead.
LOWERED = ("fatomic", "calls")
# The pass's outline option per lowered variant.
OUTLINE = {"fatomic": "off", "calls": "on"}

# The benchmark's shape (the Vulkan anchors use the same).
THREADS = 1 << 20
ITERS = 64
BLOCK = 256
NVALS = 1 << 20
SEED = 20251121
HASH_I = 2654435761
HASH_K = 40503
VAL_K = 977
RISE_SHIFT = 12  # k * 4096
SINK_PATTERN = {"f32": 0x4640E6B7, "f64": 0x40C81CD6C8B43958}  # 12345.678

IR_TYPE = {"f32": "float", "f64": "double"}
INT_TYPE = {"f32": "i32", "f64": "i64"}
SIZE = {"f32": 4, "f64": 8}
BITS = {"f32": 32, "f64": 64}


class Failure(Exception):
    """A problem that stops the command with a message and exit status 1."""


# The IR that computes %i, the invocation's global index.
GLOBAL_INDEX = (
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
    "  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
    "  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
    "  %base = mul i32 %ctaid, %ntid",
    "  %i = add i32 %base, %tid",
)


def kernel_name(ty, op, used):
    return f"{ty}_{op}_{'used' if used else 'unused'}"


def all_kernels():
    return [(ty, op, used) for ty in TYPES for op in OPS for used in (False, True)]


# ---------------------------------------------------------------------------
# LLVM IR
# ---------------------------------------------------------------------------

def emit_ir(ty, op, used):
    """The module of one flavour: @bench and the special-value kernels."""
    ft, it, size = IR_TYPE[ty], INT_TYPE[ty], SIZE[ty]
    g = "ptr addrspace(1)"
    step = "fadd" if op == "fmax" else "fsub"
    out = [
        f"; fatomic NVPTX benchmark kernels: atomicrmw {op} on {ft}, "
        f"result {'used' if used else 'unused'}",
        f'target triple = "{TRIPLE}"',
        "",
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
        "",
        f"define ptx_kernel void @bench({g} %vals, {g} %dst, {g} %sink, "
        "i32 %vmask, i32 %mask, i32 %iters, i32 %rising) {",
        "entry:",
        *GLOBAL_INDEX,
        f"  %ih = mul i32 %i, {HASH_I - (1 << 32)}",
        "  %rise = icmp ne i32 %rising, 0",
        "  %any = icmp ne i32 %iters, 0",
        "  br i1 %any, label %loop, label %exit",
        "",
        "loop:",
        "  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]",
    ]
    if used:
        out.append(f"  %acc = phi {ft} [ 0.0, %entry ], [ %acc.next, %loop ]")
    out += [
        f"  %kh = mul i32 %k, {HASH_K}",
        "  %j = add i32 %ih, %kh",
        "  %js = lshr i32 %j, 7",
        "  %a = and i32 %js, %mask",
        f"  %k977 = mul i32 %k, {VAL_K}",
        "  %vi0 = add i32 %i, %k977",
        "  %vi = and i32 %vi0, %vmask",
        "  %vi64 = zext i32 %vi to i64",
        f"  %vp = getelementptr inbounds {ft}, {g} %vals, i64 %vi64",
        f"  %v0 = load {ft}, {g} %vp, align {size}",
        f"  %ks = shl i32 %k, {RISE_SHIFT}",
        "  %kr = select i1 %rise, i32 %ks, i32 0",
        f"  %kf = uitofp i32 %kr to {ft}",
        f"  %v = {step} {ft} %v0, %kf",
        "  %a64 = zext i32 %a to i64",
        f"  %dp = getelementptr inbounds {ft}, {g} %dst, i64 %a64",
        f"  %old = atomicrmw {op} {g} %dp, {ft} %v "
        f'syncscope("device") monotonic, align {size}',
    ]
    if used:
        out.append(f"  %acc.next = fadd {ft} %acc, %old")
    out += [
        "  %k.next = add i32 %k, 1",
        "  %more = icmp ult i32 %k.next, %iters",
        "  br i1 %more, label %loop, label %exit",
        "",
        "exit:",
    ]
    if used:
        out += [
            f"  %sum = phi {ft} [ 0.0, %entry ], [ %acc.next, %loop ]",
            f"  %sumbits = bitcast {ft} %sum to {it}",
            f"  %hit = icmp eq {it} %sumbits, {SINK_PATTERN[ty]}",
            "  br i1 %hit, label %keep, label %done",
            "keep:",
            f"  store {ft} %sum, {g} %sink, align {size}",
            "  br label %done",
            "done:",
        ]
    out += ["  ret void", "}", ""]

    for suffix, ordering in (("", "monotonic"), ("_acqrel", "acq_rel")):
        out += [
            f"define ptx_kernel void @special{suffix}({g} %vals, {g} %addr, "
            f"{g} %dst, {g} %ret, i32 %n) {{",
            "entry:",
            *GLOBAL_INDEX,
            "  %in = icmp ult i32 %i, %n",
            "  br i1 %in, label %body, label %exit",
            "body:",
            "  %i64 = zext i32 %i to i64",
            f"  %vp = getelementptr inbounds {ft}, {g} %vals, i64 %i64",
            f"  %v = load {ft}, {g} %vp, align {size}",
            f"  %ap = getelementptr inbounds i32, {g} %addr, i64 %i64",
            f"  %a = load i32, {g} %ap, align 4",
            "  %a64 = zext i32 %a to i64",
            f"  %dp = getelementptr inbounds {ft}, {g} %dst, i64 %a64",
            f"  %old = atomicrmw {op} {g} %dp, {ft} %v "
            f'syncscope("device") {ordering}, align {size}',
        ]
        if used:
            out += [
                f"  %rp = getelementptr inbounds {ft}, {g} %ret, i64 %i64",
                f"  store {ft} %old, {g} %rp, align {size}",
            ]
        out += ["  br label %exit", "exit:", "  ret void", "}", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# PTX inspection
# ---------------------------------------------------------------------------

def ptx_entry(ptx, name):
    """The text of `.entry NAME` up to its closing brace."""
    m = re.search(r"^\.visible \.entry " + re.escape(name) + r"\(", ptx, re.M)
    if not m:
        return None
    end = re.search(r"^}", ptx[m.end():], re.M)
    return ptx[m.start():m.end() + (end.end() if end else len(ptx))]


def int_atomics(ty, op):
    """The two integer atomics of the sign dispatch, as PTX op.type."""
    b = BITS[ty]
    if op == "fmax":
        return (f"max.s{b}", f"min.u{b}")
    return (f"min.s{b}", f"max.u{b}")


def check_fatomic_ptx(ptx, ty, op, calls=False):
    """Problems with the lowered benchmark kernel, or [] when it is right.
    With calls, the kernel must call a function, and the atomics are looked
    for in the whole file (the helper is a .func)."""
    body = ptx_entry(ptx, "bench")
    if body is None:
        return ["no .entry bench"]
    problems = []
    if calls:
        if not re.search(r"\bcall(\.uni)?\s", body):
            problems.append("the bench kernel calls no function")
        if re.search(r"\batom\.", body):
            problems.append("the bench kernel has an atomic of its own")
        body = ptx
    for form in int_atomics(ty, op):
        if not re.search(r"\batom\.[a-z.]*global\." + re.escape(form) + r"\s", body):
            problems.append(f"no atom.global.{form}")
    if not re.search(r"\bld\.relaxed\.gpu\.global\.", body):
        problems.append("no atomic load (ld.relaxed.gpu.global) for the early-out")
    fop = op[1:]  # max / min
    if re.search(rf"\b{fop}(\.[a-z]+)*\.f{BITS[ty]}\b", body):
        problems.append(f"a float {fop}.f{BITS[ty]} is left")
    return problems


def check_expand_ptx(ptx, ty, op):
    """Problems with the AtomicExpand benchmark kernel, or []: it must be a
    loop around atom.cas with the float max/min in it and no integer
    min/max atomic."""
    body = ptx_entry(ptx, "bench")
    if body is None:
        return ["no .entry bench"]
    problems = []
    lines = body.splitlines()
    cas = [n for n, l in enumerate(lines)
           if re.search(rf"\batom\.[a-z.]*global\.cas\.b{BITS[ty]}\s", l)]
    if not cas:
        problems.append(f"no atom.global.cas.b{BITS[ty]}")
    else:
        n = cas[0]
        label = None
        for back in range(n, -1, -1):
            m = re.match(r"^(\$L__BB\d+_\d+):", lines[back])
            if m:
                label = m.group(1)
                start = back
                break
        if label is None:
            problems.append("atom.cas is not inside a labelled block")
        else:
            loop = lines[start:]
            back_edge = any(re.search(r"\bbra(\.uni)?\s+" + re.escape(label) + r";", l)
                            for l in lines[n:])
            fop = op[1:]
            has_float = any(re.search(rf"\b{fop}(\.[a-z]+)*\.f{BITS[ty]}\b", l)
                            for l in loop[:n - start + 1])
            if not back_edge:
                problems.append(f"no branch back to {label} after the atom.cas")
            if not has_float:
                problems.append(f"no float {fop}.f{BITS[ty]} in the loop")
    for form in int_atomics(ty, op):
        if re.search(r"\batom\.[a-z.]*" + re.escape(form) + r"\s", body):
            problems.append(f"an integer atom.{form} is present")
    return problems


def ptx_summary(ptx):
    body = ptx_entry(ptx, "bench") or ""
    atoms = sorted(set(re.findall(r"\batom\.[a-z0-9.]+", body)))
    loads = sorted(set(re.findall(r"\bld\.relaxed\.[a-z0-9.]+", body)))
    return {"atomics": atoms, "atomic_loads": loads,
            "calls": len(re.findall(r"\bcall(?:\.uni)?\s", body)),
            "instructions": sum(1 for l in body.splitlines()
                                if l.startswith("\t") and not l.strip().startswith("//")
                                and not l.strip().startswith("."))}


# ---------------------------------------------------------------------------
# bundle
# ---------------------------------------------------------------------------

def run_tool(cmd, what):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        raise Failure(f"{what} failed ({' '.join(cmd)}):\n{proc.stderr.strip()}")
    return proc.stdout


def tool_version(path):
    try:
        out = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    except OSError:
        return None
    for line in out.splitlines():
        if "version" in line.lower() or "release" in line.lower():
            return line.strip()
    return out.strip().splitlines()[0] if out.strip() else None


def cmd_bundle(args):
    for name, path in (("--plugin", args.plugin), ("--expect-tool", args.expect_tool)):
        if not os.path.isfile(path):
            raise Failure(f"{name}: no such file: {path}")
    for name, tool in (("--opt", args.opt), ("--llc", args.llc)):
        if not shutil.which(tool):
            raise Failure(f"{name}: cannot find {tool}")
    if args.ptxas and not shutil.which(args.ptxas):
        raise Failure(f"--ptxas: cannot find {args.ptxas}")

    out = os.path.abspath(args.out)
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    # Build in a fresh directory next to the destination; replace it whole.
    work = tempfile.mkdtemp(prefix=".nvptx-bundle-", dir=parent)
    try:
        os.makedirs(os.path.join(work, "ir"))
        os.makedirs(os.path.join(work, "ptx"))
        if "outline" in args.pass_options:
            raise Failure("--pass-options: outline= is set per variant "
                          "(fatomic: off, calls: on)")
        passes = {v: "lower-float-atomic-minmax<outline=" + OUTLINE[v]
                  + (";" + args.pass_options if args.pass_options else "") + ">"
                  for v in LOWERED}
        kernels = []
        report = []
        for ty, op, used in all_kernels():
            name = kernel_name(ty, op, used)
            ll = os.path.join(work, "ir", name + ".ll")
            with open(ll, "w") as f:
                f.write(emit_ir(ty, op, used))
            sources = {"expand": ll}
            for v in LOWERED:
                sources[v] = os.path.join(work, "ir", f"{name}.{v}.ll")
                run_tool([args.opt, "-load-pass-plugin=" + args.plugin,
                          "-passes=" + passes[v], "-S", ll, "-o", sources[v]],
                         f"opt on {name} ({v})")
            files = {}
            for variant in VARIANTS:
                source = sources[variant]
                ptx = os.path.join(work, "ptx", f"{name}.{variant}.ptx")
                run_tool([args.llc, "-O3", "-mtriple=" + TRIPLE, "-mcpu=" + CPU,
                          source, "-o", ptx], f"llc on {name} ({variant})")
                text = open(ptx).read()
                if variant == "expand":
                    problems = check_expand_ptx(text, ty, op)
                else:
                    problems = check_fatomic_ptx(text, ty, op,
                                                 calls=variant == "calls")
                if problems:
                    raise Failure(f"{os.path.basename(ptx)}: " + "; ".join(problems))
                if args.ptxas:
                    run_tool([args.ptxas, "-arch=" + CPU, ptx, "-o", os.devnull],
                             f"ptxas on {os.path.basename(ptx)}")
                summary = ptx_summary(text)
                report.append(f"{name}.{variant}.ptx: bench kernel "
                              f"{summary['instructions']} PTX instructions; "
                              f"atomics {' '.join(summary['atomics'])}; "
                              f"atomic loads {' '.join(summary['atomic_loads']) or '-'}"
                              + (f"; calls {summary['calls']}" if summary["calls"] else ""))
                files[variant] = {"ptx": os.path.relpath(ptx, work),
                                  "sha256": hashlib.sha256(text.encode()).hexdigest(),
                                  "bench": summary}
            kernels.append({"name": name, "type": ty, "op": op, "used": used,
                            "ir": os.path.relpath(ll, work), "files": files})

        run_tool([args.expect_tool, "-o", os.path.join(work, "special.json")],
                 "fatomic-nvptx-expect")
        shutil.copyfile(os.path.abspath(__file__), os.path.join(work, "run.py"))
        manifest = {
            "tool": PROG, "triple": TRIPLE, "cpu": CPU, "passes": passes,
            "opt": tool_version(shutil.which(args.opt)),
            "llc": tool_version(shutil.which(args.llc)),
            "ptxas": tool_version(shutil.which(args.ptxas)) if args.ptxas else None,
            "commit": git_commit(), "kernels": kernels,
        }
        with open(os.path.join(work, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
        with open(os.path.join(work, "ptx-check.txt"), "w") as f:
            f.write("\n".join(report) + "\n")
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.rename(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    print(f"{PROG}: bundle in {out}: {len(kernels)} kernel modules, "
          f"{len(VARIANTS) * len(kernels)} PTX files (checked"
          f"{', assembled with ptxas' if args.ptxas else ''}), special.json, run.py")
    print("\n".join(report))
    return 0


def git_commit():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        proc = subprocess.run(["git", "-C", here, "describe", "--always", "--dirty"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
        return proc.stdout.strip() or None
    except OSError:
        return None


# ---------------------------------------------------------------------------
# Host-side arithmetic (numpy)
# ---------------------------------------------------------------------------

def import_numpy():
    try:
        import numpy
    except ImportError as e:
        raise Failure(f"this command needs numpy ({e})")
    return numpy


def uint_dtype(np, ty):
    return np.uint32 if ty == "f32" else np.uint64


def float_dtype(np, ty):
    return np.float32 if ty == "f32" else np.float64


def int_dtype(np, ty):
    return np.int32 if ty == "f32" else np.int64


def order_key(np, bits, ty):
    """U(b) = b ^ (sign ? all ones : sign bit): unsigned order = float order
    with -0 < +0 (OrderMap.h)."""
    u, i = uint_dtype(np, ty), int_dtype(np, ty)
    b = np.ascontiguousarray(bits, dtype=u)
    spread = (b.view(i) >> i(BITS[ty] - 1)).view(u)  # 0 or all ones
    return b ^ (spread | (u(1) << u(BITS[ty] - 1)))


def order_key_inverse(np, keys, ty):
    u, i = uint_dtype(np, ty), int_dtype(np, ty)
    k = np.ascontiguousarray(keys, dtype=u)
    spread = ~(k.view(i) >> i(BITS[ty] - 1)).view(u)  # all ones where top clear
    return k ^ (spread | (u(1) << u(BITS[ty] - 1)))


def make_values(np, ty, count=NVALS, seed=SEED):
    """Random values of both signs in [-1000, 1000), never zero (a zero could
    make -0/+0 depend on the back end's max)."""
    rng = np.random.default_rng(seed + (1 if ty == "f64" else 0))
    v = rng.uniform(-1000.0, 1000.0, count).astype(float_dtype(np, ty))
    v[v == 0] = float_dtype(np, ty)(0.5)
    return v


class HostModel:
    """The benchmark kernel's addresses and values on the host, and the
    per-address result they must leave (the extremum in the U order)."""

    def __init__(self, np, threads, iters, nvals):
        self.np = np
        self.threads, self.iters, self.nvals = threads, iters, nvals
        u32 = np.uint32
        i = np.arange(threads, dtype=u32)[:, None]
        k = np.arange(iters, dtype=u32)[None, :]
        j = i * u32(HASH_I) + k * u32(HASH_K)  # wraps modulo 2^32
        self.hashed = (j >> u32(7)).ravel()
        self.value_index = ((i + k * u32(VAL_K)) & u32(nvals - 1)).ravel()
        self.rise = np.broadcast_to(k << u32(RISE_SHIFT), (threads, iters)).ravel()
        self.vals = {ty: make_values(np, ty, nvals) for ty in TYPES}
        self._keys = {}

    def addresses(self, count):
        return self.hashed & self.np.uint32(count - 1)

    def keys(self, ty, op, pattern):
        key = (ty, op if pattern == "rising" else "-", pattern)
        if key not in self._keys:
            np = self.np
            ft = float_dtype(np, ty)
            v = self.vals[ty][self.value_index]
            if pattern == "rising":
                step = self.rise.astype(ft)
                v = v + step if op == "fmax" else v - step
            if np.any(v == 0):
                raise Failure("a benchmark value is zero")
            self._keys = {k: x for k, x in self._keys.items() if k[0] == ty}
            self._keys[key] = order_key(np, v.view(uint_dtype(np, ty)), ty)
        return self._keys[key]

    def initial_bits(self, ty, op):
        """-inf for max, +inf for min."""
        ft = float_dtype(self.np, ty)
        inf = ft("-inf") if op == "fmax" else ft("inf")
        return self.np.array([inf], dtype=ft).view(uint_dtype(self.np, ty))[0]

    def expected(self, ty, op, pattern, count):
        np = self.np
        u = uint_dtype(np, ty)
        init_key = order_key(np, np.array([self.initial_bits(ty, op)], dtype=u), ty)[0]
        reduce = np.maximum if op == "fmax" else np.minimum
        keys = self.keys(ty, op, pattern)
        if count == 1:
            out = np.array([reduce(init_key, reduce.reduce(keys))], dtype=u)
        else:
            out = np.full(count, init_key, dtype=u)
            reduce.at(out, self.addresses(count), keys)
        return order_key_inverse(np, out, ty)


def emulate_kernel(ty, op, pattern, count, vals, threads, iters, init_bits):
    """The benchmark kernel in plain Python floats, for small sizes."""
    import struct
    import numpy as np
    fmt = "<f" if ty == "f32" else "<d"
    ufmt = "<I" if ty == "f32" else "<Q"
    ft = float_dtype(np, ty)
    nvals = len(vals)

    mem = [struct.unpack(fmt, struct.pack(ufmt, int(init_bits)))[0]] * count
    for i in range(threads):
        for k in range(iters):
            j = (i * HASH_I + k * HASH_K) & 0xFFFFFFFF
            a = (j >> 7) & (count - 1)
            v = ft(vals[(i + k * VAL_K) & (nvals - 1)])
            if pattern == "rising":  # one rounding in the type, as on the GPU
                step = ft(k << RISE_SHIFT)
                v = v + step if op == "fmax" else v - step
            v = float(v)
            mem[a] = max(mem[a], v) if op == "fmax" else min(mem[a], v)
    return [struct.unpack(ufmt, struct.pack(fmt, m))[0] for m in mem]


# ---------------------------------------------------------------------------
# Special-value cases
# ---------------------------------------------------------------------------

def load_special(np, path):
    with open(path) as f:
        data = json.load(f)
    cases = {}
    for c in data["cases"]:
        ty = "f32" if c["width"] == 32 else "f64"
        op = "fmax" if c["op"] == "max" else "fmin"
        u = uint_dtype(np, ty)
        cases[(ty, op)] = {
            "policy": c["policy"],
            "init": np.array(c["init"], dtype=u),
            "operand": np.array(c["operand"], dtype=u),
            "address": np.array(c["address"], dtype=np.uint32),
            "final": np.array(c["final"], dtype=u),
            "reachable": [set(r) for r in c["reachable"]],
        }
    return cases


def check_special_result(case, memory, returned):
    """(memory mismatches, bad returned values, first problem text)."""
    bad_mem = [a for a in range(len(case["final"]))
               if int(memory[a]) != int(case["final"][a])]
    first = None
    if bad_mem:
        a = bad_mem[0]
        first = (f"address {a}: memory {int(memory[a]):#x}, expected "
                 f"{int(case['final'][a]):#x} (initial {int(case['init'][a]):#x})")
    bad_ret = []
    if returned is not None:
        for t in range(len(case["operand"])):
            a = int(case["address"][t])
            if int(returned[t]) not in case["reachable"][a]:
                bad_ret.append(t)
        if bad_ret and first is None:
            t = bad_ret[0]
            first = (f"thread {t}: returned {int(returned[t]):#x}, which address "
                     f"{int(case['address'][t])} never holds")
    return len(bad_mem), len(bad_ret), first


# ---------------------------------------------------------------------------
# run (on the GPU machine)
# ---------------------------------------------------------------------------

class Log:
    def __init__(self, path):
        self.file = open(path, "w")

    def __call__(self, text=""):
        print(text, flush=True)
        self.file.write(text + "\n")
        self.file.flush()


def import_cupy():
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
        if count < 1:
            raise RuntimeError("no CUDA device")
    except Exception as e:  # ImportError, CUDARuntimeError, ...
        raise Failure(f"run needs CuPy and a CUDA device ({type(e).__name__}: {e}); "
                      "no results written")
    return cupy


def cmd_run(args):
    here = os.path.dirname(os.path.abspath(__file__))
    bundle = os.path.abspath(args.bundle or here)
    manifest_path = os.path.join(bundle, "manifest.json")
    if not os.path.isfile(manifest_path):
        raise Failure(f"no manifest.json in {bundle}: run the bundle step first")
    np = import_numpy()
    cp = import_cupy()  # before anything is written
    if args.runs < 5:
        raise Failure("--runs must be at least 5")
    with open(manifest_path) as f:
        manifest = json.load(f)

    os.makedirs(args.out, exist_ok=True)
    log = Log(os.path.join(args.out, "log.txt"))
    started = time.time()
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    device = {
        "name": name,
        "compute_capability": f"{props['major']}.{props['minor']}",
        "multiprocessors": props["multiProcessorCount"],
        "driver": cp.cuda.runtime.driverGetVersion(),
        "runtime": cp.cuda.runtime.runtimeGetVersion(),
        "cupy": cp.__version__, "numpy": np.__version__,
        "host": platform.node(),
    }
    log(f"{PROG} run: {device['name']} (sm_{props['major']}{props['minor']}, "
        f"{device['multiprocessors']} SMs), driver {device['driver']}, "
        f"CuPy {device['cupy']}, numpy {device['numpy']}")
    log(f"bundle: {manifest.get('commit')}, passes {manifest['passes']}, "
        f"{manifest.get('llc')}")
    results = {"tool": PROG, "version": 1, "complete": False, "device": device,
               "bundle": {k: manifest[k] for k in manifest if k != "kernels"},
               "config": {"threads": args.threads, "iters": args.iters,
                          "block": BLOCK, "nvals": NVALS, "runs": args.runs,
                          "seed": SEED, "initial": "-inf for fmax, +inf for fmin",
                          "ordering": 'syncscope("device") monotonic'},
               "special": [], "timings": [], "ptx": {}}
    if device["cupy"] == "emulated":  # test/nvptx's host stand-in
        results["emulated"] = True
        log("NOTE: CuPy is the host stand-in of the tests: kernels are "
            "emulated, nothing here is a GPU measurement")
    failures = []

    def save():
        results["elapsed_s"] = round(time.time() - started, 1)
        results["failures"] = failures
        tmp = os.path.join(args.out, "results.json.tmp")
        with open(tmp, "w") as f:
            json.dump(results, f, indent=1)
        os.replace(tmp, os.path.join(args.out, "results.json"))

    modules = {}
    for k in manifest["kernels"]:
        for variant in VARIANTS:
            path = os.path.join(bundle, k["files"][variant]["ptx"])
            modules[(k["name"], variant)] = cp.RawModule(path=path)
            results["ptx"][f"{k['name']}.{variant}"] = k["files"][variant]["bench"]
    log(f"loaded {len(modules)} PTX modules")

    # --- special values ------------------------------------------------
    special = load_special(np, os.path.join(bundle, "special.json"))
    for k in manifest["kernels"]:
        ty, op, used = k["type"], k["op"], k["used"]
        case = special[(ty, op)]
        u = uint_dtype(np, ty)
        n = len(case["operand"])
        vals = cp.asarray(case["operand"].view(float_dtype(np, ty)))
        addr = cp.asarray(case["address"])
        for kernel in ("special", "special_acqrel"):
            for variant in VARIANTS:
                fn = modules[(k["name"], variant)].get_function(kernel)
                dst = cp.asarray(case["init"].view(float_dtype(np, ty)))
                ret = cp.zeros(n, dtype=float_dtype(np, ty))
                fn(((n + BLOCK - 1) // BLOCK,), (BLOCK,),
                   (vals, addr, dst, ret, np.uint32(n)))
                cp.cuda.Device().synchronize()
                memory = cp.asnumpy(dst).view(u)
                returned = cp.asnumpy(ret).view(u) if used else None
                bad_mem, bad_ret, first = check_special_result(case, memory, returned)
                ok = bad_mem == 0 and bad_ret == 0
                entry = {"kernel": k["name"], "type": ty, "op": op, "used": used,
                         "ordering": "acq_rel" if kernel.endswith("acqrel") else "monotonic",
                         "variant": variant, "threads": n,
                         "addresses": len(case["init"]),
                         "memory_mismatches": bad_mem,
                         "returned_not_reachable": bad_ret,
                         "first_problem": first,
                         # AtomicExpand follows LLVM's fmax/fmin (maxnum:
                         # either zero, any NaN), not fatomic's contract.
                         "checked": variant in LOWERED, "pass": ok}
                results["special"].append(entry)
                verdict = "PASS" if ok else ("FAIL" if variant in LOWERED else "differs")
                log(f"special {k['name']:16} {entry['ordering']:9} {variant:7} "
                    f"{verdict}: {bad_mem} of {len(case['init'])} addresses differ "
                    f"from the reference, {bad_ret} returned values unreachable"
                    + (f"; {first}" if first else ""))
                if variant in LOWERED and not ok:
                    failures.append(f"special {k['name']} {kernel}: {first}")
    save()

    # --- timing ----------------------------------------------------------
    model = HostModel(np, args.threads, args.iters, NVALS)
    blocks = args.threads // BLOCK
    sink = {ty: cp.zeros(1, dtype=float_dtype(np, ty)) for ty in TYPES}
    vals = {ty: cp.asarray(model.vals[ty]) for ty in TYPES}
    start_ev, end_ev = cp.cuda.Event(), cp.cuda.Event()
    log()
    log(f"timing: {args.threads} threads x {args.iters} atomics, block {BLOCK}, "
        f"median of {args.runs} runs after a warm-up")
    skipped = 0
    for ty in TYPES:
        for op in OPS:
            for pattern in PATTERNS:
                for count in ADDRESS_COUNTS:
                    if time.time() - started > args.time_limit:
                        skipped += 4
                        continue
                    t0 = time.time()
                    want = model.expected(ty, op, pattern, count)
                    host_s = time.time() - t0
                    init = model.initial_bits(ty, op)
                    u = uint_dtype(np, ty)
                    dst = cp.empty(count, dtype=u)
                    for used in (False, True):
                        name = kernel_name(ty, op, used)
                        row = {}
                        for variant in VARIANTS:
                            fn = modules[(name, variant)].get_function("bench")
                            times, bad_runs, first_bad = [], 0, None
                            for r in range(args.runs + 1):
                                dst.fill(init)
                                cp.cuda.Device().synchronize()
                                start_ev.record()
                                fn((blocks,), (BLOCK,),
                                   (vals[ty], dst, sink[ty], np.uint32(NVALS - 1),
                                    np.uint32(count - 1), np.uint32(args.iters),
                                    np.uint32(pattern == "rising")))
                                end_ev.record()
                                end_ev.synchronize()
                                ms = cp.cuda.get_elapsed_time(start_ev, end_ev)
                                got = cp.asnumpy(dst)
                                diff = np.flatnonzero(got != want)
                                if diff.size:
                                    bad_runs += 1
                                    if first_bad is None:
                                        a = int(diff[0])
                                        first_bad = (f"run {r}: {diff.size} addresses "
                                                     f"differ, first {a}: "
                                                     f"{int(got[a]):#x} != {int(want[a]):#x}")
                                if r > 0:
                                    times.append(ms)
                            med = statistics.median(times)
                            entry = {"type": ty, "op": op, "used": used,
                                     "addresses": count, "values": pattern,
                                     "variant": variant, "ms_median": med,
                                     "ms_min": min(times), "ms_max": max(times),
                                     "runs_ms": times,
                                     "gatomics_per_s": args.threads * args.iters / med / 1e6,
                                     "memory_ok_runs": args.runs + 1 - bad_runs,
                                     "memory_bad_runs": bad_runs,
                                     "first_problem": first_bad}
                            results["timings"].append(entry)
                            row[variant] = entry
                            if bad_runs:
                                failures.append(f"{name} {variant} addrs={count} "
                                                f"{pattern}: {first_bad}")
                        ratio = row["fatomic"]["ms_median"] / row["expand"]["ms_median"]
                        log(f"{ty} {op} result={'used  ' if used else 'unused'} "
                            f"addrs={count:<8} values={pattern:6} "
                            f"fatomic {row['fatomic']['ms_median']:9.3f} ms  "
                            f"calls {row['calls']['ms_median']:9.3f} ms  "
                            f"expand {row['expand']['ms_median']:9.3f} ms  "
                            f"fatomic/expand {ratio:6.3f}  "
                            f"memory {'ok' if not any(row[v]['memory_bad_runs'] for v in VARIANTS) else 'WRONG'}"
                            f"  (host expectation {host_s:.1f} s)")
                    del dst
                    save()
    results["complete"] = skipped == 0
    results["skipped_timings"] = skipped
    save()
    log()
    log(f"{PROG}: {len(results['timings'])} timings, "
        f"{len(results['special'])} special-value runs, "
        f"{len(failures)} failures, {skipped} timings skipped (time limit), "
        f"{results['elapsed_s']} s")
    for f in failures:
        log(f"FAIL {f}")
    if failures:
        return 1
    return 0 if skipped == 0 else 2


# ---------------------------------------------------------------------------
# selftest (host side only)
# ---------------------------------------------------------------------------

def cmd_selftest(args):
    np = import_numpy()
    checks = 0

    def expect(cond, what):
        nonlocal checks
        checks += 1
        if not cond:
            raise Failure(f"selftest: {what}")

    # Order map: inverse, and order on a few patterns (incl. -0 < +0).
    for ty in TYPES:
        u, ft = uint_dtype(np, ty), float_dtype(np, ty)
        xs = np.array([-np.inf, -1e30, -1.0, -np.finfo(ft).tiny, -0.0, 0.0,
                       np.finfo(ft).tiny, 1.0, 1e30, np.inf], dtype=ft)
        keys = order_key(np, xs.view(u), ty)
        expect(np.all(keys[1:] > keys[:-1]), f"{ty} order map is not increasing")
        expect(np.array_equal(order_key_inverse(np, keys, ty), xs.view(u)),
               f"{ty} order map inverse")

    # The host expectation against a plain emulation of the kernel.
    threads, iters, nvals = 512, 6, 256
    model = HostModel(np, threads, iters, nvals)
    for ty in TYPES:
        for op in OPS:
            for pattern in PATTERNS:
                for count in (1, 16, 1024):
                    want = model.expected(ty, op, pattern, count)
                    emu = emulate_kernel(ty, op, pattern, count, model.vals[ty],
                                         threads, iters, model.initial_bits(ty, op))
                    expect([int(x) for x in want] == emu,
                           f"host expectation {ty} {op} {pattern} {count} "
                           "differs from the emulation")
    # The wrap-around hash: a thread whose product overflows 32 bits.
    big = HostModel(np, 1 << 12, 2, 64)
    i, k = 4095, 1
    j = (i * HASH_I + k * HASH_K) & 0xFFFFFFFF
    expect(int(big.addresses(1 << 20)[i * 2 + k]) == (j >> 7) & ((1 << 20) - 1),
           "32-bit hash")

    # IR: every flavour has the three kernels and one atomicrmw each.
    for ty, op, used in all_kernels():
        ir = emit_ir(ty, op, used)
        for kernel in ("@bench(", "@special(", "@special_acqrel("):
            expect(kernel in ir, f"{kernel} missing in {kernel_name(ty, op, used)}")
        expect(len(re.findall(rf"^  %old = atomicrmw {op} ", ir, re.M)) == 3,
               "three atomicrmw per module")

    if args.bundle:
        with open(os.path.join(args.bundle, "manifest.json")) as f:
            manifest = json.load(f)
        special = load_special(np, os.path.join(args.bundle, "special.json"))
        expect(len(special) == 4, "four special-value cases")
        for (ty, op), case in special.items():
            expect(case["policy"] == "number", "special cases use nan=number")
            # The expected memory passes its own check; a changed word fails.
            memory = case["final"].copy()
            expect(check_special_result(case, memory, None)[0] == 0,
                   "special check accepts the expected memory")
            memory[3] ^= memory.dtype.type(1)
            expect(check_special_result(case, memory, None)[0] == 1,
                   "special check notices one wrong word")
            # Every initial value is a returnable value; a made-up one is not.
            returned = case["init"][case["address"]]
            expect(check_special_result(case, case["final"], returned)[1] == 0,
                   "the initial memory is a reachable returned value")
            returned = returned.copy()
            returned[0] = 0x12345
            expect(check_special_result(case, case["final"], returned)[1] == 1,
                   "an unreachable returned value is noticed")
            expect(any(len(r) > 2 for r in case["reachable"]),
                   "contended addresses have several reachable values")
        for k in manifest["kernels"]:
            texts = {v: open(os.path.join(args.bundle, k["files"][v]["ptx"])).read()
                     for v in VARIANTS}
            ty, op = k["type"], k["op"]
            expect(check_fatomic_ptx(texts["fatomic"], ty, op) == [],
                   f"{k['name']} fatomic PTX check")
            expect(check_fatomic_ptx(texts["calls"], ty, op, calls=True) == [],
                   f"{k['name']} calls PTX check")
            expect(check_fatomic_ptx(texts["calls"], ty, op) != [],
                   f"{k['name']}: the fatomic check accepts the calls PTX")
            expect(check_fatomic_ptx(texts["fatomic"], ty, op, calls=True) != [],
                   f"{k['name']}: the calls check accepts the fatomic PTX")
            expect(check_fatomic_ptx(texts["expand"], ty, op, calls=True) != [],
                   f"{k['name']}: the calls check accepts the expand PTX")
            expect(check_expand_ptx(texts["expand"], ty, op) == [],
                   f"{k['name']} expand PTX check")
            # The checks must tell the two apart.
            expect(check_fatomic_ptx(texts["expand"], ty, op) != [],
                   f"{k['name']}: the fatomic check accepts the expand PTX")
            expect(check_expand_ptx(texts["fatomic"], ty, op) != [],
                   f"{k['name']}: the expand check accepts the fatomic PTX")
        shipped = os.path.join(args.bundle, "run.py")
        expect(open(shipped).read() == open(os.path.abspath(__file__)).read(),
               "run.py is this script")
    print(f"{PROG} selftest: {checks} checks passed"
          f"{' (bundle ' + args.bundle + ')' if args.bundle else ''}")
    return 0


def cmd_emit_ir(args):
    sys.stdout.write(emit_ir(args.type, args.op, args.used))
    return 0


def main(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="Run `%(prog)s COMMAND --help` for each command's options; "
               "the module docstring (head of this file) describes the kernels.")
    sub = parser.add_subparsers(dest="command", required=True)

    b = sub.add_parser("bundle", help="generate IR, lower, compile to PTX, check, "
                       "and write the bundle for the GPU machine")
    b.add_argument("--plugin", required=True, help="libFatomicLLVMPlugin.so")
    b.add_argument("--expect-tool", required=True, help="fatomic-nvptx-expect")
    b.add_argument("--out", required=True, help="bundle directory (replaced)")
    b.add_argument("--opt", default="opt-22")
    b.add_argument("--llc", default="llc-22")
    b.add_argument("--ptxas", help="also assemble every PTX file with this ptxas")
    b.add_argument("--pass-options", default="",
                   help="lower-float-atomic-minmax parameters, ';'-separated")

    r = sub.add_parser("run", help="run the bundle on a CUDA device (CuPy)")
    r.add_argument("--out", required=True, help="directory for results.json, log.txt")
    r.add_argument("--bundle", help="bundle directory (default: this script's)")
    r.add_argument("--runs", type=int, default=5, help="timed runs per case (>= 5)")
    r.add_argument("--threads", type=int, default=THREADS)
    r.add_argument("--iters", type=int, default=ITERS)
    r.add_argument("--time-limit", type=float, default=210.0,
                   help="seconds after which no new timing case starts")

    s = sub.add_parser("selftest", help="check the host-side logic (numpy only)")
    s.add_argument("--bundle", help="also check this bundle's files")

    e = sub.add_parser("emit-ir", help="print one kernel module")
    e.add_argument("--type", choices=TYPES, default="f32")
    e.add_argument("--op", choices=OPS, default="fmax")
    e.add_argument("--used", action="store_true")

    args = parser.parse_args(argv)
    if args.command == "run" and (args.threads % BLOCK or args.threads <= 0):
        parser.error(f"--threads must be a positive multiple of {BLOCK}")
    handler = {"bundle": cmd_bundle, "run": cmd_run, "selftest": cmd_selftest,
               "emit-ir": cmd_emit_ir}[args.command]
    try:
        return handler(args)
    except Failure as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
