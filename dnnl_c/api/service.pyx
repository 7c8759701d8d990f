# The Python-level C API on verbose profiling and the JIT-code settings
# (which have nothing to act on here: see dnnl_c/core/service.pyx).

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


def dnnl_verbose_profiling_enabled(enabled):
    """enabled[0] receives 1 when verbose prints creation or execution times."""
    cdef int e = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_verbose_profiling_enabled(&e)
        if st == dnnl_success:
            _set_out(enabled, e, "enabled")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_set_jit_dump(enable):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_jit_dump(_int32(enable, "enable"))
    except Exception as err:
        return _bad(err)


def dnnl_set_jit_profiling_flags(flags):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_jit_profiling_flags(_unsigned(flags, "flags"))
    except Exception as err:
        return _bad(err)


def dnnl_set_jit_profiling_jitdumpdir(dir):
    """dir: a str (or bytes) path; None is C's NULL."""
    cdef bytes b
    c.cydnnl_clear_error()
    try:
        if dir is None:
            return c.dnnl_set_jit_profiling_jitdumpdir(NULL)
        if isinstance(dir, str):
            b = dir.encode("utf-8")
        elif isinstance(dir, bytes):
            b = dir
        else:
            _fail("dir must be a str, not %s" % _what(dir))
        if b"\0" in b:
            _fail("dir must not contain NUL characters")
        return c.dnnl_set_jit_profiling_jitdumpdir(b)
    except Exception as err:
        return _bad(err)
