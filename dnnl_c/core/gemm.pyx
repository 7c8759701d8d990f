# dnnl_sgemm, dnnl_gemm_bf16bf16f32 and the int8 ones (see gemm.pxd), as
# oneDNN's src/common/gemm.cpp: the arguments checked as its check_gemm_input
# does (in row-major terms), then the product: the floating-point ones on the
# GEMM kernel of the best ISA level the CPU and the ISA limit allow, all
# threads splitting C; the int8 ones on the integer kernel (kernels/igemm).

from libc.stdint cimport uint16_t, uint8_t, int8_t, int32_t
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail, err_buf, ERR_LEN
from dnnl_c.core.cpu_isa cimport cpu_isa_effective, cpu_isa_has, bf16_allowed
from dnnl_c.kernels.gemm cimport (gemm_kernel_t, gemm_operand_t, gemm_kernel_for,
                                  matrix_operand, gemm_ex)
from dnnl_c.kernels.igemm cimport igemm


cdef dnnl_cpu_isa_t cydnnl_gemm_isa(int bf16) noexcept nogil:
    cdef dnnl_cpu_isa_t levels[4]
    cdef int i
    cpu_isa_effective()     # reads (and fixes) the ISA limit, as creating a pd does
    levels[:] = [dnnl_cpu_isa_avx512_core_bf16, dnnl_cpu_isa_avx512_core,
                 dnnl_cpu_isa_avx2, dnnl_cpu_isa_sse41]
    # the bf16 level's dot products serve bf16 operands only; f32 runs below it
    for i in range(0 if bf16 else 1, 4):
        if cpu_isa_has(levels[i]) and gemm_kernel_for(levels[i]) != NULL:
            return levels[i]
    return dnnl_cpu_isa_default


cdef inline bint is_t(char t) noexcept nogil:
    return t == b'T' or t == b't'


cdef dnnl_status_t check(const char *fn, char transa, char transb, dnnl_dim_t M,
                         dnnl_dim_t N, dnnl_dim_t K, const void *A, dnnl_dim_t lda,
                         const void *B, dnnl_dim_t ldb, const void *C,
                         dnnl_dim_t ldc) noexcept nogil:
    cdef dnnl_dim_t need_a, need_b, need_c
    if A == NULL or B == NULL or C == NULL:
        snprintf(err_buf(), ERR_LEN, "%s: A, B and C must not be NULL", fn)
        return fail(dnnl_invalid_arguments, err_buf())
    if not (transa == b'N' or transa == b'n' or is_t(transa)) or \
            not (transb == b'N' or transb == b'n' or is_t(transb)):
        snprintf(err_buf(), ERR_LEN, "%s: transa and transb must be 'N', 'n', 'T' or 't'", fn)
        return fail(dnnl_invalid_arguments, err_buf())
    if M < 0 or N < 0 or K < 0:
        snprintf(err_buf(), ERR_LEN, "%s: M, N and K must be >= 0", fn)
        return fail(dnnl_invalid_arguments, err_buf())
    # row-major: a row of op(A) is K long unless A is transposed, ...
    need_a = M if is_t(transa) else K
    need_b = K if is_t(transb) else N
    need_c = N
    if lda < max(1, need_a) or ldb < max(1, need_b) or ldc < max(1, need_c):
        snprintf(err_buf(), ERR_LEN, "%s: lda = %lld, ldb = %lld, ldc = %lld; at least "
                 "%lld, %lld and %lld are needed", fn, <long long>lda, <long long>ldb,
                 <long long>ldc, <long long>max(1, need_a), <long long>max(1, need_b),
                 <long long>max(1, need_c))
        return fail(dnnl_invalid_arguments, err_buf())
    return dnnl_success


