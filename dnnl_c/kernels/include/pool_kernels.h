/* Pooling window kernels, for dnnl_c/kernels/pooling.pyx: for 8 or 16
   contiguous channel lanes (GCC vector extensions, plain loops otherwise)
   and any lane count up to 64 (plain loops), f32 or bf16 data. */
#ifndef CYDNNL_POOL_KERNELS_H
#define CYDNNL_POOL_KERNELS_H
#include "cydnnl_common.h"
#if defined(__AVX2__) && !defined(CYDNNL_PLAIN_KERNELS)
#include <immintrin.h>
#endif
/* Window kernels for pixels whose whole window lies inside src: taps at
   toff[0..nt) from the window origin, in flat (kd, kh, kw) order, lanes
   of contiguous channels at each tap. */
CYDNNL_INLINE float cydnnl_pool_ld_f32(const float *p, int64_t i) { return p[i]; }
CYDNNL_INLINE float cydnnl_pool_ld_bf16(const uint16_t *p, int64_t i) {
    return cydnnl_bf16_to_f32(p[i]);
}

/* ---- any lane count n <= 64: plain loops ---- */
#define CYDNNL_POOL_N(SUFFIX, T, LD)                                                 \
CYDNNL_INLINE void cydnnl_pool_max_##SUFFIX##_n(                                     \
        const T *CYDNNL_RESTRICT s, const int64_t *CYDNNL_RESTRICT toff, int64_t nt, \
        float lowest, float *CYDNNL_RESTRICT acc, int32_t *CYDNNL_RESTRICT idx,         \
        int64_t n) {                                                                 \
    for (int64_t i = 0; i < n; i++) { acc[i] = lowest; idx[i] = 0; }                 \
    for (int64_t t = 0; t < nt; t++) {                                               \
        const T *p = s + toff[t];                                                    \
        for (int64_t i = 0; i < n; i++) {                                            \
            float v = LD(p, i);                                                      \
            int gt = v > acc[i];                                                     \
            acc[i] = gt ? v : acc[i];                                                \
            idx[i] = gt ? (int32_t)t : idx[i];                                       \
        }                                                                            \
    }                                                                                \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_sum_##SUFFIX##_n(                                     \
        const T *CYDNNL_RESTRICT s, const int64_t *CYDNNL_RESTRICT toff, int64_t nt, \
        float *CYDNNL_RESTRICT acc, int64_t n) {                                     \
    for (int64_t i = 0; i < n; i++) acc[i] = 0;                                      \
    for (int64_t t = 0; t < nt; t++) {                                               \
        const T *p = s + toff[t];                                                    \
        for (int64_t i = 0; i < n; i++) acc[i] += LD(p, i);                          \
    }                                                                                \
}
CYDNNL_POOL_N(f32, float, cydnnl_pool_ld_f32)
CYDNNL_POOL_N(bf16, uint16_t, cydnnl_pool_ld_bf16)
CYDNNL_INLINE void cydnnl_pool_add_n(float *CYDNNL_RESTRICT acc,
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const float *CYDNNL_RESTRICT v,
        int64_t n) {
    for (int64_t t = 0; t < nt; t++) {
        float *p = acc + toff[t];
        for (int64_t i = 0; i < n; i++) p[i] += v[i];
    }
}

#if defined(__GNUC__) && !defined(CYDNNL_PLAIN_KERNELS)
/* ---- 8 and 16 lanes with GCC vector extensions: gcc turns plain 8- or
   16-lane loops into scalar code here rather than vectorising them ---- */
/* vector types from cydnnl_common.h */
#define CYDNNL_POOL_LOAD_f32(L, p) ({                                                \
    cydnnl_v##L##sf v_; memcpy(&v_, (p), sizeof(v_)); v_; })
/* bf16 lanes widened to f32: one vpmovzxwd where the ISA has it (gcc's
   __builtin_convertvector takes four instructions for 16 lanes) */
