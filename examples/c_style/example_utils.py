"""The helpers cpu_cnn_training_f32.c takes from oneDNN's example_utils.h,
for the C-style API (dnnl_c)."""

import inspect
import sys

import numpy as np

import dnnl_c as c


def COMPLAIN_DNNL_ERROR_AND_EXIT(what, status):
    print("[%s] `%s` returns oneDNN error: %s." % (what[0], what[1], c.dnnl_status2str(status)))
    reason = c.cydnnl_last_error()
    if reason:
        print("    %s" % reason)
    print("Example failed.")
    sys.exit(1)


def CHECK(status):
    """CHECK(f): exits with the failing call's source line unless f succeeded."""
    if status != c.dnnl_success:
        caller = inspect.stack()[1]
        line = (caller.code_context or ["?"])[0].strip()
        COMPLAIN_DNNL_ERROR_AND_EXIT(("%s:%d" % (caller.filename, caller.lineno), line), status)


def parse_engine_kind(argv):
    if len(argv) == 1:
        return c.dnnl_cpu
    if len(argv) == 2:
        if argv[1] == "cpu":
            return c.dnnl_cpu
        if argv[1] == "gpu":
            if c.dnnl_engine_get_count(c.dnnl_gpu) == 0:
                print("Application couldn't find GPU, please run with CPU instead.")
                sys.exit(0)
            return c.dnnl_gpu
    print("Inappropriate engine kind.\nPlease run the example like this: %s [cpu|gpu]."
          % argv[0])
    sys.exit(1)


def _memory_bytes(mem):
    md = c.const_dnnl_memory_desc_t()
    CHECK(c.dnnl_memory_get_memory_desc(mem, md))
    size = c.dnnl_memory_desc_get_size(md)
    handle = [None]
    CHECK(c.dnnl_memory_get_data_handle(mem, handle))
    if handle[0] is None:
        return None, size
    return np.frombuffer(handle[0], dtype=np.uint8), size


def read_from_dnnl_memory(data, mem):
    """Copies the memory's bytes into the NumPy array `data` (memcpy)."""
    ptr, size = _memory_bytes(mem)
    if ptr is not None:
        data.reshape(-1).view(np.uint8)[:size] = ptr[:size]


def write_to_dnnl_memory(data, mem):
    """Copies the bytes of the NumPy array `data` into the memory (memcpy)."""
    ptr, size = _memory_bytes(mem)
    if ptr is not None:
        ptr[:size] = np.ascontiguousarray(data).reshape(-1).view(np.uint8)[:size]
