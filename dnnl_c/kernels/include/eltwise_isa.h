/* The eltwise vector loops' per-level tables (see cydnnl_isa.h): what
   kernels/eltwise.pyx sees of kernels/isa/eltwise_isa.c. */
#ifndef CYDNNL_ELTWISE_ISA_H
#define CYDNNL_ELTWISE_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"

/* The algorithms with vector loops (each with its *_use_dst_for_bwd
   variant, whose gradient is the same formula of dst): cheap ones without
   transcendental functions. X(NAME, name) for each. */
#define CYDNNL_ELT_OPS(X)                                                            \
    X(RELU, relu) X(LINEAR, linear) X(CLIP, clip) X(CLIP_V2, clip_v2) X(ABS, abs)   \
    X(SQUARE, square) X(SQRT, sqrt) X(HARDSIGMOID, hardsigmoid)                     \
    X(HARDSWISH, hardswish)
#define CYDNNL_ELT_ENUM_(NAME, name) CYDNNL_ELT_##NAME,
enum { CYDNNL_ELT_OPS(CYDNNL_ELT_ENUM_) CYDNNL_ELT_NOPS };

/* Loops over n dense elements of f32 or bf16 (stored as its bits), the
   result rounded once; src may be dst, diff_dst may be diff_src. op is one
   of the CYDNNL_ELT_* above. Backward reads the data (src or dst) x and
   diff_dst dd. */
typedef struct {
    void (*fwd_f32)(int op, float alpha, float beta, const float *src, float *dst,
                    int64_t n);
    void (*fwd_bf16)(int op, float alpha, float beta, const uint16_t *src, uint16_t *dst,
                     int64_t n);
    void (*bwd_f32)(int op, float alpha, float beta, const float *x, const float *dd,
                    float *diff_src, int64_t n);
    void (*bwd_bf16)(int op, float alpha, float beta, const uint16_t *x, const uint16_t *dd,
                     uint16_t *diff_src, int64_t n);
} cydnnl_eltwise_kernels_t;

CYDNNL_ISA_DECLARE(cydnnl_eltwise_kernels_t, cydnnl_eltwise_kernels)

static inline const cydnnl_eltwise_kernels_t *cydnnl_eltwise_kernels_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_eltwise_kernels, level);
}
#endif
