"""Kernels never read or write outside the user buffers they are given.

Every tensor of every case in tests/guarded_cases.py lives in a buffer
that ends right before a PROT_NONE page, then in one that starts right
after one (tests/guard.py), so one element too far either way is a
SIGSEGV; every implementation is walked with next_impl and its results
are checked against the NumPy references; sub-memory views must leave the
parent's other elements alone. The cases run in subprocesses
(guard_runner.py), all families at once; a crash names the case it died
in and the rest of the family still runs.
"""

import os
import signal

import numpy as np
import pytest

import dnnl_c as c
import guard
import guarded_cases as G
import harness as H
from guarded_views import View

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "guard_runner.py")
FAMILIES = ["convolution", "pooling", "lrn", "eltwise", "reorder", "views", "rnn"]
WHERE = ["after", "before"]


def describe(rc):
    if rc < 0:
        return signal.Signals(-rc).name
    return "exit status %d" % rc


@pytest.fixture(scope="module")
def jobs():
    """Every family's subprocess, started at once (they share the cores)."""
    started = {f: guard.Subprocess(RUNNER, {"family": f, "where": WHERE})
               for f in FAMILIES + ["selftest"]}
    yield started
    for run in started.values():
        run.kill()


def test_the_guard_catches_what_it_should(jobs):
    crashes, failures, ran = guard.collect(jobs["selftest"])
    crashed = {(entry, rc) for entry, rc, _ in crashes}
    segv = -signal.SIGSEGV
    assert crashed == {("read-past-end@after", segv), ("write-before-start@before", segv)}, \
        crashes
    assert sorted(k for k, _ in failures) == ["wrong-result@after", "wrong-result@before"]
    assert all("a wrong result" in text for _, text in failures)
    # the crashed entries do not report; everything else did
    assert ran == len(G.SELFTEST) * len(WHERE) - len(crashes)


@pytest.mark.parametrize("family", FAMILIES)
def test_kernels_stay_in_bounds(jobs, family):
    crashes, failures, ran = guard.collect(jobs[family])
    report = ["%s: died with %s\n%s" % (entry, describe(rc), err.strip()[-600:])
              for entry, rc, err in crashes]
    report += ["%s:\n%s" % (entry, text[:1500]) for entry, text in failures[:10]]
    if len(failures) > 10:
        report.append("... and %d more wrong results" % (len(failures) - 10))
    assert not report, "\n\n".join(report)
    assert ran == len(G.FAMILIES[family]()) * len(WHERE)


# ------------------------------------------------------------ the tools, in process

@pytest.mark.parametrize("nbytes", [0, 4, 12, guard.PAGE - 4, guard.PAGE, guard.PAGE + 8])
def test_guarded_buffers_sit_against_their_guard(nbytes):
    after = guard.guarded(nbytes, np.float32)
    before = guard.guarded(nbytes, np.float32, "before")
    for buf in (after, before):
        assert buf.dtype == np.float32 and buf.size == nbytes // 4 and buf.flags.writeable
        buf[...] = 7
        assert np.all(buf == 7)
    assert (guard.guard_address(after) + nbytes) % guard.PAGE == 0
    assert guard.guard_address(before) % guard.PAGE == 0
    with pytest.raises(ValueError):
        guard.guarded(6, np.float32)
    with pytest.raises(ValueError):
        guard.guarded(8, np.float32, "around")


def test_views_see_writes_outside_themselves():
    handles = H._Handles()
    try:
        parent = handles.md([2, 12, 3], c.dnnl_f32, c.dnnl_aBc8b)
        sub = handles.add(c.dnnl_memory_desc_t(), c.dnnl_memory_desc_destroy)
        assert c.dnnl_memory_desc_create_submemory(sub, parent, [2, 4, 3], [0, 8, 0]) == H.OK
        view = View(sub, parent, [2, 4, 3], [0, 8, 0])
        buf = view.fill(guard.guarded, np.zeros([2, 4, 3]))
        before = buf.copy()
        mine, padding = view.offsets.reshape(-1), np.flatnonzero(view.parent_padding)
        foreign = np.flatnonzero(~view.mine & ~view.parent_padding)
        assert foreign.size and padding.size
        buf[mine[-1]] = 5            # its own element
        buf[padding[-1]] = 0         # the parent's padding, zeroed
        assert view.foreign_writes(before, buf) == 0
        buf[foreign[0]] = 0          # a neighbour's element
        buf[padding[0]] = 3          # padding, not zeroed
        assert view.foreign_writes(before, buf) == 2
        assert np.isnan(before[foreign]).all(), "outside the view is NaN for kernels to trip on"
    finally:
        handles.close()
