/* The SGEMM micro-kernel's per-level tables (see cydnnl_isa.h): what
   kernels/gemm.pyx sees of kernels/isa/gemm_isa.c. */
#ifndef CYDNNL_GEMM_ISA_H
#define CYDNNL_GEMM_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"

typedef struct {
    int mr, nr;     /* the register tile: rows of A, columns of B */
    /* floats per element of a packed A panel: 1, or (SSE) 4, each element
       broadcast to a vector (gemm_kernels.h's CYDNNL_A_LANES) */
    int a_lanes;
    /* the first `rows` (1..mr) rows of a tile of C */
    void (*ukernel)(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                    float alpha, float beta, int64_t rows);
    /* the same with A read in place: element (i, p) is a[i * rs + off[p]],
       exactly `rows` (1..mr) rows read; B's rows ldb apart (nr: a packed
       panel; more: B read in place); bias (nr floats, or NULL) added to
       every row */
    void (*ukernel_strided)(int64_t kc, const float *a, int64_t rs, const int64_t *off,
                            const float *b, int64_t ldb, float *c, int64_t ldc, float alpha,
                            float beta, int64_t rows, const float *bias);
    /* the same from a band of the source expanded to a_lanes floats an
       element (element (i, p) the vector at a + i * rs + off[p]); NULL
       where a_lanes is 1 (gemm_kernels.h's cydnnl_ukernel_wide) */
    void (*ukernel_wide)(int64_t kc, const float *a, int64_t rs, const int64_t *off,
                         const float *b, int64_t ldb, float *c, int64_t ldc, float alpha,
                         float beta, int64_t rows, const float *bias);
    /* ukernel_strided on rows of any output pixels, row i at a + ro[i] (a
       tile across an output row's end); NULL where tiles of MR rows gain
       nothing over the near-equal ones (gemm_kernels.h's
       cydnnl_ukernel_strided_rows) */
    void (*ukernel_strided_rows)(int64_t kc, const float *a, const int64_t *ro,
                                 const int64_t *off, const float *b, int64_t ldb, float *c,
                                 int64_t ldc, float alpha, float beta, int64_t rows,
                                 const float *bias);
    /* bf16 dot products (gemm_kernels.h), NULL below avx512_core_bf16: the
       pair packing of an f32 panel of bf16 values, and the micro-kernel on
       pair panels (kp pairs of k). */
    void (*pack_pairs)(const float *src, int64_t kc, int64_t w, uint32_t *dst);
    void (*ukernel_bf16)(int64_t kp, const uint32_t *a, const uint32_t *b, float *c,
                         int64_t ldc, float alpha, float beta, int64_t rows);
    /* a tile of bf16 A read in place into a pair panel (cydnnl_pack_pair_rows) */
    void (*pack_pair_rows)(const uint16_t *a, int64_t rs, const int64_t *off, int64_t kp,
                           int64_t rows, uint32_t *dst, int64_t w);
    /* pack_pair_rows (rs = 1, w = mr) inside ukernel_bf16's product with the
       first panel of B (cydnnl_ukernel_bf16_packing); ones: a row of bf16 ones
       after the rows */
    void (*ukernel_bf16_packing)(int64_t kp, const uint16_t *a, const int64_t *off,
                                 int64_t rows, int ones, uint32_t *dst, const uint32_t *b,
                                 float *c, int64_t ldc, float alpha, float beta);
    /* the same with bf16 A read in place (cydnnl_ukernel_bf16_strided); bias
       as ukernel_strided's */
    void (*ukernel_bf16_strided)(int64_t nruns, const int32_t *runs, const uint16_t *a,
                                 int64_t rs, const int64_t *off, const uint32_t *b, float *c,
                                 int64_t ldc, float alpha, float beta, int64_t rows,
                                 const float *bias);
    /* bf16 matrices straight into pair panels, as pack_rows / pack_cols
       below pack f32 ones (NULL below avx512_core_bf16) */
    void (*pack_rows_bf16)(const uint16_t *src, int64_t ld, int64_t rows, int64_t kc,
                           uint32_t *dst, int64_t w);
    void (*pack_cols_bf16)(const uint16_t *src, int64_t ld, int64_t kc, int64_t n,
                           uint32_t *dst, int64_t w);
    /* the transposing pack of f32 rows into a w-lane panel (gemm_kernels.h) */
    void (*pack_rows)(const float *src, int64_t ld, int64_t rows, int64_t kc, float *dst,
                      int64_t w);
    /* the straight pack of n f32 columns into w-column panels */
    void (*pack_cols)(const float *src, int64_t ld, int64_t kc, int64_t n, float *dst,
                      int64_t w);
    /* column sums of rows ld apart, f32 or bf16 (cydnnl_col_sums) */
    void (*col_sums)(const void *x, int bf16, int64_t ld, int64_t rows, int64_t n,
                     float *sums);
    /* an f32 tile rounded into a bf16 C (cydnnl_tile_to_bf16) */
    void (*tile_to_bf16)(const float *t, int64_t ldt, int64_t rows, int64_t cols, uint16_t *c,
                         int64_t ldc);
} cydnnl_gemm_kernel_t;

/* The largest tile of any level, for scratch sizes. */
#define CYDNNL_GEMM_MAX_MR 12
#define CYDNNL_GEMM_MAX_NR 32

CYDNNL_ISA_DECLARE(cydnnl_gemm_kernel_t, cydnnl_gemm_kernel)

static inline const cydnnl_gemm_kernel_t *cydnnl_gemm_kernel_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_gemm_kernel, level);
}
#endif
