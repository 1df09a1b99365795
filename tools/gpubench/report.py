#!/usr/bin/env python3
"""Writes the GPU benchmark's report from gpubench-results.json.

    report.py RESULTS.json [RESULTS.json...] [--md docs/gpu-performance.md]
                           [--plot docs/gpu-performance.svg] [--no-plot]

The markdown has the method, the goal checks computed from the data (each
PASS or FAIL with its numbers), and one table of every cell x variant:
median ms, ratio to fatomic's default, ratio to the best legal hand-written
variant, and how many runs were wrong.  A wrong, failed or missing result
never counts as a time.  The text between the NOTES markers of an existing
markdown file is kept: that is where measured explanations go.

The plot (matplotlib; .svg or .png by the file name) shows the median time of
every variant in every cell, on a log scale.
"""
import argparse
import json
import math
import os
import sys

# The legal hand-written baselines (plain float bits in memory, except
# `encoded`, whose memory holds U(x)).  dispatcheo and cas are racy (a plain
# load races with the atomics) and are shown but never compared against.
HAND_LEGAL = ("encoded", "dispatch", "dispatcheoal", "casal", "casalways", "twoatomic")
RACY = ("dispatcheo", "cas")
FATOMIC = ("fatomic", "fatomic-helper", "fatomic-agg", "fatomic-cas", "fatomic-eo-off")

NOTES_BEGIN = "<!-- NOTES: hand-written, kept when the report is regenerated -->"
NOTES_END = "<!-- END NOTES -->"
NOTES_PLACEHOLDER = ("_To be written after the GPU run: for every goal that fails, the "
                     "measurements that show why and what would change it._")


def cell_of(r):
    return (r["width"], r["used"], r["values"], r["addrs"])


def cell_name(c):
    w, used, values, addrs = c
    return "f%d %s %s %s" % (w, "used" if used else "unused", values, addrs_name(addrs))


def addrs_name(a):
    if a >= 1 << 20 and a % (1 << 20) == 0:
        return "%dM" % (a >> 20) if a > 1 << 20 else "2^20"
    return str(a)


def load(paths):
    """The meta of the first file and the results of all, by cell."""
    meta = None
    cells = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        if meta is None:
            meta = data["meta"]
        else:
            for n, v in data["meta"]["variants"].items():
                meta["variants"].setdefault(n, v)
        for r in data["results"]:
            cells.setdefault(cell_of(r), {})[r["variant"]] = r
    return meta, cells


def time_of(r):
    """The median, or None unless every run of the task was checked correct."""
    if r is None or r.get("status") != "ok" or not r.get("median_ms"):
        return None
    return r["median_ms"]


def best_legal(vs):
    times = [(time_of(vs.get(n)), n) for n in HAND_LEGAL]
    times = [(t, n) for t, n in times if t is not None]
    return min(times) if times else (None, None)


def fmt_ms(t):
    if t is None:
        return "–"
    return "%.4g" % t if t < 1000 else "%.0f" % t


def fmt_x(x):
    return "–" if x is None else "%.2f×" % x


