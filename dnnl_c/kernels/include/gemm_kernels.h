/* The SGEMM micro-kernel: an MR x NR tile of C in registers (GCC vector
   extensions; plain loops without them). Compiled once per ISA level
   (kernels/isa/gemm_isa.c): the level's flags choose the vector width. */
#ifndef CYDNNL_GEMM_KERNELS_H
#define CYDNNL_GEMM_KERNELS_H
#include "cydnnl_common.h"
#if defined(__GNUC__) && defined(__AVX512F__)
#define CYDNNL_VEC 16
#elif defined(__GNUC__) && defined(__AVX__)
#define CYDNNL_VEC 8
#elif defined(__GNUC__) && defined(__SSE2__)
#define CYDNNL_VEC 4
#else
#define CYDNNL_VEC 0
#endif
/* 2 x VEC columns by MR rows of accumulators: 24 of AVX-512's 32
   registers, 12 of AVX2's (or SSE's) 16. */
#if CYDNNL_VEC == 16
#define CYDNNL_MR 12
#else
#define CYDNNL_MR 6
#endif
#define CYDNNL_NR (CYDNNL_VEC ? 2 * CYDNNL_VEC : 16)
/* SSE has no broadcast from memory: a shuffle per element of A (and the
   copy around it) made the packed kernel issue-bound at 70% of the
   multiply-add peak. There packed A panels hold each element as a whole
   vector (gemm.pyx expands them once per panel; the tiles of all B's
   panels reuse it): 86-90% in the same loop. */
#if CYDNNL_VEC == 4
#define CYDNNL_A_LANES 4
#else
#define CYDNNL_A_LANES 1
#endif

#if CYDNNL_VEC
/* one row of a B panel's half: CYDNNL_VEC floats (cydnnl_common.h's types) */
#if CYDNNL_VEC == 16
typedef cydnnl_v16sf cydnnl_vf;
#elif CYDNNL_VEC == 8
typedef cydnnl_v8sf cydnnl_vf;
#else
typedef cydnnl_v4sf cydnnl_vf;
#endif
CYDNNL_INLINE cydnnl_vf cydnnl_ld(const float *p) {
    cydnnl_vf v; memcpy(&v, p, sizeof v); return v;
}
CYDNNL_INLINE void cydnnl_st(float *p, cydnnl_vf v) { memcpy(p, &v, sizeof v); }

#define CYDNNL_ALWAYS_INLINE static inline __attribute__((always_inline))

/* The f32 k loops' unrolling. AVX2's and SSE's steps are issue-bound (AVX2:
   10-12 FMAs beside ~10 other instructions; SSE: six micro-ops a tile row):
   the counter and branch once per four steps. Zen 4, AlexNet conv1:
   forward 2-3% faster at both levels, backward data (the packed loop) ~1% at
   avx2 and 7% at sse41 (15% on two threads), the LSTM at sse41 6%; no
   change at AVX-512 (a step of 22-24 FMAs), and by 8 SSE spilled. */
#if CYDNNL_VEC == 8 || CYDNNL_VEC == 4
#define CYDNNL_K_UNROLL _Pragma("GCC unroll 4")
#else
#define CYDNNL_K_UNROLL
#endif

/* C's tile is read or written after a micro-kernel's loop; its rows lie ldc
   apart, which no hardware prefetcher follows: ask for them first. */
CYDNNL_INLINE void cydnnl_prefetch_tile(float *c, int64_t ldc, int64_t rows) {
    for (int64_t i = 0; i < rows; ++i) {
        __builtin_prefetch(c + i * ldc, 1, 3);
        __builtin_prefetch(c + i * ldc + CYDNNL_NR - 1, 1, 3);
    }
}

/* Row r of C's tile from its two accumulators: alpha * acc + beta * r
   (beta == 0: r is not read) + bias (NR floats, if not NULL: a convolution's
   bias added as the tile is stored, not in a pass over dst). */
CYDNNL_INLINE void cydnnl_store_row(float *r, cydnnl_vf acc0, cydnnl_vf acc1, float alpha,
                                    float beta, const float *bias) {
    cydnnl_vf v0 = alpha * acc0, v1 = alpha * acc1;
    if (beta != 0.f) {
        v0 += beta * cydnnl_ld(r);
        v1 += beta * cydnnl_ld(r + CYDNNL_VEC);
    }
    if (bias) {
        v0 += cydnnl_ld(bias);
        v1 += cydnnl_ld(bias + CYDNNL_VEC);
    }
    cydnnl_st(r, v0);
    cydnnl_st(r + CYDNNL_VEC, v1);
}

/* c[rows x NR] = alpha * a_panel . b_panel + beta * c (beta == 0: c is not
   read), rows <= mr <= MR. a: kc x MR (packed; rows past `rows` unused),
   b: kc x NR (packed). mr is a constant at each call, so the fixed-size
   loops unroll and the accumulators live in registers. */
