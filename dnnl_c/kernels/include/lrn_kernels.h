/* LRN row kernels: window sums and omega^-beta over flat runs of
   positions, in vector registers. Compiled once per ISA level
   (kernels/isa/lrn_isa.c): the level's flags choose the width (16 lanes
   with AVX-512, 8 with AVX, 4 with SSE). */
#ifndef CYDNNL_LRN_KERNELS_H
#define CYDNNL_LRN_KERNELS_H
#include <math.h>
#include "cydnnl_common.h"
#include "lrn_isa.h"
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#if defined(__FMA__)
#define CYDNNL_LRN_MADD(a, b, c) fmaf((a), (b), (c))
#else
#define CYDNNL_LRN_MADD(a, b, c) ((a) * (b) + (c))
#endif

/* Copies of rows of n elements with conversion (the bf16 converters come
   from cydnnl_common.h); restrict and a constant n for the channel blocks
   of 8 and 16 let gcc turn a row into a few vector moves. */
#define CYDNNL_LRN_COPY(name, TD, TS, CONV)                                          \
CYDNNL_INLINE void name##_row(TD *CYDNNL_RESTRICT d, const TS *CYDNNL_RESTRICT s,    \
                              int64_t n) {                                           \
    for (int64_t i = 0; i < n; i++) d[i] = CONV(s[i]);                               \
}                                                                                    \
static void name(TD *CYDNNL_RESTRICT d, int64_t ld, const TS *CYDNNL_RESTRICT s,     \
                 int64_t ls, int64_t rows, int64_t n) {                              \
    int64_t r;                                                                       \
    if (n == 16)                                                                     \
        for (r = 0; r < rows; r++) name##_row(d + r * ld, s + r * ls, 16);           \
    else if (n == 8)                                                                 \
        for (r = 0; r < rows; r++) name##_row(d + r * ld, s + r * ls, 8);            \
    else if (n == 1)                                                                 \
        for (r = 0; r < rows; r++) d[r * ld] = CONV(s[r * ls]);                      \
    else if (n % 16 == 0)  /* channels-last rows: no memcpy call per row */         \
        for (r = 0; r < rows; r++)                                                   \
            for (int64_t i = 0; i < n; i += 16)                                      \
                name##_row(d + r * ld + i, s + r * ls + i, 16);                      \
    else if (n % 8 == 0)                                                             \
        for (r = 0; r < rows; r++)                                                   \
            for (int64_t i = 0; i < n; i += 8)                                       \
                name##_row(d + r * ld + i, s + r * ls + i, 8);                       \
    else                                                                             \
        for (r = 0; r < rows; r++) name##_row(d + r * ld, s + r * ls, n);            \
}
#define CYDNNL_LRN_SAME(v) (v)
CYDNNL_LRN_COPY(cydnnl_lrn_copy_f32, float, float, CYDNNL_LRN_SAME)
CYDNNL_LRN_COPY(cydnnl_lrn_in_bf16, float, uint16_t, cydnnl_bf16_to_f32)
/* Into bf16 by cydnnl_f32_to_bf16_run, whose steps round whole vectors
   where no lane needs more than the rounding (the copy above rounds
   through GCC's vectorised selects: AlexNet's bf16 mb32 LRN on a Zen 5
   core at sse41, forward 13.7 ms that way against 10.9, backward 19.7
   against 17.9; at avx2 6.8 against 6.3, 10.7 against 10.4). */
static void cydnnl_lrn_out_bf16(uint16_t *CYDNNL_RESTRICT d, int64_t ld,
                                const float *CYDNNL_RESTRICT s, int64_t ls, int64_t rows,
                                int64_t n) {
    if (ld == n && ls == n) {
        cydnnl_f32_to_bf16_run(s, d, rows * n);
        return;
    }
    for (int64_t r = 0; r < rows; r++)
        cydnnl_f32_to_bf16_run(s + r * ls, d + r * ld, n);
}