def headlines(cells):
    """Ranges of the ratios the README quotes, over the cells with data."""
    def spread(pairs):
        vals = sorted(a / b for a, b in pairs if a is not None and b is not None)
        if not vals:
            return None
        geo = math.exp(sum(math.log(v) for v in vals) / len(vals))
        return "%s to %s (geometric mean %s, %d cells)" % (fmt_x(vals[0]), fmt_x(vals[-1]),
                                                          fmt_x(geo), len(vals))

    def t(vs, n):
        return time_of(vs.get(n))
    items = sorted(cells.items())
    contended = [(c, vs) for c, vs in items if c[3] in (1, 1024) and c[2] == "rising"]
    lines = [
        ("casalways / fatomic, contended cells (1 and 1024 addresses, rising)",
         spread([(t(vs, "casalways"), t(vs, "fatomic")) for _, vs in contended])),
        ("casalways / fatomic, every cell",
         spread([(t(vs, "casalways"), t(vs, "fatomic")) for _, vs in items])),
        ("twoatomic / fatomic, every cell",
         spread([(t(vs, "twoatomic"), t(vs, "fatomic")) for _, vs in items])),
        ("fatomic / best legal hand-written, every cell",
         spread([(t(vs, "fatomic"), best_legal(vs)[0]) for _, vs in items])),
        ("fatomic-helper / fatomic (the atomic in a helper returning its value / in the "
         "loop), every cell",
         spread([(t(vs, "fatomic-helper"), t(vs, "fatomic")) for _, vs in items])),
        ("best legal hand-written / fatomic-agg (subgroup aggregation), every cell",
         spread([(best_legal(vs)[0], t(vs, "fatomic-agg")) for _, vs in items])),
        ("best legal hand-written / fatomic-h200-auto (the defaults on the H200's profile: "
         "aggregated except where the driver combines the atomic itself), every cell",
         spread([(best_legal(vs)[0], t(vs, "fatomic-h200-auto")) for _, vs in items])),
        ("fatomic-h200-auto / the faster of fatomic and fatomic-agg, every cell",
         spread([(t(vs, "fatomic-h200-auto"), min(t(vs, "fatomic"), t(vs, "fatomic-agg")))
                 for _, vs in items if t(vs, "fatomic") and t(vs, "fatomic-agg")])),
        ("encoded / fatomic, every cell",
         spread([(t(vs, "encoded"), t(vs, "fatomic")) for _, vs in items])),
        ("fatomic-eo-off / encoded, every cell",
         spread([(t(vs, "fatomic-eo-off"), t(vs, "encoded")) for _, vs in items])),
    ]
    return [(k, v) for k, v in lines if v]


def goals(cells):
    """Each goal: (title, passed, detail lines)."""
    out = []

    def check(title, rows, limit, better):
        """rows: (cell, value or None); passes when every value is on the
        right side of limit (better = 'le' or 'ge')."""
        if not rows:
            out.append((title, False, ["no cells with data"]))
            return
        bad = [(c, v) for c, v in rows if v is None or
               (v > limit if better == "le" else v < limit)]
        vals = [v for _, v in rows if v is not None]
        worst = (max(vals) if better == "le" else min(vals)) if vals else None
        detail = ["%d of %d cells meet it; worst %s" % (len(rows) - len(bad), len(rows),
                                                         fmt_x(worst))]
        for c, v in bad:
            detail.append("%s: %s" % (cell_name(c), "no valid data" if v is None else fmt_x(v)))
        out.append((title, not bad, detail))

    def ratio(a, b):
        return a / b if a is not None and b is not None else None

    rows = []
    for c, vs in sorted(cells.items()):
        rows.append((c, ratio(time_of(vs.get("fatomic")), best_legal(vs)[0])))
    check("fatomic (default) ≤ 1.05× the best legal hand-written variant, every cell",
          rows, 1.05, "le")

    rows = []
    for c, vs in sorted(cells.items()):
        if c[3] in (1, 1024) and c[2] == "rising":
            rows.append((c, ratio(time_of(vs.get("casalways")), time_of(vs.get("fatomic")))))
    check("fatomic ≥ 10× faster than casalways in the contended cells (1 and 1024 addresses, "
          "rising values)", rows, 10.0, "ge")

    rows = []
    for c, vs in sorted(cells.items()):
        rows.append((c, ratio(time_of(vs.get("twoatomic")), time_of(vs.get("fatomic")))))
    check("fatomic ≥ 2× faster than two-atomic, every cell", rows, 2.0, "ge")

    rows = []
    for c, vs in sorted(cells.items()):
        rows.append((c, ratio(time_of(vs.get("fatomic-eo-off")), time_of(vs.get("encoded")))))
    check("where early-out cannot apply (fatomic with early-out=off, the code emitted for "
          "Release semantics or volatile atomics) ≤ 1.2× encoded, every cell", rows, 1.2, "le")
    return out


def old_notes(path):
    if not path or not os.path.exists(path):
        return None
    text = open(path).read()
    if NOTES_BEGIN in text and NOTES_END in text:
        return text.split(NOTES_BEGIN, 1)[1].split(NOTES_END, 1)[0].strip("\n")
    return None