CYDNNL_ALWAYS_INLINE void cydnnl_ukernel_mr(const int mr, int64_t kc, const float *a,
                                            const float *b, float *c, int64_t ldc, float alpha,
                                            float beta, int64_t rows) {
    cydnnl_vf acc[CYDNNL_MR][2];
    cydnnl_prefetch_tile(c, ldc, rows);
    for (int i = 0; i < mr; ++i) { acc[i][0] = (cydnnl_vf){0}; acc[i][1] = (cydnnl_vf){0}; }
    CYDNNL_K_UNROLL
    for (int64_t p = 0; p < kc; ++p) {
        cydnnl_vf b0 = cydnnl_ld(b), b1 = cydnnl_ld(b + CYDNNL_VEC);
        #pragma GCC unroll 16
        for (int i = 0; i < mr; ++i) {
#if CYDNNL_A_LANES > 1
            const cydnnl_vf av = cydnnl_ld(a + i * CYDNNL_A_LANES);
#else
            const float av = a[i];
#endif
            acc[i][0] += av * b0;
            acc[i][1] += av * b1;
        }
        a += CYDNNL_MR * CYDNNL_A_LANES;
        b += CYDNNL_NR;
    }
    #pragma GCC unroll 16
    for (int i = 0; i < mr; ++i) {
        if (i >= rows)
            break;
        cydnnl_store_row(c + i * ldc, acc[i][0], acc[i][1], alpha, beta, NULL);
    }
}

/* The first `rows` rows of the tile: a tile at most half full runs the
   half-height loop (an RNN's batch of 17 is a 12-row and a 6-row tile), a
   tile one row short its own (an RNN batch of 11: no FMAs on a row that is
   not there). */
CYDNNL_INLINE void cydnnl_ukernel(int64_t kc, const float *a, const float *b, float *c,
                                  int64_t ldc, float alpha, float beta, int64_t rows) {
    if (rows == CYDNNL_MR - 1)
        cydnnl_ukernel_mr(CYDNNL_MR - 1, kc, a, b, c, ldc, alpha, beta, rows);
    else if (rows > CYDNNL_MR / 2)
        cydnnl_ukernel_mr(CYDNNL_MR, kc, a, b, c, ldc, alpha, beta, rows);
    else
        cydnnl_ukernel_mr(CYDNNL_MR / 2, kc, a, b, c, ldc, alpha, beta, rows);
}
/* The same with A read in place, not packed: element (i, p) of the tile is
   a[i * rs + off[p]] (a convolution's source under the windows of `rows`
   output pixels of one row, rs apart: its patches without an im2col copy).
   Exactly `rows` rows are read, so the loop runs at the tile's own height.
   lanes > 1 (SSE): A is a band of the source expanded to vectors, element
   (i, p) the vector at a + i * rs + off[p] (no shuffle per element).
   ro (not NULL, MR <= 6 only): row i at a + ro[i] instead, rows of any
   output pixels (cydnnl_ukernel_strided_rows). */
CYDNNL_ALWAYS_INLINE void cydnnl_ukernel_strided_mr(const int mr, const int lanes, int64_t kc,
                                                    const float *a, int64_t rs,
                                                    const int64_t *ro,
                                                    const int64_t *off, const float *b,
                                                    int64_t ldb, float *c, int64_t ldc,
                                                    float alpha, float beta,
                                                    const float *bias) {
    cydnnl_vf acc[CYDNNL_MR][2];
    cydnnl_prefetch_tile(c, ldc, mr);
    /* a pointer to each row: a variable rs made the compiler step the
       address row by row, an add per element (SSE's loop is issue-bound:
       61% -> 68% of the peak without them). Twelve rows have too few
       registers for it. */
    const float *ar[CYDNNL_MR];
    for (int i = 0; i < mr; ++i) { acc[i][0] = (cydnnl_vf){0}; acc[i][1] = (cydnnl_vf){0}; }
    for (int i = 0; i < mr; ++i) ar[i] = ro ? a + ro[i] : a + i * rs;
    CYDNNL_K_UNROLL
    for (int64_t p = 0; p < kc; ++p) {
        const int64_t o = off[p];
        cydnnl_vf b0 = cydnnl_ld(b), b1 = cydnnl_ld(b + CYDNNL_VEC);
        #pragma GCC unroll 16
        for (int i = 0; i < mr; ++i) {
#if CYDNNL_A_LANES > 1
            if (lanes > 1) {
                cydnnl_vf v = cydnnl_ld(ar[i] + o);
                /* one load, copied: GCC loaded it again for the second
                   product, and the loads (two a cycle) became the limit */
                __asm__("" : "+x"(v));
                acc[i][0] += v * b0;
                acc[i][1] += v * b1;
                continue;
            }
#endif
#if CYDNNL_MR <= 6
            float v = ar[i][o];
#else
            float v = a[o + i * rs];
#endif
            acc[i][0] += v * b0;
            acc[i][1] += v * b1;
        }
        b += ldb;
    }
    #pragma GCC unroll 16
    for (int i = 0; i < mr; ++i)
        cydnnl_store_row(c + i * ldc, acc[i][0], acc[i][1], alpha, beta, bias);
}

