# LRN kernels. The reference works on plain dense f32 and walks each window
# as written. The tiled kernels copy a tile of spatial positions, with every
# channel, into rows where a position's channels are contiguous between
# zeros; the rows lie end to end, so one flat pass of shifted vector loads
# computes every window sum of the tile. The C row kernels are in
# kernels/include/lrn_kernels.h.

from cython.parallel cimport prange, parallel, threadid
from libc.string cimport memset
from libc.stdint cimport int64_t

from dnnl_c.dnnl_types cimport dnnl_bf16
from dnnl_c.kernels.types cimport bf16_t, data_t, get, put
from dnnl_c.kernels.openmp cimport omp_get_max_threads

cdef extern from "kernels/include/lrn_kernels.h" nogil:
    void in_f32 "cydnnl_lrn_in_f32"(float *d, const float *s, int64_t n) noexcept
    void in_bf16 "cydnnl_lrn_in_bf16"(float *d, const bf16_t *s, int64_t n) noexcept
    void out_f32 "cydnnl_lrn_out_f32"(float *d, const float *s, int64_t n) noexcept
    void out_bf16 "cydnnl_lrn_out_bf16"(bf16_t *d, const float *s, int64_t n) noexcept
    float c_pow_neg "cydnnl_lrn_pow_neg"(float omega, float beta) noexcept
    void fwd_run "cydnnl_lrn_fwd_run"(float *y, const float *x, int64_t n, int64_t h, float k,
                                      float scale, float beta) noexcept
    void bwd_run1 "cydnnl_lrn_bwd_run1"(float *dd, float *b, const float *x, int64_t n,
                                        int64_t h, float k, float scale,
                                        float beta) noexcept
    void bwd_run2 "cydnnl_lrn_bwd_run2"(float *a, const float *b, const float *x, int64_t n,
                                        int64_t h, float coef) noexcept


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


cdef inline void copy_in(float *dst, const data_t *src, int64_t n) noexcept nogil:
    if data_t is float:
        in_f32(dst, src, n)
    else:
        in_bf16(dst, src, n)


cdef inline void copy_out(data_t *dst, const float *src, int64_t n) noexcept nogil:
    if data_t is float:
        out_f32(dst, src, n)
    else:
        out_bf16(dst, src, n)


