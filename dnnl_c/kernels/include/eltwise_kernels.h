/* Eltwise formulas on vectors (GCC vector extensions), for the algorithms
   of eltwise_isa.h's CYDNNL_ELT_OPS. Compiled once per ISA level
   (kernels/isa/eltwise_isa.c): the level's flags choose the width (16 lanes
   with AVX-512, 8 with AVX, 4 with SSE). Each formula is the scalar one of
   kernels/eltwise.pyx with ?: as a lane select, so NaN takes the same
   branch; only a * b + c may become one fused multiply-add. */
#ifndef CYDNNL_ELTWISE_KERNELS_H
#define CYDNNL_ELTWISE_KERNELS_H
#include "cydnnl_common.h"
#include "eltwise_isa.h"
#include <immintrin.h>

#if defined(__AVX512F__)
#define CYDNNL_ELT_VW 16
#elif defined(__AVX__)
#define CYDNNL_ELT_VW 8
#else
#define CYDNNL_ELT_VW 4
#endif
typedef float cydnnl_elt_vf __attribute__((vector_size(4 * CYDNNL_ELT_VW)));
typedef int32_t cydnnl_elt_vi __attribute__((vector_size(4 * CYDNNL_ELT_VW)));
typedef uint32_t cydnnl_elt_vu __attribute__((vector_size(4 * CYDNNL_ELT_VW)));
typedef uint16_t cydnnl_elt_vh __attribute__((vector_size(2 * CYDNNL_ELT_VW)));
#define CYDNNL_ELT_INLINE static inline __attribute__((always_inline))

CYDNNL_ELT_INLINE cydnnl_elt_vf cydnnl_elt_splat(float x) {
    cydnnl_elt_vf v;
    for (int i = 0; i < CYDNNL_ELT_VW; i++) v[i] = x;
    return v;
}
/* c ? a : b lane by lane, c all-ones or all-zeros lanes (a comparison) */
CYDNNL_ELT_INLINE cydnnl_elt_vf cydnnl_elt_sel(cydnnl_elt_vi c, cydnnl_elt_vf a,
                                               cydnnl_elt_vf b) {
    return (cydnnl_elt_vf)CYDNNL_SEL_VECTOR(c, (cydnnl_elt_vi)a, (cydnnl_elt_vi)b);
}

/* ---- loads and stores: f32, and bf16 widened or rounded
   (cydnnl_common.h's rounding, lane by lane) ---- */
CYDNNL_ELT_INLINE cydnnl_elt_vf cydnnl_elt_ld_f32(const float *p) {
    cydnnl_elt_vf v;
    memcpy(&v, p, sizeof(v));
    return v;
}
CYDNNL_ELT_INLINE void cydnnl_elt_st_f32(float *p, cydnnl_elt_vf v) {
    memcpy(p, &v, sizeof(v));
}
CYDNNL_ELT_INLINE cydnnl_elt_vf cydnnl_elt_ld_bf16(const uint16_t *p) {
    /* one zero-extension (vpmovzxwd, SSE4.1 and up) and a shift */
#if CYDNNL_ELT_VW == 16
    __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
    return (cydnnl_elt_vf)_mm512_slli_epi32(w, 16);
#elif CYDNNL_ELT_VW == 8
    __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return (cydnnl_elt_vf)_mm256_slli_epi32(w, 16);
#else
    __m128i w = _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)p));
    return (cydnnl_elt_vf)_mm_slli_epi32(w, 16);
#endif
}
CYDNNL_ELT_INLINE void cydnnl_elt_st_bf16(uint16_t *p, cydnnl_elt_vf v) {
#if CYDNNL_ELT_VW == 16
    _mm256_storeu_si256((__m256i *)p, cydnnl_f32_to_bf16_16((__m512)v));
#elif defined(CYDNNL_BF16V_LANES) && CYDNNL_ELT_VW == CYDNNL_BF16V_LANES
    cydnnl_bf16v u;
    memcpy(&u, &v, sizeof u);
    cydnnl_bf16v_store(p, u);
#else
    CYDNNL_STORE_BF16_LANES(p, v, cydnnl_elt_vu, cydnnl_elt_vh);
#endif
}

/* bf16 lanes of results that are bf16 numbers already (a bf16 input, a
   zero, or a NaN a multiply made quiet): their upper halves, which is what
   the rounding gives them, in two instructions where the rounding of
   AVX-512 without AVX512_BF16 takes a dozen */
CYDNNL_ELT_INLINE void cydnnl_elt_st_bf16_exact(uint16_t *p, cydnnl_elt_vf v) {
    cydnnl_elt_vh h = __builtin_convertvector((cydnnl_elt_vu)v >> 16, cydnnl_elt_vh);
    memcpy(p, &h, sizeof(h));
}

