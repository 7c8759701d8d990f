"""User buffers that fault on the first access out of bounds: NumPy arrays
whose data end right before (or begin right after) a PROT_NONE guard page,
so that a kernel reading or writing one element past the end (or before the
start) of a buffer it was given dies with SIGSEGV instead of silently
touching a neighbour. A fault kills the process, so tests run guarded
cases in a subprocess (`Subprocess`, `collect`).

    buf = guarded(nbytes, np.float32)             # guard page after the end
    buf = guarded(nbytes, np.float32, "before")   # guard page before the start

The mapping lives as long as the array (its base keeps it); nothing is
shared with the library's own allocations.
"""

import ctypes
import ctypes.util
import json
import mmap
import os
import subprocess
import sys
import tempfile

import numpy as np

PAGE = mmap.PAGESIZE
_PROT_NONE = 0

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.mprotect.restype = ctypes.c_int


class _Region:
    """An anonymous mapping of data pages plus one PROT_NONE page."""

    def __init__(self, data_pages, guard_first):
        self.map = mmap.mmap(-1, (data_pages + 1) * PAGE)
        probe = ctypes.c_char.from_buffer(self.map)
        self.address = ctypes.addressof(probe)
        del probe       # the export would keep the map from closing
        guard = self.address if guard_first else self.address + data_pages * PAGE
        if _libc.mprotect(ctypes.c_void_p(guard), PAGE, _PROT_NONE) != 0:
            err = ctypes.get_errno()
            raise OSError(err, "mprotect: " + os.strerror(err))


def guarded(nbytes, dtype=np.uint8, where="after"):
    """A 1-D array of nbytes // itemsize elements of dtype, uninitialised
    (zeros), whose last byte is the last one before a guard page ("after")
    or whose first byte is the first one after it ("before"). nbytes must
    be a multiple of the item size; 0 gives an array at the guard's edge."""
    dtype = np.dtype(dtype)
    if nbytes % dtype.itemsize:
        raise ValueError("%d bytes is not a whole number of %s" % (nbytes, dtype))
    if where not in ("after", "before"):
        raise ValueError("where is 'after' or 'before', not %r" % (where,))
    pages = max(1, -(-nbytes // PAGE))
    region = _Region(pages, where == "before")
    start = PAGE if where == "before" else pages * PAGE - nbytes
    # the array's base is the mmap object, which unmaps on its last reference
    return np.frombuffer(region.map, dtype, nbytes // dtype.itemsize, start)


def guard_address(buf):
    """The address of buf's first byte (for tests of the guard itself)."""
    return buf.__array_interface__["data"][0]


# ------------------------------------------------------------ subprocesses
# A case script (tests/guard_runner.py) reads a JSON job on stdin, in which
# "skip" lists cases to leave out, and prints one JSON object per line:
# {"start": case} before each case, {"key": case, "problems": text or null}
# after it. A crash leaves "start" as the last line: the case that died.


class Subprocess:
    """A case script running on a JSON job; its output goes to files, so
    that many can run at once without filling pipes."""

    def __init__(self, script, job):
        self.script, self.job = script, dict(job)
        self.out = tempfile.TemporaryFile("w+")
        self.err = tempfile.TemporaryFile("w+")
        # waiting OpenMP threads sleep rather than spin: on an oversubscribed
        # machine spinning makes each of many tiny parallel regions slow
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        self.proc = subprocess.Popen([sys.executable, script], stdin=subprocess.PIPE,
                                     stdout=self.out, stderr=self.err, text=True, env=env,
                                     cwd=os.path.dirname(os.path.abspath(script)))
        self.proc.stdin.write(json.dumps(self.job))
        self.proc.stdin.close()

    def wait(self, timeout=600):
        """(returncode, the JSON lines printed, stderr)."""
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        self.out.seek(0)
        self.err.seek(0)
        lines = [json.loads(ln) for ln in self.out.read().splitlines() if ln.startswith("{")]
        return rc, lines, self.err.read()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def collect(run, max_crashes=20):
    """Waits for a Subprocess and reports (crashes [(case, returncode,
    stderr)], failures [(case, problems)], cases run); after a crash it
    starts the script again without the cases already started."""
    crashes, failures, ran, skip = [], [], 0, list(run.job.get("skip", []))
    while True:
        rc, lines, err = run.wait()
        started = [ln["start"] for ln in lines if "start" in ln]
        for ln in lines:
            if "key" in ln:
                ran += 1
                if ln["problems"]:
                    failures.append((ln["key"], ln["problems"]))
        if rc == 0:
            return crashes, failures, ran
        crashes.append((started[-1] if started else None, rc, err[-2000:]))
        if not started or len(crashes) >= max_crashes:
            return crashes, failures, ran
        skip += started
        run = Subprocess(run.script, dict(run.job, skip=skip))
