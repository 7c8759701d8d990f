/* Pooling row kernels (the functions of pool_isa.h's table), compiled once
   per ISA level by kernels/isa/pooling_isa.c: the level's flags choose the
   vector width W (SSE4.1: 4 floats, AVX2: 8, AVX-512: 16). 8 and 16 lanes
   run as L/W native vectors per pixel, several pixels at once so that
   CYDNNL_POOL_GV independent chains hide latency; other lane counts run
   plain loops that gcc vectorises at the level's width. Vectors wider than
   the level's registers are avoided: gcc turns compares and selects on them
   into scalar code (the old 16-lane kernels ran scalar on AVX2). */
#ifndef CYDNNL_POOL_KERNELS_H
#define CYDNNL_POOL_KERNELS_H
#include <immintrin.h>
#include "cydnnl_common.h"
#include "pool_isa.h"

#if !defined(__SSE4_1__)
#error "pool_kernels.h is compiled per ISA level, SSE4.1 at least"
#endif
/* W: the level's vector width in floats; W8, W16: the width 8 and 16 lanes
   run in (no wider than the lanes) */
#if defined(__AVX512F__)
#define CYDNNL_POOL_W 16
#define CYDNNL_POOL_W8 8
#define CYDNNL_POOL_W16 16
#elif defined(__AVX2__)
#define CYDNNL_POOL_W 8
#define CYDNNL_POOL_W8 8
#define CYDNNL_POOL_W16 8
#else
#define CYDNNL_POOL_W 4
#define CYDNNL_POOL_W8 4
#define CYDNNL_POOL_W16 4
#endif
/* vectors in flight forward: 8 of 16 registers hold accumulators and
   indices. 8 (16 of AVX-512's 32) measured no faster on 16 lanes and
   slower on 8 (AlexNet pool1 on Zen 5) */
#define CYDNNL_POOL_GV 4
/* 1: max forward takes tap 0 without a compare (its index is the 0 the
   indices start with either way; the maximum maxps's, lowest for a NaN):
   AlexNet pool1 f32 mb8 nhwc at avx512_core on a Zen 5 core 0.181 -> 0.170
   ms. Below AVX-512 GCC's code for the peeled tap made it slower (avx2
   0.248 -> 0.266, sse41 0.54 -> 0.64): 0 there */
#if defined(__AVX512F__)
#define CYDNNL_POOL_T0 1
#else
#define CYDNNL_POOL_T0 0
#endif

#define CYDNNL_PK static inline __attribute__((always_inline))
#define CYDNNL_POOL_UNROLL _Pragma("GCC unroll 16")

typedef uint32_t cydnnl_pool_v4su __attribute__((vector_size(16)));
typedef uint32_t cydnnl_pool_v8su __attribute__((vector_size(32)));
typedef uint32_t cydnnl_pool_v16su __attribute__((vector_size(64)));
/* the bf16 bits (low half of each lane) of f32 lanes, cydnnl_common.h's
   rounding */
#define CYDNNL_POOL_BF16_BITS(VT, x, out)                                            \
    do {                                                                             \
        VT u_ = (VT)(x);                                                             \
        CYDNNL_BF16_ROUND_BITS(VT, u_, r_, CYDNNL_SEL_VECTOR);                       \
        out = r_;                                                                    \
    } while (0)

/* ---- the vector operations of each width: ldf/ldh load f32/bf16 lanes as
   f32, stf/sth store them; sel_gt(x, a, t, ix): t where x > a else ix
   (t >= ix: the taps counted up);
   if_eq(d, k, t): d where k == t else 0; ldw8/ldw32, stw8/stw32: the
   workspace's u8 or s32 tap indices ---- */
/* 4 lanes: SSE4.1 */
CYDNNL_PK __m128 cydnnl_pool_ldf_4(const float *p) { return _mm_loadu_ps(p); }
CYDNNL_PK __m128 cydnnl_pool_ldh_4(const uint16_t *p) {
    __m128i h = _mm_loadl_epi64((const __m128i *)p);
    return _mm_castsi128_ps(_mm_slli_epi32(_mm_cvtepu16_epi32(h), 16));
}
CYDNNL_PK void cydnnl_pool_stf_4(float *p, __m128 x) { _mm_storeu_ps(p, x); }
CYDNNL_PK void cydnnl_pool_sth_4(uint16_t *p, __m128 x) {
#if defined(CYDNNL_BF16V_LANES) && CYDNNL_BF16V_LANES == 4
    cydnnl_bf16v_store(p, _mm_castps_si128(x));
#else
    cydnnl_pool_v4su r;
    CYDNNL_POOL_BF16_BITS(cydnnl_pool_v4su, x, r);
    _mm_storel_epi64((__m128i *)p, _mm_packus_epi32((__m128i)r, (__m128i)r));
#endif
}
CYDNNL_PK __m128 cydnnl_pool_setf_4(float v) { return _mm_set1_ps(v); }
CYDNNL_PK __m128i cydnnl_pool_seti_4(int32_t v) { return _mm_set1_epi32(v); }
/* the max forward's tap index, counted up in a register as at the wider
   levels (cydnnl_pool_fwd_nv_*) */
CYDNNL_PK __m128i cydnnl_pool_tap_4(__m128i tv, int64_t t) { (void)t; return tv; }
CYDNNL_PK __m128i cydnnl_pool_next_4(__m128i tv, __m128i one) {
    return _mm_add_epi32(tv, one);
}
/* max(x, a) as x where x > a: maxps's value (a where either is a NaN or
   they are equal), on the compare sel_gt makes, so the copies SSE's
   two-operand maxps needed go (AlexNet pool1 f32 mb8 forward on a Zen 5
   core: nhwc 0.55 -> 0.52 ms, nChw16c 0.60 -> 0.56, nChw8c 0.62 -> 0.59) */
CYDNNL_PK __m128 cydnnl_pool_max_4(__m128 x, __m128 a) {
    return _mm_blendv_ps(a, x, _mm_cmpgt_ps(x, a));
}
CYDNNL_PK __m128 cydnnl_pool_add_4(__m128 x, __m128 a) { return _mm_add_ps(x, a); }
CYDNNL_PK __m128 cydnnl_pool_div_4(__m128 x, __m128 a) { return _mm_div_ps(x, a); }
/* taps are counted up from 0, so t >= ix: t where x > a is the larger of
   ix and t masked (blendv's fixed xmm0 cost moves and registers: AlexNet
   pool1's nhwc f32 mb8 forward at sse41 ran 1.22x as long on a Zen 5 core;
   at avx2, vblendvps is the faster: 1.2x) */
