"""Primitive attributes and post-ops (dnnl_c and the object layer): each
setter stores what oneDNN stores and refuses what oneDNN refuses; clones are
deep; attributes no implementation honours make primitive descriptor
creation dnnl_unimplemented (named in the message) for every family, while
the honoured modes (fpmath, deterministic, strict/relaxed/any/f32
accumulation) give the results of the defaults; the default fpmath mode."""

import subprocess
import sys

import numpy as np
import pytest

import dnnl
import dnnl_c as c
import isa_probe
from dnnl import algorithm, memory, prop_kind
from helpers import check, make_md
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
OK, INVALID, UNIMPL = c.dnnl_success, c.dnnl_invalid_arguments, c.dnnl_unimplemented


def new_attr():
    a = c.dnnl_primitive_attr_t()
    check(c.dnnl_primitive_attr_create(a))
    return a


def new_post_ops():
    p = c.dnnl_post_ops_t()
    check(c.dnnl_post_ops_create(p))
    return p


def full_post_ops(md):
    po = new_post_ops()
    check(c.dnnl_post_ops_append_sum(po, 0.5, 3, c.dnnl_s8))
    check(c.dnnl_post_ops_append_eltwise(po, c.dnnl_eltwise_clip, -1.0, 2.0))
    check(c.dnnl_post_ops_append_dw(po, c.dnnl_s8, c.dnnl_f32, c.dnnl_u8, 3, 2, 1))
    check(c.dnnl_post_ops_append_binary(po, c.dnnl_binary_mul, md))
    check(c.dnnl_post_ops_append_binary_v2(po, c.dnnl_binary_select, md, md))
    check(c.dnnl_post_ops_append_prelu(po, 2))
    return po


def params(fn, po, index, n):
    outs = [[None] for _ in range(n)]
    st = fn(po, index, *outs)
    return st, [o[0] for o in outs]


def test_post_ops_append_and_read_back():
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    po = full_post_ops(md)
    assert c.dnnl_post_ops_len(po) == 6
    assert [c.dnnl_post_ops_get_kind(po, i) for i in range(6)] == [
        c.dnnl_sum, c.dnnl_eltwise, c.dnnl_convolution, c.dnnl_binary, c.dnnl_binary,
        c.dnnl_prelu]
    assert c.dnnl_post_ops_get_kind(po, 6) == c.dnnl_undefined_primitive
    assert c.dnnl_post_ops_get_kind(po, -1) == c.dnnl_undefined_primitive
    assert params(c.dnnl_post_ops_get_params_sum, po, 0, 3) == (OK, [0.5, 3, c.dnnl_s8])
    assert params(c.dnnl_post_ops_get_params_eltwise, po, 1, 3) == \
        (OK, [c.dnnl_eltwise_clip, -1.0, 2.0])
    assert params(c.dnnl_post_ops_get_params_dw, po, 2, 6) == \
        (OK, [c.dnnl_s8, c.dnnl_f32, c.dnnl_u8, 3, 2, 1])
    assert params(c.dnnl_post_ops_get_params_prelu, po, 5, 1) == (OK, [2])
    alg, m1, m2 = [None], c.dnnl_memory_desc_t(), c.dnnl_memory_desc_t()
    assert c.dnnl_post_ops_get_params_binary_v2(po, 4, alg, m1, m2) == OK
    assert alg[0] == c.dnnl_binary_select
    assert c.dnnl_memory_desc_equal(m1, md) and c.dnnl_memory_desc_equal(m2, md)
    assert c.dnnl_post_ops_get_params_binary(po, 3, alg, m1) == OK
    assert alg[0] == c.dnnl_binary_mul
    # the wrong kind or index
    assert params(c.dnnl_post_ops_get_params_sum, po, 1, 3)[0] == INVALID
    assert params(c.dnnl_post_ops_get_params_prelu, po, 6, 1)[0] == INVALID
    assert params(c.dnnl_post_ops_get_params_eltwise, po, -1, 3)[0] == INVALID
    # outputs C allows to be NULL
    assert c.dnnl_post_ops_get_params_sum(po, 0, None, None, [None]) == OK


