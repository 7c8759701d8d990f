# A user's Cython module: dnnl_sgemm / dnnl_gemm_bf16bf16f32 called from
# Cython without the GIL, and primitives created and run from many OpenMP
# threads at once (the primitive cache's bookkeeping under contention).

from cython.parallel cimport prange, threadid
from libc.stdint cimport uint16_t
from libc.stdlib cimport malloc, free
from dnnl_c.dnnl cimport *


def sgemm(str transa, str transb, long m, long n, long k, float alpha, float[::1] a, long lda,
          float[::1] b, long ldb, float beta, float[::1] c, long ldc):
    cdef char ta = ord(transa), tb = ord(transb)
    cdef dnnl_status_t st
    with nogil:
        st = dnnl_sgemm(ta, tb, m, n, k, alpha, &a[0], lda, &b[0], ldb, beta, &c[0], ldc)
    return st


def gemm_bf16(str transa, str transb, long m, long n, long k, float alpha, uint16_t[::1] a,
              long lda, uint16_t[::1] b, long ldb, float beta, float[::1] c, long ldc):
    cdef char ta = ord(transa), tb = ord(transb)
    cdef dnnl_status_t st
    with nogil:
        st = dnnl_gemm_bf16bf16f32(ta, tb, m, n, k, alpha, &a[0], lda, &b[0], ldb, beta,
                                   &c[0], ldc)
    return st


def bad_gemm_calls():
    """Statuses of calls C's checks refuse."""
    cdef float x[4]
    with nogil:
        s1 = dnnl_sgemm(b'X', b'N', 2, 2, 2, 1, x, 2, x, 2, 0, x, 2)
        s2 = dnnl_sgemm(b'N', b'N', 2, 2, 2, 1, NULL, 2, x, 2, 0, x, 2)
        s3 = dnnl_sgemm(b'N', b'N', 2, 2, 2, 1, x, 1, x, 2, 0, x, 2)
        s4 = dnnl_sgemm(b'N', b'N', -1, 2, 2, 1, x, 2, x, 2, 0, x, 2)
    return s1, s2, s3, s4


cdef int one_round(dnnl_engine_t eng, dnnl_stream_t strm, long size, float *buf) noexcept nogil:
    """Creates an eltwise relu of `size` elements, runs it in place on
    buf (-1, 2, -3, ...) and checks the result; 0 when all went right."""
    cdef dnnl_memory_desc_t md = NULL
    cdef dnnl_primitive_desc_t pd = NULL
    cdef dnnl_primitive_t prim = NULL
    cdef dnnl_memory_t mem = NULL
    cdef dnnl_exec_arg_t args[2]
    cdef dnnl_dims_t dims
    cdef long i
    cdef int bad = 0
    dims[0] = size
    for i in range(size):
        buf[i] = (i + 1.0) * (1 if i % 2 else -1)
    if dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a) != dnnl_success:
        return 1
    if dnnl_eltwise_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                                                  dnnl_eltwise_relu, md, md, 0, 0,
                                                  NULL) != dnnl_success:
        bad = 2
    if bad == 0 and dnnl_primitive_create(&prim, pd) != dnnl_success:
        bad = 3
    if bad == 0 and dnnl_memory_create(&mem, md, eng, buf) != dnnl_success:
        bad = 4
    if bad == 0:
        args[0].arg = DNNL_ARG_SRC
        args[0].memory = mem
        args[1].arg = DNNL_ARG_DST
        args[1].memory = mem
        if dnnl_primitive_execute(prim, strm, 2, args) != dnnl_success:
            bad = 5
    if bad == 0:
        for i in range(size):
            if buf[i] != (i + 1.0 if i % 2 else 0.0):
                bad = 6
    dnnl_memory_destroy(mem)
    dnnl_primitive_destroy(prim)
    dnnl_primitive_desc_destroy(pd)
    dnnl_memory_desc_destroy(md)
    return bad


def create_in_threads(int nthreads, int rounds, int nshapes):
    """Each of nthreads OpenMP threads creates, runs and destroys `rounds`
    eltwise primitives over nshapes sizes. Returns (failed rounds, first
    error code, the largest cache size seen)."""
    cdef dnnl_engine_t eng = NULL
    cdef dnnl_stream_t strm = NULL
    cdef int t, r, code, size
    cdef float *bufs = <float *>malloc(nthreads * (nshapes + 1) * sizeof(float))
    # per thread: failed rounds, first error, largest cache size
    cdef int *stats = <int *>malloc(3 * nthreads * sizeof(int))
    if bufs == NULL or stats == NULL:
        free(bufs)
        free(stats)
        raise MemoryError()
    for t in range(3 * nthreads):
        stats[t] = 0
    if dnnl_engine_create(&eng, dnnl_cpu, 0) != dnnl_success or \
            dnnl_stream_create(&strm, eng, dnnl_stream_default_flags) != dnnl_success:
        free(bufs)
        free(stats)
        return -1, -1, -1
    with nogil:
        for t in prange(nthreads, num_threads=nthreads, schedule='static', chunksize=1):
            for r in range(rounds):
                code = one_round(eng, strm, 1 + (r * 7 + t * 3) % nshapes,
                                 bufs + t * (nshapes + 1))
                size = cydnnl_primitive_cache_get_size()
                if code != 0:
                    stats[3 * t] = stats[3 * t] + 1
                    if stats[3 * t + 1] == 0:
                        stats[3 * t + 1] = code
                if size > stats[3 * t + 2]:
                    stats[3 * t + 2] = size
    dnnl_stream_destroy(strm)
    dnnl_engine_destroy(eng)
    failed = sum([stats[3 * t] for t in range(nthreads)])
    firsts = [stats[3 * t + 1] for t in range(nthreads) if stats[3 * t + 1]]
    largest = max([stats[3 * t + 2] for t in range(nthreads)])
    free(bufs)
    free(stats)
    return failed, (firsts[0] if firsts else 0), largest
