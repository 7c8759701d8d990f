# oneDNN's BLAS-like functions (dnnl.h's dnnl_sgemm and int8 GEMMs, and the
# bf16 one oneDNN exports from src/common/gemm.cpp): row-major
# C = alpha * op(A) op(B) + beta * C on the library's GEMMs (kernels/gemm.pxd,
# kernels/igemm.pxd).

from libc.stdint cimport uint16_t, uint8_t, int8_t, int32_t
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
# C (s32) = alpha * (op(A) - ao) . (op(B) - bo) + beta * C + co; offsetc 'F':
# co[0] everywhere, 'C': co[i] along each column (M values), 'R': co[j] along
# each row (N values); rounded to nearest and saturated (see kernels/igemm).
cdef dnnl_status_t dnnl_gemm_u8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
                                     dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
                                     dnnl_dim_t lda, uint8_t ao, const int8_t *B,
                                     dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C,
                                     dnnl_dim_t ldc, const int32_t *co) noexcept nogil
cdef dnnl_status_t dnnl_gemm_s8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
                                     dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
                                     dnnl_dim_t lda, int8_t ao, const int8_t *B,
                                     dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C,
                                     dnnl_dim_t ldc, const int32_t *co) noexcept nogil
# The ISA level the floating-point functions run at (for tests): bf16 for
# dnnl_gemm_bf16bf16f32; dnnl_cpu_isa_default when there is no kernel.
cdef dnnl_cpu_isa_t cydnnl_gemm_isa(int bf16) noexcept nogil
