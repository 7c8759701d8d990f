# Integer GEMM (see igemm.pxd): for each row of C, the row of the product is
# accumulated in int64 over k (row i of op(A) times the rows of op(B)), then
# scaled, offset, rounded and saturated.

from cython.parallel cimport prange
from libc.stdint cimport int8_t, uint8_t, int32_t, int64_t, INT32_MIN, INT32_MAX
from libc.math cimport nearbyint
from dnnl_c.kernels.alloc cimport cydnnl_malloc, cydnnl_free
from dnnl_c.kernels.openmp cimport omp_get_max_threads, omp_get_thread_num


cdef inline int64_t a_at(bint a_signed, const void *a, bint ta, int64_t lda, int64_t i,
                         int64_t p) noexcept nogil:
    cdef int64_t idx = p * lda + i if ta else i * lda + p
    if a_signed:
        return (<const int8_t *>a)[idx]
    return (<const uint8_t *>a)[idx]


cdef inline int32_t out_s32(double v) noexcept nogil:
    if v <= INT32_MIN:
        return INT32_MIN
    if v >= INT32_MAX:
        return INT32_MAX
    return <int32_t>nearbyint(v)


cdef void igemm_row(bint a_signed, bint ta, bint tb, char offsetc, int64_t i, int64_t n,
                    int64_t k, float alpha, const void *a, int64_t lda, int ao,
                    const int8_t *b, int64_t ldb, int bo, float beta, int32_t *c,
                    int64_t ldc, const int32_t *co, int64_t *acc) noexcept nogil:
    cdef int64_t j, p, x
    cdef double v, off
    for j in range(n):
        acc[j] = 0
    for p in range(k):
        x = a_at(a_signed, a, ta, lda, i, p) - ao
        if x == 0:
            continue
        if tb:
            for j in range(n):
                acc[j] += x * (b[j * ldb + p] - bo)
        else:
            for j in range(n):
                acc[j] += x * (b[p * ldb + j] - bo)
    for j in range(n):
        off = co[j] if offsetc == b'R' else (co[i] if offsetc == b'C' else co[0])
        v = <double>alpha * <double>acc[j] + off
        if beta != 0:
            v += <double>beta * c[i * ldc + j]
        c[i * ldc + j] = out_s32(v)


cdef int igemm(bint a_signed, char transa, char transb, char offsetc, int64_t m, int64_t n,
               int64_t k, float alpha, const void *a, int64_t lda, int ao, const int8_t *b,
               int64_t ldb, int bo, float beta, int32_t *c, int64_t ldc,
               const int32_t *co) noexcept nogil:
    cdef int64_t i
    cdef int nthr = omp_get_max_threads()
    cdef bint ta = transa == b'T', tb = transb == b'T'
    if m <= 0 or n <= 0:
        return 0
    # a row of int64 accumulators per thread
    cdef int64_t *acc = <int64_t *>cydnnl_malloc(nthr * n * sizeof(int64_t), 64)
    if acc == NULL:
        return -1
    for i in prange(m, schedule='static', num_threads=nthr):
        igemm_row(a_signed, ta, tb, offsetc, i, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c,
                  ldc, co, acc + omp_get_thread_num() * n)
    cydnnl_free(acc)
    return 0
