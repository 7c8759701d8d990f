# SGEMM after Goto and van de Geijn: B is packed in kc x NR panels, A in
# MR x kc panels, and an MR x NR tile of C stays in registers while the
# micro-kernel walks k. The micro-kernel is a small C function with GCC vector
# extensions (plain C loops elsewhere); blocking, packing and threading are
# Cython.

from cython.parallel cimport prange, parallel
from libc.stdint cimport int64_t
from libc.stdlib cimport malloc, free

from dnnl_c.kernels.openmp cimport omp_get_max_threads, omp_get_thread_num, omp_get_num_threads

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__GNUC__) && defined(__AVX512F__)
    #define CYDNNL_VEC 16
    #elif defined(__GNUC__) && (defined(__AVX__) || defined(__SSE2__))
    #define CYDNNL_VEC 8
    #else
    #define CYDNNL_VEC 0
    #endif
    #define CYDNNL_MR 6
    #define CYDNNL_NR (CYDNNL_VEC ? 2 * CYDNNL_VEC : 16)

    #if CYDNNL_VEC
    typedef float cydnnl_vf __attribute__((vector_size(CYDNNL_VEC * 4)));
    static inline cydnnl_vf cydnnl_ld(const float *p) {
        cydnnl_vf v; memcpy(&v, p, sizeof v); return v;
    }
    static inline void cydnnl_st(float *p, cydnnl_vf v) { memcpy(p, &v, sizeof v); }

    /* c[MR x NR] = alpha * a_panel . b_panel + beta * c (beta == 0: c is not read).
       a: kc x MR (packed), b: kc x NR (packed). */
    static inline void cydnnl_ukernel(int64_t kc, const float *a, const float *b, float *c,
                                      int64_t ldc, float alpha, float beta) {
        cydnnl_vf c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0};
        cydnnl_vf c30 = {0}, c31 = {0}, c40 = {0}, c41 = {0}, c50 = {0}, c51 = {0};
        for (int64_t p = 0; p < kc; ++p) {
            cydnnl_vf b0 = cydnnl_ld(b), b1 = cydnnl_ld(b + CYDNNL_VEC);
            c00 += a[0] * b0; c01 += a[0] * b1;
            c10 += a[1] * b0; c11 += a[1] * b1;
            c20 += a[2] * b0; c21 += a[2] * b1;
            c30 += a[3] * b0; c31 += a[3] * b1;
            c40 += a[4] * b0; c41 += a[4] * b1;
            c50 += a[5] * b0; c51 += a[5] * b1;
            a += CYDNNL_MR;
            b += CYDNNL_NR;
        }
    #define CYDNNL_STORE_ROW(i, x0, x1) do { \\
            float *r = c + (i) * ldc; \\
            if (beta == 0.f) { cydnnl_st(r, alpha * x0); cydnnl_st(r + CYDNNL_VEC, alpha * x1); } \\
            else { cydnnl_st(r, alpha * x0 + beta * cydnnl_ld(r)); \\
                   cydnnl_st(r + CYDNNL_VEC, alpha * x1 + beta * cydnnl_ld(r + CYDNNL_VEC)); } \\
        } while (0)
        CYDNNL_STORE_ROW(0, c00, c01); CYDNNL_STORE_ROW(1, c10, c11);
        CYDNNL_STORE_ROW(2, c20, c21); CYDNNL_STORE_ROW(3, c30, c31);
        CYDNNL_STORE_ROW(4, c40, c41); CYDNNL_STORE_ROW(5, c50, c51);
    #undef CYDNNL_STORE_ROW
    }
    #else
    static inline void cydnnl_ukernel(int64_t kc, const float *a, const float *b, float *c,
                                      int64_t ldc, float alpha, float beta) {
        float acc[CYDNNL_MR][CYDNNL_NR] = {{0}};
        for (int64_t p = 0; p < kc; ++p)
            for (int i = 0; i < CYDNNL_MR; ++i)
                for (int j = 0; j < CYDNNL_NR; ++j)
                    acc[i][j] += a[p * CYDNNL_MR + i] * b[p * CYDNNL_NR + j];
        for (int i = 0; i < CYDNNL_MR; ++i)
            for (int j = 0; j < CYDNNL_NR; ++j)
                c[i * ldc + j] = alpha * acc[i][j] + (beta == 0.f ? 0.f : beta * c[i * ldc + j]);
    }
    #endif
    """
    int MR "CYDNNL_MR"
    int NR "CYDNNL_NR"
    void ukernel "cydnnl_ukernel"(int64_t kc, const float *a, const float *b, float *c,
                                  int64_t ldc, float alpha, float beta) noexcept nogil

DEF KC = 256
DEF MC = 96          # a multiple of MR
DEF NC = 1536        # a multiple of NR


cdef int gemm_mr() noexcept nogil:
    return MR


cdef int gemm_nr() noexcept nogil:
    return NR


cdef void pack_a(char trans, int64_t mc, int64_t kc, const float *a, int64_t lda,
                 float *ap) noexcept nogil:
    """a block (mc x kc of op(A)) into MR-row panels, zero rows past mc."""
    cdef int64_t t, i0, i, p, rows
    for t in range((mc + MR - 1) // MR):
        i0 = t * MR
        rows = mc - i0 if mc - i0 < MR else MR
        for p in range(kc):
            for i in range(rows):
                ap[p * MR + i] = a[(i0 + i) * lda + p] if trans == b'N' else a[p * lda + i0 + i]
            for i in range(rows, MR):
                ap[p * MR + i] = 0
        ap += kc * MR


cdef void pack_b(char trans, int64_t kc, int64_t nc, const float *b, int64_t ldb,
                 float *bp) noexcept nogil:
    """a block (kc x nc of op(B)) into NR-column panels, zero columns past nc."""
    cdef int64_t t, j0, j, p, cols
    cdef const float *row
    for t in range((nc + NR - 1) // NR):
        j0 = t * NR
        cols = nc - j0 if nc - j0 < NR else NR
        for p in range(kc):
            if trans == b'N':
                row = b + p * ldb + j0
                for j in range(cols):
                    bp[p * NR + j] = row[j]
            else:
                for j in range(cols):
                    bp[p * NR + j] = b[(j0 + j) * ldb + p]
            for j in range(cols, NR):
                bp[p * NR + j] = 0
        bp += kc * NR


cdef void macro_kernel(int64_t mc, int64_t nc, int64_t kc, float alpha, const float *ap,
                       const float *bp, float beta, float *c, int64_t ldc,
                       float *edge) noexcept nogil:
    cdef int64_t tj, ti, ir, jr, rows, cols, i, j
    for tj in range((nc + NR - 1) // NR):
        jr = tj * NR
        cols = nc - jr if nc - jr < NR else NR
        for ti in range((mc + MR - 1) // MR):
            ir = ti * MR
            rows = mc - ir if mc - ir < MR else MR
            if rows == MR and cols == NR:
                ukernel(kc, ap + ir * kc, bp + jr * kc, c + ir * ldc + jr, ldc, alpha, beta)
            else:   # a partial tile goes through a scratch tile
                ukernel(kc, ap + ir * kc, bp + jr * kc, edge, NR, alpha, 0.0)
                for i in range(rows):
                    for j in range(cols):
                        if beta == 0:
                            c[(ir + i) * ldc + jr + j] = edge[i * NR + j]
                        else:
                            c[(ir + i) * ldc + jr + j] = edge[i * NR + j] + \
                                beta * c[(ir + i) * ldc + jr + j]


cdef void gemm_cols(char transa, char transb, int64_t m, int64_t n0, int64_t n1, int64_t k,
                    float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                    float beta, float *c, int64_t ldc, float *work) noexcept nogil:
    """Columns [n0, n1) of C; work holds MC*KC + KC*NC + MR*NR floats."""
    cdef float *ap = work
    cdef float *bp = work + MC * KC
    cdef float *edge = bp + KC * NC
    cdef int64_t jc, pc, ic, nc, kc, mc
    cdef float b_beta
    for jc in range(n0, n1, NC):
        nc = n1 - jc if n1 - jc < NC else NC
        for pc in range(0, k, KC):
            kc = k - pc if k - pc < KC else KC
            pack_b(transb, kc, nc, b + (pc * ldb + jc if transb == b'N' else jc * ldb + pc),
                   ldb, bp)
            b_beta = beta if pc == 0 else 1.0
            for ic in range(0, m, MC):
                mc = m - ic if m - ic < MC else MC
                pack_a(transa, mc, kc, a + (ic * lda + pc if transa == b'N' else pc * lda + ic),
                       lda, ap)
                macro_kernel(mc, nc, kc, alpha, ap, bp, b_beta, c + ic * ldc + jc, ldc, edge)
        if k == 0:      # C = beta * C
            scale_cols(m, jc, jc + nc, beta, c, ldc)


cdef void scale_cols(int64_t m, int64_t n0, int64_t n1, float beta, float *c,
                     int64_t ldc) noexcept nogil:
    cdef int64_t i, j
    for i in range(m):
        for j in range(n0, n1):
            c[i * ldc + j] = 0 if beta == 0 else beta * c[i * ldc + j]


cdef inline size_t work_floats() noexcept nogil:
    return MC * KC + KC * NC + MR * NR + 16


cdef void sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                float *c, int64_t ldc) noexcept nogil:
    if m <= 0 or n <= 0:
        return
    cdef float *work = <float *>malloc(work_floats() * sizeof(float))
    if work == NULL:    # fall back to unblocked, unpacked arithmetic
        naive(transa, transb, m, 0, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
        return
    gemm_cols(transa, transb, m, 0, n, k, alpha, a, lda, b, ldb, beta, c, ldc, work)
    free(work)


cdef void naive(char transa, char transb, int64_t m, int64_t n0, int64_t n1, int64_t k,
                float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                float beta, float *c, int64_t ldc) noexcept nogil:
    cdef int64_t i, j, p
    cdef float acc
    for i in range(m):
        for j in range(n0, n1):
            acc = 0
            for p in range(k):
                acc = acc + (a[i * lda + p] if transa == b'N' else a[p * lda + i]) * \
                    (b[p * ldb + j] if transb == b'N' else b[j * ldb + p])
            c[i * ldc + j] = alpha * acc + (0 if beta == 0 else beta * c[i * ldc + j])


cdef void sgemm_parallel(char transa, char transb, int64_t m, int64_t n, int64_t k,
                         float alpha, const float *a, int64_t lda, const float *b,
                         int64_t ldb, float beta, float *c, int64_t ldc) noexcept nogil:
    cdef int64_t nthr = omp_get_max_threads(), chunk, t, n0, n1
    if m <= 0 or n <= 0:
        return
    # whole NR panels per thread; at least 2 panels each, or one thread
    chunk = (n + nthr - 1) // nthr
    chunk = (chunk + NR - 1) // NR * NR
    if nthr == 1 or chunk < 2 * NR or n <= chunk:
        sgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
        return
    cdef int64_t nchunks = (n + chunk - 1) // chunk
    for t in prange(nchunks, schedule='static', num_threads=nthr):
        n0 = t * chunk
        n1 = n0 + chunk if n0 + chunk < n else n
        cols_with_work(transa, transb, m, n0, n1, k, alpha, a, lda, b, ldb, beta, c, ldc)


cdef void cols_with_work(char transa, char transb, int64_t m, int64_t n0, int64_t n1,
                         int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                         int64_t ldb, float beta, float *c, int64_t ldc) noexcept nogil:
    cdef float *work = <float *>malloc(work_floats() * sizeof(float))
    if work == NULL:
        naive(transa, transb, m, n0, n1, k, alpha, a, lda, b, ldb, beta, c, ldc)
        return
    gemm_cols(transa, transb, m, n0, n1, k, alpha, a, lda, b, ldb, beta, c, ldc, work)
    free(work)
