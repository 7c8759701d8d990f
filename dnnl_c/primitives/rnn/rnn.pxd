from dnnl_c.core cimport *
from dnnl_c.primitives.rnn.desc cimport rnn_desc_t

cdef dnnl_status_t dnnl_lstm_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t src_iter_c_desc, const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t weights_peephole_desc,
        const_dnnl_memory_desc_t weights_projection_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t dst_iter_c_desc, unsigned flags,
        const_dnnl_primitive_attr_t attr) noexcept nogil
cdef dnnl_status_t dnnl_lstm_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t src_iter_c_desc, const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t weights_peephole_desc,
        const_dnnl_memory_desc_t weights_projection_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t dst_iter_c_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_src_iter_c_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_weights_peephole_desc,
        const_dnnl_memory_desc_t diff_weights_projection_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        const_dnnl_memory_desc_t diff_dst_iter_c_desc, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) noexcept nogil

# ------------------------------------------- for the other cells (cells.pyx)

# oneDNN's rnn_common_fwd_desc_init / rnn_common_bwd_desc_init: mds in the
# order of the LSTM create functions (11 forward, 22 backward; NULL where a
# cell has no such argument; an AUGRU's attention in the peephole's place).
cdef dnnl_status_t init_desc(rnn_desc_t *r, dnnl_alg_kind_t cell_kind,
                             dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
                             int nmds, const dnnl_memory_desc **mds, unsigned flags,
                             dnnl_alg_kind_t activation, float alpha, float beta) noexcept nogil
cdef dnnl_status_t create(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
                          rnn_desc_t *desc, int nmds, const dnnl_memory_desc **mds,
                          const_dnnl_primitive_desc_t hint,
                          const_dnnl_primitive_attr_t attr) noexcept nogil
