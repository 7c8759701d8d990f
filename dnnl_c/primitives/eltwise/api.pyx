# Python-level C API of the eltwise primitive.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport (_out, _bad, _enum, _float, _pd_created, _md, _engine, _attr,
                                 _hint, dnnl_primitive_desc_t)
from dnnl_c.primitives.eltwise.eltwise cimport (dnnl_eltwise_forward_primitive_desc_create as c_fwd,
                             dnnl_eltwise_backward_primitive_desc_create as c_bwd)


def dnnl_eltwise_forward_primitive_desc_create(primitive_desc, engine, prop_kind, alg_kind,
                                               src_desc, dst_desc, alpha, beta, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c_fwd(&pd, _engine(engine),
                   <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
                   <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                   _md(src_desc, "src_desc"),
                   _md(dst_desc, "dst_desc"),
                   _float(alpha, "alpha"), _float(beta, "beta"),
                   _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_eltwise_backward_primitive_desc_create(primitive_desc, engine, alg_kind, diff_src_desc,
                                                diff_dst_desc, data_desc, alpha, beta,
                                                hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c_bwd(&pd, _engine(engine),
                   <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                   _md(diff_src_desc, "diff_src_desc"),
                   _md(diff_dst_desc, "diff_dst_desc"),
                   _md(data_desc, "data_desc"),
                   _float(alpha, "alpha"), _float(beta, "beta"),
                   _hint(hint_fwd_pd),
                   _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)
