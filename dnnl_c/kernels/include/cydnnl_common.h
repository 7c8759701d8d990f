/* What the C kernels share: restrict and inline spellings, bf16 <-> f32,
   GCC vector types, and OpenMP with serial fallbacks. The kernel headers
   next to this one include it; .pxd files declare its functions to Cython
   (kernels/bf16.pxd, kernels/openmp.pxd). */
#ifndef CYDNNL_COMMON_H
#define CYDNNL_COMMON_H
#include <stdint.h>
#include <string.h>

/* ---- restrict and inline ---- */
#if defined(__GNUC__)
#define CYDNNL_RESTRICT __restrict__
#elif defined(_MSC_VER)
#define CYDNNL_RESTRICT __restrict
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define CYDNNL_RESTRICT restrict
#else
#define CYDNNL_RESTRICT
#endif
#define CYDNNL_INLINE static inline

/* ---- bf16 <-> f32 as oneDNN converts (src/common/bfloat16.cpp): round to
   nearest even, subnormals to signed zero, inf kept, NaN kept and made
   quiet. Branch-free so loops over it vectorise. ---- */

/* The rounding, written once for the whole package: declares r, of type T,
   the bf16 bits (in the low 16 bits) of the f32 whose bits are u, T being
   uint32_t or a GCC vector of them. SEL(c, a, b) is a where c holds, else
   b: ?: for scalars (c 0 or 1), a mask blend for vectors (c all-ones or
   all-zeros lanes; C has no ?: on vectors). */
#define CYDNNL_BF16_ROUND_BITS(T, u, r, SEL)                                  \
    T r##_rounded = ((u) + 0x7fffu + (((u) >> 16) & 1u)) >> 16;               \
    T r##_is_nan = (T)(((u) & 0x7fffffffu) > 0x7f800000u);                    \
    T r##_is_tiny = (T)(((u) & 0x7f800000u) == 0u);                           \
    T r = SEL(r##_is_nan, ((u) >> 16) | 0x40u,                                \
              SEL(r##_is_tiny, ((u) >> 16) & 0x8000u, r##_rounded))
#define CYDNNL_SEL_SCALAR(c, a, b) ((c) ? (a) : (b))
#define CYDNNL_SEL_VECTOR(c, a, b) (((c) & (a)) | (~(c) & (b)))
/* The f32 lanes of the GCC vector v stored at p as bf16, rounded as above;
   VU and VH: v's lanes as uint32 and as uint16. */
#define CYDNNL_STORE_BF16_LANES(p, v, VU, VH)                                 \
    do {                                                                      \
        VU u_ = (VU)(v);                                                      \
        CYDNNL_BF16_ROUND_BITS(VU, u_, r_, CYDNNL_SEL_VECTOR);                \
        VH h_ = __builtin_convertvector(r_, VH);                              \
        memcpy((p), &h_, sizeof h_);                                          \
    } while (0)

CYDNNL_INLINE float cydnnl_bf16_to_f32(uint16_t v) {
    uint32_t u = (uint32_t)v << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

CYDNNL_INLINE uint16_t cydnnl_f32_to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    CYDNNL_BF16_ROUND_BITS(uint32_t, u, r, CYDNNL_SEL_SCALAR);
    return (uint16_t)r;
}

#if defined(__AVX512F__)
#include <immintrin.h>
/* 16 lanes at once: vcvtneps2bf16 where the level has it (the same
   rounding), else the rounding above with its NaN and tiny cases as masked
   operations, fewer instructions than the generic vector form (Zen 4, bf16
   relu of 32x96x55x55 at avx512_core: 2.35 -> 1.79 ms on 1 thread). */
CYDNNL_INLINE __m256i cydnnl_f32_to_bf16_16(__m512 v) {
#if defined(__AVX512BF16__)
    return (__m256i)_mm512_cvtneps_pbh(v);
#else
    __m512i u = _mm512_castps_si512(v), hi = _mm512_srli_epi32(u, 16);
    __m512i r = _mm512_srli_epi32(
        _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)),
                         _mm512_and_si512(hi, _mm512_set1_epi32(1))), 16);
    __mmask16 tiny = _mm512_testn_epi32_mask(u, _mm512_set1_epi32(0x7f800000));
    __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                            _mm512_set1_epi32(0x7f800000));
    r = _mm512_mask_and_epi32(r, tiny, hi, _mm512_set1_epi32(0x8000));
    r = _mm512_mask_or_epi32(r, nan, hi, _mm512_set1_epi32(0x40));
    return _mm512_cvtepi32_epi16(r);
#endif
}

/* 16 x 16 32-bit elements in place: lane j of r[i] to lane i of r[j].
   Pairs within 128-bit lanes, then quads, then the lanes themselves. */
