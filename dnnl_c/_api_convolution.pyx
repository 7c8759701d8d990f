# Python-level C API of the convolution primitive.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c._api cimport (_handle, _in, _out, _bad, _opt_dims, _pd_created, dnnl_engine_t,
                          dnnl_memory_desc_t, dnnl_primitive_desc_t, dnnl_primitive_attr_t)
from dnnl_c.convolution cimport (
    dnnl_convolution_forward_primitive_desc_create as c_fwd,
    dnnl_convolution_backward_data_primitive_desc_create as c_bwd_data,
    dnnl_convolution_backward_weights_primitive_desc_create as c_bwd_weights)

from dnnl_c._api import _BadArg


cdef c.const_dnnl_memory_desc_t _md(object h, str name) except? NULL:
    return <c.const_dnnl_memory_desc_t>_in(h, dnnl_memory_desc_t, name)


cdef int _spatial(c.const_dnnl_memory_desc_t md):
    """How many entries the strides/padding arrays must have."""
    if md != NULL and c.obj_alive(&md.hdr, c.OBJ_MEMORY_DESC) and md.md.ndims > 2:
        return md.md.ndims - 2
    return 1


def dnnl_convolution_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, alg_kind, src_desc, weights_desc, bias_desc,
        dst_desc, strides, dilates, padding_l, padding_r, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, d, pl, pr
    cdef c.const_dnnl_memory_desc_t src
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        src = _md(src_desc, "src_desc")
        sp = _spatial(src)
        st = c_fwd(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                   <dnnl_prop_kind_t><int>prop_kind, <dnnl_alg_kind_t><int>alg_kind, src,
                   _md(weights_desc, "weights_desc"), _md(bias_desc, "bias_desc"),
                   _md(dst_desc, "dst_desc"), _opt_dims(strides, s, sp, "strides"),
                   _opt_dims(dilates, d, sp, "dilates"), _opt_dims(padding_l, pl, sp, "padding_l"),
                   _opt_dims(padding_r, pr, sp, "padding_r"),
                   <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_convolution_backward_data_primitive_desc_create(
        primitive_desc, engine, alg_kind, diff_src_desc, weights_desc, diff_dst_desc, strides,
        dilates, padding_l, padding_r, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, d, pl, pr
    cdef c.const_dnnl_memory_desc_t src
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        src = _md(diff_src_desc, "diff_src_desc")
        sp = _spatial(src)
        st = c_bwd_data(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                        <dnnl_alg_kind_t><int>alg_kind, src, _md(weights_desc, "weights_desc"),
                        _md(diff_dst_desc, "diff_dst_desc"), _opt_dims(strides, s, sp, "strides"),
                        _opt_dims(dilates, d, sp, "dilates"),
                        _opt_dims(padding_l, pl, sp, "padding_l"),
                        _opt_dims(padding_r, pr, sp, "padding_r"),
                        <c.const_dnnl_primitive_desc_t>_in(hint_fwd_pd, dnnl_primitive_desc_t,
                                                           "hint_fwd_pd"),
                        <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_convolution_backward_weights_primitive_desc_create(
        primitive_desc, engine, alg_kind, src_desc, diff_weights_desc, diff_bias_desc,
        diff_dst_desc, strides, dilates, padding_l, padding_r, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, d, pl, pr
    cdef c.const_dnnl_memory_desc_t src
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        src = _md(src_desc, "src_desc")
        sp = _spatial(src)
        st = c_bwd_weights(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                           <dnnl_alg_kind_t><int>alg_kind, src,
                           _md(diff_weights_desc, "diff_weights_desc"),
                           _md(diff_bias_desc, "diff_bias_desc"),
                           _md(diff_dst_desc, "diff_dst_desc"),
                           _opt_dims(strides, s, sp, "strides"), _opt_dims(dilates, d, sp, "dilates"),
                           _opt_dims(padding_l, pl, sp, "padding_l"),
                           _opt_dims(padding_r, pr, sp, "padding_r"),
                           <c.const_dnnl_primitive_desc_t>_in(hint_fwd_pd, dnnl_primitive_desc_t,
                                                              "hint_fwd_pd"),
                           <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t,
                                                              "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)
