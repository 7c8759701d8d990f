"""LRN forward and backward against NumPy written from oneDNN's definitions
(doc/primitives/lrn.md, src/cpu/ref_lrn.cpp): alpha is divided by the window
size (size^spatial dims within a channel), windows are clipped at the
borders while the divisor stays, and backward recomputes omega from src."""

import itertools

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from dnnl import (algorithm, eltwise_forward, lrn_backward, lrn_forward, memory,
                  primitive_attr, prop_kind, scratchpad_mode)
from helpers import bf16_round, from_layout, level_impls, make_md, to_layout
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
ACROSS, WITHIN = algorithm.lrn_across_channels, algorithm.lrn_within_channel
# the tiled across-channel implementations this process may run, highest
# ISA level first, and the one the dispatch picks
BLOCKED = level_impls("blocked")
BEST_ACROSS = (BLOCKED + ["ref:any"])[0]
# bf16 also has the avx512_core_bf16 level (vcvtneps2bf16 rounding)
BLOCKED_BF16 = level_impls("blocked", ("avx512_core_bf16", "avx512_core", "avx2", "sse41"))
BEST_ACROSS_BF16 = (BLOCKED_BF16 + ["ref:any"])[0]
SRC, DST, DIFF_SRC, DIFF_DST = (dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST, dnnl.DNNL_ARG_DIFF_SRC,
                                dnnl.DNNL_ARG_DIFF_DST)
LAYOUTS_4D = [tag.nchw, tag.nhwc, tag.nChw8c, tag.nChw16c]

# ------------------------------------------------------------ NumPy reference


def window_sum(v, alg, ls):
    """Sum of v over every element's window; positions outside count as 0."""
    half = (ls - 1) // 2 if ls > 0 else 0
    axes = [1] if alg == ACROSS else list(range(2, v.ndim))
    # reaching further than the axis is long adds only zeros
    h = {a: min(half, max(v.shape[a] - 1, 0)) for a in axes}
    vp = np.pad(v, [(h[a], h[a]) if a in axes else (0, 0) for a in range(v.ndim)])
    out = np.zeros_like(v)
    for offsets in itertools.product(*[range(2 * h[a] + 1) for a in axes]):
        index = [slice(None)] * v.ndim
        for a, o in zip(axes, offsets):
            index[a] = slice(o, o + v.shape[a])
        out += vp[tuple(index)]
    return out


def divisor(alg, ls, ndims):
    return ls if alg == ACROSS else ls ** (ndims - 2)


def omega(x, alg, ls, alpha, k):
    return k + alpha / divisor(alg, ls, x.ndim) * window_sum(x * x, alg, ls)


def ref_fwd(x, alg, ls, alpha, beta, k):
    x = np.asarray(x, np.float64)
    return x * omega(x, alg, ls, alpha, k) ** -beta


def ref_bwd(x, dd, alg, ls, alpha, beta, k):
    """d/dx_j of sum_i dd_i*y_i, y_i = x_i*omega_i^-beta: x_j enters y_j
    directly and omega_i for every i whose window holds j, which (windows
    being symmetric) are the i in j's own window."""
    x, dd = np.asarray(x, np.float64), np.asarray(dd, np.float64)
    om = omega(x, alg, ls, alpha, k)
    q = dd * x * om ** (-beta - 1)
    return (dd * om ** -beta
            - 2 * alpha * beta / divisor(alg, ls, x.ndim) * x * window_sum(q, alg, ls))


# ------------------------------------------------------------ running cydnnl


