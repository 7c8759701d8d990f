# Single-precision GEMM: C = alpha * op(A) op(B) + beta * C, row-major, after
# Goto and van de Geijn: packed, cache-blocked, a register-tiled micro-kernel.
# The operands may be f32 or bf16 matrices, or a convolution's patch matrix
# read straight from its source (an implicit im2col), packed into f32.

from libc.stdint cimport int64_t, int32_t, uint16_t, uint32_t

cdef enum:
    OPND_F32 = 0
    OPND_BF16 = 1
    OPND_PATCHES = 2

# A convolution source seen as its patch matrix: one row per output pixel
# (od, oh, ow), one column per tap. Taps are ordered (kd, kh, kw, ic) when
# `cl` (channels-last source), else (ic, kd, kh, kw). Element (pixel, tap) is
# src[ic * c_stride + ((id * ih + ih) * iw + iw) * pix_stride], 0 in the padding.
cdef struct conv_geom_t:
    int64_t icg, id, ih, iw, od, oh, ow
    int64_t kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw
    int64_t c_stride, pix_stride
    bint cl

cdef struct gemm_operand_t:
    int kind                # OPND_*
    const void *ptr         # matrix, or the source's first element for patches
    int64_t ld
    char trans              # 'N' or 'T'; patches: 'N' is P (pixels x taps), 'T' is P^T
    int src_dt              # patches: dnnl_f32 or dnnl_bf16
    const conv_geom_t *geom # patches

# The micro-kernel of one ISA level (kernels/include/gemm_isa.h): its tile
# (mr x nr) and function.
cdef extern from "kernels/include/gemm_isa.h" nogil:
    ctypedef struct gemm_kernel_t "cydnnl_gemm_kernel_t":
        int mr
        int nr
        # floats per element of a packed A panel (4 at SSE: each broadcast)
        int a_lanes
        # the first `rows` (1..mr) rows of a tile of C
        void (*ukernel)(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                        float alpha, float beta, int64_t rows) noexcept nogil
        # the same with A read in place: element (i, p) is a[i * rs + off[p]]; B's
        # rows ldb apart (nr: a packed panel; more: B read in place); bias (nr
        # floats, or NULL) added to every row
        void (*ukernel_strided)(int64_t kc, const float *a, int64_t rs, const int64_t *off,
                                const float *b, int64_t ldb, float *c, int64_t ldc,
                                float alpha, float beta, int64_t rows,
                                const float *bias) noexcept nogil
        # the same from a band of the source expanded to a_lanes floats an element
        # (element (i, p) the vector at a + i * rs + off[p]); NULL where a_lanes is 1
        void (*ukernel_wide)(int64_t kc, const float *a, int64_t rs, const int64_t *off,
                             const float *b, int64_t ldb, float *c, int64_t ldc,
                             float alpha, float beta, int64_t rows,
                             const float *bias) noexcept nogil
        # ukernel_strided on rows of any output pixels, row i at a + ro[i]; NULL
        # where tiles of mr rows gain nothing over near-equal ones (avx2 only)
        void (*ukernel_strided_rows)(int64_t kc, const float *a, const int64_t *ro,
                                     const int64_t *off, const float *b, int64_t ldb,
                                     float *c, int64_t ldc, float alpha, float beta,
                                     int64_t rows, const float *bias) noexcept nogil
        # bf16 dot products (avx512_core_bf16; NULL below)
        void (*pack_pairs)(const float *src, int64_t kc, int64_t w,
                           uint32_t *dst) noexcept nogil
        void (*ukernel_bf16)(int64_t kp, const uint32_t *a, const uint32_t *b, float *c,
                             int64_t ldc, float alpha, float beta, int64_t rows) noexcept nogil
        # a tile of bf16 A read in place into a kp x w pair panel: element (q, i) is
        # a[i * rs + off[2q]] | a[i * rs + off[2q + 1]] << 16, rows past `rows` zero
        void (*pack_pair_rows)(const uint16_t *a, int64_t rs, const int64_t *off, int64_t kp,
                               int64_t rows, uint32_t *dst, int64_t w) noexcept nogil
        # pack_pair_rows (rs 1, w mr) inside ukernel_bf16's product with the first
        # panel of B; ones: a row of bf16 ones after the rows
        void (*ukernel_bf16_packing)(int64_t kp, const uint16_t *a, const int64_t *off,
                                     int64_t rows, int ones, uint32_t *dst, const uint32_t *b,
                                     float *c, int64_t ldc, float alpha,
                                     float beta) noexcept nogil
        # the same with bf16 A read in place: pair q of row i is
        # a[i * rs + off[2q]] | a[i * rs + off[2q + 1]] << 16, in runs (gemm_kernels.h);
        # bias as ukernel_strided's
        void (*ukernel_bf16_strided)(int64_t nruns, const int32_t *runs, const uint16_t *a,
                                     int64_t rs, const int64_t *off, const uint32_t *b,
                                     float *c, int64_t ldc, float alpha, float beta,
                                     int64_t rows, const float *bias) noexcept nogil
        # bf16 matrices straight into pair panels, as pack_rows / pack_cols below
        # (NULL below avx512_core_bf16)
        void (*pack_rows_bf16)(const uint16_t *src, int64_t ld, int64_t rows, int64_t kc,
                               uint32_t *dst, int64_t w) noexcept nogil
        void (*pack_cols_bf16)(const uint16_t *src, int64_t ld, int64_t kc, int64_t n,
                               uint32_t *dst, int64_t w) noexcept nogil
        # f32 rows (contiguous in k) into a w-lane panel, transposed
        void (*pack_rows)(const float *src, int64_t ld, int64_t rows, int64_t kc, float *dst,
                          int64_t w) noexcept nogil
        # f32 columns (rows ld apart) into w-column panels
        void (*pack_cols)(const float *src, int64_t ld, int64_t kc, int64_t n, float *dst,
                          int64_t w) noexcept nogil
        # sums[j] += x(p, j), rows ld apart, f32 or bf16
        void (*col_sums)(const void *x, int bf16, int64_t ld, int64_t rows, int64_t n,
                         float *sums) noexcept nogil
        # rows x cols of an f32 tile (ldt apart) rounded into a bf16 C (ldc apart)
        void (*tile_to_bf16)(const float *t, int64_t ldt, int64_t rows, int64_t cols,
                             uint16_t *c, int64_t ldc) noexcept nogil