/* Vector registers through intrinsics: gcc does not vectorise sqrtf while
   it may set errno. The scalar tails compute the same expressions, and IEEE
   sqrt and division round alike at every width. */
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
#elif defined(__SSE2__)
#define CYDNNL_LRN_VW 4
typedef __m128 cydnnl_lrn_v;
#define CYDNNL_LRN_VLOAD _mm_loadu_ps
#define CYDNNL_LRN_VSTORE _mm_storeu_ps
#define CYDNNL_LRN_VSET1 _mm_set1_ps
#define CYDNNL_LRN_VZERO _mm_setzero_ps
#define CYDNNL_LRN_VMUL _mm_mul_ps
#define CYDNNL_LRN_VADD _mm_add_ps
#define CYDNNL_LRN_VSUB _mm_sub_ps
#define CYDNNL_LRN_VDIV _mm_div_ps
#define CYDNNL_LRN_VSQRT _mm_sqrt_ps
/* no FMA below AVX2: a product and a sum, as the scalar tail computes */
#define CYDNNL_LRN_VMADD(a, b, c) _mm_add_ps(_mm_mul_ps((a), (b)), (c))
#endif

/* omega_i = k + scale * sum_{j=-h..h} x[i+j]^2 */
CYDNNL_INLINE float cydnnl_lrn_omega(const float *x, int64_t h, float k, float scale) {
    float acc = 0.0f;
    for (int64_t j = -h; j <= h; j++)
        acc = CYDNNL_LRN_MADD(x[j], x[j], acc);
    return CYDNNL_LRN_MADD(scale, acc, k);
}
#ifdef CYDNNL_LRN_VW
CYDNNL_INLINE cydnnl_lrn_v cydnnl_lrn_vomega(const float *x, int64_t h, cydnnl_lrn_v k,
                                             cydnnl_lrn_v scale) {
    cydnnl_lrn_v acc = CYDNNL_LRN_VZERO();
    for (int64_t j = -h; j <= h; j++) {
        cydnnl_lrn_v v = CYDNNL_LRN_VLOAD(x + j);
        acc = CYDNNL_LRN_VMADD(v, v, acc);
    }
    return CYDNNL_LRN_VMADD(scale, acc, k);
}
CYDNNL_INLINE cydnnl_lrn_v cydnnl_lrn_vpow075(cydnnl_lrn_v omega) {
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

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
/* Across channels straight from the layout, both directions, without tile
   buffers: a position's channels as vectors of 16 (16-channel blocks sc
   apart, or channels-last rows with sc = 16), window sums across
   neighbouring vectors (windows of up to 16 on either side). omega^-1/2
   from a reciprocal square root refined by a Newton step (about an ulp from
   exact), omega^-1/4 its square root (a second refined reciprocal square
   root instead: the forward took 1.15x as long), instead of two square
   roots and a division: those bound the tiled kernels. Only for beta = 3/4. */
__attribute__((always_inline)) static inline __m512 cydnnl_lrn_dld(const void *p, int64_t i,
                                                                   int bf16, __mmask16 m) {
    if (bf16) {
        /* each word to the high half of its lane, zeros below: one permute
           (a widening move and a shift were two ops on the pipes the
           backward is bound by: it took 1.03x as long) */
        const __m512i hi = _mm512_set_epi16(15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0,
                                            7, 0, 6, 0, 5, 0, 4, 0, 3, 0, 2, 0, 1, 0, 0, 0);
        __m256i h = _mm256_maskz_loadu_epi16(m, (const uint16_t *)p + i);
        return _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(
            (__mmask32)0xAAAAAAAAu, hi, _mm512_castsi256_si512(h)));
    }
    return _mm512_maskz_loadu_ps(m, (const float *)p + i);
}
__attribute__((always_inline)) static inline void cydnnl_lrn_dst(void *p, int64_t i, int bf16,
                                                                 __mmask16 m, __m512 v) {
    if (bf16) {
#if defined(__AVX512BF16__)
        /* the bf16 level rounds in one instruction (as the reference does:
           to nearest even, subnormals to zero) */
        __m256i w = (__m256i)_mm512_cvtneps_pbh(v);
#else
        cydnnl_v16su u = (cydnnl_v16su)v;
        CYDNNL_BF16_ROUND_BITS(cydnnl_v16su, u, r, CYDNNL_SEL_VECTOR);
        /* the words gathered by a permute: a narrowing store (vpmovdw to
           memory), which the compiler makes of cvtepi32_epi16 and a store,
           takes tens of cycles on AMD's cores */
        const __m512i even = _mm512_set_epi16(
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
        __m256i w = _mm512_castsi512_si256(_mm512_permutexvar_epi16(even, (__m512i)r));
#endif
        if (m == (__mmask16)0xffff)
            _mm256_storeu_si256((__m256i *)((uint16_t *)p + i), w);
        else
            _mm256_mask_storeu_epi16((uint16_t *)p + i, m, w);
    } else {
        _mm512_mask_storeu_ps((float *)p + i, m, v);
    }
}
/* The window sum at lane i of vector c, a position's channels in a row of
   vectors (p before c, n after it; zero vectors past either end): lanes
   i-h..i+h from the neighbours shifted in registers (from a stack row,
   unaligned reloads of just-stored vectors left the forward bound by loads
   and stores, 14 cycles a vector on Zen 4 before any math). h = 2 by
   immediate shifts (valignd; two-source permutes took the forward 1.08x as
   long) of pair sums t[i] = c[i] + c[i + 1], *t carrying the previous
   vector's (the shifts, on Zen 4 about a cycle each, were a third of the
   backward's time: three a window instead of four); others by permutes.
   cydnnl_lrn_rwin0 is *t before a row's first vector c. */
#define CYDNNL_LRN_ALIGNR(a, b, n) \
    ((__m512)_mm512_alignr_epi32((__m512i)(a), (__m512i)(b), n))
__attribute__((always_inline)) static inline __m512 cydnnl_lrn_rwin0(__m512 c) {
    return CYDNNL_LRN_ALIGNR(c, _mm512_setzero_ps(), 1);
}
__attribute__((always_inline)) static inline __m512 cydnnl_lrn_rwin(__m512 p, __m512 c,
                                                                    __m512 n, int64_t h,
                                                                    __m512 *t) {
    if (h == 2) {
        __m512 tc = _mm512_add_ps(c, CYDNNL_LRN_ALIGNR(n, c, 1));
        __m512 w = _mm512_add_ps(_mm512_add_ps(CYDNNL_LRN_ALIGNR(tc, *t, 14), tc),
                                 CYDNNL_LRN_ALIGNR(n, c, 2));
        *t = tc;
        return w;
    }
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512 acc = c;
    for (int64_t j = 1; j <= h; j++) {
        __m512 up = _mm512_permutex2var_ps(c, _mm512_add_epi32(lane, _mm512_set1_epi32((int)j)),
                                           n);
        __m512 down = _mm512_permutex2var_ps(
            p, _mm512_add_epi32(lane, _mm512_set1_epi32(16 - (int)j)), c);
        acc = _mm512_add_ps(acc, _mm512_add_ps(up, down));
    }
    return acc;
}
#undef CYDNNL_LRN_ALIGNR
/* y^-1/2 from rsqrt14 (14 bits) and one Newton step */
__attribute__((always_inline)) static inline __m512 cydnnl_lrn_drsqrt(__m512 y) {
    __m512 r = _mm512_rsqrt14_ps(y);
    __m512 hy = _mm512_mul_ps(_mm512_mul_ps(y, _mm512_set1_ps(0.5f)), r);
    return _mm512_mul_ps(r, _mm512_fnmadd_ps(hy, r, _mm512_set1_ps(1.5f)));
}

/* Both directions (bwd a constant in each instance), position by position,
   a position's channel vectors rolling through registers. Forward: out =
   src * omega^-3/4. Backward: out = dd * omega^-3/4 - coef * src * (window
   sum of src * dd * omega^-7/4): vector b is written after src's vectors up
   to b + 3 and dd's up to b + 2 are read, so out may be src or dd. */
__attribute__((always_inline)) static inline void cydnnl_lrn_direct_t(
        const void *src, const void *dd, void *out, const int bwd, const int bf16,
        int64_t npos, int64_t ss, int64_t sc, int64_t C, int64_t h, int pad_lanes, float k,
        float scale, float coef) {
    const int64_t nb = (C + 15) / 16;
    const __mmask16 tail = C % 16 ? (__mmask16)((1u << (C % 16)) - 1) : (__mmask16)0xffff;
    /* a blocked layout's last block is stored whole (its padding zeroed) */
    const __mmask16 stail = pad_lanes ? (__mmask16)0xffff : tail;
    const __m512 vk = _mm512_set1_ps(k), vs = _mm512_set1_ps(scale);
    const __m512 vc = _mm512_set1_ps(coef), zero = _mm512_setzero_ps();
    for (int64_t pos = 0; pos < npos; pos++) {
        const int64_t at0 = pos * ss;
        /* vector b of a position (zeros past the last) and its mask */
#define CYDNNL_LRN_MASK(b) ((b) == nb - 1 ? tail : (__mmask16)0xffff)
#define CYDNNL_LRN_LOAD(ptr, b) \
    ((b) < nb - 1 ? cydnnl_lrn_dld(ptr, at0 + (b) * sc, bf16, (__mmask16)0xffff)    \
     : (b) == nb - 1 ? cydnnl_lrn_dld(ptr, at0 + (b) * sc, bf16, tail) : zero)
        __m512 x0 = CYDNNL_LRN_LOAD(src, 0), q0 = _mm512_mul_ps(x0, x0), qp = zero;
        __m512 tq = cydnnl_lrn_rwin0(q0);       /* the squares' carried pair sums */
        /* omega^-3/4 (f) and, backward, omega^-1 (r) at a vector from the
           squares around it: omega^-1/2 from a refined reciprocal
           square root, omega^-1/4 its square root (the square root unit,
           ~10 cycles a vector on Zen 4, bounds the forward) */
#define CYDNNL_LRN_POW(qm, qc, qn, f, r)                                            \
        do {                                                                     \
            __m512 om_ = _mm512_fmadd_ps(vs, cydnnl_lrn_rwin(qm, qc, qn, h, &tq), vk); \
            __m512 y_ = cydnnl_lrn_drsqrt(om_);                                  \
            f = _mm512_mul_ps(y_, _mm512_sqrt_ps(y_));                           \
            if (bwd) r = _mm512_mul_ps(y_, y_);                                  \
        } while (0)
        if (!bwd) {
            for (int64_t b = 0; b < nb; b++) {
                __m512 x2 = CYDNNL_LRN_LOAD(src, b + 1), q2 = _mm512_mul_ps(x2, x2), f, r;
                (void)r;
                CYDNNL_LRN_POW(qp, q0, q2, f, r);
                cydnnl_lrn_dst(out, at0 + b * sc, bf16, b == nb - 1 ? stail : 0xffff,
                               _mm512_mul_ps(x0, f));
                qp = q0; q0 = q2; x0 = x2;
            }
            continue;
        }
        /* backward: a = dd * f and the window's terms bt = a * src * r
           (src * dd * omega^-7/4) two vectors ahead of the output (one
           ahead, the output's ops waited on the whole chain: 1.05x as
           long); masks (lanes past C zeroed) only on the last vector:
           masked loads and multiplies on every vector took it 1.07x as
           long */
        __m512 x1 = CYDNNL_LRN_LOAD(src, 1), q1 = _mm512_mul_ps(x1, x1);
        __m512 f, r, d, a0, a1, bp = zero, b0, b1, tb;
#define CYDNNL_LRN_TERMS(qm, qc, qn, xc, j, m, a, bt)                                 \
        do {                                                                     \
            CYDNNL_LRN_POW(qm, qc, qn, f, r);                                    \
            d = cydnnl_lrn_dld(dd, at0 + (j) * sc, bf16, m);                     \
            a = _mm512_maskz_mul_ps(m, f, d);                                    \
            bt = _mm512_maskz_mul_ps(m, a, _mm512_mul_ps(xc, r));                \
        } while (0)
        __m512 x2 = CYDNNL_LRN_LOAD(src, 2), q2 = _mm512_mul_ps(x2, x2), a2, b2;
        CYDNNL_LRN_TERMS(qp, q0, q1, x0, 0, CYDNNL_LRN_MASK(0), a0, b0);
        a1 = b1 = zero;
        if (nb > 1)
            CYDNNL_LRN_TERMS(q0, q1, q2, x1, 1, CYDNNL_LRN_MASK(1), a1, b1);
        tb = cydnnl_lrn_rwin0(b0);
        for (int64_t b = 0; b < nb; b++) {
            __m512 x3 = CYDNNL_LRN_LOAD(src, b + 3), q3 = _mm512_mul_ps(x3, x3);
            a2 = b2 = zero;
            if (b + 2 < nb - 1)
                CYDNNL_LRN_TERMS(q1, q2, q3, x2, b + 2, (__mmask16)0xffff, a2, b2);
            else if (b + 2 == nb - 1)
                CYDNNL_LRN_TERMS(q1, q2, q3, x2, b + 2, tail, a2, b2);
            __m512 s = cydnnl_lrn_rwin(bp, b0, b1, h, &tb);
            cydnnl_lrn_dst(out, at0 + b * sc, bf16, b == nb - 1 ? stail : 0xffff,
                           _mm512_fnmadd_ps(_mm512_mul_ps(vc, x0), s, a0));
            bp = b0; b0 = b1; b1 = b2; a0 = a1; a1 = a2;
            x0 = x1; x1 = x2; x2 = x3; q1 = q2; q2 = q3;
        }
#undef CYDNNL_LRN_TERMS
#undef CYDNNL_LRN_POW
#undef CYDNNL_LRN_LOAD
#undef CYDNNL_LRN_MASK
    }
}
/* npos positions ss elements apart from src, dd and out (element offsets
   alike); C channels in vectors of 16 sc elements apart, windows of h
   either side; pad_lanes: the last block's lanes past C are the layout's
   padding, written as zeros. Each data type and direction its own
   instance, and local size 5 (h = 2, AlexNet's) one of its own: its window
   sums by immediate shifts of carried pair sums (cydnnl_lrn_rwin). */
#define CYDNNL_LRN_DIRECT_ONE(bwd, bf)                                                     \
    do {                                                                                  \
        if (h == 2)                                                                       \
            cydnnl_lrn_direct_t(src, dd, out, bwd, bf, npos, ss, sc, C, 2, pad_lanes, k,   \
                                scale, coef);                                             \
        else                                                                              \
            cydnnl_lrn_direct_t(src, dd, out, bwd, bf, npos, ss, sc, C, h, pad_lanes, k,   \
                                scale, coef);                                             \
    } while (0)
#define CYDNNL_LRN_DIRECT_CALLS(bwd)                                                       \
    if (bf16) CYDNNL_LRN_DIRECT_ONE(bwd, 1);                                               \
    else CYDNNL_LRN_DIRECT_ONE(bwd, 0);
static void cydnnl_lrn_bwd_direct(const void *src, const void *dd, void *out, int bf16,
                                  int64_t npos, int64_t ss, int64_t sc, int64_t C, int64_t h,
                                  int pad_lanes, float k, float scale, float coef) {
    CYDNNL_LRN_DIRECT_CALLS(1)
}
static void cydnnl_lrn_fwd_direct(const void *src, void *out, int bf16, int64_t npos,
                                  int64_t ss, int64_t sc, int64_t C, int64_t h, int pad_lanes,
                                  float k, float scale) {
    const void *dd = NULL;
    const float coef = 0.0f;
    CYDNNL_LRN_DIRECT_CALLS(0)
}
#undef CYDNNL_LRN_DIRECT_CALLS
#undef CYDNNL_LRN_DIRECT_ONE
#define CYDNNL_LRN_BWD_DIRECT cydnnl_lrn_bwd_direct
#define CYDNNL_LRN_FWD_DIRECT cydnnl_lrn_fwd_direct
#else
#define CYDNNL_LRN_BWD_DIRECT NULL
#define CYDNNL_LRN_FWD_DIRECT NULL
#endif

#endif /* CYDNNL_LRN_KERNELS_H */
