"""The checks test_isa_levels.py runs first in each level's process (started
with ONEDNN_MAX_CPU_ISA=<level>), before the kernel test files: this process
runs at that level, imports the library the parent imported, and each
problem of isa_probe.PROBLEMS gets its highest kernel level not above the
limit. Not collected by a plain `pytest` run (its name has no test_ prefix):
it only means something under a limit."""

import json
import os
import subprocess
import sys

import pytest

import dnnl
import dnnl_c as c
import isa_probe

LIMIT = os.environ.get("ONEDNN_MAX_CPU_ISA", "").lower()
if LIMIT not in isa_probe.LEVEL_ORDER:
    pytest.skip("run by test_isa_levels.py with ONEDNN_MAX_CPU_ISA set to a kernel level",
                allow_module_level=True)
LEVEL = getattr(c, "dnnl_cpu_isa_" + LIMIT)
HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def report():
    r = isa_probe.probe()
    # for the parent: what this process saw (and proof these checks ran)
    path = os.environ.get("CYDNNL_LEVEL_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump(r, f)
    return r


def test_the_parents_library():
    want = os.environ.get("CYDNNL_EXPECT_DNNL_C")
    if not want:
        pytest.skip("no CYDNNL_EXPECT_DNNL_C given")
    assert os.path.samefile(os.path.dirname(os.path.abspath(c.__file__)), want)


def test_effective_isa_is_the_limit(report):
    assert report["effective"] == report["effective_object"] == LEVEL
    assert dnnl.get_effective_cpu_isa() == dnnl.cpu_isa[LIMIT]
    # the levels up to the limit may run, none above it
    rank = isa_probe.LEVEL_ORDER.index
    assert {lv: report["has"][lv] for lv in isa_probe.LEVEL_ORDER} == \
        {lv: rank(lv) <= rank(LIMIT) for lv in isa_probe.LEVEL_ORDER}


def test_the_limit_is_fixed_once_read(report):
    # oneDNN: dnnl_set_max_cpu_isa after the limit was read (by the first
    # primitive descriptor or the effective ISA) is refused and changes nothing
    assert report["set_max_after_read"] == c.dnnl_invalid_arguments
    assert report["effective_after"] == LEVEL
    for level in (c.dnnl_cpu_isa_sse41, c.dnnl_cpu_isa_default, LEVEL):
        assert c.dnnl_set_max_cpu_isa(level) == c.dnnl_invalid_arguments
    assert c.dnnl_get_effective_cpu_isa() == LEVEL


@pytest.mark.parametrize("problem", sorted(isa_probe.PROBLEMS))
def test_implementation_is_the_highest_kernel_level_under_the_limit(report, problem):
    assert report["impls"][problem] == isa_probe.expected_impl(problem, LIMIT)
    assert report["errors"][problem] <= isa_probe.PROBLEMS[problem][3], report["impls"][problem]


def test_reorder(report):
    assert report["reorder_error"] == 0.0


def test_set_max_cpu_isa_gives_the_same_as_the_environment(report):
    """A fresh process without ONEDNN_MAX_CPU_ISA that sets the limit with
    dnnl_set_max_cpu_isa runs at the same level with the same implementations;
    a second call is refused (the limit is set once)."""
    out = subprocess.run([sys.executable, os.path.join(HERE, "isa_probe.py"), "--set-max",
                          LIMIT], capture_output=True, text=True, env=isa_probe.child_env(),
                         cwd=HERE, timeout=300)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert (r["set_max"], r["set_max_again"]) == (c.dnnl_success, c.dnnl_invalid_arguments)
    assert r["effective"] == r["effective_object"] == LEVEL
    assert r["impls"] == report["impls"]
    assert r["dnnl_c"] == report["dnnl_c"]
