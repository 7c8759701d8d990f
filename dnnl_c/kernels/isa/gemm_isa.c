/* The SGEMM micro-kernel for one ISA level (setup.py compiles this file once
   per level; see kernels/include/cydnnl_isa.h). */
#include "kernels/include/gemm_kernels.h"
#include "kernels/include/gemm_isa.h"

_Static_assert(CYDNNL_MR <= CYDNNL_GEMM_MAX_MR && CYDNNL_NR <= CYDNNL_GEMM_MAX_NR,
               "the scratch tile must hold this level's tile");

static void ukernel(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                    float alpha, float beta) {
    cydnnl_ukernel(kc, a, b, c, ldc, alpha, beta);
}

const cydnnl_gemm_kernel_t CYDNNL_ISA_FN(cydnnl_gemm_kernel) = {CYDNNL_MR, CYDNNL_NR, ukernel};
