/* The transposes of one tile width, CYDNNL_TV (4, 8, 16; 0: element by
   element): transpose_kernels.h includes this once per width its level has,
   the names suffixed with the width. A TV x TV tile goes through registers:
   the transpose of a 2^n square is the swap of its off-diagonal blocks at
   every scale (halves, quarters, ... single elements), each swap one
   two-source shuffle per row. No include guard: included once per width. */
#define CYDNNL_TRN(name) CYDNNL_TRN_(name, CYDNNL_TV)
#define CYDNNL_TRN_(name, tv) CYDNNL_TRN__(name, tv)
#define CYDNNL_TRN__(name, tv) name##_##tv

#if CYDNNL_TV
typedef float CYDNNL_TRN(cydnnl_tvf) __attribute__((vector_size(4 * CYDNNL_TV)));
typedef int32_t CYDNNL_TRN(cydnnl_tvi) __attribute__((vector_size(4 * CYDNNL_TV)));
typedef uint32_t CYDNNL_TRN(cydnnl_tvu) __attribute__((vector_size(4 * CYDNNL_TV)));
typedef uint16_t CYDNNL_TRN(cydnnl_tvh) __attribute__((vector_size(2 * CYDNNL_TV)));
#define cydnnl_tvf CYDNNL_TRN(cydnnl_tvf)
#define cydnnl_tvi CYDNNL_TRN(cydnnl_tvi)
#define cydnnl_tvu CYDNNL_TRN(cydnnl_tvu)
#define cydnnl_tvh CYDNNL_TRN(cydnnl_tvh)

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

/* r[j] becomes column j of the tile its rows held. At sse41 GCC made two or
   three instructions of each two-source shuffle (pshufd + blend), so there
   the unpack / movelh sequence is spelt out (f32 nchw -> nhwc of 8x96x27x27
   on a Zen 5 core, in a C loop: 64 -> 49 us); with AVX2 its code measured
   the same as the spelt-out one, and AVX-512 has each shuffle as one
   instruction. */
CYDNNL_INLINE void CYDNNL_TRN(cydnnl_tr_regs)(cydnnl_tvf *r) {
#if CYDNNL_TV == 4 && defined(__SSE2__)
    const __m128 t0 = _mm_unpacklo_ps((__m128)r[0], (__m128)r[1]);
    const __m128 t1 = _mm_unpackhi_ps((__m128)r[0], (__m128)r[1]);
    const __m128 t2 = _mm_unpacklo_ps((__m128)r[2], (__m128)r[3]);
    const __m128 t3 = _mm_unpackhi_ps((__m128)r[2], (__m128)r[3]);
    r[0] = (cydnnl_tvf)_mm_movelh_ps(t0, t2);
    r[1] = (cydnnl_tvf)_mm_movehl_ps(t2, t0);
    r[2] = (cydnnl_tvf)_mm_movelh_ps(t1, t3);
    r[3] = (cydnnl_tvf)_mm_movehl_ps(t3, t1);
#else
#if CYDNNL_TV == 16
    CYDNNL_TR_STAGE(r, 8)
#endif
#if CYDNNL_TV >= 8
    CYDNNL_TR_STAGE(r, 4)
#endif
    CYDNNL_TR_STAGE(r, 2)
    CYDNNL_TR_STAGE(r, 1)
#endif
}

CYDNNL_INLINE cydnnl_tvf CYDNNL_TRN(cydnnl_tr_load)(const void *p, const int bf16) {
    if (bf16) {
        cydnnl_tvh h;
        memcpy(&h, p, sizeof h);
        return (cydnnl_tvf)(__builtin_convertvector(h, cydnnl_tvu) << 16);
    }
    cydnnl_tvf v;
    memcpy(&v, p, sizeof v);
    return v;
}