cdef dnnl_status_t run(bint bf16, char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
                       dnnl_dim_t K, float alpha, const void *A, dnnl_dim_t lda,
                       const void *B, dnnl_dim_t ldb, float beta, float *C,
                       dnnl_dim_t ldc) noexcept nogil:
    cdef int dt = dnnl_bf16 if bf16 else dnnl_f32
    cdef dnnl_cpu_isa_t isa = cydnnl_gemm_isa(bf16)
    if isa == dnnl_cpu_isa_default:
        return fail(dnnl_unimplemented, "gemm: this build has no GEMM kernel for this CPU")
    if M == 0 or N == 0:
        return dnnl_success
    cdef gemm_operand_t a = matrix_operand(A, dt, b'T' if is_t(transa) else b'N', lda)
    cdef gemm_operand_t b = matrix_operand(B, dt, b'T' if is_t(transb) else b'N', ldb)
    gemm_ex(gemm_kernel_for(isa), M, N, K, alpha, &a, &b, beta, C, ldc, True, NULL)
    return dnnl_success


cdef dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
                              dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda,
                              const float *B, dnnl_dim_t ldb, float beta, float *C,
                              dnnl_dim_t ldc) noexcept nogil:
    cdef dnnl_status_t st = check("sgemm", transa, transb, M, N, K, A, lda, B, ldb, C, ldc)
    if st != dnnl_success:
        return st
    return run(False, transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)


cdef dnnl_status_t dnnl_gemm_bf16bf16f32(char transa, char transb, dnnl_dim_t M,
                                         dnnl_dim_t N, dnnl_dim_t K, float alpha,
                                         const uint16_t *A, dnnl_dim_t lda,
                                         const uint16_t *B, dnnl_dim_t ldb, float beta,
                                         float *C, dnnl_dim_t ldc) noexcept nogil:
    cdef dnnl_status_t st = check("gemm_bf16bf16f32", transa, transb, M, N, K, A, lda, B,
                                  ldb, C, ldc)
    if st != dnnl_success:
        return st
    if not bf16_allowed():
        return fail(dnnl_unimplemented, "gemm_bf16bf16f32: bf16 is switched off "
                    "(CYDNNL_BF16_UNIMPLEMENTED)")
    return run(True, transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)


cdef dnnl_status_t int8(const char *fn, bint a_signed, char transa, char transb, char offsetc,
                        dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha, const void *A,
                        dnnl_dim_t lda, int ao, const int8_t *B, dnnl_dim_t ldb, int bo,
                        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) noexcept nogil:
    cdef char oc = offsetc - 32 if b'a' <= offsetc <= b'z' else offsetc
    cdef dnnl_status_t st = check(fn, transa, transb, M, N, K, A, lda, B, ldb, C, ldc)
    if st != dnnl_success:
        return st
    if not (oc == b'F' or oc == b'C' or oc == b'R') or co == NULL:
        snprintf(err_buf(), ERR_LEN, "%s: offsetc must be 'F', 'C' or 'R' and co not NULL", fn)
        return fail(dnnl_invalid_arguments, err_buf())
    cpu_isa_effective()
    if igemm(a_signed, b'T' if is_t(transa) else b'N', b'T' if is_t(transb) else b'N', oc, M,
             N, K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co) != 0:
        snprintf(err_buf(), ERR_LEN, "%s: out of memory", fn)
        return fail(dnnl_out_of_memory, err_buf())
    return dnnl_success


cdef dnnl_status_t dnnl_gemm_u8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
                                     dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
                                     dnnl_dim_t lda, uint8_t ao, const int8_t *B,
                                     dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C,
                                     dnnl_dim_t ldc, const int32_t *co) noexcept nogil:
    return int8("gemm_u8s8s32", False, transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
                ldb, bo, beta, C, ldc, co)


cdef dnnl_status_t dnnl_gemm_s8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
                                     dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
                                     dnnl_dim_t lda, int8_t ao, const int8_t *B,
                                     dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C,
                                     dnnl_dim_t ldc, const int32_t *co) noexcept nogil:
    return int8("gemm_s8s8s32", True, transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B,
                ldb, bo, beta, C, ldc, co)
