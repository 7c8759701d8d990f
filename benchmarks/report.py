"""The tables of `python -m benchmarks`: rows from the scripts' JSON results
(per program, ISA level and thread count: each step and the whole
iteration), GFLOP/s against the measured peak, the text table, the JSON file
and the PNG chart."""

import json
import os

from common import NO_REORDER, fmt_ms, table

# the scripts `python -m benchmarks` runs -> the cases (keys of their JSON) they time
SCRIPTS = {"bench_cnn_block.py": ("f32 mb8", "bf16 mb32", "f32 mb32"),
           "bench_lstm.py": ("lstm f32",),
           "bench_convolution.py": ("conv1 f32 mb8", "conv1 bf16 mb32")}
# case -> the example program it times
PROGRAMS = {"f32 mb8": "cpu_cnn_training_f32 (CNN block, f32, batch 8)",
            "bf16 mb32": "cnn_training_bf16 (CNN block, bf16, batch 32)",
            "f32 mb32": "CNN block, f32, batch 32 (bf16's yardstick)",
            "lstm f32": "rnn_training_f32 (LSTM fwd + bwd, f32)",
            "conv1 f32 mb8": "AlexNet conv1 backward data alone (f32, batch 8)",
            "conv1 bf16 mb32": "AlexNet conv1 backward data alone (bf16, batch 32)"}
# cases of single primitives, not programs: no whole iteration
SINGLE = {"conv1 f32 mb8", "conv1 bf16 mb32"}
LIBS = ("ours", "onednn", "torch")


def iteration(records):
    """The whole iteration: the sum of the steps per library (None where a
    step is missing) and the FLOPs of the steps that have a count."""
    rec = {"step": "iteration", "dtype": records[0]["dtype"],
           "flops": sum(r.get("flops") or 0 for r in records) or None}
    for lib in LIBS:
        times = [r.get(lib + "_ms") for r in records]
        rec[lib + "_ms"] = sum(times) if all(t is not None for t in times) else None
        rec[lib + "_impl"] = None
    return rec


def yardstick(peak, dtype, isa):
    """The peak a step is measured against: the f32 FMA peak, twice that for
    bf16 where the level has a bf16 dot product (vdpbf16ps: 2 products per
    f32 lane)."""
    if not peak:
        return None
    bf16_dot = "bf16" in isa or "amx" in isa or "avx10" in isa
    return 2 * peak if dtype == "bf16" and bf16_dot else peak


def rows(runs):
    """One dict per (program, level, threads, step), iteration included: the
    times, the ratios oneDNN / ours and PyTorch / ours, GFLOP/s and the share
    of the peak (ours), and what stands where a number is missing."""
    steps = {}   # case -> step names, from any run that has them
    for run in runs:
        for got in run["scripts"].values():
            for case, recs in ((got["results"] or {}).get("cases") or {}).items():
                steps.setdefault(case, [r["step"] for r in recs]
                                 + ([] if case in SINGLE else ["iteration"]))
    out = []
    for run in runs:
        for script, got in run["scripts"].items():
            res = got["results"]
            cases = res["cases"] if res else dict.fromkeys(SCRIPTS[script])
            for case, recs in cases.items():
                recs = recs and recs + ([] if case in SINGLE else [iteration(recs)])
                for i, step in enumerate(steps.get(case, ["iteration"])):
                    row = {"program": case, "example": PROGRAMS.get(case),
                           "level": run["level"], "threads": run["threads"], "step": step,
                           "error": got["error"]}
                    if recs:
                        row.update(recs[i])
                        row.update(measures(row, run, res))
                    out.append(row)
    return out