CYDNNL_PK __m128i cydnnl_pool_sel_gt_4(__m128 x, __m128 a, __m128i t, __m128i ix) {
    return _mm_max_epi32(ix, _mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(x, a)), t));
}
CYDNNL_PK __m128 cydnnl_pool_if_eq_4(__m128 d, __m128i k, __m128i t) {
    return _mm_and_ps(d, _mm_castsi128_ps(_mm_cmpeq_epi32(k, t)));
}
/* addeq(a, d, k, t): a + (d where k == t) */
CYDNNL_PK __m128 cydnnl_pool_addeq_4(__m128 a, __m128 d, __m128i k, __m128i t) {
    return _mm_add_ps(a, cydnnl_pool_if_eq_4(d, k, t));
}
CYDNNL_PK __m128i cydnnl_pool_ldw32_4(const int32_t *p) {
    return _mm_loadu_si128((const __m128i *)p);
}
CYDNNL_PK void cydnnl_pool_stw32_4(int32_t *p, __m128i i) { _mm_storeu_si128((__m128i *)p, i); }
CYDNNL_PK __m128i cydnnl_pool_ldw8_4(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtepu8_epi32(_mm_cvtsi32_si128(v));
}
/* acc8(a, d, p, t): a + (d where the workspace's u8 tap p[i] == t) */
CYDNNL_PK __m128 cydnnl_pool_acc8_4(__m128 a, __m128 d, const uint8_t *p, int32_t t) {
    return cydnnl_pool_addeq_4(a, d, cydnnl_pool_ldw8_4(p), _mm_set1_epi32(t));
}
CYDNNL_PK void cydnnl_pool_stw8_4(uint8_t *p, __m128i i) {
    __m128i x = _mm_packus_epi32(i, i);
    int32_t v = _mm_cvtsi128_si32(_mm_packus_epi16(x, x));
    memcpy(p, &v, 4);
}

#if defined(__AVX2__)
/* 8 lanes: AVX2 */
CYDNNL_PK __m256 cydnnl_pool_ldf_8(const float *p) { return _mm256_loadu_ps(p); }
CYDNNL_PK __m256 cydnnl_pool_ldh_8(const uint16_t *p) {
    __m128i h = _mm_loadu_si128((const __m128i *)p);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}
CYDNNL_PK void cydnnl_pool_stf_8(float *p, __m256 x) { _mm256_storeu_ps(p, x); }
CYDNNL_PK __m128i cydnnl_pool_pack32_8(__m256i r) {
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}
CYDNNL_PK void cydnnl_pool_sth_8(uint16_t *p, __m256 x) {
#if defined(__AVX512BF16__) && defined(__AVX512VL__)
    _mm_storeu_si128((__m128i *)p, (__m128i)_mm256_cvtneps_pbh(x));
#elif defined(CYDNNL_BF16V_LANES) && CYDNNL_BF16V_LANES == 8
    cydnnl_bf16v_store(p, _mm256_castps_si256(x));
#else
    cydnnl_pool_v8su r;
    CYDNNL_POOL_BF16_BITS(cydnnl_pool_v8su, x, r);
    _mm_storeu_si128((__m128i *)p, cydnnl_pool_pack32_8((__m256i)r));
#endif
}
CYDNNL_PK __m256 cydnnl_pool_setf_8(float v) { return _mm256_set1_ps(v); }
CYDNNL_PK __m256i cydnnl_pool_seti_8(int32_t v) { return _mm256_set1_epi32(v); }
CYDNNL_PK __m256i cydnnl_pool_tap_8(__m256i tv, int64_t t) { (void)t; return tv; }
CYDNNL_PK __m256i cydnnl_pool_next_8(__m256i tv, __m256i one) {
    return _mm256_add_epi32(tv, one);
}
CYDNNL_PK __m256 cydnnl_pool_max_8(__m256 x, __m256 a) { return _mm256_max_ps(x, a); }
CYDNNL_PK __m256 cydnnl_pool_add_8(__m256 x, __m256 a) { return _mm256_add_ps(x, a); }
CYDNNL_PK __m256 cydnnl_pool_div_8(__m256 x, __m256 a) { return _mm256_div_ps(x, a); }
CYDNNL_PK __m256i cydnnl_pool_sel_gt_8(__m256 x, __m256 a, __m256i t, __m256i ix) {
#if defined(__AVX512VL__)
    /* through a mask register: EVEX forms reach all 32 registers (VEX's
       blendv only 16, where 8 pixels' sums and indices spilled) */
    return _mm256_mask_mov_epi32(ix, _mm256_cmp_ps_mask(x, a, _CMP_GT_OQ), t);
#else
    return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(ix), _mm256_castsi256_ps(t),
                                                _mm256_cmp_ps(x, a, _CMP_GT_OQ)));
#endif
}
CYDNNL_PK __m256 cydnnl_pool_if_eq_8(__m256 d, __m256i k, __m256i t) {
    return _mm256_and_ps(d, _mm256_castsi256_ps(_mm256_cmpeq_epi32(k, t)));
}
CYDNNL_PK __m256 cydnnl_pool_addeq_8(__m256 a, __m256 d, __m256i k, __m256i t) {
#if defined(__AVX512VL__)
    return _mm256_mask_add_ps(a, _mm256_cmpeq_epi32_mask(k, t), a, d);
#else
    return _mm256_add_ps(a, cydnnl_pool_if_eq_8(d, k, t));
#endif
}
CYDNNL_PK __m256i cydnnl_pool_ldw32_8(const int32_t *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}
CYDNNL_PK void cydnnl_pool_stw32_8(int32_t *p, __m256i i) {
    _mm256_storeu_si256((__m256i *)p, i);
}
CYDNNL_PK __m256i cydnnl_pool_ldw8_8(const uint8_t *p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
}
#if defined(__AVX512BW__) && defined(__AVX512VL__)
/* the taps compared as bytes into a mask, the add masked: widening them
   to 32-bit lanes first cost a cross-lane shuffle each */
CYDNNL_PK __m256 cydnnl_pool_acc8_8(__m256 a, __m256 d, const uint8_t *p, int32_t t) {
    const __mmask8 m = (__mmask8)_mm_cmpeq_epi8_mask(_mm_loadl_epi64((const __m128i *)p),
                                                      _mm_set1_epi8((char)t));
    return _mm256_mask_add_ps(a, m, a, d);
}
#else
CYDNNL_PK __m256 cydnnl_pool_acc8_8(__m256 a, __m256 d, const uint8_t *p, int32_t t) {
    return cydnnl_pool_addeq_8(a, d, cydnnl_pool_ldw8_8(p), _mm256_set1_epi32(t));
}
#endif
CYDNNL_PK void cydnnl_pool_stw8_8(uint8_t *p, __m256i i) {
    __m128i x = cydnnl_pool_pack32_8(i);
    _mm_storel_epi64((__m128i *)p, _mm_packus_epi16(x, x));
}
#endif

