# LRN kernels. The reference works on plain dense f32 and walks each window
# as written. The tiled kernels copy a tile of spatial positions, with every
# channel, into rows where a position's channels are contiguous between
# zeros; the rows lie end to end, so one flat pass of shifted vector loads
# computes every window sum of the tile. The C row kernels are in
# kernels/include/lrn_kernels.h, compiled once per ISA level
# (kernels/isa/lrn_isa.c); the tiled kernels take one level's table, the
# reference is level-free.

from cython.parallel cimport prange, parallel, threadid
from libc.string cimport memset
from libc.stdint cimport int64_t

from dnnl_c.dnnl_types cimport dnnl_bf16
from dnnl_c.kernels.types cimport bf16_t, data_t, put
from dnnl_c.kernels.openmp cimport omp_get_max_threads

cdef extern from "kernels/include/lrn_isa.h" nogil:
    float c_pow_neg "cydnnl_lrn_pow_neg"(float omega, float beta) noexcept
    const lrn_kernels_t *kernels_for "cydnnl_lrn_kernels_for"(int level) noexcept


cdef const lrn_kernels_t *lrn_kernels_for(int isa) noexcept nogil:
    return kernels_for(isa)


cdef float lrn_pow_neg(float omega, float beta) noexcept nogil:
    return c_pow_neg(omega, beta)


cdef inline int64_t half_size(const lrn_params_t *p) noexcept nogil:
    # window [i - half, i + half]; oneDNN's (size - 1) / 2 in C, so 0 for size 0
    return (p.local_size - 1) // 2 if p.local_size > 0 else 0


cdef inline int64_t imax(int64_t a, int64_t b) noexcept nogil:
    return a if a > b else b


cdef inline int64_t imin(int64_t a, int64_t b) noexcept nogil:
    return a if a < b else b


# ---------------------------------------------------------------- reference

cdef float window_sum(const lrn_params_t *p, const float *v, bint square, int64_t n,
                      int64_t c, int64_t d, int64_t h, int64_t w) noexcept nogil:
    """Sum of v (or v^2) over the window of (n, c, d, h, w), plain dense."""
    cdef int64_t half = half_size(p)
    cdef int64_t sp = p.D * p.H * p.W
    cdef int64_t c2, d2, h2, w2, i
    cdef float acc = 0, x
    if p.across:
        for c2 in range(imax(c - half, 0), imin(c + half + 1, p.C)):
            x = v[(n * p.C + c2) * sp + (d * p.H + h) * p.W + w]
            acc += x * x if square else x
        return acc
    for d2 in range(imax(d - half, 0), imin(d + half + 1, p.D)):
        for h2 in range(imax(h - half, 0), imin(h + half + 1, p.H)):
            for w2 in range(imax(w - half, 0), imin(w + half + 1, p.W)):
                x = v[(n * p.C + c) * sp + (d2 * p.H + h2) * p.W + w2]
                acc += x * x if square else x
    return acc


cdef void lrn_fwd_ref(const lrn_params_t *p, const float *src, float *dst) noexcept nogil:
    cdef int64_t plane, n, c, d, h, w, i
    cdef int64_t sp = p.D * p.H * p.W
    cdef float scale = p.alpha / p.summands, omega
    for plane in prange(p.N * p.C, schedule='static'):
        n = plane // p.C
        c = plane % p.C
        for d in range(p.D):
            for h in range(p.H):
                for w in range(p.W):
                    i = plane * sp + (d * p.H + h) * p.W + w
                    omega = p.k + scale * window_sum(p, src, True, n, c, d, h, w)
                    dst[i] = src[i] * c_pow_neg(omega, p.beta)


