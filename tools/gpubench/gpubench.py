#!/usr/bin/env python3
"""GPU benchmark of float atomic max: fatomic's lowering against hand-written
integer code, on a Vulkan device.

    gpubench.py prepare --out DIR [--build-dir BUILD]
        Generates every variant's GLSL (variants.py) for f32/f64 and result
        used/unused, compiles it with glslangValidator --target-env vulkan1.2,
        lowers the plain atomicMax shader with BUILD/bin/fatomic-opt
        (--lower-float-atomic-minmax, =strategy=cas, =early-out=off), checks
        every module with spirv-val --target-env vulkan1.2 and for pointer
        OpBitcasts (test/utils/validate_spv.py), and writes DIR/manifest.json.

    gpubench.py run --bundle DIR --out OUTDIR [--quick] [size and matrix options]
        Runs the matrix with DIR/bin/fatomic-gpubench (or BUILD/bin/... with
        --build-dir) on the first discrete GPU (else integrated, virtual, CPU):
        every cell (f32/f64 x result used/unused x addresses x random/rising
        values) with every variant, --warmup + --repeat dispatches each, each
        dispatch's final memory checked bit-exactly against fatomic's
        reference model before its GPU-timestamp time counts; in the cells
        whose result is used, one more untimed run records every returned
        value, which must be linearizable (MaxHistory.h).  Writes
        OUTDIR/gpubench-results.json and the text log OUTDIR/gpubench.log;
        progress goes to stderr.  Needs only python3 and the bundle (no
        glslang or SPIR-V tools).  A dispatch that exceeds --timeout, or a
        crash, is recorded for its task, and the rest of the plan goes on in a
        fresh process.

    gpubench.py check --build-dir BUILD --work DIR
        The test: prepare, then run a small matrix (correctness only; the
        negative controls must be reported wrong: control-umax in every
        cell, control-returns-operand where the result is used), then write the report
        (report.py) from those results into DIR.

Exit status: 0 every task ok, 1 a task wrong, failed, timed out or
unsupported (or a usage error), 2 the runner could not start on a device.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import variants as V  # noqa: E402

FULL = dict(invocations=1 << 20, iters=64, repeat=5, warmup=1, timeout=30, settle_ms=250)
QUICK = dict(invocations=1 << 14, iters=16, repeat=5, warmup=1, timeout=60, settle_ms=0)
ADDRS = (1, 1024, 1 << 20)
VALUES = ("random", "rising")
RESULTS = ("unused", "used")


def say(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def die(msg, code=1):
    say("gpubench: error: " + msg)
    sys.exit(code)


# ---------------------------------------------------------------- prepare --

def tool(build_dir, name, env_var=None):
    if env_var and os.environ.get(env_var):
        return os.environ[env_var]
    if build_dir:
        p = os.path.join(build_dir, "bin", name)
        if os.path.exists(p):
            return p
    p = shutil.which(name)
    if not p:
        die("%s not found" % name)
    return p


def run_cmd(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (exit %d):\n%s%s" % (" ".join(cmd), p.returncode,
                                                           p.stdout, p.stderr))
    return p.stdout


def git_describe():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+changes" if dirty else "") if head else "unknown"
    except OSError:
        return "unknown"


def static_check(spv, lowered):
    """spirv-val for vulkan1.2 and the pointer-bitcast check; lowered modules
    must hold no float min/max atomic any more."""
    sys.path.insert(0, os.path.join(ROOT, "test", "utils"))
    import validate_spv
    err = validate_spv.check("vulkan1.2", spv)
    if err:
        raise RuntimeError(err)
    if lowered:
        dis = run_cmd([os.environ.get("SPIRV_DIS", "spirv-dis"), spv])
        for bad in ("OpAtomicFMinEXT", "OpAtomicFMaxEXT", "AtomicFloat32MinMaxEXT",
                    "AtomicFloat64MinMaxEXT", "SPV_EXT_shader_atomic_float_min_max"):
            if bad in dis:
                raise RuntimeError("%s still contains %s" % (spv, bad))


def prepare(args):
    out = os.path.abspath(args.out)
    glslang = tool(None, "glslangValidator", "GLSLANG")
    fopt = tool(args.build_dir, "fatomic-opt", "FATOMIC_OPT")
    os.environ.setdefault("SPIRV_VAL", tool(None, "spirv-val"))
    os.environ.setdefault("SPIRV_DIS", tool(None, "spirv-dis"))
    for d in ("src", "spv"):
        os.makedirs(os.path.join(out, d), exist_ok=True)

    names = list(V.VARIANTS) + list(V.CONTROLS)
    keys = [(w, used) for w in V.WIDTHS for used in (False, True)]
    manifest = {"variants": {}, "controls": {}, "local_size": V.LOCAL_SIZE,
                "order": [n for n, p in V.VARIANTS.items() if not p.get("probe")],
                "git": git_describe(), "commands": [],
                "prepared": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "tools": {"glslangValidator": run_cmd([glslang, "--version"]).splitlines()[0],
                          "spirv-val": run_cmd([os.environ["SPIRV_VAL"], "--version"]).splitlines()[0]}}
    jobs = []   # (kind, variant, key, cmd, spv, lowered)
    for w, used in keys:
        key = V.cell_key(w, used)
        srcs = {}
        for name in names:
            props = V.properties(name)
            src_name = V.source_name(name)
            if src_name in srcs:
                continue
            comp = os.path.join(out, "src", "%s_%s.comp" % (src_name, key))
            with open(comp, "w") as f:
                f.write(V.glsl(name, w, used))
            spv = os.path.join(out, "spv", "%s_%s.spv" % (src_name, key))
            srcs[src_name] = spv
            jobs.append(("compile", src_name, key,
                         [glslang, "--target-env", "vulkan1.2", "-V", comp, "-o", spv], spv,
                         False))
    lower_jobs = []
    for w, used in keys:
        key = V.cell_key(w, used)
        for name, props in V.VARIANTS.items():
            if props["kind"] != "fatomic":
                continue
            src = os.path.join(out, "spv", "%s_%s.spv" % (V.source_name(name), key))
            spv = os.path.join(out, "spv", "%s_%s.spv" % (name, key))
            flag = "--lower-float-atomic-minmax" + ("=" + props["lower"] if props["lower"] else "")
            profile = (["--target-profile=" + os.path.join(ROOT, props["profile"])]
                       if props.get("profile") else [])
            lower_jobs.append(("lower", name, key,
                               [fopt, "--target-env=vulkan1.2", *profile, src, flag, "-o", spv],
                               spv, True))

    def do(job):
        kind, name, key, cmd, spv, lowered = job
        run_cmd(cmd)
        static_check(spv, lowered)
        return job

    failures = []
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        for batch in (jobs, lower_jobs):
            for fut in [pool.submit(do, j) for j in batch]:
                try:
                    fut.result()
                except RuntimeError as e:
                    failures.append(str(e))
            if failures:
                break
    if failures:
        for f in failures:
            say(f)
        die("prepare failed (%d errors)" % len(failures))

    for name in names:
        props = dict(V.properties(name))
        props["spv"] = {V.cell_key(w, used): os.path.join("spv", "%s_%s.spv" % (name, V.cell_key(w, used)))
                        for w, used in keys}
        (manifest["variants"] if name in V.VARIANTS else manifest["controls"])[name] = props
    def shown(arg):
        if arg.startswith(out):
            return os.path.relpath(arg, out)
        if arg.startswith("--target-profile=" + ROOT + os.sep):
            return "--target-profile=" + os.path.relpath(arg.split("=", 1)[1], ROOT)
        return os.path.basename(arg) if os.path.isabs(arg) else arg
    manifest["commands"] = [" ".join(shown(c) for c in job[3]) for job in jobs + lower_jobs]
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    say("gpubench: %d modules compiled, %d lowered, all valid for vulkan1.2: %s"
        % (len(jobs), len(lower_jobs), out))
    return 0


# -------------------------------------------------------------------- run --

def parse_list(text, conv=str):
    return [conv(x) for x in text.split(",") if x]


def make_tasks(args, variant_names):
    tasks = []
    for w in args.widths:
        for values in args.values:
            for addrs in args.addrs:
                for res in args.results:
                    for name in variant_names:
                        tasks.append(dict(id=len(tasks), width=w, used=res == "used",
                                          values=values, addrs=addrs, variant=name))
    return tasks


def read_events(path, offset):
    with open(path) as f:
        f.seek(offset)
        text = f.read()
        end = f.tell()
    events = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            try:
                events.append(json.loads(line))
            except ValueError:
                pass   # a line cut by a crash
    return events, end


def run_plan(args, bench, bundle, manifest, tasks, log, deadline, record=False, total=None):
    """Runs \\p tasks, restarting the runner after a timeout or crash, and
    stopping it at \\p deadline (time.monotonic(), or None).  With \\p record,
    each task's recording run instead of its timed runs; \\p total: the
    number of tasks that progress lines count to.  Returns (device
    event or None, {task id: result}, exit status of a runner that ran
    nothing)."""
    results = {}
    device = None
    out = os.path.abspath(args.out)
    suffix = "-record" if record else ""
    plan_path = os.path.join(out, "gpubench-plan%s.json" % suffix)
    events_path = os.path.join(out, "gpubench-events%s.jsonl" % suffix)
    open(events_path, "w").close()
    offset = 0
    pending = list(tasks)
    variants = dict(manifest["variants"])
    variants.update(manifest.get("controls", {}))
    restarts = 0
    while pending:
        plan = dict(invocations=args.invocations, iters=args.iters, local_size=manifest["local_size"],
                    vals=args.invocations, seed=args.seed, warmup=args.warmup, repeat=args.repeat,
                    settle_ms=args.settle_ms, timeout_s=args.timeout,
                    total_tasks=total or len(tasks),
                    record=record,
                    variants={n: dict(memory=variants[n]["memory"],
                                      spv={k: os.path.join(bundle, p) for k, p in variants[n]["spv"].items()})
                              for n in sorted({t["variant"] for t in pending})},
                    tasks=pending)
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        cmd = [bench, plan_path, events_path]
        if args.device is not None:
            cmd[1:1] = ["--device", str(args.device)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        over_budget = threading.Event()

        def stop():
            over_budget.set()
            proc.kill()
        timer = None
        if deadline is not None:
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), stop)
            timer.start()
        tail = []
        for line in proc.stdout:
            sys.stderr.write(line)
            sys.stderr.flush()
            log.write(line)
            log.flush()
            tail = (tail + [line.rstrip("\n")])[-20:]
        rc = proc.wait()
        if timer is not None:
            timer.cancel()
        events, offset = read_events(events_path, offset)
        started = None
        timeout_event = None
        for e in events:
            if e.get("event") == "device":
                device = e
            elif e.get("event") == "start":
                started = e["task"]
            elif e.get("event") == "result":
                results[e["task"]] = e
                started = None
            elif e.get("event") == "timeout":
                timeout_event = e
        if rc == 0 and started is None:
            missing = [t for t in pending if t["id"] not in results]
            for t in missing:
                results[t["id"]] = dict(task=t["id"], status="error", message="runner skipped it")
            break
        # Killed for the budget, whether or not a task had started.
        if over_budget.is_set():
            say("gpubench: the time budget (--budget %d s) is spent; stopping" % args.budget)
            for t in pending:
                if t["id"] not in results:
                    results[t["id"]] = dict(task=t["id"], status="not run",
                                            message="the time budget (--budget %d s) was spent"
                                                    % args.budget)
            break
        if started is None:
            # Failed before or between tasks: nothing to blame; give up.
            for t in pending:
                if t["id"] not in results:
                    results[t["id"]] = dict(task=t["id"], status="error",
                                            message="runner exited %d: %s" % (rc, " | ".join(tail[-3:])))
            if not results or all(r["status"] == "error" for r in results.values()):
                return device, results, rc
            break
        if timeout_event is not None and timeout_event["task"] == started:
            results[started] = dict(task=started, status="timeout",
                                    message="a dispatch took longer than %d s (run %d)"
                                            % (args.timeout, timeout_event["run"]))
        else:
            results[started] = dict(task=started, status="crash",
                                    message="runner exited %d: %s" % (rc, " | ".join(tail[-3:])))
        pending = [t for t in pending if t["id"] not in results]
        restarts += 1
        if restarts > args.max_restarts:
            for t in pending:
                results[t["id"]] = dict(task=t["id"], status="error", message="not run: too many restarts")
            break
        if pending:
            say("gpubench: restarting the runner for the %d remaining tasks" % len(pending))
    return device, results, 0


def merge_recorded(results, recorded, budget):
    """Adds each recording run's verdict to its task's result: a wrong or
    failed recording run makes the task wrong or failed; one the time budget
    left out leaves the task as it was, its returned values unchecked."""
    for tid, rec in recorded.items():
        r = results[tid]
        status = rec.get("status")
        if status == "not run":
            why = "returned values not checked: the time budget (--budget %d s) was spent" % budget
        elif status == "ok":
            why = ""
        else:
            r["status"] = status
            why = "recording run: %s: %s" % (status, rec.get("message", ""))
        if "returned_checked" in rec:
            r["returned_checked"] = rec["returned_checked"]
            r["returned_wrong_addrs"] = rec["returned_wrong_addrs"]
        if why:
            r["message"] = (r.get("message") + "; " if r.get("message") else "") + why


def control_verdict_right(row):
    """Whether a negative control's task came out as it must: wrong in the
    cells its wrong_in names (for "used": where the returned values were
    checked), ok in the others."""
    must_fail = (V.CONTROLS[row["variant"]]["wrong_in"] == "every" or
                 (row["used"] and "returned_checked" in row))
    return row["status"] == ("wrong" if must_fail else "ok")


def summary_lines(rows, ops):
    """Text table in the shape of the anchors' logs."""
    lines = []
    by_cell = {}
    for r in rows:
        by_cell.setdefault((r["width"], r["used"], r["values"], r["addrs"]), []).append(r)
    for cell, rs in by_cell.items():
        ref = next((r for r in rs if r["variant"] == "fatomic" and r.get("median_ms")), None)
        for r in rs:
            ms = r.get("median_ms")
            line = "f%-2d %-15s result=%-6s values=%-6s addrs=%-8d %-11s" % (
                r["width"], r["variant"], "used" if r["used"] else "unused", r["values"],
                r["addrs"], r["status"])
            if ms:
                line += " ms=%10.4f Gatom/s=%9.3f" % (ms, ops / ms / 1e6)
                if ref:
                    line += " vs_fatomic=%7.2fx" % (ms / ref["median_ms"])
            if r["status"] != "ok":
                line += " wrong_runs=%s wrong_addrs=%s %s" % (r.get("wrong_runs", "-"),
                                                             r.get("wrong_addrs", "-"),
                                                             r.get("message", ""))
            lines.append(line)
    return lines


