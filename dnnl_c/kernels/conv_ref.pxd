# Reference convolution kernels (kernels/conv_ref.pyx).

from dnnl_c.kernels.convolution cimport conv_shape_t

# Plain dense f32: src (mb, g*icg, id, ih, iw), weights (g, ocg, icg, kd, kh,
# kw), bias (g*ocg) or NULL, dst (mb, g*ocg, od, oh, ow).
cdef void conv_fwd_ref(const conv_shape_t *s, const float *src, const float *wei,
                       const float *bias, float *dst) noexcept nogil
cdef void conv_bwd_data_ref(const conv_shape_t *s, float *diff_src, const float *wei,
                            const float *diff_dst) noexcept nogil
# diff_bias may be NULL.
cdef void conv_bwd_weights_ref(const conv_shape_t *s, const float *src, float *diff_wei,
                               float *diff_bias, const float *diff_dst) noexcept nogil