def test_post_ops_refusals():
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    po = new_post_ops()
    assert c.dnnl_post_ops_append_eltwise(po, c.dnnl_pooling_max, 0, 0) == INVALID
    assert c.dnnl_post_ops_append_eltwise(po, c.dnnl_eltwise_relu, float("nan"), 0) == INVALID
    assert c.dnnl_post_ops_append_sum(po, float("inf"), 0, c.dnnl_f32) == INVALID
    assert c.dnnl_post_ops_append_binary(po, c.dnnl_eltwise_relu, md) == INVALID
    assert c.dnnl_post_ops_append_binary(po, c.dnnl_binary_add, None) == INVALID
    assert c.dnnl_post_ops_append_binary_v2(po, c.dnnl_binary_select, md, None) == INVALID
    assert c.dnnl_post_ops_append_dw(po, c.dnnl_f32, c.dnnl_f32, c.dnnl_f32, 3, 1, 3) == INVALID
    assert c.dnnl_post_ops_append_dw(po, c.dnnl_data_type_undef, c.dnnl_f32, c.dnnl_f32, 3, 1,
                                     1) == INVALID
    assert c.dnnl_post_ops_append_prelu(po, -1) == INVALID
    assert c.dnnl_post_ops_len(po) == 0
    for _ in range(32):
        check(c.dnnl_post_ops_append_prelu(po, 0))
    assert c.dnnl_post_ops_append_prelu(po, 0) == c.dnnl_out_of_memory    # oneDNN's limit
    assert c.dnnl_post_ops_len(po) == 32


def test_post_ops_in_attributes():
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    attr = new_attr()
    got = c.dnnl_post_ops_t()
    check(c.dnnl_primitive_attr_get_post_ops(attr, got))
    assert c.dnnl_post_ops_len(got) == 0
    po = full_post_ops(md)
    check(c.dnnl_primitive_attr_set_post_ops(attr, po))
    check(c.dnnl_primitive_attr_get_post_ops(attr, got))
    assert c.dnnl_post_ops_len(got) == 6
    # a copy was stored: changing po leaves the attr's alone
    check(c.dnnl_post_ops_append_prelu(po, 1))
    assert c.dnnl_post_ops_len(got) == 6
    # the attr's own chain is read-only and not the user's to destroy
    assert c.dnnl_post_ops_append_prelu(got, 1) == INVALID
    assert c.dnnl_post_ops_destroy(got) == INVALID
    # an md handle into the old chain stays valid after the chain is replaced
    alg, m1 = [None], c.dnnl_memory_desc_t()
    check(c.dnnl_post_ops_get_params_binary(got, 3, alg, m1))
    check(c.dnnl_primitive_attr_set_post_ops(attr, new_post_ops()))
    assert c.dnnl_post_ops_len(got) == 0
    assert c.dnnl_memory_desc_equal(m1, md) == 1
    # clones are deep
    clone = c.dnnl_post_ops_t()
    check(c.dnnl_post_ops_clone(clone, po))
    check(c.dnnl_post_ops_destroy(po))
    assert c.dnnl_post_ops_len(clone) == 7


def test_modes():
    attr = new_attr()
    out, out2 = [None], [None]
    check(c.dnnl_primitive_attr_get_accumulation_mode(attr, out))
    assert out[0] == c.dnnl_accumulation_mode_strict
    check(c.dnnl_primitive_attr_set_accumulation_mode(attr, c.dnnl_accumulation_mode_f16))
    check(c.dnnl_primitive_attr_get_accumulation_mode(attr, out))
    assert out[0] == c.dnnl_accumulation_mode_f16
    assert c.dnnl_primitive_attr_set_accumulation_mode(attr, 6) == INVALID
    check(c.dnnl_primitive_attr_get_deterministic(attr, out))
    assert out[0] == 0
    check(c.dnnl_primitive_attr_set_deterministic(attr, 5))
    check(c.dnnl_primitive_attr_get_deterministic(attr, out))
    assert out[0] == 1
    check(c.dnnl_primitive_attr_set_fpmath_mode_v2(attr, c.dnnl_fpmath_mode_bf16, 1))
    check(c.dnnl_primitive_attr_get_fpmath_mode_v2(attr, out, out2))
    assert (out[0], out2[0]) == (c.dnnl_fpmath_mode_bf16, 1)
    check(c.dnnl_primitive_attr_set_fpmath_mode(attr, c.dnnl_fpmath_mode_any))
    check(c.dnnl_primitive_attr_get_fpmath_mode_v2(attr, out, out2))
    assert (out[0], out2[0]) == (c.dnnl_fpmath_mode_any, 0)    # v1 resets apply_to_int
    assert c.dnnl_primitive_attr_set_fpmath_mode_v2(attr, 9, 0) == INVALID