/* ---- forward: s the source, a and b alpha and beta ---- */
#define CYDNNL_ELT_FWD(name) \
    CYDNNL_ELT_INLINE cydnnl_elt_vf cydnnl_elt_fwd_##name(cydnnl_elt_vf s, cydnnl_elt_vf a, \
                                                          cydnnl_elt_vf b)
#define CYDNNL_ELT_ZERO ((cydnnl_elt_vf){0})
#define CYDNNL_ELT_ONE cydnnl_elt_splat(1.0f)
CYDNNL_ELT_FWD(relu) { (void)b; return cydnnl_elt_sel(s > CYDNNL_ELT_ZERO, s, a * s); }
CYDNNL_ELT_FWD(linear) { return a * s + b; }
CYDNNL_ELT_FWD(clip) { return cydnnl_elt_sel(s > b, b, cydnnl_elt_sel(s > a, s, a)); }
CYDNNL_ELT_FWD(clip_v2) { return cydnnl_elt_sel(s > b, b, cydnnl_elt_sel(s < a, a, s)); }
CYDNNL_ELT_FWD(abs) {
    (void)a, (void)b;
    return (cydnnl_elt_vf)((cydnnl_elt_vu)s & 0x7fffffffu);
}
CYDNNL_ELT_FWD(square) { (void)a, (void)b; return s * s; }
CYDNNL_ELT_FWD(sqrt) {
    (void)a, (void)b;
#if CYDNNL_ELT_VW == 16
    return (cydnnl_elt_vf)_mm512_sqrt_ps((__m512)s);
#elif CYDNNL_ELT_VW == 8
    return (cydnnl_elt_vf)_mm256_sqrt_ps((__m256)s);
#else
    return (cydnnl_elt_vf)_mm_sqrt_ps((__m128)s);
#endif
}
CYDNNL_ELT_FWD(hardsigmoid) {
    cydnnl_elt_vf t = a * s + b;
    return cydnnl_elt_sel(t <= CYDNNL_ELT_ZERO, CYDNNL_ELT_ZERO,
                          cydnnl_elt_sel(t >= CYDNNL_ELT_ONE, CYDNNL_ELT_ONE, t));
}
CYDNNL_ELT_FWD(hardswish) {
    cydnnl_elt_vf t = a * s + b;
    return cydnnl_elt_sel(t <= CYDNNL_ELT_ZERO, CYDNNL_ELT_ZERO,
                          cydnnl_elt_sel(t >= CYDNNL_ELT_ONE, s, s * t));
}

/* ---- backward: dd the diff_dst, x the data (src, or dst for relu and
   clip_v2 use_dst_for_bwd, whose formulas are the same of dst) ---- */
#define CYDNNL_ELT_BWD(name) \
    CYDNNL_ELT_INLINE cydnnl_elt_vf cydnnl_elt_bwd_##name(cydnnl_elt_vf dd, cydnnl_elt_vf x, \
                                                          cydnnl_elt_vf a, cydnnl_elt_vf b)
CYDNNL_ELT_BWD(relu) { (void)b; return cydnnl_elt_sel(x > CYDNNL_ELT_ZERO, dd, a * dd); }
CYDNNL_ELT_BWD(linear) { (void)x, (void)b; return dd * a; }
CYDNNL_ELT_BWD(clip) {
    return cydnnl_elt_sel((x > a) & (x <= b), dd, CYDNNL_ELT_ZERO);
}
CYDNNL_ELT_BWD(clip_v2) {
    return cydnnl_elt_sel((x > a) & (x < b), dd, CYDNNL_ELT_ZERO);
}
CYDNNL_ELT_BWD(abs) {
    (void)a, (void)b;
    return cydnnl_elt_sel(x > CYDNNL_ELT_ZERO, dd,
                          cydnnl_elt_sel(x < CYDNNL_ELT_ZERO, -dd, CYDNNL_ELT_ZERO));
}
CYDNNL_ELT_BWD(square) { (void)a, (void)b; return dd * 2.0f * x; }
CYDNNL_ELT_BWD(sqrt) {
    /* of src only: sqrt_use_dst_for_bwd's gradient runs the scalar loop */
    return dd / (2.0f * cydnnl_elt_fwd_sqrt(x, a, b));
}
CYDNNL_ELT_BWD(hardsigmoid) {
    cydnnl_elt_vf t = a * x + b;
    return cydnnl_elt_sel((t > CYDNNL_ELT_ZERO) & (t < CYDNNL_ELT_ONE), dd * a,
                          CYDNNL_ELT_ZERO);
}
CYDNNL_ELT_BWD(hardswish) {
    cydnnl_elt_vf t = a * x + b;
    return cydnnl_elt_sel(t <= CYDNNL_ELT_ZERO, CYDNNL_ELT_ZERO,
                          cydnnl_elt_sel(t >= CYDNNL_ELT_ONE, dd, dd * (2.0f * a * x + b)));
}

#endif /* CYDNNL_ELTWISE_KERNELS_H */