#define CYDNNL_STRIDED_CASE(n)                                                            \
    case n: cydnnl_ukernel_strided_mr(n < CYDNNL_MR ? n : CYDNNL_MR, LANES, kc, a, rs, RO, off, \
                                      b, ldb, c, ldc, alpha, beta, bias); break;
/* Rows one element apart (a weight gradient's taps along kw, or channels)
   get their own copies: with rs a constant each row is a fixed displacement
   from a + off[p], where a variable rs made the compiler step the address
   row by row, a chain of dependent adds as long as the FMAs' work. */
CYDNNL_INLINE void cydnnl_ukernel_strided(int64_t kc, const float *a, int64_t rs,
                                          const int64_t *off, const float *b, int64_t ldb,
                                          float *c, int64_t ldc, float alpha, float beta,
                                          int64_t rows, const float *bias) {
#if CYDNNL_MR > 6
#define CYDNNL_STRIDED_TALL CYDNNL_STRIDED_CASE(7) CYDNNL_STRIDED_CASE(8) \
    CYDNNL_STRIDED_CASE(9) CYDNNL_STRIDED_CASE(10) CYDNNL_STRIDED_CASE(11) CYDNNL_STRIDED_CASE(12)
#else
#define CYDNNL_STRIDED_TALL
#endif
#define CYDNNL_STRIDED_SWITCH                                                          \
    switch (rows) {                                                                    \
        CYDNNL_STRIDED_CASE(1) CYDNNL_STRIDED_CASE(2) CYDNNL_STRIDED_CASE(3)           \
        CYDNNL_STRIDED_CASE(4) CYDNNL_STRIDED_CASE(5) CYDNNL_STRIDED_CASE(6)           \
        CYDNNL_STRIDED_TALL                                                            \
        default: break;                                                                \
    }
#define LANES 1
#define RO NULL
    if (rs == 1) {
        const int64_t rs = 1;
        CYDNNL_STRIDED_SWITCH
        return;
    }
    CYDNNL_STRIDED_SWITCH
#undef LANES
#undef RO
}
#if CYDNNL_MR <= 6 && CYDNNL_A_LANES == 1
#define CYDNNL_STRIDED_ROWS 1
/* The same on the rows of any output pixels (a tile across the end of an
   output row), row i at a + ro[i]: AVX2's tiles all of 6 rows. AlexNet
   conv1's rows of 55 pixels went as 6 + 6 + 6 + 6 + 6 + 5 + 5 + 5 + 5 + 5,
   and a 5-row tile's step (10 FMAs) took 0.87x a 6-row one's (Zen 5). */
CYDNNL_INLINE void cydnnl_ukernel_strided_rows(int64_t kc, const float *a, const int64_t *ro,
                                               const int64_t *off, const float *b, int64_t ldb,
                                               float *c, int64_t ldc, float alpha, float beta,
                                               int64_t rows, const float *bias) {
    const int64_t rs = 0;
#define LANES 1
#define RO ro
    CYDNNL_STRIDED_SWITCH
#undef LANES
#undef RO
}
#endif
#if CYDNNL_A_LANES > 1
/* The same from a band of the source expanded to vectors (lanes above). */
CYDNNL_INLINE void cydnnl_ukernel_wide(int64_t kc, const float *a, int64_t rs,
                                       const int64_t *off, const float *b, int64_t ldb,
                                       float *c, int64_t ldc, float alpha, float beta,
                                       int64_t rows, const float *bias) {
#define LANES CYDNNL_A_LANES
#define RO NULL
    CYDNNL_STRIDED_SWITCH
#undef LANES
#undef RO
}
#endif
#undef CYDNNL_STRIDED_SWITCH
#undef CYDNNL_STRIDED_TALL
#undef CYDNNL_STRIDED_CASE
#else
CYDNNL_INLINE void cydnnl_ukernel_strided(int64_t kc, const float *a, int64_t rs,
                                          const int64_t *off, const float *b, int64_t ldb,
                                          float *c, int64_t ldc, float alpha, float beta,
                                          int64_t rows, const float *bias) {
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < CYDNNL_NR; ++j) {
            float acc = 0.f;
            for (int64_t p = 0; p < kc; ++p) acc += a[i * rs + off[p]] * b[p * ldb + j];
            c[i * ldc + j] = alpha * acc + (beta == 0.f ? 0.f : beta * c[i * ldc + j])
                             + (bias ? bias[j] : 0.f);
        }
}

CYDNNL_INLINE void cydnnl_ukernel(int64_t kc, const float *a, const float *b, float *c,
                                  int64_t ldc, float alpha, float beta, int64_t rows) {
    float acc[CYDNNL_MR][CYDNNL_NR] = {{0}};
    for (int64_t p = 0; p < kc; ++p)
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < CYDNNL_NR; ++j)
                acc[i][j] += a[p * CYDNNL_MR + i] * b[p * CYDNNL_NR + j];
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < CYDNNL_NR; ++j)
            c[i * ldc + j] = alpha * acc[i][j] + (beta == 0.f ? 0.f : beta * c[i * ldc + j]);
}
#endif

