/* The LRN row kernels' per-level tables (see cydnnl_isa.h): what
   kernels/lrn.pyx sees of kernels/isa/lrn_isa.c, and omega^-beta, which the
   level-free reference computes too. */
#ifndef CYDNNL_LRN_ISA_H
#define CYDNNL_LRN_ISA_H
#include <math.h>
#include <stdint.h>
#include "cydnnl_isa.h"

/* oneDNN's fast path for beta = 0.75: omega^-3/4 from two square roots. */
static inline float cydnnl_lrn_pow_neg(float omega, float beta) {
    if (beta == 0.75f) {
        float s = sqrtf(omega);
        return 1.0f / (s * sqrtf(s));
    }
    return 1.0f / powf(omega, beta);
}

/* the direct kernels' limits: channels, and window half-width */
#define CYDNNL_LRN_DIRECT_MAXC 1024
#define CYDNNL_LRN_DIRECT_MAXH 16

typedef struct {
    /* rows x n elements from s (rows ls apart) to d (rows ld apart), f32
       or bf16 on one side and f32 on the other: a tile's gather (in) and
       scatter (out) */
    void (*in_f32)(float *d, int64_t ld, const float *s, int64_t ls, int64_t rows,
                   int64_t n);
    void (*in_bf16)(float *d, int64_t ld, const uint16_t *s, int64_t ls, int64_t rows,
                    int64_t n);
    void (*out_f32)(float *d, int64_t ld, const float *s, int64_t ls, int64_t rows,
                    int64_t n);
    void (*out_bf16)(uint16_t *d, int64_t ld, const float *s, int64_t ls, int64_t rows,
                     int64_t n);
    /* forward over n flat positions: y[i] = x[i] * omega_i^-beta, x read
       from x - h to x + n + h */
    void (*fwd_run)(float *y, const float *x, int64_t n, int64_t h, float k, float scale,
                    float beta);
    /* backward, first pass: a[i] = dd[i] * omega_i^-beta (in place of dd),
       b[i] = x[i] * a[i] / omega_i */
    void (*bwd_run1)(float *dd, float *b, const float *x, int64_t n, int64_t h, float k,
                     float scale, float beta);
    /* backward, second pass: a[i] -= coef * x[i] * sum_{j=-h..h} b[i+j] */
    void (*bwd_run2)(float *a, const float *b, const float *x, int64_t n, int64_t h,
                     float coef);
    /* backward across channels on the layout itself, beta = 3/4 (NULL below
       AVX-512): npos positions ss elements apart, channels in vectors of
       16 sc apart, C channels, windows h either side (h <= 16, C <= 1024);
       pad_lanes: the last vector's lanes past C are layout padding, zeroed */
    void (*bwd_direct)(const void *src, const void *dd, void *ds, int bf16, int64_t npos,
                       int64_t ss, int64_t sc, int64_t C, int64_t h, int pad_lanes, float k,
                       float scale, float coef);
    /* forward the same way: dst = src * omega^-3/4 (src may be dst) */
    void (*fwd_direct)(const void *src, void *dst, int bf16, int64_t npos, int64_t ss,
                       int64_t sc, int64_t C, int64_t h, int pad_lanes, float k, float scale);
} cydnnl_lrn_kernels_t;

CYDNNL_ISA_DECLARE(cydnnl_lrn_kernels_t, cydnnl_lrn_kernels)

static inline const cydnnl_lrn_kernels_t *cydnnl_lrn_kernels_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_lrn_kernels, level);
}
#endif