def data(shape, seed=0, lo=-2.0, hi=2.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def run_fwd(eng, strm, x, alg, ls, alpha, beta, k, layout=tag.nchw, data_type=dt.f32,
            dst_layout=tag.any, pk=prop_kind.forward_training):
    dims = list(x.shape)
    src = memory(memory.desc(dims, data_type, layout), eng)
    src.write(x)
    pd = lrn_forward.primitive_desc(eng, pk, alg, src.get_desc(),
                                    memory.desc(dims, data_type, dst_layout), ls, alpha, beta, k)
    dst = memory(pd.dst_desc(), eng)
    lrn_forward(pd).execute(strm, {SRC: src, DST: dst})
    return pd, src, dst


def run_bwd(eng, strm, fwd_pd, src, dd, alg, ls, alpha, beta, k, data_type=dt.f32,
            diff_layout=tag.any):
    dims = list(dd.shape)
    diff_md = memory.desc(dims, data_type, diff_layout)
    pd = lrn_backward.primitive_desc(eng, alg, diff_md, diff_md, src.get_desc(), ls, alpha,
                                     beta, k, fwd_pd)
    diff_dst = memory(pd.diff_dst_desc(), eng)
    diff_dst.write(dd)
    diff_src = memory(pd.diff_src_desc(), eng)
    lrn_backward(pd).execute(strm, {SRC: src, DIFF_DST: diff_dst, DIFF_SRC: diff_src})
    return pd, diff_src


def check_f32(eng, strm, shape, alg, ls, alpha, beta, k, layout, seed=0):
    x, dd = data(shape, seed), data(shape, seed + 1, -1, 1)
    pd, src, dst = run_fwd(eng, strm, x, alg, ls, alpha, beta, k, layout)
    assert pd.dst_desc() == src.get_desc()
    np.testing.assert_allclose(dst.read(), ref_fwd(x, alg, ls, alpha, beta, k), rtol=2e-6,
                               atol=1e-6)
    bpd, diff_src = run_bwd(eng, strm, pd, src, dd, alg, ls, alpha, beta, k)
    assert bpd.diff_src_desc() == src.get_desc() and bpd.diff_dst_desc() == src.get_desc()
    np.testing.assert_allclose(diff_src.read(), ref_bwd(x, dd, alg, ls, alpha, beta, k),
                               rtol=1e-5, atol=1e-5)
    return pd.impl_info_str(), bpd.impl_info_str()


def test_numpy_reference_matches_finite_differences():
    """The NumPy backward against central differences of the NumPy forward,
    all in float64, for both algorithms, odd and even sizes, two betas."""
    rng = np.random.default_rng(7)
    for alg, ls, beta, shape in [(ACROSS, 3, 0.75, [2, 7, 3, 4]), (ACROSS, 4, 0.6, [1, 9, 5]),
                                 (WITHIN, 3, 0.75, [2, 3, 4, 5]),
                                 (WITHIN, 5, 0.6, [1, 2, 3, 4, 5])]:
        x = rng.uniform(-2, 2, shape)
        dd = rng.uniform(-1, 1, shape)
        alpha, k = 0.9, 1.3
        numeric = np.zeros_like(x)
        eps = 1e-6
        for i in np.ndindex(*shape):
            xp, xm = x.copy(), x.copy()
            xp[i] += eps
            xm[i] -= eps
            numeric[i] = np.sum(dd * (ref_fwd(xp, alg, ls, alpha, beta, k)
                                      - ref_fwd(xm, alg, ls, alpha, beta, k))) / (2 * eps)
        np.testing.assert_allclose(ref_bwd(x, dd, alg, ls, alpha, beta, k), numeric, rtol=1e-6,
                                   atol=1e-7)


@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
def test_backward_matches_finite_differences(eng, strm, alg):
    """cydnnl's backward against central differences of the float64 forward."""
    shape, ls, alpha, beta, k = [2, 6, 4, 5], 5, 1.1, 0.75, 0.8
    x, dd = data(shape, 11), data(shape, 12, -1, 1)
    x64 = x.astype(np.float64)
    numeric = np.zeros(shape)
    eps = 1e-6
    for i in np.ndindex(*shape):
        xp, xm = x64.copy(), x64.copy()
        xp[i] += eps
        xm[i] -= eps
        numeric[i] = np.sum(dd * (ref_fwd(xp, alg, ls, alpha, beta, k)
                                  - ref_fwd(xm, alg, ls, alpha, beta, k))) / (2 * eps)
    pd, src, _ = run_fwd(eng, strm, x, alg, ls, alpha, beta, k, tag.nChw8c)
    _, diff_src = run_bwd(eng, strm, pd, src, dd, alg, ls, alpha, beta, k)
    np.testing.assert_allclose(diff_src.read(), numeric, rtol=1e-5, atol=1e-5)


# tests/benchdnn/inputs/lrn/shapes_2d and shapes_topologies (v3.13.1), as
# (mb, ic, ih, iw, ls, beta, k). Batch 2 for the small problems, 1 for the
# topologies. benchdnn's default alpha (1/8192) leaves dst within 1e-3 of
# src, which would hide errors, so these run with alpha 0.5.
BENCHDNN_2D = [
    (2, 15, 16, 16, 5, 0.75, 1.0),   # channel_tail
    (2, 16, 5, 5, 7, 0.75, 1.0),     # non_default_local_size
    (2, 16, 5, 5, 5, 1.0, 1.0),      # non_default_beta
    (2, 16, 5, 5, 5, 0.75, 14.2),    # non_default_k
    (2, 16, 10, 7, 5, 0.75, 1.0),    # non_square_shape
    (2, 12, 15, 1, 5, 0.75, 1.0),    # unit_width
    (2, 31, 1, 16, 5, 0.75, 1.0),    # unit_height
    (2, 64, 1, 1, 5, 0.75, 1.0),     # unit_height_and_width
]
TOPOLOGIES = [
    (1, 96, 55, 55, 5, 0.75, 1.0),   # alexnet:norm1
    (1, 256, 27, 27, 5, 0.75, 1.0),  # alexnet:norm2
    (1, 64, 57, 57, 5, 0.75, 1.0),   # googlenet:pool1/norm1
    (1, 96, 112, 112, 3, 0.75, 2.0),  # fastrcnn_zf:norm1 (ls3; k from fastrcnn:norm1)
]


@pytest.mark.parametrize("layout", LAYOUTS_4D)
@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
@pytest.mark.parametrize("problem", BENCHDNN_2D)
def test_benchdnn_shapes(eng, strm, problem, alg, layout):
    mb, ic, ih, iw, ls, beta, k = problem
    impls = check_f32(eng, strm, [mb, ic, ih, iw], alg, ls, 0.5, beta, k, layout)
    assert impls == ((BEST_ACROSS,) * 2 if alg == ACROSS else ("ref:any",) * 2)


@pytest.mark.parametrize("layout", [tag.nChw8c, tag.nChw16c])
@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
@pytest.mark.parametrize("problem", TOPOLOGIES)
def test_topology_shapes(eng, strm, problem, alg, layout):
    mb, ic, ih, iw, ls, beta, k = problem
    check_f32(eng, strm, [mb, ic, ih, iw], alg, ls, 0.5, beta, k, layout)


@pytest.mark.parametrize("layout", LAYOUTS_4D)
@pytest.mark.parametrize("beta", [0.75, 0.6])
@pytest.mark.parametrize("ls", [1, 3, 4, 5, 7])
@pytest.mark.parametrize("channels", [1, 3, 13, 17])
@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
def test_odd_channels_local_sizes_and_betas(eng, strm, alg, channels, ls, beta, layout):
    check_f32(eng, strm, [2, channels, 5, 7], alg, ls, 0.8, beta, 1.2, layout, seed=channels)


@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
@pytest.mark.parametrize("shape,layout", [
    ([3, 11], tag.nc), ([3, 11], tag.cn),
    ([2, 13, 9], tag.ncw), ([2, 13, 9], tag.nwc), ([2, 13, 9], tag.nCw8c),
    ([2, 13, 9], tag.nCw16c),
    ([2, 13, 3, 4, 5], tag.ncdhw), ([2, 13, 3, 4, 5], tag.ndhwc),
    ([2, 13, 3, 4, 5], tag.nCdhw8c), ([2, 13, 3, 4, 5], tag.nCdhw16c),
])
def test_0d_1d_and_3d_spatial(eng, strm, alg, shape, layout):
    for ls in (3, 5):
        check_f32(eng, strm, shape, alg, ls, 0.7, 0.75, 1.0, layout)


@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
def test_windows_wider_than_the_tensor(eng, strm, alg):
    # every window covers every channel (and every spatial position)
    for ls in (31, 1001):
        check_f32(eng, strm, [2, 13, 4, 3], alg, ls, 0.9, 0.75, 1.0, tag.nChw8c)
        check_f32(eng, strm, [2, 13, 4, 3], alg, ls, 0.9, 0.6, 1.0, tag.nhwc)


@pytest.mark.parametrize("layout", [tag.nChw16c, tag.nhwc])
def test_widest_windows_of_the_blocked_kernels(eng, strm, layout):
    # windows reaching 15 and 16 channels either side of each of 50: the
    # AVX-512 kernel's widest, whose sums read up to a whole vector past
    # either end of a position's channels
    for ls in (31, 33):
        impls = check_f32(eng, strm, [2, 50, 3, 4], ACROSS, ls, 0.9, 0.75, 1.0, layout, seed=ls)
        assert impls == (BEST_ACROSS, BEST_ACROSS)


@pytest.mark.parametrize("layout", LAYOUTS_4D)
@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
def test_bf16_computes_in_f32_and_rounds_once(eng, strm, alg, layout):
    shape, ls, alpha, beta, k = [2, 13, 6, 5], 5, 0.8, 0.75, 1.0
    x = bf16_round(data(shape, 3))
    dd = bf16_round(data(shape, 4, -1, 1))
    pd, src, dst = run_fwd(eng, strm, x, alg, ls, alpha, beta, k, layout, dt.bf16)
    assert pd.dst_desc().get_data_type() == dt.bf16
    assert pd.impl_info_str() == (BEST_ACROSS_BF16 if alg == ACROSS else "ref:any")
    got = dst.read(np.float32)
    expected = bf16_round(ref_fwd(x, alg, ls, alpha, beta, k).astype(np.float32))
    # one rounding of a value within f32 accuracy: equal, or one bf16 ulp off at a tie
    np.testing.assert_allclose(got, expected, rtol=2 ** -8, atol=1e-30)
    assert np.mean(got == expected) > 0.97
    bpd, diff_src = run_bwd(eng, strm, pd, src, dd, alg, ls, alpha, beta, k, dt.bf16)
    assert bpd.diff_src_desc().get_data_type() == dt.bf16
    got = diff_src.read(np.float32)
    exact = ref_bwd(x, dd, alg, ls, alpha, beta, k)
    expected = bf16_round(exact.astype(np.float32))
    np.testing.assert_allclose(got, expected, rtol=2 ** -8, atol=1e-6)
    assert np.mean(got == expected) > 0.97


@pytest.mark.parametrize("case", [
    (ACROSS, tag.nChw16c, dt.f32, BLOCKED + ["ref:any"]),
    (ACROSS, tag.nchw, dt.f32, BLOCKED + ["ref:any"]),
    (ACROSS, tag.nhwc, dt.bf16, BLOCKED_BF16 + ["ref:any"]),
    (ACROSS, tag.nChw16c, dt.bf16, BLOCKED_BF16 + ["ref:any"]),
    (ACROSS, tag.nChw8c, dt.bf16, BLOCKED_BF16 + ["ref:any"]),
    (WITHIN, tag.nChw8c, dt.f32, ["ref:any"]),
    (WITHIN, tag.nhwc, dt.bf16, ["ref:any"]),
])
def test_every_implementation(eng, strm, case):
    alg, layout, data_type, names = case
    shape, ls, alpha, beta, k = [2, 21, 7, 6], 5, 0.6, 0.75, 1.0
    x, dd = data(shape, 5), data(shape, 6, -1, 1)
    if data_type == dt.bf16:
        x, dd = bf16_round(x), bf16_round(dd)
    src = memory(memory.desc(shape, data_type, layout), eng)
    src.write(x)
    anymd = memory.desc(shape, data_type, tag.any)
    fwd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, src.get_desc(), anymd,
                                     ls, alpha, beta, k)
    bwd = lrn_backward.primitive_desc(eng, alg, anymd, anymd, src.get_desc(), ls, alpha, beta,
                                      k, fwd)
    hint = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, src.get_desc(),
                                      anymd, ls, alpha, beta, k)
    diff_dst = memory(bwd.diff_dst_desc(), eng)
    diff_dst.write(dd)
    tol = dict(rtol=2e-6, atol=1e-6) if data_type == dt.f32 else dict(rtol=2 ** -8, atol=1e-6)
    btol = dict(rtol=1e-5, atol=1e-5) if data_type == dt.f32 else dict(rtol=2 ** -8, atol=1e-5)
    seen, outs, bouts = [], [], []
    while True:
        dst = memory(fwd.dst_desc(), eng)
        lrn_forward(fwd).execute(strm, {SRC: src, DST: dst})
        outs.append(dst.read(np.float32))
        seen.append(fwd.impl_info_str())
        if not fwd.next_impl():
            break
    bseen = []
    while True:
        diff_src = memory(bwd.diff_src_desc(), eng)
        lrn_backward(bwd).execute(strm, {SRC: src, DIFF_DST: diff_dst, DIFF_SRC: diff_src})
        bouts.append(diff_src.read(np.float32))
        bseen.append(bwd.impl_info_str())
        if not bwd.next_impl():
            break
    assert seen == names and bseen == names
    assert hint.impl_info_str() == names[0]
    for y in outs:
        np.testing.assert_allclose(y, ref_fwd(x, alg, ls, alpha, beta, k), **tol)
        np.testing.assert_allclose(y, outs[0], rtol=1e-6 if data_type == dt.f32 else 2 ** -8,
                                   atol=1e-7)
    for ds in bouts:
        np.testing.assert_allclose(ds, ref_bwd(x, dd, alg, ls, alpha, beta, k), **btol)
        np.testing.assert_allclose(ds, bouts[0], rtol=1e-5 if data_type == dt.f32 else 2 ** -8,
                                   atol=1e-6)


