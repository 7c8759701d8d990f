"""The CNN block (bench_cnn_block.py) at every ISA level this machine has,
one process per level with the limit applied to cydnnl and oneDNN alike,
summed up in one markdown table: primitive x level, our and oneDNN's median
ms, the ratio (oneDNN's time / ours: above 1 = cydnnl faster) and each
side's implementation name.

    ONEDNN_PREFIX=/tmp/onednn32 PYTHONPATH=. python benchmarks/bench_levels.py \\
        [--levels sse41,avx2] [--repeat 7] [--out table.md]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import KERNEL_LEVELS, machine_levels, run_json  # noqa: E402
from report import iteration, time_cell  # noqa: E402


def run_level(level, args, log):
    """bench_cnn_block.py at one level; its JSON results."""
    res, status, output, load = run_json(
        "bench_cnn_block.py", ["--isa", level, "--repeat", str(args.repeat),
                               "--warmup", str(args.warmup)], log)
    if res is None:
        sys.exit("bench_cnn_block.py failed at %s (exit %d):\n%s"
                 % (level, status, output[-3000:]))
    res["load"] = load
    return res


def markdown(by_level):
    """The table: per case, each primitive (then the whole iteration) at
    each level."""
    levels = list(by_level)
    first = by_level[levels[0]]
    lines = []
    for level, res in by_level.items():
        lines.append("* `--isa %s`: cydnnl ran %s; oneDNN %s ran %s (load average %.1f "
                     "before, %.1f after)"
                     % (level, res["ours_isa"], res["onednn_version"] or "(not configured)",
                        res["onednn_isa"] or "-", *res["load"]))
    lines.append("")
    lines.append("| case | primitive | level | cydnnl ms | oneDNN ms | oneDNN / cydnnl "
                 "| cydnnl impl | oneDNN impl |")
    lines.append("|---|---|---|---|---|---|---|---|")
    configured = first["onednn_version"] is not None
    for case, records in first["cases"].items():
        steps = [r["step"] for r in records] + ["iteration"]
        for i, step in enumerate(steps):
            for level in levels:
                recs = by_level[level]["cases"][case]
                missing = "unimpl" if configured else "-"
                r = dict((recs + [iteration(recs)])[i], onednn_missing=missing)
                ours, ref = r["ours_ms"], r["onednn_ms"]
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    case, step, level, time_cell(r, "ours"), time_cell(r, "onednn"),
                    "%.2f" % (ref / ours) if ref and ours else missing if ref is None else "-",
                    r["ours_impl"] or "", r["onednn_impl"] or ""))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", help="comma-separated levels (default: every one of %s "
                        "this CPU has)" % ", ".join(KERNEL_LEVELS))
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per primitive (>= 5)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed runs first")
    parser.add_argument("--out", help="also write the markdown table to this file")
    parser.add_argument("--log", help="the per-level outputs go here (default: stderr)")
    args = parser.parse_args()
    if args.repeat < 5:
        parser.error("--repeat: at least 5 repeats")
    levels = args.levels.split(",") if args.levels else machine_levels()
    log = open(args.log, "w") if args.log else sys.stderr
    by_level = {level: run_level(level, args, log) for level in levels}
    text = markdown(by_level)
    text += ("\n\nMedians of %d interleaved repeats after %d warm-up runs, per level in its "
             "own process; %s threads (OMP_NUM_THREADS) on %d CPUs.\n"
             % (args.repeat, args.warmup, os.environ.get("OMP_NUM_THREADS", "default"),
                os.cpu_count()))
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