CYDNNL_INLINE void cydnnl_pool_load_bf16_16(cydnnl_v16sf *out, const uint16_t *p) {
#if defined(__AVX512F__)
    *out = (cydnnl_v16sf)_mm512_slli_epi32(
        _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p)), 16);
#else
    cydnnl_v16hu h;
    memcpy(&h, p, sizeof(h));
    *out = (cydnnl_v16sf)(__builtin_convertvector(h, cydnnl_v16su) << 16);
#endif
}
CYDNNL_INLINE void cydnnl_pool_load_bf16_8(cydnnl_v8sf *out, const uint16_t *p) {
#if defined(__AVX2__)
    *out = (cydnnl_v8sf)_mm256_slli_epi32(
        _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p)), 16);
#else
    cydnnl_v8hu h;
    memcpy(&h, p, sizeof(h));
    *out = (cydnnl_v8sf)(__builtin_convertvector(h, cydnnl_v8su) << 16);
#endif
}
#define CYDNNL_POOL_LOAD_bf16(L, p) ({                                               \
    cydnnl_v##L##sf v_; cydnnl_pool_load_bf16_##L(&v_, (p)); v_; })
/* u8 <-> s32 lanes: gcc's __builtin_convertvector goes scalar for these */
CYDNNL_INLINE void cydnnl_pool_widen_u8_8(cydnnl_v8si *out, const uint8_t *w) {
#if defined(__AVX2__)
    *out = (cydnnl_v8si)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)w));
#else
    for (int i = 0; i < 8; i++) (*out)[i] = w[i];
#endif
}
CYDNNL_INLINE void cydnnl_pool_widen_u8_16(cydnnl_v16si *out, const uint8_t *w) {
#if defined(__AVX512F__)
    *out = (cydnnl_v16si)_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)w));
#else
    cydnnl_v8si a, b;
    cydnnl_pool_widen_u8_8(&a, w);
    cydnnl_pool_widen_u8_8(&b, w + 8);
    memcpy(out, &a, sizeof(a));
    memcpy((char *)out + sizeof(a), &b, sizeof(b));