/* The transposing pack: a panel of w lanes whose lane i is row i of src
   (contiguous in k): dst[p * w + i] = src[i * ld + p] for p < kc, i < rows,
   lanes past rows zero. Rows of A into an A panel, rows of a transposed B
   into a B panel: 4 x 4 blocks through SSE registers rather than one
   strided store per element. */
#if defined(__SSE2__)
#include <immintrin.h>
#endif
CYDNNL_INLINE void cydnnl_pack_rows(const float *CYDNNL_RESTRICT src, int64_t ld, int64_t rows,
                                    int64_t kc, float *CYDNNL_RESTRICT dst, int64_t w) {
    int64_t i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= rows; i += 4) {
        const float *s0 = src + i * ld, *s1 = s0 + ld, *s2 = s1 + ld, *s3 = s2 + ld;
        float *d = dst + i;
        int64_t p = 0;
        for (; p + 4 <= kc; p += 4, d += 4 * w) {
            __m128 r0 = _mm_loadu_ps(s0 + p), r1 = _mm_loadu_ps(s1 + p);
            __m128 r2 = _mm_loadu_ps(s2 + p), r3 = _mm_loadu_ps(s3 + p);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _mm_storeu_ps(d, r0);
            _mm_storeu_ps(d + w, r1);
            _mm_storeu_ps(d + 2 * w, r2);
            _mm_storeu_ps(d + 3 * w, r3);
        }
        for (; p < kc; ++p, d += w) {
            d[0] = s0[p]; d[1] = s1[p]; d[2] = s2[p]; d[3] = s3[p];
        }
    }
#endif
    for (; i < rows; ++i)
        for (int64_t p = 0; p < kc; ++p) dst[p * w + i] = src[i * ld + p];
    if (rows < w)
        for (int64_t p = 0; p < kc; ++p)
            for (int64_t j = rows; j < w; ++j) dst[p * w + j] = 0.f;
}

/* The straight pack: n columns of src (rows ld apart, k rows) into panels of
   w columns, panel t at dst + t * kc * w, columns past n zero. Eight panels
   at a time, row by row: the source is read in runs of 8 w floats, which
   the prefetchers follow, rather than one w-float run per page. */
CYDNNL_INLINE void cydnnl_pack_cols(const float *CYDNNL_RESTRICT src, int64_t ld, int64_t kc,
                                    int64_t n, float *CYDNNL_RESTRICT dst, int64_t w) {
    int64_t npan = (n + w - 1) / w;
    for (int64_t t0 = 0; t0 < npan; t0 += 8) {
        int64_t t1 = t0 + 8 < npan ? t0 + 8 : npan;
        for (int64_t p = 0; p < kc; ++p) {
            const float *s = src + p * ld;
            for (int64_t t = t0; t < t1; ++t) {
                float *d = dst + t * kc * w + p * w;
                int64_t j0 = t * w, cols = n - j0 < w ? n - j0 : w;
                memcpy(d, s + j0, (size_t)cols * sizeof(float));
                if (cols < w)
                    memset(d + cols, 0, (size_t)(w - cols) * sizeof(float));
            }
        }
    }
}

/* ---- bf16 operands with AVX512_BF16's vdpbf16ps: twice the multiply-adds
   of an f32 FMA per instruction. Panels hold k in pairs: element (p, j) of a
   kp x w pair panel is bf16(X[2p][j]) | bf16(X[2p+1][j]) << 16, the odd last
   row paired with zero. ---- */
#if defined(__AVX512BF16__) && CYDNNL_VEC == 16
#define CYDNNL_GEMM_BF16_DOT 1
/* An f32 panel (kc x w, rows of w) whose values are bf16 numbers (the
   packing widened them) into its pair panel: the low halves are zero, so
   taking the high halves is exact. */
CYDNNL_INLINE void cydnnl_pack_pairs(const float *CYDNNL_RESTRICT src, int64_t kc, int64_t w,
                                     uint32_t *CYDNNL_RESTRICT dst) {
    const uint32_t *u = (const uint32_t *)src;
    int64_t p = 0;
    for (; p + 1 < kc; p += 2, dst += w, u += 2 * w)
        for (int64_t j = 0; j < w; ++j)
            dst[j] = (u[j] >> 16) | (u[w + j] & 0xffff0000u);
    if (p < kc)
        for (int64_t j = 0; j < w; ++j) dst[j] = u[j] >> 16;
}

/* A tile of bf16 values read in place into a pair panel of kp x w: element
   (q, i) is a[i * rs + off[2q]] | a[i * rs + off[2q + 1]] << 16 (off[2q + 1]
   < 0: zero), rows past `rows` zero. With rs == 1 (the tile's rows adjacent:
   taps along kw, or channels-last channels) a pair is two vector loads. */
