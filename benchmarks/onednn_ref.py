"""The real oneDNN, for benchmarks: its C API through ctypes.

Install it once beside the project (PyPI's `onednn` wheel ships libdnnl.so,
oneDNN v3.13, built with a SYCL CPU runtime):

    python -m venv /tmp/onednn && /tmp/onednn/bin/pip install onednn
    ONEDNN_PREFIX=/tmp/onednn python benchmarks/bench_reorder.py

The library needs its runtime libraries on LD_LIBRARY_PATH and the OpenCL
CPU driver named in OCL_ICD_FILENAMES; `ensure_environment()` sets both and
re-executes the script when they are missing.
"""

import ctypes
import os
import sys

P = ctypes.c_void_p
dims_t = ctypes.c_int64 * 12


class exec_arg_t(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", P)]


def prefix():
    return os.environ.get("ONEDNN_PREFIX", "")


def ensure_environment():
    """Re-executes the current script with the variables libdnnl needs;
    returns False when no oneDNN installation is configured."""
    p = prefix()
    if not p or not os.path.exists(os.path.join(p, "lib", "libdnnl.so.3")):
        return False
    lib = os.path.join(p, "lib")
    if lib not in os.environ.get("LD_LIBRARY_PATH", "").split(":"):
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = lib + ":" + env.get("LD_LIBRARY_PATH", "")
        env["OCL_ICD_FILENAMES"] = os.path.join(lib, "libintelocl.so")
        env.setdefault("ONEDNN_VERBOSE", "none")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    return True


def open_reference():
    """The real oneDNN when one is configured (announced on stdout), else None."""
    if not ensure_environment():
        return None
    lib = OneDNN()
    print("reference: oneDNN %s (libdnnl via ctypes)\n" % lib.version())
    return lib


class OneDNN:
    """A thin handle-owning wrapper over libdnnl's C API."""

    def __init__(self):
        self.lib = ctypes.CDLL(os.path.join(prefix(), "lib", "libdnnl.so.3"))
        self.lib.dnnl_primitive_desc_query_md.restype = P
        self.engine, self.stream = P(), P()
        self.check(self.lib.dnnl_engine_create(ctypes.byref(self.engine), 1, 0), "engine")
        self.check(self.lib.dnnl_stream_create(ctypes.byref(self.stream), self.engine, 1),
                   "stream")
        self._keep = []

    def version(self):
        class V(ctypes.Structure):
            _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int),
                        ("patch", ctypes.c_int), ("hash", ctypes.c_char_p),
                        ("cpu_runtime", ctypes.c_uint), ("gpu_runtime", ctypes.c_uint)]
        self.lib.dnnl_version.restype = ctypes.POINTER(V)
        v = self.lib.dnnl_version().contents
        return "%d.%d.%d" % (v.major, v.minor, v.patch)

    @staticmethod
    def check(status, what):
        if status != 0:
            raise RuntimeError("oneDNN: %s failed with status %d" % (what, status))

    def md(self, dims, dt, tag):
        m = P()
        self.check(self.lib.dnnl_memory_desc_create_with_tag(
            ctypes.byref(m), len(dims), dims_t(*dims), dt, tag), "memory desc")
        return m

    def memory(self, md, array=None):
        m = P()
        handle = P(-1) if array is None else array.ctypes.data_as(P)
        if array is not None:
            self._keep.append(array)
        self.check(self.lib.dnnl_memory_create(ctypes.byref(m), md, self.engine, handle),
                   "memory")
        return m

    def query_md(self, pd, what, index=0):
        return P(self.lib.dnnl_primitive_desc_query_md(pd, what, index))

    def impl(self, pd):
        s = ctypes.c_char_p()
        self.lib.dnnl_primitive_desc_query(pd, 8, 0, ctypes.byref(s))
        return s.value.decode()

    def primitive(self, pd):
        p = P()
        self.check(self.lib.dnnl_primitive_create(ctypes.byref(p), pd), "primitive")
        return p

    def reorder_pd(self, src_md, dst_md):
        pd = P()
        self.check(self.lib.dnnl_reorder_primitive_desc_create(
            ctypes.byref(pd), src_md, self.engine, dst_md, self.engine, None), "reorder pd")
        return pd

    def runner(self, prim, args):
        """A function that executes the primitive and waits."""
        c_args = (exec_arg_t * len(args))(*[exec_arg_t(a, m) for a, m in args.items()])
        lib, stream = self.lib, self.stream

        def run():
            lib.dnnl_primitive_execute(prim, stream, len(args), c_args)
            lib.dnnl_stream_wait(stream)
        run.args = c_args
        return run
