"""The real oneDNN, for benchmarks: its C API through ctypes.

The reference is oneDNN v3.2 with the OpenMP runtime (PyPI's
`onednn-cpu-gomp` 2023.2.0; `onednn-devel-cpu-gomp` adds the headers). Install
it once in a venv of its own, never into the project's environment, and point
ONEDNN_PREFIX at the venv (its lib/ holds libdnnl.so.3):

    python -m venv /tmp/onednn32
    /tmp/onednn32/bin/pip install onednn-cpu-gomp==2023.2.0 onednn-devel-cpu-gomp==2023.2.0
    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_cnn_block.py

PyPI's `onednn` wheel (v3.13, SYCL CPU runtime) works the same way
(ONEDNN_PREFIX=/tmp/onednn). It needs its runtime libraries on
LD_LIBRARY_PATH and the OpenCL CPU driver named in OCL_ICD_FILENAMES;
`ensure_environment()` sets both and re-executes the script when they are
missing. The 3.2 OpenMP build needs only the system's libgomp, the OpenMP
runtime cydnnl uses too, so both libraries share one thread pool.

The functions and enum values used here (primitive descriptor creation for
convolution, eltwise, LRN, pooling, LSTM and reorder, queries, memory, ISA
controls, format tags) have the same signatures and numbers in the 3.2 and
3.13 headers.
"""

import ctypes
import os
import sys

import numpy as np

P = ctypes.c_void_p
dims_t = ctypes.c_int64 * 12
UNIMPLEMENTED = 3  # dnnl_unimplemented
BF16, F32 = 2, 3  # dnnl_data_type_t
FORMAT_ANY = 1  # dnnl_format_tag_any
WORKSPACE_MD, EXEC_ARG_MD = 135, 255  # dnnl_query_workspace_md, dnnl_query_exec_arg_md
RUNTIMES = {1: "sequential", 2: "OpenMP", 4: "TBB", 8: "threadpool", 512: "SYCL"}


class exec_arg_t(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", P)]


class version_t(ctypes.Structure):
    _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int),
                ("patch", ctypes.c_int), ("hash", ctypes.c_char_p),
                ("cpu_runtime", ctypes.c_uint), ("gpu_runtime", ctypes.c_uint)]


class Unimplemented(RuntimeError):
    """oneDNN answered dnnl_unimplemented (no implementation at this ISA
    level, data type or layout)."""


def prefix():
    return os.environ.get("ONEDNN_PREFIX", "")


def library_dir():
    return os.path.join(prefix(), "lib")


def ensure_environment():
    """Re-executes the current script with the variables a SYCL build of
    libdnnl needs; returns False when no oneDNN installation is configured."""
    p = prefix()
    if not p or not os.path.exists(os.path.join(library_dir(), "libdnnl.so.3")):
        return False
    lib = library_dir()
    sycl = os.path.exists(os.path.join(lib, "libintelocl.so"))
    if sycl and lib not in os.environ.get("LD_LIBRARY_PATH", "").split(":"):
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
    print("reference: oneDNN %s (%s via ctypes)" % (lib.version(), lib.path))
    return lib


