/* The copy into a band of the source (kernels/patches.pyx): each element
   written as 4 floats, so that SSE's micro-kernel loads a vector where it
   would broadcast. Baseline x86-64 code (SSE2), like the Cython around it. */
#ifndef CYDNNL_PATCH_BANDS_H
#define CYDNNL_PATCH_BANDS_H
#include "cydnnl_common.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* dst[4 i .. 4 i + 3] = src[i * step], f32 (bf16 != 0: bf16) source, i < n */
CYDNNL_INLINE void cydnnl_spread4(const void *src, int bf16, int64_t step, int64_t n,
                                  float *CYDNNL_RESTRICT dst) {
#if defined(__GNUC__)
    if (!bf16 && step == 1) {     /* 4 elements a load: a shuffle each */
        const float *f = (const float *)src;
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            cydnnl_v4sf v, w;
            memcpy(&v, f + i, sizeof v);
            w = __builtin_shuffle(v, (cydnnl_v4si){0, 0, 0, 0}); memcpy(dst + 4 * i, &w, 16);
            w = __builtin_shuffle(v, (cydnnl_v4si){1, 1, 1, 1}); memcpy(dst + 4 * i + 4, &w, 16);
            w = __builtin_shuffle(v, (cydnnl_v4si){2, 2, 2, 2}); memcpy(dst + 4 * i + 8, &w, 16);
            w = __builtin_shuffle(v, (cydnnl_v4si){3, 3, 3, 3}); memcpy(dst + 4 * i + 12, &w, 16);
        }
        for (; i < n; ++i) {
            cydnnl_v4sf w = {f[i], f[i], f[i], f[i]};
            memcpy(dst + 4 * i, &w, 16);
        }
        return;
    }
#endif
#if defined(__SSE2__)
    if (bf16 && step == 1) {     /* 4 elements a load, widened by an unpack */
        const uint16_t *h = (const uint16_t *)src;
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            const __m128 v = _mm_castsi128_ps(_mm_unpacklo_epi16(
                _mm_setzero_si128(), _mm_loadl_epi64((const __m128i *)(h + i))));
            _mm_storeu_ps(dst + 4 * i, _mm_shuffle_ps(v, v, 0x00));
            _mm_storeu_ps(dst + 4 * i + 4, _mm_shuffle_ps(v, v, 0x55));
            _mm_storeu_ps(dst + 4 * i + 8, _mm_shuffle_ps(v, v, 0xaa));
            _mm_storeu_ps(dst + 4 * i + 12, _mm_shuffle_ps(v, v, 0xff));
        }
        for (; i < n; ++i) {
            const float x = cydnnl_bf16_to_f32(h[i]);
            for (int q = 0; q < 4; ++q) dst[4 * i + q] = x;
        }
        return;
    }
#endif
    for (int64_t i = 0; i < n; ++i) {
        float x = bf16 ? cydnnl_bf16_to_f32(((const uint16_t *)src)[i * step])
                       : ((const float *)src)[i * step];
        for (int q = 0; q < 4; ++q) dst[4 * i + q] = x;
    }
}
#endif