#if defined(__AVX512F__)
/* 16 lanes: AVX-512 */
CYDNNL_PK __m512 cydnnl_pool_ldf_16(const float *p) { return _mm512_loadu_ps(p); }
CYDNNL_PK __m512 cydnnl_pool_ldh_16(const uint16_t *p) {
    __m256i h = _mm256_loadu_si256((const __m256i *)p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
CYDNNL_PK void cydnnl_pool_stf_16(float *p, __m512 x) { _mm512_storeu_ps(p, x); }
CYDNNL_PK void cydnnl_pool_sth_16(uint16_t *p, __m512 x) {
    _mm256_storeu_si256((__m256i *)p, cydnnl_f32_to_bf16_16(x));
}
CYDNNL_PK __m512 cydnnl_pool_setf_16(float v) { return _mm512_set1_ps(v); }
CYDNNL_PK __m512i cydnnl_pool_seti_16(int32_t v) { return _mm512_set1_epi32(v); }
CYDNNL_PK __m512i cydnnl_pool_tap_16(__m512i tv, int64_t t) { (void)t; return tv; }
CYDNNL_PK __m512i cydnnl_pool_next_16(__m512i tv, __m512i one) {
    return _mm512_add_epi32(tv, one);
}
CYDNNL_PK __m512 cydnnl_pool_max_16(__m512 x, __m512 a) { return _mm512_max_ps(x, a); }
CYDNNL_PK __m512 cydnnl_pool_add_16(__m512 x, __m512 a) { return _mm512_add_ps(x, a); }
CYDNNL_PK __m512 cydnnl_pool_div_16(__m512 x, __m512 a) { return _mm512_div_ps(x, a); }
CYDNNL_PK __m512i cydnnl_pool_sel_gt_16(__m512 x, __m512 a, __m512i t, __m512i ix) {
    return _mm512_mask_mov_epi32(ix, _mm512_cmp_ps_mask(x, a, _CMP_GT_OQ), t);
}
CYDNNL_PK __m512 cydnnl_pool_if_eq_16(__m512 d, __m512i k, __m512i t) {
    return _mm512_maskz_mov_ps(_mm512_cmpeq_epi32_mask(k, t), d);
}
CYDNNL_PK __m512 cydnnl_pool_addeq_16(__m512 a, __m512 d, __m512i k, __m512i t) {
    return _mm512_mask_add_ps(a, _mm512_cmpeq_epi32_mask(k, t), a, d);
}
CYDNNL_PK __m512i cydnnl_pool_ldw32_16(const int32_t *p) { return _mm512_loadu_si512(p); }
CYDNNL_PK void cydnnl_pool_stw32_16(int32_t *p, __m512i i) { _mm512_storeu_si512(p, i); }
CYDNNL_PK __m512i cydnnl_pool_ldw8_16(const uint8_t *p) {
    return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p));
}
CYDNNL_PK __m512 cydnnl_pool_acc8_16(__m512 a, __m512 d, const uint8_t *p, int32_t t) {
    const __mmask16 m = _mm_cmpeq_epi8_mask(_mm_loadu_si128((const __m128i *)p),
                                            _mm_set1_epi8((char)t));
    return _mm512_mask_add_ps(a, m, a, d);
}
CYDNNL_PK void cydnnl_pool_stw8_16(uint8_t *p, __m512i i) {
    _mm_storeu_si128((__m128i *)p, _mm512_cvtepi32_epi8(i));
}
#endif

/* ---- 8 or 16 lanes (L) in vectors of W: NV vectors per pixel; K: f for
   f32 data, h for bf16 ---- */
#define CYDNNL_POOL_VEC(DT, T, K, L, W) CYDNNL_POOL_VEC_(DT, T, K, L, W)
#define CYDNNL_POOL_VEC_(DT, T, K, L, W)                                             \
/* forward on np pixels (windows ps apart, outputs ds apart) at once */              \
CYDNNL_PK void cydnnl_pool_max_px_##DT##_##L(const cydnnl_pool_row_t *r,             \
        const T *s, int64_t ps, T *d, int64_t ds, void *ws, const int np) {          \
    enum { NV = L / W };                                                             \
    __typeof__(cydnnl_pool_setf_##W(0)) a[CYDNNL_POOL_GV];                           \
    __typeof__(cydnnl_pool_seti_##W(0)) ix[CYDNNL_POOL_GV];                          \
    CYDNNL_POOL_UNROLL                                                               \
    for (int v = 0; v < np * NV; v++) {                                              \
        a[v] = cydnnl_pool_setf_##W(r->lowest);                                      \
        ix[v] = cydnnl_pool_seti_##W(0);                                             \
    }                                                                                \
    /* the tap's index (cydnnl_pool_fwd_nv_*) */                                    \
    __typeof__(ix[0]) tv = cydnnl_pool_seti_##W(CYDNNL_POOL_T0),                     \
                      one = cydnnl_pool_seti_##W(1);                                 \
    if (CYDNNL_POOL_T0 && r->nt > 0) {   /* tap 0 without a compare */              \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < np * NV; v++)                                            \
            a[v] = cydnnl_pool_max_##W(                                              \
                cydnnl_pool_ld##K##_##W(s + r->toff[0] + (v / NV) * ps + (v % NV) * W), \
                a[v]);                                                               \
    }                                                                                \
    for (int64_t t = CYDNNL_POOL_T0; t < r->nt; t++) {                               \
        const T *p = s + r->toff[t];                                                 \
        tv = cydnnl_pool_tap_##W(tv, t);                                             \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < np * NV; v++) {                                          \
            __typeof__(a[0]) x =                                                     \
                cydnnl_pool_ld##K##_##W(p + (v / NV) * ps + (v % NV) * W);           \
            /* strict >: the first maximum in tap order keeps its index */           \
            ix[v] = cydnnl_pool_sel_gt_##W(x, a[v], tv, ix[v]);                      \
            a[v] = cydnnl_pool_max_##W(x, a[v]);                                     \
        }                                                                            \
        tv = cydnnl_pool_next_##W(tv, one);                                          \
    }                                                                                \
    CYDNNL_POOL_UNROLL                                                               \
    for (int v = 0; v < np * NV; v++) {                                              \
        int64_t o = (v / NV) * ds + (v % NV) * W;                                    \
        cydnnl_pool_st##K##_##W(d + o, a[v]);                                        \
        if (ws && r->ws_u8)                                                          \
            cydnnl_pool_stw8_##W((uint8_t *)ws + o, ix[v]);                          \
        else if (ws)                                                                 \
            cydnnl_pool_stw32_##W((int32_t *)ws + o, ix[v]);                         \
    }                                                                                \
}                                                                                    \
CYDNNL_PK void cydnnl_pool_avg_px_##DT##_##L(const cydnnl_pool_row_t *r,             \
        const T *s, int64_t ps, T *d, int64_t ds, const int np) {                    \
    enum { NV = L / W };                                                             \
    __typeof__(cydnnl_pool_setf_##W(0)) a[CYDNNL_POOL_GV];                           \
    CYDNNL_POOL_UNROLL                                                               \
    for (int v = 0; v < np * NV; v++) a[v] = cydnnl_pool_setf_##W(0);                \
    for (int64_t t = 0; t < r->nt; t++) {                                            \
        const T *p = s + r->toff[t];                                                 \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < np * NV; v++)                                            \
            a[v] = cydnnl_pool_add_##W(                                              \
                a[v], cydnnl_pool_ld##K##_##W(p + (v / NV) * ps + (v % NV) * W));    \
    }                                                                                \
    CYDNNL_POOL_UNROLL                                                               \
    for (int v = 0; v < np * NV; v++)                                                \
        cydnnl_pool_st##K##_##W(d + (v / NV) * ds + (v % NV) * W,                    \
           cydnnl_pool_div_##W(a[v], cydnnl_pool_setf_##W((float)r->nt)));           \
}                                                                                    \
static void cydnnl_pool_fwd_row_##DT##_##L(const cydnnl_pool_row_t *r, const T *s,   \
        int64_t ps, T *d, int64_t ds, void *ws, int64_t count) {                     \
    enum { NP = CYDNNL_POOL_GV / (L / W) };                                          \
    size_t wsz = r->ws_u8 ? 1 : 4;                                                   \
    int64_t j = 0;                                                                   \
    if (r->is_max) {                                                                 \
        for (; j + NP <= count; j += NP)                                             \
            cydnnl_pool_max_px_##DT##_##L(r, s + j * ps, ps, d + j * ds, ds,         \
                ws ? (char *)ws + j * ds * wsz : NULL, NP);                          \
        for (; j < count; j++)                                                       \
            cydnnl_pool_max_px_##DT##_##L(r, s + j * ps, ps, d + j * ds, ds,         \
                ws ? (char *)ws + j * ds * wsz : NULL, 1);                           \
    } else {                                                                         \
        for (; j + NP <= count; j += NP)                                             \
            cydnnl_pool_avg_px_##DT##_##L(r, s + j * ps, ps, d + j * ds, ds, NP);    \
        for (; j < count; j++)                                                       \
            cydnnl_pool_avg_px_##DT##_##L(r, s + j * ps, ps, d + j * ds, ds, 1);     \
    }                                                                                \
}                                                                                    \
/* backward, one pixel at a time: its NV vectors of diff_dst added at                \
   every tap (average) or, masked, at the tap its index names (max: a                \
   scatter would not vectorise; indices outside [0, nt) add nothing) */              \
