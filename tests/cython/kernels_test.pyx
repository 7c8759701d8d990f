# Test access to internal kernels, compiled against the installed .pxd files.

from dnnl_c.kernels.gemm cimport sgemm as c_sgemm, sgemm_parallel, gemm_kernel_t, gemm_kernel_for


cdef const gemm_kernel_t *kernel(int isa) except NULL:
    cdef const gemm_kernel_t *uk = gemm_kernel_for(isa)
    if uk == NULL:
        raise ValueError(f"no GEMM kernel for ISA level {isa:#x} in this build")
    return uk


def sgemm(str transa, str transb, long m, long n, long k, float alpha, float[::1] a, long lda,
          float[::1] b, long ldb, float beta, float[::1] c, long ldc, bint parallel, int isa):
    cdef const gemm_kernel_t *uk = kernel(isa)
    cdef char ta = ord(transa)
    cdef char tb = ord(transb)
    cdef const float *pa = &a[0] if a.shape[0] else NULL
    cdef const float *pb = &b[0] if b.shape[0] else NULL
    cdef float *pc = &c[0]
    with nogil:
        if parallel:
            sgemm_parallel(uk, ta, tb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)
        else:
            c_sgemm(uk, ta, tb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)


def tile(int isa):
    cdef const gemm_kernel_t *uk = kernel(isa)
    return uk.mr, uk.nr


from dnnl_c.dnnl_types cimport dnnl_f32, dnnl_bf16
from dnnl_c.kernels.gemm cimport (gemm_ex, gemm_operand_t, conv_geom_t, matrix_operand,
                                  patches_operand, operand_col_sums)
from dnnl_c.kernels.gemm_pt cimport patches_t_in_place, gemm_patches_t


def gemm_patches(src, dict geom, str trans, str side, other, str other_trans, long ld_other,
                 long m, long n, long k, float[:, ::1] c, bint threaded, int isa,
                 float[::1] extra):
    """C = P . X or X . P with P the patch matrix of `src` (f32, or bf16 bits
    as uint16) under `geom`; X a matrix (f32, or bf16 bits); plus extra[j] in
    every row of C. side "in_place": C = P^T . X by gemm_patches_t (trans
    "N") when it takes P, else by gemm_ex, and extra += X's column sums (by
    gemm_patches_t, else by operand_col_sums); returns whether
    gemm_patches_t did."""
    cdef conv_geom_t g
    g.icg, g.id, g.ih, g.iw = geom["icg"], geom["id"], geom["ih"], geom["iw"]
    g.od, g.oh, g.ow = geom["od"], geom["oh"], geom["ow"]
    g.kd, g.kh, g.kw = geom["kd"], geom["kh"], geom["kw"]
    g.sd, g.sh, g.sw = geom["sd"], geom["sh"], geom["sw"]
    g.dd, g.dh, g.dw = geom["dd"], geom["dh"], geom["dw"]
    g.pd, g.ph, g.pw = geom["pd"], geom["ph"], geom["pw"]
    g.c_stride, g.pix_stride, g.cl = geom["c_stride"], geom["pix_stride"], geom["cl"]
    cdef int sdt = dnnl_f32 if src.dtype.itemsize == 4 else dnnl_bf16
    cdef int odt = dnnl_f32 if other.dtype.itemsize == 4 else dnnl_bf16
    cdef const void *sp = <const void *><size_t>src.ctypes.data
    cdef const void *op = <const void *><size_t>other.ctypes.data
    cdef gemm_operand_t p = patches_operand(sp, sdt, &g, ord(trans))
    cdef gemm_operand_t x = matrix_operand(op, odt, ord(other_trans), ld_other)
    cdef float *pc = &c[0, 0]
    cdef long ldc = c.shape[1]
    cdef const gemm_kernel_t *uk = kernel(isa)
    cdef bint in_place = side == "in_place" and patches_t_in_place(uk, &p, odt)
    cdef bint left = side in ("left", "in_place")
    cdef float *e = &extra[0]
    if side == "in_place" and not in_place:
        p.trans = b'T'
    with nogil:
        if in_place:
            # the same operands as the "next" call's: its prefetch runs
            gemm_patches_t(uk, &p, &x, n, 0.0, pc, ldc, e, sp, op)
        elif side == "in_place":
            gemm_ex(uk, m, n, k, 1.0, &p, &x, 0.0, pc, ldc, threaded, NULL)
            operand_col_sums(uk, &x, 0, k, n, e)
        elif left:
            gemm_ex(uk, m, n, k, 1.0, &p, &x, 0.0, pc, ldc, threaded, e)
        else:
            gemm_ex(uk, m, n, k, 1.0, &x, &p, 0.0, pc, ldc, threaded, e)
    return in_place


