"""dnnl_sgemm and dnnl_gemm_bf16bf16f32 (dnnl_c, dnnl.pxd from Cython without
the GIL, and dnnl.sgemm / dnnl.gemm_bf16bf16f32), and the int8 GEMMs, against
NumPy: odd shapes,
both transposes ('N'/'T'/'n'/'t'), alpha, beta (0 over NaN), leading
dimensions wider than the matrices, empty products, and the status codes of
bad arguments. They run on the GEMM kernel of the best level this process
allows: tests/test_isa_levels.py reruns this file under each ISA limit."""

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from helpers import KERNEL_LEVELS, bf16_bits, bf16_to_f32, usable_levels

SHAPES = [(1, 1, 1), (3, 5, 7), (17, 33, 29), (64, 1, 128), (1, 97, 13), (37, 53, 200),
          (130, 70, 300), (6, 260, 9)]


def stored(rng, rows, cols, trans, pad):
    """A random op(X) (rows x cols) stored row-major, transposed when trans,
    with `pad` extra columns: (op(X) as float64, the flat buffer, ld)."""
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    phys = x.T if trans else x
    buf = np.zeros((phys.shape[0], phys.shape[1] + pad), np.float32)
    buf[:, :phys.shape[1]] = phys
    return x.astype(np.float64), buf.reshape(-1), buf.shape[1]


def gemm_case(fn, m, n, k, ta, tb, alpha, beta, pad, seed, bf16=False):
    rng = np.random.default_rng(seed)
    a, abuf, lda = stored(rng, m, k, ta in "Tt", pad)
    b, bbuf, ldb = stored(rng, k, n, tb in "Tt", pad)
    if bf16:     # the inputs as the bf16 values the function reads
        abuf, bbuf = bf16_bits(abuf), bf16_bits(bbuf)
        a = bf16_to_f32(bf16_bits(a.astype(np.float32))).astype(np.float64)
        b = bf16_to_f32(bf16_bits(b.astype(np.float32))).astype(np.float64)
    cmat = rng.standard_normal((m, n)).astype(np.float32)
    cbuf = np.full((m, n + pad), 7.0, np.float32)
    cbuf[:, :n] = np.nan if beta == 0 else cmat     # beta = 0 must not read C
    st = fn(ta, tb, m, n, k, alpha, abuf, lda, bbuf, ldb, beta, cbuf.reshape(-1), n + pad)
    assert st == c.dnnl_success, c.cydnnl_last_error()
    want = alpha * (a @ b) + (beta * cmat if beta != 0 else 0)
    np.testing.assert_allclose(cbuf[:, :n], want, rtol=2e-5, atol=2e-5 * np.sqrt(k + 1))
    assert np.all(cbuf[:, n:] == 7.0)       # the padding columns of C stay untouched


@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "N"), ("n", "t"), ("t", "T")])
def test_sgemm(m, n, k, ta, tb):
    for i, (alpha, beta, pad) in enumerate([(1.0, 0.0, 0), (-0.5, 1.0, 3), (2.0, 0.25, 1)]):
        gemm_case(c.dnnl_sgemm, m, n, k, ta, tb, alpha, beta, pad, seed=m + n + k + i)


@pytest.mark.parametrize("m,n,k", SHAPES[:6])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T"), ("N", "t")])
def test_gemm_bf16bf16f32(m, n, k, ta, tb):
    for i, (alpha, beta, pad) in enumerate([(1.0, 0.0, 0), (0.75, -1.0, 2)]):
        gemm_case(c.dnnl_gemm_bf16bf16f32, m, n, k, ta, tb, alpha, beta, pad, seed=i, bf16=True)


def test_bf16_as_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 4)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((4, 6)).astype(ml_dtypes.bfloat16)
    out = np.zeros((5, 6), np.float32)
    assert dnnl.gemm_bf16bf16f32("N", "N", 5, 6, 4, 1.0, a, 4, b, 6, 0.0, out, 6) == \
        dnnl.status.success
    np.testing.assert_allclose(out, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)