def markdown(meta, cells, plot_name, notes):
    L = []
    ops = meta["atomics_per_dispatch"]
    L.append("# GPU performance of the lowered float atomic max")
    L.append("")
    L.append("Generated by `tools/gpubench/report.py` from `gpubench-results.json` "
             "(`tools/gpubench/run-gpubench.sh run`); do not edit outside the notes section.")
    L.append("")
    L.append("| | |")
    L.append("|---|---|")
    L.append("| device | %s (%s) |" % (meta.get("device"), meta.get("device_type")))
    L.append("| driver | %s |" % meta.get("driver"))
    L.append("| date | %s |" % meta.get("date"))
    L.append("| fatomic | git %s |" % meta.get("git"))
    L.append("| dispatch | %d invocations × %d atomics = %d float atomic max per dispatch, "
             "workgroups of %d |" % (meta["invocations"], meta["iters"], ops, meta["local_size"]))
    L.append("| timing | GPU timestamps around the dispatch; median of %d timed runs after %d "
             "warm-up run(s)%s |" % (meta["repeat"], meta["warmup"],
                                     ", each task first run unchecked for %d ms so that it starts "
                                     "at the clocks of a busy GPU" % meta["settle_ms"]
                                     if meta.get("settle_ms") else ""))
    recorded = any("returned_checked" in r for vs in cells.values() for r in vs.values())
    L.append("| check | the final memory of every run (warm-up included) equals fatomic's "
             "reference model bit for bit%s, or the cell's time is not used |"
             % ("; where the result is used, one more run (untimed) records every returned "
                "value, and those must be linearizable" if recorded else ""))
    L.append("")
    L.append("Each invocation i runs k = 0..%d: address ((i·2654435761 + k·40503) >> 7) & mask, "
             "value vals[(i + 977k) mod n] (both signs, |v| in [1, 2048)), plus 4096·k for "
             "*rising* values, so that every round raises the maximum; memory starts at -inf. "
             "*used*: every result is added into an accumulator." % (meta["iters"] - 1))
    L.append("")
    L.append("| variant | what | legal |")
    L.append("|---|---|---|")
    for n, v in meta["variants"].items():
        legal = "yes" if v.get("legal") else "**no: racy plain load**"
        if v.get("control"):
            legal = ("not a lowering: must be reported wrong" +
                     (" where the result is used" if v.get("wrong_in") == "used" else ""))
        L.append("| `%s` | %s | %s |" % (n, v.get("what", ""), legal))
    L.append("")
    L.append("Best legal hand-written = the fastest correct of %s in that cell."
             % ", ".join("`%s`" % n for n in HAND_LEGAL))
    L.append("")

    L.append("## Headline ratios")
    L.append("")
    L.append("Time of the first over time of the second: above 1× the second is faster.")
    L.append("")
    for k, v in headlines(cells):
        L.append("- %s: %s" % (k, v))
    L.append("")
    L.append("## Goals")
    L.append("")
    for title, ok, detail in goals(cells):
        L.append("- **%s** %s: %s" % ("PASS" if ok else "FAIL", title, detail[0]))
        for d in detail[1:]:
            L.append("  - %s" % d)
    L.append("")

    L.append("## Notes")
    L.append("")
    L.append(NOTES_BEGIN)
    L.append(notes if notes is not None else NOTES_PLACEHOLDER)
    L.append(NOTES_END)
    L.append("")

    if plot_name:
        L.append("## Plot")
        L.append("")
        L.append("![median time of every variant in every cell](%s)" % plot_name)
        L.append("")

    L.append("## Every cell")
    L.append("")
    L.append("Ratios are time / time of the reference: below 1× is faster. "
             "*wrong* is the number of runs whose final memory differed from the reference.")
    L.append("")
    L.append("| cell | variant | median ms | Gatomic/s | vs fatomic | vs best legal | wrong |")
    L.append("|---|---|---:|---:|---:|---:|---|")
    for c, vs in sorted(cells.items()):
        ref = time_of(vs.get("fatomic"))
        best, best_name = best_legal(vs)
        for n in meta["variants"]:
            r = vs.get(n)
            if r is None:
                continue
            t = time_of(r)
            name = "`%s`%s" % (n, " (racy)" if n in RACY else
                                " (negative control)" if meta["variants"][n].get("control") else "")
            if n == best_name:
                name += " (best legal)"
            wrong = r.get("wrong_runs")
            status = r.get("status")
            if status == "ok":
                wrong_s = "0"
            elif status == "wrong" and not wrong and r.get("returned_wrong_addrs"):
                wrong_s = "**returned values** (%s addresses not linearizable)" % (
                    r["returned_wrong_addrs"])
            elif status == "wrong" and not wrong:
                wrong_s = "**the recording run**: %s" % r.get("message", "")
            elif status == "wrong":
                wrong_s = "**%s of %s runs** (%s addresses)" % (wrong, len(r.get("ms", [])) +
                                                               len(r.get("warmup_ms", [])),
                                                               r.get("wrong_addrs"))
            else:
                wrong_s = "**%s**: %s" % (status, r.get("message", ""))
            L.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                cell_name(c), name, fmt_ms(t),
                "%.3f" % (ops / t / 1e6) if t else "–",
                fmt_x(t / ref if t and ref else None),
                fmt_x(t / best if t and best else None), wrong_s))
    L.append("")
    return "\n".join(L)


