#!/usr/bin/env python3
"""Writes docs/nvptx-performance.md from the results.json of
`nvptx-bench.py run` (tools/nvptx).

The page states how the figures were taken, the device and tool versions
from the JSON, the correctness results (special values, warp cases), the
warp aggregation's speed-up at one address, and one table per type and
operation: median kernel time of fatomic's lowering (aggregated over the
warp and written out at the atomic, the same left in helper functions that
the kernel calls, and the per-lane lowering without aggregation), of LLVM's
AtomicExpand compare-exchange loop and of the kernel without the atomic,
and the ratios (fatomic time / AtomicExpand time: below 1 means fatomic is
faster; per-lane time / fatomic time: above 1 means aggregation is
faster).

The text between the NOTES markers of an existing output file (hand-written
notes on the run) is kept when the page is written again.

Refuses results that are incomplete, that failed a correctness check, or
that came from the emulated CuPy of the tests (use --allow-emulated only to
test this script; the page then says in its first line that it holds no
measurement).

usage: nvptx-report.py RESULTS.json [-o docs/nvptx-performance.md]
                       [--log-name NAME] [--allow-emulated]
       nvptx-report.py --pending [-o FILE]   (the page without figures)
"""

import argparse
import json
import sys

PROG = "nvptx-report"
NOTES_BEGIN = "<!-- NOTES: hand-written, kept when the report is regenerated -->"
NOTES_END = "<!-- END NOTES -->"