def test_mixed_layouts_go_through_the_reference(eng, strm):
    shape, ls, alpha, beta, k = [2, 13, 5, 4], 5, 0.7, 0.6, 1.5
    x, dd = data(shape, 8), data(shape, 9, -1, 1)
    pd, src, dst = run_fwd(eng, strm, x, ACROSS, ls, alpha, beta, k, tag.nChw8c,
                           dst_layout=tag.nhwc)
    assert pd.impl_info_str() == "ref:any"
    assert pd.dst_desc() == memory.desc(shape, dt.f32, tag.nhwc)
    np.testing.assert_allclose(dst.read(), ref_fwd(x, ACROSS, ls, alpha, beta, k), rtol=2e-6,
                               atol=1e-6)
    src_nhwc = memory(memory.desc(shape, dt.f32, tag.nhwc), eng)
    src_nhwc.write(x)
    bpd = lrn_backward.primitive_desc(eng, ACROSS, memory.desc(shape, dt.f32, tag.nChw16c),
                                      memory.desc(shape, dt.f32, tag.nchw), src_nhwc.get_desc(),
                                      ls, alpha, beta, k, pd)
    assert bpd.impl_info_str() == "ref:any"
    diff_dst = memory(bpd.diff_dst_desc(), eng)
    diff_dst.write(dd)
    diff_src = memory(bpd.diff_src_desc(), eng)
    lrn_backward(bpd).execute(strm, {SRC: src_nhwc, DIFF_DST: diff_dst, DIFF_SRC: diff_src})
    np.testing.assert_allclose(diff_src.read(), ref_bwd(x, dd, ACROSS, ls, alpha, beta, k),
                               rtol=1e-5, atol=1e-5)


