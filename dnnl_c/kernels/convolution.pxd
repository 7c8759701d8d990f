# Convolution kernels. Shapes are always 3-D spatial (1-D and 2-D use size-1
# depth/height); dilations are oneDNN's (0 = dense).

from libc.stdint cimport int64_t
from dnnl_c.kernels.gemm cimport gemm_kernel_t

cdef struct conv_shape_t:
    int64_t mb, g, icg, ocg
    int64_t id, ih, iw
    int64_t od, oh, ow
    int64_t kd, kh, kw
    int64_t sd, sh, sw
    int64_t dd, dh, dw
    int64_t pd, ph, pw

# The references (plain dense f32) are kernels/conv_ref.pxd's.

# The three directions on GEMM (patches read in place by the GEMM's packing, or
# col2im after it for backward data), in either orientation: src_cl / dst_cl
# say whether src (diff_src) and dst (diff_dst) are channels-last (n, d, h,
# w, c) rather than channels-first. Inputs are f32 or bf16 as src_dt, wei_dt
# and dst_dt say (dst_dt: diff_dst); outputs and bias are f32. Weights are
# (g, ocg, K) with K ordered (kd, kh, kw, ic) when src_cl, else (ic, kd, kh,
# kw). uk: the GEMM micro-kernel of the implementation's ISA level.
# work: conv_gemm_work(s, direction, nthr) floats.
cdef enum:
    CONV_FWD = 0
    CONV_BWD_DATA = 1
    CONV_BWD_WEIGHTS = 2

cdef struct conv_layout_t:
    bint src_cl
    bint dst_cl
    int src_dt
    int wei_dt
    int dst_dt
    const gemm_kernel_t *uk
    int isa                 # the implementation's level (bf16 rounding of forward's dst)

cdef size_t conv_gemm_work(const conv_shape_t *s, int direction, int nthr) noexcept nogil
# A bf16 src where conv_fwd_widens is widened an image at a time, the work
# then conv_gemm_work(s, CONV_FWD, nthr) + nthr * conv_gemm_widen(s, CONV_FWD)
# floats.
cdef void conv_fwd_gemm(const conv_shape_t *s, conv_layout_t lay, const void *src,
                        const void *wei, const float *bias, void *dst, float *work,
                        int nthr) noexcept nogil
cdef bint conv_fwd_widens(const gemm_kernel_t *uk, bint dst_cl) noexcept nogil
# diff_src f32, or bf16 where conv_bwd_data_writes_bf16 (lay.src_dt says which);
# a bf16 diff_dst at a level without bf16 dot products is widened an image
# at a time, its work then conv_gemm_work(s, CONV_BWD_DATA, nthr) + nthr *
# conv_gemm_widen(s, CONV_BWD_DATA) floats.
cdef void conv_bwd_data_gemm(const conv_shape_t *s, conv_layout_t lay, void *diff_src,
                             const void *wei, const void *diff_dst, float *work,
                             int nthr) noexcept nogil
# whether backward data can round diff_src into bf16 itself (the phases
# path: channels-first, with a col)
cdef bint conv_bwd_data_writes_bf16(const conv_shape_t *s, bint src_cl) noexcept nogil
# Backward weights also takes bf16 src and diff_dst at levels whose GEMM has
# no bf16 dot products (lay.uk.ukernel_bf16 NULL): it widens them an image at
# a time, its work then conv_gemm_work(s, CONV_BWD_WEIGHTS, nthr) +
# nthr * conv_gemm_widen(s, CONV_BWD_WEIGHTS) floats.
cdef void conv_bwd_weights_gemm(const conv_shape_t *s, conv_layout_t lay, const void *src,
                                float *diff_wei, float *diff_bias, const void *diff_dst,
                                float *work, int nthr) noexcept nogil
cdef size_t conv_gemm_widen(const conv_shape_t *s, int direction) noexcept nogil
