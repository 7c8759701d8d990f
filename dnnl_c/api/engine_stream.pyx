# The Python-level C API on engines and streams.

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


# ------------------------------------------------------------ engine, stream


def dnnl_engine_get_count(kind):
    try:
        return c.dnnl_engine_get_count(<dnnl_engine_kind_t>_enum(kind, "kind"))
    except Exception as err:
        _bad(err)
        return 0


def dnnl_engine_create(engine, kind, index):
    cdef c.dnnl_engine_t e = NULL
    cdef dnnl_status_t st
    c.cydnnl_clear_error()
    try:
        out = _out(engine, dnnl_engine_t, "engine")
        st = c.dnnl_engine_create(&e, <dnnl_engine_kind_t>_enum(kind, "kind"),
                                  _size(index, "index"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &e.hdr)
    return st


def dnnl_engine_get_kind(engine, kind):
    cdef dnnl_engine_kind_t k = dnnl_any_engine
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_engine_get_kind(<c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"), &k)
        if st == dnnl_success:
            _set_out(kind, <int>k, "kind")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_engine_destroy(engine):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_engine_destroy(<c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"))
    except Exception as err:
        return _bad(err)


def dnnl_stream_create(stream, engine, flags):
    cdef c.dnnl_stream_t s = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(stream, dnnl_stream_t, "stream")
        st = c.dnnl_stream_create(&s, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                                  _unsigned(flags, "flags"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &s.hdr)
    return st


def dnnl_stream_get_engine(stream, engine):
    cdef c.dnnl_engine_t e = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(engine, dnnl_engine_t, "engine")
        st = c.dnnl_stream_get_engine(<c.const_dnnl_stream_t>_in(stream, dnnl_stream_t, "stream"), &e)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(&e.hdr)
    return st


def dnnl_stream_wait(stream):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_stream_wait(<c.dnnl_stream_t>_in(stream, dnnl_stream_t, "stream"))
    except Exception as err:
        return _bad(err)


def dnnl_stream_destroy(stream):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_stream_destroy(<c.dnnl_stream_t>_in(stream, dnnl_stream_t, "stream"))
    except Exception as err:
        return _bad(err)
