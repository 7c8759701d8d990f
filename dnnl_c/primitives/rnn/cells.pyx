# The RNN cells other than LSTM (see cells.pxd): each create function checks
# its arguments as oneDNN does (dnnl_invalid_arguments) and builds the RNN
# op descriptor; the family's implementations then decline the cell, so a
# valid call answers dnnl_unimplemented.

from dnnl_c.core cimport *
from dnnl_c.primitives.rnn.desc cimport rnn_desc_t
from dnnl_c.primitives.rnn.rnn cimport init_desc, create


cdef dnnl_status_t fwd(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
                       dnnl_alg_kind_t cell, dnnl_prop_kind_t prop_kind,
                       dnnl_alg_kind_t activation, dnnl_rnn_direction_t direction,
                       const dnnl_memory_desc *src_layer, const dnnl_memory_desc *src_iter,
                       const dnnl_memory_desc *attention, const dnnl_memory_desc *weights_layer,
                       const dnnl_memory_desc *weights_iter, const dnnl_memory_desc *bias,
                       const dnnl_memory_desc *dst_layer, const dnnl_memory_desc *dst_iter,
                       unsigned flags, float alpha, float beta,
                       const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef rnn_desc_t desc
    cdef const dnnl_memory_desc *mds[11]
    if prop_kind != dnnl_forward_training and prop_kind != dnnl_forward_inference:
        return fail(dnnl_invalid_arguments, "rnn forward: prop_kind must be forward_*")
    # the LSTM create functions' order (no *_iter_c, no projection, the
    # attention in the peephole's place)
    mds[:] = [src_layer, src_iter, NULL, weights_layer, weights_iter, attention, NULL, bias,
              dst_layer, dst_iter, NULL]
    cdef dnnl_status_t st = init_desc(&desc, cell, prop_kind, direction, 11, mds, flags,
                                      activation, alpha, beta)
    if st != dnnl_success:
        return st
    return create(primitive_desc, engine, &desc, 11, mds, NULL, attr)


cdef dnnl_status_t bwd(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
                       dnnl_alg_kind_t cell, dnnl_prop_kind_t prop_kind,
                       dnnl_alg_kind_t activation, dnnl_rnn_direction_t direction,
                       const dnnl_memory_desc **given, unsigned flags, float alpha, float beta,
                       const_dnnl_primitive_desc_t hint, const_dnnl_primitive_attr_t attr
                       ) noexcept nogil:
    """given: src_layer, src_iter, attention, weights_layer, weights_iter, bias,
    dst_layer, dst_iter and their diffs in that order (attention NULL but for
    AUGRU)."""
    cdef rnn_desc_t desc
    cdef const dnnl_memory_desc *mds[22]
    cdef int i, j
    # the LSTM create functions' order: no *_iter_c, no projection, the
    # attention in the peephole's place
    cdef int from_given[11]
    from_given[:] = [0, 1, -1, 3, 4, 2, -1, 5, 6, 7, -1]
    if prop_kind != dnnl_backward:
        return fail(dnnl_invalid_arguments, "rnn backward: prop_kind must be backward")
    for i in range(2):
        for j in range(11):
            mds[11 * i + j] = given[8 * i + from_given[j]] if from_given[j] >= 0 else NULL
    cdef dnnl_status_t st = init_desc(&desc, cell, prop_kind, direction, 22, mds, flags,
                                      activation, alpha, beta)
    if st == dnnl_success:
        st = check_hint(hint, dnnl_rnn, False)
    if st != dnnl_success:
        return st
    return create(primitive_desc, engine, &desc, 22, mds, hint, attr)


cdef dnnl_status_t dnnl_vanilla_rnn_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        const dnnl_alg_kind_t activation,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags,
        float alpha,
        float beta,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    return fwd(primitive_desc, engine, dnnl_vanilla_rnn, prop_kind, activation, direction,
               src_layer_desc, src_iter_desc, NULL, weights_layer_desc, weights_iter_desc,
               bias_desc, dst_layer_desc, dst_iter_desc, flags, alpha, beta, attr)


cdef dnnl_status_t dnnl_vanilla_rnn_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        const dnnl_alg_kind_t activation,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        unsigned flags,
        float alpha,
        float beta,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef const dnnl_memory_desc *given[16]
    given[:] = [src_layer_desc, src_iter_desc, NULL, weights_layer_desc, weights_iter_desc,
                bias_desc, dst_layer_desc, dst_iter_desc, diff_src_layer_desc,
                diff_src_iter_desc, NULL, diff_weights_layer_desc, diff_weights_iter_desc,
                diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc]
    return bwd(primitive_desc, engine, dnnl_vanilla_rnn, prop_kind, activation, direction,
               given, flags, alpha, beta, hint_fwd_pd, attr)


cdef dnnl_status_t dnnl_gru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    return fwd(primitive_desc, engine, dnnl_vanilla_gru, prop_kind, dnnl_alg_kind_undef,
               direction, src_layer_desc, src_iter_desc, NULL, weights_layer_desc,
               weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags, 0, 0, attr)


cdef dnnl_status_t dnnl_gru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef const dnnl_memory_desc *given[16]
    given[:] = [src_layer_desc, src_iter_desc, NULL, weights_layer_desc, weights_iter_desc,
                bias_desc, dst_layer_desc, dst_iter_desc, diff_src_layer_desc,
                diff_src_iter_desc, NULL, diff_weights_layer_desc, diff_weights_iter_desc,
                diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc]
    return bwd(primitive_desc, engine, dnnl_vanilla_gru, prop_kind, dnnl_alg_kind_undef,
               direction, given, flags, 0, 0, hint_fwd_pd, attr)


cdef dnnl_status_t dnnl_lbr_gru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    return fwd(primitive_desc, engine, dnnl_lbr_gru, prop_kind, dnnl_alg_kind_undef, direction,
               src_layer_desc, src_iter_desc, NULL, weights_layer_desc, weights_iter_desc,
               bias_desc, dst_layer_desc, dst_iter_desc, flags, 0, 0, attr)


cdef dnnl_status_t dnnl_lbr_gru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef const dnnl_memory_desc *given[16]
    given[:] = [src_layer_desc, src_iter_desc, NULL, weights_layer_desc, weights_iter_desc,
                bias_desc, dst_layer_desc, dst_iter_desc, diff_src_layer_desc,
                diff_src_iter_desc, NULL, diff_weights_layer_desc, diff_weights_iter_desc,
                diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc]
    return bwd(primitive_desc, engine, dnnl_lbr_gru, prop_kind, dnnl_alg_kind_undef, direction,
               given, flags, 0, 0, hint_fwd_pd, attr)


cdef dnnl_status_t dnnl_augru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    return fwd(primitive_desc, engine, dnnl_vanilla_augru, prop_kind, dnnl_alg_kind_undef,
               direction, src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
               weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags, 0, 0, attr)


cdef dnnl_status_t dnnl_augru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_attention_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef const dnnl_memory_desc *given[16]
    given[:] = [src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
                weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc,
                diff_src_layer_desc, diff_src_iter_desc, diff_attention_desc,
                diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc,
                diff_dst_layer_desc, diff_dst_iter_desc]
    return bwd(primitive_desc, engine, dnnl_vanilla_augru, prop_kind, dnnl_alg_kind_undef,
               direction, given, flags, 0, 0, hint_fwd_pd, attr)


cdef dnnl_status_t dnnl_lbr_augru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    return fwd(primitive_desc, engine, dnnl_lbr_augru, prop_kind, dnnl_alg_kind_undef,
               direction, src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
               weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags, 0, 0, attr)


cdef dnnl_status_t dnnl_lbr_augru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_attention_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef const dnnl_memory_desc *given[16]
    given[:] = [src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
                weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc,
                diff_src_layer_desc, diff_src_iter_desc, diff_attention_desc,
                diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc,
                diff_dst_layer_desc, diff_dst_iter_desc]
    return bwd(primitive_desc, engine, dnnl_lbr_augru, prop_kind, dnnl_alg_kind_undef,
               direction, given, flags, 0, 0, hint_fwd_pd, attr)
