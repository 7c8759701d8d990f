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

/* ---- GCC vector types: v<lanes><kind>, sf float, si int32, su uint32,
   hu uint16 ---- */
#if defined(__GNUC__)
typedef float cydnnl_v4sf __attribute__((vector_size(16)));
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
