"""Helpers shared by the benchmarks: the command line every script takes
(--isa, --repeat), the ISA limit applied to both libraries, and timing by
medians of interleaved repeats, so ratios are comparable on a noisy machine."""

import argparse
import os
import statistics
import sys
import time

import onednn_ref

# The levels cydnnl builds kernels for (setup.py), lowest first.
KERNEL_LEVELS = ("sse41", "avx2", "avx512_core", "avx512_core_bf16")


def parse_args(description, argv=None, extra=None):
    """--isa LEVEL (default: ONEDNN_MAX_CPU_ISA as set, else no limit),
    --repeat N and --warmup N; `extra(parser)` may add a script's own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--isa", default=os.environ.get("ONEDNN_MAX_CPU_ISA", ""),
                        help="highest ISA level for cydnnl and oneDNN alike "
                             "(oneDNN's ONEDNN_MAX_CPU_ISA names: sse41, avx2, avx512_core, "
                             "avx512_core_bf16, ...; default: the environment's, else all)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per primitive")
    parser.add_argument("--warmup", type=int, default=2, help="untimed runs first")
    if extra is not None:
        extra(parser)
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.warmup < 0:
        parser.error("--repeat must be >= 1 and --warmup >= 0")
    return args


def start(description, extra=None):
    """The common opening of a benchmark: parses the command line, sets the
    ISA limit for both libraries, opens the real oneDNN (None when not
    configured; may re-execute the script) and prints the effective ISA of
    each. Returns (args, oneDNN wrapper or None)."""
    args = parse_args(description, extra=extra)
    # Both libraries read ONEDNN_MAX_CPU_ISA when they first dispatch (the
    # limit is fixed then), so setting it here, before either creates a
    # primitive, limits both; a re-executed process inherits it.
    if args.isa:
        os.environ["ONEDNN_MAX_CPU_ISA"] = args.isa.upper()
    lib = onednn_ref.open_reference()
    import dnnl
    ours = dnnl.get_effective_cpu_isa().name
    line = "ISA limit %s: cydnnl runs %s" % (args.isa or "none", ours)
    if lib is not None:
        theirs = isa_name(lib.effective_isa())
        line += ", oneDNN %s runs %s" % (lib.version(), theirs)
        if theirs != ours:
            line += "  (differ: compare with care)"
    print(line + "\n")
    sys.stdout.flush()
    return args, lib


def isa_name(value):
    """The name of a dnnl_cpu_isa_t value (the same numbers in oneDNN 3.2,
    3.13 and cydnnl)."""
    import dnnl
    try:
        return dnnl.cpu_isa(value).name
    except ValueError:
        return hex(value)


def median_time(fn, repeat=15, warmup=3):
    return median_times([fn], repeat, warmup)[0]


def median_times(fns, repeat=7, warmup=2):
    """Median seconds of each function; the repeats take turns (a, b, a, b,
    ...) so that load from other processes falls on all of them alike."""
    for fn in fns:
        for _ in range(warmup):
            fn()
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, ts in zip(fns, times):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
    return [statistics.median(ts) for ts in times]


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("%-*s" % (w, h) for w, h in zip(widths, header))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join("%-*s" % (w, v) for w, v in zip(widths, r)))
