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

#endif /* CYDNNL_GEMM_KERNELS_H */
