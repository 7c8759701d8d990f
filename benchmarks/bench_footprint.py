"""Creation time and memory of the three example programs (issue 11's last
goals): creating all primitives of an example must take less than one of its
iterations, and its peak memory - peak RSS minus the RSS right after its
imports - at most 1.2x that of oneDNN's own program, counted from the RSS
when it creates its engine (before any primitive).

Ours: each port in examples/ runs in a child process (once with 1 iteration,
once with 1 + K), with the wall time of every primitive descriptor and
primitive creation summed (the object layer's classes, or the C-style names
the example calls) and likewise every execute; one iteration is the second
run's execute time minus the first's, over K. oneDNN's: its programs
(../shared/reference, the ones we port) built here with gcc against
ONEDNN_PREFIX, linked with footprint/rss_probe.c, and run with
ONEDNN_VERBOSE=profile (its creation and execution times, for comparison);
the CNN programs, whose training loops count n_iter, are built again with 1
and 1 + K iterations, and one iteration of oneDNN's own chain of steps is
counted from their executes' verbose times as ours is; then each step's
median time in the two programs' loops, ours again with ONEDNN_VERBOSE=profile
(the LSTM's program runs its steps once: none there).

    ONEDNN_PREFIX=/tmp/onednn32 PYTHONPATH=. python benchmarks/bench_footprint.py [--json F]
"""

import argparse
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REFERENCE = os.path.join(ROOT, os.pardir, "shared", "reference")
# name, our port, oneDNN's program, iterations its loop runs
EXAMPLES = [("cnn_training_f32", "examples/c_style/cpu_cnn_training_f32.py",
             "cpu_cnn_training_f32.c"),
            ("cnn_training_bf16", "examples/cpp_style/cnn_training_bf16.py",
             "cnn_training_bf16.cpp"),
            ("rnn_training_f32", "examples/cpp_style/rnn_training_f32.py",
             "rnn_training_f32.cpp")]
MORE = 8        # the second run's extra iterations (enough for iteration())


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return -1


# -- the child: one of our examples, timed

class Clock:
    """Wall time inside the outermost of the wrapped calls: each call's, per
    kind."""

    def __init__(self):
        self.calls = {"create": [], "execute": []}
        self.depth = 0

    def wrap(self, kind, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.calls[kind].append(time.perf_counter() - t0)
                self.depth -= 1
        return timed


def instrument(clock, module):
    """Times creation and execution through the names the example uses: the
    C-style functions in its namespace, and the object layer's primitive
    classes (their primitive_desc classes' constructors too)."""
    import dnnl
    for name, value in list(vars(module).items()):
        if not callable(value) or not name.startswith("dnnl_"):
            continue
        if name.endswith("primitive_desc_create") or name == "dnnl_primitive_create":
            setattr(module, name, clock.wrap("create", value))
        elif name == "dnnl_primitive_execute":
            setattr(module, name, clock.wrap("execute", value))
    for value in vars(dnnl).values():
        if isinstance(value, type) and issubclass(value, dnnl.primitive):
            value.__init__ = clock.wrap("create", value.__init__)
            if "execute" in vars(value) or value is dnnl.primitive:
                value.execute = clock.wrap("execute", value.execute)
            pd = vars(value).get("primitive_desc")
            if isinstance(pd, type):
                pd.__init__ = clock.wrap("create", pd.__init__)


def child(path, n_iter):
    sys.path.insert(0, os.path.dirname(os.path.join(ROOT, path)))
    import importlib.util
    spec = importlib.util.spec_from_file_location("example", os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)     # its imports
    base = status_kb("VmRSS:")
    clock = Clock()
    instrument(clock, module)
    if "c_style" in path:
        module.simple_net(n_iter)
    else:
        module.simple_net(module.engine.kind.cpu, n_iter=n_iter)
    print("FOOTPRINT " + json.dumps({"base_kb": base, "peak_kb": status_kb("VmHWM:"),
                                     "create_s": sum(clock.calls["create"]),
                                     "executes": clock.calls["execute"]}))


def run_child(path, n_iter, env):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", path,
                          str(n_iter)], env=env, capture_output=True, text=True, timeout=1800)
    for line in out.stdout.splitlines():
        if line.startswith("FOOTPRINT "):
            got = json.loads(line[len("FOOTPRINT "):])
            got["stdout"] = out.stdout
            return got
    raise RuntimeError("%s: %s" % (path, (out.stdout + out.stderr).strip()[-500:]))


def verbose_lines(text):
    """(what, fields, i) of each ONEDNN_VERBOSE=profile line that times a
    creation or an execution: what is "create" or "exec", fields[i] its
    field (oneDNN 3.2's lines have it second, ours and 3.13's fourth after
    "v1,primitive"); the time in ms is the last field."""
    for line in text.splitlines():
        if not line.startswith("onednn_verbose"):
            continue
        f = line.split(",")
        for i in range(1, min(len(f), 5)):
            what = f[i].split(":")[0]
            if what in ("create", "exec"):
                yield what, f, i
                break