CYDNNL_INLINE void cydnnl_pack_pair_rows(const uint16_t *CYDNNL_RESTRICT a, int64_t rs,
                                         const int64_t *off, int64_t kp, int64_t rows,
                                         uint32_t *CYDNNL_RESTRICT dst, int64_t w) {
    if (rs == 1 && w <= 16) {
        __mmask16 m = (__mmask16)((1u << rows) - 1);
        for (int64_t q = 0; q < kp; ++q, dst += w) {
            __m512i lo = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, a + off[2 * q]));
            if (off[2 * q + 1] >= 0) {
                __m512i hi = _mm512_cvtepu16_epi32(
                    _mm256_maskz_loadu_epi16(m, a + off[2 * q + 1]));
                lo = _mm512_or_si512(lo, _mm512_slli_epi32(hi, 16));
            }
            _mm512_mask_storeu_epi32(dst, (__mmask16)((1u << w) - 1), lo);
        }
        return;
    }
    for (int64_t q = 0; q < kp; ++q, dst += w) {
        const uint16_t *lo = a + off[2 * q];
        const uint16_t *hi = off[2 * q + 1] >= 0 ? a + off[2 * q + 1] : NULL;
        int64_t i = 0;
        for (; i < rows; ++i)
            dst[i] = lo[i * rs] | (hi ? (uint32_t)hi[i * rs] << 16 : 0u);
        for (; i < w; ++i) dst[i] = 0;
    }
}

/* bf16 matrices straight into pair panels, as cydnnl_pack_rows and
   cydnnl_pack_cols pack f32 ones (no f32 panel on the way). Rows contiguous
   in k (`rows` <= w of them, ld apart) into one w-lane panel: a pair is one
   32-bit element of a row, 16 rows x 16 pairs transposed in registers (16
   gathers of a pair each were 10% of AlexNet conv1's bf16 backward data). */
CYDNNL_INLINE void cydnnl_pack_rows_bf16(const uint16_t *CYDNNL_RESTRICT src, int64_t ld,
                                         int64_t rows, int64_t kc,
                                         uint32_t *CYDNNL_RESTRICT dst, int64_t w) {
    int64_t kp = kc / 2;    /* whole pairs; an odd last k below */
    for (int64_t i0 = 0; i0 < rows; i0 += 16) {
        int64_t n = rows - i0 < 16 ? rows - i0 : 16;
        __mmask16 mi = (__mmask16)((1u << n) - 1);
        for (int64_t q0 = 0; q0 < kp; q0 += 16) {
            int64_t nq = kp - q0 < 16 ? kp - q0 : 16;
            __mmask16 mq = (__mmask16)((1u << nq) - 1);
            __m512i r[16];
            for (int64_t i = 0; i < 16; ++i)
                r[i] = i < n ? _mm512_maskz_loadu_epi32(mq, src + (i0 + i) * ld + 2 * q0)
                             : _mm512_setzero_si512();
            cydnnl_transpose16_epi32(r);
            for (int64_t q = 0; q < nq; ++q)
                _mm512_mask_storeu_epi32(dst + (q0 + q) * w + i0, mi, r[q]);
        }
    }
    if (kc % 2)
        for (int64_t i = 0; i < rows; ++i) dst[kp * w + i] = src[i * ld + kc - 1];
    for (int64_t q = 0; q < (kc + 1) / 2; ++q)
        for (int64_t i = rows; i < w; ++i) dst[q * w + i] = 0;
}

/* n columns (k rows ld apart) into pair panels of w columns, panel t at
   dst + t * ceil(kc / 2) * w, columns past n zero: two rows' vectors
   interleaved. */
CYDNNL_INLINE void cydnnl_pack_cols_bf16(const uint16_t *CYDNNL_RESTRICT src, int64_t ld,
                                         int64_t kc, int64_t n, uint32_t *CYDNNL_RESTRICT dst,
                                         int64_t w) {
    int64_t kp = (kc + 1) / 2;
    for (int64_t j0 = 0; j0 < n; j0 += w, dst += kp * w)
        for (int64_t q = 0; q < kp; ++q) {
            const uint16_t *lo = src + 2 * q * ld + j0;
            for (int64_t j = 0; j < w; j += 16) {
                int64_t left = (n - j0 < w ? n - j0 : w) - j;
                __mmask16 m = left >= 16 ? (__mmask16)0xffff
                              : left > 0 ? (__mmask16)((1u << left) - 1) : (__mmask16)0;
                __m512i v = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, lo + j));
                if (2 * q + 1 < kc)
                    v = _mm512_or_si512(v, _mm512_slli_epi32(_mm512_cvtepu16_epi32(
                        _mm256_maskz_loadu_epi16(m, lo + ld + j)), 16));
                int64_t lanes = w - j < 16 ? w - j : 16;     /* an A panel is 12 wide */
                _mm512_mask_storeu_epi32(dst + q * w + j, (__mmask16)((1u << lanes) - 1), v);
            }
        }
}

/* bf16 A read in place, as cydnnl_ukernel_strided reads f32: pair q of row i
   is a[i * rs + off[2q]] | a[i * rs + off[2q + 1]] << 16 (off[2q + 1] < 0:
   zero). The pairs come in runs: runs[r] = n > 0 is n pairs whose halves are
   adjacent (off[2q + 1] == off[2q] + 1), read with one 32-bit load per row;
   n < 0 is -n pairs read half by half (a pair across the end of a kernel
   row, a lone last tap, or pixels paired along k). bias (NR floats, or NULL)
   is added as the tile is stored, as cydnnl_ukernel_strided does. */
