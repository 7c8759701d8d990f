# Post-ops (see post_ops.pyx).

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_post_ops_create(dnnl_post_ops_t *post_ops) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_clone(dnnl_post_ops_t *post_ops,
                                       const_dnnl_post_ops_t existing_post_ops) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_destroy(dnnl_post_ops_t post_ops) noexcept nogil
cdef int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops) noexcept nogil
cdef dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops,
                                                  int index) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
                                            int zero_point,
                                            dnnl_data_type_t data_type) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops, int index,
                                                float *scale, int *zero_point,
                                                dnnl_data_type_t *data_type) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_append_eltwise(dnnl_post_ops_t post_ops,
                                                dnnl_alg_kind_t alg_kind, float alpha,
                                                float beta) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops, int index,
                                                    dnnl_alg_kind_t *alg_kind, float *alpha,
                                                    float *beta) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops,
                                           dnnl_data_type_t weights_data_type,
                                           dnnl_data_type_t bias_data_type,
                                           dnnl_data_type_t dst_data_type,
                                           dnnl_dim_t kernel_size, dnnl_dim_t stride_size,
                                           dnnl_dim_t padding_l_size) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_get_params_dw(
        const_dnnl_post_ops_t post_ops, int index, dnnl_data_type_t *weights_data_type,
        dnnl_data_type_t *bias_data_type, dnnl_data_type_t *dst_data_type,
        dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
        dnnl_dim_t *padding_l_size) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_append_binary(dnnl_post_ops_t post_ops,
                                               dnnl_alg_kind_t alg_kind,
                                               const_dnnl_memory_desc_t src1_desc) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_append_binary_v2(
        dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_get_params_binary(
        const_dnnl_post_ops_t post_ops, int index, dnnl_alg_kind_t *alg_kind,
        const_dnnl_memory_desc_t *src1_desc) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_get_params_binary_v2(
        const_dnnl_post_ops_t post_ops, int index, dnnl_alg_kind_t *alg_kind,
        const_dnnl_memory_desc_t *src1_desc, const_dnnl_memory_desc_t *src2_desc) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask) noexcept nogil
cdef dnnl_status_t dnnl_post_ops_get_params_prelu(const_dnnl_post_ops_t post_ops, int index,
                                                  int *mask) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_post_ops(
        const_dnnl_primitive_attr_t attr, const_dnnl_post_ops_t *post_ops) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_post_ops(
        dnnl_primitive_attr_t attr, const_dnnl_post_ops_t post_ops) noexcept nogil

# ------------------------------------------- for attr.pyx

cdef void post_ops_init(dnnl_post_ops *po) noexcept nogil
cdef void post_ops_set_owner(dnnl_post_ops *po, obj_header *owner) noexcept nogil
cdef void post_ops_clear(dnnl_post_ops *po) noexcept nogil
cdef int post_ops_copy(dnnl_post_ops *dst, const dnnl_post_ops *src) noexcept nogil
