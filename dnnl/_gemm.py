"""dnnl.sgemm, dnnl.gemm_u8s8s32, dnnl.gemm_s8s8s32 and dnnl.gemm_bf16bf16f32
(dnnl.hpp's BLAS functions):
row-major C = alpha * op(A) . op(B) + beta * C on NumPy arrays (or other
C-contiguous buffers), op(X) being X for 'N' and X^T for 'T'. As in C++,
they return a dnnl.status instead of raising; dnnl_c.cydnnl_last_error()
says why a call failed."""

import dnnl_c as c
from dnnl._enums import status


def sgemm(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc):
    """oneDNN's dnnl::sgemm: A, B and C float32; C is written in place
    (with beta = 0 it is not read)."""
    return status(c.dnnl_sgemm(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc))


def gemm_bf16bf16f32(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc):
    """The same with A and B bf16 (ml_dtypes.bfloat16 arrays, or uint16 arrays
    of the bits) and C float32: oneDNN's dnnl_gemm_bf16bf16f32, which oneDNN
    exports from its library but declares in no public header."""
    return status(c.dnnl_gemm_bf16bf16f32(transa, transb, M, N, K, alpha, A, lda, B, ldb,
                                          beta, C, ldc))


def gemm_u8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc,
                 co):
    """oneDNN's dnnl::gemm_u8s8s32: C (int32) = alpha * (op(A) - ao) . (op(B) - bo)
    + beta * C + co, A uint8, B int8; offsetc 'F', 'C' or 'R' says whether co
    holds one offset, one per row of C or one per column."""
    return status(c.dnnl_gemm_u8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
                                      ldb, bo, beta, C, ldc, co))


def gemm_s8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc,
                 co):
    """oneDNN's dnnl::gemm_s8s8s32: the same with A int8."""
    return status(c.dnnl_gemm_s8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
                                      ldb, bo, beta, C, ldc, co))
