# Python-level C API of the LRN primitive. local_size must be an integer (a
# float would truncate silently).

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c._api cimport (_handle, _in, _out, _bad, _pd_created, dnnl_engine_t,
                          dnnl_memory_desc_t, dnnl_primitive_desc_t, dnnl_primitive_attr_t)
from dnnl_c.lrn cimport (dnnl_lrn_forward_primitive_desc_create as c_fwd,
                         dnnl_lrn_backward_primitive_desc_create as c_bwd)

from operator import index as _index

from dnnl_c._api import _BadArg


def dnnl_lrn_forward_primitive_desc_create(primitive_desc, engine, prop_kind, alg_kind,
                                           src_desc, dst_desc, local_size, alpha, beta, k,
                                           attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c_fwd(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                   <dnnl_prop_kind_t><int>prop_kind, <dnnl_alg_kind_t><int>alg_kind,
                   <c.const_dnnl_memory_desc_t>_in(src_desc, dnnl_memory_desc_t, "src_desc"),
                   <c.const_dnnl_memory_desc_t>_in(dst_desc, dnnl_memory_desc_t, "dst_desc"),
                   <c.dnnl_dim_t>_index(local_size), <float>alpha, <float>beta, <float>k,
                   <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_lrn_backward_primitive_desc_create(primitive_desc, engine, alg_kind, diff_src_desc,
                                            diff_dst_desc, src_desc, local_size, alpha, beta,
                                            k, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c_bwd(&pd, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                   <dnnl_alg_kind_t><int>alg_kind,
                   <c.const_dnnl_memory_desc_t>_in(diff_src_desc, dnnl_memory_desc_t,
                                                   "diff_src_desc"),
                   <c.const_dnnl_memory_desc_t>_in(diff_dst_desc, dnnl_memory_desc_t,
                                                   "diff_dst_desc"),
                   <c.const_dnnl_memory_desc_t>_in(src_desc, dnnl_memory_desc_t, "src_desc"),
                   <c.dnnl_dim_t>_index(local_size), <float>alpha, <float>beta, <float>k,
                   <c.const_dnnl_primitive_desc_t>_in(hint_fwd_pd, dnnl_primitive_desc_t,
                                                      "hint_fwd_pd"),
                   <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return _pd_created(st, out, pd)