def test_rounding_and_dropout():
    attr = new_attr()
    out = [None]
    check(c.dnnl_primitive_attr_get_rounding(attr, c.DNNL_ARG_DST, out))
    assert out[0] == c.dnnl_rounding_mode_environment
    check(c.dnnl_primitive_attr_set_rounding(attr, c.DNNL_ARG_DIFF_WEIGHTS,
                                             c.dnnl_rounding_mode_stochastic))
    check(c.dnnl_primitive_attr_get_rounding(attr, c.DNNL_ARG_DIFF_WEIGHTS, out))
    assert out[0] == c.dnnl_rounding_mode_stochastic
    check(c.dnnl_primitive_attr_get_rounding(attr, c.DNNL_ARG_DST, out))
    assert out[0] == c.dnnl_rounding_mode_environment
    # oneDNN: only results and gradients round stochastically
    assert c.dnnl_primitive_attr_set_rounding(attr, c.DNNL_ARG_SRC,
                                              c.dnnl_rounding_mode_stochastic) == INVALID
    assert c.dnnl_primitive_attr_set_rounding(attr, c.DNNL_ARG_DST, 7) == INVALID
    check(c.dnnl_primitive_attr_set_rounding(attr, c.DNNL_ARG_DIFF_WEIGHTS,
                                             c.dnnl_rounding_mode_environment))
    check(c.dnnl_primitive_attr_get_rounding(attr, c.DNNL_ARG_DIFF_WEIGHTS, out))
    assert out[0] == c.dnnl_rounding_mode_environment

    mask = make_md([4, 5], c.dnnl_u8, c.dnnl_ab)
    got = c.dnnl_memory_desc_t()
    check(c.dnnl_primitive_attr_get_dropout(attr, got))
    assert c.dnnl_memory_desc_get_size(got) == 0
    check(c.dnnl_primitive_attr_set_dropout(attr, mask))
    seed, off, host = [None], [None], [None]
    check(c.dnnl_primitive_attr_get_dropout_v2(attr, got, seed, off, host))
    assert c.dnnl_memory_desc_equal(got, mask) and (seed[0], off[0], host[0]) == (c.dnnl_s32, 0, 0)
    check(c.dnnl_primitive_attr_set_dropout_v2(attr, mask, c.dnnl_s64, 1, 1))
    check(c.dnnl_primitive_attr_get_dropout_v2(attr, None, seed, off, host))
    assert (seed[0], off[0], host[0]) == (c.dnnl_s64, 1, 1)
    assert c.dnnl_primitive_attr_set_dropout(attr, make_md([4], c.dnnl_f32, c.dnnl_a)) == INVALID
    assert c.dnnl_primitive_attr_set_dropout_v2(attr, mask, c.dnnl_f32, 0, 0) == INVALID
    assert c.dnnl_primitive_attr_set_dropout(attr, None) == INVALID