def test_empty_products():
    a = np.ones(6, np.float32)
    cbuf = np.full(6, 3.0, np.float32)
    # K = 0: C = beta * C
    assert c.dnnl_sgemm("N", "N", 2, 3, 0, 1.0, a, 1, a, 3, 0.5, cbuf, 3) == c.dnnl_success
    np.testing.assert_array_equal(cbuf, 1.5)
    cbuf[:] = np.nan
    assert c.dnnl_sgemm("N", "N", 2, 3, 0, 1.0, a, 1, a, 3, 0.0, cbuf, 3) == c.dnnl_success
    np.testing.assert_array_equal(cbuf, 0)
    # M = 0 or N = 0: nothing to write
    cbuf[:] = 4
    assert c.dnnl_sgemm("N", "N", 0, 3, 2, 1.0, a, 2, a, 3, 0.0, cbuf, 3) == c.dnnl_success
    assert c.dnnl_sgemm("N", "N", 2, 0, 2, 1.0, a, 2, a, 1, 0.0, cbuf, 1) == c.dnnl_success
    np.testing.assert_array_equal(cbuf, 4)


def test_object_layer_sgemm():
    rng = np.random.default_rng(9)
    a = rng.standard_normal((7, 3)).astype(np.float32)
    b = rng.standard_normal((5, 7)).astype(np.float32)
    out = np.ones((3, 5), np.float32)
    assert dnnl.sgemm("T", "T", 3, 5, 7, 1.5, a, 3, b, 7, 2.0, out, 5) == dnnl.status.success
    np.testing.assert_allclose(out, 1.5 * (a.T @ b.T) + 2.0, rtol=1e-5, atol=1e-5)
    # as in C++: a status, not an exception
    assert dnnl.sgemm("Q", "T", 3, 5, 7, 1.0, a, 3, b, 7, 0.0, out, 5) == \
        dnnl.status.invalid_arguments


F = np.ones(64, np.float32)


@pytest.mark.parametrize("args,why", [
    (("X", "N", 2, 2, 2, 1.0, F, 2, F, 2, 0.0, F, 2), "transa"),
    (("N", "NN", 2, 2, 2, 1.0, F, 2, F, 2, 0.0, F, 2), "transb"),
    (("N", "N", -1, 2, 2, 1.0, F, 2, F, 2, 0.0, F, 2), ">= 0"),
    (("N", "N", 2, 2, -2, 1.0, F, 2, F, 2, 0.0, F, 2), ">= 0"),
    (("N", "N", 2, 3, 4, 1.0, F, 3, F, 3, 0.0, F, 3), "lda"),          # lda < K
    (("T", "N", 4, 3, 2, 1.0, F, 3, F, 3, 0.0, F, 3), "lda"),          # lda < M
    (("N", "T", 2, 3, 4, 1.0, F, 4, F, 3, 0.0, F, 3), "ldb"),          # ldb < K
    (("N", "N", 2, 3, 4, 1.0, F, 4, F, 3, 0.0, F, 2), "ldc"),          # ldc < N
    (("N", "N", 2, 2, 2, 1.0, None, 2, F, 2, 0.0, F, 2), "A"),
    (("N", "N", 2, 2, 2, 1.0, F, 2, F, 2, 0.0, None, 2), "C"),
    (("N", "N", 2, 2, 2, 1.0, F.astype(np.float64), 2, F, 2, 0.0, F, 2), "float32"),
    (("N", "N", 2, 2, 2, 1.0, F, 2, F, 2, 0.0, F.astype(np.int32), 2), "float32"),
    (("N", "N", 8, 8, 8, 1.0, F, 8, F[:40], 8, 0.0, F, 8), "B holds 40"),
    (("N", "N", 2, 2, 2, 1.0, F.reshape(8, 8)[:, ::2].copy(), 2, F, 2, 0.0,
      np.ones((4, 4), np.float32)[:, ::2], 2), "contiguous"),
    (("N", "N", 2, 2, 2, 1.0, F, 2, F, 2, 0.0, bytes(16), 2), "C"),          # read-only
    (("N", "N", 2, 2, 2, "1", F, 2, F, 2, 0.0, F, 2), "alpha"),
])
def test_bad_arguments(args, why):
    assert c.dnnl_sgemm(*args) == c.dnnl_invalid_arguments
    assert why in c.cydnnl_last_error()


