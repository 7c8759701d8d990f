/* Transposes for reorders between channels-first and channels-last (or
   channel-blocked) layouts: dst[j * ldd + i] = src[i * lds + j], i < rows,
   j < cols, and 0 for rows <= i < pad (a channel block's padding lanes),
   f32 or bf16 on either side (bf16 out rounds as cydnnl_f32_to_bf16). Tiles of TV x TV go through registers: the transpose
   of a 2^n square is the swap of its off-diagonal blocks at every scale
   (halves, quarters, ... single elements), each swap one two-source shuffle
   per row; the edges go element by element. Compiled once per ISA level
   (kernels/isa/reorder_isa.c): the level's vectors set TV. */
#ifndef CYDNNL_TRANSPOSE_KERNELS_H
#define CYDNNL_TRANSPOSE_KERNELS_H
#include "cydnnl_common.h"

#if defined(__GNUC__) && defined(__AVX512F__)
#define CYDNNL_TV 16
#elif defined(__GNUC__) && defined(__AVX__)
#define CYDNNL_TV 8
#elif defined(__GNUC__) && defined(__SSE2__)
#define CYDNNL_TV 4
#else
#define CYDNNL_TV 0
#endif

CYDNNL_INLINE float cydnnl_tr_get(const void *p, int64_t i, const int bf16) {
    return bf16 ? cydnnl_bf16_to_f32(((const uint16_t *)p)[i]) : ((const float *)p)[i];
}

CYDNNL_INLINE void cydnnl_tr_put(void *p, int64_t i, float v, const int bf16) {
    if (bf16)
        ((uint16_t *)p)[i] = cydnnl_f32_to_bf16(v);
    else
        ((float *)p)[i] = v;
}

#if CYDNNL_TV
typedef float cydnnl_tvf __attribute__((vector_size(4 * CYDNNL_TV)));
typedef int32_t cydnnl_tvi __attribute__((vector_size(4 * CYDNNL_TV)));
typedef uint32_t cydnnl_tvu __attribute__((vector_size(4 * CYDNNL_TV)));
typedef uint16_t cydnnl_tvh __attribute__((vector_size(2 * CYDNNL_TV)));

/* lane c of the two rows i and i + b (i & b == 0) after the swap of their
   off-diagonal b-blocks, as indices into (row i, row i + b) */
#define CYDNNL_TR_LO(c, b) (((c) & (b)) ? CYDNNL_TV + (c) - (b) : (c))
#define CYDNNL_TR_HI(c, b) (((c) & (b)) ? CYDNNL_TV + (c) : (c) + (b))
#if CYDNNL_TV == 16
#define CYDNNL_TR_MASK(F, b)                                                              \
    ((cydnnl_tvi){F(0, b), F(1, b), F(2, b), F(3, b), F(4, b), F(5, b), F(6, b), F(7, b), \
                  F(8, b), F(9, b), F(10, b), F(11, b), F(12, b), F(13, b), F(14, b),     \
                  F(15, b)})
#elif CYDNNL_TV == 8
#define CYDNNL_TR_MASK(F, b) \
    ((cydnnl_tvi){F(0, b), F(1, b), F(2, b), F(3, b), F(4, b), F(5, b), F(6, b), F(7, b)})
#else
#define CYDNNL_TR_MASK(F, b) ((cydnnl_tvi){F(0, b), F(1, b), F(2, b), F(3, b)})
#endif
#define CYDNNL_TR_STAGE(r, b)                                                      \
    for (int i = 0; i < CYDNNL_TV; ++i)                                            \
        if (!(i & (b))) {                                                          \
            cydnnl_tvf lo = r[i], hi = r[i + (b)];                                 \
            r[i] = __builtin_shuffle(lo, hi, CYDNNL_TR_MASK(CYDNNL_TR_LO, b));     \
            r[i + (b)] = __builtin_shuffle(lo, hi, CYDNNL_TR_MASK(CYDNNL_TR_HI, b)); \
        }

CYDNNL_INLINE cydnnl_tvf cydnnl_tr_load(const void *p, const int bf16) {
    if (bf16) {
        cydnnl_tvh h;
        memcpy(&h, p, sizeof h);
        return (cydnnl_tvf)(__builtin_convertvector(h, cydnnl_tvu) << 16);
    }
    cydnnl_tvf v;
    memcpy(&v, p, sizeof v);
    return v;
}

CYDNNL_INLINE void cydnnl_tr_store(void *p, cydnnl_tvf v, const int bf16) {
    if (bf16) {
#if CYDNNL_TV == 16
        _mm256_storeu_si256((__m256i *)p, cydnnl_f32_to_bf16_16((__m512)v));
#else
        cydnnl_tvu u = (cydnnl_tvu)v;
        CYDNNL_BF16_ROUND_BITS(cydnnl_tvu, u, r, CYDNNL_SEL_VECTOR);
        cydnnl_tvh h = __builtin_convertvector(r, cydnnl_tvh);
        memcpy(p, &h, sizeof h);
#endif
    } else {
        memcpy(p, &v, sizeof v);
    }
}
#endif

#ifndef CYDNNL_TR_PF
#define CYDNNL_TR_PF 4
#endif
#if CYDNNL_TV
/* The TV x TV tile at src row i0, column j0 into dst; its src rows from
   `valid` on read as zeros (a block's padding lanes; valid is the constant
   TV for a whole tile, so that the check goes away). */