static void cydnnl_pool_bwd_row_##DT##_##L(const cydnnl_pool_row_t *r, float *acc,   \
        int64_t ps, const T *dd, int64_t ds, const void *ws, int64_t count) {        \
    enum { NV = L / W };                                                             \
    __typeof__(cydnnl_pool_setf_##W(0)) dv[NV], y;                                   \
    __typeof__(cydnnl_pool_seti_##W(0)) kv[NV], tv;                                  \
    const int64_t *toff = r->toff;                                                   \
    for (int64_t j = 0; j < count; j++) {                                            \
        float *q0 = acc + j * ps;                                                    \
        int64_t o = j * ds;                                                          \
        CYDNNL_POOL_UNROLL                                                           \
        for (int c = 0; c < NV; c++) dv[c] = cydnnl_pool_ld##K##_##W(dd + o + c * W); \
        if (!r->is_max) {                                                            \
            CYDNNL_POOL_UNROLL                                                       \
            for (int c = 0; c < NV; c++)                                             \
                dv[c] = cydnnl_pool_div_##W(dv[c], cydnnl_pool_setf_##W((float)r->nt)); \
            for (int64_t t = 0; t < r->nt; t++) {                                    \
                CYDNNL_POOL_UNROLL                                                   \
                for (int c = 0; c < NV; c++) {                                       \
                    float *q = q0 + toff[t] + c * W;                                 \
                    y = cydnnl_pool_add_##W(cydnnl_pool_ldf_##W(q), dv[c]);          \
                    cydnnl_pool_stf_##W(q, y);                                       \
                }                                                                    \
            }                                                                        \
            continue;                                                                \
        }                                                                            \
        CYDNNL_POOL_UNROLL                                                           \
        for (int c = 0; c < NV; c++)                                                 \
            kv[c] = r->ws_u8 ? cydnnl_pool_ldw8_##W((const uint8_t *)ws + o + c * W) \
                             : cydnnl_pool_ldw32_##W((const int32_t *)ws + o + c * W); \
        for (int64_t t = 0; t < r->nt; t++) {                                        \
            tv = cydnnl_pool_seti_##W((int32_t)t);                                   \
            CYDNNL_POOL_UNROLL                                                       \
            for (int c = 0; c < NV; c++) {                                           \
                float *q = q0 + toff[t] + c * W;                                     \
                y = cydnnl_pool_if_eq_##W(dv[c], kv[c], tv);                         \
                cydnnl_pool_stf_##W(q, cydnnl_pool_add_##W(cydnnl_pool_ldf_##W(q), y)); \
            }                                                                        \
        }                                                                            \
    }                                                                                \
}

/* ---- any lane count up to 64: plain loops ---- */
CYDNNL_PK float cydnnl_pool_get_f32(const float *p, int64_t i) { return p[i]; }
CYDNNL_PK float cydnnl_pool_get_bf16(const uint16_t *p, int64_t i) {
    return cydnnl_bf16_to_f32(p[i]);
}
CYDNNL_PK void cydnnl_pool_put_f32(float *p, int64_t i, float v) { p[i] = v; }
CYDNNL_PK void cydnnl_pool_put_bf16(uint16_t *p, int64_t i, float v) {
    p[i] = cydnnl_f32_to_bf16(v);
}
#define CYDNNL_POOL_ANY(DT, T)                                                       \
static void cydnnl_pool_fwd_row_##DT##_n(const cydnnl_pool_row_t *r, const T *s,     \
        int64_t ps, T *d, int64_t ds, void *ws, int64_t count) {                     \
    const int64_t n = r->lanes, nt = r->nt;                                          \
    float acc[64];                                                                   \
    int32_t idx[64];                                                                 \
    for (int64_t j = 0; j < count; j++) {                                            \
        const T *sp = s + j * ps;                                                    \
        int64_t o = j * ds;                                                          \
        for (int64_t i = 0; i < n; i++) { acc[i] = r->is_max ? r->lowest : 0; idx[i] = 0; } \
        for (int64_t t = 0; t < nt; t++) {                                           \
            const T *p = sp + r->toff[t];                                            \
            if (!r->is_max) {                                                        \
                for (int64_t i = 0; i < n; i++) acc[i] += cydnnl_pool_get_##DT(p, i); \
                continue;                                                            \
            }                                                                        \
            for (int64_t i = 0; i < n; i++) {                                        \
                float v = cydnnl_pool_get_##DT(p, i);                                \
                int gt = v > acc[i];                                                 \
                acc[i] = gt ? v : acc[i];                                            \
                idx[i] = gt ? (int32_t)t : idx[i];                                   \
            }                                                                        \
        }                                                                            \
        for (int64_t i = 0; i < n; i++)                                              \
            cydnnl_pool_put_##DT(d + o, i, r->is_max ? acc[i] : acc[i] / (float)nt); \
        if (ws && r->ws_u8)                                                          \
            for (int64_t i = 0; i < n; i++) ((uint8_t *)ws)[o + i] = (uint8_t)idx[i]; \
        else if (ws)                                                                 \
            memcpy((int32_t *)ws + o, idx, n * sizeof(int32_t));                     \
    }                                                                                \
}                                                                                    \
static void cydnnl_pool_bwd_row_##DT##_n(const cydnnl_pool_row_t *r, float *acc,     \
        int64_t ps, const T *dd, int64_t ds, const void *ws, int64_t count) {        \
    const int64_t n = r->lanes, nt = r->nt;                                          \
    float v[64];                                                                     \
    for (int64_t j = 0; j < count; j++) {                                            \
        float *q0 = acc + j * ps;                                                    \
        int64_t o = j * ds;                                                          \
        if (!r->is_max) {                                                            \
            for (int64_t i = 0; i < n; i++) v[i] = cydnnl_pool_get_##DT(dd + o, i) / (float)nt; \
            for (int64_t t = 0; t < nt; t++) {                                       \
                float *q = q0 + r->toff[t];                                          \
                for (int64_t i = 0; i < n; i++) q[i] += v[i];                        \
            }                                                                        \
            continue;                                                                \
        }                                                                            \
        for (int64_t i = 0; i < n; i++) {                                            \
            int64_t k = r->ws_u8 ? ((const uint8_t *)ws)[o + i]                      \
                                 : ((const int32_t *)ws)[o + i];                     \
            if (k >= 0 && k < nt) q0[r->toff[k] + i] += cydnnl_pool_get_##DT(dd + o, i); \
        }                                                                            \
    }                                                                                \
}

