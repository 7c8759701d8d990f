# Python-level C API of the RNN family: LSTM, and the other cells, which
# answer dnnl_unimplemented once their arguments pass oneDNN's checks.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport (_out, _bad, _enum, _unsigned, _float, _pd_created, _md,
                                 _engine, _attr, _hint, dnnl_primitive_desc_t)
cimport dnnl_c.primitives.rnn.cells as cells
from dnnl_c.primitives.rnn.rnn cimport (
    dnnl_lstm_forward_primitive_desc_create as c_fwd,
    dnnl_lstm_backward_primitive_desc_create as c_bwd)


def dnnl_lstm_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        src_iter_c_desc, weights_layer_desc, weights_iter_desc, weights_peephole_desc,
        weights_projection_desc, bias_desc, dst_layer_desc, dst_iter_desc, dst_iter_c_desc,
        flags, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c_fwd(&pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
                   <dnnl_rnn_direction_t>_enum(direction, "direction"),
                   _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
                   _md(src_iter_c_desc, "src_iter_c_desc"),
                   _md(weights_layer_desc, "weights_layer_desc"),
                   _md(weights_iter_desc, "weights_iter_desc"),
                   _md(weights_peephole_desc, "weights_peephole_desc"),
                   _md(weights_projection_desc, "weights_projection_desc"),
                   _md(bias_desc, "bias_desc"), _md(dst_layer_desc, "dst_layer_desc"),
                   _md(dst_iter_desc, "dst_iter_desc"), _md(dst_iter_c_desc, "dst_iter_c_desc"),
                   _unsigned(flags, "flags"), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_lstm_backward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        src_iter_c_desc, weights_layer_desc, weights_iter_desc, weights_peephole_desc,
        weights_projection_desc, bias_desc, dst_layer_desc, dst_iter_desc, dst_iter_c_desc,
        diff_src_layer_desc, diff_src_iter_desc, diff_src_iter_c_desc,
        diff_weights_layer_desc, diff_weights_iter_desc, diff_weights_peephole_desc,
        diff_weights_projection_desc, diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc,
        diff_dst_iter_c_desc, flags, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c_bwd(&pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
                   <dnnl_rnn_direction_t>_enum(direction, "direction"),
                   _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
                   _md(src_iter_c_desc, "src_iter_c_desc"),
                   _md(weights_layer_desc, "weights_layer_desc"),
                   _md(weights_iter_desc, "weights_iter_desc"),
                   _md(weights_peephole_desc, "weights_peephole_desc"),
                   _md(weights_projection_desc, "weights_projection_desc"),
                   _md(bias_desc, "bias_desc"), _md(dst_layer_desc, "dst_layer_desc"),
                   _md(dst_iter_desc, "dst_iter_desc"), _md(dst_iter_c_desc, "dst_iter_c_desc"),
                   _md(diff_src_layer_desc, "diff_src_layer_desc"),
                   _md(diff_src_iter_desc, "diff_src_iter_desc"),
                   _md(diff_src_iter_c_desc, "diff_src_iter_c_desc"),
                   _md(diff_weights_layer_desc, "diff_weights_layer_desc"),
                   _md(diff_weights_iter_desc, "diff_weights_iter_desc"),
                   _md(diff_weights_peephole_desc, "diff_weights_peephole_desc"),
                   _md(diff_weights_projection_desc, "diff_weights_projection_desc"),
                   _md(diff_bias_desc, "diff_bias_desc"),
                   _md(diff_dst_layer_desc, "diff_dst_layer_desc"),
                   _md(diff_dst_iter_desc, "diff_dst_iter_desc"),
                   _md(diff_dst_iter_c_desc, "diff_dst_iter_c_desc"),
                   _unsigned(flags, "flags"), _hint(hint_fwd_pd), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


# ------------------------------------------------------------ the other cells
# (validated, then dnnl_unimplemented: see cells.pxd)


def dnnl_vanilla_rnn_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, activation, direction, src_layer_desc,
        src_iter_desc, weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc,
        dst_iter_desc, flags, alpha, beta, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_vanilla_rnn_forward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_alg_kind_t>_enum(activation, "activation"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _unsigned(flags, "flags"), _float(alpha, "alpha"), _float(beta, "beta"),
            _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_vanilla_rnn_backward_primitive_desc_create(
        primitive_desc, engine, prop_kind, activation, direction, src_layer_desc,
        src_iter_desc, weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc,
        dst_iter_desc, diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc,
        diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc, flags,
        alpha, beta, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_vanilla_rnn_backward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_alg_kind_t>_enum(activation, "activation"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _md(diff_src_layer_desc, "diff_src_layer_desc"),
            _md(diff_src_iter_desc, "diff_src_iter_desc"),
            _md(diff_weights_layer_desc, "diff_weights_layer_desc"),
            _md(diff_weights_iter_desc, "diff_weights_iter_desc"),
            _md(diff_bias_desc, "diff_bias_desc"),
            _md(diff_dst_layer_desc, "diff_dst_layer_desc"),
            _md(diff_dst_iter_desc, "diff_dst_iter_desc"), _unsigned(flags, "flags"),
            _float(alpha, "alpha"), _float(beta, "beta"), _hint(hint_fwd_pd), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_gru_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags,
        attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_gru_forward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _unsigned(flags, "flags"), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_gru_backward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc,
        diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc,
        diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc, flags,
        hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_gru_backward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _md(diff_src_layer_desc, "diff_src_layer_desc"),
            _md(diff_src_iter_desc, "diff_src_iter_desc"),
            _md(diff_weights_layer_desc, "diff_weights_layer_desc"),
            _md(diff_weights_iter_desc, "diff_weights_iter_desc"),
            _md(diff_bias_desc, "diff_bias_desc"),
            _md(diff_dst_layer_desc, "diff_dst_layer_desc"),
            _md(diff_dst_iter_desc, "diff_dst_iter_desc"), _unsigned(flags, "flags"),
            _hint(hint_fwd_pd), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_lbr_gru_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags,
        attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_lbr_gru_forward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _unsigned(flags, "flags"), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_lbr_gru_backward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc,
        diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc,
        diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc, flags,
        hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_lbr_gru_backward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _md(diff_src_layer_desc, "diff_src_layer_desc"),
            _md(diff_src_iter_desc, "diff_src_iter_desc"),
            _md(diff_weights_layer_desc, "diff_weights_layer_desc"),
            _md(diff_weights_iter_desc, "diff_weights_iter_desc"),
            _md(diff_bias_desc, "diff_bias_desc"),
            _md(diff_dst_layer_desc, "diff_dst_layer_desc"),
            _md(diff_dst_iter_desc, "diff_dst_iter_desc"), _unsigned(flags, "flags"),
            _hint(hint_fwd_pd), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_augru_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        attention_desc, weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc,
        dst_iter_desc, flags, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_augru_forward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(attention_desc, "attention_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _unsigned(flags, "flags"), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_augru_backward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        attention_desc, weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc,
        dst_iter_desc, diff_src_layer_desc, diff_src_iter_desc, diff_attention_desc,
        diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc,
        diff_dst_iter_desc, flags, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_augru_backward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(attention_desc, "attention_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _md(diff_src_layer_desc, "diff_src_layer_desc"),
            _md(diff_src_iter_desc, "diff_src_iter_desc"),
            _md(diff_attention_desc, "diff_attention_desc"),
            _md(diff_weights_layer_desc, "diff_weights_layer_desc"),
            _md(diff_weights_iter_desc, "diff_weights_iter_desc"),
            _md(diff_bias_desc, "diff_bias_desc"),
            _md(diff_dst_layer_desc, "diff_dst_layer_desc"),
            _md(diff_dst_iter_desc, "diff_dst_iter_desc"), _unsigned(flags, "flags"),
            _hint(hint_fwd_pd), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_lbr_augru_forward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        attention_desc, weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc,
        dst_iter_desc, flags, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_lbr_augru_forward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(attention_desc, "attention_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _unsigned(flags, "flags"), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)


def dnnl_lbr_augru_backward_primitive_desc_create(
        primitive_desc, engine, prop_kind, direction, src_layer_desc, src_iter_desc,
        attention_desc, weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc,
        dst_iter_desc, diff_src_layer_desc, diff_src_iter_desc, diff_attention_desc,
        diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc,
        diff_dst_iter_desc, flags, hint_fwd_pd, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = cells.dnnl_lbr_augru_backward_primitive_desc_create(
            &pd, _engine(engine), <dnnl_prop_kind_t>_enum(prop_kind, "prop_kind"),
            <dnnl_rnn_direction_t>_enum(direction, "direction"),
            _md(src_layer_desc, "src_layer_desc"), _md(src_iter_desc, "src_iter_desc"),
            _md(attention_desc, "attention_desc"),
            _md(weights_layer_desc, "weights_layer_desc"),
            _md(weights_iter_desc, "weights_iter_desc"), _md(bias_desc, "bias_desc"),
            _md(dst_layer_desc, "dst_layer_desc"), _md(dst_iter_desc, "dst_iter_desc"),
            _md(diff_src_layer_desc, "diff_src_layer_desc"),
            _md(diff_src_iter_desc, "diff_src_iter_desc"),
            _md(diff_attention_desc, "diff_attention_desc"),
            _md(diff_weights_layer_desc, "diff_weights_layer_desc"),
            _md(diff_weights_iter_desc, "diff_weights_iter_desc"),
            _md(diff_bias_desc, "diff_bias_desc"),
            _md(diff_dst_layer_desc, "diff_dst_layer_desc"),
            _md(diff_dst_iter_desc, "diff_dst_iter_desc"), _unsigned(flags, "flags"),
            _hint(hint_fwd_pd), _attr(attr))
    except Exception as err:
        return _bad(err)
    return _pd_created(st, out, pd)