def run(args):
    for k, v in (QUICK if args.quick else FULL).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    if args.invocations % V.LOCAL_SIZE:
        die("--invocations must be a multiple of %d" % V.LOCAL_SIZE)
    if args.repeat < 1 or args.iters < 1 or args.timeout < 1:
        die("--repeat, --iters and --timeout must be positive")
    bundle = os.path.abspath(args.bundle)
    mpath = os.path.join(bundle, "manifest.json")
    if not os.path.exists(mpath):
        die("%s not found: run 'gpubench.py prepare --out %s' (or run-gpubench.sh bundle) first"
            % (mpath, args.bundle))
    with open(mpath) as f:
        manifest = json.load(f)
    bench = args.bench or os.path.join(bundle, "bin", "fatomic-gpubench")
    if not os.path.exists(bench) and args.build_dir:
        bench = os.path.join(args.build_dir, "bin", "fatomic-gpubench")
    if not os.path.exists(bench):
        die("fatomic-gpubench not found (give --bench or --build-dir)")
    names = args.variants or manifest.get("order", sorted(manifest["variants"]))
    for n in names:
        if n not in manifest["variants"] and n not in manifest.get("controls", {}):
            die("unknown variant '%s' (the bundle has: %s)" % (n, ", ".join(manifest["variants"])))
    if args.control:
        names = names + [n for n in manifest.get("controls", {}) if n not in names]
    tasks = make_tasks(args, names)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    ops = args.invocations * args.iters
    log_path = os.path.join(out, "gpubench.log")
    started = time.time()
    with open(log_path, "w") as log:
        header = ["== fatomic GPU benchmark: %s on %s" % (
                      datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                      socket.gethostname()),
                  "== %d invocations x %d iterations = %d atomics per dispatch; %d ms of settling, "
                  "%d warm-up + %d timed runs per task; timeout %d s per dispatch" % (
                      args.invocations, args.iters, ops, args.settle_ms, args.warmup,
                      args.repeat, args.timeout),
                  "== %d tasks: widths %s, results %s, values %s, addrs %s, variants %s" % (
                      len(tasks), args.widths, args.results, args.values, args.addrs, " ".join(names)),
                  "== bundle %s (git %s)" % (bundle, manifest.get("git"))]
        for h in header:
            say(h)
            log.write(h + "\n")
        deadline = time.monotonic() + args.budget if args.budget > 0 else None
        device, results, rc = run_plan(args, bench, bundle, manifest, tasks, log, deadline)
        # The used tasks' returned values, in a pass of their own (the
        # runner's header says why), for the tasks whose timed runs passed.
        used = [t for t in tasks if t["used"] and results.get(t["id"], {}).get("status") == "ok"]
        if used and not args.no_record:
            if deadline is not None and time.monotonic() >= deadline:
                recorded = {t["id"]: dict(task=t["id"], status="not run") for t in used}
            else:
                say("== recording runs: the returned values of %d used tasks" % len(used))
                log.write("== recording runs: the returned values of %d used tasks\n" % len(used))
                _, recorded, _ = run_plan(args, bench, bundle, manifest, used, log, deadline,
                                          record=True, total=len(tasks))
            merge_recorded(results, recorded, args.budget)
        rows = []
        for t in tasks:
            r = results.get(t["id"], dict(status="error", message="no result"))
            row = dict(width=t["width"], used=t["used"], values=t["values"], addrs=t["addrs"],
                       variant=t["variant"], status=r.get("status"), median_ms=r.get("median_ms"),
                       ms=r.get("ms", []), warmup_ms=r.get("warmup_ms", []), settle_runs=r.get("settle_runs"),
                       wrong_runs=r.get("wrong_runs"), wrong_addrs=r.get("wrong_addrs"),
                       message=r.get("message", ""))
            if r.get("shader_stats"):
                row["shader_stats"] = r["shader_stats"]
            if "returned_checked" in r:
                row["returned_checked"] = r["returned_checked"]
                row["returned_wrong_addrs"] = r["returned_wrong_addrs"]
            rows.append(row)
        elapsed = time.time() - started
        variants_meta = dict(manifest["variants"])
        variants_meta.update(manifest.get("controls", {}))
        meta = dict(date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    host=socket.gethostname(), platform=platform.platform(),
                    device=device.get("device") if device else None,
                    device_type=device.get("type") if device else None,
                    driver=device.get("driver") if device else None,
                    shader_statistics=device.get("shader_statistics") if device else None,
                    invocations=args.invocations, iters=args.iters, atomics_per_dispatch=ops,
                    warmup=args.warmup, settle_ms=args.settle_ms, repeat=args.repeat,
                    timeout_s=args.timeout, seed=args.seed,
                    local_size=manifest["local_size"], quick=bool(args.quick), elapsed_s=round(elapsed, 1),
                    git=manifest.get("git"), tools=manifest.get("tools"),
                    initial_memory="-inf", op="max",
                    variants={n: {k: v for k, v in variants_meta[n].items() if k != "spv"}
                              for n in names})
        with open(os.path.join(out, "gpubench-results.json"), "w") as f:
            json.dump(dict(meta=meta, results=rows), f, indent=1)
        lines = summary_lines(rows, ops)
        counts = {}
        for r in rows:
            if r["variant"] in V.CONTROLS:
                continue
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        controls = [r for r in rows if r["variant"] in V.CONTROLS]
        controls_caught = sum(1 for r in controls if control_verdict_right(r))
        verdict = ["== device: %s (%s)" % (meta["device"], meta["driver"]),
                   "== %s in %.0f s" % (", ".join("%d %s" % (n, s) for s, n in sorted(counts.items())),
                                        elapsed)]
        unchecked = [r for r in rows if r["variant"] not in V.CONTROLS and r["used"] and
                     r["status"] == "ok" and "returned_checked" not in r]
        if unchecked:
            verdict.append("== returned values of %d used tasks not checked%s"
                           % (len(unchecked), " (--no-record)" if args.no_record else
                              " (the time budget was spent)"))
        recorded = [r for r in rows if r["variant"] not in V.CONTROLS and "returned_checked" in r]
        if recorded:
            verdict.append("== returned values of %d used tasks checked (%d operations each): "
                           "%d with addresses not linearizable"
                           % (len(recorded), recorded[0]["returned_checked"],
                              sum(1 for r in recorded if r["returned_wrong_addrs"])))
        if controls:
            verdict.append("== negative controls as expected (wrong where they must be, "
                           "ok where nothing checks what they break) in %d of %d tasks"
                           % (controls_caught, len(controls)))
        for line in ["", "== summary (median of %d timed runs)" % args.repeat] + lines + verdict:
            log.write(line + "\n")
        for line in verdict:
            say(line)
    say("gpubench: wrote %s and %s" % (os.path.join(out, "gpubench-results.json"), log_path))
    if device is None and rc:
        return 2
    bad = any(r["status"] != "ok" for r in rows if r["variant"] not in V.CONTROLS)
    if controls and controls_caught != len(controls):
        say("gpubench: error: a negative control was not reported as expected")
        bad = True
    return 1 if bad else 0