def measures(rec, run, res):
    """Ratios, GFLOP/s and % of peak of one step record; the word standing
    for each missing time."""
    ours = rec["ours_ms"]
    out = {}
    for lib, missing in (("onednn", "unimpl" if res.get("onednn_version") else "-"),
                         ("torch", "-")):
        t = rec.get(lib + "_ms")
        out[lib + "_ratio"] = t / ours if t and ours else None
        out[lib + "_missing"] = missing if t is None else None
    out["ours_missing"] = "not yet" if ours is None else None
    out["gflops"] = rec["flops"] / ours / 1e6 if rec.get("flops") and ours else None
    out["yardstick_gflops"] = yardstick(run["peak_gflops"], rec["dtype"], res["ours_isa"])
    out["pct_peak"] = (100 * out["gflops"] / out["yardstick_gflops"]
                       if out["gflops"] and out["yardstick_gflops"] else None)
    return out


def time_cell(row, lib):
    if row.get("error"):
        return "error" if lib == "ours" else "-"
    if row.get(lib + "_impl") == NO_REORDER:
        return "none"
    t = row.get(lib + "_ms")
    return fmt_ms(t) if t is not None else row.get(lib + "_missing") or "-"


def cells(row):
    num = lambda v, f: f % v if v is not None else "-"  # noqa: E731
    return [time_cell(row, "ours"), time_cell(row, "onednn"),
            num(row.get("onednn_ratio"), "%.2fx"), time_cell(row, "torch"),
            num(row.get("torch_ratio"), "%.2fx"), num(row.get("gflops"), "%.0f"),
            num(row.get("pct_peak"), "%.0f%%")]


# times in ms; ratios: their time / ours
HEADER = ["ours ms", "oneDNN", "oneDNN/ours", "torch", "torch/ours", "GF/s", "%peak"]


def print_tables(all_rows, levels, threads):
    """Per program and level: the steps and the iteration down, a group of
    columns per thread count."""
    at = {(r["program"], r["level"], r["threads"], r["step"]): r for r in all_rows}
    for case in dict.fromkeys(r["program"] for r in all_rows):
        steps = list(dict.fromkeys(r["step"] for r in all_rows if r["program"] == case))
        for level in levels:
            print("%s -- %s" % (PROGRAMS.get(case, case), level))
            body = []
            for step in steps:
                row = [step]
                for t in threads:
                    row += cells(at.get((case, level, t, step), {"error": "not run"}))
                body.append(row)
            table(body, ["step"] + HEADER * len(threads),
                  [("", 1)] + [(" %d thread%s " % (t, "s" * (t > 1)), len(HEADER))
                               for t in threads])
            for t in threads:
                err = at.get((case, level, t, steps[-1]), {}).get("error")
                if err:
                    print("  error, %d thread(s): %s" % (t, err))
            print()


def busy(runs):
    """(level, threads) -> the peak's gain over the level's fewest threads,
    where it is under 80% of the thread ratio: other processes held the
    cores while this was measured (the peak scales linearly on idle cores)."""
    base, out = {}, {}
    for run in sorted(runs, key=lambda r: r["threads"]):
        level, peak = run["level"], run["peak_gflops"]
        if not peak:
            continue
        t0, p0 = base.setdefault(level, (run["threads"], peak))
        gain = peak / p0
        if run["threads"] > t0 and gain < 0.8 * run["threads"] / t0:
            out[(level, run["threads"])] = gain
    return out


def speedups(all_rows, levels, threads, busy_runs=()):
    """Lines: each whole iteration's time on threads[0] / on each other
    count, marked where the more threads' run had busy cores."""
    at = {(r["program"], r["level"], r["threads"]): r for r in all_rows
          if r["step"] == "iteration"}
    lines = []
    for case in dict.fromkeys(r["program"] for r in all_rows if r["program"] not in SINGLE):
        for level in levels:
            base = at.get((case, level, threads[0]), {})
            for t in threads[1:]:
                row = at.get((case, level, t), {})
                parts = []
                for lib, name in (("ours", "cydnnl"), ("onednn", "oneDNN"), ("torch", "PyTorch")):
                    a, b = base.get(lib + "_ms"), row.get(lib + "_ms")
                    if a and b:
                        parts.append("%s %.2fx" % (name, a / b))
                lines.append("%-48s %-17s %d/%d threads: %s%s" % (
                    PROGRAMS.get(case, case), level, t, threads[0], ", ".join(parts) or "-",
                    "  (BUSY)" if (level, t) in busy_runs else ""))
    return lines


