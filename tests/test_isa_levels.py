"""Every kernel level this machine has, tested as a whole: one process per
level, started with ONEDNN_MAX_CPU_ISA=<LEVEL> (the limit is set once per
process), runs isa_level_checks.py (the effective ISA, the implementation
each problem gets, dnnl_set_max_cpu_isa's set-once rule) and then the test
files of the fast implementations under pytest, which must pass there too.
About 2-3 minutes per level on the 2-core machine (more when it is loaded)."""

import json
import os
import subprocess
import sys

import pytest

import dnnl_c as c
import isa_probe
from helpers import usable_levels

HERE = os.path.dirname(os.path.abspath(__file__))
# The files whose tests run the per-level kernels (GEMM, convolution, the
# pooling/LRN/eltwise fast paths, the reorders' conversions and transposes,
# the examples); each walks every implementation the process may run. The
# guarded runs too: a transpose read past a view's buffer at sse41 alone.
KERNEL_TESTS = ("test_gemm.py", "test_gemm_api.py", "test_convolution.py", "test_pooling.py",
                "test_pooling_table.py", "test_lrn.py", "test_lrn_table.py", "test_eltwise.py",
                "test_eltwise_table.py", "test_examples.py", "test_lstm.py",
                "test_lstm_object.py", "test_rnn_example.py", "test_reorder.py",
                "test_guarded.py")
# A pytest -k expression to trim them by, should they grow too slow (None:
# all of them).
KEEP = None


@pytest.mark.parametrize("level", isa_probe.LEVEL_ORDER)
def test_level(level, tmp_path):
    if level not in usable_levels():
        pytest.skip("this CPU (or the ISA limit of this run) lacks %s" % level)
    report = str(tmp_path / "report.json")
    files = ["isa_level_checks.py"] + list(KERNEL_TESTS)
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"] + files
    if KEEP:
        cmd += ["-k", "isa_level_checks or (%s)" % KEEP]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE,
                         env=isa_probe.child_env(
                             ONEDNN_MAX_CPU_ISA=level.upper(), CYDNNL_LEVEL_REPORT=report,
                             CYDNNL_EXPECT_DNNL_C=os.path.dirname(os.path.abspath(c.__file__))),
                         timeout=1800)
    tail = "\n".join((out.stdout + out.stderr).strip().splitlines()[-40:])
    assert out.returncode == 0, "ONEDNN_MAX_CPU_ISA=%s:\n%s" % (level.upper(), tail)
    # the level checks ran (they write the report) and saw the level
    with open(report) as f:
        seen = json.load(f)
    assert seen["effective"] == getattr(c, "dnnl_cpu_isa_" + level)
    assert seen["impls"] == {p: isa_probe.expected_impl(p, level) for p in isa_probe.PROBLEMS}
