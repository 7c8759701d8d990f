"""Eltwise forward and backward against NumPy formulas (oneDNN's
definitions), every algorithm, f32 and bf16, plain and blocked layouts."""

import numpy as np
import pytest


import dnnl
import dnnl_c as c
from dnnl import algorithm, eltwise_backward, eltwise_forward, memory, prop_kind
from helpers import bf16_round, level_impls
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
A = algorithm


def erf(x):
    from math import erf as e
    return np.vectorize(e)(x)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softplus(x, a=1.0):
    return np.where(a * x < 88.72, np.log1p(np.exp(np.minimum(a * x, 88.72))) / a, x)


K = np.sqrt(2 / np.pi)
# name: (forward(s, a, b), d forward / ds (s, a, b), inputs, alpha, beta)
ALGS = {
    "relu": (lambda s, a, b: np.where(s > 0, s, a * s),
             lambda s, a, b: np.where(s > 0, 1, a), "any", 0.2, 0),
    "tanh": (lambda s, a, b: np.tanh(s), lambda s, a, b: 1 - np.tanh(s) ** 2, "any", 0, 0),
    "elu": (lambda s, a, b: np.where(s > 0, s, a * (np.exp(s) - 1)),
            lambda s, a, b: np.where(s > 0, 1, a * np.exp(s)), "any", 0.7, 0),
    "square": (lambda s, a, b: s * s, lambda s, a, b: 2 * s, "any", 0, 0),
    "abs": (lambda s, a, b: np.abs(s), lambda s, a, b: np.sign(s), "any", 0, 0),
    "sqrt": (lambda s, a, b: np.sqrt(s), lambda s, a, b: 0.5 / np.sqrt(s), "pos", 0, 0),
    "linear": (lambda s, a, b: a * s + b, lambda s, a, b: a + 0 * s, "any", 1.5, -0.5),
    "soft_relu": (lambda s, a, b: softplus(s, a), lambda s, a, b: sigmoid(a * s), "any", 1.5, 0),
    "hardsigmoid": (lambda s, a, b: np.clip(a * s + b, 0, 1),
                    lambda s, a, b: np.where((a * s + b > 0) & (a * s + b < 1), a, 0),
                    "any", 0.25, 0.5),
    "logistic": (lambda s, a, b: sigmoid(s), lambda s, a, b: sigmoid(s) * (1 - sigmoid(s)),
                 "any", 0, 0),
    "exp": (lambda s, a, b: np.exp(s), lambda s, a, b: np.exp(s), "any", 0, 0),
    "gelu_tanh": (lambda s, a, b: 0.5 * s * (1 + np.tanh(K * (s + 0.044715 * s ** 3))),
                  lambda s, a, b: 0.5 * (1 + np.tanh(K * (s + 0.044715 * s ** 3)))
                  + 0.5 * s * (1 - np.tanh(K * (s + 0.044715 * s ** 3)) ** 2)
                  * K * (1 + 3 * 0.044715 * s ** 2), "any", 0, 0),
    "swish": (lambda s, a, b: s * sigmoid(a * s),
              lambda s, a, b: sigmoid(a * s) + a * s * sigmoid(a * s) * (1 - sigmoid(a * s)),
              "any", 1.3, 0),
    "log": (lambda s, a, b: np.log(s), lambda s, a, b: 1 / s, "pos", 0, 0),
    "clip": (lambda s, a, b: np.where(s > b, b, np.where(s > a, s, a)),
             lambda s, a, b: np.where((s > a) & (s <= b), 1, 0), "any", -0.5, 0.8),
    "clip_v2": (lambda s, a, b: np.clip(s, a, b),
                lambda s, a, b: np.where((s > a) & (s < b), 1, 0), "any", -0.5, 0.8),
    "pow": (lambda s, a, b: a * s ** b, lambda s, a, b: a * b * s ** (b - 1), "pos", 1.5, 2.5),
    "gelu_erf": (lambda s, a, b: 0.5 * s * (1 + erf(s / np.sqrt(2))),
                 lambda s, a, b: 0.5 * (1 + erf(s / np.sqrt(2)))
                 + s * np.exp(-s * s / 2) / np.sqrt(2 * np.pi), "any", 0, 0),
    "mish": (lambda s, a, b: s * np.tanh(softplus(s)),
             lambda s, a, b: np.tanh(softplus(s))
             + s * (1 - np.tanh(softplus(s)) ** 2) * sigmoid(s), "any", 0, 0),
    "hardswish": (lambda s, a, b: s * np.clip(a * s + b, 0, 1),
                  lambda s, a, b: np.where(a * s + b <= 0, 0,
                                           np.where(a * s + b >= 1, 1, 2 * a * s + b)),
                  "any", 1 / 6, 0.5),
}
USE_DST = {  # backward written with dst
    "relu": lambda d, a, b: np.where(d > 0, 1, a),
    "tanh": lambda d, a, b: 1 - d * d,
    "elu": lambda d, a, b: np.where(d > 0, 1, d + a),
    "sqrt": lambda d, a, b: 0.5 / d,
    "logistic": lambda d, a, b: d * (1 - d),
    "exp": lambda d, a, b: d,
    "clip_v2": lambda d, a, b: np.where((d > a) & (d < b), 1, 0),
}
DIMS = [2, 11, 3, 5]


