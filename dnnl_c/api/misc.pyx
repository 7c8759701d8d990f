# The Python-level C API: errors, verbose, version, names of enum values.

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


def cydnnl_last_error():
    """Why the last call of this thread failed ('' if it did not)."""
    return (<bytes>c.cydnnl_last_error()).decode("utf-8", "replace")


# ------------------------------------------------------------ misc


def dnnl_set_verbose(level):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_verbose(_int32(level, "level"))
    except Exception as err:
        return _bad(err)


class dnnl_version_t:
    def __init__(self, major, minor, patch, hash, cpu_runtime, gpu_runtime):
        self.major, self.minor, self.patch = major, minor, patch
        self.hash, self.cpu_runtime, self.gpu_runtime = hash, cpu_runtime, gpu_runtime

    def __repr__(self):
        return "dnnl_version_t(%d.%d.%d, %s)" % (self.major, self.minor, self.patch, self.hash)


def dnnl_version():
    cdef const c.dnnl_version_t *v = c.dnnl_version()
    return dnnl_version_t(v.major, v.minor, v.patch, (<bytes>v.hash).decode(),
                          v.cpu_runtime, v.gpu_runtime)


cdef str _s(const char *p):
    return (<bytes>p).decode()


cdef int _value(object v):
    """The enum value a *2str helper names; anything that is not a C int
    (2**70, nan, None, a str) maps to a value no table has, so the answer is
    oneDNN's "unknown ..." string, as for an out-of-range int in C."""
    try:
        return _enum(v, "v")
    except Exception:
        return -2**31


def dnnl_status2str(v): return _s(c.dnnl_status2str(<dnnl_status_t>_value(v)))
def dnnl_dt2str(v): return _s(c.dnnl_dt2str(<dnnl_data_type_t>_value(v)))
def dnnl_fmt_kind2str(v): return _s(c.dnnl_fmt_kind2str(<dnnl_format_kind_t>_value(v)))
def dnnl_fmt_tag2str(v): return _s(c.dnnl_fmt_tag2str(<dnnl_format_tag_t>_value(v)))
def dnnl_prop_kind2str(v): return _s(c.dnnl_prop_kind2str(<dnnl_prop_kind_t>_value(v)))
def dnnl_prim_kind2str(v): return _s(c.dnnl_prim_kind2str(<dnnl_primitive_kind_t>_value(v)))
def dnnl_alg_kind2str(v): return _s(c.dnnl_alg_kind2str(<dnnl_alg_kind_t>_value(v)))
def dnnl_engine_kind2str(v): return _s(c.dnnl_engine_kind2str(<dnnl_engine_kind_t>_value(v)))
def dnnl_rnn_direction2str(v):
    return _s(c.dnnl_rnn_direction2str(<dnnl_rnn_direction_t>_value(v)))
def dnnl_rnn_flags2str(v): return _s(c.dnnl_rnn_flags2str(<dnnl_rnn_flags_t>_value(v)))
def dnnl_scratchpad_mode2str(v):
    return _s(c.dnnl_scratchpad_mode2str(<dnnl_scratchpad_mode_t>_value(v)))
def dnnl_fpmath_mode2str(v): return _s(c.dnnl_fpmath_mode2str(<dnnl_fpmath_mode_t>_value(v)))
def dnnl_query2str(v): return _s(c.dnnl_query2str(<dnnl_query_t>_value(v)))


def dnnl_runtime2str(v):
    """The name of a DNNL_RUNTIME_* value ("OpenMP"), as verbose's header prints it."""
    try:
        return _s(c.dnnl_runtime2str(<unsigned>_unsigned(v, "runtime")))
    except Exception:
        return "unknown"