# The micro-kernel compiled for a dnnl_cpu_isa_t level (sse41, avx2,
# avx512_core, avx512_core_bf16); NULL for a level this build lacks. The
# caller checks that the CPU has the level (cpu_isa_has).
cdef const gemm_kernel_t *gemm_kernel_for(int isa) noexcept nogil

cdef gemm_operand_t matrix_operand(const void *ptr, int dt, char trans, int64_t ld) noexcept nogil
cdef gemm_operand_t patches_operand(const void *src, int dt, const conv_geom_t *geom,
                                   char trans) noexcept nogil

# C (m x n, f32) = alpha * op(A) (m x k) . op(B) (k x n) + beta * C (+ bias[j]
# in every row, where bias is not NULL), with micro-kernel uk; with
# `threaded`, all threads split the columns of C.
cdef void gemm_ex(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                  const gemm_operand_t *a, const gemm_operand_t *b, float beta, float *c,
                  int64_t ldc, bint threaded, const float *bias) noexcept nogil

# The same with alpha 1 and beta 0 into a bf16 C (ld ldc), each tile rounded
# as it is stored (no f32 C to round in a pass of its own), where
# gemm_writes_bf16 says the product takes it: AVX-512's tiles, patches of
# src read in place as A, all of k in one block.
cdef bint gemm_writes_bf16(const gemm_kernel_t *uk, int64_t k, const gemm_operand_t *a,
                           const gemm_operand_t *b) noexcept nogil
cdef void gemm_ex_bf16(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k,
                       const gemm_operand_t *a, const gemm_operand_t *b, uint16_t *c,
                       int64_t ldc, bint threaded, const float *bias) noexcept nogil

# The f32 matrix forms.
cdef void sgemm(const gemm_kernel_t *uk, char transa, char transb, int64_t m, int64_t n,
                int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                int64_t ldb, float beta, float *c, int64_t ldc) noexcept nogil
cdef void sgemm_parallel(const gemm_kernel_t *uk, char transa, char transb, int64_t m,
                         int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float beta, float *c,
                         int64_t ldc) noexcept nogil

# A packed once and reused over blocks of columns (backward data's W^T for
# every block of output pixels): the packed size in floats (any level), the
# packing for a B of b's kind, and the product from it (`a` still names
# the matrix: the fallback without scratch memory reads it).
cdef int64_t gemm_packed_a_floats(int64_t m, int64_t k) noexcept nogil
cdef void gemm_pack_a(const gemm_kernel_t *uk, const gemm_operand_t *a,
                      const gemm_operand_t *b, int64_t m, int64_t k, float *out) noexcept nogil
cdef void gemm_packed_a(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                        const gemm_operand_t *a, const float *ap, const gemm_operand_t *b,
                        float beta, float *c, int64_t ldc, bint threaded) noexcept nogil

# For kernels/gemm_pt.pyx (P^T . B with the patches in place), which runs
# these micro-kernels: op(X)[r, c] of any operand, a tile short of columns
# from the scratch tile into C, block sizes, and op(B)'s block into the
# kernel's panels (and pair panels with `pairs`); for kernels/gemm_packed.pyx
# (B packed once) the packing of A and B into f32 panels and the product of
# panels (pairs: bf16 pair panels; B's panels bps floats apart).
cdef void pack_a(const gemm_kernel_t *uk, const gemm_operand_t *a, int64_t i0, int64_t mc,
                 int64_t p0, int64_t kc, float *ap) noexcept nogil
cdef void pack_b(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t p0, int64_t kc,
                 int64_t j0, int64_t nc, float *bp) noexcept nogil
cdef void macro_kernel(const gemm_kernel_t *uk, int64_t mc, int64_t nc, int64_t kc,
                       float alpha, const float *ap, const float *bp, float beta, float *c,
                       int64_t ldc, float *edge, bint pairs, int64_t bps) noexcept nogil
cdef float opnd_get(const gemm_operand_t *o, int64_t r, int64_t c) noexcept nogil
cdef void edge_out(const float *edge, int64_t NR, int64_t rows, int64_t cols, float beta,
                   float *c, int64_t ldc) noexcept nogil
cdef int64_t even_split(int64_t total, int64_t most, int64_t unit) noexcept nogil
cdef void pack_b_panels(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t p0,
                        int64_t kc, int64_t j0, int64_t nc, bint pairs, float *bp,
                        float *bp2) noexcept nogil

# sums[j] += op(B)[p, j] over rows p0 .. p1-1 of an f32 or bf16 matrix operand
# (uk: the level's vector kernel; NULL for plain loops)
cdef void operand_col_sums(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t p0,
                           int64_t p1, int64_t n,
                           float *sums) noexcept nogil