CYDNNL_INLINE void CYDNNL_TRN(cydnnl_tr_store)(void *p, cydnnl_tvf v, const int bf16) {
    if (bf16) {
#if CYDNNL_TV == 16
        _mm256_storeu_si256((__m256i *)p, cydnnl_f32_to_bf16_16((__m512)v));
#elif CYDNNL_TV == 8 && defined(__AVX512F__)
        /* AVX-512's 8-wide tiles (nChw8c): the 16-lane rounding's low half
           (f32 nchw -> bf16 nChw8c of 32x96x27x27 on a Zen 5 core: 0.50 ->
           0.23 ms at avx512_core_bf16, 0.52 -> 0.40 at avx512_core, from
           GCC's vectorised form) */
        _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(
            cydnnl_f32_to_bf16_16(_mm512_zextps256_ps512((__m256)v))));
#elif defined(CYDNNL_BF16V_LANES) && CYDNNL_TV == CYDNNL_BF16V_LANES
        cydnnl_bf16v u;
        memcpy(&u, &v, sizeof u);
        cydnnl_bf16v_store((uint16_t *)p, u);
#else
        CYDNNL_STORE_BF16_LANES(p, v, cydnnl_tvu, cydnnl_tvh);
#endif
    } else {
        memcpy(p, &v, sizeof v);
    }
}

/* The TV x TV tile at src row i0, column j0 into dst; its src rows from
   `valid` on read as zeros (a block's padding lanes), its dst rows from
   `out` on not stored (columns past a blocked src's channels). Whole tiles
   pass the constant TV for both, so that the checks go away. */
static inline __attribute__((always_inline)) void CYDNNL_TRN(cydnnl_transpose_tile)(
        const char *CYDNNL_RESTRICT s, int64_t lds, char *CYDNNL_RESTRICT d, int64_t ldd,
        int64_t i0, int64_t j0, const int sbf, const int dbf, const int64_t valid,
        const int64_t out) {
    const int64_t ss = sbf ? 2 : 4, ds = dbf ? 2 : 4;
    cydnnl_tvf r[CYDNNL_TV];
    for (int i = 0; i < CYDNNL_TV; ++i) {
        if (i >= valid) {
            r[i] = (cydnnl_tvf){0};
            continue;
        }
        /* no software prefetch: since the tiles go in bands of 16 src rows
           the hardware follows them, and prefetching each row 4 tiles ahead
           made warm nchw -> nChw16c 10-15% slower, from memory up to 20% */
        r[i] = CYDNNL_TRN(cydnnl_tr_load)(s + ((i0 + i) * lds + j0) * ss, sbf);
    }
    CYDNNL_TRN(cydnnl_tr_regs)(r);
    for (int j = 0; j < CYDNNL_TV; ++j)
        if (j < out)
            CYDNNL_TRN(cydnnl_tr_store)(d + ((j0 + j) * ldd + i0) * ds, r[j], dbf);
}
#define CYDNNL_TR_TILE(i0, j0, valid, out) \
    CYDNNL_TRN(cydnnl_transpose_tile)(s, lds, d, ldd, i0, j0, sbf, dbf, valid, out)
#endif

/* element (i, j) of the transpose, 0 past the src rows */
#define CYDNNL_TR_PUT(i, j)                                                            \
    cydnnl_tr_put(d, (j) * ldd + (i),                                                  \
                  (i) < rows ? cydnnl_tr_get(s, (i) * lds + (j), sbf) : 0.f, dbf)