def inputs(kind, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-3, 3, shape)
    if kind == "pos":
        x = np.abs(x) + 0.1
    # keep away from the kinks, where finite differences and rounding disagree
    x[np.abs(x) < 1e-3] = 0.5
    return x.astype(np.float32)


def run_fwd(eng, strm, alg, x, alpha, beta, data_type=dt.f32, layout=tag.nchw):
    src = memory(memory.desc(list(x.shape), data_type, layout), eng)
    src.write(x)
    pd = eltwise_forward.primitive_desc(eng, prop_kind.forward_training, alg, src.get_desc(),
                                        memory.desc(list(x.shape), data_type, tag.any),
                                        alpha, beta)
    dst = memory(pd.dst_desc(), eng)
    eltwise_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    return pd, src, dst


def run_bwd(eng, strm, alg, fwd_pd, data_mem, dd, alpha, beta, data_type=dt.f32):
    dims = list(dd.shape)
    pd = eltwise_backward.primitive_desc(eng, alg, memory.desc(dims, data_type, tag.any),
                                         memory.desc(dims, data_type, tag.any),
                                         data_mem.get_desc(), alpha, beta, fwd_pd)
    diff_dst = memory(pd.diff_dst_desc(), eng)
    diff_dst.write(dd)
    diff_src = memory(pd.diff_src_desc(), eng)
    arg = dnnl.DNNL_ARG_DST if "use_dst" in alg.name else dnnl.DNNL_ARG_SRC
    eltwise_backward(pd).execute(strm, {arg: data_mem, dnnl.DNNL_ARG_DIFF_DST: diff_dst,
                                        dnnl.DNNL_ARG_DIFF_SRC: diff_src})
    return pd, diff_src.read(np.float32)


@pytest.mark.parametrize("layout", [tag.nchw, tag.nhwc, tag.nChw8c])
@pytest.mark.parametrize("name", sorted(ALGS))
def test_forward_and_backward_f32(eng, strm, name, layout):
    f, df, domain, alpha, beta = ALGS[name]
    x = inputs(domain, DIMS)
    x64 = x.astype(np.float64)
    pd, src, dst = run_fwd(eng, strm, getattr(A, "eltwise_" + name), x, alpha, beta,
                           layout=layout)
    assert pd.dst_desc() == src.get_desc()
    np.testing.assert_allclose(dst.read(), f(x64, alpha, beta), rtol=2e-6, atol=2e-6)
    dd = inputs("any", DIMS, 1)
    _, ds = run_bwd(eng, strm, getattr(A, "eltwise_" + name), pd, src, dd, alpha, beta)
    np.testing.assert_allclose(ds, dd * df(x64, alpha, beta), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(ALGS))
