# B packed once and reused (kernels/gemm_packed.pyx).

from libc.stdint cimport int64_t
from dnnl_c.kernels.gemm cimport gemm_kernel_t, gemm_operand_t

# An RNN's weights at every time step: the
# packed size in floats for the kernel's panels, the packing (threaded), and
# the product from it (f32 A; nthr threads split the columns, each with
# gemm_packed_work_floats(uk) floats of `work`, 64-byte aligned).
cdef int64_t gemm_packed_b_floats(const gemm_kernel_t *uk, int64_t k, int64_t n) noexcept nogil
cdef void gemm_pack_b(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t k, int64_t n,
                      float *out) noexcept nogil
cdef void gemm_packed_b(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                        const gemm_operand_t *a, const float *bp, float beta, float *c,
                        int64_t ldc, int nthr, float *work) noexcept nogil
cdef int64_t gemm_packed_work_floats(const gemm_kernel_t *uk) noexcept nogil
# Columns [n0, n1) of the same product on the caller's thread (n0 a
# multiple of uk.nr): for callers that split the columns themselves.
cdef void gemm_packed_b_cols(const gemm_kernel_t *uk, int64_t m, int64_t n0, int64_t n1,
                             int64_t n, int64_t k, float alpha, const gemm_operand_t *a,
                             const float *bp, float beta, float *c, int64_t ldc,
                             float *work) noexcept nogil