def verbose_steps(text):
    """step -> median seconds over the loop's iterations after the first,
    from the exec lines (kind, propagation, shape, and for a reorder whether
    it leaves or reaches the user's plain layout, which tells the examples'
    reorders apart). The steps in the order they first ran."""
    times = {}
    for what, f, i in verbose_lines(text):
        if what != "exec" or len(f) < i + 7:
            continue
        kind, prop, mds = f[i + 2], f[i + 4], f[i + 5]
        step = "%s %s %s" % (kind, prop, f[-2])
        if kind == "reorder":
            src = mds.split(" ")[0]
            step += " from plain" if re.search(r"[:_]ab(cd)?:", src) else " to plain"
        times.setdefault(step, []).append(float(f[-1]) / 1e3)
    return {k: sorted(v[1:])[len(v[1:]) // 2] for k, v in times.items() if len(v) > 1}


# -- oneDNN's programs

# a program's training loop count, where it has one (the LSTM's runs once)
N_ITER = re.compile(r"int n_iter = \d+;")


def has_loop(source):
    with open(os.path.join(REFERENCE, source)) as f:
        return N_ITER.search(f.read()) is not None


def build_reference(prefix, source, workdir, n_iter=None):
    """oneDNN's program built against prefix, or None (its compiler's error);
    with n_iter, a copy whose training loop runs that many times."""
    path = os.path.join(REFERENCE, source)
    exe = os.path.join(workdir, os.path.splitext(source)[0])
    if n_iter is not None:
        with open(path) as f:
            text = N_ITER.sub("int n_iter = %d;" % n_iter, f.read(), count=1)
        exe += "_%d" % n_iter
        path = exe + os.path.splitext(source)[1]
        with open(path, "w") as f:
            f.write(text)
    fp = os.path.join(HERE, "footprint")
    cpp = source.endswith(".cpp")
    cmd = (["g++" if cpp else "gcc", "-O2", "-I" + fp, "-I" + os.path.join(prefix, "include"),
            path] + (["-x", "c"] if cpp else [])
           + [os.path.join(fp, "rss_probe.c")] + (["-x", "none"] if cpp else [])
           + ["-L" + os.path.join(prefix, "lib"), "-Wl,-rpath," + os.path.join(prefix, "lib"),
              "-ldnnl", "-Wl,--wrap=dnnl_engine_create", "-o", exe])
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        return None, out.stderr.strip()[-500:]
    return exe, None


def run_reference(exe, env):
    out = subprocess.run([exe], env=dict(env, ONEDNN_VERBOSE="profile"), capture_output=True,
                         text=True, timeout=1800)
    got = re.search(r"FOOTPRINT base_kb=(-?\d+) peak_kb=(-?\d+)", out.stderr)
    if out.returncode or not got:
        raise RuntimeError("%s: %s" % (exe, (out.stdout + out.stderr).strip()[-500:]))
    times = {"create": 0.0, "exec": 0.0}
    executes = []
    for what, f, _ in verbose_lines(out.stdout):
        times[what] += float(f[-1]) / 1e3
        if what == "exec":
            executes.append(float(f[-1]) / 1e3)
    return {"base_kb": int(got.group(1)), "peak_kb": int(got.group(2)),
            "create_s": times["create"], "execute_s": times["exec"], "executes": executes,
            "steps": verbose_steps(out.stdout),
            "unimplemented": "No implementation" in out.stdout
                             or "No bf16" in out.stdout}


def iteration(one, more):
    """One iteration's execute time: the median sum over m consecutive calls
    (m: the calls an iteration adds) of the longer run, in windows past the
    shorter run's calls and as far from the end (the calls before the loop,
    its first iteration and those after it are no more than those)."""
    c1, calls = len(one["executes"]), more["executes"]
    m = (len(calls) - c1) // MORE
    sums = sorted(sum(calls[i:i + m]) for i in range(c1, len(calls) - c1 - m + 1))
    return sums[len(sums) // 2] if m > 0 and sums else float("nan")


def reference_iteration(prefix, source, workdir, env):
    """One iteration of oneDNN's program, counted as ours is (iteration():
    its loop run 1 and 1 + MORE times, each execute's time from its
    verbose lines; the examples' real chain of steps, each reading the one
    before's output), and its steps' medians (verbose_steps); None and {}
    where the program has no loop or no implementation here."""
    if not has_loop(source):
        return None, {}
    runs = []
    for n in (1, 1 + MORE):
        exe, error = build_reference(prefix, source, workdir, n)
        if exe is None:
            raise RuntimeError(error)
        runs.append(run_reference(exe, env))
    if any(r["unimplemented"] for r in runs):
        return None, {}
    return iteration(runs[0], runs[1]), runs[1]["steps"]


def measure(env):
    prefix = os.environ.get("ONEDNN_PREFIX", "")
    results = []
    with tempfile.TemporaryDirectory() as workdir:
        for name, port, source in EXAMPLES:
            one, more = run_child(port, 1, env), run_child(port, 1 + MORE, env)
            row = {"example": name, "ours_iteration_s": iteration(one, more),
                   "onednn": None, "onednn_error": None, "onednn_iteration_s": None,
                   "steps": None}
            one.pop("executes")
            one.pop("stdout")
            row["ours"] = one
            if prefix:
                ours_steps = None
                if has_loop(source):
                    # the same run again with every execute's time printed
                    # (the printing would count in the iteration above)
                    ours_steps = verbose_steps(run_child(port, 1 + MORE, dict(
                        env, ONEDNN_VERBOSE="profile"))["stdout"])
                exe, error = build_reference(prefix, source, workdir)
                try:
                    row["onednn"] = run_reference(exe, env) if exe else None
                    if row["onednn"]:
                        row["onednn"].pop("executes")
                    row["onednn_iteration_s"], ref_steps = reference_iteration(
                        prefix, source, workdir, env)
                    if ours_steps and ref_steps:
                        # ours' steps in their order, then oneDNN's that ours lacks
                        row["steps"] = [
                            {"step": k, "ours_s": ours_steps.get(k), "onednn_s": ref_steps.get(k)}
                            for k in list(ours_steps) + [k for k in ref_steps
                                                         if k not in ours_steps]]
                except RuntimeError as e:
                    error = str(e)
                row["onednn_error"] = error
            results.append(row)
    return results


def mib(kb):
    return kb / 1024.0


def show(results):
    """The table's lines."""
    lines = ["%-18s %9s %9s %7s %10s %10s %7s %10s %11s %7s" % (
        "example", "create", "iter", "c/iter", "ours MiB", "oneDNN MiB", "ratio",
        "oneDNN create", "oneDNN iter", "speed")]
    for r in results:
        ours, ref = r["ours"], r["onednn"]
        inc = mib(ours["peak_kb"] - ours["base_kb"])
        ref_inc = mib(ref["peak_kb"] - ref["base_kb"]) if ref else None
        ref_iter = r.get("onednn_iteration_s")
        lines.append("%-18s %7.1fms %7.1fms %7.2f %10.1f %10s %7s %10s %11s %7s" % (
            r["example"], ours["create_s"] * 1e3, r["ours_iteration_s"] * 1e3,
            ours["create_s"] / r["ours_iteration_s"] if r["ours_iteration_s"] > 0 else 0,
            inc, "%.1f" % ref_inc if ref else "-",
            "%.2f" % (inc / ref_inc) if ref and ref_inc > 0 else "-",
            "%.1fms" % (ref["create_s"] * 1e3) if ref else "-",
            "%.1fms" % (ref_iter * 1e3) if ref_iter else "-",
            "%.2fx" % (ref_iter / r["ours_iteration_s"])
            if ref_iter and r["ours_iteration_s"] > 0 else "-"))
        if r["onednn_error"]:
            lines.append("    oneDNN's program: %s" % r["onednn_error"])
        elif ref and ref["unimplemented"]:
            lines.append("    oneDNN's program: no implementation on this CPU (it exits early)")
    for r in results:
        if not r.get("steps"):
            continue
        lines.append("%s, each step in the example's own order (ONEDNN_VERBOSE=profile, "
                     "medians over %d iterations):" % (r["example"], MORE))
        ms = lambda t: "%.3f" % (t * 1e3) if t is not None else "none"  # noqa: E731
        for st in r["steps"]:
            o, d = st["ours_s"], st["onednn_s"]
            lines.append("    %-62s %8s %8s %7s" % (
                st["step"][:62], ms(o), ms(d), "%.2fx" % (d / o) if o and d else "-"))
    lines.append("create: our primitive descriptors and primitives, wall time summed; iter: "
                 "one iteration's executes (goal: create < iter); MiB: peak RSS over the RSS "
                 "after the imports (ours) or at engine creation (oneDNN's program; goal: "
                 "ratio <= 1.2); oneDNN iter: one iteration of its program's loop, counted "
                 "as ours ('-': it has none), speed: its time / ours; steps: our ms, oneDNN's "
                 "program's ms, its / ours ('none': that program runs no such step)")
    return lines


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--child"]:
        return child(argv[1], int(argv[2]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    results = measure(dict(os.environ))
    print("\n".join(show(results)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"footprint": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