def test_any_resolves_to_the_src_layout(eng):
    shape = [2, 13, 5, 4]
    anymd = memory.desc(shape, dt.f32, tag.any)
    for layout in LAYOUTS_4D:
        md = memory.desc(shape, dt.f32, layout)
        fwd = lrn_forward.primitive_desc(eng, prop_kind.forward_inference, ACROSS, md, anymd, 5,
                                         1e-4, 0.75, 1.0)
        assert fwd.dst_desc() == md and fwd.src_desc() == md
        bwd = lrn_backward.primitive_desc(eng, WITHIN, anymd, anymd, md, 5, 1e-4, 0.75, 1.0,
                                          lrn_forward.primitive_desc(
                                              eng, prop_kind.forward_training, WITHIN, md,
                                              anymd, 5, 1e-4, 0.75, 1.0))
        assert bwd.diff_src_desc() == md and bwd.diff_dst_desc() == md
    blocked = memory.desc(shape, dt.f32, tag.nChw8c)
    assert blocked.get_padded_dims() == [2, 16, 5, 4]
    # oneDNN accepts a backward src left `any`; here it takes diff_dst's layout
    hint = lrn_forward.primitive_desc(eng, prop_kind.forward_training, ACROSS, blocked, anymd,
                                      5, 1e-4, 0.75, 1.0)
    bwd = lrn_backward.primitive_desc(eng, ACROSS, anymd, blocked, anymd, 5, 1e-4, 0.75, 1.0,
                                      hint)
    assert bwd.src_desc() == blocked and bwd.diff_src_desc() == blocked
    bwd = lrn_backward.primitive_desc(eng, ACROSS, anymd, anymd, anymd, 5, 1e-4, 0.75, 1.0, hint)
    assert bwd.src_desc() == memory.desc(shape, dt.f32, tag.nchw)


def test_padded_channels_of_blocked_outputs_are_zeroed(eng, strm):
    shape, ls, alpha, beta, k = [2, 13, 3, 5], 3, 0.5, 0.75, 1.0
    x, dd = data(shape, 10), data(shape, 11, -1, 1)
    for name, alg in [("aBcd8b", ACROSS), ("aBcd16b", ACROSS), ("aBcd8b", WITHIN)]:
        md = memory.desc(shape, dt.f32, getattr(tag, name))
        n = md.get_size() // 4
        src_buf = to_layout(x, name).astype(np.float32)
        dst_buf = np.full(n, np.nan, np.float32)
        src = memory(md, eng, src_buf)
        dst = memory(md, eng, dst_buf)
        pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, md, md, ls, alpha,
                                        beta, k)
        lrn_forward(pd).execute(strm, {SRC: src, DST: dst})
        expected = ref_fwd(x, alg, ls, alpha, beta, k)
        # equal to its own logical content laid out again: padding zero, not NaN
        np.testing.assert_array_equal(dst_buf, to_layout(from_layout(dst_buf, name, shape),
                                                         name))
        np.testing.assert_allclose(from_layout(dst_buf, name, shape), expected, rtol=2e-6,
                                   atol=1e-6)
        ddiff_buf = to_layout(dd, name).astype(np.float32)
        dsrc_buf = np.full(n, np.nan, np.float32)
        bpd = lrn_backward.primitive_desc(eng, alg, md, md, md, ls, alpha, beta, k, pd)
        lrn_backward(bpd).execute(strm, {SRC: src, DIFF_DST: memory(md, eng, ddiff_buf),
                                         DIFF_SRC: memory(md, eng, dsrc_buf)})
        np.testing.assert_array_equal(dsrc_buf, to_layout(from_layout(dsrc_buf, name, shape),
                                                          name))


def test_sub_memory_src(eng, strm):
    """A src that is a sub-memory (offset0 and the parent's strides): the
    kernels address it from the pd's descriptor."""
    parent_shape, ls, alpha, beta, k = [2, 24, 5, 6], 5, 0.9, 0.75, 1.0
    xp = data(parent_shape, 13)
    for name, c0, ch in [("abcd", 3, 13), ("aBcd8b", 8, 16), ("acdb", 5, 11)]:
        parent_md = memory.desc(parent_shape, dt.f32, getattr(tag, name))
        buf = to_layout(xp, name).astype(np.float32)
        sub_md = parent_md.submemory_desc([2, ch, 5, 6], [0, c0, 0, 0])
        src = memory(sub_md, eng, buf)
        pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, ACROSS, sub_md,
                                        memory.desc([2, ch, 5, 6], dt.f32, tag.any), ls, alpha,
                                        beta, k)
        assert pd.impl_info_str() == BEST_ACROSS
        assert pd.dst_desc().get_submemory_offset() == 0
        dst = memory(pd.dst_desc(), eng)
        lrn_forward(pd).execute(strm, {SRC: src, DST: dst})
        x = xp[:, c0:c0 + ch]
        np.testing.assert_allclose(dst.read(), ref_fwd(x, ACROSS, ls, alpha, beta, k),
                                   rtol=2e-6, atol=1e-6)
        # the parent memory itself may be passed, as oneDNN allows
        parent = memory(parent_md, eng, buf)
        dst2 = memory(pd.dst_desc(), eng)
        lrn_forward(pd).execute(strm, {SRC: parent, DST: dst2})
        np.testing.assert_array_equal(dst2.read(), dst.read())


