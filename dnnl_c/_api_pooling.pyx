# Python-level C API of the pooling primitive.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c._api cimport (_handle, _in, _out, _bad, _pd_created, _opt_dims, dnnl_engine_t,
                          dnnl_memory_desc_t, dnnl_primitive_desc_t, dnnl_primitive_attr_t)
from dnnl_c.pooling cimport (dnnl_pooling_forward_primitive_desc_create as c_fwd,
                             dnnl_pooling_backward_primitive_desc_create as c_bwd)

from dnnl_c._api import _BadArg


cdef int _spatial_dims(object md, str name) except -1:
    """How many entries the dims arguments need: the spatial dims of a live
    md (0 otherwise; the C call then rejects the md)."""
    cdef c.obj_header *p = _in(md, dnnl_memory_desc_t, name)
    if p != NULL and c.obj_alive(p, c.OBJ_MEMORY_DESC):
        return max((<c.dnnl_memory_desc *>p).md.ndims - 2, 0)
    return 0


def dnnl_pooling_forward_primitive_desc_create(primitive_desc, engine, prop_kind, alg_kind,
                                               src_desc, dst_desc, strides, kernel, dilation,
                                               padding_l, padding_r, attr):
    """As in C. The dims arguments are sequences of ints with one entry per
    spatial dim; None is C's NULL."""
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, k, d, pl, pr
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        sp = _spatial_dims(src_desc, "src_desc")
        st = c_fwd(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                   <dnnl_prop_kind_t><int>prop_kind, <dnnl_alg_kind_t><int>alg_kind,
                   <c.const_dnnl_memory_desc_t>_in(src_desc, dnnl_memory_desc_t, "src_desc"),
                   <c.const_dnnl_memory_desc_t>_in(dst_desc, dnnl_memory_desc_t, "dst_desc"),
                   _opt_dims(strides, s, sp, "strides"), _opt_dims(kernel, k, sp, "kernel"),
                   _opt_dims(dilation, d, sp, "dilation"),
                   _opt_dims(padding_l, pl, sp, "padding_l"),
                   _opt_dims(padding_r, pr, sp, "padding_r"),
                   <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_pooling_backward_primitive_desc_create(primitive_desc, engine, alg_kind, diff_src_desc,
                                                diff_dst_desc, strides, kernel, dilation,
                                                padding_l, padding_r, hint_fwd_pd, attr):
    """As in C. The dims arguments are sequences of ints with one entry per
    spatial dim; None is C's NULL."""
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, k, d, pl, pr
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        sp = _spatial_dims(diff_src_desc, "diff_src_desc")
        st = c_bwd(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                   <dnnl_alg_kind_t><int>alg_kind,
                   <c.const_dnnl_memory_desc_t>_in(diff_src_desc, dnnl_memory_desc_t,
                                                   "diff_src_desc"),
                   <c.const_dnnl_memory_desc_t>_in(diff_dst_desc, dnnl_memory_desc_t,
                                                   "diff_dst_desc"),
                   _opt_dims(strides, s, sp, "strides"), _opt_dims(kernel, k, sp, "kernel"),
                   _opt_dims(dilation, d, sp, "dilation"),
                   _opt_dims(padding_l, pl, sp, "padding_l"),
                   _opt_dims(padding_r, pr, sp, "padding_r"),
                   <c.const_dnnl_primitive_desc_t>_in(hint_fwd_pd, dnnl_primitive_desc_t,
                                                      "hint_fwd_pd"),
                   <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)