cdef void gather(const lrn_params_t *p, const data_t *src, float *buf, int64_t tn,
                 int64_t L, int64_t pad) noexcept nogil:
    """buf[t*L + pad + c] = src(c, t) for the tile's tn positions; the zeros
    between rows stay."""
    cdef int64_t c, t, cb, cn
    cdef const data_t *q
    cdef float *row
    if p.blk == 1:
        for c in range(p.C):
            q = src + c * p.sc
            row = buf + pad + c
            if p.ss == 1:
                for t in range(tn):
                    row[t * L] = get(q, t)
            else:
                for t in range(tn):
                    row[t * L] = get(q, t * p.ss)
        return
    for cb in range((p.C + p.blk - 1) // p.blk):
        q = src + cb * p.sc
        row = buf + pad + cb * p.blk
        cn = imin(p.blk, p.C - cb * p.blk)
        if cn == 16:
            for t in range(tn):
                copy_in(row + t * L, q + t * p.ss, 16)
        elif cn == 8:
            for t in range(tn):
                copy_in(row + t * L, q + t * p.ss, 8)
        else:
            for t in range(tn):
                copy_in(row + t * L, q + t * p.ss, cn)


cdef void scatter(const lrn_params_t *p, const float *buf, data_t *dst, int64_t tn,
                  int64_t L, int64_t pad) noexcept nogil:
    """The inverse of gather; zeroes the padded channels of a last block."""
    cdef int64_t c, t, cb, ci, cn
    cdef data_t *q
    cdef const float *row
    if p.blk == 1:
        for c in range(p.C):
            q = dst + c * p.sc
            row = buf + pad + c
            if p.ss == 1:
                for t in range(tn):
                    put(q, t, row[t * L])
            else:
                for t in range(tn):
                    put(q, t * p.ss, row[t * L])
        return
    for cb in range((p.C + p.blk - 1) // p.blk):
        q = dst + cb * p.sc
        row = buf + pad + cb * p.blk
        cn = imin(p.blk, p.C - cb * p.blk)
        if cn == 16:
            for t in range(tn):
                copy_out(q + t * p.ss, row + t * L, 16)
        elif cn == 8:
            for t in range(tn):
                copy_out(q + t * p.ss, row + t * L, 8)
        else:
            for t in range(tn):
                copy_out(q + t * p.ss, row + t * L, cn)
        # a last block of 8 channels in 16 (or 16 in 32) has padding too
        if cn < p.blk:
            for t in range(tn):
                for ci in range(cn, p.blk):
                    put(q + t * p.ss, ci, 0.0)


cdef void fwd_tile(const lrn_params_t *p, const data_t *src, data_t *dst, float *buf,
                   int64_t n, int64_t s0) noexcept nogil:
    cdef int64_t pad = pad_of(p), L = row_len(p)
    cdef int64_t tn = imin(p.tile, p.S - s0)
    cdef float *X = buf
    cdef float *Y = buf + p.tile * L
    cdef int64_t off = n * p.sn + s0 * p.ss
    gather(p, src + off, X, tn, L, pad)
    # every position from the first row's first channel to the last row's
    # last one; windows of the zeros between rows are computed and unused
    fwd_run(Y + pad, X + pad, tn * L - 2 * pad, pad, p.k, p.alpha / p.summands, p.beta)
    scatter(p, Y, dst + off, tn, L, pad)


cdef void bwd_tile(const lrn_params_t *p, const data_t *src, const data_t *diff_dst,
                   data_t *diff_src, float *buf, int64_t n, int64_t s0) noexcept nogil:
    cdef int64_t pad = pad_of(p), L = row_len(p), C = p.C
    cdef int64_t tn = imin(p.tile, p.S - s0), t
    cdef float *X = buf
    cdef float *D = X + p.tile * L
    cdef float *B = D + p.tile * L
    cdef int64_t off = n * p.sn + s0 * p.ss
    gather(p, src + off, X, tn, L, pad)
    gather(p, diff_dst + off, D, tn, L, pad)
    bwd_run1(D + pad, B + pad, X + pad, tn * L - 2 * pad, pad, p.k, p.alpha / p.summands,
             p.beta)
    # the second pass sums b over windows: between rows it must be zero
    for t in range(tn):
        memset(B + t * L, 0, pad * sizeof(float))
        memset(B + t * L + pad + C, 0, pad * sizeof(float))
    bwd_run2(D + pad, B + pad, X + pad, tn * L - 2 * pad, pad,
             2.0 * p.alpha * p.beta / p.summands)
    scatter(p, D, diff_src + off, tn, L, pad)


cdef void fwd_tiled_impl(const lrn_params_t *p, const data_t *src, data_t *dst,
                         float *work) noexcept nogil:
    cdef int64_t per = lrn_tile_floats(p, False)
    cdef int64_t ntile = (p.S + p.tile - 1) // p.tile
    cdef int64_t task
    cdef float *buf = NULL
    cdef int nthr = imin(p.nthr, omp_get_max_threads())
    with parallel(num_threads=nthr if nthr > 0 else 1):
        buf = work + threadid() * per
        memset(buf, 0, per * sizeof(float))
        for task in prange(p.N * ntile, schedule='static'):
            fwd_tile(p, src, dst, buf, task // ntile, (task % ntile) * p.tile)


cdef void bwd_tiled_impl(const lrn_params_t *p, const data_t *src, const data_t *diff_dst,
                         data_t *diff_src, float *work) noexcept nogil:
    cdef int64_t per = lrn_tile_floats(p, True)
    cdef int64_t ntile = (p.S + p.tile - 1) // p.tile
    cdef int64_t task
    cdef float *buf = NULL
    cdef int nthr = imin(p.nthr, omp_get_max_threads())
    with parallel(num_threads=nthr if nthr > 0 else 1):
        buf = work + threadid() * per
        memset(buf, 0, per * sizeof(float))
        for task in prange(p.N * ntile, schedule='static'):
            bwd_tile(p, src, diff_dst, diff_src, buf, task // ntile, (task % ntile) * p.tile)


cdef void lrn_across_fwd_tiled(const lrn_params_t *p, const char *src, char *dst, int dt,
                               float *work) noexcept nogil:
    if p.N * p.C * p.S == 0:
        return
    if dt == dnnl_bf16:
        fwd_tiled_impl(p, <const bf16_t *>src, <bf16_t *>dst, work)
    else:
        fwd_tiled_impl(p, <const float *>src, <float *>dst, work)


cdef void lrn_across_bwd_tiled(const lrn_params_t *p, const char *src, const char *diff_dst,
                               char *diff_src, int dt, float *work) noexcept nogil:
    if p.N * p.C * p.S == 0:
        return
    if dt == dnnl_bf16:
        bwd_tiled_impl(p, <const bf16_t *>src, <const bf16_t *>diff_dst, <bf16_t *>diff_src,
                       work)
    else:
        bwd_tiled_impl(p, <const float *>src, <const float *>diff_dst, <float *>diff_src, work)
