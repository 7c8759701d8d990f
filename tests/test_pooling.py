"""Pooling forward and backward against NumPy float64 formulas written from
oneDNN's definitions (doc/primitives/pooling.md, ref_pooling.cpp): max, whose
workspace holds the flat kernel index of the first maximum; average including
and excluding padding; 1-D to 3-D; strides, dilation (0 = dense), asymmetric
and negative right padding; f32 and bf16; plain and channel-blocked layouts."""

import itertools
import os

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from dnnl import (algorithm, eltwise_forward, memory, pooling_backward, pooling_forward,
                  primitive_attr, prop_kind, scratchpad_mode)
from dnnl.benchdnn.desc import PoolDesc
from dnnl.benchdnn.parser import INPUTS as BENCHDNN_INPUTS, read_batch
from helpers import bf16_round, from_layout, level_impls, to_layout
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
A = algorithm
MAX, AVG_INC, AVG_EXC = A.pooling_max, A.pooling_avg_include_padding, A.pooling_avg_exclude_padding
ALGS = [MAX, AVG_INC, AVG_EXC]
SRC, DST, WS = dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST, dnnl.DNNL_ARG_WORKSPACE
DIFF_SRC, DIFF_DST = dnnl.DNNL_ARG_DIFF_SRC, dnnl.DNNL_ARG_DIFF_DST
F32_LOWEST = -np.finfo(np.float32).max
BF16_LOWEST = float(bf16_round(np.float32(-3.3895314e38)))  # 0xff7f, bf16's lowest finite
PLAIN = {1: tag.ncw, 2: tag.nchw, 3: tag.ncdhw}
NHWC = {1: tag.nwc, 2: tag.nhwc, 3: tag.ndhwc}
BLOCKED8 = {1: tag.nCw8c, 2: tag.nChw8c, 3: tag.nCdhw8c}
BLOCKED16 = {1: tag.nCw16c, 2: tag.nChw16c, 3: tag.nCdhw16c}
INPUTS = os.path.join(BENCHDNN_INPUTS, "pool")