METHOD = """\
## How the figures are taken

`tools/nvptx/nvptx-bench.py` generates one LLVM IR module per kernel
flavour: f32 and f64, `atomicrmw fmax` and `atomicrmw fmin`, the returned
value used or unused.  In the benchmark kernel every one of {threads:,}
threads (blocks of {block}) does {iters} atomics
(`syncscope("device") monotonic`, the ordering of CUDA's `atomicMax`) on
global memory at a hashed address, `((i * 2654435761 + k * 40503) >> 7) &
(addresses - 1)`, with a value read from {nvals:,} random numbers in
[-1000, 1000) (`random`), or that value plus `k * 4096` for fmax and minus
it for fmin (`rising`: each round's values beat all of the previous
round's, so memory keeps changing and the early-out rarely applies).  Memory starts at -inf for fmax and +inf for fmin.  The
address and value scheme is that of the Vulkan benchmark,
[gpu-performance.md](gpu-performance.md) (`tools/gpubench`).

The kernels carry `"target-cpu"="sm_90"`, as clang writes them for
`--cuda-gpu-arch=sm_90`.  Each module is compiled five times with `llc-22 -O3
-mtriple=nvptx64-nvidia-cuda -mcpu=sm_90`:

- **fatomic**: after `opt-22 -passes='lower-float-atomic-minmax<outline=off>'`
  (otherwise default options: `nan=number`, sign dispatch, early-out,
  `aggregate=auto`): the lowering written out at the atomic, which is also
  what an inliner after the pass (the default `outline=on`) leaves.  The
  atomic is aggregated over the warp (docs/semantics.md, "Warp aggregation
  on NVPTX"): `match.all.sync` tests the address, `redux.sync` reduces the
  lanes' order-mapped operands (twice for 64 bits) and one lane runs the
  lowered atomic; lanes whose warp mixes addresses run it each.  Where the
  result is used only a full warp (all 32 lanes active) aggregates, and
  the elected lane's result goes back to the lanes by `shfl.sync` (the
  same section says why; a partial warp runs it per lane).  The
  lowered atomic has the atomic load (`ld.relaxed.gpu.global`), the two
  integer atomics of the sign dispatch (`atom.global.max.s32` /
  `atom.global.min.u32` for fmax, and so on) and the compare-exchange only
  in the NaN fix-up.  The kernel (which synchronizes with nothing) also
  has the bound cache (docs/semantics.md, "The bound cache in the LLVM
  pass"): each lane first compares its operand with the bound its last
  atomic left for the same address, skips the atomic when the operand
  cannot change memory (a used result is then the word memory held there,
  which the lane kept), and only the lanes that miss take part in the
  aggregation or run the atomic; with a used result a full warp skips
  the atomic where every lane hits, and otherwise aggregates them all.
- **calls**: after `opt-22 -passes=lower-float-atomic-minmax` (the default,
  `outline=on`) straight into llc, where no inliner runs: the aggregation
  is in the kernel, and it calls a helper function (a PTX `.func`) that
  holds the lowered atomic.
- **per-lane**: `lower-float-atomic-minmax<outline=off;aggregate=off;cache=off>`:
  the lowering without aggregation and without the bound cache, every lane
  its own atomic (the pass's output before either).
- **reconverge** (checked, not timed): **fatomic** with the plugin's
  hidden testing option `-fatomic-warp-reconverge-for-testing`, which ends
  each aggregated atomic with a `bar.warp.sync` on the lanes that reached
  it together, so that the warp cases and the cached cases take the
  full-warp path at more of their atomics than the shipped code does.
- **AtomicExpand**: the module as it is; LLVM's AtomicExpand pass turns the
  float `atomicrmw` into a loop of `max.f32`/`min.f32` and
  `atom.global.cas`.

**floor** is the benchmark kernel without the atomic (each value is summed
instead, as a used result is): the time of the loads and arithmetic around
the atomic, under any lowering of it.

The bundle step checks the five shapes in the PTX.  On the GPU the PTX is loaded
with CuPy's `RawModule` (the driver compiles it); each case runs once to warm
up and then {runs} times, timed with CUDA events around the kernel alone;
the table gives the median.  After every launch, the memory is compared bit
for bit with the per-address maximum (minimum) computed on the host.

Correctness with special values: for f32 and f64, min and max, kernels with
`monotonic` (early-out path) and `acq_rel` ordering (no early-out: dispatch
and fix-up) `atomicrmw fmax`/`fmin` (`number` policy), and a kernel with
monotonic `atomicrmw fmaximum`/`fminimum` (`propagate`: the
compare-exchange loop) apply a grid of 28 values (both zeros, subnormals, normals,
infinities, quiet and signalling NaNs of both signs, NaN payloads) as
initial memory and operands: one thread per (memory, operand) pair, and 28
threads contending on each of 224 further addresses.  The final memory must
equal fatomic's reference model for the policy (`fatomic-nvptx-expect`, from
`include/fatomic/Reference.h`) bit for bit, and every returned value must be
one the address can hold.  AtomicExpand's kernels follow LLVM's `fmax`/`fmin`
(`maxnum`: either zero for a tie of -0 and +0, any NaN for two NaNs), not
fatomic's contract; their differences are listed, not counted as failures.
Where results are used, the returned values of each address must also be
linearizable: a serial order of its atomics must exist in which each
returned the memory before it and the last left the final memory.

Warp cases (aggregation): threads laid out by warps of 32, the grid values
as initial memory and operands.  For each initial value, 4 repeats of five
warps: all lanes on one address; about a third of the lanes idle (their
thread skips the atomic) and the rest on one address; the lanes split
between two addresses (the per-lane path); NaN operands only; one operand
in every lane.  Each address must be linearizable (results used) or end
with the serial result (unused).

Reproduce:

```sh
cmake --build build --target FatomicLLVMPlugin fatomic-nvptx-expect
python3 tools/nvptx/nvptx-bench.py bundle --plugin build/lib/libFatomicLLVMPlugin.so \\
    --expect-tool build/bin/fatomic-nvptx-expect --out build/nvptx-bundle
# on the GPU machine (python3, numpy, CuPy; no LLVM needed there):
cd build/nvptx-bundle && python3 run.py run --out OUT
python3 tools/nvptx/nvptx-report.py OUT/results.json -o docs/nvptx-performance.md
```
"""


class Failure(Exception):
    pass