def plot(meta, cells, path):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "fatomic-gpubench"
    import matplotlib.pyplot as plt

    names = [n for n, v in meta["variants"].items() if not v.get("control")]
    widths = sorted({c[0] for c in cells})
    fig, axes = plt.subplots(len(widths), 1, figsize=(18, 5.5 * len(widths)), squeeze=False)
    cmap = plt.get_cmap("tab20")
    for ax, w in zip(axes[:, 0], widths):
        cs = sorted(c for c in cells if c[0] == w)
        n = len(names)
        bar = 0.8 / n
        for i, name in enumerate(names):
            xs, ys, wrong_x = [], [], []
            for j, c in enumerate(cs):
                r = cells[c].get(name)
                t = time_of(r)
                x = j + (i - (n - 1) / 2) * bar
                if t is not None:
                    xs.append(x)
                    ys.append(t)
                elif r is not None:
                    wrong_x.append(x)
            style = dict(hatch="//", edgecolor="black", linewidth=0.3) if name in RACY else {}
            ax.bar(xs, ys, width=bar, color=cmap(i % 20), label=name + (" (racy)" if name in RACY else ""),
                   **style)
            # A cell without a valid time (wrong, failed, missing): a red x
            # on the axis.
            if wrong_x:
                ax.plot(wrong_x, [0.02] * len(wrong_x), "rx", markersize=7,
                        transform=ax.get_xaxis_transform())
        ax.set_yscale("log")
        ax.set_xticks(range(len(cs)))
        ax.set_xticklabels(["%s\n%s\n%s" % ("used" if c[1] else "unused", c[2], addrs_name(c[3]))
                            + " addr" for c in cs], fontsize=8)
        ax.set_ylabel("median ms per dispatch (log)")
        ax.set_title("f%d: %d float atomic max per dispatch, %s" % (w, meta["atomics_per_dispatch"],
                                                                   meta.get("device")))
        ax.grid(axis="y", which="both", linewidth=0.3, alpha=0.5)
        ax.legend(ncol=6, fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    here = os.path.dirname(os.path.abspath(__file__))
    docs = os.path.join(os.path.dirname(os.path.dirname(here)), "docs")
    ap.add_argument("results", nargs="+",
                    help="gpubench-results.json (several: runs of parts of the matrix on one "
                         "device, merged; the first one's description is used)")
    ap.add_argument("--md", default=os.path.join(docs, "gpu-performance.md"))
    ap.add_argument("--plot", default=os.path.join(docs, "gpu-performance.svg"),
                    help=".svg or .png")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not print the goal checks")
    args = ap.parse_args()
    try:
        meta, cells = load(args.results)
    except (OSError, ValueError, KeyError) as e:
        sys.exit("report.py: error: cannot read %s: %s" % (args.results, e))
    if not cells:
        sys.exit("report.py: error: %s has no results" % args.results)
    plot_name = None
    if not args.no_plot:
        plot(meta, cells, args.plot)
        plot_name = os.path.relpath(args.plot, os.path.dirname(os.path.abspath(args.md)))
    text = markdown(meta, cells, plot_name, old_notes(args.md))
    with open(args.md, "w") as f:
        f.write(text)
    print("report.py: wrote %s%s" % (args.md, "" if args.no_plot else " and " + args.plot))
    if args.quiet:
        return
    for k, v in headlines(cells):
        print("%s: %s" % (k, v))
    for title, ok, detail in goals(cells):
        print("%s  %s: %s" % ("PASS" if ok else "FAIL", title, detail[0]))


if __name__ == "__main__":
    main()