def test_numpy_derivatives_match_finite_differences(name):
    """Checks the reference derivatives themselves, in float64."""
    f, df, domain, alpha, beta = ALGS[name]
    x = inputs(domain, [400], 3).astype(np.float64)
    if name in ("relu", "abs", "clip", "clip_v2", "hardsigmoid", "hardswish"):
        x = x[np.min(np.abs(x[:, None] - np.array([0.0, alpha, beta, -2.0, 1.0, -3.0, 3.0])),
                     axis=1) > 1e-3]
    h = 1e-6
    numeric = (f(x + h, alpha, beta) - f(x - h, alpha, beta)) / (2 * h)
    np.testing.assert_allclose(df(x, alpha, beta), numeric, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(USE_DST))
def test_use_dst_for_bwd(eng, strm, name):
    f, df, domain, alpha, beta = ALGS[name]
    if name == "relu":
        alpha = 0.3
    x = inputs(domain, DIMS)
    alg = getattr(A, "eltwise_%s_use_dst_for_bwd" % name)
    pd, src, dst = run_fwd(eng, strm, alg, x, alpha, beta)
    np.testing.assert_allclose(dst.read(), f(x.astype(np.float64), alpha, beta), rtol=2e-6,
                               atol=2e-6)
    dd = inputs("any", DIMS, 2)
    bpd, ds = run_bwd(eng, strm, alg, pd, dst, dd, alpha, beta)
    assert bpd.src_desc().is_zero() and not bpd.dst_desc().is_zero()
    d = dst.read().astype(np.float64)
    np.testing.assert_allclose(ds, dd * USE_DST[name](d, alpha, beta), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ds, dd * df(x.astype(np.float64), alpha, beta), rtol=1e-4,
                               atol=1e-4)


def test_round_is_half_to_even(eng, strm):
    x = np.array([[0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6, 7.0]], np.float32)
    _, _, dst = run_fwd(eng, strm, A.eltwise_round, x, 0, 0, layout=tag.ab)
    np.testing.assert_array_equal(dst.read(), [[0, 2, 2, -0, -2, 2, -3, 7]])


@pytest.mark.parametrize("layout", [tag.nchw, tag.nChw16c])
@pytest.mark.parametrize("name", ["relu", "gelu_erf", "logistic", "exp", "linear"])
def test_bf16_computes_in_f32_and_rounds_once(eng, strm, name, layout):
    f, df, domain, alpha, beta = ALGS[name]
    x = bf16_round(inputs(domain, DIMS))
    pd, src, dst = run_fwd(eng, strm, getattr(A, "eltwise_" + name), x, alpha, beta, dt.bf16,
                           layout)
    assert pd.dst_desc().get_data_type() == dt.bf16
    expected = bf16_round(f(x.astype(np.float64), alpha, beta).astype(np.float32))
    got = dst.read(np.float32)
    # one rounding of a value within f32 accuracy: equal, or one bf16 ulp off at a tie
    np.testing.assert_allclose(got, expected, rtol=2 ** -8, atol=1e-30)
    assert np.mean(got == expected) > 0.97
    dd = bf16_round(inputs("any", DIMS, 4))
    _, ds = run_bwd(eng, strm, getattr(A, "eltwise_" + name), pd, src, dd, alpha, beta,
                    dt.bf16)
    exp_ds = bf16_round((dd * df(x.astype(np.float64), alpha, beta)).astype(np.float32))
    np.testing.assert_allclose(ds, exp_ds, rtol=2 ** -7, atol=1e-30)