def test_quantization_setters():
    attr = new_attr()
    check(c.dnnl_primitive_attr_set_scales_mask(attr, c.DNNL_ARG_SRC, 0))
    check(c.dnnl_primitive_attr_set_scales(attr, c.DNNL_ARG_WEIGHTS, 3, 2, [1, 16], c.dnnl_bf16))
    check(c.dnnl_primitive_attr_set_scales_v2(attr, c.DNNL_ARG_DST, 0, 0, None, c.dnnl_f32, 1))
    check(c.dnnl_primitive_attr_set_scales_v3(attr, c.DNNL_ARG_SRC, 2, 0, None, c.dnnl_e8m0, 0,
                                              c.dnnl_quantization_mode_dynamic_mx))
    for bad in [(c.DNNL_ARG_SRC, -1, 0, None, c.dnnl_f32, 0, 1),       # mask
                (-1, 0, 0, None, c.dnnl_f32, 0, 1),                    # arg
                (1, 3, 1, [4], c.dnnl_f32, 0, 1),                      # group_ndims
                (1, 3, 2, [4, 0], c.dnnl_f32, 0, 1),                   # group dims
                (1, 0, 2, [4, 4], c.dnnl_f32, 0, 1),                   # groups need a mask
                (1, 1, 0, None, c.dnnl_f32, 1, 1),                     # host: one value
                (1, 0, 0, None, c.dnnl_s8, 0, 1),                      # data type
                (1, 0, 0, None, c.dnnl_e8m0, 0, 1),                    # e8m0 per group
                (1, 0, 0, None, c.dnnl_f32, 0, 9)]:                    # qmode
        assert c.dnnl_primitive_attr_set_scales_v3(attr, *bad) == INVALID, bad
    check(c.dnnl_primitive_attr_set_zero_points_mask(attr, c.DNNL_ARG_DST, 0))
    check(c.dnnl_primitive_attr_set_zero_points(attr, c.DNNL_ARG_WEIGHTS, 3, 2, [1, 8],
                                                c.dnnl_u4))
    check(c.dnnl_primitive_attr_set_zero_points_v2(attr, c.DNNL_ARG_SRC, 0, 0, None, c.dnnl_s8, 1))
    assert c.dnnl_primitive_attr_set_zero_points(attr, c.DNNL_ARG_DST, 0, 0, None,
                                                 c.dnnl_u8) == INVALID     # only s32 there
    assert c.dnnl_primitive_attr_set_zero_points(attr, c.DNNL_ARG_SRC, 0, 0, None,
                                                 c.dnnl_f32) == INVALID
    check(c.dnnl_primitive_attr_set_precomputed_reductions(attr, c.DNNL_ARG_SRC, 1, 0, None,
                                                           c.dnnl_s32))
    assert c.dnnl_primitive_attr_set_precomputed_reductions(attr, c.DNNL_ARG_DST, 1, 0, None,
                                                            c.dnnl_s32) == INVALID
    assert c.dnnl_primitive_attr_set_precomputed_reductions(attr, c.DNNL_ARG_SRC, 1, 0, None,
                                                            c.dnnl_f32) == INVALID


def test_rnn_qparams():
    attr = new_attr()
    sc, sh, n, m, s = [None], [None], [None], [None], [None]
    check(c.dnnl_primitive_attr_get_rnn_data_qparams(attr, sc, sh))
    assert (sc[0], sh[0]) == (1.0, 0.0)
    check(c.dnnl_primitive_attr_get_rnn_weights_qparams(attr, n, m, s))
    assert (n[0], m[0], s[0]) == (1, 0, [1.0])                 # oneDNN's defaults
    check(c.dnnl_primitive_attr_set_rnn_data_qparams(attr, 0.5, 2.0))
    check(c.dnnl_primitive_attr_get_rnn_data_qparams(attr, sc, sh))
    assert (sc[0], sh[0]) == (0.5, 2.0)
    check(c.dnnl_primitive_attr_set_rnn_weights_qparams(attr, 3, 1, [0.5, 0.25, 2.0]))
    check(c.dnnl_primitive_attr_get_rnn_weights_qparams(attr, n, m, s))
    assert (n[0], m[0], s[0]) == (3, 1, [0.5, 0.25, 2.0])
    check(c.dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr, 1, 0, [4.0]))
    check(c.dnnl_primitive_attr_get_rnn_weights_projection_qparams(attr, n, m, s))
    assert (n[0], m[0], s[0]) == (1, 0, [4.0])
    assert c.dnnl_primitive_attr_set_rnn_weights_qparams(attr, 0, 0, []) == INVALID
    assert c.dnnl_primitive_attr_set_rnn_weights_qparams(attr, 2, -1, [1.0, 1.0]) == INVALID
    assert c.dnnl_primitive_attr_set_rnn_weights_qparams(attr, 4, 0, [1.0]) == INVALID