static inline __attribute__((always_inline)) void CYDNNL_TRN(cydnnl_transpose_dt)(
        const char *CYDNNL_RESTRICT s, int64_t lds, char *CYDNNL_RESTRICT d, int64_t ldd,
        int64_t rows, int64_t pad, int64_t cols, const int sbf, const int dbf) {
    int64_t i0 = 0, j0 = 0;
    /* bytes of a src and a dst element (prefetches) */
    const int64_t ss = sbf ? 2 : 4, ds = dbf ? 2 : 4;
    (void)ss;
    (void)ds;
#if CYDNNL_TV
    /* whole tiles of src rows (the last may reach into the padding: a 3-channel
       nchw src into nChw16c is one tile of 3 rows and 13 zeros, where it
       was 13 memset calls per pixel, 7x slower than oneDNN) */
    const int64_t rt = pad / CYDNNL_TV * CYDNNL_TV, ct = cols / CYDNNL_TV * CYDNNL_TV;
    const int64_t rf = rows / CYDNNL_TV * CYDNNL_TV;  /* the whole tiles of src */
    /* The side with the short rows (channels-last: a pixel's channels) is
       the one walked across: where src has them (lds < ldd), bands of TV
       dst rows, written as TV streams while the reads stride through a
       compact src (bf16 nhwc -> f32 nchw of 32x96x27x27 from memory, Zen 4
       on 2 threads: 0.72-1.26 -> 0.45-0.64 ms); where dst has them, bands
       of 16 src rows, read as 16 streams that the hardware prefetch follows,
       each dst line written whole (f32 nchw -> nhwc of 8x96x27x27: 60 ->
       42 us). The sse41/avx2 loops for the second (16 rows = 2 or 4 tiles)
       ran 20% slower at avx512 than the plain one: the code the compiler
       makes of them matters here. */
    if (ct == CYDNNL_TV) {  /* one band of columns (nChw16c): 10% faster without the loop */
        for (i0 = 0; i0 < rf; i0 += CYDNNL_TV)
            CYDNNL_TR_TILE(i0, 0, CYDNNL_TV, CYDNNL_TV);
    } else if (lds < ldd) {
#if CYDNNL_TV == 16
        for (j0 = 0; j0 < ct; j0 += CYDNNL_TV)
            for (i0 = 0; i0 < rf; i0 += CYDNNL_TV)
                CYDNNL_TR_TILE(i0, j0, CYDNNL_TV, CYDNNL_TV);
#else
        for (int64_t jb = 0; jb < ct; jb += 16) {   /* 16 dst rows: whole lines */
            const int64_t je = jb + 16 < ct ? jb + 16 : ct;
            int64_t ib = 0;
#if CYDNNL_TV == 4
            /* each dst row's line in four stores in a row, four lines open
               at a time, not sixteen: the stores of 16 bytes waiting for
               their lines filled the store queue (f32 nhwc -> nchw of
               32x96x27x27 from memory, Zen 4, 1 thread: 2.8-3.6 -> 1.8-2.3
               ms; the same order at avx2 was no better) */
            for (; ib + 16 <= rf; ib += 16) {
                /* the band's part of the src row 16 rows on: the hardware
                   did not follow (f32 nhwc -> nchw of 32x96x27x27 from memory
                   on a Zen 5 core, sse41 0.89-0.93 -> 0.76-0.79 ms, avx2
                   0.73-0.87 -> 0.63-0.72; in cache 10% less) */
                for (int64_t i = ib; i < ib + 16; i++)
                    __builtin_prefetch(s + ((i + 16) * lds + jb) * ss, 0, 3);
                for (j0 = jb; j0 < je; j0 += CYDNNL_TV)
                    for (i0 = ib; i0 < ib + 16; i0 += CYDNNL_TV)
                        CYDNNL_TR_TILE(i0, j0, CYDNNL_TV, CYDNNL_TV);
            }
#endif
            for (i0 = ib; i0 < rf; i0 += CYDNNL_TV) {
                for (int64_t i = i0; i < i0 + CYDNNL_TV; i++)   /* as above */
                    __builtin_prefetch(s + ((i + 16) * lds + jb) * ss, 0, 3);
                for (j0 = jb; j0 < je; j0 += CYDNNL_TV)
                    CYDNNL_TR_TILE(i0, j0, CYDNNL_TV, CYDNNL_TV);
            }
        }
#endif
    } else {
#if CYDNNL_TV == 16
        for (i0 = 0; i0 < rf; i0 += CYDNNL_TV)
            for (j0 = 0; j0 < ct; j0 += CYDNNL_TV)
                CYDNNL_TR_TILE(i0, j0, CYDNNL_TV, CYDNNL_TV);
#else
        for (int64_t ib = 0; ib < rf; ib += 16) {
            const int64_t ie = ib + 16 < rf ? ib + 16 : rf;
            for (j0 = 0; j0 < ct; j0 += CYDNNL_TV) {
                /* each row's line 256 bytes on asked for once per 64 bytes:
                   the hardware alone kept too few of the 16 streams' lines
                   coming (f32 nchw -> nhwc at avx2, Zen 5 core, 32x96x27x27
                   from memory: 1.00 -> 0.89 ms through the package, 0.71 ->
                   0.51 in a C loop; at AVX-512 no gain, up to 5% cost) */
                if (!(j0 & 15))
                    for (int64_t i = ib; i < ie; i++)
                        __builtin_prefetch(s + (i * lds + j0) * ss + 256, 0, 3);
                /* and the dst lines 32 pixels on, for writing: the
                   hardware fetched them (a line each, 384 bytes apart at 96
                   channels) too late (f32 32x96x27x27 from memory, avx2 on
                   a Zen 5 core: 0.75-0.79 -> 0.49-0.54 ms, 2 threads
                   0.39-0.41 -> 0.30-0.31; AVX-512's loop gained nothing) */
                for (int64_t j = 0; j < CYDNNL_TV; j++)
                    __builtin_prefetch(d + ((j0 + 32 + j) * ldd + ib) * ds, 1, 3);
                for (i0 = ib; i0 < ie; i0 += CYDNNL_TV)
                    CYDNNL_TR_TILE(i0, j0, CYDNNL_TV, CYDNNL_TV);
            }
        }
#endif
    }
    for (i0 = rf; i0 < rt; i0 += CYDNNL_TV)     /* tiles holding padding */
        for (j0 = 0; j0 < ct; j0 += CYDNNL_TV)
            CYDNNL_TR_TILE(i0, j0, rows - i0, CYDNNL_TV);
    if (ct == 0 && cols > 0 && lds >= CYDNNL_TV && rows == pad) {
        /* fewer columns than a tile, each src row but the last holding a
           tile's width (a blocked src of few channels): whole tiles read,
           cols rows stored. The last row may end at its cols-th element (a
           view of a channels-last parent, its buffer ending there: the
           tile's load ran past the end at sse41), so it goes element by
           element. */
        const int64_t rl = (rows - 1) / CYDNNL_TV * CYDNNL_TV;
        for (i0 = 0; i0 < rl; i0 += CYDNNL_TV)
            CYDNNL_TR_TILE(i0, 0, CYDNNL_TV, cols);
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = rl; i < pad; ++i)
                CYDNNL_TR_PUT(i, j);
        return;
    }
    int64_t ce = ct;    /* the columns done by tiles */
    if (ct > 0 && ct < cols) {
        /* the columns past the last band as one more band ending at cols,
           overlapping the band before (whose last columns are stored twice,
           the same values): 9 columns of 16 rows one by one were 4% of
           nchw -> nChw16c of 27x27 maps */
        const int64_t jl = cols - CYDNNL_TV;
        for (i0 = 0; i0 < rf; i0 += CYDNNL_TV)
            CYDNNL_TR_TILE(i0, jl, CYDNNL_TV, CYDNNL_TV);
        for (i0 = rf; i0 < rt; i0 += CYDNNL_TV)
            CYDNNL_TR_TILE(i0, jl, rows - i0, CYDNNL_TV);
        ce = cols;
    }
    if (rt < pad)   /* (an empty inner loop run ct times was 20% of nchw -> nChw16c) */
        for (int64_t j = 0; j < ce; ++j)        /* rows past the last tile */
            for (int64_t i = rt; i < pad; ++i)
                CYDNNL_TR_PUT(i, j);
    j0 = ce;
#endif
    for (int64_t j = j0; j < cols; ++j)         /* columns past the last band */
        for (int64_t i = 0; i < pad; ++i)
            CYDNNL_TR_PUT(i, j);
}
#undef CYDNNL_TR_PUT
#undef CYDNNL_TR_TILE
#undef CYDNNL_TR_LO
#undef CYDNNL_TR_HI
#undef CYDNNL_TR_MASK
#undef CYDNNL_TR_STAGE
#undef cydnnl_tvf
#undef cydnnl_tvi
#undef cydnnl_tvu
#undef cydnnl_tvh
#undef CYDNNL_TRN
#undef CYDNNL_TRN_
#undef CYDNNL_TRN__
