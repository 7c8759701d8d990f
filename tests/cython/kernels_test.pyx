# Test access to internal kernels, compiled against the installed .pxd files.

from dnnl_c.kernels.gemm cimport sgemm as c_sgemm, sgemm_parallel, gemm_mr, gemm_nr


def sgemm(str transa, str transb, long m, long n, long k, float alpha, float[::1] a, long lda,
          float[::1] b, long ldb, float beta, float[::1] c, long ldc, bint parallel):
    cdef char ta = ord(transa)
    cdef char tb = ord(transb)
    cdef const float *pa = &a[0] if a.shape[0] else NULL
    cdef const float *pb = &b[0] if b.shape[0] else NULL
    cdef float *pc = &c[0]
    with nogil:
        if parallel:
            sgemm_parallel(ta, tb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)
        else:
            c_sgemm(ta, tb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)


def tile():
    return gemm_mr(), gemm_nr()