def test_clone_is_deep():
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    attr = new_attr()
    check(c.dnnl_primitive_attr_set_post_ops(attr, full_post_ops(md)))
    check(c.dnnl_primitive_attr_set_rnn_weights_qparams(attr, 2, 1, [3.0, 4.0]))
    check(c.dnnl_primitive_attr_set_dropout(attr, make_md([2], c.dnnl_u8, c.dnnl_a)))
    check(c.dnnl_primitive_attr_set_accumulation_mode(attr, c.dnnl_accumulation_mode_any))
    check(c.dnnl_primitive_attr_set_rounding(attr, c.DNNL_ARG_DST, c.dnnl_rounding_mode_stochastic))
    clone = c.dnnl_primitive_attr_t()
    check(c.dnnl_primitive_attr_clone(clone, attr))
    check(c.dnnl_primitive_attr_destroy(attr))
    po, n, m, s, out = c.dnnl_post_ops_t(), [None], [None], [None], [None]
    check(c.dnnl_primitive_attr_get_post_ops(clone, po))
    assert c.dnnl_post_ops_len(po) == 6
    check(c.dnnl_primitive_attr_get_rnn_weights_qparams(clone, n, m, s))
    assert s[0] == [3.0, 4.0]
    drop = c.dnnl_memory_desc_t()
    check(c.dnnl_primitive_attr_get_dropout(clone, drop))
    assert c.dnnl_memory_desc_get_size(drop) == 2
    check(c.dnnl_primitive_attr_get_accumulation_mode(clone, out))
    assert out[0] == c.dnnl_accumulation_mode_any
    check(c.dnnl_primitive_attr_get_rounding(clone, c.DNNL_ARG_DST, out))
    assert out[0] == c.dnnl_rounding_mode_stochastic


# ------------------------------------------------------------ primitive descriptors

def family_pd(eng, name, attr):
    """A forward pd of a family with attr (a dnnl.primitive_attr), or the
    dnnl.error its creation raised."""
    src = memory.desc([2, 8, 6, 6], dt.f32, tag.nchw)
    try:
        if name == "eltwise":
            return dnnl.eltwise_forward.primitive_desc(
                eng, prop_kind.forward_inference, algorithm.eltwise_relu, src, src, 0.0, 0.0, attr)
        if name == "convolution":
            return dnnl.convolution_forward.primitive_desc(
                eng, prop_kind.forward_inference, algorithm.convolution_direct, src,
                memory.desc([4, 8, 3, 3], dt.f32, tag.oihw), memory.desc([4], dt.f32, tag.a),
                memory.desc([2, 4, 4, 4], dt.f32, tag.nchw), [1, 1], [0, 0], [0, 0], attr)
        if name == "lrn":
            return dnnl.lrn_forward.primitive_desc(eng, prop_kind.forward_inference,
                                                   algorithm.lrn_across_channels, src, src, 5,
                                                   1e-4, 0.75, 1.0, attr)
        if name == "pooling":
            return dnnl.pooling_forward.primitive_desc(
                eng, prop_kind.forward_inference, algorithm.pooling_avg_include_padding, src,
                memory.desc([2, 8, 3, 3], dt.f32, tag.nchw), [2, 2], [2, 2], [0, 0], [0, 0],
                [0, 0], attr)
        if name == "reorder":
            return dnnl.reorder.primitive_desc(eng, src, eng,
                                               memory.desc([2, 8, 6, 6], dt.f32, tag.nhwc), attr)
        shapes = ([3, 2, 5], [1, 1, 2, 5], [1, 1, 2, 5], [1, 1, 5, 4, 5], [1, 1, 5, 4, 5],
                  [1, 1, 4, 5], [3, 2, 5], [1, 1, 2, 5], [1, 1, 2, 5])
        return dnnl.lstm_forward.primitive_desc(
            eng, prop_kind.forward_inference, dnnl.rnn_direction.unidirectional_left2right,
            *[memory.desc(s, dt.f32, tag.any) for s in shapes], attr)
    except dnnl.error as e:
        return e