#endif
}
CYDNNL_INLINE void cydnnl_pool_ws_u8_16(uint8_t *CYDNNL_RESTRICT w,
                                        const int32_t *CYDNNL_RESTRICT idx) {
#if defined(__AVX512F__)
    _mm_storeu_si128((__m128i *)w, _mm512_cvtepi32_epi8(_mm512_loadu_si512(idx)));
#else
    for (int i = 0; i < 16; i++) w[i] = (uint8_t)idx[i];
#endif
}
CYDNNL_INLINE void cydnnl_pool_ws_u8_8(uint8_t *CYDNNL_RESTRICT w,
                                       const int32_t *CYDNNL_RESTRICT idx) {
#if defined(__AVX512F__) && defined(__AVX512VL__)
    _mm_storel_epi64((__m128i *)w,
                     _mm256_cvtepi32_epi8(_mm256_loadu_si256((const __m256i *)idx)));
#else
    for (int i = 0; i < 8; i++) w[i] = (uint8_t)idx[i];
#endif
}
CYDNNL_INLINE void cydnnl_pool_ws_to_s32_u8_16(int32_t *k, const uint8_t *w) {
    cydnnl_v16si x;
    cydnnl_pool_widen_u8_16(&x, w);
    memcpy(k, &x, sizeof(x));
}
CYDNNL_INLINE void cydnnl_pool_ws_to_s32_u8_8(int32_t *k, const uint8_t *w) {
    cydnnl_v8si x;
    cydnnl_pool_widen_u8_8(&x, w);
    memcpy(k, &x, sizeof(x));
}
/* max: strict >, so the first maximum in tap order keeps its index */
#define CYDNNL_POOL_SELECT(L, m, a, b)                                                   \
    ((cydnnl_v##L##si)(a) & (m)) | ((cydnnl_v##L##si)(b) & ~(m))
#define CYDNNL_POOL_FWD(DT, T, L)                                                    \
CYDNNL_INLINE void cydnnl_pool_max_##DT##_##L(                                       \
        const T *CYDNNL_RESTRICT s, const int64_t *CYDNNL_RESTRICT toff, int64_t nt, \
        float lowest, float *CYDNNL_RESTRICT acc, int32_t *CYDNNL_RESTRICT idx) {    \
    cydnnl_v##L##sf a = (cydnnl_v##L##sf){} + lowest;                                \
    cydnnl_v##L##si ix = (cydnnl_v##L##si){};                                        \
    for (int64_t t = 0; t < nt; t++) {                                               \
        cydnnl_v##L##sf v = CYDNNL_POOL_LOAD_##DT(L, s + toff[t]);                   \
        cydnnl_v##L##si gt = v > a;                                                  \
        a = (cydnnl_v##L##sf)(CYDNNL_POOL_SELECT(L, gt, v, a));                      \
        ix = CYDNNL_POOL_SELECT(L, gt, (cydnnl_v##L##si){} + (int32_t)t, ix);        \
    }                                                                                \
    memcpy(acc, &a, sizeof(a));                                                      \
    memcpy(idx, &ix, sizeof(ix));                                                    \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_sum_##DT##_##L(                                       \
        const T *CYDNNL_RESTRICT s, const int64_t *CYDNNL_RESTRICT toff, int64_t nt, \
        float *CYDNNL_RESTRICT acc) {                                                \
    cydnnl_v##L##sf a = (cydnnl_v##L##sf){};                                         \
    for (int64_t t = 0; t < nt; t++) a += CYDNNL_POOL_LOAD_##DT(L, s + toff[t]);     \
    memcpy(acc, &a, sizeof(a));                                                      \
}                                                                                    \
/* four pixels along w (windows ps apart): independent compare/select     */         \
/* chains hide each other's latency                                       */         \
CYDNNL_INLINE void cydnnl_pool_max4_##DT##_##L(                                      \
        const T *CYDNNL_RESTRICT s, int64_t ps, const int64_t *CYDNNL_RESTRICT toff, \
        int64_t nt, float lowest, float *CYDNNL_RESTRICT acc,                        \
        int32_t *CYDNNL_RESTRICT idx) {                                              \
    cydnnl_v##L##sf a[4];                                                            \
    cydnnl_v##L##si ix[4];                                                           \
    for (int j = 0; j < 4; j++) {                                                    \
        a[j] = (cydnnl_v##L##sf){} + lowest;                                         \
        ix[j] = (cydnnl_v##L##si){};                                                 \
    }                                                                                \
    for (int64_t t = 0; t < nt; t++) {                                               \
        const T *p = s + toff[t];                                                    \
        cydnnl_v##L##si tv = (cydnnl_v##L##si){} + (int32_t)t;                       \
        for (int j = 0; j < 4; j++) {                                                \
            cydnnl_v##L##sf v = CYDNNL_POOL_LOAD_##DT(L, p + j * ps);                \
            cydnnl_v##L##si gt = v > a[j];                                           \
            a[j] = (cydnnl_v##L##sf)(CYDNNL_POOL_SELECT(L, gt, v, a[j]));            \
            ix[j] = CYDNNL_POOL_SELECT(L, gt, tv, ix[j]);                            \
        }                                                                            \
    }                                                                                \
    memcpy(acc, a, sizeof(a));                                                       \
    memcpy(idx, ix, sizeof(ix));                                                     \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_sum4_##DT##_##L(                                      \
        const T *CYDNNL_RESTRICT s, int64_t ps, const int64_t *CYDNNL_RESTRICT toff, \
        int64_t nt, float *CYDNNL_RESTRICT acc) {                                    \
    cydnnl_v##L##sf a[4];                                                            \
    for (int j = 0; j < 4; j++) a[j] = (cydnnl_v##L##sf){};                          \
    for (int64_t t = 0; t < nt; t++)                                                 \
        for (int j = 0; j < 4; j++)                                                  \
            a[j] += CYDNNL_POOL_LOAD_##DT(L, s + toff[t] + j * ps);                  \
    memcpy(acc, a, sizeof(a));                                                       \
}                                                                                    \
/* backward, reading diff_dst (and ws) straight from memory               */         \
CYDNNL_INLINE void cydnnl_pool_avgbwd_##DT##_##L(float *CYDNNL_RESTRICT acc,         \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const T *CYDNNL_RESTRICT dd, \
        float div) {                                                                 \
    cydnnl_v##L##sf d = CYDNNL_POOL_LOAD_##DT(L, dd) / div;                          \
    for (int64_t t = 0; t < nt; t++) {                                               \
        cydnnl_v##L##sf y;                                                           \
        memcpy(&y, acc + toff[t], sizeof(y));                                        \
        y += d;                                                                      \
        memcpy(acc + toff[t], &y, sizeof(y));                                        \
    }                                                                                \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_u8_##DT##_##L(float *CYDNNL_RESTRICT acc,      \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const T *CYDNNL_RESTRICT dd, \
        const uint8_t *CYDNNL_RESTRICT ws) {                                         \
    cydnnl_v##L##sf d = CYDNNL_POOL_LOAD_##DT(L, dd);                                \
    cydnnl_v##L##si k;                                                               \
    cydnnl_pool_widen_u8_##L(&k, ws);                                                \
    cydnnl_pool_maskadd_##L(acc, toff, nt, &d, &k);                                  \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_s32_##DT##_##L(float *CYDNNL_RESTRICT acc,     \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const T *CYDNNL_RESTRICT dd, \
        const int32_t *CYDNNL_RESTRICT ws) {                                         \
    cydnnl_v##L##sf d = CYDNNL_POOL_LOAD_##DT(L, dd);                                \
    cydnnl_v##L##si k;                                                               \
    memcpy(&k, ws, sizeof(k));                                                       \
    cydnnl_pool_maskadd_##L(acc, toff, nt, &d, &k);                                  \
}
/* max backward: lane i adds d[i] at tap k[i], as masked adds over every
   tap (scatters do not vectorise); lanes with k outside [0, nt) add 0 */
#define CYDNNL_POOL_LANES(L)                                                         \
CYDNNL_INLINE void cydnnl_pool_maskadd_##L(float *CYDNNL_RESTRICT acc,               \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const cydnnl_v##L##sf *d,   \
        const cydnnl_v##L##si *k) {                                                  \
    for (int64_t t = 0; t < nt; t++) {                                               \
        cydnnl_v##L##sf y;                                                           \
        cydnnl_v##L##si m = *k == ((cydnnl_v##L##si){} + (int32_t)t);                \
        memcpy(&y, acc + toff[t], sizeof(y));                                        \
        y += (cydnnl_v##L##sf)((cydnnl_v##L##si)*d & m);                             \
        memcpy(acc + toff[t], &y, sizeof(y));                                        \
    }                                                                                \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_##L(float *CYDNNL_RESTRICT acc,                \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt,                             \
        const float *CYDNNL_RESTRICT dd,                                             \
        const int32_t *CYDNNL_RESTRICT k) {                                          \
    cydnnl_v##L##sf d;                                                               \
    cydnnl_v##L##si kk;                                                              \
    memcpy(&d, dd, sizeof(d));                                                       \
    memcpy(&kk, k, sizeof(kk));                                                      \
    cydnnl_pool_maskadd_##L(acc, toff, nt, &d, &kk);                                 \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_add_##L(float *CYDNNL_RESTRICT acc,                   \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt,                             \
        const float *CYDNNL_RESTRICT v) {                                            \
    cydnnl_v##L##sf x;                                                               \
    memcpy(&x, v, sizeof(x));                                                        \
    for (int64_t t = 0; t < nt; t++) {                                               \
        cydnnl_v##L##sf y;                                                           \
        memcpy(&y, acc + toff[t], sizeof(y));                                        \
        y += x;                                                                      \
        memcpy(acc + toff[t], &y, sizeof(y));                                        \
    }                                                                                \
}                                                                                    \
/* f32 to bf16 with cydnnl_f32_to_bf16's rounding (cydnnl_common.h),     */         \
/* lane-wise                                                              */         \
CYDNNL_INLINE void cydnnl_pool_to_bf16_##L(uint16_t *CYDNNL_RESTRICT d,              \
                                           const float *CYDNNL_RESTRICT a) {         \
    cydnnl_v##L##su u;                                                               \
    memcpy(&u, a, sizeof(u));                                                        \
    CYDNNL_BF16_ROUND_BITS(cydnnl_v##L##su, u, r, CYDNNL_SEL_VECTOR);                \
    cydnnl_v##L##hu h = __builtin_convertvector(r, cydnnl_v##L##hu);                 \
    memcpy(d, &h, sizeof(h));                                                        \
}
CYDNNL_POOL_LANES(16)
CYDNNL_POOL_LANES(8)
CYDNNL_POOL_FWD(f32, float, 16)
CYDNNL_POOL_FWD(f32, float, 8)
CYDNNL_POOL_FWD(bf16, uint16_t, 16)
CYDNNL_POOL_FWD(bf16, uint16_t, 8)

#else
/* ---- the plain fallback (CYDNNL_PLAIN_KERNELS or no GCC extensions):
   the same functions as loops ---- */
#define CYDNNL_POOL_LANES(L)                                                         \
CYDNNL_INLINE void cydnnl_pool_maxbwd_##L(float *CYDNNL_RESTRICT acc,                \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt,                             \
        const float *CYDNNL_RESTRICT dd,                                             \
        const int32_t *CYDNNL_RESTRICT k) {                                          \
    for (int64_t i = 0; i < L; i++)                                                  \
        if (k[i] >= 0 && k[i] < nt) acc[toff[k[i]] + i] += dd[i];                    \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_add_##L(float *CYDNNL_RESTRICT acc,                   \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt,                             \
        const float *CYDNNL_RESTRICT v) {                                            \
    cydnnl_pool_add_n(acc, toff, nt, v, L);                                          \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_to_bf16_##L(uint16_t *CYDNNL_RESTRICT d,              \
                                           const float *CYDNNL_RESTRICT a) {         \
    for (int64_t i = 0; i < L; i++) d[i] = cydnnl_f32_to_bf16(a[i]);                 \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_ws_u8_##L(uint8_t *CYDNNL_RESTRICT w,                 \
                                         const int32_t *CYDNNL_RESTRICT idx) {       \
    for (int64_t i = 0; i < L; i++) w[i] = (uint8_t)idx[i];                          \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_ws_to_s32_u8_##L(int32_t *k, const uint8_t *w) {      \
    for (int64_t i = 0; i < L; i++) k[i] = w[i];                                     \
}
#define CYDNNL_POOL_FWD(DT, T, LD, L)                                                \
CYDNNL_INLINE void cydnnl_pool_max_##DT##_##L(                                       \
        const T *CYDNNL_RESTRICT s, const int64_t *CYDNNL_RESTRICT toff, int64_t nt, \
        float lowest, float *CYDNNL_RESTRICT acc, int32_t *CYDNNL_RESTRICT idx) {    \
    cydnnl_pool_max_##DT##_n(s, toff, nt, lowest, acc, idx, L);                      \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_sum_##DT##_##L(                                       \
        const T *CYDNNL_RESTRICT s, const int64_t *CYDNNL_RESTRICT toff, int64_t nt, \
        float *CYDNNL_RESTRICT acc) {                                                \
    cydnnl_pool_sum_##DT##_n(s, toff, nt, acc, L);                                   \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_max4_##DT##_##L(                                      \
        const T *CYDNNL_RESTRICT s, int64_t ps, const int64_t *CYDNNL_RESTRICT toff, \
        int64_t nt, float lowest, float *CYDNNL_RESTRICT acc,                        \
        int32_t *CYDNNL_RESTRICT idx) {                                              \
    for (int64_t j = 0; j < 4; j++)                                                  \
        cydnnl_pool_max_##DT##_n(s + j * ps, toff, nt, lowest, acc + j * L,          \
                                 idx + j * L, L);                                    \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_sum4_##DT##_##L(                                      \
        const T *CYDNNL_RESTRICT s, int64_t ps, const int64_t *CYDNNL_RESTRICT toff, \
        int64_t nt, float *CYDNNL_RESTRICT acc) {                                    \
    for (int64_t j = 0; j < 4; j++)                                                  \
        cydnnl_pool_sum_##DT##_n(s + j * ps, toff, nt, acc + j * L, L);              \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_avgbwd_##DT##_##L(float *CYDNNL_RESTRICT acc,         \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const T *CYDNNL_RESTRICT dd, \
        float div) {                                                                 \
    float v[L];                                                                      \
    for (int64_t i = 0; i < L; i++) v[i] = LD(dd, i) / div;                          \
    cydnnl_pool_add_n(acc, toff, nt, v, L);                                          \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_u8_##DT##_##L(float *CYDNNL_RESTRICT acc,      \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const T *CYDNNL_RESTRICT dd, \
        const uint8_t *CYDNNL_RESTRICT ws) {                                         \
    for (int64_t i = 0; i < L; i++)                                                  \
        if (ws[i] < nt) acc[toff[ws[i]] + i] += LD(dd, i);                           \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_s32_##DT##_##L(float *CYDNNL_RESTRICT acc,     \
        const int64_t *CYDNNL_RESTRICT toff, int64_t nt, const T *CYDNNL_RESTRICT dd, \
        const int32_t *CYDNNL_RESTRICT ws) {                                         \
    for (int64_t i = 0; i < L; i++)                                                  \
        if (ws[i] >= 0 && ws[i] < nt) acc[toff[ws[i]] + i] += LD(dd, i);             \
}
CYDNNL_POOL_LANES(16)
CYDNNL_POOL_LANES(8)
CYDNNL_POOL_FWD(f32, float, cydnnl_pool_ld_f32, 16)
CYDNNL_POOL_FWD(f32, float, cydnnl_pool_ld_f32, 8)
CYDNNL_POOL_FWD(bf16, uint16_t, cydnnl_pool_ld_bf16, 16)
CYDNNL_POOL_FWD(bf16, uint16_t, cydnnl_pool_ld_bf16, 8)
#endif
/* backward over `count` pixels along w whose windows lie inside src:
   windows ps apart in acc, diff_dst (and ws) ds apart */
#define CYDNNL_POOL_BWD_ROWS(DT, T, L)                                               \
CYDNNL_INLINE void cydnnl_pool_avgbwd_row_##DT##_##L(float *acc, int64_t ps,         \
        const int64_t *toff, int64_t nt, const T *dd, int64_t ds, int64_t count,     \
        float div) {                                                                 \
    for (int64_t j = 0; j < count; j++)                                              \
        cydnnl_pool_avgbwd_##DT##_##L(acc + j * ps, toff, nt, dd + j * ds, div);     \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_row_u8_##DT##_##L(float *acc, int64_t ps,      \
        const int64_t *toff, int64_t nt, const T *dd, int64_t ds, const uint8_t *ws, \
        int64_t count) {                                                             \
    for (int64_t j = 0; j < count; j++)                                              \
        cydnnl_pool_maxbwd_u8_##DT##_##L(acc + j * ps, toff, nt, dd + j * ds,        \
                                         ws + j * ds);                               \
}                                                                                    \
CYDNNL_INLINE void cydnnl_pool_maxbwd_row_s32_##DT##_##L(float *acc, int64_t ps,     \
        const int64_t *toff, int64_t nt, const T *dd, int64_t ds, const int32_t *ws, \
        int64_t count) {                                                             \
    for (int64_t j = 0; j < count; j++)                                              \
        cydnnl_pool_maxbwd_s32_##DT##_##L(acc + j * ps, toff, nt, dd + j * ds,       \
                                          ws + j * ds);                              \
}
/* forward over `count` pixels along w whose windows lie inside src
   (windows ps apart), four at a time, storing dst and the workspace
   (dst's offsets, ds apart; ws may be NULL) */
