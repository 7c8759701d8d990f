# B packed once, for products that reuse it (an RNN's weights at every
# step): NR-column panels of all k rows one after the other, [n / NR][k][NR]
# with zero columns past n. For weights of an RNN this is a blocked layout
# (ldgOi32o for NR = 32), which `any` can resolve to. The product runs
# kernels/gemm.pyx's packing of A and its macro-kernel.

from cython.parallel cimport prange
from libc.stdint cimport int64_t

from dnnl_c.kernels.gemm cimport (gemm_kernel_t, gemm_operand_t, pack_a, pack_b, macro_kernel,
                                  even_split)

cdef extern from "kernels/include/gemm_isa.h" nogil:
    int MAX_MR "CYDNNL_GEMM_MAX_MR"
    int MAX_NR "CYDNNL_GEMM_MAX_NR"

# Few rows of A (an RNN's batch) use B packed once: long k blocks, so that
# each tile of C is loaded and stored fewer times; more rows take k blocks of
# KC. A's panels hold MC rows. (KC and MC: the sizes of gemm.pyx's blocks.)
DEF PKC = 1024
DEF KC = 256
DEF MC = 96          # a multiple of every level's MR (6 and 12)

cdef int64_t gemm_packed_b_floats(const gemm_kernel_t *uk, int64_t k, int64_t n) noexcept nogil:
    return k * ((n + uk.nr - 1) // uk.nr * uk.nr) + 16


cdef void gemm_pack_b(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t k, int64_t n,
                      float *out) noexcept nogil:
    # one task per 8 panels: enough tasks for every thread, and rows read in
    # runs of 8 NR floats
    cdef int64_t w = 8 * uk.nr
    cdef int64_t t, j0
    for t in prange((n + w - 1) // w, schedule='static'):
        j0 = t * w
        pack_b(uk, b, 0, k, j0, n - j0 if n - j0 < w else w, out + j0 * k)


cdef int64_t gemm_packed_work_floats(const gemm_kernel_t *uk) noexcept nogil:
    return MC * PKC * uk.a_lanes + MAX_MR * MAX_NR + 32


cdef void gemm_packed_b_cols(const gemm_kernel_t *uk, int64_t m, int64_t n0, int64_t n1,
                             int64_t n, int64_t k, float alpha, const gemm_operand_t *a,
                             const float *bp, float beta, float *c, int64_t ldc,
                             float *work) noexcept nogil:
    """Columns [n0, n1) of C (n0 a multiple of NR) from packed B: per k block
    and block of MC rows of A, its packed panels. The k blocks are long
    (PKC) for the few rows of an RNN step, as for any product (KC) for
    more."""
    cdef float *ap = work
    cdef float *edge = work + MC * PKC * uk.a_lanes
    cdef int64_t pc, kc, ic, mc, i, j
    cdef int64_t kcb = even_split(k, PKC if m <= MC else KC, 4)
    if n1 > n:
        n1 = n
    if n0 >= n1:
        return
    if k == 0:
        for i in range(m):
            for j in range(n0, n1):
                c[i * ldc + j] = 0 if beta == 0 else beta * c[i * ldc + j]
    pc = 0
    while pc < k:
        kc = k - pc if k - pc < kcb else kcb
        for ic in range(0, m, MC):
            mc = m - ic if m - ic < MC else MC
            pack_a(uk, a, ic, mc, pc, kc, ap)
            macro_kernel(uk, mc, n1 - n0, kc, alpha, ap, bp + n0 * k + pc * uk.nr,
                         beta if pc == 0 else 1.0, c + ic * ldc + n0, ldc, edge, False,
                         k * uk.nr)
        pc += kc


cdef void gemm_packed_b(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                        const gemm_operand_t *a, const float *bp, float beta, float *c,
                        int64_t ldc, int nthr, float *work) noexcept nogil:
    cdef int64_t chunk, t, lo, nchunks
    if m <= 0 or n <= 0:
        return
    if nthr < 1:
        nthr = 1
    chunk = (n + nthr - 1) // nthr
    chunk = (chunk + uk.nr - 1) // uk.nr * uk.nr
    nchunks = (n + chunk - 1) // chunk
    if nchunks <= 1:
        gemm_packed_b_cols(uk, m, 0, n, n, k, alpha, a, bp, beta, c, ldc, work)
        return
    for t in prange(nchunks, schedule='static', num_threads=nthr):
        lo = t * chunk
        gemm_packed_b_cols(uk, m, lo, lo + chunk, n, k, alpha, a, bp, beta, c, ldc,
                           work + t * gemm_packed_work_floats(uk))
