# Integer GEMM (oneDNN's gemm_s8x8s32 semantics, row-major): C (s32) =
# alpha * (op(A) - ao) . (op(B) - bo) + beta * C + co, the products summed
# exactly in int64, the result in double rounded to nearest and saturated to
# s32. A plain kernel: rows of C split between the threads, no packing.

from libc.stdint cimport int8_t, int32_t, int64_t

# a_signed: A is s8 (else u8); trans 'N' or 'T'; offsetc 'F' (co[0] for all),
# 'C' (co[i] per row of C) or 'R' (co[j] per column). -1 when out of memory.
cdef int igemm(bint a_signed, char transa, char transb, char offsetc, int64_t m, int64_t n,
               int64_t k, float alpha, const void *a, int64_t lda, int ao, const int8_t *b,
               int64_t ldb, int bo, float beta, int32_t *c, int64_t ldc,
               const int32_t *co) noexcept nogil