def test_bf16_argument_types():
    u16 = np.zeros(16, np.uint16)
    out = np.zeros(4, np.float32)
    assert c.dnnl_gemm_bf16bf16f32("N", "N", 2, 2, 2, 1.0, u16, 2, u16, 2, 0.0, out, 2) == 0
    # f32 operands are not bf16 ones, and C must be f32
    assert c.dnnl_gemm_bf16bf16f32("N", "N", 2, 2, 2, 1.0, F, 2, u16, 2, 0.0, out, 2) == \
        c.dnnl_invalid_arguments
    assert c.dnnl_gemm_bf16bf16f32("N", "N", 2, 2, 2, 1.0, u16, 2, u16, 2, 0.0, u16, 2) == \
        c.dnnl_invalid_arguments


def test_runs_at_the_best_allowed_level():
    levels = [lv for lv in ("avx512_core", "avx2", "sse41") if lv in usable_levels()]
    assert c.cydnnl_gemm_isa(False) == KERNEL_LEVELS[levels[0]]
    bf16_levels = [lv for lv in ("avx512_core_bf16",) if lv in usable_levels()] + levels
    assert c.cydnnl_gemm_isa(True) == KERNEL_LEVELS[bf16_levels[0]]


@pytest.fixture(scope="module")
def cy(tmp_path_factory):
    from cython_build import build
    return build("cache_gemm_nogil", str(tmp_path_factory.mktemp("gemm")), openmp=True)


def test_from_cython_without_the_gil(cy):
    rng = np.random.default_rng(11)
    m, n, k = 19, 23, 31
    a = rng.standard_normal((k, m)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    out = np.zeros((m, n), np.float32)
    assert cy.sgemm("T", "N", m, n, k, 1.0, a.reshape(-1), m, b.reshape(-1), n, 0.0,
                    out.reshape(-1), n) == c.dnnl_success
    np.testing.assert_allclose(out, a.T.astype(np.float64) @ b, rtol=1e-5, atol=1e-4)
    ab, bb = bf16_bits(a), bf16_bits(b)
    assert cy.gemm_bf16("T", "N", m, n, k, 1.0, ab.reshape(-1), m, bb.reshape(-1), n, 0.0,
                        out.reshape(-1), n) == c.dnnl_success
    want = bf16_to_f32(ab).T.astype(np.float64) @ bf16_to_f32(bb)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-4)
    assert cy.bad_gemm_calls() == (c.dnnl_invalid_arguments,) * 4


# ------------------------------------------------------------ int8

def igemm_ref(a, b, ao, bo, alpha, beta, c, co, offsetc):
    """oneDNN's gemm_s8x8s32 from its definition, in exact integers then double."""
    m, n = c.shape
    acc = (a.astype(np.int64) - ao) @ (b.astype(np.int64) - bo)
    off = {"F": np.full((m, n), co[0]), "C": np.repeat(co[:m, None], n, 1),
           "R": np.repeat(co[None, :n], m, 0)}[offsetc.upper()]
    v = alpha * acc.astype(np.float64) + off + (beta * c.astype(np.float64) if beta else 0)
    return np.clip(np.rint(v), -2 ** 31, 2 ** 31 - 1).astype(np.int32)


@pytest.mark.parametrize("signed", [False, True])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (5, 7, 3), (33, 17, 70), (4, 130, 9)])
@pytest.mark.parametrize("ta,tb,offsetc", [("N", "N", "F"), ("T", "N", "C"), ("n", "t", "r"),
                                           ("T", "T", "c")])