FAMILIES = ["eltwise", "convolution", "lrn", "pooling", "reorder", "lstm"]


def unhonoured(eng):
    """(name, attr) for each attribute no implementation honours."""
    out = []

    def add(name, fn):
        a = dnnl.primitive_attr()
        fn(a)
        out.append((name, a))

    po = dnnl.post_ops()
    po.append_eltwise(algorithm.eltwise_relu, 0.0, 0.0)
    add("post-ops", lambda a: a.set_post_ops(po))
    add("scales", lambda a: a.set_scales_mask(dnnl.DNNL_ARG_SRC, 0))
    add("zero points", lambda a: a.set_zero_points_mask(dnnl.DNNL_ARG_DST, 0))
    add("precomputed reductions",
        lambda a: a.set_precomputed_reductions(dnnl.DNNL_ARG_SRC, 1, []))
    add("stochastic rounding",
        lambda a: a.set_rounding_mode(dnnl.DNNL_ARG_DST, dnnl.rounding_mode.stochastic))
    add("dropout", lambda a: a.set_dropout(memory.desc([2, 8, 6, 6], dt.u8, tag.nchw)))
    add("rnn data", lambda a: a.set_rnn_data_qparams(0.5, 1.0))
    add("rnn weights", lambda a: a.set_rnn_weights_qparams(0, [0.5]))
    add("rnn weights projection", lambda a: a.set_rnn_weights_projection_qparams(0, [2.0]))
    add("accumulation mode s32",
        lambda a: a.set_accumulation_mode(dnnl.accumulation_mode.s32))
    add("accumulation mode f16",
        lambda a: a.set_accumulation_mode(dnnl.accumulation_mode.f16))
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_unhonoured_attributes_are_unimplemented(eng, family):
    assert not isinstance(family_pd(eng, family, dnnl.primitive_attr()), dnnl.error)
    for name, attr in unhonoured(eng):
        got = family_pd(eng, family, attr)
        assert isinstance(got, dnnl.error), (family, name)
        assert got.status == dnnl.status.unimplemented, (family, name)
        assert name in str(got), (family, name, str(got))


def test_honoured_modes_give_the_default_results(eng, strm):
    rng = np.random.default_rng(2)
    outs = []
    for set_up in (lambda a: None,
                   lambda a: a.set_deterministic(True),
                   lambda a: a.set_accumulation_mode(dnnl.accumulation_mode.relaxed),
                   lambda a: a.set_accumulation_mode(dnnl.accumulation_mode.any),
                   lambda a: a.set_accumulation_mode(dnnl.accumulation_mode.f32),
                   lambda a: a.set_fpmath_mode(dnnl.fpmath_mode.bf16, True)):
        attr = dnnl.primitive_attr()
        set_up(attr)
        pd = family_pd(eng, "convolution", attr)
        assert not isinstance(pd, dnnl.error)
        pd_attr = pd.get_primitive_attr()
        assert pd_attr.get_deterministic() == attr.get_deterministic()
        assert pd_attr.get_accumulation_mode() == attr.get_accumulation_mode()
        assert pd_attr.get_fpmath_mode(True) == attr.get_fpmath_mode(True)
        mems = {a: memory(getattr(pd, d)(), eng) for a, d in (
            (dnnl.DNNL_ARG_SRC, "src_desc"), (dnnl.DNNL_ARG_WEIGHTS, "weights_desc"),
            (dnnl.DNNL_ARG_DST, "dst_desc"))}
        mems[dnnl.DNNL_ARG_BIAS] = memory(pd.weights_desc(1), eng)
        for a in (dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_WEIGHTS, dnnl.DNNL_ARG_BIAS):
            mems[a].write(np.random.default_rng(a).standard_normal(
                mems[a].get_desc().get_dims()).astype(np.float32))
        dnnl.convolution_forward(pd).execute(strm, mems)
        outs.append(mems[dnnl.DNNL_ARG_DST].read())
    for o in outs[1:]:
        np.testing.assert_array_equal(o, outs[0])
    assert rng is not None