def bf16_over_f32(all_rows, levels, threads):
    """Lines: our bf16 mb32 iteration's time over our f32 mb32 one per level
    and thread count, against the goal (0.6 where the level has a bf16 dot
    product, 1.1 elsewhere: the conversions' cost only)."""
    at = {(r["program"], r["level"], r["threads"]): r.get("ours_ms") for r in all_rows
          if r["step"] == "iteration"}
    lines = []
    for level in levels:
        for t in threads:
            h, f = at.get(("bf16 mb32", level, t)), at.get(("f32 mb32", level, t))
            if h and f:
                goal = 0.6 if yardstick(1, "bf16", level) == 2 else 1.1
                lines.append("%-17s %d thread%s: %.3f (%.1f / %.1f ms; goal <= %.1f)"
                             % (level, t, "s" * (t > 1), h / f, h, f, goal))
    return lines


def write_json(path, meta, runs, all_rows):
    with open(path, "w") as f:
        json.dump({**meta, "runs": runs, "rows": all_rows}, f, indent=1)


def plot(path, all_rows, levels, threads):
    """Bars of oneDNN's time / ours per step (and iteration), one panel per
    program, one bar per level x threads. Returns None, or why no chart."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return ("matplotlib is not importable here: PNG skipped (install it into the "
                "benchmark venv, e.g. /tmp/lstmbench-venv/bin/pip install matplotlib)")
    cases = list(dict.fromkeys(r["program"] for r in all_rows))
    combos = [(lv, t) for lv in levels for t in threads]
    width = 0.8 / len(combos)
    most = max(len({r["step"] for r in all_rows if r["program"] == c}) for c in cases)
    fig, axes = plt.subplots(len(cases), 1, figsize=(max(10, 1.1 * most), 3.6 * len(cases)),
                             squeeze=False)
    for ax, case in zip(axes[:, 0], cases):
        steps = list(dict.fromkeys(r["step"] for r in all_rows if r["program"] == case))
        at = {(r["level"], r["threads"], r["step"]): r.get("onednn_ratio") for r in all_rows
              if r["program"] == case}
        ratios = [v for v in at.values() if v]
        for k, (lv, t) in enumerate(combos):
            xs = [i + (k - (len(combos) - 1) / 2) * width for i in range(len(steps))]
            # bars grow from 1, up where cydnnl is faster; nan: no bar
            ys = [(at.get((lv, t, s)) or float("nan")) - 1 for s in steps]
            ax.bar(xs, ys, width, bottom=1, label="%s, %d thread%s" % (lv, t, "s" * (t > 1)))
        ax.axhline(1, color="black", linewidth=0.8)
        if ratios:
            ax.set_yscale("log")   # ratios run from 0.1 to 100
            low, high = min(min(ratios) / 1.3, 0.5), max(max(ratios) * 1.3, 2)
            ax.set_ylim(low, high)
            ax.set_yticks([v for v in (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200)
                           if low <= v <= high])
            ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        else:
            ax.text(0.5, 0.7, "no ratio: oneDNN unimplemented or not configured",
                    transform=ax.transAxes, ha="center")
        ax.set_xticks(range(len(steps)))
        ax.set_xticklabels(steps, rotation=25, ha="right", fontsize=8)
        ax.set_ylabel("oneDNN time / ours")
        ax.set_title(PROGRAMS.get(case, case) + "  (above 1: cydnnl faster; no bar: "
                     "unimpl or no reorder)", fontsize=10)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", fontsize=8, ncol=min(4, len(combos)))
    rows_of_legend = (len(combos) + 3) // 4
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.022 * rows_of_legend * 4 / len(cases)))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def load_line(loads=None):
    return "load average %.2f %.2f %.2f" % tuple(loads or os.getloadavg())
