/* f32 <-> bf16 conversion of dense runs for one ISA level (setup.py compiles
   this file once per level; see kernels/include/cydnnl_isa.h). The branch-free
   rounding of cydnnl_common.h vectorises at the level's width; at AVX-512,
   16 lanes at a time by cydnnl_f32_to_bf16_16 (vcvtneps2bf16 with
   AVX512_BF16, which rounds the same way: nearest even, denormals to signed
   zero, NaN kept and made quiet). */
#include "kernels/include/cydnnl_common.h"
#include "kernels/include/reorder_isa.h"
#include "kernels/include/transpose_kernels.h"

static void f32_to_bf16(const float *CYDNNL_RESTRICT s, uint16_t *CYDNNL_RESTRICT d, int64_t n) {
    cydnnl_f32_to_bf16_run(s, d, n);
}

static void bf16_to_f32(const uint16_t *CYDNNL_RESTRICT s, float *CYDNNL_RESTRICT d, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = cydnnl_bf16_to_f32(s[i]);
}

static void transpose(const void *src, int src_bf16, int64_t lds, void *dst, int dst_bf16,
                      int64_t ldd, int64_t rows, int64_t pad, int64_t cols) {
    cydnnl_transpose(src, src_bf16, lds, dst, dst_bf16, ldd, rows, pad, cols);
}

const cydnnl_reorder_kernels_t CYDNNL_ISA_FN(cydnnl_reorder_kernels) = {f32_to_bf16, bf16_to_f32,
                                                                         transpose};
