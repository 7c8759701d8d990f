"""Helpers shared by the benchmarks: the command line every script takes
(--isa, --repeat), the ISA limit applied to both libraries, timing by
medians of interleaved repeats (so ratios are comparable on a noisy machine),
the levels this CPU has, the measured f32 peak and running a script in a
child process for its JSON."""

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import onednn_ref

# The levels cydnnl builds kernels for (setup.py), lowest first.
KERNEL_LEVELS = ("sse41", "avx2", "avx512_core", "avx512_core_bf16")
# The implementation name of a step the example skips: the layout a
# primitive chose is the user's, so no reorder runs (its time is 0).
NO_REORDER = "none (same layout)"
# Timed runs of one step at most, however short it is (--min-time): enough
# for 0.2 s of a 40 us step (400 timed a pooled-map reorder of 26 us over
# 10 ms, which one burst of another tenant's load could fill).
MAX_RUNS = 5000


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
    parser.add_argument("--min-time", type=float, default=0.2, metavar="SECONDS",
                        help="short steps run more often, until their timed runs add up "
                             "to this many seconds (at most %d runs; default "
                             "%%(default)s)" % MAX_RUNS)
    if extra is not None:
        extra(parser)
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.warmup < 0 or args.min_time < 0:
        parser.error("--repeat must be >= 1, --warmup and --min-time >= 0")
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


def median_time(fn, repeat=15, warmup=3, min_time=0.2):
    return median_times([fn], repeat, warmup, min_time)[0]


def median_times(fns, repeat=7, warmup=2, min_time=0.2):
    """Median seconds of each function; the repeats take turns (a, b, a, b,
    ...) so that load from other processes falls on all of them alike. At
    least `warmup` untimed and `repeat` timed turns; more (up to MAX_RUNS)
    until each function's warm-up took min_time / 4 seconds and its timed
    runs min_time: with 7 runs after 2, a step of under a millisecond was
    still warming up (its first ten runs up to 1.5x its later ones, in both
    libraries, ours longer: f32 relu forward and bf16 reorder src read
    0.63-0.8x oneDNN that way, 0.88-1.0x this way)."""
    if not fns:
        return []
    spent = [0.0] * len(fns)
    turns = 0
    while turns < warmup or (turns < MAX_RUNS and min(spent) < min_time / 4):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            spent[i] += time.perf_counter() - t0
        turns += 1
    times = [[] for _ in fns]
    while len(times[0]) < repeat or (len(times[0]) < MAX_RUNS
                                     and min(map(sum, times)) < min_time):
        for fn, ts in zip(fns, times):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
    return [statistics.median(ts) for ts in times]


def fmt_ms(ms):
    return "%.2f" % ms if ms >= 0.995 else "%.3f" % ms


def table(rows, header, groups=None):
    """Prints rows in aligned columns; `groups`: (label, number of columns)
    pairs, a line of labels over runs of columns."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    if groups:
        spans, i = [], 0
        for label, n in groups:
            span = sum(widths[i:i + n]) + 2 * (n - 1)
            spans.append(("%s" % label).center(span, "-") if label else " " * span)
            i += n
        print("  ".join(spans))
    line = "  ".join("%-*s" % (w, h) for w, h in zip(widths, header))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join("%-*s" % (w, v) for w, v in zip(widths, r)))


HERE = os.path.dirname(os.path.abspath(__file__))


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


def run_json(script, argv, log, env=None):
    """Runs benchmarks/`script` with `argv` + --json in a child process (its
    own ISA limit and thread count), its output going to `log`. Returns
    (results or None, exit status, output, (load average before, after))."""
    with tempfile.NamedTemporaryFile(prefix="bench-", suffix=".json") as f:
        cmd = [sys.executable, os.path.join(HERE, script)] + list(argv) + ["--json", f.name]
        threads = (env or os.environ).get("OMP_NUM_THREADS", "default")
        print("== OMP_NUM_THREADS=%s %s" % (threads, " ".join(cmd)), file=log, flush=True)
        load = os.getloadavg()[0]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=env)
        log.write(proc.stdout)
        log.flush()
        results = None
        if proc.returncode == 0:
            with open(f.name) as out:
                results = json.load(out)
        return results, proc.returncode, proc.stdout, (load, os.getloadavg()[0])


# --------------------------------------------------------------- the peak

PEAK_FLAGS = {"sse41": ["-msse4.1"], "avx2": ["-mavx2", "-mfma"],
              "avx512_core": ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mfma"]}


def peak_flags(isa):
    """gcc flags for the vector width of the ISA level this run is limited
    to (the peak a GEMM at that level can reach); no limit: -march=native."""
    if isa.startswith("avx512"):
        return PEAK_FLAGS["avx512_core"]
    if isa.startswith("avx2"):
        return PEAK_FLAGS["avx2"]
    if isa.startswith("avx"):
        return ["-mavx"]
    if isa:
        return PEAK_FLAGS["sse41"]
    return ["-march=native"]


def measure_peak(threads, isa, runs=5, seconds=0.2):
    """GFLOP/s of fma_peak.c (register-only multiply-add chains) on
    `threads` threads: the best of `runs` runs of about `seconds` each (the
    machine's capability; load from other processes only lowers a run).
    Returns (GFLOP/s, description) or (None, reason)."""
    flags = peak_flags(isa)
    with tempfile.TemporaryDirectory(prefix="bench-peak-") as tmp:
        so = os.path.join(tmp, "fma_peak.so")
        cmd = ["gcc", "-O2", "-fopenmp", "-shared", "-fPIC", *flags, "-o", so,
               os.path.join(HERE, "fma_peak.c")]
        try:
            subprocess.run(cmd, check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as e:
            return None, "no peak: %s" % (getattr(e, "stderr", b"") or str(e)).strip()
        lib = ctypes.CDLL(so)
        lib.fma_peak.restype = ctypes.c_double
        lib.fma_peak.argtypes = [ctypes.c_int, ctypes.c_long]
        lanes, fused = lib.fma_peak_lanes(), lib.fma_peak_fused()
        iters = 1000000
        lib.fma_peak(threads, iters)   # wakes the threads and the clocks
        t0 = time.perf_counter()
        lib.fma_peak(threads, iters)
        iters = max(iters, int(iters * seconds / (time.perf_counter() - t0)))
        best = 0.0
        for _ in range(runs):
            t0 = time.perf_counter()
            flops = lib.fma_peak(threads, iters)
            best = max(best, flops / (time.perf_counter() - t0))
    what = "%d-lane f32 %s, %d thread(s), gcc %s" % (
        lanes, "FMA" if fused else "mul+add", threads, " ".join(flags))
    return best / 1e9, what