def test_in_place(eng, strm):
    """src and dst (diff_dst and diff_src) may be one memory: every task reads
    its whole tile before writing it."""
    shape, ls, alpha, beta, k = [2, 19, 9, 7], 5, 0.8, 0.75, 1.0
    x, dd = data(shape, 14), data(shape, 15, -1, 1)
    for layout in (tag.nChw16c, tag.nchw):
        for alg in (ACROSS, WITHIN):
            md = memory.desc(shape, dt.f32, layout)
            m = memory(md, eng)
            m.write(x)
            pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, md, md, ls,
                                            alpha, beta, k)
            lrn_forward(pd).execute(strm, {SRC: m, DST: m})
            np.testing.assert_allclose(m.read(), ref_fwd(x, alg, ls, alpha, beta, k),
                                       rtol=2e-6, atol=1e-6)
            src = memory(md, eng)
            src.write(x)
            d = memory(md, eng)
            d.write(dd)
            bpd = lrn_backward.primitive_desc(eng, alg, md, md, md, ls, alpha, beta, k, pd)
            lrn_backward(bpd).execute(strm, {SRC: src, DIFF_DST: d, DIFF_SRC: d})
            np.testing.assert_allclose(d.read(), ref_bwd(x, dd, alg, ls, alpha, beta, k),
                                       rtol=1e-5, atol=1e-5)


def test_queries_and_the_zero_workspace(eng, strm):
    shape = [2, 13, 5, 4]
    md = memory.desc(shape, dt.f32, tag.nChw8c)
    pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, ACROSS, md, md, 3, 2e-4,
                                    0.6, 2.0)
    assert pd.get_local_size() == 3
    assert pd.get_alpha() == pytest.approx(2e-4) and pd.get_beta() == pytest.approx(0.6)
    assert pd.get_k() == 2.0
    assert pd.get_algorithm() == ACROSS and pd.get_prop_kind() == prop_kind.forward_training
    assert pd.src_desc() == md and pd.dst_desc() == md
    assert pd.workspace_desc().is_zero()
    assert pd.get_kind() == dnnl.primitive.kind.lrn
    assert c.dnnl_primitive_desc_query_s32(pd.get(), c.dnnl_query_num_of_inputs_s32, 0) == 1
    assert c.dnnl_primitive_desc_query_s32(pd.get(), c.dnnl_query_num_of_outputs_s32, 0) == 1
    bpd = lrn_backward.primitive_desc(eng, WITHIN, md, md, md, 7, 1e-3, 0.75, 1.0, pd)
    assert bpd.get_local_size() == 7 and bpd.get_algorithm() == WITHIN
    assert bpd.get_prop_kind() == prop_kind.backward_data
    assert bpd.src_desc() == md and bpd.diff_src_desc() == md and bpd.diff_dst_desc() == md
    assert bpd.dst_desc().is_zero() and bpd.workspace_desc().is_zero()
    assert c.dnnl_primitive_desc_query_s32(bpd.get(), c.dnnl_query_num_of_inputs_s32, 0) == 2
    assert c.dnnl_primitive_desc_query_s32(bpd.get(), c.dnnl_query_num_of_outputs_s32, 0) == 1
    # as the C example does: a memory on the zero workspace md, passed along
    ws = memory(pd.workspace_desc(), eng)
    x = data(shape, 16)
    src, dst = memory(md, eng), memory(md, eng)
    src.write(x)
    lrn_forward(pd).execute(strm, {SRC: src, DST: dst, dnnl.DNNL_ARG_WORKSPACE: ws})
    np.testing.assert_allclose(dst.read(), ref_fwd(x, ACROSS, 3, 2e-4, 0.6, 2.0), rtol=2e-6,
                               atol=1e-6)
    # wrapping dnnl_c handles
    wrapped = lrn_forward.primitive_desc(pd.get())
    assert wrapped.get_local_size() == 3 and wrapped.impl_info_str() == pd.impl_info_str()
    assert lrn_backward.primitive_desc(bpd.get()).get_algorithm() == WITHIN
    with pytest.raises(dnnl.error) as e:
        lrn_backward.primitive_desc(pd.get())
    assert e.value.status == dnnl.dnnl_invalid_arguments and "propagation kind" in e.value.message
    relu = eltwise_forward.primitive_desc(eng, prop_kind.forward_training,
                                          algorithm.eltwise_relu, md, md)
    with pytest.raises(dnnl.error) as e:
        lrn_forward.primitive_desc(relu.get())
    assert "kind mismatch" in e.value.message


