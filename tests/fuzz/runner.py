"""Runs a fuzzing state machine in a child process, so that a crash of the
library (SIGSEGV, SIGABRT) is a failure the parent reports with the calls
that led to it, instead of taking the test run down.

Child: `main(seed, n_examples, log_path, layer)` runs the machine for
n_examples sequences of 21-60 calls, in chunks of `CHUNK` examples, each
chunk with its own Hypothesis seed derived from `seed`; the call log holds
the current example as a replayable script (see fuzz.base). Exit status: 0
clean, 3 a failure (Hypothesis shrinks it and prints the minimal program;
the log then holds that program), 1 a hang (faulthandler's watchdog), or
death by a signal.

Parent: `run_isolated(...)` starts the child and returns (ok, report); the
report has the child's output tail and the log's last 60 lines. With
collect=True escapes are recorded instead of failing the example, and the
child is restarted after each crash from the next chunk, so one run lists
every distinct failure it meets (`collected` in the result).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import warnings

TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHUNK = 250
STEPS = (20, 60)          # at least 21 calls, at most 60, per sequence
HANG_SECONDS = 120        # one sequence taking this long is a hang
MEMORY_LIMIT = 8 << 30    # address space of the child: huge allocations fail, not swap


def machine_class(layer):
    if layer == "c":
        from fuzz.capi import CApiMachine
        return CApiMachine
    if layer == "obj":
        from fuzz.objlayer import ObjMachine
        return ObjMachine
    raise ValueError("layer must be 'c' or 'obj', not %r" % layer)


def settings_for(n, shrink=True):
    """Shrinking makes a failure's program minimal; collect mode goes on
    past failures instead and has nothing to shrink."""
    from hypothesis import HealthCheck, Phase, settings
    return settings(max_examples=n, stateful_step_count=STEPS[1], deadline=None,
                    database=None, suppress_health_check=list(HealthCheck),
                    phases=[Phase.generate] + ([Phase.shrink] if shrink else []),
                    print_blob=False, report_multiple_bugs=False)


def main(seed, n_examples, log_path, layer="c", collect=False, start_chunk=0, shrink=True):
    """The child's work; returns its exit status."""
    import faulthandler
    import resource

    from hypothesis import seed as hseed
    from hypothesis.stateful import run_state_machine_as_test

    from fuzz import base

    faulthandler.enable()   # a crash prints the Python stack of the call too
    warnings.simplefilter("ignore")   # NumPy's casts of hostile arrays are no finding
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    cls = machine_class(layer)
    base.LOG.open(log_path)
    base.COLLECT["on"] = collect
    base.COLLECT["file"] = open(log_path + ".found", "a", encoding="utf-8")

    def watchdog():
        faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)

    base.LOG.on_example = watchdog
    nchunks = -(-n_examples // CHUNK)
    t0 = time.time()
    for k in range(start_chunk, nchunks):
        n = min(CHUNK, n_examples - k * CHUNK)
        base.LOG.chunk = k

        def factory():
            return cls()

        hseed(seed * 1000003 + k)(factory)
        try:
            run_state_machine_as_test(factory, settings=settings_for(n, shrink and not collect),
                                      _min_steps=STEPS[0])
        except BaseException as exc:  # noqa: BLE001 - any failure ends the child
            faulthandler.cancel_dump_traceback_later()
            # the program first, the failure last: tails of the output show it
            print("%s\nFAILURE in %s layer, seed %d, chunk %d: %s"
                  % ("\n".join(getattr(exc, "__notes__", [])), layer, seed, k,
                     _describe(exc)), flush=True)
            return 3
        print("%s layer: chunk %d/%d done, %d sequences in %.0f s"
              % (layer, k + 1, nchunks, min((k + 1) * CHUNK, n_examples), time.time() - t0),
              flush=True)
    faulthandler.cancel_dump_traceback_later()
    return 0


def _describe(exc):
    """type: message, with the sub-exceptions of a group (Hypothesis's Flaky)."""
    text = "%s: %s" % (type(exc).__name__, exc)
    for sub in getattr(exc, "exceptions", ()):
        text += "\n  " + _describe(sub).replace("\n", "\n  ")
    return text


# ------------------------------------------------------------ parent


def tail(path, n):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return "(no %s)\n" % path


def tail_head(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.readline()
    except OSError:
        return ""


def _status(rc):
    if rc == 0:
        return "passed"
    if rc == 3:
        return "failed (escaped exception or wrong return)"
    if rc == 1:
        return "hung or exited 1 (see the faulthandler dump)"
    if rc < 0:
        return "CRASHED with %s" % signal.Signals(-rc).name
    return "exited with status %d" % rc


def _spawn(args, log_path, stream_output, timeout, env):
    cmd = [sys.executable, "-m", "fuzz.runner"] + [str(a) for a in args]
    out_path = log_path + ".out"
    env = dict(os.environ, **(env or {}))
    env["PYTHONPATH"] = TESTS_DIR + os.pathsep + env.get("PYTHONPATH", "")
    with open(out_path, "a", encoding="utf-8") as out:
        dest = None if stream_output else out
        try:
            rc = subprocess.run(cmd, cwd=TESTS_DIR, stdout=dest, stderr=subprocess.STDOUT
                                if dest is not None else None, env=env,
                                timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = None
    return rc


def run_isolated(layer, seed, n_examples, log_path, collect=False, timeout=None,
                 stream_output=False, env=None, shrink=True):
    """Runs the fuzzer in a child; returns a dict: ok, status, report,
    collected (collect mode: signature -> details, crashes included), seconds.
    shrink=False reports a failure's whole sequence (bounded time)."""
    t0 = time.time()
    for suffix in ("", ".out", ".found"):
        if os.path.exists(log_path + suffix):
            os.remove(log_path + suffix)
    start, collected, reports = 0, {}, []
    while True:
        rc = _spawn(["child", layer, seed, n_examples, log_path, int(collect), start,
                     int(shrink)],
                    log_path, stream_output, timeout, env)
        status = "timed out after %s s" % timeout if rc is None else _status(rc)
        if rc != 0:
            log_tail = tail(log_path, 60)
            output = "" if stream_output else "--- child output (tail) ---\n%s" % tail(
                log_path + ".out", 40)
            reports.append("%s layer, seed %d: %s\n%s"
                           "--- call log %s (tail; the file replays the sequence) ---\n%s"
                           % (layer, seed, status, output, log_path, log_tail))
        if not collect or rc in (0, None, 3):
            break
        # collect mode: keep the crash's log, go on from the chunk after it
        kept = "%s.crash%d.py" % (log_path[:-3] if log_path.endswith(".py") else log_path,
                                  len(collected) + 1)
        shutil.copyfile(log_path, kept)
        log_tail += "(the whole sequence: %s)\n" % kept
        calls = [ln for ln in log_tail.splitlines() if ln.startswith("r = ")]
        last = calls[-1][4:] if calls else "?"
        fn = re.match(r"[\w.]*?(\w+)\(", last)
        collected["%s in %s (%s)" % (status, fn.group(1) if fn else last,
                                     os.path.basename(kept))] = log_tail
        m = re.match(r"# \S+ chunk (\d+)", tail_head(log_path))
        start = int(m.group(1)) + 1 if m else start + 1
        if start * CHUNK >= n_examples:
            break
    try:
        with open(log_path + ".found", encoding="utf-8") as f:
            for line in f:
                item = json.loads(line)
                collected.setdefault(item["signature"], item["detail"])
    except OSError:
        pass
    ok = not reports and not collected
    return {"ok": ok, "status": status, "report": "\n".join(reports), "collected": collected,
            "seconds": time.time() - t0}


if __name__ == "__main__":
    if len(sys.argv) == 9 and sys.argv[1] == "child":
        _, _, layer_, seed_, n_, log_, collect_, start_, shrink_ = sys.argv
        sys.exit(main(int(seed_), int(n_), log_, layer_, bool(int(collect_)), int(start_),
                      bool(int(shrink_))))
    sys.exit("usage: python -m fuzz (see python -m fuzz --help)")