CYDNNL_INLINE void cydnnl_pool_store_f32_16(float *d, const float *a) {
    memcpy(d, a, 64);
}
CYDNNL_INLINE void cydnnl_pool_store_f32_8(float *d, const float *a) {
    memcpy(d, a, 32);
}
#define cydnnl_pool_store_bf16_16 cydnnl_pool_to_bf16_16
#define cydnnl_pool_store_bf16_8 cydnnl_pool_to_bf16_8
#define CYDNNL_POOL_FWD_ROWS(DT, T, L)                                               \
CYDNNL_INLINE void cydnnl_pool_fwd_row_##DT##_##L(const T *s, int64_t ps,            \
        const int64_t *toff, int64_t nt, int is_max, float lowest, float div,        \
        T *d, int64_t ds, void *ws, int ws_u8, int64_t count) {                      \
    float acc[4 * L];                                                                \
    int32_t idx[4 * L];                                                              \
    int64_t j = 0, q, n;                                                             \
    for (; j < count; j += n) {                                                      \
        n = count - j >= 4 ? 4 : 1;                                                  \
        if (n == 4 && is_max)                                                        \
            cydnnl_pool_max4_##DT##_##L(s + j * ps, ps, toff, nt, lowest, acc, idx); \
        else if (n == 4)                                                             \
            cydnnl_pool_sum4_##DT##_##L(s + j * ps, ps, toff, nt, acc);              \
        else if (is_max)                                                             \
            cydnnl_pool_max_##DT##_##L(s + j * ps, toff, nt, lowest, acc, idx);      \
        else                                                                         \
            cydnnl_pool_sum_##DT##_##L(s + j * ps, toff, nt, acc);                   \
        if (!is_max)                                                                 \
            for (q = 0; q < n * L; q++) acc[q] = acc[q] / div;                       \
        for (q = 0; q < n; q++) {                                                    \
            cydnnl_pool_store_##DT##_##L(d + (j + q) * ds, acc + q * L);             \
            if (ws && ws_u8)                                                         \
                cydnnl_pool_ws_u8_##L((uint8_t *)ws + (j + q) * ds, idx + q * L);    \
            else if (ws)                                                             \
                memcpy((int32_t *)ws + (j + q) * ds, idx + q * L, L * sizeof(int32_t)); \
        }                                                                            \
    }                                                                                \
}
CYDNNL_POOL_FWD_ROWS(f32, float, 16)
CYDNNL_POOL_FWD_ROWS(f32, float, 8)
CYDNNL_POOL_FWD_ROWS(bf16, uint16_t, 16)
CYDNNL_POOL_FWD_ROWS(bf16, uint16_t, 8)
CYDNNL_POOL_BWD_ROWS(f32, float, 16)
CYDNNL_POOL_BWD_ROWS(f32, float, 8)
CYDNNL_POOL_BWD_ROWS(bf16, uint16_t, 16)
CYDNNL_POOL_BWD_ROWS(bf16, uint16_t, 8)

#endif /* CYDNNL_POOL_KERNELS_H */
