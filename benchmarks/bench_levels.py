"""The CNN block (bench_cnn_block.py) at every ISA level this machine has,
one process per level with the limit applied to cydnnl and oneDNN alike,
summed up in one markdown table: primitive x level, our and oneDNN's median
ms, the ratio (oneDNN's time / ours: above 1 = cydnnl faster) and each
side's implementation name.

    ONEDNN_PREFIX=/tmp/onednn32 PYTHONPATH=. python benchmarks/bench_levels.py \\
        [--levels sse41,avx2] [--repeat 7] [--out table.md]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import KERNEL_LEVELS  # noqa: E402


def machine_levels():
    """The levels of KERNEL_LEVELS this CPU runs (asked in a child process:
    asking here would fix this process's ISA limit, which is harmless but
    misleading)."""
    code = ("import dnnl, sys\n"
            "top = int(dnnl.get_effective_cpu_isa())\n"
            "print(' '.join(l for l in sys.argv[1:] if int(dnnl.cpu_isa[l]) & top "
            "== int(dnnl.cpu_isa[l])))\n")
    env = dict(os.environ)
    env.pop("ONEDNN_MAX_CPU_ISA", None)
    out = subprocess.run([sys.executable, "-c", code] + list(KERNEL_LEVELS), env=env,
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def run_level(level, args, log):
    """bench_cnn_block.py at one level; its JSON results."""
    with tempfile.NamedTemporaryFile(prefix="bench-levels-", suffix=".json") as f:
        cmd = [sys.executable, os.path.join(HERE, "bench_cnn_block.py"), "--isa", level,
               "--repeat", str(args.repeat), "--warmup", str(args.warmup), "--json", f.name]
        print("== %s: %s" % (level, " ".join(cmd)), file=log, flush=True)
        load = os.getloadavg()[0]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log.write(proc.stdout)
        log.flush()
        if proc.returncode != 0:
            sys.exit("bench_cnn_block.py failed at %s (exit %d):\n%s"
                     % (level, proc.returncode, proc.stdout[-3000:]))
        with open(f.name) as results:
            res = json.load(results)
        res["load"] = (load, os.getloadavg()[0])
        return res


def fmt_ms(ms):
    return "%.2f" % ms if ms >= 0.995 else "%.3f" % ms


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
                if step == "iteration":
                    ours = sum(r["ours_ms"] for r in recs)
                    refs = [r["onednn_ms"] for r in recs]
                    ref = sum(refs) if all(t is not None for t in refs) else None
                    impls = ("", "")
                else:
                    r = recs[i]
                    ours, ref, impls = r["ours_ms"], r["onednn_ms"], (r["ours_impl"],
                                                                      r["onednn_impl"] or "")
                missing = "unimpl" if configured else "-"
                lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    case, step, level, fmt_ms(ours), fmt_ms(ref) if ref is not None else missing,
                    "%.2f" % (ref / ours) if ref is not None else missing, impls[0],
                    impls[1]))
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