def test_a_primitive_descriptors_attributes(eng):
    attr = dnnl.primitive_attr()
    attr.set_deterministic(True)
    attr.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    pd = family_pd(eng, "eltwise", attr)
    a = c.dnnl_primitive_attr_t()
    check(c.dnnl_primitive_desc_get_attr(pd.get(), a))
    out = [None]
    check(c.dnnl_primitive_attr_get_deterministic(a, out))
    assert out[0] == 1
    po = c.dnnl_post_ops_t()
    check(c.dnnl_primitive_attr_get_post_ops(a, po))
    assert c.dnnl_post_ops_len(po) == 0
    # read-only
    assert c.dnnl_primitive_attr_set_deterministic(a, 0) == INVALID
    assert c.dnnl_primitive_attr_set_scales_mask(a, 1, 0) == INVALID
    assert c.dnnl_primitive_attr_set_post_ops(a, new_post_ops()) == INVALID


def test_default_fpmath_mode():
    out = [None]
    check(c.dnnl_get_default_fpmath_mode(out))
    assert out[0] == c.dnnl_fpmath_mode_strict
    try:
        assert dnnl.set_default_fpmath_mode(dnnl.fpmath_mode.bf16) == dnnl.status.success
        assert dnnl.get_default_fpmath_mode() == dnnl.fpmath_mode.bf16
        assert dnnl.primitive_attr().get_fpmath_mode() == dnnl.fpmath_mode.bf16
        assert c.dnnl_set_default_fpmath_mode(11) == INVALID
    finally:
        check(c.dnnl_set_default_fpmath_mode(c.dnnl_fpmath_mode_strict))
    assert dnnl.primitive_attr().get_fpmath_mode() == dnnl.fpmath_mode.strict
    probe = "import dnnl; print(int(dnnl.get_default_fpmath_mode()))"
    for value, want in (("BF16", c.dnnl_fpmath_mode_bf16), ("TF32", c.dnnl_fpmath_mode_tf32),
                        ("ANY", c.dnnl_fpmath_mode_any), ("bogus", c.dnnl_fpmath_mode_strict)):
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=isa_probe.child_env(ONEDNN_DEFAULT_FPMATH_MODE=value), timeout=120)
        assert r.returncode == 0, r.stderr
        assert int(r.stdout) == want, value


def test_deterministic_backward_weights(eng, strm):
    """deterministic: the same gradients, bit for bit, run after run."""
    attr = dnnl.primitive_attr()
    attr.set_deterministic(True)
    src = memory.desc([4, 16, 13, 13], dt.f32, tag.nchw)
    wei = memory.desc([24, 16, 3, 3], dt.f32, tag.oihw)
    dst = memory.desc([4, 24, 11, 11], dt.f32, tag.nchw)
    fwd = dnnl.convolution_forward.primitive_desc(
        eng, prop_kind.forward_training, algorithm.convolution_direct, src, wei, dst, [1, 1],
        [0, 0], [0, 0])
    bwd = dnnl.convolution_backward_weights.primitive_desc(
        eng, algorithm.convolution_direct, src, wei, dst, [1, 1], [0, 0], [0, 0], fwd, attr)
    rng = np.random.default_rng(4)
    s = memory(src, eng)
    s.write(rng.standard_normal(src.get_dims()).astype(np.float32))
    d = memory(dst, eng)
    d.write(rng.standard_normal(dst.get_dims()).astype(np.float32))
    runs = []
    for _ in range(3):
        w = memory(bwd.diff_weights_desc(), eng)
        dnnl.convolution_backward_weights(bwd).execute(
            strm, {dnnl.DNNL_ARG_SRC: s, dnnl.DNNL_ARG_DIFF_DST: d, dnnl.DNNL_ARG_DIFF_WEIGHTS: w})
        runs.append(w.read())
    for r in runs[1:]:
        np.testing.assert_array_equal(r, runs[0])


# ------------------------------------------------------------ the object layer

