# Single-precision GEMM: C = alpha * op(A) op(B) + beta * C, row-major, with
# op(X) = X or X^T (trans 'N' or 'T'). Packed and cache-blocked around a
# register-tiled micro-kernel.

from libc.stdint cimport int64_t

# One thread.
cdef void sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                float *c, int64_t ldc) noexcept nogil

# All threads, splitting the columns of C.
cdef void sgemm_parallel(char transa, char transb, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t lda, const float *b,
                         int64_t ldb, float beta, float *c, int64_t ldc) noexcept nogil

# The micro-kernel's tile (rows, columns), for tests and tuning.
cdef int gemm_mr() noexcept nogil
cdef int gemm_nr() noexcept nogil