CYDNNL_POOL_VEC(f32, float, f, 16, CYDNNL_POOL_W16)
CYDNNL_POOL_VEC(f32, float, f, 8, CYDNNL_POOL_W8)
CYDNNL_POOL_VEC(bf16, uint16_t, h, 16, CYDNNL_POOL_W16)
CYDNNL_POOL_VEC(bf16, uint16_t, h, 8, CYDNNL_POOL_W8)
CYDNNL_POOL_ANY(f32, float)
CYDNNL_POOL_ANY(bf16, uint16_t)

/* ---- forward on pixels of nv vectors (cydnnl_pool_row_t.nv): up to
   CYDNNL_POOL_FV vectors in one pass over the taps (their chains
   independent; the tap loop's work shared) ---- */
#if defined(__AVX512F__)
#define CYDNNL_POOL_FV 8        /* 16 of the 32 registers: sums and indices */
#define CYDNNL_POOL_FWD_CASES_5_7(DT)                                                \
        case 5: cydnnl_pool_fwd_nv_##DT(r, sv, ps, dv, ds, wv, cnt, 5); break;       \
        case 6: cydnnl_pool_fwd_nv_##DT(r, sv, ps, dv, ds, wv, cnt, 6); break;       \
        case 7: cydnnl_pool_fwd_nv_##DT(r, sv, ps, dv, ds, wv, cnt, 7); break;