CYDNNL_ALWAYS_INLINE void cydnnl_ukernel_bf16_strided_mr(const int mr, int64_t nruns,
                                                         const int32_t *runs, const uint16_t *a,
                                                         int64_t rs, const int64_t *off,
                                                         const uint32_t *b, float *c,
                                                         int64_t ldc, float alpha, float beta,
                                                         const float *bias) {
    __m512 acc[CYDNNL_MR][2];
    cydnnl_prefetch_tile(c, ldc, mr);
    for (int i = 0; i < mr; ++i) {
        acc[i][0] = _mm512_setzero_ps();
        acc[i][1] = _mm512_setzero_ps();
    }
    for (int64_t r = 0; r < nruns; ++r) {
        int32_t n = runs[r];
        if (n > 0) {
            for (; n > 0; --n, off += 2, b += CYDNNL_NR) {
                const uint16_t *ap = a + off[0];
                __m512bh b0 = (__m512bh)_mm512_loadu_si512(b);
                __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + 16);
                #pragma GCC unroll 16
                for (int i = 0; i < mr; ++i) {
                    uint32_t v;
                    memcpy(&v, ap + i * rs, sizeof v);
                    __m512bh av = (__m512bh)_mm512_set1_epi32((int)v);
                    acc[i][0] = _mm512_dpbf16_ps(acc[i][0], av, b0);
                    acc[i][1] = _mm512_dpbf16_ps(acc[i][1], av, b1);
                }
            }
        } else {
            for (; n < 0; ++n, off += 2, b += CYDNNL_NR) {
                const uint16_t *lo = a + off[0];
                const uint16_t *hi = off[1] >= 0 ? a + off[1] : NULL;
                __m512bh b0 = (__m512bh)_mm512_loadu_si512(b);
                __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + 16);
                #pragma GCC unroll 16
                for (int i = 0; i < mr; ++i) {
                    uint32_t v = lo[i * rs] | (hi ? (uint32_t)hi[i * rs] << 16 : 0u);
                    __m512bh av = (__m512bh)_mm512_set1_epi32((int)v);
                    acc[i][0] = _mm512_dpbf16_ps(acc[i][0], av, b0);
                    acc[i][1] = _mm512_dpbf16_ps(acc[i][1], av, b1);
                }
            }
        }
    }
    #pragma GCC unroll 16
    for (int i = 0; i < mr; ++i)
        cydnnl_store_row(c + i * ldc, (cydnnl_vf)acc[i][0], (cydnnl_vf)acc[i][1], alpha, beta,
                         bias);
}

#define CYDNNL_BF16_STRIDED_CASE(n)                                                      \
    case n: cydnnl_ukernel_bf16_strided_mr(n, nruns, runs, a, rs, off, b, c, ldc, alpha, \
                                           beta, bias); break;
CYDNNL_INLINE void cydnnl_ukernel_bf16_strided(int64_t nruns, const int32_t *runs,
                                               const uint16_t *a, int64_t rs,
                                               const int64_t *off, const uint32_t *b,
                                               float *c, int64_t ldc, float alpha, float beta,
                                               int64_t rows, const float *bias) {
    switch (rows) {
        CYDNNL_BF16_STRIDED_CASE(1) CYDNNL_BF16_STRIDED_CASE(2) CYDNNL_BF16_STRIDED_CASE(3)
        CYDNNL_BF16_STRIDED_CASE(4) CYDNNL_BF16_STRIDED_CASE(5) CYDNNL_BF16_STRIDED_CASE(6)
        CYDNNL_BF16_STRIDED_CASE(7) CYDNNL_BF16_STRIDED_CASE(8) CYDNNL_BF16_STRIDED_CASE(9)
        CYDNNL_BF16_STRIDED_CASE(10) CYDNNL_BF16_STRIDED_CASE(11) CYDNNL_BF16_STRIDED_CASE(12)
        default: break;
    }
}
#undef CYDNNL_BF16_STRIDED_CASE

/* The product of the first panel of B with a tile of bf16 A read in place
   (a weight gradient's taps along kw, rows rs = 1 apart, x pairs of pixels:
   cydnnl_pack_pair_rows' vector case), packing the tile's pair panel for the
   next panels as it goes, each step CYDNNL_PAIR_AHEAD steps before the
   product reads it back (CYDNNL_MR lanes a step, those past the tile's rows
   as they were; ones: lane `rows` a pair of bf16 ones, a row of B's column
   sums). Packed in a pass of its own, the panel took 7-8% of AlexNet
   conv1's bf16 weight gradient; inside the loop it fills slots the dot
   products leave. */
