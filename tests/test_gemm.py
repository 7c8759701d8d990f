"""The SGEMM kernel behind convolution and the LSTM, against NumPy: both
transposes, edge tiles, strides (lda/ldb/ldc wider than the matrix), alpha,
beta (including beta = 0 over NaN), k = 0, one and all threads."""

import numpy as np
import pytest


from helpers import KERNEL_LEVELS, usable_levels

# Each test runs on the micro-kernel of every level this machine can run
# (tests/test_isa_levels.py reruns the suite under each ISA limit too).
LEVELS = [lv for lv in ("sse41", "avx2", "avx512_core", "avx512_core_bf16")
          if lv in usable_levels()]


@pytest.fixture(params=LEVELS)
def isa(request):
    return KERNEL_LEVELS[request.param]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):

    from cython_build import build
    return build("kernels_test", str(tmp_path_factory.mktemp("kernels")))


def run(kernels, isa, ta, tb, m, n, k, alpha, beta, pad, parallel, seed=0):
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
                  beta, C.reshape(-1), C.shape[1], parallel, isa)
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
def test_sgemm(kernels, isa, ta, tb, m, n, k, parallel):
    run(kernels, isa, ta, tb, m, n, k, 1.0, 0.0, pad=3, parallel=parallel)


# B packed once and reused (the RNN's weights): batches that are one tile, a
# tile and a half-height remainder (17 = 12 + 5 at AVX-512), several tiles;
# k over one packed block (1024); n past the panel width; more rows than one
# block of A (k blocks of KC then); whole-product and per-column-range calls.
@pytest.mark.parametrize("split", [0, 1, 3])
@pytest.mark.parametrize("tb", ["N", "T"])
@pytest.mark.parametrize("m,n,k", [(1, 40, 9), (11, 96, 1030), (17, 70, 300), (29, 33, 2100),
                                   (6, 128, 64), (200, 70, 600)])
