/* The copy into a band of the source (kernels/patches.pyx): each element
   written as 4 floats, so that SSE's micro-kernel loads a vector where it
   would broadcast. Baseline x86-64 code (SSE2), like the Cython around it. */
#ifndef CYDNNL_PATCH_BANDS_H
#define CYDNNL_PATCH_BANDS_H
#include "cydnnl_common.h"

#if defined(__GNUC__)
/* dst[0 .. 15]: each of v's 4 lanes 4 times */
CYDNNL_INLINE void cydnnl_spread4_v(cydnnl_v4sf v, float *CYDNNL_RESTRICT dst) {
    cydnnl_v4sf w;
    w = __builtin_shuffle(v, (cydnnl_v4si){0, 0, 0, 0}); memcpy(dst, &w, 16);
    w = __builtin_shuffle(v, (cydnnl_v4si){1, 1, 1, 1}); memcpy(dst + 4, &w, 16);
    w = __builtin_shuffle(v, (cydnnl_v4si){2, 2, 2, 2}); memcpy(dst + 8, &w, 16);
    w = __builtin_shuffle(v, (cydnnl_v4si){3, 3, 3, 3}); memcpy(dst + 12, &w, 16);
}
#endif

/* dst[4 i .. 4 i + 3] = src[i * step], f32 (bf16 != 0: bf16) source, i < n */
CYDNNL_INLINE void cydnnl_spread4(const void *src, int bf16, int64_t step, int64_t n,
                                  float *CYDNNL_RESTRICT dst) {
    int64_t i = 0;
#if defined(__GNUC__)
    /* 4 elements a load, a shuffle each (one loop per type: a test of the
       type in the loop cost the bf16 forward at sse41 1-2%) */
    if (step == 1 && bf16) {
        for (; i + 4 <= n; i += 4) {    /* each bf16 the high half of its lane */
            cydnnl_v8hu h = {0};
            memcpy(&h, (const uint16_t *)src + i, 8);
            cydnnl_spread4_v((cydnnl_v4sf)__builtin_shuffle(
                                 (cydnnl_v8hu){0}, h, (cydnnl_v8hu){0, 8, 1, 9, 2, 10, 3, 11}),
                             dst + 4 * i);
        }
    } else if (step == 1) {
        for (; i + 4 <= n; i += 4) {
            cydnnl_v4sf v;
            memcpy(&v, (const float *)src + i, sizeof v);
            cydnnl_spread4_v(v, dst + 4 * i);
        }
    }
#endif
    for (; i < n; ++i) {
        float x = bf16 ? cydnnl_bf16_to_f32(((const uint16_t *)src)[i * step])
                       : ((const float *)src)[i * step];
        for (int q = 0; q < 4; ++q) dst[4 * i + q] = x;
    }
}
#endif