def test_procedural_c_api(eng, strm):
    """The C example's sequence through dnnl_c: NULL hint in backward, a
    workspace memory on the zero md, destroy calls."""
    ceng, cs = c.dnnl_engine_t(), c.dnnl_stream_t()
    assert c.dnnl_engine_create(ceng, c.dnnl_cpu, 0) == 0
    assert c.dnnl_stream_create(cs, ceng, c.dnnl_stream_default_flags) == 0
    shape = [3, 10, 4, 6]
    md = make_md(shape, c.dnnl_f32, c.dnnl_nchw)
    x = data(shape, 17)
    dd = data(shape, 18, -1, 1)
    y = np.zeros_like(x)
    ds = np.zeros_like(x)
    src, dst = c.dnnl_memory_t(), c.dnnl_memory_t()
    diff_dst, diff_src = c.dnnl_memory_t(), c.dnnl_memory_t()
    for m, buf in [(src, x), (dst, y), (diff_dst, dd), (diff_src, ds)]:
        assert c.dnnl_memory_create(m, md, ceng, buf) == 0
    pd, bpd = c.dnnl_primitive_desc_t(), c.dnnl_primitive_desc_t()
    assert c.dnnl_lrn_forward_primitive_desc_create(
        pd, ceng, c.dnnl_forward_training, c.dnnl_lrn_across_channels, md, md, 5, 1e-1, 0.75,
        1.0, None) == c.dnnl_success
    ws_md = c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_workspace_md, 0)
    ws = c.dnnl_memory_t()
    assert c.dnnl_memory_create(ws, ws_md, ceng, c.DNNL_MEMORY_ALLOCATE) == 0
    prim = c.dnnl_primitive_t()
    assert c.dnnl_primitive_create(prim, pd) == 0
    assert c.dnnl_primitive_execute(prim, cs, 3, [(c.DNNL_ARG_SRC, src), (c.DNNL_ARG_DST, dst),
                                                  (c.DNNL_ARG_WORKSPACE, ws)]) == 0
    np.testing.assert_allclose(y, ref_fwd(x, ACROSS, 5, 1e-1, 0.75, 1.0), rtol=2e-6, atol=1e-6)
    assert c.dnnl_lrn_backward_primitive_desc_create(
        bpd, ceng, c.dnnl_lrn_across_channels, md, md, md, 5, 1e-1, 0.75, 1.0, None,
        None) == c.dnnl_success
    bprim = c.dnnl_primitive_t()
    assert c.dnnl_primitive_create(bprim, bpd) == 0
    assert c.dnnl_primitive_execute(bprim, cs, 4, [
        (c.DNNL_ARG_SRC, src), (c.DNNL_ARG_DIFF_DST, diff_dst), (c.DNNL_ARG_DIFF_SRC, diff_src),
        (c.DNNL_ARG_WORKSPACE, ws)]) == 0
    assert c.dnnl_stream_wait(cs) == 0
    np.testing.assert_allclose(ds, ref_bwd(x, dd, ACROSS, 5, 1e-1, 0.75, 1.0), rtol=1e-5,
                               atol=1e-5)
    for p in (prim, bprim):
        assert c.dnnl_primitive_destroy(p) == 0
    for p in (pd, bpd):
        assert c.dnnl_primitive_desc_destroy(p) == 0
    for m in (src, dst, diff_dst, diff_src, ws):
        assert c.dnnl_memory_destroy(m) == 0
    c.dnnl_stream_destroy(cs)
    c.dnnl_engine_destroy(ceng)


@pytest.mark.parametrize("alg", [ACROSS, WITHIN])
def test_user_scratchpad(eng, strm, alg):
    shape, ls, alpha, beta, k = [2, 13, 5, 4], 5, 0.6, 0.75, 1.0
    attr = primitive_attr()
    attr.set_scratchpad_mode(scratchpad_mode.user)
    md = memory.desc(shape, dt.f32, tag.nChw8c)
    x = data(shape, 19)
    src = memory(md, eng)
    src.write(x)
    pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, md, md, ls, alpha,
                                    beta, k, attr)
    while True:
        assert pd.scratchpad_desc().get_size() > 0
        dst = memory(md, eng)
        with pytest.raises(dnnl.error) as e:
            lrn_forward(pd).execute(strm, {SRC: src, DST: dst})
        assert "SCRATCHPAD" in e.value.message
        scratch = memory(pd.scratchpad_desc(), eng)
        lrn_forward(pd).execute(strm, {SRC: src, DST: dst, dnnl.DNNL_ARG_SCRATCHPAD: scratch})
        np.testing.assert_allclose(dst.read(), ref_fwd(x, alg, ls, alpha, beta, k), rtol=2e-6,
                                   atol=1e-6)
        if not pd.next_impl():
            break


def test_zero_batch_is_a_no_op(eng, strm):
    for layout in (tag.nChw8c, tag.nchw):
        for alg in (ACROSS, WITHIN):
            md = memory.desc([0, 13, 5, 4], dt.f32, layout)
            pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, md, md, 5,
                                            1e-4, 0.75, 1.0)
            lrn_forward(pd).execute(strm, {SRC: memory(md, eng), DST: memory(md, eng)})
            bpd = lrn_backward.primitive_desc(eng, alg, md, md, md, 5, 1e-4, 0.75, 1.0, pd)
            lrn_backward(bpd).execute(strm, {SRC: memory(md, eng), DIFF_DST: memory(md, eng),
                                             DIFF_SRC: memory(md, eng)})


def test_local_size_zero_is_accepted_like_onednn(eng, strm):
    """oneDNN accepts local_size 0: the window is the element itself and
    alpha is divided by 0, so omega is infinite and dst is (signed) zero."""
    x = data([2, 13, 3, 4], 20)
    x[np.abs(x) < 1e-3] = 0.5
    for layout in (tag.nChw8c, tag.nchw):
        for alg in (ACROSS, WITHIN):
            pd, _, dst = run_fwd(eng, strm, x, alg, 0, 1e-4, 0.75, 1.0, layout)
            y = dst.read()
            assert np.all(y == 0) and np.array_equal(np.signbit(y), np.signbit(x))


def test_bf16_is_unimplemented_under_the_project_switch(eng, strm, monkeypatch):
    shape = [2, 13, 5, 4]
    bmd = memory.desc(shape, dt.bf16, tag.nChw16c)
    fmd = memory.desc(shape, dt.f32, tag.nChw16c)
    hint = lrn_forward.primitive_desc(eng, prop_kind.forward_training, ACROSS, bmd, bmd, 5,
                                      1e-4, 0.75, 1.0)
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "1")
    for alg in (ACROSS, WITHIN):
        with pytest.raises(dnnl.error) as e:
            lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, bmd, bmd, 5, 1e-4,
                                       0.75, 1.0)
        assert e.value.status == dnnl.dnnl_unimplemented and "bf16" in e.value.message
        with pytest.raises(dnnl.error) as e:
            lrn_backward.primitive_desc(eng, alg, bmd, bmd, bmd, 5, 1e-4, 0.75, 1.0, hint)
        assert e.value.status == dnnl.dnnl_unimplemented
        empty = lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, bmd, bmd, 5,
                                           1e-4, 0.75, 1.0, allow_empty=True)
        assert not empty
        lrn_forward.primitive_desc(eng, prop_kind.forward_training, alg, fmd, fmd, 5, 1e-4,
                                   0.75, 1.0)
    monkeypatch.delenv("CYDNNL_BF16_UNIMPLEMENTED")
    lrn_forward.primitive_desc(eng, prop_kind.forward_training, ACROSS, bmd, bmd, 5, 1e-4, 0.75,
                               1.0)


