# Quantization attributes (see attr_quant.pyx).

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_primitive_attr_set_scales_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_scales(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_scales_v2(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type,
        int is_on_host) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_scales_v3(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type, int is_on_host,
        dnnl_quantization_mode_t qmode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_zero_points_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_zero_points(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_zero_points_v2(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type,
        int is_on_host) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_precomputed_reductions(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_rnn_data_qparams(
        dnnl_primitive_attr_t attr, const float scale, const float shift) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_rnn_data_qparams(
        const_dnnl_primitive_attr_t attr, float *scale, float *shift) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_rnn_weights_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask,
        const float *scales) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_rnn_weights_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
        const float **scales) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_rnn_weights_projection_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask,
        const float *scales) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_rnn_weights_projection_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
        const float **scales) noexcept nogil

# ------------------------------------------- for attr.pyx, post_ops.pyx

cdef int extra_copy(attr_extra_t **dst, const attr_extra_t *src) noexcept nogil
cdef void extra_free(attr_extra_t *extra) noexcept nogil
cdef void extra_retire(attr_extra_t *extra, post_op_t *entry) noexcept nogil
# The first attribute of the block set to other than its default (NULL: none).
cdef const char *extra_unhonoured(const attr_extra_t *extra) noexcept nogil