#define CYDNNL_PAIR_AHEAD 8
CYDNNL_ALWAYS_INLINE void cydnnl_pack_pair_step(const uint16_t *a, const int64_t *off,
                                                __mmask16 m, uint32_t *dst) {
    __m512i v = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, a + off[0]));
    if (off[1] >= 0)
        v = _mm512_or_si512(v, _mm512_slli_epi32(
            _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, a + off[1])), 16));
    _mm512_mask_storeu_epi32(dst, m, v);
}

/* c[n x NR] = alpha * a . b + beta * c over kp pairs of k, n <= mr. packing
   (a constant): a is the panel cydnnl_ukernel_bf16_packing fills from src
   at off (lanes m), each step CYDNNL_PAIR_AHEAD steps before its product;
   C's rows are then asked for before the loop, not a row a step as
   otherwise (all at once queued their misses at each tile's start): with
   anything but the packing inside the loop GCC spilled the accumulators
   (1.4x as long). */
CYDNNL_ALWAYS_INLINE void cydnnl_ukernel_bf16_mr(const int mr, const int packing, int64_t kp,
                                                 uint32_t *a, const uint32_t *b, float *c,
                                                 int64_t ldc, float alpha, float beta,
                                                 int64_t n, const uint16_t *src,
                                                 const int64_t *off, __mmask16 m) {
    __m512 acc[CYDNNL_MR][2];
    for (int i = 0; i < mr; ++i) {
        acc[i][0] = _mm512_setzero_ps();
        acc[i][1] = _mm512_setzero_ps();
    }
    if (packing) {
        for (int64_t q = 0; q < CYDNNL_PAIR_AHEAD && q < kp; ++q)
            cydnnl_pack_pair_step(src, off + 2 * q, m, a + q * CYDNNL_MR);
        cydnnl_prefetch_tile(c, ldc, n);
    }
    for (int64_t p = 0; p < kp; ++p) {
        if (packing && p + CYDNNL_PAIR_AHEAD < kp)
            cydnnl_pack_pair_step(src, off + 2 * (p + CYDNNL_PAIR_AHEAD), m,
                                  a + (p + CYDNNL_PAIR_AHEAD) * CYDNNL_MR);
        if (!packing && p < n)
            cydnnl_prefetch_tile(c + p * ldc, ldc, 1);
        __m512bh b0 = (__m512bh)_mm512_loadu_si512(b);
        __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + 16);
        #pragma GCC unroll 16
        for (int i = 0; i < mr; ++i) {
            __m512bh av = (__m512bh)_mm512_set1_epi32((int)a[p * CYDNNL_MR + i]);
            acc[i][0] = _mm512_dpbf16_ps(acc[i][0], av, b0);
            acc[i][1] = _mm512_dpbf16_ps(acc[i][1], av, b1);
        }
        b += CYDNNL_NR;
    }
    #pragma GCC unroll 16
    for (int i = 0; i < mr; ++i) {
        if (i >= n)
            break;
        cydnnl_store_row(c + i * ldc, (cydnnl_vf)acc[i][0], (cydnnl_vf)acc[i][1], alpha, beta,
                         NULL);
    }
}

CYDNNL_INLINE void cydnnl_ukernel_bf16(int64_t kp, const uint32_t *a, const uint32_t *b,
                                       float *c, int64_t ldc, float alpha, float beta,
                                       int64_t rows) {
    /* a whole tile with its row count a constant: the stores then need no
       spilled accumulators, whose stores (and their zeroing before the
       loop) stalled each tile's start on the full store queue (a is only
       read: packing 0) */
    uint32_t *ap = (uint32_t *)a;
    if (rows == CYDNNL_MR)
        cydnnl_ukernel_bf16_mr(CYDNNL_MR, 0, kp, ap, b, c, ldc, alpha, beta, CYDNNL_MR, NULL,
                               NULL, 0);
    else if (rows == CYDNNL_MR - 1)  /* a weight gradient's 11 taps of kw = 11 */
        cydnnl_ukernel_bf16_mr(CYDNNL_MR - 1, 0, kp, ap, b, c, ldc, alpha, beta, CYDNNL_MR - 1,
                               NULL, NULL, 0);
    else if (rows > CYDNNL_MR / 2)
        cydnnl_ukernel_bf16_mr(CYDNNL_MR, 0, kp, ap, b, c, ldc, alpha, beta, rows, NULL, NULL, 0);
    else
        cydnnl_ukernel_bf16_mr(CYDNNL_MR / 2, 0, kp, ap, b, c, ldc, alpha, beta, rows, NULL, NULL,
                               0);
}

/* rows + (ones != 0) <= CYDNNL_MR. Tiles of MR or MR - 1 rows only: with a
   height known at run time GCC kept the accumulators of the packing loop in
   memory; others are packed first (cydnnl_pack_pair_rows). The step's lanes
   past `rows` are left as they are (their products are never stored); the
   ones are put before the loop (a vector of them took a register the
   accumulators needed). */
