# The Python-level C API on primitive descriptors.

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


# ------------------------------------------------------------ primitive descriptors


def dnnl_primitive_desc_next_impl(primitive_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_desc_next_impl(
            <c.dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                         "primitive_desc"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_desc_clone(primitive_desc, existing_primitive_desc):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c.dnnl_primitive_desc_clone(&pd, <c.const_dnnl_primitive_desc_t>_in(
            existing_primitive_desc, dnnl_primitive_desc_t, "existing_primitive_desc"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &pd.hdr)
    return st


def dnnl_primitive_desc_get_attr(primitive_desc, attr):
    cdef c.const_dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_desc_get_attr(<c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"), &a)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(<c.obj_header *>&a.hdr)
    return st


def dnnl_primitive_desc_destroy(primitive_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_desc_destroy(
            <c.dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                         "primitive_desc"))
    except Exception as err:
        return _bad(err)


cdef int _spatial_ndims(c.const_dnnl_primitive_desc_t pd):
    cdef int i
    for i in range(pd.nargs):
        if pd.args[i].arg in (DNNL_ARG_SRC, DNNL_ARG_DIFF_SRC) and pd.args[i].md.md.ndims:
            return pd.args[i].md.md.ndims - 2
    return DNNL_MAX_NDIMS


def dnnl_primitive_desc_query(primitive_desc, what, index, result):
    """As in C; result[0] receives the answer: handles as handle objects,
    dims-like answers as tuples (spatial dims only), strings as str."""
    cdef c.const_dnnl_primitive_desc_t pd
    cdef int64_t buf[2]
    cdef dnnl_query_t q
    c.cydnnl_clear_error()
    try:
        pd = <c.const_dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                                "primitive_desc")
        q = <dnnl_query_t>_enum(what, "what")
        buf[0] = 0
        st = c.dnnl_primitive_desc_query(pd, q, _int32(index, "index"), buf)
        if st != dnnl_success:
            return st
        if q in (dnnl_query_engine, dnnl_query_scratchpad_engine, dnnl_query_reorder_src_engine,
                 dnnl_query_reorder_dst_engine):
            value = dnnl_engine_t()
            (<_handle>value).adopt(<c.obj_header *>(<void **>buf)[0])
        elif dnnl_query_some_md <= q <= dnnl_query_exec_arg_md:
            value = dnnl_memory_desc_t()
            (<_handle>value).adopt(<c.obj_header *>(<void **>buf)[0])
        elif q == dnnl_query_impl_info_str:
            value = (<bytes>(<const char **>buf)[0]).decode()
        elif q in (dnnl_query_strides, dnnl_query_dilations, dnnl_query_padding_l,
                   dnnl_query_padding_r, dnnl_query_kernel):
            value = _dims_tuple((<const c.dnnl_dim_t **>buf)[0], _spatial_ndims(pd))
        elif q in (dnnl_query_alpha_f32, dnnl_query_beta_f32, dnnl_query_k_f32):
            value = (<float *>buf)[0]
        elif q == dnnl_query_time_estimate_f64:
            value = (<double *>buf)[0]
        elif q in (dnnl_query_local_size_s64, dnnl_query_memory_consumption_s64,
                   dnnl_query_cache_blob_id_size_s64):
            value = buf[0]
        elif q == dnnl_query_cache_blob_id:
            value = b""     # the core answers NULL: the CPU engine has no cache blob ids
        elif q == dnnl_query_flags:
            value = (<unsigned *>buf)[0]
        else:
            value = (<int *>buf)[0]
        _set_out(result, value, "result")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_desc_query_md(primitive_desc, what, index):
    """The memory descriptor, or None (C's NULL) on error."""
    cdef c.const_dnnl_memory_desc_t md
    c.cydnnl_clear_error()
    try:
        md = c.dnnl_primitive_desc_query_md(<c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"),
            <dnnl_query_t>_enum(what, "what"), _int32(index, "index"))
    except Exception as err:
        _bad(err)
        return None
    if md == NULL:
        return None
    value = dnnl_memory_desc_t()
    (<_handle>value).adopt(<c.obj_header *>&md.hdr)
    return value


def dnnl_primitive_desc_query_s32(primitive_desc, what, index):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_desc_query_s32(<c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"),
            <dnnl_query_t>_enum(what, "what"), _int32(index, "index"))
    except Exception as err:
        _bad(err)
        return 0