#else
#define CYDNNL_POOL_FV 4
#define CYDNNL_POOL_FWD_CASES_5_7(DT)
#endif
#define CYDNNL_POOL_FWD_VECTORS(DT, T, K, W, S) CYDNNL_POOL_FWD_VECTORS_(DT, T, K, W, S)
#define CYDNNL_POOL_FWD_VECTORS_(DT, T, K, W, S)                                        \
CYDNNL_PK void cydnnl_pool_fwd_nv_##DT##_##S(const cydnnl_pool_row_t *r, const T *s, \
        int64_t ps, T *d, int64_t ds, void *ws, int64_t count, const int nv) {       \
    const int64_t vs = r->vs, vd = r->vd;                                            \
    for (int64_t j = 0; j < count; j++) {                                            \
        const T *sp = s + j * ps;                                                    \
        __typeof__(cydnnl_pool_setf_##W(0)) a[CYDNNL_POOL_FV];                       \
        __typeof__(cydnnl_pool_seti_##W(0)) ix[CYDNNL_POOL_FV];                      \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < nv; v++) {                                               \
            a[v] = cydnnl_pool_setf_##W(r->is_max ? r->lowest : 0.f);                \
            ix[v] = cydnnl_pool_seti_##W(0);                                         \
        }                                                                            \
        if (r->is_max) {                                                             \
            /* the tap's index counted up in a vector from AVX on: broadcast    \
               from a general register at each tap and vector (vpbroadcastd,  \
               masked) the forward took 5% longer (AlexNet pool1, nhwc f32    \
               mb8, Zen 5) */                                                   \
            __typeof__(ix[0]) tv = cydnnl_pool_seti_##W(CYDNNL_POOL_T0),             \
                              one = cydnnl_pool_seti_##W(1);                         \
            if (CYDNNL_POOL_T0 && r->nt > 0) {   /* tap 0 without a compare */      \
                CYDNNL_POOL_UNROLL                                                   \
                for (int v = 0; v < nv; v++)                                         \
                    a[v] = cydnnl_pool_max_##W(                                      \
                        cydnnl_pool_ld##K##_##W(sp + r->toff[0] + v * vs), a[v]);    \
            }                                                                        \
            for (int64_t t = CYDNNL_POOL_T0; t < r->nt; t++) {                       \
                const T *p = sp + r->toff[t];                                        \
                tv = cydnnl_pool_tap_##W(tv, t);                                     \
                CYDNNL_POOL_UNROLL                                                   \
                for (int v = 0; v < nv; v++) {                                       \
                    __typeof__(a[0]) x = cydnnl_pool_ld##K##_##W(p + v * vs);        \
                    /* strict >: the first maximum in tap order keeps its index */   \
                    ix[v] = cydnnl_pool_sel_gt_##W(x, a[v], tv, ix[v]);              \
                    a[v] = cydnnl_pool_max_##W(x, a[v]);                             \
                }                                                                    \
                tv = cydnnl_pool_next_##W(tv, one);                                  \
            }                                                                        \
        }                                                                            \
        else                                                                         \
            for (int64_t t = 0; t < r->nt; t++) {                                    \
                const T *p = sp + r->toff[t];                                        \
                CYDNNL_POOL_UNROLL                                                   \
                for (int v = 0; v < nv; v++)                                         \
                    a[v] = cydnnl_pool_add_##W(a[v], cydnnl_pool_ld##K##_##W(p + v * vs)); \
            }                                                                        \
        const int64_t o = j * ds;                                                    \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < nv; v++) {                                               \
            if (!r->is_max)                                                          \
                a[v] = cydnnl_pool_div_##W(a[v], cydnnl_pool_setf_##W((float)r->nt)); \
            cydnnl_pool_st##K##_##W(d + o + v * vd, a[v]);                           \
            if (ws && r->ws_u8)                                                      \
                cydnnl_pool_stw8_##W((uint8_t *)ws + o + v * vd, ix[v]);             \
            else if (ws)                                                             \
                cydnnl_pool_stw32_##W((int32_t *)ws + o + v * vd, ix[v]);            \
        }                                                                            \
    }                                                                                \
}                                                                                    \
static void cydnnl_pool_fwd_vectors_##DT##_##S(const cydnnl_pool_row_t *r, const T *s,     \
        int64_t ps, T *d, int64_t ds, void *ws, int64_t count) {                     \
    const int64_t wsz = r->ws_u8 ? 1 : 4;                                            \
    /* more vectors than one pass holds: pixel by pixel, all its vectors at     \
       once (passes over the whole row, each for a slice of every pixel's       \
       channels, ran 5x slower for the first ~20 calls after other work and     \
       1.4x when warm: nhwc 8x96x55x55 at sse41, Zen 4) */                      \
    const int64_t step = r->nv > CYDNNL_POOL_FV ? 1 : count;                         \
    for (int64_t j0 = 0; j0 < count; j0 += step) {                                   \
        const int64_t cnt = count - j0 < step ? count - j0 : step;                   \
        for (int64_t v0 = 0; v0 < r->nv; v0 += CYDNNL_POOL_FV) {                     \
            const int64_t n = r->nv - v0 < CYDNNL_POOL_FV ? r->nv - v0 : CYDNNL_POOL_FV; \
            const T *sv = s + j0 * ps + v0 * r->vs;                                  \
            T *dv = d + j0 * ds + v0 * r->vd;                                        \
            void *wv = ws ? (char *)ws + (j0 * ds + v0 * r->vd) * wsz : NULL;        \
            switch (n) {   /* a loop per count, its sums in registers */             \
            case 1: cydnnl_pool_fwd_nv_##DT##_##S(r, sv, ps, dv, ds, wv, cnt, 1); break; \
            case 2: cydnnl_pool_fwd_nv_##DT##_##S(r, sv, ps, dv, ds, wv, cnt, 2); break; \
            case 3: cydnnl_pool_fwd_nv_##DT##_##S(r, sv, ps, dv, ds, wv, cnt, 3); break; \
            case 4: cydnnl_pool_fwd_nv_##DT##_##S(r, sv, ps, dv, ds, wv, cnt, 4); break; \
            CYDNNL_POOL_FWD_CASES_5_7(DT##_##S)                                      \
            default:                                                                 \
                cydnnl_pool_fwd_nv_##DT##_##S(r, sv, ps, dv, ds, wv, cnt, CYDNNL_POOL_FV); \
                break;                                                               \
            }                                                                        \
        }                                                                            \
    }                                                                                \
}
CYDNNL_POOL_FWD_VECTORS(f32, float, f, CYDNNL_POOL_W, w)
CYDNNL_POOL_FWD_VECTORS(bf16, uint16_t, h, CYDNNL_POOL_W, w)

/* ---- max backward by gathering (cydnnl_pool_gather_t): up to
   CYDNNL_POOL_GA vectors of the level's width per pixel in one pass over
   its candidates (independent sums; the scalar work per candidate shared by
   all of them), the rest one by one. Vector v lies v * vd (diff_src) and
   v * vs (diff_dst, workspace) elements from the first: the next W lanes of
   a pixel, or the next block of W channels ---- */
#define CYDNNL_POOL_GA 8
/* gather_nv: each pixel's diff_src lines fetched this many pixels ahead: the
   rows are written once, mostly to lines in no cache (AlexNet pool1 backward,
   nhwc f32 mb8, its data partly evicted as in the benchmark: 1 Zen 4 core
   0.52 -> 0.45 ms, 2 threads 0.24-0.27 -> 0.21-0.22; 8 or 16 pixels alike, 32
   worse). gather32 asks for the lines of its next pass instead (po). */
#define CYDNNL_POOL_PFD 8
/* cases c0 + nr of gather32's dispatch, nr = 0, 1, 2 */
#define CYDNNL_POOL_G32_CASES(DT, S, c0, ng, u8)                                     \
    case c0: cydnnl_pool_gather32_##DT##_##S(q, dv, ps, vd, ddv, wv, vs, count, ng, u8, 0, \
                                             po); break;                             \
    case c0 + 1: cydnnl_pool_gather32_##DT##_##S(q, dv, ps, vd, ddv, wv, vs, count, ng, u8, 1, \
                                                 po); break;                         \
    case c0 + 2: cydnnl_pool_gather32_##DT##_##S(q, dv, ps, vd, ddv, wv, vs, count, ng, u8, 2, \
                                                 po); break;
