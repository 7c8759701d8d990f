"""python -m benchmarks: every step of the three example programs (the CNN
block in f32 and in bf16, and in f32 at bf16's batch, the LSTM training
step) and each whole iteration, and the examples' convolution backward data
(which they do not run: its goal is in issue 11),
for each ISA level this CPU has and each thread count, cydnnl against the
real oneDNN (ONEDNN_PREFIX) and PyTorch (where `import torch` works), with
GFLOP/s against the f32 peak measured here; then, once, the time to create
each example's primitives against one of its iterations and its peak memory
against oneDNN's own program's (bench_footprint.py). Prints the table, writes
it as JSON and draws the ratios as a PNG.

    ONEDNN_PREFIX=/tmp/onednn32 PYTHONPATH=. /tmp/lstmbench-venv/bin/python \\
        -m benchmarks [--levels avx2,avx512_core] [--threads 1,2] [--repeat 7]
        [--min-time 0.2] [--quick]

Each (level, thread count) runs bench_cnn_block.py, bench_lstm.py and
bench_convolution.py in child processes of their own: ONEDNN_MAX_CPU_ISA is fixed once per process,
and OMP_NUM_THREADS sets every library's threads.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_footprint  # noqa: E402
import common  # noqa: E402
import report  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", help="comma-separated ISA levels (default: every one of "
                        "%s this CPU has)" % ", ".join(common.KERNEL_LEVELS))
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts "
                        "(OMP_NUM_THREADS; default 1,2)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per step")
    parser.add_argument("--warmup", type=int, default=2, help="untimed runs first")
    parser.add_argument("--min-time", type=float, default=0.2, metavar="SECONDS",
                        help="short steps run more often, until their timed runs add up to "
                             "this many seconds (%d runs at most; default %%(default)s)"
                        % common.MAX_RUNS)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke test: --repeat 3 --warmup 1 --min-time 0")
    parser.add_argument("--json", default="benchmarks-results.json",
                        help="the raw numbers and implementation names (default: %(default)s)")
    parser.add_argument("--png", default="benchmarks-results.png",
                        help="the chart of oneDNN's time / ours (default: %(default)s)")
    parser.add_argument("--from-json", metavar="FILE",
                        help="measure nothing: print the table and draw the PNG again from "
                             "a JSON file this command wrote")
    parser.add_argument("--log", help="the scripts' own output goes here (default: dropped; "
                        "a failing script's end is in the table and the JSON)")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.warmup, args.min_time = 3, 1, 0.0
    if args.repeat < 1 or args.warmup < 0 or args.min_time < 0:
        parser.error("--repeat must be >= 1, --warmup and --min-time >= 0")
    args.threads = [int(t) for t in args.threads.split(",")]
    return args


def run_all(args, levels, log):
    """Every (level, threads): the peak (measured once per vector width and
    thread count: the avx512 levels share one) and each script's results or
    error."""
    peaks, runs = {}, []
    total, n = len(levels) * len(args.threads) * len(report.SCRIPTS), 0
    for level in levels:
        for threads in args.threads:
            key = (tuple(common.peak_flags(level)), threads)
            if key not in peaks:
                peaks[key] = common.measure_peak(threads, level)
            peak, what = peaks[key]
            run = {"level": level, "threads": threads, "peak_gflops": peak,
                   "peak_what": what, "scripts": {}}
            env = dict(os.environ, OMP_NUM_THREADS=str(threads))
            for script in report.SCRIPTS:
                n += 1
                argv = ["--isa", level, "--repeat", str(args.repeat), "--warmup",
                        str(args.warmup), "--min-time", str(args.min_time)]
                if script == "bench_lstm.py" and peak:
                    argv += ["--peak", "%.3f" % peak]
                if script == "bench_convolution.py":   # the CNN block times the others
                    argv += ["--directions", "backward data"]
                t0 = time.time()
                res, status, output, load = common.run_json(script, argv, log, env)
                error = None
                if res is None:
                    tail = [ln for ln in output.strip().splitlines() if ln.strip()][-1:]
                    error = "%s exited with %d: %s" % (script, status, " ".join(tail))
                print("[%d/%d] %s, %d thread(s), %s: %s (%.0f s, load %.2f -> %.2f)"
                      % (n, total, level, threads, script, "error" if error else "done",
                         time.time() - t0, *load), file=sys.stderr, flush=True)
                run["scripts"][script] = {"status": status, "error": error, "load": load,
                                          "results": res,
                                          "output_tail": output[-3000:] if error else None}
            runs.append(run)
    return runs


def measure(args):
    """Runs every level and thread count; (meta, runs) as the JSON holds them."""
    levels = common.machine_levels()
    if args.levels:
        # a level the CPU lacks would run lower in the scripts, and the peak's
        # instructions would fault here
        wrong = [lv for lv in args.levels.split(",") if lv not in levels]
        if wrong:
            sys.exit("--levels: %s not among this CPU's levels (%s)"
                     % (", ".join(wrong), ", ".join(levels)))
        levels = args.levels.split(",")
    start_load = os.getloadavg()
    log = open(args.log, "w") if args.log else open(os.devnull, "w")
    with log:
        runs = run_all(args, levels, log)
        # creation time and memory of the examples, once (no ISA limit)
        t0 = time.time()
        footprint, status, output, _ = common.run_json("bench_footprint.py", [], log)
        print("bench_footprint.py: %s (%.0f s)" % ("done" if footprint else "error %d: %s" % (
            status, output.strip()[-300:]), time.time() - t0), file=sys.stderr, flush=True)
    meta = {"cpu": report.cpu_model(), "cpus": os.cpu_count(), "load_start": start_load,
            "load_end": os.getloadavg(), "repeat": args.repeat, "warmup": args.warmup,
            "min_time": args.min_time,
            "levels": levels, "threads": args.threads,
            "footprint": footprint["footprint"] if footprint else None}
    for key in ("onednn_version", "torch_version"):
        meta[key] = next((got["results"][key] for run in runs
                          for got in run["scripts"].values()
                          if got["results"] and got["results"].get(key)), None)
    return meta, runs


def show(meta, runs):
    """The text table on stdout; the rows it shows."""
    rows = report.rows(runs)
    levels, threads = meta["levels"], meta["threads"]
    print("%s, %d CPUs; %s at the start, %s at the end" % (
        meta["cpu"], meta["cpus"], report.load_line(meta["load_start"]),
        report.load_line(meta["load_end"])))
    print("cydnnl (ours) against oneDNN %s and %s; medians of %d or more interleaved "
          "repeats (%s s of each step at least) after %d warm-up runs or more"
          % (meta["onednn_version"] or "(ONEDNN_PREFIX unset)",
             meta["torch_version"] or "PyTorch (not importable)", meta["repeat"],
             meta.get("min_time", 0), meta["warmup"]))
    busy = report.busy(runs)
    for run in runs:
        key = (run["level"], run["threads"])
        print("  peak %s, %d thread(s): %s%s" % (
            run["level"], run["threads"], "%.0f GFLOP/s f32 (%s)" % (
                run["peak_gflops"], run["peak_what"]) if run["peak_gflops"] else
            run["peak_what"], "\n    BUSY: only %.2fx the peak on fewer threads; other "
            "processes had the cores, these times do not show the scaling" % busy[key]
            if key in busy else ""))
    print()
    report.print_tables(rows, levels, threads)
    if len(threads) > 1:
        print("Speedup of the whole iteration, %d thread(s) / more (goal for cydnnl: >= 1.8x "
              "on 2 threads; BUSY: see the peaks):" % threads[0])
        for line in report.speedups(rows, levels, threads, busy):
            print("  " + line)
        print()
    lines = report.bf16_over_f32(rows, levels, threads)
    if lines:
        print("Our bf16 mb32 iteration / our f32 mb32 iteration:")
        for line in lines:
            print("  " + line)
        print()
    if meta.get("footprint"):
        print("Creating the examples' primitives, and their memory (bench_footprint.py; no ISA "
              "limit, default threads):")
        for line in bench_footprint.show(meta["footprint"]):
            print("  " + line)
        print()
    print("oneDNN/ours, torch/ours: their time / ours (above 1: cydnnl faster); torch: the "
          "LSTM only.\nGFLOP/s, % peak: cydnnl's; convolution and LSTM products only (see "
          "benchmarks/README.md); bf16 against\ntwice the f32 peak where the level has "
          "vdpbf16ps. 'none': the example runs no reorder there; 'unimpl': oneDNN has no\n"
          "implementation; '-': not measured (no ONEDNN_PREFIX, no torch, no FLOP count).")
    return rows


def main():
    args = parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        runs = saved.pop("runs")
        saved.pop("rows")
        rows = show(saved, runs)
    else:
        meta, runs = measure(args)
        rows = show(meta, runs)
        report.write_json(args.json, meta, runs, rows)
        print("JSON: %s" % args.json)
        saved = meta
    why_not = report.plot(args.png, rows, saved["levels"], saved["threads"])
    print(why_not or "PNG: %s" % args.png)


if __name__ == "__main__":
    main()