cdef void lrn_bwd_ref(const lrn_params_t *p, const float *src, float *diff,
                      float *work) noexcept nogil:
    # diff_src_i = dd_i*O_i^-b - 2ab/n * x_i * sum_{j in window(i)} O_j^-b/O_j * x_j * dd_j;
    # pass 1 leaves dd_i*O_i^-b in diff and the summand x_i*dd_i*O_i^-b/O_i in work
    cdef int64_t plane, n, c, d, h, w, i
    cdef int64_t sp = p.D * p.H * p.W
    cdef float scale = p.alpha / p.summands
    cdef float coef = 2.0 * p.alpha * p.beta / p.summands
    cdef float omega, a
    for plane in prange(p.N * p.C, schedule='static'):
        n = plane // p.C
        c = plane % p.C
        for d in range(p.D):
            for h in range(p.H):
                for w in range(p.W):
                    i = plane * sp + (d * p.H + h) * p.W + w
                    omega = p.k + scale * window_sum(p, src, True, n, c, d, h, w)
                    a = c_pow_neg(omega, p.beta) * diff[i]
                    diff[i] = a
                    work[i] = src[i] * a / omega
    for plane in prange(p.N * p.C, schedule='static'):
        n = plane // p.C
        c = plane % p.C
        for d in range(p.D):
            for h in range(p.H):
                for w in range(p.W):
                    i = plane * sp + (d * p.H + h) * p.W + w
                    diff[i] = diff[i] - coef * src[i] * window_sum(p, work, False, n, c, d, h,
                                                                   w)


# ---------------------------------------------------------------- tiled

cdef inline int64_t pad_of(const lrn_params_t *p) noexcept nogil:
    # a window never needs more than C - 1 channels on either side
    return imin(half_size(p), p.C - 1)


cdef inline int64_t row_len(const lrn_params_t *p) noexcept nogil:
    # a position's channels between pad zeros on each side
    return p.C + 2 * pad_of(p)