#define CYDNNL_POOL_GATHER_VEC(DT, T, K, W, S) CYDNNL_POOL_GATHER_VEC_(DT, T, K, W, S)
#define CYDNNL_POOL_GATHER_VEC_(DT, T, K, W, S)                                      \
CYDNNL_PK void cydnnl_pool_gather_nv_##DT##_##S(const cydnnl_pool_gather_t *q, T *d, \
        int64_t ps, int64_t vd, const T *dd, const char *ws, int64_t vs,             \
        int64_t count, const int nv) {                                               \
    const int64_t wsz = q->ws_u8 ? 1 : 4;                                            \
    for (int64_t j = 0; j < count; j++) {                                            \
        __typeof__(cydnnl_pool_setf_##W(0)) a[CYDNNL_POOL_GA];                       \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < nv; v++) a[v] = cydnnl_pool_setf_##W(0);                 \
        CYDNNL_POOL_UNROLL  /* the lines of diff_src PFD pixels on */               \
        for (int v = 0; v < nv; v++)                                                 \
            __builtin_prefetch(d + (j + CYDNNL_POOL_PFD) * ps + v * vd, 1, 3);         \
        for (int r = 0; r < q->nr; r++)                                              \
            for (int64_t c = q->cbeg[j]; c < q->cbeg[j + 1]; c++) {                  \
                const int64_t o = q->roff[r] + q->coff[c];                           \
                const int32_t t = q->rtap[r] + q->ctap[c];                           \
                const __typeof__(cydnnl_pool_seti_##W(0)) tv = cydnnl_pool_seti_##W(t); \
                if (q->ws_u8) {                                                      \
                    CYDNNL_POOL_UNROLL                                               \
                    for (int v = 0; v < nv; v++)                                     \
                        a[v] = cydnnl_pool_acc8_##W(a[v], cydnnl_pool_ld##K##_##W(dd + o + v * vs), \
                                                    (const uint8_t *)ws + o + v * vs, t); \
                    continue;                                                        \
                }                                                                    \
                CYDNNL_POOL_UNROLL                                                   \
                for (int v = 0; v < nv; v++) {                                       \
                    const int64_t e = o + v * vs;                                    \
                    a[v] = cydnnl_pool_addeq_##W(a[v], cydnnl_pool_ld##K##_##W(dd + e), \
                               cydnnl_pool_ldw32_##W((const int32_t *)(ws + e * wsz)), tv); \
                }                                                                    \
            }                                                                        \
        CYDNNL_POOL_UNROLL                                                           \
        for (int v = 0; v < nv; v++) cydnnl_pool_st##K##_##W(d + j * ps + v * vd, a[v]); \
    }                                                                                \
}                                                                                    \
/* q->w32 (windows 3 wide, 2 apart along w), at most 2 output rows: ng      \
   vectors of each pixel, the pixels in pairs (2m, 2m + 1) - pw, each output  \
   pixel's diff_dst and taps loaded once and kept for the next pair. Through  \
   the tables (gather_nv) AlexNet pool1 backward ran 1.4x-1.9x as long on     \
   Zen 5 (f32 mb8, 2 threads: nhwc 0.120 -> 0.084 ms, nChw16c 0.133 -> 0.081, \
   nChw8c 0.232 -> 0.123; bf16 mb32 nhwc 0.51 -> 0.36). As it writes pixel    \
   j it asks for, for writing, pixel j's lines of the pass after it (po       \
   elements on: a row of nhwc f32 at AVX-512 goes in 3 passes, 7 KB each).    \
   Zen 5, f32 mb8 nhwc, 1 thread, ms: avx512_core with oneDNN's run between   \
   ours 0.29-0.32 -> 0.25, in the examples' order of steps 0.55-0.57 -> 0.52- \
   0.53, in cache 0.16-0.17 alike; avx2 0.48 -> 0.38-0.41, 0.73-0.75 ->       \
   0.63-0.64, 0.27 -> 0.29; sse41 1.09-1.11 -> 0.81-0.83. 8 pixels ahead in   \
   the same pass, or the next row's lines (a row, 21 KB, ahead: the current  \
   row's and diff_dst's lines evicted from L1; 0.15 -> 0.19 in cache) less. */ \
CYDNNL_PK void cydnnl_pool_gather32_##DT##_##S(const cydnnl_pool_gather_t *q, T *d,  \
        int64_t ps, int64_t vd, const T *dd, const char *ws, int64_t vs,             \
        int64_t count, const int ng, const int u8, const int nr, int64_t po) {       \
    __typeof__(cydnnl_pool_setf_##W(0)) pd[2][2], cd[2][2], a[2];                    \
    __typeof__(cydnnl_pool_seti_##W(0)) pk[2][2], ck[2][2], t0[2], t1[2], t2[2];     \
    const __typeof__(cydnnl_pool_seti_##W(0)) none = cydnnl_pool_seti_##W(-1);       \
    for (int r = 0; r < nr; r++) {                                                   \
        t0[r] = cydnnl_pool_seti_##W(q->rtap[r]);                                    \
        t1[r] = cydnnl_pool_seti_##W(q->rtap[r] + 1);                                \
        t2[r] = cydnnl_pool_seti_##W(q->rtap[r] + 2);                                \
        for (int v = 0; v < ng; v++) {                                               \
            pd[r][v] = cydnnl_pool_setf_##W(0);                                      \
            pk[r][v] = none;                                                         \
        }                                                                            \
    }                                                                                \
    for (int64_t m = q->pw / 2; 2 * m - q->pw < count; m++) {                        \
        const int64_t j0 = 2 * m - q->pw;                                            \
        for (int r = 0; r < nr; r++)                                                 \
            for (int v = 0; v < ng; v++) {                                           \
                const int64_t o = q->roff[r] + m * q->osw + v * vs;                  \
                if (m < q->ow) {                                                     \
                    cd[r][v] = cydnnl_pool_ld##K##_##W(dd + o);                      \
                    ck[r][v] = u8 ? cydnnl_pool_ldw8_##W((const uint8_t *)ws + o)    \
                                  : cydnnl_pool_ldw32_##W((const int32_t *)ws + o);  \
                } else {                                                             \
                    cd[r][v] = cydnnl_pool_setf_##W(0);                              \
                    ck[r][v] = none;                                                 \
                }                                                                    \
            }                                                                        \
        if (j0 >= 0) {  /* output m - 1's tap 2, then m's tap 0 */                  \
            for (int v = 0; v < ng; v++) {                                           \
                if (v == 0 || vd * (int64_t)sizeof(T) >= 64) {  /* each line once */ \
                    __builtin_prefetch(d + po + j0 * ps + v * vd, 1, 3);             \
                    if (ps * (int64_t)sizeof(T) >= 64)                               \
                        __builtin_prefetch(d + po + (j0 + 1) * ps + v * vd, 1, 3);   \
                }                                                                    \
                a[v] = cydnnl_pool_setf_##W(0);                                      \
            }                                                                        \
            for (int r = 0; r < nr; r++)                                             \
                for (int v = 0; v < ng; v++) {                                       \
                    a[v] = cydnnl_pool_addeq_##W(a[v], pd[r][v], pk[r][v], t2[r]);   \
                    a[v] = cydnnl_pool_addeq_##W(a[v], cd[r][v], ck[r][v], t0[r]);   \
                }                                                                    \
            for (int v = 0; v < ng; v++) cydnnl_pool_st##K##_##W(d + j0 * ps + v * vd, a[v]); \
        }                                                                            \
        if (j0 + 1 < count) {   /* output m's tap 1 */                              \
            for (int v = 0; v < ng; v++) a[v] = cydnnl_pool_setf_##W(0);             \
            for (int r = 0; r < nr; r++)                                             \
                for (int v = 0; v < ng; v++)                                         \
                    a[v] = cydnnl_pool_addeq_##W(a[v], cd[r][v], ck[r][v], t1[r]);   \
            for (int v = 0; v < ng; v++)                                             \
                cydnnl_pool_st##K##_##W(d + (j0 + 1) * ps + v * vd, a[v]);           \
        }                                                                            \
        for (int r = 0; r < nr; r++)                                                 \
            for (int v = 0; v < ng; v++) {                                           \
                pd[r][v] = cd[r][v];                                                 \
                pk[r][v] = ck[r][v];                                                 \
            }                                                                        \
    }                                                                                \
}                                                                                    \
static void cydnnl_pool_gather_vectors_##DT##_##S(const cydnnl_pool_gather_t *q, T *d, \
        int64_t ps, int64_t vd, const T *dd, const char *ws, int64_t vs, int64_t count, \
        int64_t nv, int64_t next) {                                                  \
    if (q->w32 && q->nr <= 2) {  /* two vectors a pass: their pairs in registers */ \
        const int64_t wsz = q->ws_u8 ? 1 : 4;                                        \
        for (int64_t v = 0; v < nv; v += 2) {                                        \
            /* a pixel's lines of the next pass (after the last, `next`: d's   \
               elements to what the row's next call writes first), asked for  \
               as this pass writes the pixel */                               \
            const int64_t po = v + 2 < nv ? 2 * vd : next - v * vd;                  \
            /* every count a constant (a row count known at run time spilled   \
               the arrays) */                                                      \
            const int c = 6 * (nv - v >= 2) + 3 * !q->ws_u8 + q->nr;                 \
            T *dv = d + v * vd;                                                      \
            const T *ddv = dd + v * vs;                                              \
            const char *wv = ws + v * vs * wsz;                                      \
            switch (c) {                                                             \
            CYDNNL_POOL_G32_CASES(DT, S, 0, 1, 1)                                    \
            CYDNNL_POOL_G32_CASES(DT, S, 3, 1, 0)                                    \
            CYDNNL_POOL_G32_CASES(DT, S, 6, 2, 1)                                    \
            CYDNNL_POOL_G32_CASES(DT, S, 9, 2, 0)                                    \
            }                                                                        \
        }                                                                            \
        return;                                                                      \
    }                                                                                \
    switch (nv) {  /* a loop per count, its sums in registers */                    \
    case 1: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 1); break; \
    case 2: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 2); break; \
    case 3: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 3); break; \
    case 4: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 4); break; \
    case 5: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 5); break; \
    case 6: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 6); break; \
    case 7: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 7); break; \
    default: cydnnl_pool_gather_nv_##DT##_##S(q, d, ps, vd, dd, ws, vs, count, 8); break; \
    }                                                                                \
}
CYDNNL_POOL_GATHER_VEC(f32, float, f, CYDNNL_POOL_W, w)
CYDNNL_POOL_GATHER_VEC(bf16, uint16_t, h, CYDNNL_POOL_W, w)
/* The forward's and the gather's vectors of 8 lanes at AVX-512, for blocks
   of 8 channels (nChw8c) or a tail of 8 or more; elsewhere those of the
   level's width. One lane at a time, the backward ran 6x slower than
   oneDNN's (AlexNet pool1, nChw8c, 7.1 ms against 1.1), one block at a time
   the forward 1.3x. */
