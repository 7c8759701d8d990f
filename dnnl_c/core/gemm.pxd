# oneDNN's BLAS-like functions (dnnl.h's dnnl_sgemm, and the bf16 one oneDNN
# exports from src/common/gemm.cpp): row-major C = alpha * op(A) op(B) + beta * C
# on the library's GEMM (kernels/gemm.pxd).

from libc.stdint cimport uint16_t
from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
                              dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda,
                              const float *B, dnnl_dim_t ldb, float beta, float *C,
                              dnnl_dim_t ldc) noexcept nogil
# A and B hold bf16 values (their bits, as uint16); C is f32.
cdef dnnl_status_t dnnl_gemm_bf16bf16f32(char transa, char transb, dnnl_dim_t M,
                                         dnnl_dim_t N, dnnl_dim_t K, float alpha,
                                         const uint16_t *A, dnnl_dim_t lda,
                                         const uint16_t *B, dnnl_dim_t ldb, float beta,
                                         float *C, dnnl_dim_t ldc) noexcept nogil
# The ISA level the functions run at (for tests): bf16 for
# dnnl_gemm_bf16bf16f32; dnnl_cpu_isa_default when there is no kernel.
cdef dnnl_cpu_isa_t cydnnl_gemm_isa(int bf16) noexcept nogil