static inline __attribute__((always_inline)) void cydnnl_transpose_tile(
        const char *CYDNNL_RESTRICT s, int64_t lds, char *CYDNNL_RESTRICT d, int64_t ldd,
        int64_t i0, int64_t j0, const int sbf, const int dbf, const int64_t valid) {
    const int64_t ss = sbf ? 2 : 4, ds = dbf ? 2 : 4;
    cydnnl_tvf r[CYDNNL_TV];
    for (int i = 0; i < CYDNNL_TV; ++i) {
        if (i >= valid) {
            r[i] = (cydnnl_tvf){0};
            continue;
        }
        /* each src row is a stream: with many rows the hardware's prefetch
           does not follow them */
        __builtin_prefetch(s + ((i0 + i) * lds + j0 + CYDNNL_TR_PF * CYDNNL_TV) * ss);
        r[i] = cydnnl_tr_load(s + ((i0 + i) * lds + j0) * ss, sbf);
    }
#if CYDNNL_TV == 16
    CYDNNL_TR_STAGE(r, 8)
#endif
#if CYDNNL_TV >= 8
    CYDNNL_TR_STAGE(r, 4)
#endif
    CYDNNL_TR_STAGE(r, 2)
    CYDNNL_TR_STAGE(r, 1)
    for (int j = 0; j < CYDNNL_TV; ++j)
        cydnnl_tr_store(d + ((j0 + j) * ldd + i0) * ds, r[j], dbf);
}
#endif

/* element (i, j) of the transpose, 0 past the src rows */
#define CYDNNL_TR_PUT(i, j)                                                           \
    cydnnl_tr_put(d, (j) * ldd + (i), (i) < rows ? cydnnl_tr_get(s, (i) * lds + (j), sbf) : 0.f, dbf)

static inline __attribute__((always_inline)) void cydnnl_transpose_dt(
        const char *CYDNNL_RESTRICT s, int64_t lds, char *CYDNNL_RESTRICT d, int64_t ldd,
        int64_t rows, int64_t pad, int64_t cols, const int sbf, const int dbf) {
    int64_t i0 = 0, j0 = 0;
#if CYDNNL_TV
    /* whole tiles of src rows (the last may reach into the padding: a 3-channel
       nchw src into nChw16c is one tile of 3 rows and 13 zeros, where it
       was 13 memset calls per pixel, 7x slower than oneDNN) */
    const int64_t rt = pad / CYDNNL_TV * CYDNNL_TV, ct = cols / CYDNNL_TV * CYDNNL_TV;
    const int64_t rf = rows / CYDNNL_TV * CYDNNL_TV;  /* the whole tiles of src */
    /* bands of 16 src rows (64 bytes of each dst row) at a time, read as 16
       streams that the hardware prefetch follows, each dst line written
       whole (bands of dst rows read all rows of src at once: nchw -> nhwc of
       96 x 729 floats 60 -> 42 us, nhwc -> nchw 51 -> 47, nchw -> nChw16c
       68 -> 53, nChw16c -> nchw 44 -> 40; Zen 4, avx512, 8 images on 2
       threads; 8-20% at avx2, 8-38% at sse41). The sse41/avx2 loops
       (16 rows = 2 or 4 tiles) ran 20% slower at avx512 than the plain one:
       the code the compiler makes of them matters here. */
    if (ct == CYDNNL_TV) {  /* one band of columns (nChw16c): 10% faster without the loop */
        for (i0 = 0; i0 < rf; i0 += CYDNNL_TV)
            cydnnl_transpose_tile(s, lds, d, ldd, i0, 0, sbf, dbf, CYDNNL_TV);
    } else {
#if CYDNNL_TV == 16
        for (i0 = 0; i0 < rf; i0 += CYDNNL_TV)
            for (j0 = 0; j0 < ct; j0 += CYDNNL_TV)
                cydnnl_transpose_tile(s, lds, d, ldd, i0, j0, sbf, dbf, CYDNNL_TV);
#else
        for (int64_t ib = 0; ib < rf; ib += 16) {
            const int64_t ie = ib + 16 < rf ? ib + 16 : rf;
            for (j0 = 0; j0 < ct; j0 += CYDNNL_TV)
                for (i0 = ib; i0 < ie; i0 += CYDNNL_TV)
                    cydnnl_transpose_tile(s, lds, d, ldd, i0, j0, sbf, dbf, CYDNNL_TV);
        }
#endif
    }
    for (i0 = rf; i0 < rt; i0 += CYDNNL_TV)     /* tiles holding padding */
        for (j0 = 0; j0 < ct; j0 += CYDNNL_TV)
            cydnnl_transpose_tile(s, lds, d, ldd, i0, j0, sbf, dbf, rows - i0);
    for (int64_t j = 0; j < ct; ++j)            /* rows past the last tile */
        for (int64_t i = rt; i < pad; ++i)
            CYDNNL_TR_PUT(i, j);
    j0 = ct;
#endif
    for (int64_t j = j0; j < cols; ++j)         /* columns past the last band */
        for (int64_t i = 0; i < pad; ++i)
            CYDNNL_TR_PUT(i, j);
}
#undef CYDNNL_TR_PUT

/* src_bf16, dst_bf16: whether each side is bf16 (else f32) */
CYDNNL_INLINE void cydnnl_transpose(const void *src, int src_bf16, int64_t lds, void *dst,
                                    int dst_bf16, int64_t ldd, int64_t rows, int64_t pad,
                                    int64_t cols) {
    const char *s = (const char *)src;
    char *d = (char *)dst;
    if (src_bf16 && dst_bf16)
        cydnnl_transpose_dt(s, lds, d, ldd, rows, pad, cols, 1, 1);
    else if (src_bf16)
        cydnnl_transpose_dt(s, lds, d, ldd, rows, pad, cols, 1, 0);
    else if (dst_bf16)
        cydnnl_transpose_dt(s, lds, d, ldd, rows, pad, cols, 0, 1);
    else
        cydnnl_transpose_dt(s, lds, d, ldd, rows, pad, cols, 0, 0);
}
#endif /* CYDNNL_TRANSPOSE_KERNELS_H */
