# The Python-level C API on the primitive cache.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


def dnnl_get_primitive_cache_capacity(capacity):
    """capacity[0] receives the capacity."""
    cdef int n = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_get_primitive_cache_capacity(&n)
        if st == dnnl_success:
            _set_out(capacity, n, "capacity")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_set_primitive_cache_capacity(capacity):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_primitive_cache_capacity(_int32(capacity, "capacity"))
    except Exception as err:
        return _bad(err)


def cydnnl_primitive_cache_get_size():
    """How many primitive implementations the cache holds now."""
    return c.cydnnl_primitive_cache_get_size()