def test_relu_on_the_c_api_and_in_place(eng, strm):
    ceng, cs = c.dnnl_engine_t(), c.dnnl_stream_t()
    assert c.dnnl_engine_create(ceng, c.dnnl_cpu, 0) == 0
    assert c.dnnl_stream_create(cs, ceng, c.dnnl_stream_default_flags) == 0
    md = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(md, 2, [3, 70], c.dnnl_f32, c.dnnl_ab) == 0
    x = np.random.default_rng(0).standard_normal((3, 70)).astype(np.float32)
    buf = x.copy()
    m = c.dnnl_memory_t()
    assert c.dnnl_memory_create(m, md, ceng, buf) == 0
    pd, prim = c.dnnl_primitive_desc_t(), c.dnnl_primitive_t()
    assert c.dnnl_eltwise_forward_primitive_desc_create(
        pd, ceng, c.dnnl_forward_inference, c.dnnl_eltwise_relu, md, md, 0.0, 0.0, None) == 0
    assert c.dnnl_primitive_desc_query_s32(pd, c.dnnl_query_num_of_inputs_s32, 0) == 1
    out = [None]
    assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_alg_kind, 0, out) == 0
    assert out[0] == c.dnnl_eltwise_relu
    assert c.dnnl_primitive_create(prim, pd) == 0
    # in place: src and dst are the same memory
    assert c.dnnl_primitive_execute(prim, cs, 2, [(c.DNNL_ARG_SRC, m), (c.DNNL_ARG_DST, m)]) == 0
    np.testing.assert_array_equal(buf, np.maximum(x, 0))


def test_reference_and_dense_implementations_agree(eng, strm):
    x = inputs("any", DIMS)
    src = memory(memory.desc(DIMS, dt.f32, tag.nchw), eng)
    src.write(x)
    pd = eltwise_forward.primitive_desc(eng, prop_kind.forward, A.eltwise_gelu_tanh,
                                        src.get_desc(), src.get_desc())
    results = []
    while True:
        dst = memory(pd.dst_desc(), eng)
        eltwise_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
        results.append((pd.impl_info_str(), dst.read()))
        if not pd.next_impl():
            break
    assert [r[0] for r in results] == level_impls("dense") + ["ref:any"]
    for r in results[:-1]:
        np.testing.assert_array_equal(r[1], results[-1][1])


# The algorithms with vector loops at every level (kernels/isa/eltwise_isa.c):
# name, alpha, beta, and whether forward and backward match the scalar
# reference bit for bit; those with a * b + c may fuse it into one rounding
# at AVX2 and up (or the reference computes them in double), so within an
# f32 ulp there.
VECTOR_ALGS = [
    ("relu", 0.0, 0.0, True, True), ("relu", 0.2, 0.0, True, True),
    ("relu_use_dst_for_bwd", 0.3, 0.0, True, True), ("linear", 1.5, -0.5, False, True),
    ("clip", -0.5, 0.8, True, True), ("clip_v2", -0.5, 0.8, True, True),
    ("clip_v2_use_dst_for_bwd", -0.5, 0.8, True, True), ("abs", 0.0, 0.0, True, True),
    ("square", 0.0, 0.0, True, True), ("sqrt", 0.0, 0.0, True, True),
    ("sqrt_use_dst_for_bwd", 0.0, 0.0, True, True),
    ("hardsigmoid", 0.25, 0.5, False, False), ("hardswish", 1 / 6, 0.5, False, False),
]
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 3e38, -3e38, -0.5, 0.8,
           -2.0, 2.0, -3.0, 3.0, 1.00390625, 1.01171875]   # the last two: bf16 ties


def every_impl(pd, run):
    out = []
    while True:
        out.append((pd.impl_info_str(), run(pd)))
        if not pd.next_impl():
            return out


def same_bits_or_close(got, want, exact, data_type, terms, what):
    """Equal bits; or, where a * b + c may round once or twice, equal NaNs
    and infinities and within a few f32 ulps of the terms' magnitude
    (`terms`), plus a bf16 ulp where the f32 difference crosses a tie."""
    if exact:
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32), err_msg=what)
        return
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what)
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)],
                                  want[~finite & ~np.isnan(want)], err_msg=what)
    # NaN operands (x where the result ignores it) leave no room
    tol = 2.0 ** -21 * np.nan_to_num(terms, nan=0.0) + (2.0 ** -7 * np.abs(want) if data_type == dt.bf16 else 0)
    err = np.abs(got[finite].astype(np.float64) - want[finite])
    assert np.all(err <= tol[finite]), (what, np.max(err - tol[finite]))