CYDNNL_INLINE void cydnnl_transpose16_epi32(__m512i r[16]) {
    __m512i t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    /* r[4g + c], lane L: element 4L + c of rows 4g .. 4g + 3 */
    for (int g = 0; g < 16; g += 4) {
        r[g] = _mm512_unpacklo_epi64(t[g], t[g + 2]);
        r[g + 1] = _mm512_unpackhi_epi64(t[g], t[g + 2]);
        r[g + 2] = _mm512_unpacklo_epi64(t[g + 1], t[g + 3]);
        r[g + 3] = _mm512_unpackhi_epi64(t[g + 1], t[g + 3]);
    }
    for (int c = 0; c < 4; ++c) {
        __m512i v0 = _mm512_shuffle_i32x4(r[c], r[4 + c], 0x44);
        __m512i v1 = _mm512_shuffle_i32x4(r[c], r[4 + c], 0xee);
        __m512i v2 = _mm512_shuffle_i32x4(r[8 + c], r[12 + c], 0x44);
        __m512i v3 = _mm512_shuffle_i32x4(r[8 + c], r[12 + c], 0xee);
        t[c] = _mm512_shuffle_i32x4(v0, v2, 0x88);
        t[4 + c] = _mm512_shuffle_i32x4(v0, v2, 0xdd);
        t[8 + c] = _mm512_shuffle_i32x4(v1, v3, 0x88);
        t[12 + c] = _mm512_shuffle_i32x4(v1, v3, 0xdd);
    }
    for (int i = 0; i < 16; ++i) r[i] = t[i];
}
#endif

#if !defined(__AVX512F__) && (defined(__AVX2__) || defined(__SSE4_1__))
#include <immintrin.h>
/* AVX2's and SSE4.1's vectors: the lanes the rounding alone does not give
   as cydnnl_f32_to_bf16 does are NaNs (made quiet) and nonzero subnormals
   (to signed zeros): |u| above inf's bits, or |u| - 1 below the smallest
   normal's (an unsigned compare by min_epu32). A step of two vectors
   without such a lane takes the rounding alone, any other the scalar form.
   GCC's vectorised selects (blends through one fixed register) took 1.8x
   the time at sse41 and 1.6x at avx2 (1.2 MB on a Zen 5 core: 99 -> 56 us,
   46 -> 29 us, the same with half of it zeros; AlexNet conv1's bf16 forward
   at sse41 rounds its dst so, 1% of its time). */
#if defined(__AVX2__)
typedef __m256i cydnnl_bf16v;
#define CYDNNL_BF16V(op) _mm256_##op
#define CYDNNL_BF16V_AND _mm256_and_si256
#define CYDNNL_BF16V_OR _mm256_or_si256
#define CYDNNL_BF16V_LANES 8
#else
typedef __m128i cydnnl_bf16v;
#define CYDNNL_BF16V(op) _mm_##op
#define CYDNNL_BF16V_AND _mm_and_si128
#define CYDNNL_BF16V_OR _mm_or_si128
#define CYDNNL_BF16V_LANES 4
#endif
CYDNNL_INLINE cydnnl_bf16v cydnnl_bf16v_special(cydnnl_bf16v u) {
    const cydnnl_bf16v a = CYDNNL_BF16V_AND(u, CYDNNL_BF16V(set1_epi32)(0x7fffffff));
    const cydnnl_bf16v x = CYDNNL_BF16V(sub_epi32)(a, CYDNNL_BF16V(set1_epi32)(1));
    return CYDNNL_BF16V_OR(
        CYDNNL_BF16V(cmpgt_epi32)(a, CYDNNL_BF16V(set1_epi32)(0x7f800000)),
        CYDNNL_BF16V(cmpeq_epi32)(CYDNNL_BF16V(min_epu32)(x, CYDNNL_BF16V(set1_epi32)(0x007ffffe)),
                                  x));
}
CYDNNL_INLINE cydnnl_bf16v cydnnl_bf16v_round(cydnnl_bf16v u) {
    const cydnnl_bf16v lsb = CYDNNL_BF16V_AND(CYDNNL_BF16V(srli_epi32)(u, 16),
                                              CYDNNL_BF16V(set1_epi32)(1));
    return CYDNNL_BF16V(srli_epi32)(
        CYDNNL_BF16V(add_epi32)(CYDNNL_BF16V(add_epi32)(u, CYDNNL_BF16V(set1_epi32)(0x7fff)), lsb),
        16);
}
/* One vector's lanes (bits as int32) into bf16 at p, as above: the
   transposes', the eltwise and the pooling kernels' stores (Zen 5, one
   core: f32 nchw -> bf16 nhwc of 32x96x27x27 0.95 -> 0.83 ms at sse41, 0.61
   -> 0.48 at avx2; bf16 eltwise_linear of 32x96x55x55 4.7 -> 3.0 ms, 2.3 ->
   1.4; AlexNet pool1's bf16 mb32 max backward 6.4 -> 4.9 ms at sse41). */