def lowered_names(rows):
    """The variants of the checked rows, as the report names them."""
    names = {"fatomic": "aggregated written out", "calls": "aggregated with calls",
             "perlane": "per lane",
             "reconverge": "aggregated written out, reconverged for testing"}
    seen = list(dict.fromkeys(r["variant"] for r in rows))
    return "; ".join(names.get(v, v) for v in seen)


def load(path, allow_emulated):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise Failure(f"cannot read {path}: {e}")
    if data.get("tool") != "nvptx-bench":
        raise Failure(f"{path} is not nvptx-bench output")
    if data.get("emulated") and not allow_emulated:
        raise Failure(f"{path} comes from the emulated CuPy of the tests, "
                      "not from a GPU")
    if not data.get("complete"):
        raise Failure(f"{path} is incomplete ({data.get('skipped_timings')} "
                      "timings skipped)")
    if data.get("failures"):
        raise Failure(f"{path} records failed checks: {data['failures'][0]}")
    return data


def fmt_ms(ms):
    return f"{ms:.3f}" if ms < 100 else f"{ms:.1f}"


def render(data, log_name):
    dev, cfg, bundle = data["device"], data["config"], data["bundle"]
    out = []
    if data.get("emulated"):
        out.append("**EMULATED: these are not measurements.  This page was "
                   "written from the host emulation of the tests.**\n")
    out.append("# fatomic on NVIDIA GPUs through LLVM's NVPTX back end\n")
    out.append("The LLVM pass against LLVM's own expansion of the same float "
               "atomic min/max (AtomicExpand's compare-exchange loop), compiled "
               "for sm_90 and run on one GPU.  Generated by "
               "`tools/nvptx/nvptx-report.py` from the run's `results.json`"
               + (f" (`{log_name}`)" if log_name else "") + ".\n")
    out.append(METHOD.format(**cfg))
    out.append("## Run\n")
    out.append(f"- Device: {dev['name']}, compute capability "
               f"{dev['compute_capability']}, {dev['multiprocessors']} SMs; "
               f"CUDA driver {dev['driver']}, runtime {dev['runtime']}; "
               f"CuPy {dev['cupy']}, numpy {dev['numpy']}.")
    passes = bundle.get("passes")
    if isinstance(passes, dict):  # one pipeline per lowered variant
        passes = "; ".join(f"{v}: `{p}`" for v, p in passes.items())
    else:
        passes = f"`{passes}`"
    out.append(f"- Bundle: commit {bundle.get('commit')}, {passes}, "
               f"{bundle.get('llc')}.")
    out.append(f"- {cfg['threads']:,} threads × {cfg['iters']} atomics per "
               f"launch, median of {cfg['runs']} timed launches; the whole "
               f"run took {data.get('elapsed_s')} s.\n")

    out.append("## Correctness\n")
    special = data["special"]
    checked = [s for s in special if s["checked"]]
    passed = sum(1 for s in checked if s["pass"])
    out.append(f"- Special values, fatomic ({lowered_names(checked)}): "
               f"{passed} of {len(checked)} kernel "
               "runs left exactly the reference model's memory with every "
               "returned value reachable and, where used, linearizable.")
    warp = data.get("warp", [])
    if warp:
        wchecked = [w for w in warp if w["checked"]]
        wpassed = sum(1 for w in wchecked if w["pass"])
        addresses = sum(w["addresses"] for w in wchecked)
        out.append(f"- Warp cases, fatomic ({lowered_names(wchecked)}): {wpassed} of "
                   f"{len(wchecked)} kernel runs ({addresses:,} addresses, "
                   f"{sum(w['threads'] for w in wchecked):,} threads) passed.  "
                   "AtomicExpand (LLVM's semantics, for information) differed "
                   f"at {sum(w['failed_addresses'] for w in warp if not w['checked']):,} "
                   "addresses.")
    cached = data.get("cached", [])
    if cached:
        cchecked = [c for c in cached if c["checked"]]
        cpassed = sum(1 for c in cchecked if c["pass"])
        ops = cached[0]["atomics_per_thread"]
        out.append(f"- Bound cache cases (the warp cases with {ops} atomics "
                   "per thread at one address, results stored after the "
                   f"last), fatomic ({lowered_names(cchecked)}): "
                   f"{cpassed} of {len(cchecked)} kernel runs "
                   f"({sum(c['addresses'] for c in cchecked):,} addresses) "
                   "passed: the final memory where results are unused, and "
                   "every address linearizable in each thread's program "
                   "order where they are used.")
    differs = [s for s in special if not s["checked"] and not s["pass"]]
    if differs:
        out.append("- Special values, AtomicExpand (LLVM's own semantics: "
                   "maxnum/minnum for fmax/fmin, maximum/minimum for "
                   "fmaximum/fminimum, with any NaN and either zero; for "
                   "information):")
        for s in differs:
            out.append(f"  - {s['kernel']} {s.get('operation', s['op'])} "
                       f"{s['ordering']}: "
                       f"{s['memory_mismatches']} of {s['addresses']} addresses "
                       f"differ from fatomic's reference, "
                       f"{s['returned_not_reachable']} returned values outside "
                       f"it; first: {s['first_problem']}")
    else:
        out.append("- Special values, AtomicExpand: no difference from "
                   "fatomic's reference model either.")
    timings = data["timings"]
    ok = sum(1 for t in timings if not t["memory_bad_runs"])
    launches = sum(t["memory_ok_runs"] + t["memory_bad_runs"] for t in timings)
    out.append(f"- Benchmark memory: {ok} of {len(timings)} cases "
               f"({launches} launches) matched the host's per-address result "
               "bit for bit after every launch.\n")

    by_key = {}
    for t in timings:
        by_key[(t["type"], t["op"], t["used"], t["addresses"], t["values"],
                t["variant"])] = t
    floor = {(f["type"], f["op"], f["values"]): f["ms_median"]
             for f in data.get("floor", [])}
    out += render_aggregation(by_key, floor)
    out += render_sparse(data.get("sparse", []))

    out.append("## Kernel time\n")
    out.append("Median time of one launch in ms; ratio = fatomic / "
               "AtomicExpand (below 1: fatomic faster), calls ratio = calls / "
               "AtomicExpand, aggregation = per-lane / fatomic (above 1: "
               "aggregation faster); floor: the kernel without the atomic; "
               "Gatomic/s counts every thread's atomics.\n")
    for ty in ("f32", "f64"):
        for op in ("fmax", "fmin"):
            out.append(f"### {ty} {op}\n")
            out.append("| result | addresses | values | fatomic ms | "
                       "calls ms | per-lane ms | AtomicExpand ms | floor ms | "
                       "ratio | calls ratio | aggregation | "
                       "fatomic Gatomic/s |")
            out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for used in (False, True):
                for values in ("random", "rising"):
                    for count in (1, 1024, 1 << 20):
                        f = by_key.get((ty, op, used, count, values, "fatomic"))
                        e = by_key.get((ty, op, used, count, values, "expand"))
                        c = by_key.get((ty, op, used, count, values, "calls"))
                        p = by_key.get((ty, op, used, count, values, "perlane"))
                        if not f or not e:
                            continue
                        lane = f"{fmt_ms(p['ms_median'])} | " if p else "- | "
                        agg = (f"{p['ms_median'] / f['ms_median']:.2f}"
                               if p else "-")
                        fl = floor.get((ty, op, values))
                        fl = f"{fmt_ms(fl)} | " if fl else "- | "
                        ratio = f["ms_median"] / e["ms_median"]
                        calls = (f"{fmt_ms(c['ms_median'])} | " if c else "- | ")
                        calls_ratio = (f"{c['ms_median'] / e['ms_median']:.3f}"
                                       if c else "-")
                        out.append(
                            f"| {'used' if used else 'unused'} | {count:,} | "
                            f"{values} | {fmt_ms(f['ms_median'])} | {calls}"
                            f"{lane}{fmt_ms(e['ms_median'])} | {fl}"
                            f"{ratio:.3f} | {calls_ratio} | {agg} | "
                            f"{f['gatomics_per_s']:.2f} |")
            out.append("")
    out.append("## Summary\n")
    for variant, label in (("fatomic", "fatomic"), ("calls", "calls")):
        summary = summarize(by_key, variant, label)
        if summary:
            out.append(summary)
    return "\n".join(out)


