"""Timing helpers shared by the benchmarks: medians of repeated runs, all
references measured in the same process, so ratios are comparable on a
noisy machine."""

import os
import statistics
import time


def median_time(fn, repeat=15, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def try_import_torch():
    """PyTorch, whose bundled oneDNN is the real library we compare with."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1)))
    return torch


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("%-*s" % (w, h) for w, h in zip(widths, header))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join("%-*s" % (w, v) for w, v in zip(widths, r)))