class OneDNN:
    """A thin handle-owning wrapper over libdnnl's C API."""

    def __init__(self, path=None):
        """path: a libdnnl.so.3 (default: ONEDNN_PREFIX's). Two versions may
        be open in one process (3.2 and 3.13 were, each with its own symbols)."""
        self.path = path or os.path.join(library_dir(), "libdnnl.so.3")
        self.lib = ctypes.CDLL(self.path, mode=os.RTLD_LOCAL)
        self.lib.dnnl_primitive_desc_query_md.restype = P
        self.lib.dnnl_memory_desc_get_size.restype = ctypes.c_size_t
        self.lib.dnnl_version.restype = ctypes.POINTER(version_t)
        self.engine, self.stream = P(), P()
        self.check(self.lib.dnnl_engine_create(ctypes.byref(self.engine), 1, 0), "engine")
        self.check(self.lib.dnnl_stream_create(ctypes.byref(self.stream), self.engine, 1),
                   "stream")
        self._keep = []

    def version(self):
        """"3.2.0 (OpenMP)": dnnl_version() and its CPU runtime."""
        v = self.lib.dnnl_version().contents
        return "%d.%d.%d (%s)" % (v.major, v.minor, v.patch,
                                  RUNTIMES.get(v.cpu_runtime, "runtime %d" % v.cpu_runtime))

    def effective_isa(self):
        """dnnl_get_effective_cpu_isa(): a dnnl_cpu_isa_t value (fixes the limit)."""
        return self.lib.dnnl_get_effective_cpu_isa()

    @staticmethod
    def check(status, what):
        if status == UNIMPLEMENTED:
            raise Unimplemented("oneDNN: %s is unimplemented" % what)
        if status != 0:
            raise RuntimeError("oneDNN: %s failed with status %d" % (what, status))

    def md(self, dims, dt, tag):
        m = P()
        self.check(self.lib.dnnl_memory_desc_create_with_tag(
            ctypes.byref(m), len(dims), dims_t(*dims), dt, tag), "memory desc")
        return m

    def md_strides(self, dims, dt, strides):
        """dnnl_memory_desc_create_with_strides (plain layouts without
        relying on format-tag numbers)."""
        m = P()
        self.check(self.lib.dnnl_memory_desc_create_with_strides(
            ctypes.byref(m), len(dims), dims_t(*dims), dt, dims_t(*strides)), "memory desc")
        return m

    def plain_md(self, dims, dt=F32):
        """The dense row-major layout (abc..: tnc, ldnc, ldigo, ldgo)."""
        strides, s = [], 1
        for d in reversed(dims):
            strides.insert(0, s)
            s *= d
        return self.md_strides(dims, dt, strides)

    def any_md(self, dims, dt=F32):
        return self.md(dims, dt, FORMAT_ANY)

    def submemory_md(self, parent, dims, offsets):
        """dnnl_memory_desc_create_submemory: a view into `parent` (offset0 and
        the parent's strides)."""
        m = P()
        self.check(self.lib.dnnl_memory_desc_create_submemory(
            ctypes.byref(m), parent, dims_t(*dims), dims_t(*offsets)), "submemory desc")
        return m

    def md_size(self, md):
        return self.lib.dnnl_memory_desc_get_size(md)

    def md_equal(self, a, b):
        return bool(self.lib.dnnl_memory_desc_equal(a, b))

    def zeros_memory(self, md):
        """A memory over a zero-filled buffer the size of `md` (library
        allocations are uninitialized; accumulating outputs want zeros)."""
        return self.memory(md, np.zeros(max(self.md_size(md), 1), np.uint8))

    def arg_md(self, pd, arg):
        """The md of execution argument `arg` (DNNL_ARG_*): exec_arg_md."""
        return self.query_md(pd, EXEC_ARG_MD, arg)

    def reorder(self, src_mem, src_md, dst_mem, dst_md):
        """Runs one reorder src -> dst now."""
        self.runner(self.primitive(self.reorder_pd(src_md, dst_md)),
                    {1: src_mem, 17: dst_mem})()   # DNNL_ARG_FROM, DNNL_ARG_TO

    def lstm_forward_pd(self, prop_kind, direction, src_layer, src_iter, src_iter_c,
                        weights_layer, weights_iter, bias, dst_layer, dst_iter, dst_iter_c,
                        weights_peephole=None, weights_projection=None, flags=0):
        """dnnl_lstm_forward_primitive_desc_create (3.2's signature; None is
        NULL: an absent tensor)."""
        f = self.lib.dnnl_lstm_forward_primitive_desc_create
        f.argtypes = [ctypes.POINTER(P), P, ctypes.c_int, ctypes.c_int] + [P] * 11 + [
            ctypes.c_uint, P]
        pd = P()
        self.check(f(ctypes.byref(pd), self.engine, prop_kind, direction, src_layer, src_iter,
                     src_iter_c, weights_layer, weights_iter, weights_peephole,
                     weights_projection, bias, dst_layer, dst_iter, dst_iter_c, flags, None),
                   "lstm fwd pd")
        return pd

    def lstm_backward_pd(self, direction, src_layer, src_iter, src_iter_c, weights_layer,
                         weights_iter, bias, dst_layer, dst_iter, dst_iter_c,
                         diff_src_layer, diff_src_iter, diff_src_iter_c, diff_weights_layer,
                         diff_weights_iter, diff_bias, diff_dst_layer, diff_dst_iter,
                         diff_dst_iter_c, hint_fwd_pd, weights_peephole=None,
                         weights_projection=None, diff_weights_peephole=None,
                         diff_weights_projection=None, flags=0):
        """dnnl_lstm_backward_primitive_desc_create (3.2's signature,
        prop_kind backward)."""
        f = self.lib.dnnl_lstm_backward_primitive_desc_create
        f.argtypes = [ctypes.POINTER(P), P, ctypes.c_int, ctypes.c_int] + [P] * 22 + [
            ctypes.c_uint, P, P]
        pd = P()
        self.check(f(ctypes.byref(pd), self.engine, 128, direction,   # dnnl_backward
                     src_layer, src_iter, src_iter_c, weights_layer, weights_iter,
                     weights_peephole, weights_projection, bias, dst_layer, dst_iter,
                     dst_iter_c, diff_src_layer, diff_src_iter, diff_src_iter_c,
                     diff_weights_layer, diff_weights_iter, diff_weights_peephole,
                     diff_weights_projection, diff_bias, diff_dst_layer, diff_dst_iter,
                     diff_dst_iter_c, flags, hint_fwd_pd, None), "lstm bwd pd")
        return pd

    def memory(self, md, array=None):
        m = P()
        handle = P(-1) if array is None else array.ctypes.data_as(P)
        if array is not None:
            self._keep.append(array)
        self.check(self.lib.dnnl_memory_create(ctypes.byref(m), md, self.engine, handle),
                   "memory")
        return m

    def filled_memory(self, md, data_type, rng):
        """A memory holding uniform values in [0.1, 1) (f32, or bf16 as the
        top halves of f32), like the inputs the benchmarks give cydnnl."""
        size = self.lib.dnnl_memory_desc_get_size(md)
        values = rng.uniform(0.1, 1, size // 4 if data_type == F32 else size // 2)
        values = values.astype(np.float32)
        if data_type == BF16:
            values = (values.view(np.uint32) >> 16).astype(np.uint16)
        elif data_type != F32:
            raise ValueError("filled_memory: f32 or bf16 only")
        return self.memory(md, values)

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
