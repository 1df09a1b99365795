#!/usr/bin/env python3
"""Float atomic min/max on an NVIDIA GPU: fatomic's lowering against LLVM's
AtomicExpand compare-exchange loop, through llc's NVPTX back end.

Two halves, run on two machines:

  bundle   (here: LLVM 22 and the plugin, no GPU needed)
           Writes one LLVM IR module per kernel flavour (f32/f64, fmax/fmin,
           result used/unused), each holding a benchmark kernel and the
           special-value kernels.  Every module becomes five PTX files for
           sm_90: `fatomic` (opt -passes=lower-float-atomic-minmax<outline=off>,
           the lowering written out at the atomic as an inliner after the
           pass leaves it, then llc), `calls` (the pass's default,
           outline=on, straight into llc: the atomic is a call of a helper
           function), `perlane` (aggregate=off, cache=off), `reconverge`
           (`fatomic` with the plugin's hidden testing option
           -fatomic-warp-reconverge-for-testing; checked, not timed) and
           `expand` (llc alone: AtomicExpand turns the float atomicrmw into
           a compare-exchange loop).  Checks in the PTX that
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
           (minimum) computed on the host.  Then the few-lanes cells: fmax
           at one address run by only the lowest 1, 2 or 4 lanes of each
           warp (@sparse), aggregated and per lane, each launch checked.
           Writes results.json and log.txt to --out.

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

HERE = os.path.dirname(os.path.abspath(__file__))
# race_model.py: beside run.py in a bundle, in test/exec in the tree.
MODEL_DIR = next((d for d in (HERE, os.path.join(HERE, "..", "..", "test", "exec"))
                  if os.path.isfile(os.path.join(d, "race_model.py"))), HERE)
sys.path.insert(0, MODEL_DIR)
sys.path.insert(0, HERE)
import nvptx_common  # noqa: E402  (beside this file, and in every bundle)
import race_model  # noqa: E402
from nvptx_common import Failure, Log, git_commit, run_tool  # noqa: E402

PROG = "nvptx-bench"
TRIPLE = "nvptx64-nvidia-cuda"
CPU = "sm_90"

TYPES = ("f32", "f64")
OPS = ("fmax", "fmin")
ADDRESS_COUNTS = (1, 1024, 1 << 20)
PATTERNS = ("random", "rising")
VARIANTS = ("fatomic", "calls", "perlane", "expand", "reconverge")
# The variants that are timed; `reconverge` is checked only.
TIMED = ("fatomic", "calls", "perlane", "expand")
# The variants that are fatomic's lowering, checked against its contract;
# AtomicExpand follows LLVM's fmax/fmin instead.
LOWERED = ("fatomic", "calls", "perlane", "reconverge")
# The pass's options per lowered variant: `perlane` is the lowering without
# warp aggregation and without the bound cache (aggregate=off, cache=off),
# which every lane runs on its own: the pass's output before either.
PASS_OPTIONS = {"fatomic": "outline=off", "calls": "outline=on",
                "perlane": "outline=off;aggregate=off;cache=off",
                "reconverge": "outline=off"}
# opt's own options per lowered variant: `reconverge` is `fatomic` with the
# plugin's testing option that ends each aggregated atomic with a
# bar.warp.sync on the lanes that reached it together
# (lib/LLVM/WarpAggregate.h); with it the warp and cached cases take the
# full-warp path at far more atomics (docs/nvptx-performance.md).
OPT_FLAGS = {"reconverge": ["-fatomic-warp-reconverge-for-testing"]}
# The variants whose benchmark kernel is aggregated over the warp (the
# pass's default for sm_80 and later).
AGGREGATED = ("fatomic", "calls", "reconverge")

# Active lanes per warp in the few-lanes cells (@sparse).
SPARSE_LANES = (1, 2, 4)

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



# The special-value kernels and the NaN policy of their atomic: fmax/fmin
# monotonic (the early-out path) and acq_rel (no early-out), and
# fmaximum/fminimum monotonic (propagate: the compare-exchange loop).
SPECIAL_KERNELS = (("special", "number"), ("special_acqrel", "number"),
                   ("special_ieee", "propagate"))

# The bound cache's kernels (cached_kernels) and the NaN policy of their
# atomic: CACHED_OPS atomics per thread at one address, fmax/fmin (number)
# and fmaximum/fminimum (propagate).
CACHED_KERNELS = (("cached", "number"), ("cached_ieee", "propagate"))
CACHED_OPS = 8


def ieee_op(op, policy):
    """The atomicrmw operation of a special-value kernel."""
    return {"fmax": "fmaximum", "fmin": "fminimum"}[op] if policy == "propagate" else op


def kernel_label(kernel):
    return {"special": "monotonic", "special_acqrel": "acq_rel",
            "special_ieee": "ieee", "cached": "monotonic",
            "cached_ieee": "ieee"}[kernel]


# A thread of the special-value kernels whose address is this does nothing
# (an inactive lane of its warp).
IDLE = 0xFFFFFFFF
# Lanes per warp, which the warp cases lay out their threads by.
WARP = 32

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
    """The module of one flavour: @bench, @floor and the special-value
    kernels."""
    ft = IR_TYPE[ty]
    out = [
        f"; fatomic NVPTX benchmark kernels: atomicrmw {op} on {ft}, "
        f"result {'used' if used else 'unused'}",
        f'target triple = "{TRIPLE}"',
        "",
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
        "",
    ]
    out += bench_kernel(ty, op, used, "bench")
    # The same work without the atomic: each value is summed instead, as a
    # used result is (the floor under any lowering of the atomic).
    out += bench_kernel(ty, op, True, "floor")
    out += bench_kernel(ty, op, used, "sparse")
    out += special_kernels(ty, op, used)
    out += cached_kernels(ty, op, used)
    # What clang writes for --cuda-gpu-arch=sm_90: the pass aggregates over
    # the warp from sm_80 on.
    out += [f'attributes #0 = {{ "target-cpu"="{CPU}" }}', ""]
    return "\n".join(out)


def bench_kernel(ty, op, used, name):
    """The benchmark kernel (module docstring); @floor has no atomic;
    @sparse runs the atomic in the lanes below %lanes of each warp only
    (the others skip it), to show what aggregation costs when few lanes
    take part."""
    ft, it, size = IR_TYPE[ty], INT_TYPE[ty], SIZE[ty]
    g = "ptr addrspace(1)"
    step = "fadd" if op == "fmax" else "fsub"
    sparse = name == "sparse"
    latch = "cont" if sparse else "loop"
    out = [
        f"define ptx_kernel void @{name}({g} %vals, {g} %dst, {g} %sink, "
        "i32 %vmask, i32 %mask, i32 %iters, i32 %rising"
        + (", i32 %lanes" if sparse else "") + ") #0 {",
        "entry:",
        *GLOBAL_INDEX,
        f"  %ih = mul i32 %i, {HASH_I - (1 << 32)}",
        "  %rise = icmp ne i32 %rising, 0",
        "  %any = icmp ne i32 %iters, 0",
    ]
    if sparse:
        out += [f"  %lane = and i32 %i, {WARP - 1}",
                "  %takes = icmp ult i32 %lane, %lanes"]
    out += [
        "  br i1 %any, label %loop, label %exit",
        "",
        "loop:",
        f"  %k = phi i32 [ 0, %entry ], [ %k.next, %{latch} ]",
    ]
    if used:
        out.append(f"  %acc = phi {ft} [ 0.0, %entry ], [ %acc.next, %{latch} ]")
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
    ]
    if sparse:
        out += ["  br i1 %takes, label %atomic, label %cont", "atomic:"]
    out.append(f"  %old = atomicrmw {op} {g} %dp, {ft} %v "
               f'syncscope("device") monotonic, align {size}' if name != "floor" else
               f"  %old = fadd {ft} %v, -0.0")
    got = "%old"
    if sparse:
        out += ["  br label %cont", "cont:"]
        if used:
            out.append(f"  %got = phi {ft} [ %old, %atomic ], [ -0.0, %loop ]")
            got = "%got"
    if used:
        out.append(f"  %acc.next = fadd {ft} %acc, {got}")
    out += [
        "  %k.next = add i32 %k, 1",
        "  %more = icmp ult i32 %k.next, %iters",
        "  br i1 %more, label %loop, label %exit",
        "",
        "exit:",
    ]
    if used:
        out += [
            f"  %sum = phi {ft} [ 0.0, %entry ], [ %acc.next, %{latch} ]",
            f"  %sumbits = bitcast {ft} %sum to {it}",
            f"  %hit = icmp eq {it} %sumbits, {SINK_PATTERN[ty]}",
            "  br i1 %hit, label %keep, label %done",
            "keep:",
            f"  store {ft} %sum, {g} %sink, align {size}",
            "  br label %done",
            "done:",
        ]
    out += ["  ret void", "}", ""]
    return out


def special_kernels(ty, op, used):
    """SPECIAL_KERNELS: one atomic per thread, at the address the thread is
    given (IDLE: none)."""
    ft, size = IR_TYPE[ty], SIZE[ty]
    g = "ptr addrspace(1)"
    out = []
    for suffix, ordering, rmw in (("", "monotonic", op), ("_acqrel", "acq_rel", op),
                                  ("_ieee", "monotonic", ieee_op(op, "propagate"))):
        out += [
            f"define ptx_kernel void @special{suffix}({g} %vals, {g} %addr, "
            f"{g} %dst, {g} %ret, i32 %n) #0 {{",
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
            "  %idle = icmp eq i32 %a, -1",
            "  br i1 %idle, label %exit, label %atomic",
            "atomic:",
            "  %a64 = zext i32 %a to i64",
            f"  %dp = getelementptr inbounds {ft}, {g} %dst, i64 %a64",
            f"  %old = atomicrmw {rmw} {g} %dp, {ft} %v "
            f'syncscope("device") {ordering}, align {size}',
        ]
        if used:
            out += [
                f"  %rp = getelementptr inbounds {ft}, {g} %ret, i64 %i64",
                f"  store {ft} %old, {g} %rp, align {size}",
            ]
        out += ["  br label %exit", "exit:", "  ret void", "}", ""]
    return out


def cached_kernels(ty, op, used):
    """CACHED_KERNELS: CACHED_OPS atomics written out one after another at
    the address the thread is given (IDLE: none), with operands
    vals[i * CACHED_OPS + k]; the results, where used, stored to the same
    places of %ret after the last atomic.  A ptx_kernel that does nothing
    else to memory before its last atomic: the bound cache applies
    (lib/LLVM/BoundCache.h), and after the first atomics most lanes hit it."""
    ft, size = IR_TYPE[ty], SIZE[ty]
    g = "ptr addrspace(1)"
    out = []
    for name, policy in CACHED_KERNELS:
        rmw = op if policy == "number" else ieee_op(op, policy)
        out += [
            f"define ptx_kernel void @{name}({g} %vals, {g} %addr, {g} %dst, "
            f"{g} %ret, i32 %n) #0 {{",
            "entry:",
            *GLOBAL_INDEX,
            "  %in = icmp ult i32 %i, %n",
            "  br i1 %in, label %body, label %exit",
            "body:",
            "  %i64 = zext i32 %i to i64",
            f"  %ap = getelementptr inbounds i32, {g} %addr, i64 %i64",
            "  %a = load i32, ptr addrspace(1) %ap, align 4",
            "  %idle = icmp eq i32 %a, -1",
            "  br i1 %idle, label %exit, label %atomics",
            "atomics:",
            "  %a64 = zext i32 %a to i64",
            f"  %dp = getelementptr inbounds {ft}, {g} %dst, i64 %a64",
            f"  %first = mul i64 %i64, {CACHED_OPS}",
        ]
        for k in range(CACHED_OPS):
            out += [
                f"  %x{k} = add i64 %first, {k}",
                f"  %vp{k} = getelementptr inbounds {ft}, {g} %vals, i64 %x{k}",
                f"  %v{k} = load {ft}, {g} %vp{k}, align {size}",
                f"  %old{k} = atomicrmw {rmw} {g} %dp, {ft} %v{k} "
                f'syncscope("device") monotonic, align {size}',
            ]
        for k in range(CACHED_OPS if used else 0):
            out += [
                f"  %rp{k} = getelementptr inbounds {ft}, {g} %ret, i64 %x{k}",
                f"  store {ft} %old{k}, {g} %rp{k}, align {size}",
            ]
        out += ["  br label %exit", "exit:", "  ret void", "}", ""]
    return out


def cache_sites(ir, kernel):
    """The bound cache's tests (the values it names fatomic.cache.hit) in
    function @kernel of the lowered module text ir."""
    m = re.search(r"^define [^@]*@" + re.escape(kernel) + r"\(.*?^}", ir, re.M | re.S)
    return len(re.findall(r"%fatomic\.cache\.hit[0-9]* = ", m.group(0))) if m else 0


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


def check_fatomic_ptx(ptx, ty, op, calls=False, aggregated=True, reconverge=False):
    """Problems with the lowered benchmark kernel, or [] when it is right.
    With calls, the kernel must call a function, and the atomics are looked
    for in the whole file (the helper is a .func).  Aggregated, the kernel
    tests the address with match.all and reduces with redux.sync (twice
    for 64 bits); otherwise it has no redux.sync.  With reconverge, the
    kernel ends its aggregated atomic with a bar.warp.sync on a mask in a
    register; otherwise it has none (the used form's own is on -1)."""
    body = ptx_entry(ptx, "bench")
    if body is None:
        return ["no .entry bench"]
    problems = []
    redux = re.findall(rf"\bredux\.sync\.{op[1:]}\.u32\s", body)
    if aggregated:
        if not re.search(r"\bmatch\.all\.sync\.b64\s", body):
            problems.append("no match.all.sync.b64 (the warp's address test)")
        if len(redux) != BITS[ty] // 32:
            problems.append(f"{len(redux)} redux.sync.{op[1:]}.u32, not {BITS[ty] // 32}")
    elif re.search(r"\bredux\.sync\.", body):
        problems.append("a redux.sync (aggregated, which this variant must not be)")
    if reconverge != bool(re.search(r"\bbar\.warp\.sync\s+%r", body)):
        problems.append("bar.warp.sync on the entry mask " +
                        ("missing" if reconverge else "(the testing option's)"))
    sparse = ptx_entry(ptx, "sparse") or ""
    if aggregated != bool(re.search(r"\bredux\.sync\.", sparse)):
        problems.append("the sparse kernel is " + ("not " if aggregated else "") + "aggregated")
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
        if "outline" in args.pass_options or "aggregate" in args.pass_options:
            raise Failure("--pass-options: outline= and aggregate= are set per "
                          "variant (" + ", ".join(f"{v}: {o}" for v, o in
                                                  PASS_OPTIONS.items()) + ")")
        passes = {v: "lower-float-atomic-minmax<" + PASS_OPTIONS[v]
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
                          *OPT_FLAGS.get(v, []),
                          "-passes=" + passes[v], "-S", ll, "-o", sources[v]],
                         f"opt on {name} ({v})")
                # The cache must apply to the cached kernels, and only where
                # it is on; an aggregated used result is tested twice, by the
                # full warp and on the per-lane path.
                twice = used and v in AGGREGATED and "aggregate=off" not in passes[v]
                want = 0 if "cache=off" in passes[v] else CACHED_OPS * (2 if twice else 1)
                lowered = open(sources[v]).read()
                for kernel, _ in CACHED_KERNELS:
                    got = cache_sites(lowered, kernel)
                    if got != want:
                        raise Failure(f"{name}.{v}.ll: @{kernel} has {got} bound "
                                      f"cache tests, not {want}")
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
                                                 calls=variant == "calls",
                                                 aggregated=variant in AGGREGATED,
                                                 reconverge=variant == "reconverge")
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
        shutil.copyfile(nvptx_common.__file__, os.path.join(work, "nvptx_common.py"))
        shutil.copyfile(race_model.__file__, os.path.join(work, "race_model.py"))
        manifest = {
            "tool": PROG, "triple": TRIPLE, "cpu": CPU, "passes": passes,
            "opt": tool_version(shutil.which(args.opt)),
            "llc": tool_version(shutil.which(args.llc)),
            "ptxas": tool_version(shutil.which(args.ptxas)) if args.ptxas else None,
            "commit": git_commit(os.path.dirname(os.path.abspath(__file__))),
            "kernels": kernels,
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
        cases[(ty, op, c["policy"])] = {
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


def float_is_nan(bits, width):
    mantissa = 23 if width == 32 else 52
    infinity = ((1 << (width - 1 - mantissa)) - 1) << mantissa
    return bits & ((1 << (width - 1)) - 1) > infinity


def float_key(bits, width):
    """The order map U on Python integers (-0 < +0)."""
    top = 1 << (width - 1)
    return bits ^ ((1 << width) - 1) if bits & top else bits | top


def apply_policy(policy, op, width, mem, v):
    """Memory after one float atomic max/min with operand v under
    `policy`: `number` (fatomic's contract for fmax/fmin) or `propagate`
    (fmaximum/fminimum: a NaN in memory stays, a NaN operand stores the
    sticky NaN).  Checked against special.json's one-pair addresses by
    selftest and by run."""
    if policy == "propagate":
        if float_is_nan(mem, width):
            return mem
        if float_is_nan(v, width):  # the sticky NaN of OrderMap.h
            return (1 << width) - 1 if op == "fmin" else (1 << (width - 1)) - 1
    elif float_is_nan(v, width):
        return mem
    elif float_is_nan(mem, width):
        return v
    if op == "fmax":
        return v if float_key(v, width) > float_key(mem, width) else mem
    return v if float_key(v, width) < float_key(mem, width) else mem


def linearizable(policy, op, width, init, ops, final):
    """Whether the atomics ops ((operand, returned) pairs, one per thread)
    on one address that held init and ended with final have a serial order
    in which each returned the memory before it (linearizable_in_order)."""
    return linearizable_in_order(policy, op, width, init, [[o] for o in ops], final)


def warp_cases(grid, width):
    """Threads laid out by warps over addresses, for the aggregated path:
    for each grid value as initial memory and each of 4 repeats, five
    warps: every lane on one address (`full`), about a third of the lanes
    idle (`partial`, the others on one address), the lanes split between
    two addresses (`mixed`, the per-lane path), NaN operands only (`nans`),
    and one operand in every lane (`same`).  Operands come from the grid.
    Returns (initial memory per address, operand and address per thread)."""
    G = len(grid)
    nans = [b for b in grid if float_is_nan(b, width)]
    init, operand, address = [], [], []
    for g in range(G):
        for r in range(4):
            for shape in ("full", "partial", "mixed", "nans", "same"):
                a = len(init)
                init.append(grid[g])
                if shape == "mixed":
                    init.append(grid[g])
                split = 1 + (g * 5 + r) % (WARP - 1)
                for lane in range(WARP):
                    pick = (lane * 5 + g + r * 7) % G
                    if shape == "nans":
                        value = nans[(lane + r) % len(nans)]
                    elif shape == "same":
                        value = grid[(g + r * 3) % G]
                    else:
                        value = grid[pick]
                    where = a
                    if shape == "partial" and ((lane * 7) ^ (r * 3 + g)) % 3 == 0:
                        where = IDLE
                    elif shape == "mixed" and lane >= split:
                        where = a + 1
                    operand.append(value)
                    address.append(where)
    return init, operand, address


def check_warp_result(policy, op, width, init, operand, address, memory,
                      returned):
    """(addresses that fail, first problem text): with returned values, each
    address's atomics must be linearizable; without, its final memory must
    be the serial result (check_addresses, one atomic per thread)."""
    return check_addresses(policy, op, width, init, [[v] for v in operand],
                           address, memory, returned)


def cached_cases(grid, width):
    """The warp cases (warp_cases) with CACHED_OPS operands per thread, for
    the cached kernels: the first operand is the warp case's, the others
    grid values picked per thread and operation (NaNs only in a warp of NaN
    operands; one value per warp and operation where the warp's first
    operands are all one).  Most operations after the first few cannot
    change memory, so most lanes hit the bound cache.  Returns (initial
    memory per address, CACHED_OPS operands per thread, address per
    thread)."""
    init, first, address = warp_cases(grid, width)
    nans = [b for b in grid if float_is_nan(b, width)]
    operands = []
    for w in range(0, len(first), WARP):
        warp = first[w:w + WARP]
        uniform = len(set(warp)) == 1
        all_nans = all(float_is_nan(b, width) for b in warp)
        for lane, b in enumerate(warp):
            seq = [b]
            for k in range(1, CACHED_OPS):
                h = ((w // WARP) * 7919 + (0 if uniform else lane) * 104729
                     + k * 1299709) % 1000003
                seq.append(nans[h % len(nans)] if all_nans and not uniform
                           else grid[h % len(grid)])
            operands.append(seq)
    return init, operands, address


def linearizable_in_order(policy, op, width, init, seqs, final):
    """Whether the atomics of several threads on one address, seqs (per
    thread, (operand, returned) pairs in program order), that found init
    and left final, have a serial order that keeps each thread's order and
    in which each returned the memory before it (race_model's
    in_program_order, with this file's bit-exact float model)."""
    return race_model.in_program_order(
        seqs, init, final, lambda mem, v: apply_policy(policy, op, width, mem, v))


def check_addresses(policy, op, width, init, operands, address, memory,
                    returned):
    """(addresses that fail, first problem text) of a run in which thread t
    ran the atomics operands[t] in order on address[t] (IDLE: none), its
    results at returned[t * len(operands[t]) + k]: with returned values,
    each address's atomics must be linearizable in each thread's program
    order; without, its final memory must be the serial result."""
    per = {}
    for t, a in enumerate(address):
        if a != IDLE:
            per.setdefault(a, []).append(t)
    ops = len(operands[0]) if operands else 1
    bad, first = 0, None
    for a, threads in sorted(per.items()):
        final = int(memory[a])
        if returned is not None:
            seqs = [[(v, int(returned[t * ops + k])) for k, v in enumerate(operands[t])]
                    for t in threads]
            ok = linearizable_in_order(policy, op, width, init[a], seqs, final)
            what = "not linearizable" + (" in program order" if ops > 1 else "")
        else:
            want = init[a]
            for t in threads:
                for v in operands[t]:
                    want = apply_policy(policy, op, width, want, v)
            ok = final == want
            what = f"expected {want:#x}"
        if not ok:
            bad += 1
            if first is None:
                first = (f"address {a} (initial {init[a]:#x}, {len(threads)} "
                         f"threads{f' x {ops}' if ops > 1 else ''}): memory "
                         f"{final:#x}, {what}")
    return bad, first


# ---------------------------------------------------------------------------
# run (on the GPU machine)
# ---------------------------------------------------------------------------

def check_model(special):
    """Problems of apply_policy against the reference model's one-pair
    addresses of special.json (the first grid x grid addresses)."""
    problems = []
    for (ty, op, policy), case in special.items():
        width = BITS[ty]
        counts = {}
        for a in case["address"]:
            counts[int(a)] = counts.get(int(a), 0) + 1
        for t, a in enumerate(case["address"]):
            a = int(a)
            if counts[a] != 1:
                continue
            want = int(case["final"][a])
            got = apply_policy(policy, op, width, int(case["init"][a]),
                               int(case["operand"][t]))
            if got != want:
                problems.append(f"{ty} {op} {policy} address {a}: "
                                f"{got:#x} != {want:#x}")
    return problems


def time_floor(np, cp, modules, ty, op, pattern, args, blocks, vals, sink,
               results, failures, log):
    """Times @floor, the benchmark's work without the atomic: the median of
    args.runs launches after a warm-up, each checked to leave the sink
    untouched (the sum never has its pattern)."""
    fn = modules[(kernel_name(ty, op, False), "fatomic")].get_function("floor")
    dst = cp.zeros(1, dtype=uint_dtype(np, ty))
    start_ev, end_ev = cp.cuda.Event(), cp.cuda.Event()
    times, bad = [], 0
    for r in range(args.runs + 1):
        sink.fill(0)
        start_ev.record()
        fn((blocks,), (BLOCK,), (vals, dst, sink, np.uint32(NVALS - 1),
                                 np.uint32(0), np.uint32(args.iters),
                                 np.uint32(pattern == "rising")))
        end_ev.record()
        end_ev.synchronize()
        if r > 0:
            times.append(cp.cuda.get_elapsed_time(start_ev, end_ev))
        if float(cp.asnumpy(sink)[0]) != 0.0:
            bad += 1
    med = statistics.median(times)
    results["floor"].append({"type": ty, "op": op, "values": pattern,
                             "ms_median": med, "runs_ms": times, "bad_runs": bad})
    log(f"{ty} {op} floor (no atomic)             values={pattern:6} "
        f"{med:9.3f} ms" + (f"  {bad} runs wrote the sink" if bad else ""))
    if bad:
        failures.append(f"floor {ty} {op} {pattern}: the sink was written")


def time_sparse(np, cp, modules, model, args, blocks, vals, sink, results, failures, log):
    """Times @sparse (the atomic in the lowest SPARSE_LANES lanes of each
    warp only) at one address, aggregated and per lane: whether aggregation
    needs a threshold of active lanes.  Every launch's memory is checked
    against the extremum of the lanes that ran."""
    start_ev, end_ev = cp.cuda.Event(), cp.cuda.Event()
    lane = np.arange(args.threads) % WARP
    for ty in TYPES:
        u = uint_dtype(np, ty)
        init = model.initial_bits(ty, "fmax")
        dst = cp.empty(1, dtype=u)
        for pattern in PATTERNS:
            keys = model.keys(ty, "fmax", pattern)
            init_key = order_key(np, np.array([init], dtype=u), ty)[0]
            for lanes in SPARSE_LANES:
                took = np.repeat(lane < lanes, args.iters)
                want = order_key_inverse(
                    np, np.array([max(init_key, keys[took].max())], dtype=u), ty)
                for used in (False, True):
                    row = {}
                    for variant in ("fatomic", "perlane"):
                        fn = modules[(kernel_name(ty, "fmax", used), variant)].get_function(
                            "sparse")
                        times, bad = [], 0
                        for r in range(args.runs + 1):
                            dst.fill(init)
                            start_ev.record()
                            fn((blocks,), (BLOCK,),
                               (vals[ty], dst, sink[ty], np.uint32(NVALS - 1), np.uint32(0),
                                np.uint32(args.iters), np.uint32(pattern == "rising"),
                                np.uint32(lanes)))
                            end_ev.record()
                            end_ev.synchronize()
                            if r > 0:
                                times.append(cp.cuda.get_elapsed_time(start_ev, end_ev))
                            bad += int(cp.asnumpy(dst)[0] != want[0])
                        row[variant] = statistics.median(times)
                        results["sparse"].append({
                            "type": ty, "op": "fmax", "used": used, "values": pattern,
                            "lanes": lanes, "variant": variant, "ms_median": row[variant],
                            "runs_ms": times, "memory_bad_runs": bad})
                        if bad:
                            failures.append(f"sparse {ty} fmax lanes={lanes} {pattern} "
                                            f"{'used' if used else 'unused'} {variant}: "
                                            f"{bad} runs left the wrong memory")
                    log(f"{ty} fmax result={'used  ' if used else 'unused'} lanes={lanes} "
                        f"of {WARP} values={pattern:6} fatomic {row['fatomic']:9.3f} ms  "
                        f"perlane {row['perlane']:9.3f} ms  "
                        f"per-lane/aggregated {row['perlane'] / row['fatomic']:6.3f}")


def run_warp_cases(np, cp, modules, k, special, results, failures, log):
    """The warp cases (warp_cases) of kernel module k, on every variant
    and special-value kernel: lowered variants must pass
    check_warp_result."""
    ty, op, used = k["type"], k["op"], k["used"]
    width, u, ft = BITS[ty], uint_dtype(np, ty), float_dtype(np, ty)
    grid = list(dict.fromkeys(int(x) for x in special[(ty, op, "number")]["init"]))
    init, operand, address = warp_cases(grid, width)
    n = len(operand)
    vals = cp.asarray(np.array(operand, dtype=u).view(ft))
    addr = cp.asarray(np.array(address, dtype=np.uint32))
    for kernel, policy in SPECIAL_KERNELS:
        for variant in VARIANTS:
            fn = modules[(k["name"], variant)].get_function(kernel)
            dst = cp.asarray(np.array(init, dtype=u).view(ft))
            ret = cp.zeros(n, dtype=ft)
            fn(((n + BLOCK - 1) // BLOCK,), (BLOCK,), (vals, addr, dst, ret, np.uint32(n)))
            cp.cuda.Device().synchronize()
            memory = cp.asnumpy(dst).view(u)
            returned = cp.asnumpy(ret).view(u) if used else None
            bad, first = check_warp_result(policy, op, width, init, operand,
                                           address, memory, returned)
            ordering = "acq_rel" if kernel.endswith("acqrel") else "monotonic"
            results["warp"].append({
                "kernel": k["name"], "type": ty, "op": op, "used": used,
                "ordering": ordering, "policy": policy,
                "operation": ieee_op(op, policy), "variant": variant, "threads": n,
                "addresses": len(init), "failed_addresses": bad,
                "first_problem": first, "checked": variant in LOWERED,
                "pass": bad == 0})
            verdict = "PASS" if bad == 0 else ("FAIL" if variant in LOWERED else "differs")
            log(f"warp    {k['name']:16} {kernel_label(kernel):9} {variant:7} {verdict}: "
                f"{bad} of {len(init)} addresses "
                + ("not linearizable" if used else "with the wrong memory")
                + (f"; {first}" if first else ""))
            if variant in LOWERED and bad:
                failures.append(f"warp {k['name']} {kernel} {variant}: {first}")



def run_cached_cases(np, cp, modules, k, special, results, failures, log):
    """The cached cases (cached_cases) of kernel module k, on every variant
    and cached kernel: lowered variants must pass check_addresses."""
    ty, op, used = k["type"], k["op"], k["used"]
    width, u, ft = BITS[ty], uint_dtype(np, ty), float_dtype(np, ty)
    grid = list(dict.fromkeys(int(x) for x in special[(ty, op, "number")]["init"]))
    init, operands, address = cached_cases(grid, width)
    n = len(operands)
    flat = [v for seq in operands for v in seq]
    vals = cp.asarray(np.array(flat, dtype=u).view(ft))
    addr = cp.asarray(np.array(address, dtype=np.uint32))
    for kernel, policy in CACHED_KERNELS:
        for variant in VARIANTS:
            fn = modules[(k["name"], variant)].get_function(kernel)
            dst = cp.asarray(np.array(init, dtype=u).view(ft))
            ret = cp.zeros(n * CACHED_OPS, dtype=ft)
            fn(((n + BLOCK - 1) // BLOCK,), (BLOCK,), (vals, addr, dst, ret, np.uint32(n)))
            cp.cuda.Device().synchronize()
            memory = cp.asnumpy(dst).view(u)
            returned = cp.asnumpy(ret).view(u) if used else None
            bad, first = check_addresses(policy, op, width, init, operands,
                                         address, memory, returned)
            results["cached"].append({
                "kernel": k["name"], "type": ty, "op": op, "used": used,
                "policy": policy, "operation": ieee_op(op, policy),
                "variant": variant, "threads": n, "atomics_per_thread": CACHED_OPS,
                "addresses": len(init), "failed_addresses": bad,
                "first_problem": first, "checked": variant in LOWERED,
                "pass": bad == 0})
            verdict = "PASS" if bad == 0 else ("FAIL" if variant in LOWERED else "differs")
            log(f"cached  {k['name']:16} {kernel_label(kernel):9} {variant:7} {verdict}: "
                f"{bad} of {len(init)} addresses "
                + ("not linearizable in program order" if used
                   else "with the wrong memory")
                + (f"; {first}" if first else ""))
            if variant in LOWERED and bad:
                failures.append(f"cached {k['name']} {kernel} {variant}: {first}")


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
               "special": [], "warp": [], "cached": [], "floor": [], "timings": [],
               "sparse": [],
               "ptx": {}}
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
    model_problems = check_model(special)
    if model_problems:
        raise Failure("the host's float model disagrees with special.json: "
                      + model_problems[0])
    for k in manifest["kernels"]:
        ty, op, used = k["type"], k["op"], k["used"]
        u = uint_dtype(np, ty)
        for kernel, policy in SPECIAL_KERNELS:
            case = special[(ty, op, policy)]
            n = len(case["operand"])
            vals = cp.asarray(case["operand"].view(float_dtype(np, ty)))
            addr = cp.asarray(case["address"])
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
                bad_lin = 0
                if returned is not None:
                    bad_lin, lin_first = check_warp_result(
                        policy, op, BITS[ty], [int(x) for x in case["init"]],
                        [int(x) for x in case["operand"]],
                        [int(x) for x in case["address"]], memory, returned)
                    first = first or lin_first
                ok = bad_mem == 0 and bad_ret == 0 and bad_lin == 0
                entry = {"kernel": k["name"], "type": ty, "op": op, "used": used,
                         "ordering": "acq_rel" if kernel.endswith("acqrel") else "monotonic",
                         "policy": policy, "operation": ieee_op(op, policy),
                         "variant": variant, "threads": n,
                         "addresses": len(case["init"]),
                         "memory_mismatches": bad_mem,
                         "returned_not_reachable": bad_ret,
                         "not_linearizable": bad_lin,
                         "first_problem": first,
                         # AtomicExpand follows LLVM's fmax/fmin (maxnum:
                         # either zero, any NaN), not fatomic's contract.
                         "checked": variant in LOWERED, "pass": ok}
                results["special"].append(entry)
                verdict = "PASS" if ok else ("FAIL" if variant in LOWERED else "differs")
                log(f"special {k['name']:16} {kernel_label(kernel):9} {variant:7} "
                    f"{verdict}: {bad_mem} of {len(case['init'])} addresses differ "
                    f"from the reference, {bad_ret} returned values unreachable"
                    + (f", {bad_lin} not linearizable" if bad_lin else "")
                    + (f"; {first}" if first else ""))
                if variant in LOWERED and not ok:
                    failures.append(f"special {k['name']} {kernel} {variant}: {first}")
        run_warp_cases(np, cp, modules, k, special, results, failures, log)
        run_cached_cases(np, cp, modules, k, special, results, failures, log)
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
                if time.time() - started <= args.time_limit:
                    time_floor(np, cp, modules, ty, op, pattern, args, blocks,
                               vals[ty], sink[ty], results, failures, log)
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
                        for variant in TIMED:
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
                            f"perlane {row['perlane']['ms_median']:9.3f} ms  "
                            f"expand {row['expand']['ms_median']:9.3f} ms  "
                            f"fatomic/expand {ratio:6.3f}  "
                            f"memory {'ok' if not any(row[v]['memory_bad_runs'] for v in TIMED) else 'WRONG'}"
                            f"  (host expectation {host_s:.1f} s)")
                    del dst
                    save()
    if time.time() - started <= args.time_limit:
        log()
        log(f"few active lanes: the atomic in the lowest {'/'.join(map(str, SPARSE_LANES))} "
            "lanes of each warp only, one address")
        time_sparse(np, cp, modules, model, args, blocks, vals, sink, results, failures, log)
        save()
    else:
        skipped += 1
    results["complete"] = skipped == 0
    results["skipped_timings"] = skipped
    save()
    log()
    log(f"{PROG}: {len(results['timings'])} timings, "
        f"{len(results['special'])} special-value runs, "
        f"{len(results['warp'])} warp-case runs, "
        f"{len(results['cached'])} cached-case runs, "
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
        for kernel in ("@bench(", "@floor(", "@sparse(", "@special(", "@special_acqrel(",
                       "@special_ieee("):
            expect(kernel in ir, f"{kernel} missing in {kernel_name(ty, op, used)}")
        expect(len(re.findall(rf"^  %old = atomicrmw {op} ", ir, re.M)) == 4,
               "four atomicrmw of the operation per module")
        expect(len(re.findall(rf"^  %old = atomicrmw {ieee_op(op, 'propagate')} ",
                              ir, re.M)) == 1, "one atomicrmw of the IEEE operation")

    # The linearizability check: a serial history passes; a returned value
    # that memory never held, or two atomics that both change one value, fail.
    one, two, three = 0x3F800000, 0x40000000, 0x40400000  # 1.0, 2.0, 3.0
    expect(linearizable("number", "fmax", 32, one,
                        [(three, two), (two, one), (one, three)], three),
           "a serial history is linearizable")
    expect(not linearizable("number", "fmax", 32, one, [(three, one), (two, one)], three),
           "two changes of one value are not linearizable")
    expect(not linearizable("number", "fmax", 32, one, [(three, one), (two, two)], three),
           "a value memory never held is not linearizable")
    expect(not linearizable("number", "fmax", 32, one, [(three, one)], two),
           "a wrong final memory is not linearizable")
    nan = 0x7FC00000
    expect(linearizable("propagate", "fmax", 32, one, [(nan, one), (three, 0x7FFFFFFF)],
                        0x7FFFFFFF),
           "propagate: a NaN operand stores the sticky NaN, which stays")
    expect(not linearizable("number", "fmax", 32, one, [(nan, one), (three, 0x7FFFFFFF)],
                            0x7FFFFFFF),
           "number: a NaN operand changes nothing")
    # Program order (the cached cases): thread A max(2) then max(1), thread
    # B max(3), from 1.
    a_first = [[(two, one), (one, two)], [(three, two)]]
    expect(linearizable_in_order("number", "fmax", 32, one, a_first, three),
           "in program order: A, A's no-op, then B")
    expect(linearizable_in_order("number", "fmax", 32, one,
                                 [[(two, one), (one, three)], [(three, two)]], three),
           "in program order: A, B, then A's no-op")
    expect(not linearizable_in_order("number", "fmax", 32, one,
                                     [[(two, three), (one, one)], [(three, one)]], three),
           "a thread's later atomic cannot see memory from before its earlier one")
    expect(linearizable("number", "fmax", 32, one,
                        [(two, three), (one, one), (three, one)], three),
           "(the same atomics are linearizable out of program order)")
    expect(not linearizable_in_order("number", "fmax", 32, one,
                                     [[(two, one), (one, one)]], two),
           "a thread's atomic after its own change cannot return what it changed")
    expect(not linearizable_in_order("number", "fmax", 32, one, a_first, two),
           "in program order: a wrong final memory")
    # The warp cases: 32 threads a warp, idle lanes, two-address warps.
    grid = [0, one, two, three, 0x7FC00000, 0xFFC00001]
    init, operand, address = warp_cases(grid, 32)
    expect(len(operand) % WARP == 0 and len(operand) == len(address),
           "warp cases fill whole warps")
    expect(IDLE in address, "warp cases have idle lanes")
    c_init, c_ops, c_addr = cached_cases(grid, 32)
    expect(c_init == init and c_addr == address and
           all(len(seq) == CACHED_OPS and seq[0] == operand[t]
               for t, seq in enumerate(c_ops)),
           "cached cases extend the warp cases")
    expect(all(len({c_ops[t][k] for t in range(w, w + WARP)}) == 1
               for w in range(0, len(c_ops), WARP)
               if len({operand[t] for t in range(w, w + WARP)}) == 1
               for k in range(CACHED_OPS)),
           "cached cases keep a uniform warp uniform")
    warps = [set(address[w:w + WARP]) - {IDLE} for w in range(0, len(address), WARP)]
    expect(sum(len(w) == 2 for w in warps) == len(grid) * 4 and
           sum(len(w) == 1 for w in warps) == len(grid) * 16,
           "warp cases: one address per warp, or two in the mixed shape")
    expect(all(max(a for a in address if a != IDLE) < len(init) for _ in [0]),
           "warp cases address their own memory")

    if args.bundle:
        with open(os.path.join(args.bundle, "manifest.json")) as f:
            manifest = json.load(f)
        special = load_special(np, os.path.join(args.bundle, "special.json"))
        expect(sorted(special) == sorted((ty, op, policy) for ty in TYPES for op in OPS
                                         for policy in ("number", "propagate")),
               "special-value cases for number and propagate")
        expect(check_model(special) == [],
               "the float model agrees with the reference model")
        for (ty, op, policy), case in special.items():
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
            # Each PTX check accepts its own variant's PTX and rejects the
            # others named: the checks tell the shapes apart.
            ptx_checks = {
                "fatomic": (lambda t: check_fatomic_ptx(t, ty, op),
                            ("perlane", "calls", "expand", "reconverge")),
                "perlane": (lambda t: check_fatomic_ptx(t, ty, op, aggregated=False),
                            ("fatomic",)),
                "calls": (lambda t: check_fatomic_ptx(t, ty, op, calls=True),
                          ("fatomic", "expand")),
                "expand": (lambda t: check_expand_ptx(t, ty, op), ("fatomic",)),
                "reconverge": (lambda t: check_fatomic_ptx(t, ty, op, reconverge=True),
                               ("fatomic",)),
            }
            for own, (check, others) in ptx_checks.items():
                expect(check(texts[own]) == [], f"{k['name']} {own} PTX check")
                for other in others:
                    expect(check(texts[other]) != [],
                           f"{k['name']}: the {own} check accepts the {other} PTX")
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