@pytest.mark.parametrize("data_type", [dt.f32, dt.bf16])
@pytest.mark.parametrize("shape", [[3, 5, 3, 7], [2, 3, 77, 71]])   # tails; several blocks
@pytest.mark.parametrize("case", VECTOR_ALGS, ids=lambda v: "%s" % (v,))
def test_vector_loops_match_the_scalar_reference(eng, strm, case, shape, data_type):
    """Every level's vector loop against ref:any (the scalar formulas) on the
    same inputs, NaN, infinities, signed zeros, subnormals and bf16 ties
    among them; bf16 rounds to nearest even as cydnnl_f32_to_bf16 does."""
    name, alpha, beta, fwd_exact, bwd_exact = case
    alg = getattr(A, "eltwise_" + name)
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    x.flat[:len(SPECIAL)] = SPECIAL
    dd = rng.uniform(-2, 2, shape).astype(np.float32)
    dd.flat[-len(SPECIAL):] = SPECIAL
    md = memory.desc(shape, data_type, tag.nchw)
    src, diff_dst = memory(md, eng), memory(md, eng)
    src.write(x)
    diff_dst.write(dd)
    fwd = eltwise_forward.primitive_desc(eng, prop_kind.forward_training, alg, md, md, alpha,
                                         beta)
    hint = eltwise_forward.primitive_desc(eng, prop_kind.forward_training, alg, md, md, alpha,
                                          beta)

    def same_in_place(out, values, args, prim):
        # the output in its input's memory: the loops read a group of
        # vectors before they store it
        both = memory(md, eng)
        both.write(values)
        prim.execute(strm, {k: both if v is None else v for k, v in args.items()})
        np.testing.assert_array_equal(both.read(np.float32).view(np.uint32),
                                      out.view(np.uint32))

    def run_fwd_pd(pd):
        dst = memory(md, eng)
        eltwise_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
        out = dst.read(np.float32)
        same_in_place(out, x, {dnnl.DNNL_ARG_SRC: None, dnnl.DNNL_ARG_DST: None},
                      eltwise_forward(pd))
        return out

    def run_bwd_pd(pd):
        diff_src = memory(md, eng)
        arg = dnnl.DNNL_ARG_DST if "use_dst" in name else dnnl.DNNL_ARG_SRC
        eltwise_backward(pd).execute(strm, {arg: src, dnnl.DNNL_ARG_DIFF_DST: diff_dst,
                                            dnnl.DNNL_ARG_DIFF_SRC: diff_src})
        out = diff_src.read(np.float32)
        same_in_place(out, dd, {arg: src, dnnl.DNNL_ARG_DIFF_DST: None,
                                dnnl.DNNL_ARG_DIFF_SRC: None}, eltwise_backward(pd))
        return out

    bwd = eltwise_backward.primitive_desc(eng, alg, md, md, md, alpha, beta, hint)
    # magnitudes of a * x + b and dd * (2 * a * x + b), the inexact formulas
    xs, dds = src.read(np.float32).astype(np.float64), diff_dst.read(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        fwd_terms = np.abs(alpha * xs) + abs(beta) + 1e-30
        bwd_terms = np.abs(dds) * (2 * np.abs(alpha * xs) + abs(beta)) + 1e-30
    for pd, run, exact, terms in ((fwd, run_fwd_pd, fwd_exact, fwd_terms),
                                  (bwd, run_bwd_pd, bwd_exact, bwd_terms)):
        results = every_impl(pd, run)
        # bf16 also has the avx512_core_bf16 level (vcvtneps2bf16 rounding)
        levels = ("avx512_core_bf16",) * (data_type == dt.bf16) + ("avx512_core", "avx2",
                                                                  "sse41")
        assert [r[0] for r in results] == level_impls("dense", levels) + ["ref:any"]
        for impl, got in results[:-1]:
            same_bits_or_close(got, results[-1][1], exact, data_type, terms, impl)


def test_mixed_layouts_go_through_the_reference(eng, strm):
    x = inputs("any", DIMS)
    src = memory(memory.desc(DIMS, dt.f32, tag.nChw8c), eng)
    src.write(x)
    pd = eltwise_forward.primitive_desc(eng, prop_kind.forward, A.eltwise_abs, src.get_desc(),
                                        memory.desc(DIMS, dt.f32, tag.nhwc))
    assert pd.impl_info_str() == "ref:any"
    dst = memory(pd.dst_desc(), eng)
    eltwise_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    np.testing.assert_array_equal(np.asarray(dst), np.abs(x))


def test_bad_input(eng):
    md = memory.desc(DIMS, dt.f32, tag.nchw)
    anymd = memory.desc(DIMS, dt.f32, tag.any)
    cases = [
        ((eng, prop_kind.backward, A.eltwise_relu, md, md), dnnl.dnnl_invalid_arguments),
        ((eng, prop_kind.forward, A.pooling_max, md, md), dnnl.dnnl_invalid_arguments),
        ((eng, prop_kind.forward, A.eltwise_relu, anymd, anymd), dnnl.dnnl_invalid_arguments),
        ((eng, prop_kind.forward, A.eltwise_relu, md, memory.desc([2, 11, 3, 6], dt.f32,
                                                                  tag.nchw)),
         dnnl.dnnl_invalid_arguments),
        ((eng, prop_kind.forward, A.eltwise_relu_use_dst_for_bwd, md, md, -1.0),
         dnnl.dnnl_invalid_arguments),
        ((eng, prop_kind.forward, A.eltwise_clip, md, md, 1.0, 0.0), dnnl.dnnl_invalid_arguments),
        ((eng, prop_kind.forward, A.eltwise_relu, md, memory.desc(DIMS, dt.bf16, tag.nchw)),
         dnnl.dnnl_unimplemented),
        ((eng, prop_kind.forward, A.eltwise_relu, memory.desc(DIMS, dt.s8, tag.nchw),
          anymd), dnnl.dnnl_unimplemented),
    ]
    for args, status in cases:
        with pytest.raises(dnnl.error) as e:
            eltwise_forward.primitive_desc(*args)
        assert e.value.status == status, (args, e.value.message)
        assert "eltwise" in e.value.message
    fwd = eltwise_forward.primitive_desc(eng, prop_kind.forward, A.eltwise_relu, md, anymd)
    with pytest.raises(dnnl.error) as e:
        eltwise_backward.primitive_desc(eng, A.eltwise_round, anymd, anymd, md, fwd)
    assert e.value.status == dnnl.dnnl_invalid_arguments
    with pytest.raises(dnnl.error):
        eltwise_backward.primitive_desc(eng, A.eltwise_relu, anymd, anymd, md)  # no hint
    reorder_pd = dnnl.reorder.primitive_desc(eng, md, eng, md)
    # the C API checks what the hint is
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_eltwise_backward_primitive_desc_create(
        pd, eng.get(), c.dnnl_eltwise_relu, anymd.get(), anymd.get(), md.get(), 0.0, 0.0,
        reorder_pd.get(), None) == c.dnnl_invalid_arguments
    assert "hint_fwd_pd" in c.cydnnl_last_error()
    assert c.dnnl_eltwise_backward_primitive_desc_create(
        pd, eng.get(), c.dnnl_eltwise_relu, anymd.get(), anymd.get(), md.get(), 0.0, 0.0,
        None, None) == c.dnnl_success      # oneDNN does not require the hint here
    assert c.dnnl_eltwise_forward_primitive_desc_create(
        pd, eng.get(), c.dnnl_forward, c.dnnl_eltwise_relu, None, md.get(), 0.0, 0.0,
        None) == c.dnnl_invalid_arguments
    assert c.dnnl_eltwise_forward_primitive_desc_create(
        pd, None, c.dnnl_forward, c.dnnl_eltwise_relu, md.get(), md.get(), 0.0, 0.0,
        None) == c.dnnl_invalid_arguments
    assert c.dnnl_eltwise_forward_primitive_desc_create(
        pd, eng.get(), c.dnnl_forward, c.dnnl_eltwise_relu, md.get(), md.get(), "x", 0.0,
        None) == c.dnnl_invalid_arguments
