/* Transposes for reorders between channels-first and channels-last (or
   channel-blocked) layouts: dst[j * ldd + i] = src[i * lds + j], i < rows,
   j < cols, and 0 for rows <= i < pad (a channel block's padding lanes),
   f32 or bf16 on either side (bf16 out rounds as cydnnl_f32_to_bf16). Tiles
   of TV x TV go through registers (transpose_width.h, included once per
   tile width); the edges go element by element. Compiled once per ISA level
   (kernels/isa/reorder_isa.c): the level's vectors set TV, and AVX-512 also
   has tiles of 8 for blocks of 8 channels. */
#ifndef CYDNNL_TRANSPOSE_KERNELS_H
#define CYDNNL_TRANSPOSE_KERNELS_H
#include "cydnnl_common.h"

CYDNNL_INLINE float cydnnl_tr_get(const void *p, int64_t i, const int bf16) {
    return bf16 ? cydnnl_bf16_to_f32(((const uint16_t *)p)[i]) : ((const float *)p)[i];
}

CYDNNL_INLINE void cydnnl_tr_put(void *p, int64_t i, float v, const int bf16) {
    if (bf16)
        ((uint16_t *)p)[i] = cydnnl_f32_to_bf16(v);
    else
        ((float *)p)[i] = v;
}

/* cydnnl_transpose_dt_<TV>, for each tile width of the level (0: none,
   element by element) */
#if defined(__GNUC__) && defined(__AVX512F__)
#define CYDNNL_TV 16
#include "transpose_width.h"
#undef CYDNNL_TV
#define CYDNNL_TV 8
#include "transpose_width.h"
#undef CYDNNL_TV
#define CYDNNL_TR_WIDE 16
#elif defined(__GNUC__) && defined(__AVX__)
#define CYDNNL_TV 8
#include "transpose_width.h"
#undef CYDNNL_TV
#define CYDNNL_TR_WIDE 8
#elif defined(__GNUC__) && defined(__SSE2__)
#define CYDNNL_TV 4
#include "transpose_width.h"
#undef CYDNNL_TV
#define CYDNNL_TR_WIDE 4
#else
#define CYDNNL_TV 0
#include "transpose_width.h"
#undef CYDNNL_TV
#define CYDNNL_TR_WIDE 0
#endif
#define CYDNNL_TR_CALL(TV, ...) CYDNNL_TR_CALL_(TV, __VA_ARGS__)
#define CYDNNL_TR_CALL_(TV, ...) cydnnl_transpose_dt_##TV(__VA_ARGS__)

/* Below AVX-512 each (src, dst) type pair gets its own copy of the tile
   loops: left to GCC, f32 -> f32 kept the types as run-time tests and the
   tile in memory (f32 nchw -> nhwc of 8x96x27x27 on a Zen 5 core: avx2 73
   -> 48 us, sse41 98 -> 52); at AVX-512 the copies measured up to 30%
   slower (nChw16c -> nchw) and the same elsewhere. */
#if CYDNNL_TR_WIDE == 16
#define CYDNNL_TR_W_INLINE CYDNNL_INLINE
#else
#define CYDNNL_TR_W_INLINE static inline __attribute__((always_inline))
#endif

CYDNNL_TR_W_INLINE void cydnnl_transpose_w(const char *s, int64_t lds, char *d, int64_t ldd,
                                      int64_t rows, int64_t pad, int64_t cols, const int sbf,
                                      const int dbf) {
#if CYDNNL_TR_WIDE == 16
    /* blocks of 8 channels (nChw8c) in tiles of 8: in tiles of 16 they went
       element by element, 3.5x slower than oneDNN */
    if (pad <= 8 || (cols <= 8 && lds <= 8)) {
        cydnnl_transpose_dt_8(s, lds, d, ldd, rows, pad, cols, sbf, dbf);
        return;
    }
#endif
    CYDNNL_TR_CALL(CYDNNL_TR_WIDE, s, lds, d, ldd, rows, pad, cols, sbf, dbf);
}

/* src_bf16, dst_bf16: whether each side is bf16 (else f32). Each src row
   but the last holds lds elements (a blocked src's padding lanes): where
   cols < TV <= lds whole tiles of them are read and their first cols rows
   stored. */
CYDNNL_INLINE void cydnnl_transpose(const void *src, int src_bf16, int64_t lds, void *dst,
                                    int dst_bf16, int64_t ldd, int64_t rows, int64_t pad,
                                    int64_t cols) {
    const char *s = (const char *)src;
    char *d = (char *)dst;
    if (src_bf16 && dst_bf16)
        cydnnl_transpose_w(s, lds, d, ldd, rows, pad, cols, 1, 1);
    else if (src_bf16)
        cydnnl_transpose_w(s, lds, d, ldd, rows, pad, cols, 1, 0);
    else if (dst_bf16)
        cydnnl_transpose_w(s, lds, d, ldd, rows, pad, cols, 0, 1);
    else
        cydnnl_transpose_w(s, lds, d, ldd, rows, pad, cols, 0, 0);
}
#endif /* CYDNNL_TRANSPOSE_KERNELS_H */