def test_bad_input_through_the_c_api(eng):
    shape = [2, 13, 5, 4]
    md = make_md(shape, c.dnnl_f32, c.dnnl_nchw)
    anymd = make_md(shape, c.dnnl_f32, c.dnnl_format_tag_any)
    zero = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(zero, 0, [], c.dnnl_data_type_undef,
                                              c.dnnl_format_tag_undef) == 0
    e = eng.get()
    pd = c.dnnl_primitive_desc_t()
    INV, UNIMPL, OK = c.dnnl_invalid_arguments, c.dnnl_unimplemented, c.dnnl_success
    FT, AC, WC = c.dnnl_forward_training, c.dnnl_lrn_across_channels, c.dnnl_lrn_within_channel

    def fwd(src=md, dst=md, pk=FT, alg=AC, ls=5, alpha=1e-4, beta=0.75, k=1.0, engine=e,
            attr=None):
        return c.dnnl_lrn_forward_primitive_desc_create(pd, engine, pk, alg, src, dst, ls,
                                                        alpha, beta, k, attr)

    # statuses the real oneDNN v3.13 returns for the same calls
    assert fwd() == OK
    assert fwd(pk=c.dnnl_backward_data) == INV and "prop_kind" in c.cydnnl_last_error()
    assert fwd(pk=c.dnnl_backward) == INV
    assert fwd(alg=c.dnnl_eltwise_relu) == INV and "algorithm" in c.cydnnl_last_error()
    assert fwd(ls=-1) == INV and "local_size" in c.cydnnl_last_error()
    assert fwd(src=None) == INV and "src_desc" in c.cydnnl_last_error()
    assert fwd(dst=None) == INV and "dst_desc" in c.cydnnl_last_error()
    assert fwd(src=anymd, dst=anymd) == INV and "format any" in c.cydnnl_last_error()
    assert fwd(src=zero, dst=zero) == INV
    assert fwd(dst=zero) == INV
    assert fwd(src=make_md([5], c.dnnl_f32, c.dnnl_a), dst=make_md([5], c.dnnl_f32,
                                                                   c.dnnl_a)) == INV
    assert fwd(dst=make_md([2, 13, 5, 5], c.dnnl_f32, c.dnnl_nchw)) == INV
    assert "dim 3" in c.cydnnl_last_error()
    assert fwd(dst=make_md([2, 13, 20], c.dnnl_f32, c.dnnl_abc)) == INV
    assert fwd(src=make_md(shape, c.dnnl_bf16, c.dnnl_nchw)) == UNIMPL
    assert "data types differ" in c.cydnnl_last_error()
    assert fwd(dst=make_md(shape, c.dnnl_bf16, c.dnnl_nchw)) == UNIMPL
    s8 = make_md(shape, c.dnnl_s8, c.dnnl_nchw)
    assert fwd(src=s8, dst=s8) == UNIMPL
    assert fwd(src=md, dst=make_md(shape, c.dnnl_f32, c.dnnl_nhwc)) == OK   # oneDNN: UNIMPL
    assert fwd(engine=None) == INV
    assert fwd(alpha="x") == INV and fwd(ls=5.5) == INV and fwd(ls=2 ** 70) == INV
    # accepted as oneDNN accepts them
    assert fwd(ls=0) == OK
    assert fwd(alpha=-1.0, beta=-1.0, k=0.0) == OK
    assert fwd(alpha=float("nan")) == OK
    assert fwd(src=make_md([5, 7], c.dnnl_f32, c.dnnl_ab),
               dst=make_md([5, 7], c.dnnl_f32, c.dnnl_ab), alg=WC) == OK
    six = make_md([2, 3, 2, 2, 2, 2], c.dnnl_f32, c.dnnl_abcdef)
    assert fwd(src=six, dst=six, alg=AC) == OK
    assert fwd(src=six, dst=six, alg=WC) == UNIMPL      # oneDNN: OK, out of its ref's reach
    attr = c.dnnl_primitive_attr_t()
    assert c.dnnl_primitive_attr_create(attr) == 0
    assert c.dnnl_primitive_attr_set_fpmath_mode(attr, c.dnnl_fpmath_mode_bf16) == 0
    assert fwd(attr=attr) == OK
    c.dnnl_primitive_attr_destroy(attr)

    hint = c.dnnl_primitive_desc_t()
    assert c.dnnl_lrn_forward_primitive_desc_create(hint, e, FT, AC, md, md, 5, 1e-4, 0.75,
                                                    1.0, None) == OK

    def bwd(dsrc=md, ddst=md, src=md, alg=AC, ls=5, h=hint):
        return c.dnnl_lrn_backward_primitive_desc_create(pd, e, alg, dsrc, ddst, src, ls, 1e-4,
                                                         0.75, 1.0, h, None)

    assert bwd() == OK and bwd(h=None) == OK
    assert bwd(dsrc=anymd, ddst=anymd, src=anymd) == OK
    assert bwd(alg=0) == INV
    assert bwd(ls=-3) == INV
    assert bwd(dsrc=None) == INV and "diff_src_desc" in c.cydnnl_last_error()
    assert bwd(ddst=None) == INV and bwd(src=None) == INV
    assert bwd(ddst=make_md([2, 13, 5, 5], c.dnnl_f32, c.dnnl_nchw)) == INV
    assert "diff_dst_desc" in c.cydnnl_last_error()
    assert bwd(dsrc=make_md([2, 13, 5, 5], c.dnnl_f32, c.dnnl_nchw)) == INV
    assert bwd(src=zero) == INV
    assert bwd(dsrc=make_md(shape, c.dnnl_bf16, c.dnnl_nchw)) == UNIMPL
    relu = c.dnnl_primitive_desc_t()
    assert c.dnnl_eltwise_forward_primitive_desc_create(relu, e, FT, c.dnnl_eltwise_relu, md, md,
                                                        0.0, 0.0, None) == OK
    assert bwd(h=relu) == INV and "hint_fwd_pd" in c.cydnnl_last_error()  # oneDNN ignores it
    assert c.dnnl_primitive_desc_destroy(relu) == OK
    assert bwd(h=relu) == INV
    assert c.dnnl_lrn_backward_primitive_desc_create(None, e, AC, md, md, md, 5, 1e-4, 0.75, 1.0,
                                                     None, None) == INV
    c.dnnl_primitive_desc_destroy(hint)


