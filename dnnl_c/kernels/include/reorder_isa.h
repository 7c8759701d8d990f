/* The reorder's per-level conversions (see cydnnl_isa.h): what
   kernels/reorder.pyx sees of kernels/isa/reorder_isa.c. */
#ifndef CYDNNL_REORDER_ISA_H
#define CYDNNL_REORDER_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"

typedef struct {
    /* d[i] = s[i] converted, i < n; f32 -> bf16 rounds as cydnnl_f32_to_bf16 */
    void (*f32_to_bf16)(const float *s, uint16_t *d, int64_t n);
    void (*bf16_to_f32)(const uint16_t *s, float *d, int64_t n);
    /* dst[j * ldd + i] = src[i * lds + j], i < rows, j < cols, and 0 for
       rows <= i < pad; each side f32 or bf16 (transpose_kernels.h) */
    void (*transpose)(const void *src, int src_bf16, int64_t lds, void *dst, int dst_bf16,
                      int64_t ldd, int64_t rows, int64_t pad, int64_t cols);
} cydnnl_reorder_kernels_t;

CYDNNL_ISA_DECLARE(cydnnl_reorder_kernels_t, cydnnl_reorder_kernels)

static inline const cydnnl_reorder_kernels_t *cydnnl_reorder_kernels_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_reorder_kernels, level);
}
#endif
