"""The SGEMM kernel behind convolution and the LSTM, against NumPy: both
transposes, edge tiles, strides (lda/ldb/ldc wider than the matrix), alpha,
beta (including beta = 0 over NaN), k = 0, one and all threads."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):

    from cython_build import build
    return build("kernels_test", str(tmp_path_factory.mktemp("kernels")))


def run(kernels, ta, tb, m, n, k, alpha, beta, pad, parallel, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k) if ta == "N" else (k, m)).astype(np.float32)
    b = rng.standard_normal((k, n) if tb == "N" else (n, k)).astype(np.float32)
    c = rng.standard_normal((m, n)).astype(np.float32)
    if beta == 0:
        c[:] = np.nan      # beta = 0 must not read C
    A = np.zeros((a.shape[0], a.shape[1] + pad), np.float32)
    A[:, :a.shape[1]] = a
    B = np.zeros((b.shape[0], b.shape[1] + pad), np.float32)
    B[:, :b.shape[1]] = b
    C = np.zeros((m, n + pad), np.float32)
    C[:, :n] = c
    kernels.sgemm(ta, tb, m, n, k, alpha, A.reshape(-1), A.shape[1], B.reshape(-1), B.shape[1],
                  beta, C.reshape(-1), C.shape[1], parallel)
    opa = a.T if ta == "T" else a
    opb = b.T if tb == "T" else b
    want = alpha * (opa.astype(np.float64) @ opb.astype(np.float64))
    if beta != 0:
        want += beta * c
    np.testing.assert_allclose(C[:, :n], want, rtol=1e-4, atol=1e-4 * np.sqrt(max(k, 1)))
    assert np.all(C[:, n:] == 0)      # the padding columns of C are untouched


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "N"), ("N", "T"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (6, 32, 7), (7, 33, 300), (96, 3025, 363),
                                   (13, 100, 5), (200, 17, 513), (5, 4000, 3)])
def test_sgemm(kernels, ta, tb, m, n, k, parallel):
    run(kernels, ta, tb, m, n, k, 1.0, 0.0, pad=3, parallel=parallel)


@pytest.mark.parametrize("alpha,beta", [(2.0, 1.0), (0.5, -1.5), (1.0, 0.0)])
def test_alpha_beta(kernels, alpha, beta):
    run(kernels, "N", "T", 23, 70, 41, alpha, beta, pad=1, parallel=True)


def test_k_zero_scales_c(kernels):
    run(kernels, "N", "N", 5, 9, 0, 1.0, 0.5, pad=0, parallel=False)
    run(kernels, "N", "N", 5, 9, 0, 1.0, 0.0, pad=0, parallel=False)


def test_tile(kernels):
    mr, nr = kernels.tile()
    assert mr == 6 and nr in (16, 32)