cdef int64_t lrn_pick_tile(const lrn_params_t *p, int nthr) noexcept nogil:
    # rows per tile: a buffer of about 64 KiB, and enough tasks for the threads
    cdef int64_t tile = imax(1, imin(1024, 16384 // imax(row_len(p), 1)))
    cdef int64_t want = 4 * nthr
    if p.N * ((p.S + tile - 1) // tile) < want:
        tile = imax(1, p.N * p.S // want)
    return tile


cdef int64_t lrn_tile_floats(const lrn_params_t *p, bint bwd) noexcept nogil:
    # fwd: x, y; bwd: x, diff (dd, then a, then diff_src), b; whole cache lines
    return ((3 if bwd else 2) * p.tile * row_len(p) + 15) // 16 * 16


cdef inline void copy_in(const lrn_kernels_t *uk, float *dst, int64_t ld, const data_t *src,
                         int64_t ls, int64_t rows, int64_t n) noexcept nogil:
    if data_t is float:
        uk.in_f32(dst, ld, src, ls, rows, n)
    else:
        uk.in_bf16(dst, ld, src, ls, rows, n)


cdef inline void copy_out(const lrn_kernels_t *uk, data_t *dst, int64_t ld, const float *src,
                          int64_t ls, int64_t rows, int64_t n) noexcept nogil:
    if data_t is float:
        uk.out_f32(dst, ld, src, ls, rows, n)
    else:
        uk.out_bf16(dst, ld, src, ls, rows, n)


cdef void gather(const lrn_kernels_t *uk, const lrn_params_t *p, const data_t *src,
                 float *buf, int64_t tn, int64_t L, int64_t pad) noexcept nogil:
    """buf[t*L + pad + c] = src(c, t) for the tile's tn positions, a block
    of channels (one channel when blk is 1) at a time; the zeros between
    rows stay."""
    cdef int64_t cb
    for cb in range((p.C + p.blk - 1) // p.blk):
        copy_in(uk, buf + pad + cb * p.blk, L, src + cb * p.sc, p.ss, tn,
                imin(p.blk, p.C - cb * p.blk))


cdef void scatter(const lrn_kernels_t *uk, const lrn_params_t *p, const float *buf,
                  data_t *dst, int64_t tn, int64_t L, int64_t pad) noexcept nogil:
    """The inverse of gather; zeroes the padded channels of a last block."""
    cdef int64_t t, cb, ci, cn
    cdef data_t *q
    for cb in range((p.C + p.blk - 1) // p.blk):
        q = dst + cb * p.sc
        cn = imin(p.blk, p.C - cb * p.blk)
        copy_out(uk, q, p.ss, buf + pad + cb * p.blk, L, tn, cn)
        # a last block of 8 channels in 16 (or 16 in 32) has padding too
        if cn < p.blk:
            for t in range(tn):
                for ci in range(cn, p.blk):
                    put(q + t * p.ss, ci, 0.0)


cdef void fwd_tile(const lrn_kernels_t *uk, const lrn_params_t *p, const data_t *src,
                   data_t *dst, float *buf, int64_t n, int64_t s0) noexcept nogil:
    cdef int64_t pad = pad_of(p), L = row_len(p)
    cdef int64_t tn = imin(p.tile, p.S - s0)
    cdef float *X = buf
    cdef float *Y = buf + p.tile * L
    cdef int64_t off = n * p.sn + s0 * p.ss
    gather(uk, p, src + off, X, tn, L, pad)
    # every position from the first row's first channel to the last row's
    # last one; windows of the zeros between rows are computed and unused
    uk.fwd_run(Y + pad, X + pad, tn * L - 2 * pad, pad, p.k, p.alpha / p.summands, p.beta)
    scatter(uk, p, Y, dst + off, tn, L, pad)


cdef void bwd_tile(const lrn_kernels_t *uk, const lrn_params_t *p, const data_t *src,
                   const data_t *diff_dst, data_t *diff_src, float *buf, int64_t n,
                   int64_t s0) noexcept nogil:
    cdef int64_t pad = pad_of(p), L = row_len(p), C = p.C
    cdef int64_t tn = imin(p.tile, p.S - s0), t, j
    cdef float *X = buf
    cdef float *D = X + p.tile * L
    cdef float *B = D + p.tile * L
    cdef int64_t off = n * p.sn + s0 * p.ss
    gather(uk, p, src + off, X, tn, L, pad)
    gather(uk, p, diff_dst + off, D, tn, L, pad)
    uk.bwd_run1(D + pad, B + pad, X + pad, tn * L - 2 * pad, pad, p.k, p.alpha / p.summands,
                p.beta)
    # the second pass sums b over windows: between rows it must be zero
    # (stores, not memset: a call per 2-float run cost a third of the time)
    for t in range(tn):
        for j in range(pad):
            B[t * L + j] = 0
            B[t * L + pad + C + j] = 0
    uk.bwd_run2(D + pad, B + pad, X + pad, tn * L - 2 * pad, pad,
                2.0 * p.alpha * p.beta / p.summands)
    scatter(uk, p, D, diff_src + off, tn, L, pad)


cdef void fwd_tiled_impl(const lrn_kernels_t *uk, const lrn_params_t *p, const data_t *src,
                         data_t *dst, float *work) noexcept nogil:
    cdef int64_t per = lrn_tile_floats(p, False)
    cdef int64_t ntile = (p.S + p.tile - 1) // p.tile
    cdef int64_t task
    cdef float *buf = NULL
    cdef int nthr = imin(p.nthr, omp_get_max_threads())
    with parallel(num_threads=nthr if nthr > 0 else 1):
        buf = work + threadid() * per
        memset(buf, 0, per * sizeof(float))
        for task in prange(p.N * ntile, schedule='static'):
            fwd_tile(uk, p, src, dst, buf, task // ntile, (task % ntile) * p.tile)


cdef void bwd_tiled_impl(const lrn_kernels_t *uk, const lrn_params_t *p, const data_t *src,
                         const data_t *diff_dst, data_t *diff_src, float *work) noexcept nogil:
    cdef int64_t per = lrn_tile_floats(p, True)
    cdef int64_t ntile = (p.S + p.tile - 1) // p.tile
    cdef int64_t task
    cdef float *buf = NULL
    cdef int nthr = imin(p.nthr, omp_get_max_threads())
    with parallel(num_threads=nthr if nthr > 0 else 1):
        buf = work + threadid() * per
        memset(buf, 0, per * sizeof(float))
        for task in prange(p.N * ntile, schedule='static'):
            bwd_tile(uk, p, src, diff_dst, diff_src, buf, task // ntile,
                     (task % ntile) * p.tile)


cdef void lrn_across_fwd_tiled(const lrn_kernels_t *uk, const lrn_params_t *p,
                               const char *src, char *dst, int dt, float *work) noexcept nogil:
    if p.N * p.C * p.S == 0:
        return
    if dt == dnnl_bf16:
        fwd_tiled_impl(uk, p, <const bf16_t *>src, <bf16_t *>dst, work)
    else:
        fwd_tiled_impl(uk, p, <const float *>src, <float *>dst, work)


cdef void lrn_across_bwd_tiled(const lrn_kernels_t *uk, const lrn_params_t *p,
                               const char *src, const char *diff_dst, char *diff_src, int dt,
                               float *work) noexcept nogil:
    if p.N * p.C * p.S == 0:
        return
    if dt == dnnl_bf16:
        bwd_tiled_impl(uk, p, <const bf16_t *>src, <const bf16_t *>diff_dst,
                       <bf16_t *>diff_src, work)
    else:
        bwd_tiled_impl(uk, p, <const float *>src, <const float *>diff_dst, <float *>diff_src,
                       work)


# ---------------------------------------------------------------- direct

cdef extern from "kernels/include/lrn_isa.h" nogil:
    int DIRECT_MAXC "CYDNNL_LRN_DIRECT_MAXC"
    int DIRECT_MAXH "CYDNNL_LRN_DIRECT_MAXH"


cdef bint lrn_direct_ok(const lrn_kernels_t *uk, const lrn_params_t *p, bint fwd) noexcept nogil:
    return ((uk.fwd_direct if fwd else uk.bwd_direct) != NULL and p.across and p.beta == 0.75
            and pad_of(p) <= DIRECT_MAXH and p.C <= DIRECT_MAXC
            and (p.blk == 16 or (p.blk == p.C and p.sc == 0)))


cdef void lrn_across_direct(const lrn_kernels_t *uk, const lrn_params_t *p, bint fwd,
                            const char *a, const char *b, char *c, int dt) noexcept nogil:
    cdef int64_t ntile = (p.S + p.tile - 1) // p.tile
    cdef int64_t esz = 2 if dt == dnnl_bf16 else 4
    # channels-last: the kernel's vectors of 16 lie end to end
    cdef int64_t sc = 16 if p.blk == p.C else p.sc
    cdef int pad_lanes = p.blk != p.C
    cdef float scale = p.alpha / p.summands
    cdef float coef = 2.0 * p.alpha * p.beta / p.summands
    cdef int64_t task, s0, off
    cdef int nthr = imin(p.nthr, omp_get_max_threads())
    if p.N * p.C * p.S == 0:
        return
    for task in prange(p.N * ntile, schedule='static', num_threads=nthr if nthr > 0 else 1):
        s0 = (task % ntile) * p.tile
        off = ((task // ntile) * p.sn + s0 * p.ss) * esz
        if fwd:
            uk.fwd_direct(a + off, <char *>b + off, dt == dnnl_bf16, imin(p.tile, p.S - s0), p.ss,
                          sc, p.C, pad_of(p), pad_lanes, p.k, scale)
        else:
            uk.bwd_direct(a + off, b + off, c + off, dt == dnnl_bf16, imin(p.tile, p.S - s0),
                          p.ss, sc, p.C, pad_of(p), pad_lanes, p.k, scale, coef)
