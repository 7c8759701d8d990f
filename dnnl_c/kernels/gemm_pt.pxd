# P^T . B with the patches read in place (kernels/gemm_pt.pyx): a
# convolution's weight gradient, dW^T = P^T . dY.

from libc.stdint cimport int64_t
from dnnl_c.kernels.gemm cimport gemm_kernel_t, gemm_operand_t

# C (taps x n) = P^T . op(B) + beta * C on the calling thread, P the patch
# matrix of `a` read in place (f32, or bf16 in pairs of pixels; a convolution's
# weight gradient as dW^T = P^T . dY), when patches_t_in_place(uk, a, B's data
# type): every window inside src. b_sums (if not NULL) += op(B)'s column sums.
# a_next, b_next: where the next call's a and B (same shapes) start, their
# first block asked for into cache during this call's last; NULL: no next.
cdef bint patches_t_in_place(const gemm_kernel_t *uk, const gemm_operand_t *a,
                             int b_dt) noexcept nogil
cdef void gemm_patches_t(const gemm_kernel_t *uk, const gemm_operand_t *a,
                         const gemm_operand_t *b, int64_t n, float beta, float *c,
                         int64_t ldc, float *b_sums, const void *a_next,
                         const void *b_next) noexcept nogil