def render_aggregation(by_key, floor):
    """The warp aggregation at one address: per-lane against aggregated
    (written out and calls), with the floor; then the range of the ratio at
    the other address counts."""
    rows = []
    for ty in ("f32", "f64"):
        for op in ("fmax", "fmin"):
            for used in (False, True):
                for values in ("rising", "random"):
                    key = (ty, op, used, 1, values)
                    f, c, p = (by_key.get(key + (v,)) for v in
                               ("fatomic", "calls", "perlane"))
                    if f and c and p:
                        rows.append((ty, op, used, values, f["ms_median"],
                                     c["ms_median"], p["ms_median"],
                                     floor.get((ty, op, values))))
    if not rows:
        return []
    out = ["## Warp aggregation and the bound cache at one address\n",
           "Every thread's atomics on one address: median ms of the per-lane "
           "lowering (`aggregate=off;cache=off`) and of the aggregated one "
           "(with the bound cache), written out "
           "and with calls; speed-up = per-lane / aggregated; floor: the "
           "kernel without the atomic.\n",
           "| type | op | result | values | per-lane ms | aggregated ms | calls "
           "ms | speed-up | calls speed-up | floor ms |",
           "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for ty, op, used, values, f, c, p, fl in rows:
        out.append(f"| {ty} | {op} | {'used' if used else 'unused'} | {values} "
                   f"| {fmt_ms(p)} | {fmt_ms(f)} | {fmt_ms(c)} | {p / f:.2f} | "
                   f"{p / c:.2f} | {fmt_ms(fl) if fl else '-'} |")
    out.append("")
    for values in ("rising", "random"):
        sel = [r for r in rows if r[3] == values]
        ups = sorted(r[6] / r[4] for r in sel)
        out.append(f"- {values}: aggregated {ups[0]:.2f}–{ups[-1]:.2f}× faster "
                   f"than per-lane in {len(sel)} cells, and "
                   f"{min(r[6] / r[5] for r in sel):.2f}–"
                   f"{max(r[6] / r[5] for r in sel):.2f}× with calls.")
    for count in (1024, 1 << 20):
        ratios = [by_key[(ty, op, used, count, values, "perlane")]["ms_median"]
                  / t["ms_median"]
                  for (ty, op, used, c, values, v), t in by_key.items()
                  if v == "fatomic" and c == count
                  and (ty, op, used, count, values, "perlane") in by_key]
        if ratios:
            out.append(f"- {count:,} addresses (warps mostly mix addresses): "
                       f"per-lane / aggregated {min(ratios):.2f}–"
                       f"{max(ratios):.2f} in {len(ratios)} cells.")
    out.append("")
    return out


def render_sparse(entries):
    """Few active lanes at one address: per-lane against aggregated, the
    question of a threshold of active lanes."""
    ms = {(e["type"], e["used"], e["values"], e["lanes"], e["variant"]): e["ms_median"]
          for e in entries}
    rows = sorted({k[:4] for k in ms}, key=lambda k: (k[0], k[1], k[2], k[3]))
    rows = [r for r in rows if r + ("fatomic",) in ms and r + ("perlane",) in ms]
    if not rows:
        return []
    out = ["## Few active lanes\n",
           "`fmax` at one address, run only by the lowest 1, 2 or 4 lanes of each "
           "warp (the others skip the atomic): median ms per-lane and aggregated; "
           "speed-up = per-lane / aggregated (below 1: aggregation slower).  Every "
           "run's memory checked.\n",
           "| type | result | values | lanes | per-lane ms | aggregated ms | speed-up |",
           "|---|---|---|---:|---:|---:|---:|"]
    for ty, used, values, lanes in rows:
        p, f = ms[(ty, used, values, lanes, "perlane")], ms[(ty, used, values, lanes, "fatomic")]
        out.append(f"| {ty} | {'used' if used else 'unused'} | {values} | {lanes} | "
                   f"{fmt_ms(p)} | {fmt_ms(f)} | {p / f:.2f} |")
    out.append("")
    for lanes in sorted({r[3] for r in rows}):
        ups = [ms[r + ("perlane",)] / ms[r + ("fatomic",)] for r in rows if r[3] == lanes]
        out.append(f"- {lanes} active lane{'s' if lanes > 1 else ''}: per-lane / "
                   f"aggregated {min(ups):.2f}–{max(ups):.2f} in {len(ups)} cells.")
    out.append("")
    return out


def summarize(by_key, variant, label):
    """One sentence on the range of one variant's ratios, or None."""
    ratios = []
    for (ty, op, used, count, values, v), f in by_key.items():
        if v == variant:
            e = by_key.get((ty, op, used, count, values, "expand"))
            if e:
                ratios.append((f["ms_median"] / e["ms_median"], ty, op, used,
                               count, values))
    if ratios:
        ratios.sort()
        best, worst = ratios[0], ratios[-1]
        return (f"{label}: across the {len(ratios)} cases the ratio runs from "
                   f"{best[0]:.3f} ({best[1]} {best[2]}, "
                   f"{best[4]:,} addresses, {best[5]}, result "
                   f"{'used' if best[3] else 'unused'}) to {worst[0]:.3f} "
                   f"({worst[1]} {worst[2]}, {worst[4]:,} addresses, "
                   f"{worst[5]}, result {'used' if worst[3] else 'unused'}); "
                   f"{sum(1 for r in ratios if r[0] < 1)} cases are faster "
                   "than AtomicExpand.\n")
    return None


def render_pending():
    """The page before a GPU run: the method, and no figures."""
    cfg = {"threads": 1 << 20, "block": 256, "iters": 64, "nvals": 1 << 20,
           "runs": 5}
    return "\n".join([
        "# fatomic on NVIDIA GPUs through LLVM's NVPTX back end\n",
        "The LLVM pass against LLVM's own expansion of the same float atomic "
        "min/max (AtomicExpand's compare-exchange loop), compiled for sm_90 "
        "and run on one GPU.  Generated by `tools/nvptx/nvptx-report.py`.\n",
        METHOD.format(**cfg),
        "## Results\n",
        "Not recorded yet: no GPU run of the bundle has been made.  This page "
        "is rewritten with the device, the correctness results and the "
        "tables by the last command above.\n"])


def kept_notes(path):
    """The notes of an existing page at path, or None."""
    try:
        with open(path) as f:
            old = f.read()
    except OSError:
        return None
    if NOTES_BEGIN in old and NOTES_END in old:
        return old.split(NOTES_BEGIN, 1)[1].split(NOTES_END, 1)[0].strip("\n")
    return None


def main(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, description="Write docs/nvptx-performance.md from the "
        "results.json of nvptx-bench.py run.")
    parser.add_argument("results", nargs="?",
                        help="results.json of `nvptx-bench.py run`")
    parser.add_argument("--pending", action="store_true",
                        help="write the page without results (before a run)")
    parser.add_argument("-o", "--output", default="-",
                        help="Markdown file to write (default: stdout)")
    parser.add_argument("--log-name", help="where the run's files are kept, "
                        "named on the page")
    parser.add_argument("--allow-emulated", action="store_true",
                        help="accept the tests' emulated run (for testing "
                        "this script only)")
    args = parser.parse_args(argv)
    if bool(args.results) == args.pending:
        parser.error("give either RESULTS.json or --pending")
    try:
        text = render_pending() if args.pending else \
            render(load(args.results, args.allow_emulated), args.log_name)
    except Failure as e:
        print(f"{PROG}: error: {e}; nothing written", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(text)
    else:
        notes = kept_notes(args.output)
        if notes is not None:
            text = text.rstrip("\n") + f"\n\n{NOTES_BEGIN}\n{notes}\n{NOTES_END}\n"
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