def check(args):
    """prepare + a small run of every variant (probes included) with the
    negative control + the report."""
    work = os.path.abspath(args.work)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    pargs = argparse.Namespace(out=os.path.join(work, "bundle"), build_dir=args.build_dir)
    rc = prepare(pargs)
    if rc:
        return rc
    rargs = build_parser().parse_args(
        ["run", "--bundle", pargs.out, "--out", os.path.join(work, "out"),
         "--build-dir", args.build_dir, "--invocations", str(args.invocations),
         "--iters", str(args.iters), "--repeat", str(args.repeat), "--warmup", "0",
         "--timeout", "120", "--control", "--variants", ",".join(V.VARIANTS)])
    rc = run(rargs)
    if rc:
        return rc
    report = [sys.executable, os.path.join(HERE, "report.py"),
              os.path.join(work, "out", "gpubench-results.json"),
              "--md", os.path.join(work, "gpu-performance.md"),
              "--plot", os.path.join(work, "gpu-performance.svg"), "--quiet"]
    p = subprocess.run(report)
    if p.returncode != 0:
        die("report.py failed (exit %d)" % p.returncode)
    for f in ("gpu-performance.md", "gpu-performance.svg"):
        if os.path.getsize(os.path.join(work, f)) == 0:
            die("report.py wrote an empty %s" % f)
    say("gpubench: check passed; report in %s" % work)
    return 0


