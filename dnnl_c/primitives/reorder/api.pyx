# Python-level C API of the reorder primitive.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport (_in, _out, _bad, _adopt_new, dnnl_memory_desc_t,
                                 dnnl_engine_t, dnnl_primitive_attr_t, dnnl_primitive_desc_t)
from dnnl_c.primitives.reorder.reorder cimport (
    dnnl_reorder_primitive_desc_create as c_reorder_pd_create)


def dnnl_reorder_primitive_desc_create(reorder_primitive_desc, src_desc, src_engine,
                                       dst_desc, dst_engine, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(reorder_primitive_desc, dnnl_primitive_desc_t, "reorder_primitive_desc")
        st = c_reorder_pd_create(
            &pd, <c.const_dnnl_memory_desc_t>_in(src_desc, dnnl_memory_desc_t, "src_desc"),
            <c.dnnl_engine_t>_in(src_engine, dnnl_engine_t, "src_engine"),
            <c.const_dnnl_memory_desc_t>_in(dst_desc, dnnl_memory_desc_t, "dst_desc"),
            <c.dnnl_engine_t>_in(dst_engine, dnnl_engine_t, "dst_engine"),
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &pd.hdr)
    return st