def test_bad_input_through_the_object_layer(eng):
    shape = [2, 13, 5, 4]
    md = memory.desc(shape, dt.f32, tag.nchw)
    anymd = memory.desc(shape, dt.f32, tag.any)
    FT = prop_kind.forward_training
    cases = [
        ((eng, prop_kind.backward, ACROSS, md, md, 5, 1e-4, 0.75, 1.0),
         dnnl.dnnl_invalid_arguments, "prop_kind"),
        ((eng, FT, algorithm.pooling_max, md, md, 5, 1e-4, 0.75, 1.0),
         dnnl.dnnl_invalid_arguments, "algorithm"),
        ((eng, FT, ACROSS, md, md, -5, 1e-4, 0.75, 1.0), dnnl.dnnl_invalid_arguments,
         "local_size"),
        ((eng, FT, ACROSS, anymd, anymd, 5, 1e-4, 0.75, 1.0), dnnl.dnnl_invalid_arguments,
         "format any"),
        ((eng, FT, ACROSS, md, memory.desc([2, 13, 5, 3], dt.f32, tag.nchw), 5, 1e-4, 0.75,
          1.0), dnnl.dnnl_invalid_arguments, "dim 3"),
        ((eng, FT, ACROSS, md, memory.desc(shape, dt.bf16, tag.nchw), 5, 1e-4, 0.75, 1.0),
         dnnl.dnnl_unimplemented, "data types differ"),
        ((eng, FT, ACROSS, memory.desc(shape, dt.s32, tag.nchw), anymd, 5, 1e-4, 0.75, 1.0),
         dnnl.dnnl_unimplemented, "data type"),
        ((eng, FT, ACROSS, md, "dst", 5, 1e-4, 0.75, 1.0), dnnl.dnnl_invalid_arguments,
         "dst_desc must be a memory.desc"),
        ((eng, FT, ACROSS, md, md, 5, 1e-4, 0.75), dnnl.dnnl_invalid_arguments, "takes"),
        ((eng, FT, ACROSS, md, md, 5, 1e-4, 0.75, 1.0, "attr"), dnnl.dnnl_invalid_arguments,
         "unexpected"),
    ]
    for args, status, words in cases:
        with pytest.raises(dnnl.error) as e:
            lrn_forward.primitive_desc(*args)
        assert e.value.status == status, (args, e.value.message)
        assert words in e.value.message, e.value.message
    assert not lrn_forward.primitive_desc(eng, FT, ACROSS, anymd, anymd, 5, 1e-4, 0.75, 1.0,
                                          None, True)
    hint = lrn_forward.primitive_desc(eng, FT, ACROSS, md, md, 5, 1e-4, 0.75, 1.0)
    relu = eltwise_forward.primitive_desc(eng, FT, algorithm.eltwise_relu, md, md)
    bcases = [
        ((eng, ACROSS, anymd, anymd, md, 5, 1e-4, 0.75, 1.0, relu), "hint_fwd_pd"),
        ((eng, ACROSS, anymd, anymd, md, 5, 1e-4, 0.75, 1.0), "takes"),
        ((eng, ACROSS, anymd, memory.desc([2, 13, 5, 3], dt.f32, tag.nchw), md, 5, 1e-4, 0.75,
          1.0, hint), "diff_dst_desc"),
        ((eng, WITHIN, anymd, anymd, md, -1, 1e-4, 0.75, 1.0, hint), "local_size"),
        ((eng, WITHIN, anymd, anymd, None, 5, 1e-4, 0.75, 1.0, hint), "src_desc"),
    ]
    for args, words in bcases:
        with pytest.raises(dnnl.error) as e:
            lrn_backward.primitive_desc(*args)
        assert e.value.status == dnnl.dnnl_invalid_arguments
        assert words in e.value.message, e.value.message


def test_execute_with_missing_or_wrong_arguments(eng, strm):
    shape = [2, 13, 5, 4]
    md = memory.desc(shape, dt.f32, tag.nChw8c)
    pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training, ACROSS, md, md, 5, 1e-4,
                                    0.75, 1.0)
    bpd = lrn_backward.primitive_desc(eng, ACROSS, md, md, md, 5, 1e-4, 0.75, 1.0, pd)
    src, dst = memory(md, eng), memory(md, eng)
    fwd, bwd = lrn_forward(pd), lrn_backward(bpd)
    for prim, args, words in [
            (fwd, {SRC: src}, "DNNL_ARG_DST"),
            (fwd, {DST: dst}, "DNNL_ARG_SRC"),
            (fwd, {SRC: src, DST: memory(memory.desc(shape, dt.bf16, tag.nChw8c), eng)},
             "data type"),
            (fwd, {SRC: memory(memory.desc(shape, dt.f32, tag.nchw), eng), DST: dst},
             "DNNL_ARG_SRC"),
            (bwd, {DIFF_DST: src, DIFF_SRC: dst}, "DNNL_ARG_SRC"),
            (bwd, {SRC: src, DIFF_SRC: dst}, "DNNL_ARG_DIFF_DST"),
            (bwd, {SRC: src, DIFF_DST: dst}, "DNNL_ARG_DIFF_SRC")]:
        with pytest.raises(dnnl.error) as e:
            prim.execute(strm, args)
        assert e.value.status == dnnl.dnnl_invalid_arguments
        assert words in e.value.message, e.value.message
    prim = c.dnnl_primitive_t()
    assert c.dnnl_primitive_create(prim, bpd.get()) == 0
    assert c.dnnl_primitive_execute(prim, strm.get(), 1,
                                    [(c.DNNL_ARG_SRC, src.get())]) == c.dnnl_invalid_arguments
    assert c.dnnl_primitive_execute(prim, strm.get(), 0, []) == c.dnnl_invalid_arguments
    c.dnnl_primitive_destroy(prim)
