# Python-level C API of the pooling primitive.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport (_out, _bad, _enum, _opt_dims, _pd_created, _md, _engine,
                                 _attr, _hint, _spatial_dims, dnnl_primitive_desc_t)
from dnnl_c.primitives.pooling.pooling cimport (dnnl_pooling_forward_primitive_desc_create as c_fwd,
                             dnnl_pooling_backward_primitive_desc_create as c_bwd)


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
        st = c_fwd(&pd, _engine(engine),
                   <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
                   <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                   _md(src_desc, "src_desc"),
                   _md(dst_desc, "dst_desc"),
                   _opt_dims(strides, s, sp, "strides"), _opt_dims(kernel, k, sp, "kernel"),
                   _opt_dims(dilation, d, sp, "dilation"),
                   _opt_dims(padding_l, pl, sp, "padding_l"),
                   _opt_dims(padding_r, pr, sp, "padding_r"),
                   _attr(attr))
    except Exception as err:
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
        st = c_bwd(&pd, _engine(engine),
                   <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                   _md(diff_src_desc, "diff_src_desc"),
                   _md(diff_dst_desc, "diff_dst_desc"),
                   _opt_dims(strides, s, sp, "strides"), _opt_dims(kernel, k, sp, "kernel"),
                   _opt_dims(dilation, d, sp, "dilation"),
                   _opt_dims(padding_l, pl, sp, "padding_l"),
                   _opt_dims(padding_r, pr, sp, "padding_r"),
                   _hint(hint_fwd_pd),
                   _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)