CYDNNL_INLINE void cydnnl_bf16v_store(uint16_t *p, cydnnl_bf16v u) {
    if (CYDNNL_BF16V(movemask_epi8)(cydnnl_bf16v_special(u))) {
        uint32_t w[CYDNNL_BF16V_LANES];
        memcpy(w, &u, sizeof w);
        for (int j = 0; j < CYDNNL_BF16V_LANES; ++j) {
            float f;
            memcpy(&f, w + j, sizeof f);
            p[j] = cydnnl_f32_to_bf16(f);
        }
        return;
    }
    cydnnl_bf16v r = cydnnl_bf16v_round(u);
    r = CYDNNL_BF16V(packus_epi32)(r, r);
#if defined(__AVX2__)
    /* each 128-bit half packed in place: the halves' first 64 bits */
    _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(_mm256_permute4x64_epi64(r, 0x08)));
#else
    _mm_storel_epi64((__m128i *)p, r);
#endif
}
#endif

/* n f32 into bf16, as cydnnl_f32_to_bf16 rounds: AVX-512's 16 lanes, AVX2's
   and SSE4.1's two vectors a step where no lane is special (above; a step
   with one goes element by element: through cydnnl_bf16v_store, the loop's
   code took the sse41 steps 1.25x as long), else the branch-free rounding */
CYDNNL_INLINE void cydnnl_f32_to_bf16_run(const float *CYDNNL_RESTRICT s,
                                          uint16_t *CYDNNL_RESTRICT d, int64_t n) {
    int64_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256((__m256i *)(d + i), cydnnl_f32_to_bf16_16(_mm512_loadu_ps(s + i)));
#elif defined(__AVX2__) || defined(__SSE4_1__)
    const int64_t L = CYDNNL_BF16V_LANES;
    for (; i + 2 * L <= n; i += 2 * L) {
        cydnnl_bf16v u0, u1, r;
        memcpy(&u0, s + i, sizeof u0);
        memcpy(&u1, s + i + L, sizeof u1);
        if (CYDNNL_BF16V(movemask_epi8)(CYDNNL_BF16V_OR(cydnnl_bf16v_special(u0),
                                                        cydnnl_bf16v_special(u1)))) {
            for (int64_t j = i; j < i + 2 * L; ++j) d[j] = cydnnl_f32_to_bf16(s[j]);
            continue;
        }
        /* packus interleaves AVX2's 128-bit halves: put them back in order */
        r = CYDNNL_BF16V(packus_epi32)(cydnnl_bf16v_round(u0), cydnnl_bf16v_round(u1));
#if defined(__AVX2__)
        r = _mm256_permute4x64_epi64(r, 0xd8);
#endif
        memcpy(d + i, &r, sizeof r);
    }
#endif
    for (; i < n; ++i) d[i] = cydnnl_f32_to_bf16(s[i]);
}

/* ---- GCC vector types: v<lanes><kind>, sf float, si int32, su uint32,
   hu uint16 ---- */
#if defined(__GNUC__)
typedef float cydnnl_v4sf __attribute__((vector_size(16)));
typedef int32_t cydnnl_v4si __attribute__((vector_size(16)));
typedef float cydnnl_v8sf __attribute__((vector_size(32)));
typedef int32_t cydnnl_v8si __attribute__((vector_size(32)));
typedef uint16_t cydnnl_v8hu __attribute__((vector_size(16)));
typedef uint32_t cydnnl_v8su __attribute__((vector_size(32)));
typedef float cydnnl_v16sf __attribute__((vector_size(64)));
typedef int32_t cydnnl_v16si __attribute__((vector_size(64)));
typedef uint16_t cydnnl_v16hu __attribute__((vector_size(32)));
typedef uint32_t cydnnl_v16su __attribute__((vector_size(64)));
#endif

/* ---- OpenMP where the build has it; one thread where it has not ---- */
#ifdef _OPENMP
#include <omp.h>
#define CYDNNL_OPENMP 1
#else
#define CYDNNL_OPENMP 0
CYDNNL_INLINE int omp_get_max_threads(void) { return 1; }
CYDNNL_INLINE int omp_get_thread_num(void) { return 0; }
CYDNNL_INLINE int omp_get_num_threads(void) { return 1; }
#endif

#endif /* CYDNNL_COMMON_H */
