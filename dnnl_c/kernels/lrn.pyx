# LRN kernels. The reference works on plain dense f32 and walks each window
# as written. The tiled kernels copy a tile of spatial positions, with every
# channel, into rows where a position's channels are contiguous between
# zeros; the rows lie end to end, so one flat pass of shifted vector loads
# computes every window sum of the tile.

from cython.parallel cimport prange, parallel, threadid
from libc.string cimport memset
from libc.stdint cimport int64_t

from dnnl_c.dnnl_types cimport dnnl_bf16
from dnnl_c.kernels.types cimport bf16_t, data_t, get, put
from dnnl_c.kernels.openmp cimport omp_get_max_threads

cdef extern from *:
    """
    #include <math.h>
    #include <stdint.h>
    #if defined(__AVX512F__) || defined(__AVX__)
    #include <immintrin.h>
    #endif
    #if defined(__FMA__)
    #define CYDNNL_LRN_MADD(a, b, c) fmaf((a), (b), (c))
    #else
    #define CYDNNL_LRN_MADD(a, b, c) ((a) * (b) + (c))
    #endif

    /* Row copies with conversion; __restrict lets gcc vectorise them. The bf16
       converters come from kernels/bf16.pxd, whose code precedes this. */
    static inline void cydnnl_lrn_in_f32(float *__restrict d, const float *__restrict s,
                                         int64_t n) {
        for (int64_t i = 0; i < n; i++) d[i] = s[i];
    }
    static inline void cydnnl_lrn_in_bf16(float *__restrict d, const uint16_t *__restrict s,
                                          int64_t n) {
        for (int64_t i = 0; i < n; i++) d[i] = cydnnl_bf16_to_f32(s[i]);
    }
    static inline void cydnnl_lrn_out_f32(float *__restrict d, const float *__restrict s,
                                          int64_t n) {
        for (int64_t i = 0; i < n; i++) d[i] = s[i];
    }
    static inline void cydnnl_lrn_out_bf16(uint16_t *__restrict d, const float *__restrict s,
                                           int64_t n) {
        for (int64_t i = 0; i < n; i++) d[i] = cydnnl_f32_to_bf16(s[i]);
    }

    /* oneDNN's fast path for beta = 0.75: omega^-3/4 from two square roots. */
    static inline float cydnnl_lrn_pow_neg(float omega, float beta) {
        if (beta == 0.75f) {
            float s = sqrtf(omega);
            return 1.0f / (s * sqrtf(s));
        }
        return 1.0f / powf(omega, beta);
    }

    /* Vector registers where the build has them: gcc does not vectorise
       sqrtf while it may set errno. The scalar tails compute the same
       expressions, and IEEE sqrt and division round alike at every width. */
    #if defined(__AVX512F__)
    #define CYDNNL_LRN_VW 16
    typedef __m512 cydnnl_lrn_v;
    #define CYDNNL_LRN_VLOAD _mm512_loadu_ps
    #define CYDNNL_LRN_VSTORE _mm512_storeu_ps
    #define CYDNNL_LRN_VSET1 _mm512_set1_ps
    #define CYDNNL_LRN_VZERO _mm512_setzero_ps
    #define CYDNNL_LRN_VMUL _mm512_mul_ps
    #define CYDNNL_LRN_VADD _mm512_add_ps
    #define CYDNNL_LRN_VSUB _mm512_sub_ps
    #define CYDNNL_LRN_VDIV _mm512_div_ps
    #define CYDNNL_LRN_VSQRT _mm512_sqrt_ps
    #define CYDNNL_LRN_VMADD _mm512_fmadd_ps
    #elif defined(__AVX__)
    #define CYDNNL_LRN_VW 8
    typedef __m256 cydnnl_lrn_v;
    #define CYDNNL_LRN_VLOAD _mm256_loadu_ps
    #define CYDNNL_LRN_VSTORE _mm256_storeu_ps
    #define CYDNNL_LRN_VSET1 _mm256_set1_ps
    #define CYDNNL_LRN_VZERO _mm256_setzero_ps
    #define CYDNNL_LRN_VMUL _mm256_mul_ps
    #define CYDNNL_LRN_VADD _mm256_add_ps
    #define CYDNNL_LRN_VSUB _mm256_sub_ps
    #define CYDNNL_LRN_VDIV _mm256_div_ps
    #define CYDNNL_LRN_VSQRT _mm256_sqrt_ps
    #if defined(__FMA__)
    #define CYDNNL_LRN_VMADD _mm256_fmadd_ps
    #else
    #define CYDNNL_LRN_VMADD(a, b, c) _mm256_add_ps(_mm256_mul_ps((a), (b)), (c))
    #endif
    #endif

    /* omega_i = k + scale * sum_{j=-h..h} x[i+j]^2 */
    static inline float cydnnl_lrn_omega(const float *x, int64_t h, float k, float scale) {
        float acc = 0.0f;
        for (int64_t j = -h; j <= h; j++)
            acc = CYDNNL_LRN_MADD(x[j], x[j], acc);
        return CYDNNL_LRN_MADD(scale, acc, k);
    }
    #ifdef CYDNNL_LRN_VW
    static inline cydnnl_lrn_v cydnnl_lrn_vomega(const float *x, int64_t h, cydnnl_lrn_v k,
                                                 cydnnl_lrn_v scale) {
        cydnnl_lrn_v acc = CYDNNL_LRN_VZERO();
        for (int64_t j = -h; j <= h; j++) {
            cydnnl_lrn_v v = CYDNNL_LRN_VLOAD(x + j);
            acc = CYDNNL_LRN_VMADD(v, v, acc);
        }
        return CYDNNL_LRN_VMADD(scale, acc, k);
    }
    static inline cydnnl_lrn_v cydnnl_lrn_vpow075(cydnnl_lrn_v omega) {
        cydnnl_lrn_v s = CYDNNL_LRN_VSQRT(omega);
        return CYDNNL_LRN_VDIV(CYDNNL_LRN_VSET1(1.0f), CYDNNL_LRN_VMUL(s, CYDNNL_LRN_VSQRT(s)));
    }
    #endif

    /* Forward over n flat positions: y[i] = x[i] * omega_i^-beta. x is read
       from x - h to x + n + h. */
    static void cydnnl_lrn_fwd_run(float *y, const float *x, int64_t n, int64_t h, float k,
                                   float scale, float beta) {
        int64_t i = 0;
    #ifdef CYDNNL_LRN_VW
        const cydnnl_lrn_v vk = CYDNNL_LRN_VSET1(k), vs = CYDNNL_LRN_VSET1(scale);
        if (beta == 0.75f) {
            for (; i + CYDNNL_LRN_VW <= n; i += CYDNNL_LRN_VW) {
                cydnnl_lrn_v f = cydnnl_lrn_vpow075(cydnnl_lrn_vomega(x + i, h, vk, vs));
                CYDNNL_LRN_VSTORE(y + i, CYDNNL_LRN_VMUL(CYDNNL_LRN_VLOAD(x + i), f));
            }
        } else {
            /* window sums in vectors, powf one by one */
            for (; i + CYDNNL_LRN_VW <= n; i += CYDNNL_LRN_VW)
                CYDNNL_LRN_VSTORE(y + i, cydnnl_lrn_vomega(x + i, h, vk, vs));
            for (int64_t q = 0; q < i; q++)
                y[q] = x[q] * cydnnl_lrn_pow_neg(y[q], beta);
        }
    #endif
        for (; i < n; i++)
            y[i] = x[i] * cydnnl_lrn_pow_neg(cydnnl_lrn_omega(x + i, h, k, scale), beta);
    }

    /* Backward, first pass over n flat positions: a[i] = dd[i] * omega_i^-beta
       (in place of dd), b[i] = x[i] * a[i] / omega_i. */
    static void cydnnl_lrn_bwd_run1(float *dd, float *b, const float *x, int64_t n, int64_t h,
                                    float k, float scale, float beta) {
        int64_t i = 0;
        float omega, a;
    #ifdef CYDNNL_LRN_VW
        const cydnnl_lrn_v vk = CYDNNL_LRN_VSET1(k), vs = CYDNNL_LRN_VSET1(scale);
        if (beta == 0.75f) {
            /* r = omega^-7/4 with one division: omega^-3/4 = omega * r and
               x * a / omega = x * dd * r */
            for (; i + CYDNNL_LRN_VW <= n; i += CYDNNL_LRN_VW) {
                cydnnl_lrn_v om = cydnnl_lrn_vomega(x + i, h, vk, vs);
                cydnnl_lrn_v s = CYDNNL_LRN_VSQRT(om);
                cydnnl_lrn_v r = CYDNNL_LRN_VDIV(CYDNNL_LRN_VSET1(1.0f), CYDNNL_LRN_VMUL(
                    CYDNNL_LRN_VMUL(om, s), CYDNNL_LRN_VSQRT(s)));
                cydnnl_lrn_v vd = CYDNNL_LRN_VLOAD(dd + i);
                CYDNNL_LRN_VSTORE(dd + i, CYDNNL_LRN_VMUL(CYDNNL_LRN_VMUL(om, r), vd));
                CYDNNL_LRN_VSTORE(b + i, CYDNNL_LRN_VMUL(
                    CYDNNL_LRN_VMUL(CYDNNL_LRN_VLOAD(x + i), vd), r));
            }
        } else {
            for (; i + CYDNNL_LRN_VW <= n; i += CYDNNL_LRN_VW)
                CYDNNL_LRN_VSTORE(b + i, cydnnl_lrn_vomega(x + i, h, vk, vs));
            for (int64_t q = 0; q < i; q++) {
                omega = b[q];
                a = cydnnl_lrn_pow_neg(omega, beta) * dd[q];
                dd[q] = a;
                b[q] = x[q] * a / omega;
            }
        }
    #endif
        for (; i < n; i++) {
            omega = cydnnl_lrn_omega(x + i, h, k, scale);
            if (beta == 0.75f) {
                float s = sqrtf(omega);
                float r = 1.0f / (omega * s * sqrtf(s));
                b[i] = x[i] * dd[i] * r;
                dd[i] = omega * r * dd[i];
            } else {
                a = cydnnl_lrn_pow_neg(omega, beta) * dd[i];
                dd[i] = a;
                b[i] = x[i] * a / omega;
            }
        }
    }

    /* Backward, second pass: a[i] -= coef * x[i] * sum_{j=-h..h} b[i+j]. */
    static void cydnnl_lrn_bwd_run2(float *a, const float *b, const float *x, int64_t n,
                                    int64_t h, float coef) {
        int64_t i = 0, j;
        float acc;
    #ifdef CYDNNL_LRN_VW
        const cydnnl_lrn_v vc = CYDNNL_LRN_VSET1(coef);
        for (; i + CYDNNL_LRN_VW <= n; i += CYDNNL_LRN_VW) {
            cydnnl_lrn_v vacc = CYDNNL_LRN_VZERO();
            for (j = -h; j <= h; j++)
                vacc = CYDNNL_LRN_VADD(vacc, CYDNNL_LRN_VLOAD(b + i + j));
            CYDNNL_LRN_VSTORE(a + i, CYDNNL_LRN_VSUB(CYDNNL_LRN_VLOAD(a + i), CYDNNL_LRN_VMUL(
                CYDNNL_LRN_VMUL(vc, CYDNNL_LRN_VLOAD(x + i)), vacc)));
        }
    #endif
        for (; i < n; i++) {
            acc = 0.0f;
            for (j = -h; j <= h; j++)
                acc += b[i + j];
            a[i] = a[i] - coef * x[i] * acc;
        }
    }
    """
    void in_f32 "cydnnl_lrn_in_f32"(float *d, const float *s, int64_t n) noexcept nogil
    void in_bf16 "cydnnl_lrn_in_bf16"(float *d, const bf16_t *s, int64_t n) noexcept nogil
    void out_f32 "cydnnl_lrn_out_f32"(float *d, const float *s, int64_t n) noexcept nogil
    void out_bf16 "cydnnl_lrn_out_bf16"(bf16_t *d, const float *s, int64_t n) noexcept nogil
    float c_pow_neg "cydnnl_lrn_pow_neg"(float omega, float beta) noexcept nogil
    void fwd_run "cydnnl_lrn_fwd_run"(float *y, const float *x, int64_t n, int64_t h, float k,
                                      float scale, float beta) noexcept nogil
    void bwd_run1 "cydnnl_lrn_bwd_run1"(float *dd, float *b, const float *x, int64_t n,
                                        int64_t h, float k, float scale,
                                        float beta) noexcept nogil
    void bwd_run2 "cydnnl_lrn_bwd_run2"(float *a, const float *b, const float *x, int64_t n,
                                        int64_t h, float coef) noexcept nogil


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