def test_object_layer_post_ops():
    po = dnnl.post_ops()
    md = memory.desc([2, 3], dt.f32, tag.ab)
    po.append_sum(0.5, 1, dt.s8)
    po.append_eltwise(algorithm.eltwise_linear, 2.0, 1.0)
    po.append_dw(dt.f32, dt.f32, dt.f32, 3, 1, 1)
    po.append_binary(algorithm.binary_add, md)
    po.append_prelu(1)
    assert po.len() == 5
    assert [po.kind(i) for i in range(5)] == [dnnl.primitive.kind.sum, dnnl.primitive.kind.eltwise,
                                              dnnl.primitive.kind.convolution,
                                              dnnl.primitive.kind.binary, dnnl.primitive.kind.prelu]
    assert po.get_params_sum(0) == (0.5, 1, dt.s8)
    assert po.get_params_eltwise(1) == (algorithm.eltwise_linear, 2.0, 1.0)
    assert po.get_params_dw(2) == (dt.f32, dt.f32, dt.f32, 3, 1, 1)
    alg, s1, s2 = po.get_params_binary(3)
    assert alg == algorithm.binary_add and s1 == md and s2.is_zero()
    assert po.get_params_prelu(4) == 1
    with pytest.raises(dnnl.error) as e:
        po.get_params_sum(1)
    assert e.value.status == dnnl.status.invalid_arguments
    with pytest.raises(dnnl.error):
        po.kind(9)
    attr = dnnl.primitive_attr()
    attr.set_post_ops(po)
    got = attr.get_post_ops()
    assert got.len() == 5 and got.get_params_eltwise(1) == (algorithm.eltwise_linear, 2.0, 1.0)


def test_object_layer_attributes():
    a = dnnl.primitive_attr()
    assert a.get_accumulation_mode() == dnnl.accumulation_mode.strict
    a.set_accumulation_mode(dnnl.accumulation_mode.relaxed)
    assert a.get_accumulation_mode() == dnnl.accumulation_mode.relaxed
    assert a.get_deterministic() is False
    a.set_deterministic(True)
    assert a.get_deterministic() is True
    a.set_fpmath_mode(dnnl.fpmath_mode.bf16, True)
    assert a.get_fpmath_mode() == dnnl.fpmath_mode.bf16
    assert a.get_fpmath_mode(True) == (dnnl.fpmath_mode.bf16, True)
    a.set_rounding_mode(dnnl.DNNL_ARG_DST, dnnl.rounding_mode.stochastic)
    assert a.get_rounding_mode(dnnl.DNNL_ARG_DST) == dnnl.rounding_mode.stochastic
    a.set_scales(dnnl.DNNL_ARG_WEIGHTS, 3, [1, 4], dt.bf16)
    a.set_host_scale(dnnl.DNNL_ARG_SRC)
    a.set_zero_points(dnnl.DNNL_ARG_SRC, 1, [], dt.u8)
    a.set_host_zero_point(dnnl.DNNL_ARG_DST)
    a.set_precomputed_reductions(dnnl.DNNL_ARG_SRC, 1, [])
    with pytest.raises(dnnl.error) as e:
        a.set_scales(dnnl.DNNL_ARG_WEIGHTS, -1, [])
    assert e.value.status == dnnl.status.invalid_arguments and "mask" in str(e.value)
    mask = memory.desc([3], dt.u8, tag.a)
    a.set_dropout(mask, dt.s64, True, False)
    got, seed, offset, host = a.get_dropout()
    assert got == mask and (seed, offset, host) == (dt.s64, True, False)
    assert a.get_rnn_data_qparams() == (1.0, 0.0)
    a.set_rnn_data_qparams(2.0, 0.5)
    assert a.get_rnn_data_qparams() == (2.0, 0.5)
    a.set_rnn_weights_qparams(1, [0.5, 0.25])
    assert a.get_rnn_weights_qparams() == (1, [0.5, 0.25])
    a.set_rnn_weights_projection_qparams(0, [3.0])
    assert a.get_rnn_weights_projection_qparams() == (0, [3.0])
    with pytest.raises(dnnl.error):
        a.set_post_ops("not post-ops")