def build_parser():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare", help="generate, compile, lower and validate every variant")
    p.add_argument("--out", required=True, help="bundle directory to write")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                   help="build tree holding bin/fatomic-opt (default: build/)")
    r = sub.add_parser("run", help="run the matrix on a Vulkan device")
    r.add_argument("--bundle", required=True, help="directory written by prepare")
    r.add_argument("--out", required=True, help="where results and the log go")
    r.add_argument("--bench", help="fatomic-gpubench binary (default: BUNDLE/bin)")
    r.add_argument("--build-dir", help="fallback location of bin/fatomic-gpubench")
    r.add_argument("--quick", action="store_true",
                   help="small dispatches: %(invocations)d invocations x %(iters)d iterations" % QUICK)
    r.add_argument("--invocations", type=int, help="invocations per dispatch (default 2^20)")
    r.add_argument("--iters", type=int, help="atomics per invocation (default 64)")
    r.add_argument("--repeat", type=int, help="timed runs per task (default 5); the median counts")
    r.add_argument("--warmup", type=int, help="untimed runs before them (default 1)")
    r.add_argument("--settle-ms", type=int,
                   help="before each task, its dispatch run unchecked back to back for this "
                        "many ms, so that every task starts at the clocks of a busy GPU "
                        "(default 250; --quick: 0)")
    r.add_argument("--timeout", type=int, help="seconds one dispatch may take (default 30)")
    r.add_argument("--seed", type=int, default=1, help="seed of the values (default 1)")
    r.add_argument("--device", type=int, help="Vulkan device index (default: first discrete GPU)")
    r.add_argument("--widths", type=lambda s: parse_list(s, int), default=list(V.WIDTHS),
                   help="32,64")
    r.add_argument("--results", type=parse_list, default=list(RESULTS),
                   help="used,unused")
    r.add_argument("--values", type=parse_list, default=list(VALUES), help="random,rising")
    r.add_argument("--addrs", type=lambda s: parse_list(s, int), default=list(ADDRS),
                   help="powers of two (default 1,1024,1048576)")
    r.add_argument("--variants", type=parse_list, help="comma-separated (default: all)")
    r.add_argument("--control", action="store_true",
                   help="also run the negative controls, which must be reported wrong")
    r.add_argument("--no-record", action="store_true",
                   help="skip the recording runs that check the used tasks' returned values")
    r.add_argument("--max-restarts", type=int, default=20)
    r.add_argument("--budget", type=int, default=540,
                   help="stop after this many seconds of wall time and write the results "
                        "so far, the rest marked 'not run' (default 540; 0: none)")
    c = sub.add_parser("check", help="prepare + small correctness-only run + report (the ctest)")
    c.add_argument("--build-dir", required=True)
    c.add_argument("--work", required=True)
    c.add_argument("--invocations", type=int, default=4096)
    c.add_argument("--iters", type=int, default=16)
    c.add_argument("--repeat", type=int, default=2)
    return ap


def main():
    args = build_parser().parse_args()
    if args.cmd == "run":
        for a in args.addrs:
            if a < 1 or a & (a - 1):
                die("--addrs: %d is not a power of two" % a)
        for v in args.values:
            if v not in VALUES:
                die("--values: '%s' is not random or rising" % v)
        for w in args.widths:
            if w not in V.WIDTHS:
                die("--widths: %d is not 32 or 64" % w)
        for res in args.results:
            if res not in RESULTS:
                die("--results: '%s' is not used or unused" % res)
    return {"prepare": prepare, "run": run, "check": check}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