import numpy as np
from dnnl_c.kernels.gemm_packed cimport (gemm_packed_b_floats, gemm_pack_b, gemm_packed_b,
                                         gemm_packed_work_floats, gemm_packed_b_cols)
from dnnl_c.kernels.openmp cimport omp_get_max_threads


def sgemm_packed(str transb, long m, long n, long k, float alpha, float[::1] a, long lda,
                 float[::1] b, long ldb, float beta, float[::1] c, long ldc, long split,
                 int isa):
    """C = alpha A op(B) + beta C with B packed once (gemm_pack_b): by
    gemm_packed_b on all threads, or (split > 0) column ranges of `split`
    panels each through gemm_packed_b_cols, as the RNN's steps call it.
    Returns the packed B."""
    cdef const gemm_kernel_t *uk = kernel(isa)
    cdef int nthr = omp_get_max_threads()
    bp = np.full(gemm_packed_b_floats(uk, k, n), np.nan, np.float32)
    work = np.full(nthr * gemm_packed_work_floats(uk), np.nan, np.float32)
    cdef float[::1] bpv = bp, wv = work
    cdef gemm_operand_t ob = matrix_operand(&b[0], dnnl_f32, ord(transb), ldb)
    cdef gemm_operand_t oa = matrix_operand(&a[0], dnnl_f32, b'N', lda)
    cdef long n0, n1, step = split * uk.nr
    with nogil:
        gemm_pack_b(uk, &ob, k, n, &bpv[0])
        if split <= 0:
            gemm_packed_b(uk, m, n, k, alpha, &oa, &bpv[0], beta, &c[0], ldc, nthr, &wv[0])
        else:
            n0 = 0
            while n0 < n:
                n1 = n0 + step if n0 + step < n else n
                gemm_packed_b_cols(uk, m, n0, n1, n, k, alpha, &oa, &bpv[0], beta, &c[0], ldc,
                                   &wv[0])
                n0 = n1
    return bp


def gemm_matrices(a, str transa, long lda, b, str transb, long ldb, long m, long n, long k,
                  float alpha, float beta, float[:, ::1] c, bint threaded, int isa,
                  float[::1] bias=None):
    """C = alpha op(A) op(B) + beta C (+ bias[j] in every row) through
    gemm_ex, A and B float32 or bf16 (uint16) arrays: matrix operands of
    either data type."""
    cdef gemm_operand_t oa = matrix_operand(<const void *><size_t>a.ctypes.data,
                                            dnnl_f32 if a.dtype.itemsize == 4 else dnnl_bf16,
                                            ord(transa), lda)
    cdef gemm_operand_t ob = matrix_operand(<const void *><size_t>b.ctypes.data,
                                            dnnl_f32 if b.dtype.itemsize == 4 else dnnl_bf16,
                                            ord(transb), ldb)
    cdef const gemm_kernel_t *uk = kernel(isa)
    cdef const float *pb = NULL if bias is None else &bias[0]
    with nogil:
        gemm_ex(uk, m, n, k, alpha, &oa, &ob, beta, &c[0, 0], c.shape[1], threaded, pb)
