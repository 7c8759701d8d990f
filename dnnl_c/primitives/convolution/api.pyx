# Python-level C API of the convolution primitive.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport (_out, _bad, _enum, _opt_dims, _pd_created, _md, _engine,
                                 _attr, _hint, _spatial_dims, dnnl_primitive_desc_t)
from dnnl_c.primitives.convolution.convolution cimport (
    dnnl_convolution_forward_primitive_desc_create as c_fwd,
    dnnl_convolution_backward_data_primitive_desc_create as c_bwd_data,
    dnnl_convolution_backward_weights_primitive_desc_create as c_bwd_weights)


def dnnl_convolution_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, alg_kind, src_desc, weights_desc, bias_desc,
        dst_desc, strides, dilates, padding_l, padding_r, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, d, pl, pr
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        sp = _spatial_dims(src_desc, "src_desc")
        st = c_fwd(&pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
                   <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"), _md(src_desc, "src_desc"),
                   _md(weights_desc, "weights_desc"), _md(bias_desc, "bias_desc"),
                   _md(dst_desc, "dst_desc"), _opt_dims(strides, s, sp, "strides"),
                   _opt_dims(dilates, d, sp, "dilates"), _opt_dims(padding_l, pl, sp, "padding_l"),
                   _opt_dims(padding_r, pr, sp, "padding_r"), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_convolution_backward_data_primitive_desc_create(
        primitive_desc, engine, alg_kind, diff_src_desc, weights_desc, diff_dst_desc, strides,
        dilates, padding_l, padding_r, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, d, pl, pr
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        sp = _spatial_dims(diff_src_desc, "diff_src_desc")
        st = c_bwd_data(&pd, _engine(engine), <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                        _md(diff_src_desc, "diff_src_desc"), _md(weights_desc, "weights_desc"),
                        _md(diff_dst_desc, "diff_dst_desc"), _opt_dims(strides, s, sp, "strides"),
                        _opt_dims(dilates, d, sp, "dilates"),
                        _opt_dims(padding_l, pl, sp, "padding_l"),
                        _opt_dims(padding_r, pr, sp, "padding_r"), _hint(hint_fwd_pd),
                        _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_convolution_backward_weights_primitive_desc_create(
        primitive_desc, engine, alg_kind, src_desc, diff_weights_desc, diff_bias_desc,
        diff_dst_desc, strides, dilates, padding_l, padding_r, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    cdef c.dnnl_dims_t s, d, pl, pr
    cdef int sp
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        sp = _spatial_dims(src_desc, "src_desc")
        st = c_bwd_weights(&pd, _engine(engine), <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                           _md(src_desc, "src_desc"), _md(diff_weights_desc, "diff_weights_desc"),
                           _md(diff_bias_desc, "diff_bias_desc"),
                           _md(diff_dst_desc, "diff_dst_desc"),
                           _opt_dims(strides, s, sp, "strides"), _opt_dims(dilates, d, sp, "dilates"),
                           _opt_dims(padding_l, pl, sp, "padding_l"),
                           _opt_dims(padding_r, pr, sp, "padding_r"), _hint(hint_fwd_pd),
                           _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)
