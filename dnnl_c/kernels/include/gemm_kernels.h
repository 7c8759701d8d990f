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

/* c[MR x NR] = alpha * a_panel . b_panel + beta * c (beta == 0: c is not read).
   a: kc x MR (packed), b: kc x NR (packed). The fixed-size loops unroll, so
   the accumulators live in registers. */
CYDNNL_INLINE void cydnnl_ukernel(int64_t kc, const float *a, const float *b, float *c,
                                  int64_t ldc, float alpha, float beta) {
    cydnnl_vf acc[CYDNNL_MR][2];
    for (int i = 0; i < CYDNNL_MR; ++i) { acc[i][0] = (cydnnl_vf){0}; acc[i][1] = (cydnnl_vf){0}; }
    for (int64_t p = 0; p < kc; ++p) {
        cydnnl_vf b0 = cydnnl_ld(b), b1 = cydnnl_ld(b + CYDNNL_VEC);
        #pragma GCC unroll 16
        for (int i = 0; i < CYDNNL_MR; ++i) {
            acc[i][0] += a[i] * b0;
            acc[i][1] += a[i] * b1;
        }
        a += CYDNNL_MR;
        b += CYDNNL_NR;
    }
    #pragma GCC unroll 16
    for (int i = 0; i < CYDNNL_MR; ++i) {
        float *r = c + i * ldc;
        if (beta == 0.f) {
            cydnnl_st(r, alpha * acc[i][0]);
            cydnnl_st(r + CYDNNL_VEC, alpha * acc[i][1]);
        } else {
            cydnnl_st(r, alpha * acc[i][0] + beta * cydnnl_ld(r));
            cydnnl_st(r + CYDNNL_VEC, alpha * acc[i][1] + beta * cydnnl_ld(r + CYDNNL_VEC));
        }
    }
}
#else
CYDNNL_INLINE void cydnnl_ukernel(int64_t kc, const float *a, const float *b, float *c,
                                  int64_t ldc, float alpha, float beta) {
    float acc[CYDNNL_MR][CYDNNL_NR] = {{0}};
    for (int64_t p = 0; p < kc; ++p)
        for (int i = 0; i < CYDNNL_MR; ++i)
            for (int j = 0; j < CYDNNL_NR; ++j)
                acc[i][j] += a[p * CYDNNL_MR + i] * b[p * CYDNNL_NR + j];
    for (int i = 0; i < CYDNNL_MR; ++i)
        for (int j = 0; j < CYDNNL_NR; ++j)
            c[i * ldc + j] = alpha * acc[i][j] + (beta == 0.f ? 0.f : beta * c[i * ldc + j]);
}
#endif

/* ---- bf16 operands with AVX512_BF16's vdpbf16ps: twice the multiply-adds
   of an f32 FMA per instruction. Panels hold k in pairs: element (p, j) of a
   kp x w pair panel is bf16(X[2p][j]) | bf16(X[2p+1][j]) << 16, the odd last
   row paired with zero. ---- */
#if defined(__AVX512BF16__) && CYDNNL_VEC == 16
#include <immintrin.h>
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

/* c[MR x NR] = alpha * a . b + beta * c over kp pairs of k. */
CYDNNL_INLINE void cydnnl_ukernel_bf16(int64_t kp, const uint32_t *a, const uint32_t *b,
                                       float *c, int64_t ldc, float alpha, float beta) {
    __m512 acc[CYDNNL_MR][2];
    for (int i = 0; i < CYDNNL_MR; ++i) {
        acc[i][0] = _mm512_setzero_ps();
        acc[i][1] = _mm512_setzero_ps();
    }
    for (int64_t p = 0; p < kp; ++p) {
        __m512bh b0 = (__m512bh)_mm512_loadu_si512(b);
        __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + 16);
        #pragma GCC unroll 16
        for (int i = 0; i < CYDNNL_MR; ++i) {
            __m512bh av = (__m512bh)_mm512_set1_epi32((int)a[i]);
            acc[i][0] = _mm512_dpbf16_ps(acc[i][0], av, b0);
            acc[i][1] = _mm512_dpbf16_ps(acc[i][1], av, b1);
        }
        a += CYDNNL_MR;
        b += CYDNNL_NR;
    }
    #pragma GCC unroll 16
    for (int i = 0; i < CYDNNL_MR; ++i) {
        float *r = c + i * ldc;
        cydnnl_vf v0 = alpha * (cydnnl_vf)acc[i][0], v1 = alpha * (cydnnl_vf)acc[i][1];
        if (beta != 0.f) {
            v0 += beta * cydnnl_ld(r);
            v1 += beta * cydnnl_ld(r + CYDNNL_VEC);
        }
        cydnnl_st(r, v0);
        cydnnl_st(r + CYDNNL_VEC, v1);
    }
}
#endif

#endif /* CYDNNL_GEMM_KERNELS_H */
