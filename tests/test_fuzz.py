"""The property-based fuzzers (tests/fuzz/) with a fixed seed and a bounded
budget: sequences of 21-60 calls mixing every function of dnnl_c, and of the
dnnl object layer, each run in a child process so that a crash is a failure
here that shows the calls leading to it. The long run is one command:
`cd tests && python -m fuzz --seed 1` (see README).

Then the harness's own checks: a crash and an escaped exception in the child
are reported, and the call log replays the sequence."""

import subprocess
import sys

import pytest

from fuzz.runner import run_isolated

SEED = 8
C_SEQUENCES = 400      # about 30 s of CPU
OBJ_SEQUENCES = 200    # about 20 s


def _run(tmp_path, layer, n, **kw):
    return run_isolated(layer, SEED, n, str(tmp_path / ("fuzz-%s.py" % layer)), timeout=900,
                        shrink=False, **kw)


# with guard pages: a kernel's overrun of a buffer crashes instead of passing unseen
def test_fuzz_c_api(tmp_path):
    r = _run(tmp_path, "c", C_SEQUENCES, env={"CYDNNL_GUARD_PAGES": "1"})
    assert r["ok"], r["report"]


def test_fuzz_object_layer(tmp_path):
    r = _run(tmp_path, "obj", OBJ_SEQUENCES, env={"CYDNNL_GUARD_PAGES": "1"})
    assert r["ok"], r["report"]


# ------------------------------------------------------------ the harness itself


def test_a_crash_is_reported_with_the_calls_before_it(tmp_path):
    r = _run(tmp_path, "c", 5, env={"CYDNNL_FUZZ_SELFTEST": "crash:4"})
    assert not r["ok"]
    assert "CRASHED with SIGSEGV" in r["report"]
    calls = [ln for ln in r["report"].splitlines() if ln.startswith("r = c.")]
    assert len(calls) == 4, r["report"]          # the log ends at the crashing call
    assert calls[0].startswith("r = c.dnnl_engine_create(")
    # the log is a script that replays the sequence (here without the crash)
    log = str(tmp_path / "fuzz-c.py")
    assert subprocess.run([sys.executable, log], cwd=str(tmp_path)).returncode == 0


def test_an_escaped_exception_is_reported(tmp_path):
    r = _run(tmp_path, "c", 5, env={"CYDNNL_FUZZ_SELFTEST": "raise:4"})
    assert not r["ok"] and "escaped exception" in r["status"]
    assert "CYDNNL_FUZZ_SELFTEST: an escaped exception" in r["report"]


def test_collect_mode_goes_on_after_a_crash(tmp_path):
    import fuzz.runner as runner
    r = run_isolated("obj", SEED, runner.CHUNK + 3, str(tmp_path / "fuzz-obj.py"),
                     collect=True, timeout=900, env={"CYDNNL_FUZZ_SELFTEST": "crash:3"})
    crashes = [k for k in r["collected"] if k.startswith("CRASHED")]
    assert crashes and "chunk 1" in open(str(tmp_path / "fuzz-obj.py")).readline()