def test_sgemm_packed_b(kernels, isa, tb, m, n, k, split):
    rng = np.random.default_rng(m + n + k)
    a = rng.standard_normal((m, k + 2)).astype(np.float32)
    b = rng.standard_normal((k, n + 1) if tb == "N" else (n, k + 1)).astype(np.float32)
    c = rng.standard_normal((m, n + 3)).astype(np.float32)
    c0 = c.copy()
    bp = kernels.sgemm_packed(tb, m, n, k, 1.5, a.reshape(-1), a.shape[1], b.reshape(-1),
                              b.shape[1], 0.5, c.reshape(-1), c.shape[1], split, isa)
    opb = b[:, :n] if tb == "N" else b[:, :k].T
    want = 1.5 * (a[:, :k].astype(np.float64) @ opb) + 0.5 * c0[:, :n]
    np.testing.assert_allclose(c[:, :n], want, rtol=1e-4, atol=1e-4 * np.sqrt(k))
    assert np.array_equal(c[:, n:], c0[:, n:])
    # the packed layout is the blocked one RNN weights take: [n / NR][k][NR],
    # zero columns past n
    nr = kernels.tile(isa)[1]
    npad = -(-n // nr) * nr
    panels = np.zeros((k, npad), np.float32)
    panels[:, :n] = opb
    assert np.array_equal(bp[:k * npad].reshape(npad // nr, k, nr),
                          panels.reshape(k, npad // nr, nr).transpose(1, 0, 2))


@pytest.mark.parametrize("alpha,beta", [(2.0, 1.0), (0.5, -1.5), (1.0, 0.0)])
def test_alpha_beta(kernels, isa, alpha, beta):
    run(kernels, isa, "N", "T", 23, 70, 41, alpha, beta, pad=1, parallel=True)


def test_k_zero_scales_c(kernels, isa):
    run(kernels, isa, "N", "N", 5, 9, 0, 1.0, 0.5, pad=0, parallel=False)
    run(kernels, isa, "N", "N", 5, 9, 0, 1.0, 0.0, pad=0, parallel=False)


def test_tile(kernels):
    tiles = {name: kernels.tile(KERNEL_LEVELS[name]) for name in LEVELS}
    want = {"sse41": (6, 8), "avx2": (6, 16), "avx512_core": (12, 32),
            "avx512_core_bf16": (12, 32)}
    assert tiles == {name: want[name] for name in LEVELS}


# -- operands other than f32 matrices: a convolution's patch matrix read from
# its source (implicit im2col), and bf16 matrices

def patch_matrix(x, g, cl):
    """P[pixel, tap] of x (icg, id, ih, iw), taps (kd, kh, kw, ic) when cl,
    else (ic, kd, kh, kw); built from the definition."""
    icg = x.shape[0]
    rows = []
    for od in range(g["od"]):
        for oh in range(g["oh"]):
            for ow in range(g["ow"]):
                row = np.zeros((icg, g["kd"], g["kh"], g["kw"]), np.float64)
                for kd in range(g["kd"]):
                    for kh in range(g["kh"]):
                        for kw in range(g["kw"]):
                            z = od * g["sd"] + kd * (g["dd"] + 1) - g["pd"]
                            y = oh * g["sh"] + kh * (g["dh"] + 1) - g["ph"]
                            w = ow * g["sw"] + kw * (g["dw"] + 1) - g["pw"]
                            if 0 <= z < g["id"] and 0 <= y < g["ih"] and 0 <= w < g["iw"]:
                                row[:, kd, kh, kw] = x[:, z, y, w]
                rows.append(row.transpose(1, 2, 3, 0).reshape(-1) if cl else row.reshape(-1))
    return np.array(rows)


GEOMS = [
    # icg, (id, ih, iw), (kd, kh, kw), (sd, sh, sw), (dd, dh, dw), (pd, ph, pw)
    (3, (1, 11, 13), (1, 3, 5), (1, 2, 1), (0, 0, 1), (0, 1, 2)),
    (5, (3, 4, 6), (2, 2, 3), (1, 1, 2), (1, 0, 0), (1, 0, 1)),
    (17, (1, 9, 8), (1, 1, 1), (1, 1, 1), (0, 0, 0), (0, 0, 0)),
    (2, (1, 1, 40), (1, 1, 7), (1, 1, 3), (0, 0, 2), (0, 0, 3)),
    # output rows longer than a tile: f32 patches read in place, row by row
    (3, (1, 7, 131), (1, 3, 5), (1, 2, 4), (0, 0, 0), (0, 1, 0)),
    (2, (1, 3, 100), (1, 3, 3), (1, 1, 1), (0, 0, 0), (0, 1, 1)),
    # no padding: the weight gradient's P^T . X reads P in place too
    (3, (1, 13, 60), (1, 3, 11), (1, 2, 4), (0, 0, 0), (0, 0, 0)),
    (6, (2, 5, 9), (2, 2, 3), (1, 1, 2), (0, 1, 0), (0, 0, 0)),
    # 999 pixels: two k blocks of the weight gradient, the second odd (bf16 pairs)
    (3, (1, 29, 41), (1, 3, 5), (1, 1, 1), (0, 0, 0), (0, 0, 0)),
    # rows of 300 pixels over 6 taps: SSE's bands (kernels/patches.pyx) hold
    # 75 pixels, four to a row, tiles starting new ones mid-row
    (2, (1, 3, 300), (1, 3, 1), (1, 1, 1), (0, 0, 0), (0, 1, 0)),
    # 1160 pixels, tiles along channels: the weight gradient's k blocks each
    # cover part of a channel (SSE's band of a block: a span per channel)
    (5, (1, 30, 41), (1, 2, 2), (1, 1, 1), (0, 0, 0), (0, 0, 0)),
]


def geometry(icg, ins, ks, ss, ds, ps):
    g = dict(icg=icg, kd=ks[0], kh=ks[1], kw=ks[2], sd=ss[0], sh=ss[1], sw=ss[2],
             dd=ds[0], dh=ds[1], dw=ds[2], pd=ps[0], ph=ps[1], pw=ps[2],
             id=ins[0], ih=ins[1], iw=ins[2])
    for o, i, k, s, d, p in zip(("od", "oh", "ow"), ins, ks, ss, ds, ps):
        g[o] = (i + 2 * p - ((k - 1) * (d + 1) + 1)) // s + 1
    return g


@pytest.mark.parametrize("threaded", [False, True])
@pytest.mark.parametrize("dt", ["f32", "bf16"])
@pytest.mark.parametrize("cl", [False, True])
@pytest.mark.parametrize("case", range(len(GEOMS)))
# X's columns: 37 leave a part panel at every level; 64 are whole panels,
# and then an f32 X by rows (a channels-last dY) is read in place too
@pytest.mark.parametrize("use,other", [
    ("P.X", 37), ("X.PT", 37), ("XT.P", 37), ("PT.X", 37), ("PT.X in place", 37),
    ("PT.X in place, X by rows", 37), ("PT.X in place, X by rows", 64)])
def test_patches_operand(kernels, isa, case, cl, dt, threaded, use, other):
    from helpers import bf16_bits, bf16_to_f32
    g = geometry(*GEOMS[case])
    rng = np.random.default_rng(case)
    icg, extra = g["icg"], 2           # the group starts 2 channels in
    ic_all = icg + extra
    ins = (g["id"], g["ih"], g["iw"])
    x_all = rng.standard_normal((ic_all,) + ins).astype(np.float32)
    if dt == "bf16":
        x_all = bf16_to_f32(bf16_bits(x_all))
    in_sp = int(np.prod(ins))
    if cl:      # (d, h, w, c)
        buf = np.ascontiguousarray(x_all.transpose(1, 2, 3, 0)).reshape(-1)
        g.update(c_stride=1, pix_stride=ic_all, cl=True)
        view = buf[extra:]
    else:
        buf = x_all.reshape(-1)
        g.update(c_stride=in_sp, pix_stride=1, cl=False)
        view = buf[extra * in_sp:]
    if dt == "bf16":
        view = bf16_bits(view)
    P = patch_matrix(x_all[extra:], g, cl)
    pix, taps = P.shape
    X = rng.standard_normal((taps if use in ("P.X", "X.PT") else pix, other)).astype(np.float32)
    if use == "PT.X in place":
        X = X.T.copy()      # X stored transposed, as a channels-first dY is
    if dt == "bf16":
        X = bf16_to_f32(bf16_bits(X))
    # (P's trans, P's side, X's trans, the product, (m, n, k))
    trans, side, xt, want, mnk = {
        "P.X": ("N", "left", "N", lambda: P @ X, (pix, other, taps)),
        "X.PT": ("T", "right", "T", lambda: X.T @ P.T, (other, pix, taps)),
        "XT.P": ("N", "right", "T", lambda: X.T @ P, (other, taps, pix)),
        "PT.X": ("T", "left", "N", lambda: P.T @ X, (taps, other, pix)),
        "PT.X in place": ("N", "in_place", "T", lambda: P.T @ X.T, (taps, other, pix)),
        "PT.X in place, X by rows": ("N", "in_place", "N", lambda: P.T @ X, (taps, other, pix)),
    }[use]
    want = want()
    Xarg = bf16_bits(X) if dt == "bf16" else X.reshape(-1)
    c = np.full((mnk[0], mnk[1] + 3), 7.0, np.float32)
    # a bias added to C's rows; in place, X's column sums (a weight
    # gradient's bias) added to a start
    extra = rng.standard_normal(mnk[1]).astype(np.float32)
    if side == "in_place":
        want_extra = extra + (X.T if use == "PT.X in place" else X).sum(axis=0)
    else:
        want, want_extra = want + extra, extra.copy()
    in_place = kernels.gemm_patches(view, g, trans, side, Xarg.reshape(-1), xt,
                                    pix if use == "PT.X in place" else other, *mnk, c, threaded,
                                    isa, extra)
    use = use.split(",")[0]
    # in place: every window inside src, tiles of 4 or more taps; f32, or bf16
    # where the level has bf16 dot products
    assert in_place == (use == "PT.X in place" and max(g["kw"], icg) >= 4
                        and g["pd"] == g["ph"] == g["pw"] == 0
                        and (dt == "f32" or isa == KERNEL_LEVELS["avx512_core_bf16"]))
    np.testing.assert_allclose(c[:, :mnk[1]], want, rtol=1e-4, atol=1e-4 * np.sqrt(mnk[2]))
    np.testing.assert_allclose(extra, want_extra, rtol=1e-5, atol=1e-5 * np.sqrt(pix))
    assert np.all(c[:, mnk[1]:] == 7.0)


# bf16 matrices (a convolution's weights and diff_dst, an RNN's states): at
# avx512_core_bf16 packed straight into pairs of k, both orientations of each
# operand; odd k (a last pair with a zero half), k over one block, m over a
# row block, n past a panel and under one; mixed with f32.
@pytest.mark.parametrize("dts", ["bf16.bf16", "bf16.f32", "f32.bf16"])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "N"), ("N", "T"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (11, 37, 7), (20, 32, 300), (96, 70, 1031),
                                   (300, 17, 45), (13, 5, 2)])
def test_gemm_bf16_matrices(kernels, isa, dts, ta, tb, m, n, k):
    from helpers import bf16_bits, bf16_to_f32
    rng = np.random.default_rng(m * n + k)
    da, db = dts.split(".")

    def operand(rows, cols, dt):
        x = rng.standard_normal((rows, cols + 3)).astype(np.float32)   # ld past the matrix
        if dt == "bf16":
            bits = bf16_bits(x)
            return bits, bf16_to_f32(bits)[:, :cols].astype(np.float64)
        return x, x[:, :cols].astype(np.float64)
    a, av = operand(*((m, k) if ta == "N" else (k, m)), da)
    b, bv = operand(*((k, n) if tb == "N" else (n, k)), db)
    c = rng.standard_normal((m, n + 2)).astype(np.float32)
    c0 = c.copy()
    bias = rng.standard_normal(n).astype(np.float32)    # added once, after the last k block
    kernels.gemm_matrices(a, ta, a.shape[1], b, tb, b.shape[1], m, n, k, 1.5, 0.5, c,
                          m > 50, isa, bias)
    want = (1.5 * ((av.T if ta == "T" else av) @ (bv.T if tb == "T" else bv))
            + 0.5 * c0[:, :n] + bias)
    np.testing.assert_allclose(c[:, :n], want, rtol=1e-4, atol=1e-4 * np.sqrt(k))
    assert np.array_equal(c[:, n:], c0[:, n:])
