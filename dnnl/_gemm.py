"""dnnl.sgemm and dnnl.gemm_bf16bf16f32 (dnnl.hpp's BLAS functions):
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