def test_int8_gemm(signed, m, n, k, ta, tb, offsetc):
    rng = np.random.default_rng(m * n + k)
    a = rng.integers(-128 if signed else 0, 128 if signed else 256, (m, k)).astype(
        np.int8 if signed else np.uint8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    pad = 2

    def stored_int(x, trans):       # row-major, transposed when trans, `pad` wider
        phys = x.T if trans else x
        buf = np.zeros((phys.shape[0], phys.shape[1] + pad), x.dtype)
        buf[:, :phys.shape[1]] = phys
        return buf

    abuf, bbuf = stored_int(a, ta in "Tt"), stored_int(b, tb in "Tt")
    co = rng.integers(-1000, 1000, max(m, n)).astype(np.int32)
    ao, bo = (3 if signed else 7), -2
    fn = c.dnnl_gemm_s8s8s32 if signed else c.dnnl_gemm_u8s8s32
    for alpha, beta in ((1.0, 0.0), (0.5, 1.0), (-2.0, 0.25)):
        cmat = rng.integers(-10000, 10000, (m, n)).astype(np.int32)
        cbuf = np.full((m, n + pad), 99, np.int32)
        cbuf[:, :n] = cmat
        st = fn(ta, tb, offsetc, m, n, k, alpha, abuf.reshape(-1), abuf.shape[1], ao,
                bbuf.reshape(-1), bbuf.shape[1], bo, beta, cbuf.reshape(-1), n + pad, co)
        assert st == c.dnnl_success, c.cydnnl_last_error()
        np.testing.assert_array_equal(cbuf[:, :n],
                                      igemm_ref(a, b, ao, bo, alpha, beta, cmat, co, offsetc))
        assert np.all(cbuf[:, n:] == 99)


def test_int8_gemm_saturates_and_objects():
    a = np.full((1, 4), 255, np.uint8)
    b = np.full((4, 1), 127, np.int8)
    out = np.zeros(1, np.int32)
    co = np.zeros(1, np.int32)
    assert dnnl.gemm_u8s8s32("N", "N", "F", 1, 1, 4, 1e6, a, 4, 0, b, 1, 0, 0.0, out, 1, co) == \
        dnnl.status.success
    assert out[0] == 2 ** 31 - 1
    assert dnnl.gemm_s8s8s32("N", "N", "F", 1, 1, 4, -1e8, a.view(np.int8) * 0 + 1, 4, 0, b, 1,
                             0, 0.0, out, 1, co) == dnnl.status.success
    assert out[0] == -2 ** 31
    A, B = np.ones(8, np.uint8), np.ones(8, np.int8)
    C, CO = np.zeros(8, np.int32), np.zeros(8, np.int32)
    for args, why in [
            (("N", "N", "X", 2, 2, 2, 1.0, A, 2, 0, B, 2, 0, 0.0, C, 2, CO), "offsetc"),
            (("N", "N", "F", 2, 2, 2, 1.0, A, 2, 300, B, 2, 0, 0.0, C, 2, CO), "ao"),
            (("N", "N", "F", 2, 2, 2, 1.0, A, 2, 0, B, 2, 200, 0.0, C, 2, CO), "bo"),
            (("N", "N", "R", 2, 3, 2, 1.0, A, 2, 0, B, 3, 0, 0.0, C, 3, CO[:2]), "co"),
            (("N", "N", "F", 2, 2, 2, 1.0, A.view(np.int8), 2, 0, B, 2, 0, 0.0, C, 2, CO), "uint8"),
            (("N", "N", "F", 2, 2, 2, 1.0, A, 2, 0, B, 2, 0, 0.0, C.astype(np.float32), 2, CO),
             "int32"),
            (("N", "N", "F", 2, 2, 2, 1.0, A, 1, 0, B, 2, 0, 0.0, C, 2, CO), "lda")]:
        assert c.dnnl_gemm_u8s8s32(*args) == c.dnnl_invalid_arguments, why
        assert why in c.cydnnl_last_error()
