/* The SGEMM micro-kernel for one ISA level (setup.py compiles this file once
   per level; see kernels/include/cydnnl_isa.h). */
#include "kernels/include/gemm_kernels.h"
#include "kernels/include/gemm_isa.h"

_Static_assert(CYDNNL_MR <= CYDNNL_GEMM_MAX_MR && CYDNNL_NR <= CYDNNL_GEMM_MAX_NR,
               "the scratch tile must hold this level's tile");

static void ukernel(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                    float alpha, float beta, int64_t rows) {
    cydnnl_ukernel(kc, a, b, c, ldc, alpha, beta, rows);
}

static void ukernel_strided(int64_t kc, const float *a, int64_t rs, const int64_t *off,
                            const float *b, int64_t ldb, float *c, int64_t ldc, float alpha,
                            float beta, int64_t rows, const float *bias) {
    cydnnl_ukernel_strided(kc, a, rs, off, b, ldb, c, ldc, alpha, beta, rows, bias);
}

#if CYDNNL_A_LANES > 1
static void ukernel_wide(int64_t kc, const float *a, int64_t rs, const int64_t *off,
                         const float *b, int64_t ldb, float *c, int64_t ldc, float alpha,
                         float beta, int64_t rows, const float *bias) {
    cydnnl_ukernel_wide(kc, a, rs, off, b, ldb, c, ldc, alpha, beta, rows, bias);
}
#else
#define ukernel_wide NULL
#endif

#ifdef CYDNNL_STRIDED_ROWS
static void ukernel_strided_rows(int64_t kc, const float *a, const int64_t *ro,
                                 const int64_t *off, const float *b, int64_t ldb, float *c,
                                 int64_t ldc, float alpha, float beta, int64_t rows,
                                 const float *bias) {
    cydnnl_ukernel_strided_rows(kc, a, ro, off, b, ldb, c, ldc, alpha, beta, rows, bias);
}
#else
#define ukernel_strided_rows NULL
#endif

#ifdef CYDNNL_GEMM_BF16_DOT
static void pack_pairs(const float *src, int64_t kc, int64_t w, uint32_t *dst) {
    cydnnl_pack_pairs(src, kc, w, dst);
}

static void ukernel_bf16(int64_t kp, const uint32_t *a, const uint32_t *b, float *c,
                         int64_t ldc, float alpha, float beta, int64_t rows) {
    cydnnl_ukernel_bf16(kp, a, b, c, ldc, alpha, beta, rows);
}

static void ukernel_bf16_strided(int64_t nruns, const int32_t *runs, const uint16_t *a,
                                 int64_t rs, const int64_t *off, const uint32_t *b, float *c,
                                 int64_t ldc, float alpha, float beta, int64_t rows,
                                 const float *bias) {
    cydnnl_ukernel_bf16_strided(nruns, runs, a, rs, off, b, c, ldc, alpha, beta, rows, bias);
}

static void pack_pair_rows(const uint16_t *a, int64_t rs, const int64_t *off, int64_t kp,
                           int64_t rows, uint32_t *dst, int64_t w) {
    cydnnl_pack_pair_rows(a, rs, off, kp, rows, dst, w);
}

static void ukernel_bf16_packing(int64_t kp, const uint16_t *a, const int64_t *off,
                                 int64_t rows, int ones, uint32_t *dst, const uint32_t *b,
                                 float *c, int64_t ldc, float alpha, float beta) {
    cydnnl_ukernel_bf16_packing(kp, a, off, rows, ones, dst, b, c, ldc, alpha, beta);
}

static void pack_rows_bf16(const uint16_t *src, int64_t ld, int64_t rows, int64_t kc,
                           uint32_t *dst, int64_t w) {
    cydnnl_pack_rows_bf16(src, ld, rows, kc, dst, w);
}

static void pack_cols_bf16(const uint16_t *src, int64_t ld, int64_t kc, int64_t n,
                           uint32_t *dst, int64_t w) {
    cydnnl_pack_cols_bf16(src, ld, kc, n, dst, w);
}
#define CYDNNL_PAIRS pack_pairs, ukernel_bf16, pack_pair_rows, ukernel_bf16_packing, \
    ukernel_bf16_strided, pack_rows_bf16, pack_cols_bf16
#else
#define CYDNNL_PAIRS NULL, NULL, NULL, NULL, NULL, NULL, NULL
#endif

static void pack_rows(const float *src, int64_t ld, int64_t rows, int64_t kc, float *dst,
                      int64_t w) {
    cydnnl_pack_rows(src, ld, rows, kc, dst, w);
}

static void pack_cols(const float *src, int64_t ld, int64_t kc, int64_t n, float *dst,
                      int64_t w) {
    cydnnl_pack_cols(src, ld, kc, n, dst, w);
}

static void col_sums(const void *x, int bf16, int64_t ld, int64_t rows, int64_t n,
                     float *sums) {
    cydnnl_col_sums(x, bf16, ld, rows, n, sums);
}

static void tile_to_bf16(const float *t, int64_t ldt, int64_t rows, int64_t cols, uint16_t *c,
                         int64_t ldc) {
    cydnnl_tile_to_bf16(t, ldt, rows, cols, c, ldc);
}

const cydnnl_gemm_kernel_t CYDNNL_ISA_FN(cydnnl_gemm_kernel) = {
    CYDNNL_MR, CYDNNL_NR, CYDNNL_A_LANES, ukernel, ukernel_strided, ukernel_wide,
    ukernel_strided_rows,
    CYDNNL_PAIRS, pack_rows, pack_cols, col_sums, tile_to_bf16};