def out_size(i, k, s, d, pl, pr):
    """oneDNN's rule, with C's division (truncation toward zero)."""
    num = i - ((k - 1) * (d + 1) + 1) + pl + pr
    return (num // s if num >= 0 else -(-num // s)) + 1


class Prob:
    def __init__(self, mb, ic, i, k, s=None, d=None, pl=None, pr=None, o=None, name=""):
        sp = len(i)
        self.mb, self.ic, self.i, self.k = mb, ic, list(i), list(k)
        self.s = list(s) if s is not None else [1] * sp
        self.d = list(d) if d is not None else [0] * sp
        self.pl = list(pl) if pl is not None else [0] * sp
        self.pr = list(pr) if pr is not None else list(self.pl)
        self.o = list(o) if o is not None else [
            out_size(*a) for a in zip(self.i, self.k, self.s, self.d, self.pl, self.pr)]
        self.name = name

    @property
    def sp(self):
        return len(self.i)

    @property
    def src_dims(self):
        return [self.mb, self.ic] + self.i

    @property
    def dst_dims(self):
        return [self.mb, self.ic] + self.o

    def args(self):
        return self.s, self.k, self.d, self.pl, self.pr

    def extents(self):
        return [(k - 1) * (d + 1) + 1 for k, d in zip(self.k, self.d)]

    def __repr__(self):
        return self.name or "mb%dic%d_i%s_o%s_k%s_s%s_d%s_pl%s_pr%s" % (
            self.mb, self.ic, self.i, self.o, self.k, self.s, self.d, self.pl, self.pr)


def parse_benchdnn(path, max_mb=2):
    """The problems of a benchdnn pool input file, parsed by dnnl.benchdnn
    (benchdnn's rules: defaults mb2, stride 1, dilation 0; h and w copied
    from d and h; output and left padding deduced; right padding what the
    output size implies)."""
    probs = []
    for word in read_batch(path):
        d = PoolDesc(word)
        probs.append(Prob(min(d.mb, max_mb), d.ic, d.i, d.k, d.s, d.d, d.p, d.pr, d.o,
                          d.name.strip('"') or word))
    return probs


# ------------------------------------------------------------ NumPy reference

def _taps(p):
    """(flat index, per-dim slices of the padded src that every output's tap
    reads) over the kernel in (kd, kh, kw) order, and the padded geometry."""
    step = [d + 1 for d in p.d]
    size = [max(pl + i, (o - 1) * s + r) for pl, i, o, s, r in
            zip(p.pl, p.i, p.o, p.s, p.extents())]
    inner = tuple(slice(pl, pl + i) for pl, i in zip(p.pl, p.i))
    valid = np.zeros(size, bool)
    valid[inner] = True
    taps = []
    for t, ks in enumerate(itertools.product(*[range(k) for k in p.k])):
        taps.append((t, tuple(slice(kk * st, kk * st + (o - 1) * s + 1, s)
                              for kk, st, o, s in zip(ks, step, p.o, p.s))))
    return taps, size, inner, valid


def np_forward(x, alg, p):
    """dst (float64) and, for max, the workspace: flat kernel index of the
    first maximum; windows without elements give (lowest, 0)."""
    x = np.asarray(x, np.float64)
    taps, size, inner, valid = _taps(p)
    nc = (slice(None), slice(None))
    xp = np.zeros(tuple(x.shape[:2]) + tuple(size))
    xp[nc + inner] = x
    shape = tuple(p.dst_dims)
    best, ws = np.full(shape, F32_LOWEST), np.zeros(shape, np.int64)
    total, count = np.zeros(shape), np.zeros(tuple(p.o))
    for t, sl in taps:
        v, m = xp[nc + sl], valid[sl]
        better = m & (v > best)
        best = np.where(better, v, best)
        ws = np.where(better, t, ws)
        total += np.where(m, v, 0)
        count += m
    if alg == MAX:
        return best, ws
    return total / (np.prod(p.k) if alg == AVG_INC else count), None


def np_backward(dd, ws, alg, p):
    dd = np.asarray(dd, np.float64)
    taps, size, inner, valid = _taps(p)
    nc = (slice(None), slice(None))
    count = sum(valid[sl].astype(np.int64) for _, sl in taps)
    div = np.prod(p.k) if alg == AVG_INC else count
    grad = np.zeros(tuple(p.src_dims[:2]) + tuple(size))
    for t, sl in taps:
        m = valid[sl]
        if alg == MAX:
            grad[nc + sl] += np.where(m & (ws == t), dd, 0)
        else:
            grad[nc + sl] += np.where(m, dd / np.maximum(div, 1), 0)
    return grad[nc + inner]


# ------------------------------------------------------------ running

def fwd_pd(eng, p, alg, data_type=dt.f32, layout=None, dst_layout=tag.any,
           prop=prop_kind.forward_training, dst_type=None):
    layout = PLAIN[p.sp] if layout is None else layout
    return pooling_forward.primitive_desc(
        eng, prop, alg, memory.desc(p.src_dims, data_type, layout),
        memory.desc(p.dst_dims, dst_type or data_type, dst_layout), *p.args())


def bwd_pd(eng, p, alg, hint, data_type=dt.f32, src_layout=tag.any, dst_layout=tag.any):
    return pooling_backward.primitive_desc(
        eng, alg, memory.desc(p.src_dims, data_type, src_layout),
        memory.desc(p.dst_dims, data_type, dst_layout), *p.args(), hint)


def run_fwd(eng, strm, pd, x):
    src = memory(pd.src_desc(), eng)
    src.write(x)
    dst = memory(pd.dst_desc(), eng)
    args = {SRC: src, DST: dst}
    ws = None
    if not pd.workspace_desc().is_zero():
        ws = args[WS] = memory(pd.workspace_desc(), eng)
    pooling_forward(pd).execute(strm, args)
    return dst, ws


def run_bwd(eng, strm, pd, g, ws):
    diff_dst = memory(pd.diff_dst_desc(), eng)
    diff_dst.write(g)
    diff_src = memory(pd.diff_src_desc(), eng)
    args = {DIFF_DST: diff_dst, DIFF_SRC: diff_src}
    if ws is not None:
        args[WS] = ws
    pooling_backward(pd).execute(strm, args)
    return diff_src


def data(shape, seed=0, scale=3.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def check_f32(eng, strm, p, alg, layout=None, x=None, seed=0):
    """Forward (and workspace) and backward of p in f32 against NumPy."""
    x = data(p.src_dims, seed) if x is None else x
    g = data(p.dst_dims, seed + 1)
    pd = fwd_pd(eng, p, alg, layout=layout)
    dst, ws = run_fwd(eng, strm, pd, x)
    exp, exp_ws = np_forward(x, alg, p)
    if alg == MAX:
        np.testing.assert_array_equal(dst.read(), exp.astype(np.float32))
        np.testing.assert_array_equal(ws.read().astype(np.int64), exp_ws)
    else:
        np.testing.assert_allclose(dst.read(), exp, rtol=2e-6, atol=2e-6)
    bpd = bwd_pd(eng, p, alg, pd)
    ds = run_bwd(eng, strm, bpd, g, ws)
    # sums over overlapping windows, in f32, of terms of size ~|g|
    np.testing.assert_allclose(ds.read(), np_backward(g, exp_ws, alg, p), rtol=1e-5, atol=3e-5)
    return pd, bpd


# ------------------------------------------------------------ the reference itself

def test_numpy_reference_on_a_hand_example():
    x = np.array([[[1., 5., 5., 2., -7., 3.]]])
    p = Prob(1, 1, [6], [3], [2], [0], [1], [0])   # windows [-1..1], [1..3], [3..5]
    assert p.o == [3]
    best, ws = np_forward(x, MAX, p)
    np.testing.assert_array_equal(best, [[[5., 5., 3.]]])
    np.testing.assert_array_equal(ws, [[[2, 0, 2]]])   # the first 5 of window 1 wins
    inc, _ = np_forward(x, AVG_INC, p)
    exc, _ = np_forward(x, AVG_EXC, p)
    np.testing.assert_allclose(inc, [[[6 / 3, 12 / 3, -2 / 3]]])
    np.testing.assert_allclose(exc, [[[6 / 2, 12 / 3, -2 / 3]]])
    g = np.array([[[1., 10., 100.]]])
    np.testing.assert_array_equal(np_backward(g, ws, MAX, p), [[[0, 11, 0, 0, 0, 100]]])
    np.testing.assert_allclose(np_backward(g, None, AVG_EXC, p),
                               [[[.5, .5 + 10 / 3, 10 / 3, 10 / 3 + 100 / 3, 100 / 3, 100 / 3]]])


def test_benchdnn_descriptors_parse_to_valid_problems():
    probs = parse_benchdnn(os.path.join(INPUTS, "shapes_basic"))
    assert len(probs) == 32
    byname = {p.name: p for p in probs}
    neg = byname["pool_ci_2d:negative_ph_r"]
    assert (neg.i, neg.o, neg.pl, neg.pr) == ([20, 20], [9, 9], [0, 0], [-1, -1])
    cubic = byname["pool_ci_3d:non_cubic"]
    assert (cubic.i, cubic.o, cubic.k) == ([32, 16, 8], [16, 8, 4], [3, 3, 3])
    for p in probs + parse_benchdnn(os.path.join(INPUTS, "shapes_alexnet")):
        assert p.o == [out_size(*a) for a in zip(p.i, p.k, p.s, p.d, p.pl, p.pr)], p


# ------------------------------------------------------------ shapes and layouts

BASIC = parse_benchdnn(os.path.join(INPUTS, "shapes_basic"))
ALEXNET = parse_benchdnn(os.path.join(INPUTS, "shapes_alexnet"))


@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
@pytest.mark.parametrize("p", BASIC + ALEXNET, ids=repr)
def test_benchdnn_shapes(eng, strm, p, alg):
    if alg == AVG_EXC and any(pl >= r or pr >= r
                              for pl, pr, r in zip(p.pl, p.pr, p.extents())):
        # a window with no element in src: oneDNN refuses avg_exclude_padding
        with pytest.raises(dnnl.error) as e:
            fwd_pd(eng, p, alg)
        assert e.value.status == dnnl.dnnl_invalid_arguments
        return
    for layout in (PLAIN[p.sp], BLOCKED16[p.sp]):
        check_f32(eng, strm, p, alg, layout)


PROBLEMS = [
    Prob(1, 3, [7, 9], [3, 2], [2, 3], [0, 0], [1, 0], [0, 1]),          # batch 1, non-square
    Prob(2, 13, [11, 8], [3, 3], [1, 2], [1, 0], [2, 1], [1, 2]),        # dilation, asym. pad
    Prob(2, 17, [10, 10], [2, 2], [2, 2], [2, 1], [0, 1], [0, 0]),       # dilated taps
    Prob(1, 17, [9], [4], [3], [0], [3], [-2]),                          # 1-D, negative pad_r
    Prob(2, 5, [5, 6, 7], [2, 3, 2], [2, 1, 3], [1, 0, 0], [1, 1, 0], [0, 1, 1]),  # 3-D
    Prob(1, 16, [12, 12], [12, 12], [1, 1]),                             # global pooling
    # whole channel blocks of vector width gathered together, then the tail
    Prob(2, 35, [9, 8], [3, 3], [2, 1], [0, 0], [1, 0], [0, 1]),
    # windows 3 wide 2 apart along w (gathered in pairs of pixels): 96
    # channels, odd left padding; then an s32 workspace (258 taps)
    Prob(2, 96, [13, 11], [3, 3], [2, 2], [0, 0], [0, 1], [0, 1]),
    Prob(1, 35, [140, 9], [86, 3], [50, 2], [0, 0], [0, 1], [0, 0]),
]


@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
@pytest.mark.parametrize("p", PROBLEMS, ids=repr)
@pytest.mark.parametrize("layouts", ["plain", "nhwc", "blocked8", "blocked16"])
def test_layouts_strides_dilation_padding(eng, strm, p, alg, layouts):
    layout = {"plain": PLAIN, "nhwc": NHWC, "blocked8": BLOCKED8,
              "blocked16": BLOCKED16}[layouts][p.sp]
    pd, bpd = check_f32(eng, strm, p, alg, layout)
    assert pd.dst_desc() == memory.desc(p.dst_dims, dt.f32, layout)
    assert bpd.diff_src_desc() == memory.desc(p.src_dims, dt.f32, layout)


@pytest.mark.parametrize("ic", [40, 144])
@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
def test_channels_last_more_vectors_than_a_pass(eng, strm, alg, ic):
    """Channels-last pixels of more vectors than the forward holds in one
    pass (40 channels: 10 vectors of SSE, 5 of AVX2; 144: 9 of AVX-512) go
    pixel by pixel, all vectors of one before the next."""
    check_f32(eng, strm, Prob(2, ic, [7, 9], [3, 3], [2, 1], [0, 0], [1, 0], [0, 1]), alg,
              tag.nhwc)


@pytest.mark.parametrize("mb", [1, 2, 3, 5])
@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
def test_channels_last_backward_by_image_and_by_block(eng, strm, alg, mb):
    """f32 channels-last backward runs whole images per thread where the
    batch spreads evenly over the threads, (image, channel block) units
    otherwise: both, with a channel tail (35 = 2 x 16 + 3)."""
    check_f32(eng, strm, Prob(mb, 35, [9, 8], [3, 3], [2, 1], [0, 0], [1, 0], [0, 1]), alg,
              tag.nhwc)


@pytest.mark.parametrize("mb", [1, 2, 3, 5])
@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
def test_bf16_channels_last_backward_by_image_and_by_block(eng, strm, alg, mb):
    """The same for bf16, which accumulates a whole image (or one block) in an
    f32 slab and rounds once."""
    p = Prob(mb, 35, [9, 8], [3, 3], [2, 1], [0, 0], [1, 0], [0, 1])
    x = bf16_round(data(p.src_dims, 11))
    g = bf16_round(data(p.dst_dims, 12))
    pd = fwd_pd(eng, p, alg, dt.bf16, tag.nhwc)
    _, ws = run_fwd(eng, strm, pd, x)
    _, exp_ws = np_forward(x, alg, p)
    ds = run_bwd(eng, strm, bwd_pd(eng, p, alg, pd, dt.bf16), g, ws).read(np.float32)
    exp_ds = bf16_round(np_backward(g, exp_ws, alg, p).astype(np.float32))
    # atol: sums that cancel to ~1e-17 in float64 are 0 in f32
    np.testing.assert_allclose(ds, exp_ds, rtol=2 ** -7, atol=1e-6)
    assert np.mean(ds == exp_ds) > 0.97


@pytest.mark.parametrize("layout", [tag.nChw8c, tag.nChw16c, tag.nhwc], ids=lambda t: t.name)
@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
def test_blocked_buffers_bit_for_bit_with_zeroed_channel_padding(eng, strm, alg, layout):
    """Reads the physical buffers with an independent layout model: values,
    and zeros in the padded channels of dst, workspace and diff_src."""
    p = Prob(2, 13, [7, 6], [3, 2], [2, 2], [0, 1], [1, 1], [1, 0])
    name = {tag.nChw8c: "aBcd8b", tag.nChw16c: "aBcd16b", tag.nhwc: "acdb"}[layout]
    x, g = data(p.src_dims, 4), data(p.dst_dims, 5)
    src = memory(memory.desc(p.src_dims, dt.f32, layout), eng)
    dst, ws = memory(memory.desc(p.dst_dims, dt.f32, layout), eng), None
    np.frombuffer(src.get_data_handle(), np.float32)[:] = to_layout(x, name)
    # garbage where the channel padding is: the outputs must zero it
    np.frombuffer(dst.get_data_handle(), np.uint8)[:] = 0xAB
    pd = pooling_forward.primitive_desc(eng, prop_kind.forward_training, alg, src.get_desc(),
                                        dst.get_desc(), *p.args())
    args = {SRC: src, DST: dst}
    if alg == MAX:
        ws = args[WS] = memory(pd.workspace_desc(), eng)
        np.frombuffer(ws.get_data_handle(), np.uint8)[:] = 0xAB
    pooling_forward(pd).execute(strm, args)
    exp, exp_ws = np_forward(x, alg, p)
    got = np.frombuffer(dst.get_data_handle(), np.float32)
    np.testing.assert_allclose(got, to_layout(exp.astype(np.float32), name), rtol=2e-6,
                               atol=2e-6)
    if alg == MAX:
        assert pd.workspace_desc().get_data_type() == dt.u8
        np.testing.assert_array_equal(np.frombuffer(ws.get_data_handle(), np.uint8),
                                      to_layout(exp_ws.astype(np.uint8), name))
    bpd = bwd_pd(eng, p, alg, pd)
    diff_dst = memory(bpd.diff_dst_desc(), eng)
    np.frombuffer(diff_dst.get_data_handle(), np.float32)[:] = to_layout(g, name)
    diff_src = memory(bpd.diff_src_desc(), eng)
    np.frombuffer(diff_src.get_data_handle(), np.uint8)[:] = 0xAB
    bargs = {DIFF_DST: diff_dst, DIFF_SRC: diff_src}
    if ws is not None:
        bargs[WS] = ws
    pooling_backward(bpd).execute(strm, bargs)
    exp_ds = np_backward(g, exp_ws, alg, p).astype(np.float32)
    got = np.frombuffer(diff_src.get_data_handle(), np.float32)
    np.testing.assert_allclose(got, to_layout(exp_ds, name), rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(from_layout(got, name, p.src_dims), exp_ds, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("layout", [tag.nchw, tag.nhwc, tag.nChw8c, tag.nChw16c],
                         ids=lambda t: t.name)
@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
def test_bf16_computes_in_f32_and_rounds_once(eng, strm, alg, layout):
    p = Prob(2, 17, [9, 8], [3, 3], [2, 1], [0, 1], [1, 1], [1, 0])
    x = bf16_round(data(p.src_dims, 7))
    g = bf16_round(data(p.dst_dims, 8))
    pd = fwd_pd(eng, p, alg, dt.bf16, layout)
    assert pd.dst_desc().get_data_type() == dt.bf16
    dst, ws = run_fwd(eng, strm, pd, x)
    exp, exp_ws = np_forward(x, alg, p)
    got = dst.read(np.float32)
    if alg == MAX:
        np.testing.assert_array_equal(got, exp.astype(np.float32))
        np.testing.assert_array_equal(ws.read().astype(np.int64), exp_ws)
    else:
        expected = bf16_round(exp.astype(np.float32))
        # one rounding of an f32 result: equal, or one bf16 ulp off at a tie
        np.testing.assert_allclose(got, expected, rtol=2 ** -8, atol=1e-30)
        assert np.mean(got == expected) > 0.97
    bpd = bwd_pd(eng, p, alg, pd, dt.bf16)
    ds = run_bwd(eng, strm, bpd, g, ws).read(np.float32)
    exp_ds = bf16_round(np_backward(g, exp_ws, alg, p).astype(np.float32))
    # an f32 sum rounded once: equal, or one bf16 ulp off near a tie
    np.testing.assert_allclose(ds, exp_ds, rtol=2 ** -7, atol=1e-30)
    assert np.mean(ds == exp_ds) > 0.97


@pytest.mark.parametrize("sp", [1, 3])
def test_bf16_1d_and_3d(eng, strm, sp):
    p = Prob(1, 20, [9] * sp, [2] * sp, [2] * sp, [1] * sp, [1] * sp, [0] * sp)
    x = bf16_round(data(p.src_dims, 9))
    for layout in (PLAIN[sp], BLOCKED16[sp]):
        pd = fwd_pd(eng, p, MAX, dt.bf16, layout)
        dst, ws = run_fwd(eng, strm, pd, x)
        exp, exp_ws = np_forward(x, MAX, p)
        np.testing.assert_array_equal(dst.read(np.float32), exp.astype(np.float32))
        g = bf16_round(data(p.dst_dims, 10))
        ds = run_bwd(eng, strm, bwd_pd(eng, p, MAX, pd, dt.bf16), g, ws).read(np.float32)
        np.testing.assert_allclose(ds, bf16_round(np_backward(g, exp_ws, MAX, p)
                                                  .astype(np.float32)), rtol=2 ** -8)


def test_mixed_f32_bf16_go_through_the_reference(eng, strm):
    p = Prob(2, 5, [6, 6], [2, 2], [2, 2])
    x = bf16_round(data(p.src_dims, 11))
    pd = fwd_pd(eng, p, AVG_INC, dt.f32, tag.nchw, dst_type=dt.bf16)
    assert pd.impl_info_str() == "ref:any"
    assert pd.dst_desc().get_data_type() == dt.bf16
    dst, _ = run_fwd(eng, strm, pd, x)
    np.testing.assert_allclose(dst.read(np.float32),
                               bf16_round(np_forward(x, AVG_INC, p)[0].astype(np.float32)),
                               rtol=2 ** -8)


# ------------------------------------------------------------ the workspace

@pytest.mark.parametrize("kernel,ws_type", [([15, 17], dt.u8), ([17, 15], dt.u8),
                                            ([16, 16], dt.s32), ([1, 256], dt.s32)])
def test_workspace_data_type_follows_the_kernel_volume(eng, strm, kernel, ws_type):
    p = Prob(1, 3, [kernel[0] + 1, kernel[1] + 2], kernel, [1, 1])
    pd = fwd_pd(eng, p, MAX, layout=tag.nhwc)
    assert pd.workspace_desc() == memory.desc(p.dst_dims, ws_type, tag.nhwc)
    check_f32(eng, strm, p, MAX, tag.nhwc)


def test_workspace_on_ties_names_the_first_maximum(eng, strm):
    p = Prob(1, 16, [4, 6], [2, 3], [2, 3])
    x = np.zeros(p.src_dims, np.float32)
    x[:, 1] = 7.0                                              # all tie: index 0
    x[:, 2, 0, :] = [1, 5, 5, 2, 5, 1]                         # ties across a row
    x[:, 3] = np.arange(24).reshape(4, 6) % 3                  # repeating maxima
    x[:, 4] = -np.inf
    x[:, 4, 1, 5] = -1.0
    for layout in (tag.nchw, tag.nChw16c, tag.nhwc):
        pd = fwd_pd(eng, p, MAX, layout=layout)
        dst, ws = run_fwd(eng, strm, pd, x)
        exp, exp_ws = np_forward(x, MAX, p)
        np.testing.assert_array_equal(ws.read(), exp_ws)
        np.testing.assert_array_equal(dst.read(), exp.astype(np.float32))
        assert ws.read()[0, 1].max() == 0
        np.testing.assert_array_equal(ws.read()[0, 2, 0], [1, 1])
        # all -inf: nothing beats the lowest finite value (as oneDNN)
        assert dst.read()[0, 4, 0, 0] == F32_LOWEST and ws.read()[0, 4, 0, 0] == 0
        assert dst.read()[0, 4, 0, 1] == -1.0 and ws.read()[0, 4, 0, 1] == 5


@pytest.mark.parametrize("data_type", [dt.f32, dt.bf16], ids=lambda t: t.name)
@pytest.mark.parametrize("layout", [tag.nchw, tag.nChw8c, tag.nChw16c, tag.nhwc],
                         ids=lambda t: t.name)
@pytest.mark.parametrize("ic", [19, 32])   # 32: channels-last in whole vectors
def test_nan_and_signed_zero_follow_the_strict_comparison(eng, strm, ic, layout, data_type):
    """Max takes a tap only where it is greater than the running maximum (as
    oneDNN's reference): a NaN never is, +0 after -0 is not; every
    implementation keeps the value and the index of that rule, bit for bit."""
    p = Prob(1, ic, [4, 6], [2, 3], [2, 3])
    x = bf16_round(data(p.src_dims, 21))
    x[:, 1] = np.nan                                           # skipped: lowest, 0
    x[:, 1, 1, 1] = 2.0                                        # the one number wins
    x[:, 2] = -0.0
    x[:, 2, 0, 1] = 0.0                                        # equal: -0 stays
    x[:, 2, 0, 3] = 0.0                                        # the first: +0 stays
    x[:, 17, 0, :] = [np.nan, 3.0, np.nan, np.nan, 1.0, 1.0]   # lanes past 16
    exp, exp_ws = np_forward(x, MAX, p)
    exp = exp.astype(np.float32)
    assert np.signbit(exp[0, 2, 0, 0]) and not np.signbit(exp[0, 2, 0, 1])
    if data_type == dt.bf16:    # bf16's bits, its lowest for empty windows
        bits = lambda a: a.view(np.uint32) >> 16                   # noqa: E731
        exp = np.where(exp == F32_LOWEST, BF16_LOWEST, exp).astype(np.float32)
    else:
        bits = lambda a: a.view(np.uint32)                         # noqa: E731
    pd = fwd_pd(eng, p, MAX, data_type, layout)
    while True:
        dst, ws = run_fwd(eng, strm, pd, x)
        got = dst.read(np.float32)
        np.testing.assert_array_equal(bits(got), bits(exp), err_msg=pd.impl_info_str())
        np.testing.assert_array_equal(ws.read().astype(np.int64), exp_ws,
                                      err_msg=pd.impl_info_str())
        if not pd.next_impl():
            break


@pytest.mark.parametrize("data_type", [dt.f32, dt.bf16], ids=lambda t: t.name)
def test_windows_inside_the_padding(eng, strm, data_type):
    """Windows with no src element: max gives the lowest finite value and
    index 0, avg_include_padding 0; backward adds nothing for them."""
    p = Prob(1, 3, [4], [3], [1], [0], [3], [3])
    x = -np.arange(1, 13, dtype=np.float32).reshape(p.src_dims)
    lowest = F32_LOWEST if data_type == dt.f32 else BF16_LOWEST
    for layout in (tag.ncw, tag.nCw8c):
        pd = fwd_pd(eng, p, MAX, data_type, layout)
        dst, ws = run_fwd(eng, strm, pd, x)
        d, w = dst.read(np.float32), ws.read()
        assert d[0, 0, 0] == lowest and w[0, 0, 0] == 0
        assert d[0, 0, -1] == lowest and w[0, 0, -1] == 0
        np.testing.assert_array_equal(d[0, 0, 1:-1], [-1, -1, -1, -2, -3, -4][:p.o[0] - 2])
        ds = run_bwd(eng, strm, bwd_pd(eng, p, MAX, pd, data_type),
                     np.ones(p.dst_dims, np.float32), ws).read(np.float32)
        np.testing.assert_array_equal(ds[0, 0], [3, 1, 1, 1])
        inc = fwd_pd(eng, p, AVG_INC, data_type, layout)
        d, _ = run_fwd(eng, strm, inc, x)
        assert d.read(np.float32)[0, 0, 0] == 0
    with pytest.raises(dnnl.error) as e:                       # avg_exclude: 0 / 0
        fwd_pd(eng, p, AVG_EXC)
    assert e.value.status == dnnl.dnnl_invalid_arguments


def test_forward_inference_has_no_workspace(eng, strm):
    p = PROBLEMS[1]
    pd = fwd_pd(eng, p, MAX, prop=prop_kind.forward_inference, layout=tag.nChw8c)
    assert pd.workspace_desc().is_zero()
    assert pd.query_s32(dnnl.query.num_of_outputs_s32) == 1
    x = data(p.src_dims)
    dst, ws = run_fwd(eng, strm, pd, x)
    assert ws is None
    np.testing.assert_array_equal(dst.read(), np_forward(x, MAX, p)[0].astype(np.float32))
    train = fwd_pd(eng, p, MAX, layout=tag.nChw8c)
    assert train.query_s32(dnnl.query.num_of_outputs_s32) == 2
    assert fwd_pd(eng, p, AVG_INC).workspace_desc().is_zero()


# ------------------------------------------------------------ finite differences

@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
@pytest.mark.parametrize("layout", [tag.nchw, tag.nChw8c], ids=lambda t: t.name)
def test_backward_matches_finite_differences(eng, strm, alg, layout):
    """d/dh sum(g * pool(x + h v)) = sum(diff_src * v), with the library's own
    forward pass in f32. For max, distinct inputs at least 0.05 apart and
    perturbations far smaller keep every argmax in place."""
    p = Prob(2, 9, [7, 8], [3, 2], [2, 2], [0, 1], [1, 0], [1, 1])
    rng = np.random.default_rng(12)
    x = (rng.permutation(np.prod(p.src_dims)).reshape(p.src_dims) * 0.05 - 10).astype(np.float32)
    g = data(p.dst_dims, 13)
    v = rng.uniform(-1, 1, p.src_dims)
    h = 1e-3 if alg == MAX else 1e-2
    xp, xm = (x + h * v).astype(np.float32), (x - h * v).astype(np.float32)
    pd = fwd_pd(eng, p, alg, layout=layout)
    loss = [np.sum(g * run_fwd(eng, strm, pd, z)[0].read().astype(np.float64)) for z in (xp, xm)]
    _, ws = run_fwd(eng, strm, pd, x)
    ds = run_bwd(eng, strm, bwd_pd(eng, p, alg, pd), g, ws).read().astype(np.float64)
    # both sides use the perturbation actually applied in f32
    delta = xp.astype(np.float64) - xm.astype(np.float64)
    np.testing.assert_allclose(loss[0] - loss[1], np.sum(ds * delta), rtol=1e-4)


# ------------------------------------------------------------ implementations

@pytest.mark.parametrize("data_type", [dt.f32, dt.bf16], ids=lambda t: t.name)
@pytest.mark.parametrize("layout,kinds", [
    (tag.nhwc, ("nhwc", "plain")), (tag.nchw, ("plain",)), (tag.nChw8c, ("blocked",)),
    (tag.nChw16c, ("blocked",)),
], ids=["nhwc", "nchw", "nChw8c", "nChw16c"])
@pytest.mark.parametrize("alg", ALGS, ids=lambda a: a.name)
def test_every_implementation(eng, strm, alg, layout, kinds, data_type):
    # bf16 also has the avx512_core_bf16 level (vcvtneps2bf16 rounding)
    levels = ("avx512_core", "avx2", "sse41")
    if data_type == dt.bf16:
        levels = ("avx512_core_bf16",) + levels
    impls = [i for kind in kinds for i in level_impls(kind, levels)] + ["ref:any"]
    p = Prob(2, 19, [9, 10], [3, 3], [2, 2], [0, 1], [1, 1], [1, 0])
    x = bf16_round(data(p.src_dims, 14))
    g = bf16_round(data(p.dst_dims, 15))
    exp, exp_ws = np_forward(x, alg, p)
    exp_ds = np_backward(g, exp_ws, alg, p)
    tol = 2e-6 if data_type == dt.f32 else 2 ** -8
    pd = fwd_pd(eng, p, alg, data_type, layout)
    seen, outputs = [], []
    while True:
        seen.append(pd.impl_info_str())
        dst, ws = run_fwd(eng, strm, pd, x)
        np.testing.assert_allclose(dst.read(np.float32), exp, rtol=tol, atol=tol)
        if alg == MAX:
            np.testing.assert_array_equal(ws.read().astype(np.int64), exp_ws)
        # each forward implementation with each backward one
        bpd = bwd_pd(eng, p, alg, pd, data_type)
        bseen = []
        while True:
            bseen.append(bpd.impl_info_str())
            ds = run_bwd(eng, strm, bpd, g, ws).read(np.float32)
            np.testing.assert_allclose(ds, exp_ds, rtol=tol, atol=tol)
            outputs.append(ds)
            if not bpd.next_impl():
                break
        assert bseen == impls
        if not pd.next_impl():
            break
    assert seen == impls
    for o in outputs[1:]:
        np.testing.assert_allclose(o, outputs[0], rtol=tol, atol=tol)


def test_mixed_layouts_go_through_the_reference(eng, strm):
    p = PROBLEMS[0]
    x = data(p.src_dims, 16)
    pd = fwd_pd(eng, p, MAX, layout=tag.nChw8c, dst_layout=tag.nhwc)
    assert pd.impl_info_str() == "ref:any"
    assert pd.workspace_desc() == memory.desc(p.dst_dims, dt.u8, tag.nhwc)
    dst, ws = run_fwd(eng, strm, pd, x)
    exp, exp_ws = np_forward(x, MAX, p)
    np.testing.assert_array_equal(dst.read(), exp.astype(np.float32))
    np.testing.assert_array_equal(ws.read(), exp_ws)
    # plain layouts, whatever their strides, stay on plain:<highest level>
    assert fwd_pd(eng, p, MAX, layout=tag.nchw, dst_layout=tag.nhwc).impl_info_str() == \
        level_impls("plain")[0]


def test_sub_memory_src_and_dst(eng, strm):
    """Descriptors with offsets into bigger tensors (offset0, parent strides)."""
    p = Prob(1, 4, [6, 6], [2, 2], [2, 2])
    parent = data([2, 6, 8, 7], 17)
    big = memory.desc([2, 6, 8, 7], dt.f32, tag.nchw)
    src_md = big.submemory_desc(p.src_dims, [1, 2, 1, 0])
    src = memory(big, eng)
    src.write(parent)
    out_big = memory.desc([1, 5, 4, 5], dt.f32, tag.nhwc)
    dst_md = out_big.submemory_desc(p.dst_dims, [0, 1, 1, 2])
    dst = memory(out_big, eng)
    dst.write(np.zeros([1, 5, 4, 5], np.float32))
    pd = pooling_forward.primitive_desc(eng, prop_kind.forward_inference, AVG_INC, src_md,
                                        dst_md, *p.args())
    pooling_forward(pd).execute(strm, {SRC: src, DST: dst})
    exp = np_forward(parent[1:2, 2:6, 1:7, 0:6], AVG_INC, p)[0]
    out = dst.read()
    np.testing.assert_allclose(out[:, 1:5, 1:4, 2:5], exp, rtol=2e-6, atol=1e-6)
    out[:, 1:5, 1:4, 2:5] = 0
    assert not out.any()


def _channel_sub_memory(eng, strm, alg):
    """Pooling over channels 0..4 of 16-channel nChw8c tensors, fwd and bwd;
    the parents were filled with 42 (dst) and 7 (diff_src)."""
    p = Prob(1, 5, [6, 6], [2, 2], [2, 2])
    src_big = memory.desc([1, 16, 6, 6], dt.f32, tag.nChw8c)
    dst_big = memory.desc([1, 16, 3, 3], dt.f32, tag.nChw8c)
    src_md = src_big.submemory_desc(p.src_dims, [0, 0, 0, 0])
    dst_md = dst_big.submemory_desc(p.dst_dims, [0, 0, 0, 0])
    x, g = data([1, 16, 6, 6], 20), data([1, 16, 3, 3], 21)
    src, dst, ws = memory(src_big, eng), memory(dst_big, eng), None
    src.write(x)
    dst.write(np.full([1, 16, 3, 3], 42.0, np.float32))
    pd = pooling_forward.primitive_desc(eng, prop_kind.forward_training, alg, src_md, dst_md,
                                        *p.args())
    # lanes 5..7 of the second block are the parent's channels, not padding
    assert pd.impl_info_str() == "ref:any"
    args = {SRC: src, DST: dst}
    if alg == MAX:
        ws = args[WS] = memory(pd.workspace_desc(), eng)
    pooling_forward(pd).execute(strm, args)
    bpd = pooling_backward.primitive_desc(eng, alg, src_md, dst_md, *p.args(), pd)
    diff_src, diff_dst = memory(src_big, eng), memory(dst_big, eng)
    diff_src.write(np.full([1, 16, 6, 6], 7.0, np.float32))
    diff_dst.write(g)
    bargs = {DIFF_DST: diff_dst, DIFF_SRC: diff_src}
    if ws is not None:
        bargs[WS] = ws
    pooling_backward(bpd).execute(strm, bargs)
    exp, exp_ws = np_forward(x[:, :5], alg, p)
    return (p, dst.read(), diff_src.read(), exp, np_backward(g[:, :5], exp_ws, alg, p))


@pytest.mark.parametrize("alg", [MAX, AVG_INC], ids=lambda a: a.name)
def test_channel_sub_memory_of_a_blocked_tensor(eng, strm, alg):
    p, out, ds, exp, exp_ds = _channel_sub_memory(eng, strm, alg)
    np.testing.assert_allclose(out[:, :5], exp, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(ds[:, :5], exp_ds, rtol=1e-5, atol=1e-5)


def test_channel_sub_memory_leaves_the_other_channels_alone(eng, strm):
    _, out, ds, _, _ = _channel_sub_memory(eng, strm, MAX)
    assert (out[:, 5:] == 42.0).all() and (ds[:, 5:] == 7.0).all()


def test_user_scratchpad(eng, strm):
    p = PROBLEMS[1]
    attr = primitive_attr()
    attr.set_scratchpad_mode(scratchpad_mode.user)
    x, g = bf16_round(data(p.src_dims, 18)), bf16_round(data(p.dst_dims, 19))
    pd = pooling_forward.primitive_desc(
        eng, prop_kind.forward_training, MAX, memory.desc(p.src_dims, dt.bf16, tag.nChw16c),
        memory.desc(p.dst_dims, dt.bf16, tag.any), *p.args(), attr)
    dst, ws = run_fwd(eng, strm, pd, x)
    bpd = pooling_backward.primitive_desc(
        eng, MAX, memory.desc(p.src_dims, dt.bf16, tag.any),
        memory.desc(p.dst_dims, dt.bf16, tag.any), *p.args(), pd, attr)
    assert bpd.scratchpad_desc().get_size() > 0        # f32 accumulators for bf16
    diff_dst, diff_src = memory(bpd.diff_dst_desc(), eng), memory(bpd.diff_src_desc(), eng)
    diff_dst.write(g)
    args = {DIFF_DST: diff_dst, DIFF_SRC: diff_src, WS: ws}
    with pytest.raises(dnnl.error) as e:
        pooling_backward(bpd).execute(strm, args)
    assert e.value.status == dnnl.dnnl_invalid_arguments and "SCRATCHPAD" in e.value.message
    args[dnnl.DNNL_ARG_SCRATCHPAD] = memory(bpd.scratchpad_desc(), eng)
    pooling_backward(bpd).execute(strm, args)
    exp_ws = np_forward(x, MAX, p)[1]
    np.testing.assert_allclose(diff_src.read(np.float32),
                               bf16_round(np_backward(g, exp_ws, MAX, p).astype(np.float32)),
                               rtol=2 ** -8)


# ------------------------------------------------------------ `any` and queries

def test_any_resolution(eng):
    p = PROBLEMS[1]
    fwd = fwd_pd(eng, p, MAX, layout=tag.nChw16c)
    assert fwd.dst_desc() == memory.desc(p.dst_dims, dt.f32, tag.nChw16c)
    assert fwd.workspace_desc() == memory.desc(p.dst_dims, dt.u8, tag.nChw16c)
    # backward with a hint: diff_src takes the hint's src layout, diff_dst follows it
    bwd = bwd_pd(eng, p, MAX, fwd)
    assert bwd.diff_src_desc() == memory.desc(p.src_dims, dt.f32, tag.nChw16c)
    assert bwd.diff_dst_desc() == memory.desc(p.dst_dims, dt.f32, tag.nChw16c)
    assert bwd.workspace_desc() == fwd.workspace_desc()
    # without one (average only, C API): plain
    anys = memory.desc(p.src_dims, dt.f32, tag.any), memory.desc(p.dst_dims, dt.f32, tag.any)
    c_pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_pooling_backward_primitive_desc_create(
        c_pd, eng.get(), c.dnnl_pooling_avg_include_padding, anys[0].get(), anys[1].get(),
        *p.args(), None, None) == c.dnnl_success
    avg = pooling_backward.primitive_desc(c_pd)
    assert avg.diff_src_desc() == memory.desc(p.src_dims, dt.f32, tag.nchw)
    assert avg.diff_dst_desc() == memory.desc(p.dst_dims, dt.f32, tag.nchw)
    # a given diff_src wins over the hint, and diff_dst follows it
    avg = bwd_pd(eng, p, AVG_INC, fwd_pd(eng, p, AVG_INC, layout=tag.nChw8c),
                 src_layout=tag.nhwc)
    assert avg.diff_dst_desc() == memory.desc(p.dst_dims, dt.f32, tag.nhwc)
    blocked = memory.desc(p.dst_dims, dt.f32, tag.nChw8c)
    c_pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_pooling_backward_primitive_desc_create(
        c_pd, eng.get(), c.dnnl_pooling_avg_include_padding, anys[0].get(), blocked.get(),
        *p.args(), None, None) == c.dnnl_success
    avg = pooling_backward.primitive_desc(c_pd)
    assert avg.diff_src_desc() == memory.desc(p.src_dims, dt.f32, tag.nchw)
    assert avg.impl_info_str() == "ref:any"


def test_queries(eng):
    p = Prob(2, 8, [5, 9, 11], [2, 3, 2], [1, 2, 3], [0, 1, 2], [1, 0, 1], [0, 1, 2])
    pd = fwd_pd(eng, p, AVG_EXC)
    assert pd.get_strides() == p.s and pd.get_kernel() == p.k
    assert pd.get_dilations() == p.d
    assert pd.get_padding_l() == p.pl and pd.get_padding_r() == p.pr
    assert pd.get_algorithm() == AVG_EXC
    assert pd.get_prop_kind() == prop_kind.forward_training
    assert pd.src_desc() == memory.desc(p.src_dims, dt.f32, tag.ncdhw)
    assert pd.get_kind() == dnnl.primitive.kind.pooling
    bpd = bwd_pd(eng, p, AVG_EXC, pd)
    assert bpd.get_prop_kind() == prop_kind.backward_data
    assert bpd.get_kernel() == p.k and bpd.get_padding_r() == p.pr
    assert bpd.src_desc().is_zero() and bpd.diff_dst_desc().get_dims() == p.dst_dims
    # wrapping a dnnl_c handle, with the kind checked
    again = pooling_backward.primitive_desc(bpd.get())
    assert again.get_dilations() == p.d
    with pytest.raises(dnnl.error):
        pooling_forward.primitive_desc(bpd.get())
    relu = eltwise_forward.primitive_desc(eng, prop_kind.forward, A.eltwise_relu,
                                          pd.src_desc(), pd.src_desc())
    with pytest.raises(dnnl.error):
        pooling_forward.primitive_desc(relu.get())


def test_null_dilation_and_padding_r_through_the_c_api(eng):
    p = Prob(1, 2, [8, 8], [3, 3], [2, 2], [0, 0], [1, 1], [1, 1])
    src = memory.desc(p.src_dims, dt.f32, tag.nchw)
    dst = memory.desc(p.dst_dims, dt.f32, tag.nchw)
    pd = c.dnnl_primitive_desc_t()
    # NULL padding_r means padding_l; NULL dilation means dense (oneDNN v3.13
    # crashes on it)
    assert c.dnnl_pooling_forward_primitive_desc_create(
        pd, eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, src.get(), dst.get(),
        p.s, p.k, None, p.pl, None, None) == c.dnnl_success
    for q, want in [(c.dnnl_query_dilations, (0, 0)), (c.dnnl_query_padding_r, (1, 1)),
                    (c.dnnl_query_kernel, (3, 3)), (c.dnnl_query_strides, (2, 2))]:
        out = [None]
        assert c.dnnl_primitive_desc_query(pd, q, 0, out) == c.dnnl_success
        assert tuple(out[0]) == want
    assert c.dnnl_primitive_desc_destroy(pd) == c.dnnl_success


# ------------------------------------------------------------ degenerate sizes

def test_zero_batch_and_empty_output(eng, strm):
    p = Prob(0, 3, [5, 5], [2, 2], [2, 2])
    pd = fwd_pd(eng, p, MAX, layout=tag.nChw8c)
    dst, ws = run_fwd(eng, strm, pd, np.zeros(p.src_dims, np.float32))
    run_bwd(eng, strm, bwd_pd(eng, p, MAX, pd), np.zeros(p.dst_dims, np.float32), ws)
    # an output of width 0 (oneDNN's C division: (2 - 4 - 1) / 3 + 1 = 0)
    q = Prob(1, 3, [2], [4], [3], [0], [0], [-1])
    assert q.o == [0]
    for layout in (tag.ncw, tag.nCw16c):
        for alg in (MAX, AVG_INC):
            pd = fwd_pd(eng, q, alg, layout=layout)
            run_fwd(eng, strm, pd, np.ones(q.src_dims, np.float32))
            bpd = bwd_pd(eng, q, alg, pd)
            ds = memory(bpd.diff_src_desc(), eng)
            ds.write(np.full(q.src_dims, 5.0, np.float32))
            args = {DIFF_DST: memory(bpd.diff_dst_desc(), eng), DIFF_SRC: ds}
            if alg == MAX:
                args[WS] = memory(bpd.workspace_desc(), eng)
            pooling_backward(bpd).execute(strm, args)
            assert not ds.read().any()          # diff_src is written, all zeros


def test_window_wider_than_the_input(eng, strm):
    """in = 1, kernel 2, stride 2: C's division gives one output whose
    window reaches past the end (no padding); the average counts both taps
    when including padding."""
    p = Prob(1, 2, [1], [2], [2])
    assert p.o == [1]
    x = np.array([[[3.0], [-4.0]]], np.float32)
    for alg, want in [(MAX, [3.0, -4.0]), (AVG_INC, [1.5, -2.0]), (AVG_EXC, [3.0, -4.0])]:
        dst, _ = run_fwd(eng, strm, fwd_pd(eng, p, alg), x)
        np.testing.assert_array_equal(dst.read()[0, :, 0], want)


# ------------------------------------------------------------ bad input

def test_bf16_is_unimplemented_under_the_project_switch(eng, monkeypatch):
    p = PROBLEMS[0]
    hint = fwd_pd(eng, p, MAX, dt.bf16)
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "1")
    for make in (lambda: fwd_pd(eng, p, MAX, dt.bf16),
                 lambda: fwd_pd(eng, p, AVG_INC, dt.f32, dst_type=dt.bf16),
                 lambda: bwd_pd(eng, p, MAX, hint, dt.bf16)):
        with pytest.raises(dnnl.error) as e:
            make()
        assert e.value.status == dnnl.dnnl_unimplemented
        assert "bf16" in e.value.message
    fwd_pd(eng, p, MAX, dt.f32)
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "0")
    fwd_pd(eng, p, MAX, dt.bf16)


def c_fwd(eng, src_dims=(2, 3, 8, 8), dst_dims=(2, 3, 4, 4), prop=c.dnnl_forward_training,
          alg=c.dnnl_pooling_max, strides=(2, 2), kernel=(2, 2), dilation=(0, 0),
          padding_l=(0, 0), padding_r=(0, 0), src_tag=c.dnnl_nchw, dst_tag=c.dnnl_nchw,
          src_type=c.dnnl_f32, dst_type=c.dnnl_f32, engine_=True):
    src, dst = c.dnnl_memory_desc_t(), c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(src, len(src_dims), list(src_dims), src_type,
                                              src_tag) == c.dnnl_success
    assert c.dnnl_memory_desc_create_with_tag(dst, len(dst_dims), list(dst_dims), dst_type,
                                              dst_tag) == c.dnnl_success
    pd = c.dnnl_primitive_desc_t()
    return c.dnnl_pooling_forward_primitive_desc_create(
        pd, eng.get() if engine_ else None, prop, alg, src, dst, strides, kernel, dilation,
        padding_l, padding_r, None)


def test_bad_forward_input_through_the_c_api(eng):
    inv, unimp, ok = c.dnnl_invalid_arguments, c.dnnl_unimplemented, c.dnnl_success
    assert c_fwd(eng) == ok
    cases = [
        (dict(prop=c.dnnl_backward_data), inv),
        (dict(prop=c.dnnl_prop_kind_undef), inv),
        (dict(alg=c.dnnl_eltwise_relu), inv),
        (dict(src_tag=c.dnnl_format_tag_any), inv),
        (dict(src_dims=(2, 3), dst_dims=(2, 3), src_tag=c.dnnl_ab, dst_tag=c.dnnl_ab,
              strides=(), kernel=(), dilation=(), padding_l=(), padding_r=()), inv),
        (dict(src_dims=(2, 3, 4, 4, 4, 4), dst_dims=(2, 3, 2, 2, 2, 2), src_tag=c.dnnl_abcdef,
              dst_tag=c.dnnl_abcdef, strides=(2,) * 4, kernel=(2,) * 4, dilation=(0,) * 4,
              padding_l=(0,) * 4, padding_r=(0,) * 4), inv),
        (dict(dst_dims=(2, 3, 4), dst_tag=c.dnnl_abc), inv),          # ndims differ
        (dict(dst_dims=(3, 3, 4, 4)), inv),                           # N differs
        (dict(dst_dims=(2, 4, 4, 4)), inv),                           # C differs
        (dict(dst_dims=(2, 3, 5, 4)), inv),                           # output too big
        (dict(dst_dims=(2, 3, 4, 3)), inv),                           # output too small
        (dict(strides=(0, 2), dst_dims=(2, 3, 4, 4)), inv),
        (dict(strides=(-2, 2)), inv),
        (dict(kernel=(0, 2), dst_dims=(2, 3, 5, 4)), inv),            # 0 / 2 + 1 would fit
        (dict(kernel=(-1, 2)), inv),
        (dict(dilation=(-1, 0)), inv),
        (dict(padding_l=(-1, 0), dst_dims=(2, 3, 4, 4)), inv),
        (dict(padding_r=(-3, 0), dst_dims=(2, 3, 2, 4)), inv),       # pad_r + stride < 0
        (dict(padding_r=(-2, 0), dst_dims=(2, 3, 3, 4)), ok),        # pad_r + stride = 0
        (dict(padding_l=(2, 2), padding_r=(2, 2), dst_dims=(2, 3, 6, 6)), ok),
        (dict(alg=c.dnnl_pooling_avg_exclude_padding, padding_l=(2, 0), dst_dims=(2, 3, 5, 4)),
         inv),                                                        # pad_l = kernel extent
        (dict(alg=c.dnnl_pooling_avg_exclude_padding, dilation=(8, 0), kernel=(1, 2),
              strides=(1, 2), dst_dims=(2, 3, 8, 4)), inv),           # dilation >= src
        (dict(alg=c.dnnl_pooling_avg_exclude_padding, padding_l=(1, 0), padding_r=(1, 0),
              dst_dims=(2, 3, 5, 4)), ok),
        (dict(kernel=(1 << 62, 2), padding_l=(1 << 62, 0)), inv),   # out of range
        (dict(src_type=c.dnnl_s8, dst_type=c.dnnl_s8), unimp),
        (dict(dst_type=c.dnnl_bf16), ok),                             # mixed: ref:any
        (dict(engine_=False), inv),
    ]
    for kwargs, status in cases:
        assert c_fwd(eng, **kwargs) == status, (kwargs, c.cydnnl_last_error())
        if status == inv:
            assert "pooling" in c.cydnnl_last_error() or "engine" in c.cydnnl_last_error() \
                or "prop_kind" in c.cydnnl_last_error(), kwargs
    # NULL arguments
    keep = memory.desc([2, 3, 8, 8], dt.f32, tag.nchw), memory.desc([2, 3, 4, 4], dt.f32,
                                                                    tag.nchw)
    md, out_md = keep[0].get(), keep[1].get()
    pd = c.dnnl_primitive_desc_t()
    f = c.dnnl_pooling_forward_primitive_desc_create
    for args in [(None, out_md, [2, 2], [2, 2], [0, 0], [0, 0], [0, 0]),
                 (md, None, [2, 2], [2, 2], [0, 0], [0, 0], [0, 0]),
                 (md, out_md, None, [2, 2], [0, 0], [0, 0], [0, 0]),
                 (md, out_md, [2, 2], None, [0, 0], [0, 0], [0, 0]),
                 (md, out_md, [2, 2], [2, 2], [0, 0], None, [0, 0])]:
        assert f(pd, eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, *args,
                 None) == inv, args
    # the Python-level wrapper: one entry per spatial dim, ints only
    assert f(pd, eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, md, out_md,
             [2], [2, 2], [0, 0], [0, 0], [0, 0], None) == inv
    assert "strides" in c.cydnnl_last_error()
    assert f(pd, eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, md, out_md,
             [2, 2], [2, "x"], [0, 0], [0, 0], [0, 0], None) == inv
    assert "kernel" in c.cydnnl_last_error()
    assert f(pd, eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, "md", out_md,
             [2, 2], [2, 2], [0, 0], [0, 0], [0, 0], None) == inv
    assert f("pd", eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, md, out_md,
             [2, 2], [2, 2], [0, 0], [0, 0], [0, 0], None) == inv
    dead = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(dead, 4, [2, 3, 8, 8], c.dnnl_f32,
                                              c.dnnl_nchw) == c.dnnl_success
    assert c.dnnl_memory_desc_destroy(dead) == c.dnnl_success
    assert f(pd, eng.get(), c.dnnl_forward_training, c.dnnl_pooling_max, dead, out_md,
             [2, 2], [2, 2], [0, 0], [0, 0], [0, 0], None) == inv
    assert not pd


def test_bad_backward_input_through_the_c_api(eng):
    p = Prob(2, 3, [8, 8], [2, 2], [2, 2])
    src, dst = memory.desc(p.src_dims, dt.f32, tag.nchw), memory.desc(p.dst_dims, dt.f32,
                                                                      tag.nchw)
    anys = memory.desc(p.src_dims, dt.f32, tag.any), memory.desc(p.dst_dims, dt.f32, tag.any)
    blocked = fwd_pd(eng, p, MAX, layout=tag.nChw8c)
    infer = fwd_pd(eng, p, MAX, prop=prop_kind.forward_inference)
    avg = fwd_pd(eng, p, AVG_INC)
    reorder = dnnl.reorder.primitive_desc(eng, src, eng, src)
    pd = c.dnnl_primitive_desc_t()

    def b(alg, hint, ds=src, dd=dst, strides=p.s):
        return c.dnnl_pooling_backward_primitive_desc_create(
            pd, eng.get(), alg, ds.get(), dd.get(), strides, p.k, p.d, p.pl, p.pr,
            hint.get() if hint is not None else None, None)
    inv, unimp = c.dnnl_invalid_arguments, c.dnnl_unimplemented
    assert b(c.dnnl_pooling_max, None) == inv            # no workspace without a hint
    assert "hint_fwd_pd" in c.cydnnl_last_error()
    assert b(c.dnnl_pooling_max, reorder) == inv         # not a pooling pd
    assert b(c.dnnl_pooling_avg_include_padding, reorder) == inv
    assert b(c.dnnl_pooling_max, infer) == unimp         # no workspace in the hint
    assert b(c.dnnl_pooling_max, avg) == unimp
    assert b(c.dnnl_pooling_max, blocked) == unimp       # diff_dst's layout is not the ws's
    assert "workspace" in c.cydnnl_last_error()
    assert b(c.dnnl_pooling_max, blocked, *anys) == c.dnnl_success
    assert b(c.dnnl_pooling_avg_include_padding, None) == c.dnnl_success
    assert b(c.dnnl_pooling_avg_include_padding, infer) == c.dnnl_success
    assert b(c.dnnl_pooling_max, blocked, strides=[0, 2]) == inv
    assert b(c.dnnl_pooling_max, blocked, dd=memory.desc([2, 3, 3, 4], dt.f32,
                                                         tag.nchw)) == inv
    assert b(c.dnnl_pooling_avg_include_padding, None,
             ds=memory.desc(p.src_dims, dt.s8, tag.nchw),
             dd=memory.desc(p.dst_dims, dt.s8, tag.nchw)) == unimp
    # the hint's kernel volume decides the workspace type: it must match
    big = Prob(2, 3, [32, 32], [16, 16], [16, 16])
    hint = fwd_pd(eng, big, MAX)
    assert hint.workspace_desc().get_data_type() == dt.s32
    assert c.dnnl_pooling_backward_primitive_desc_create(
        pd, eng.get(), c.dnnl_pooling_max, memory.desc(big.src_dims, dt.f32, tag.any).get(),
        memory.desc(big.dst_dims, dt.f32, tag.any).get(), [16, 16], [2, 2], [0, 0],
        [0, 0], [0, 0], hint.get(), None) == unimp


def test_bad_input_through_the_object_layer(eng, strm):
    p = PROBLEMS[0]
    src = memory.desc(p.src_dims, dt.f32, tag.nchw)
    dst = memory.desc(p.dst_dims, dt.f32, tag.nchw)
    bad_dst = memory.desc([p.mb, p.ic, p.o[0] + 1, p.o[1]], dt.f32, tag.nchw)
    with pytest.raises(dnnl.error) as e:
        pooling_forward.primitive_desc(eng, prop_kind.forward_training, MAX, src, bad_dst,
                                       *p.args())
    assert e.value.status == dnnl.dnnl_invalid_arguments
    assert "pooling forward" in e.value.message and "dst_desc" in e.value.message
    with pytest.raises(dnnl.error) as e:
        pooling_forward.primitive_desc(eng, prop_kind.forward_training, MAX, src,
                                       memory.desc(p.dst_dims, dt.s8, tag.nchw), *p.args())
    assert e.value.status == dnnl.dnnl_unimplemented and "pooling" in e.value.message
    empty = pooling_forward.primitive_desc(eng, prop_kind.forward_training, MAX, src, bad_dst,
                                           *p.args(), allow_empty=True)
    assert not empty.get(allow_empty=True)
    with pytest.raises(dnnl.error) as e:       # too few arguments
        pooling_forward.primitive_desc(eng, prop_kind.forward_training, MAX, src, dst, p.s,
                                       p.k, p.pl, p.pr)
    assert e.value.status == dnnl.dnnl_invalid_arguments
    with pytest.raises(dnnl.error) as e:
        pooling_forward.primitive_desc(eng, prop_kind.forward_training, MAX, src, dst, p.s,
                                       "k", *p.args()[2:])
    assert "kernel" in e.value.message
    fwd = pooling_forward.primitive_desc(eng, prop_kind.forward_training, MAX, src, dst,
                                         *p.args())
    with pytest.raises(dnnl.error) as e:       # the hint is not optional in C++
        pooling_backward.primitive_desc(eng, MAX, src, dst, *p.args())
    assert e.value.status == dnnl.dnnl_invalid_arguments
    relu = eltwise_forward.primitive_desc(eng, prop_kind.forward, A.eltwise_relu, src, src)
    with pytest.raises(dnnl.error) as e:
        pooling_backward.primitive_desc(eng, MAX, src, dst, *p.args(), relu)
    assert "hint_fwd_pd" in e.value.message
    with pytest.raises(dnnl.error) as e:
        pooling_backward.primitive_desc(eng, MAX, src, dst, *p.args(),
                                        fwd_pd(eng, p, MAX, prop=prop_kind.forward_inference))
    assert e.value.status == dnnl.dnnl_unimplemented
    assert "pooling backward" in e.value.message


def test_execute_without_the_workspace(eng, strm):
    p = PROBLEMS[1]
    pd = fwd_pd(eng, p, MAX, layout=tag.nChw8c)
    src, dst = memory(pd.src_desc(), eng), memory(pd.dst_desc(), eng)
    prim = pooling_forward(pd)
    with pytest.raises(dnnl.error) as e:
        prim.execute(strm, {SRC: src, DST: dst})
    assert e.value.status == dnnl.dnnl_invalid_arguments and "WORKSPACE" in e.value.message
    ws = memory(pd.workspace_desc(), eng)
    wrong_ws = memory(memory.desc(p.dst_dims, dt.s32, tag.nChw8c), eng)
    assert c.dnnl_primitive_execute(prim.get(), strm.get(), 2, [(SRC, src.get()),
                                                                (DST, dst.get())]) == \
        c.dnnl_invalid_arguments
    assert c.dnnl_primitive_execute(prim.get(), strm.get(), 3, [
        (SRC, src.get()), (DST, dst.get()), (WS, wrong_ws.get())]) == c.dnnl_invalid_arguments
    prim.execute(strm, {SRC: src, DST: dst, WS: ws})
    bpd = bwd_pd(eng, p, MAX, pd)
    bprim = pooling_backward(bpd)
    dd, ds = memory(bpd.diff_dst_desc(), eng), memory(bpd.diff_src_desc(), eng)
    with pytest.raises(dnnl.error) as e:
        bprim.execute(strm, {DIFF_DST: dd, DIFF_SRC: ds})
    assert e.value.status == dnnl.dnnl_invalid_arguments
    bprim.execute(strm, {DIFF_DST: dd, DIFF_SRC: ds, WS: ws})
