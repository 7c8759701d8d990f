# Channels-first convolution backward data without col2im, where the level
# has bf16 dot products (kernels/include/bwd_data_direct.h): each phase of
# the stride of diff_src summed directly from dY packed as channel pairs.
# kernels/convolution.pyx runs it in place of the GEMM and col2im when
# direct_wei_floats(s) > 0 and the level's table has the kernels.

from libc.stdint cimport int64_t, uint16_t, uint32_t
from dnnl_c.kernels.convolution cimport conv_shape_t, conv_layout_t
from dnnl_c.kernels.col2im cimport col2im_kernels_t

# A thread's work floats, and every group's packed weights' (shared); both
# 0 where the shape is not one this path takes (then it is not taken).
cdef int64_t direct_floats(const conv_shape_t *s) noexcept nogil
cdef int64_t direct_wei_floats(const conv_shape_t *s) noexcept nogil
# Every group's weights (g, ocg, icg, kh, kw), bf16, into wp
# (direct_wei_floats(s) floats, 64-byte aligned).
cdef void direct_pack_wei(const conv_shape_t *s, const col2im_kernels_t *kl,
                          const uint16_t *wei, uint32_t *wp) noexcept nogil
# One image's group: x its diff_src (lay.src_dt), dy its diff_dst (bf16,
# lay.dst_cl says the layout), wp all groups' packed weights; dy_next the
# thread's next job's diff_dst (NULL: none), asked for into cache during
# the last band; work direct_floats(s) floats; parallel: the tiles over
# the threads.
cdef void bwd_data_direct(const conv_shape_t *s, conv_layout_t lay, const col2im_kernels_t *kl,
                          int64_t g, void *x, const uint32_t *wp, const uint16_t *dy,
                          const uint16_t *dy_next, float *work, bint parallel) noexcept nogil