#if CYDNNL_POOL_W8 < CYDNNL_POOL_W
CYDNNL_POOL_FWD_VECTORS(f32, float, f, CYDNNL_POOL_W8, w8)
CYDNNL_POOL_FWD_VECTORS(bf16, uint16_t, h, CYDNNL_POOL_W8, w8)
CYDNNL_POOL_GATHER_VEC(f32, float, f, CYDNNL_POOL_W8, w8)
CYDNNL_POOL_GATHER_VEC(bf16, uint16_t, h, CYDNNL_POOL_W8, w8)
#else
#define cydnnl_pool_fwd_vectors_f32_w8 cydnnl_pool_fwd_vectors_f32_w
#define cydnnl_pool_fwd_vectors_bf16_w8 cydnnl_pool_fwd_vectors_bf16_w
#define cydnnl_pool_gather_vectors_f32_w8 cydnnl_pool_gather_vectors_f32_w
#define cydnnl_pool_gather_vectors_bf16_w8 cydnnl_pool_gather_vectors_bf16_w
#endif
#define CYDNNL_POOL_GATHER(DT, T, W) CYDNNL_POOL_GATHER_(DT, T, W)
#define CYDNNL_POOL_GATHER_(DT, T, W)                                                \
static void cydnnl_pool_gather_row_##DT(const cydnnl_pool_gather_t *q, T *d, int64_t ps, \
        const T *dd, const void *ws, int64_t count) {                                \
    const int64_t n = q->lanes, wsz = q->ws_u8 ? 1 : 4;                              \
    const char *w = (const char *)ws;                                                \
    int64_t i = 0;                                                                   \
    if (q->nb > 1) {   /* nb blocks of W (or 8) channels: a vector each */          \
        for (int64_t b = 0; b < q->nb; b += CYDNNL_POOL_GA) {                        \
            const int64_t nv = q->nb - b < CYDNNL_POOL_GA ? q->nb - b : CYDNNL_POOL_GA; \
            const int64_t next = b + nv < q->nb ? nv * q->dsb : q->rsd - b * q->dsb; \
            if (n == W)                                                              \
                cydnnl_pool_gather_vectors_##DT##_w(q, d + b * q->dsb, ps, q->dsb,   \
                    dd + b * q->ddb, w + b * q->ddb * wsz, q->ddb, count, nv, next); \
            else                                                                     \
                cydnnl_pool_gather_vectors_##DT##_w8(q, d + b * q->dsb, ps, q->dsb,  \
                    dd + b * q->ddb, w + b * q->ddb * wsz, q->ddb, count, nv, next); \
        }                                                                            \
        return;                                                                      \
    }                                                                                \
    for (; i + W <= n; ) {                                                           \
        int64_t nv = (n - i) / W < CYDNNL_POOL_GA ? (n - i) / W : CYDNNL_POOL_GA;    \
        cydnnl_pool_gather_vectors_##DT##_w(q, d + i, ps, W, dd + i, w + i * wsz, W, count, \
                                            nv, i + nv * W < n ? nv * W : q->rsd - i); \
        i += nv * W;                                                                 \
    }                                                                                \
    if (CYDNNL_POOL_W8 < W && n - i >= CYDNNL_POOL_W8) {                             \
        cydnnl_pool_gather_vectors_##DT##_w8(q, d + i, ps, CYDNNL_POOL_W8, dd + i,   \
                                             w + i * wsz, CYDNNL_POOL_W8, count, 1,  \
                                             q->rsd - i);                            \
        i += CYDNNL_POOL_W8;                                                         \
    }                                                                                \
    if (i == n)                                                                      \
        return;                                                                      \
    for (int64_t j = 0; j < count; j++)                                              \
        for (int64_t l = i; l < n; l++) {                                            \
            float a = 0;                                                             \
            for (int r = 0; r < q->nr; r++)                                          \
                for (int64_t c = q->cbeg[j]; c < q->cbeg[j + 1]; c++) {              \
                    const int64_t o = q->roff[r] + q->coff[c];                       \
                    const int64_t k = q->ws_u8 ? ((const uint8_t *)ws)[o + l]        \
                                               : ((const int32_t *)ws)[o + l];       \
                    if (k == q->rtap[r] + q->ctap[c]) a += cydnnl_pool_get_##DT(dd + o, l); \
                }                                                                    \
            cydnnl_pool_put_##DT(d + j * ps, l, a);                                  \
        }                                                                            \
}
CYDNNL_POOL_GATHER(f32, float, CYDNNL_POOL_W)
CYDNNL_POOL_GATHER(bf16, uint16_t, CYDNNL_POOL_W)
#endif /* CYDNNL_POOL_KERNELS_H */