CYDNNL_INLINE void cydnnl_ukernel_bf16_packing(int64_t kp, const uint16_t *src,
                                               const int64_t *off, int64_t rows, int ones,
                                               uint32_t *a, const uint32_t *b, float *c,
                                               int64_t ldc, float alpha, float beta) {
    const __mmask16 m = (__mmask16)((1u << rows) - 1);
    const int64_t n = rows + (ones != 0);
    if (n < CYDNNL_MR - 1)
        cydnnl_pack_pair_rows(src, 1, off, kp, rows, a, CYDNNL_MR);
    if (ones)
        for (int64_t q = 0; q < kp; ++q)
            a[q * CYDNNL_MR + rows] = 0x3f803f80u;
    if (n == CYDNNL_MR)
        cydnnl_ukernel_bf16_mr(CYDNNL_MR, 1, kp, a, b, c, ldc, alpha, beta, CYDNNL_MR, src, off,
                               m);
    else if (n == CYDNNL_MR - 1)
        cydnnl_ukernel_bf16_mr(CYDNNL_MR - 1, 1, kp, a, b, c, ldc, alpha, beta, CYDNNL_MR - 1,
                               src, off, m);
    else
        cydnnl_ukernel_bf16(kp, a, b, c, ldc, alpha, beta, n);
}
#endif

/* sums[j] += x(p, j) over p < rows, j < n, rows ld apart (f32, or bf16 with
   bf16 set): a weight gradient's bias from a channels-last diff_dst. Four
   vectors of columns at a time, their sums in registers: the baseline's
   Cython loop kept 16 columns and read each row n / 16 times. */
#if CYDNNL_VEC
typedef uint16_t cydnnl_vh __attribute__((vector_size(2 * CYDNNL_VEC)));
typedef uint32_t cydnnl_vu __attribute__((vector_size(4 * CYDNNL_VEC)));
CYDNNL_ALWAYS_INLINE cydnnl_vf cydnnl_ld_any(const void *x, const int bf16, int64_t i) {
    if (!bf16)
        return cydnnl_ld((const float *)x + i);
    cydnnl_vh h;
    memcpy(&h, (const uint16_t *)x + i, sizeof h);
    return (cydnnl_vf)(__builtin_convertvector(h, cydnnl_vu) << 16);
}
#endif
CYDNNL_ALWAYS_INLINE float cydnnl_get_any(const void *x, const int bf16, int64_t i) {
    return bf16 ? cydnnl_bf16_to_f32(((const uint16_t *)x)[i]) : ((const float *)x)[i];
}
CYDNNL_ALWAYS_INLINE void cydnnl_col_sums_dt(const void *x, const int bf16, int64_t ld,
                                             int64_t rows, int64_t n, float *sums) {
    int64_t j0 = 0;
#if CYDNNL_VEC
    const int64_t W = CYDNNL_VEC;
    for (; j0 + 4 * W <= n; j0 += 4 * W) {
        cydnnl_vf a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
        for (int64_t p = 0; p < rows; p++) {
            const int64_t i = p * ld + j0;
            a0 += cydnnl_ld_any(x, bf16, i);
            a1 += cydnnl_ld_any(x, bf16, i + W);
            a2 += cydnnl_ld_any(x, bf16, i + 2 * W);
            a3 += cydnnl_ld_any(x, bf16, i + 3 * W);
        }
        cydnnl_st(sums + j0, cydnnl_ld(sums + j0) + a0);
        cydnnl_st(sums + j0 + W, cydnnl_ld(sums + j0 + W) + a1);
        cydnnl_st(sums + j0 + 2 * W, cydnnl_ld(sums + j0 + 2 * W) + a2);
        cydnnl_st(sums + j0 + 3 * W, cydnnl_ld(sums + j0 + 3 * W) + a3);
    }
    for (; j0 + W <= n; j0 += W) {
        cydnnl_vf a0 = {0};
        for (int64_t p = 0; p < rows; p++)
            a0 += cydnnl_ld_any(x, bf16, p * ld + j0);
        cydnnl_st(sums + j0, cydnnl_ld(sums + j0) + a0);
    }
#endif
    for (int64_t j = j0; j < n; j++) {
        float t = 0;
        for (int64_t p = 0; p < rows; p++)
            t += cydnnl_get_any(x, bf16, p * ld + j);
        sums[j] += t;
    }
}
CYDNNL_INLINE void cydnnl_col_sums(const void *x, int bf16, int64_t ld, int64_t rows,
                                   int64_t n, float *sums) {
    if (bf16)
        cydnnl_col_sums_dt(x, 1, ld, rows, n, sums);
    else
        cydnnl_col_sums_dt(x, 0, ld, rows, n, sums);
}

/* rows x cols of an f32 tile (rows ldt apart) rounded into a bf16 C (rows
   ldc apart), as cydnnl_f32_to_bf16 rounds */
CYDNNL_INLINE void cydnnl_tile_to_bf16(const float *t, int64_t ldt, int64_t rows, int64_t cols,
                                       uint16_t *c, int64_t ldc) {
    for (int64_t i = 0; i < rows; i++, t += ldt, c += ldc)
        cydnnl_f32_to_bf16_run(t, c, cols);
}

#endif /* CYDNNL_GEMM_KERNELS_H */
