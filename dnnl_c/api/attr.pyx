# The Python-level C API on primitive attributes.

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


# ------------------------------------------------------------ attributes


def dnnl_primitive_attr_create(attr):
    cdef c.dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_attr_create(&a)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &a.hdr)
    return st


def dnnl_primitive_attr_clone(attr, existing_attr):
    cdef c.dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_attr_clone(&a, <c.const_dnnl_primitive_attr_t>_in(
            existing_attr, dnnl_primitive_attr_t, "existing_attr"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &a.hdr)
    return st


def dnnl_primitive_attr_destroy(attr):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_destroy(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_scratchpad_mode(attr, mode):
    cdef dnnl_scratchpad_mode_t m = dnnl_scratchpad_mode_library
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_scratchpad_mode(
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_scratchpad_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_scratchpad_mode(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"),
            <dnnl_scratchpad_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_fpmath_mode(attr, mode):
    cdef dnnl_fpmath_mode_t m = dnnl_fpmath_mode_strict
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_fpmath_mode(
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_fpmath_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_fpmath_mode(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"),
            <dnnl_fpmath_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)
