# Post-ops (oneDNN's post_ops_t in primitive_attr.cpp): a chain of
# operations a primitive would apply to its result (sum, eltwise, depthwise
# convolution, binary, prelu). The chain is kept and queried as oneDNN does;
# no implementation here applies it yet, so a primitive descriptor with a
# non-empty chain is dnnl_unimplemented (attr_check_honoured).

from libc.stdlib cimport malloc, calloc, free
from libc.math cimport isfinite

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail
from dnnl_c.core.objects cimport header_init, obj_alive, obj_destroy
from dnnl_c.core.memory_desc_wrapper cimport md_zero, sanity_status
from dnnl_c.core.memory_desc cimport md_ok
from dnnl_c.core.attr_quant cimport extra_retire

# ------------------------------------------------------------ the chain


cdef void post_ops_init(dnnl_post_ops *po) noexcept nogil:
    cdef int i
    po.len = 0
    for i in range(POST_OPS_LIMIT):
        po.entries[i] = NULL


cdef void post_ops_set_owner(dnnl_post_ops *po, obj_header *owner) noexcept nogil:
    """The mds of the entries live in the chain, the chain in owner (NULL: a
    chain of the user's)."""
    cdef int i
    if owner != NULL:
        header_init(&po.hdr, OBJ_POST_OPS, owner, NULL)
    for i in range(po.len):
        header_init(&po.entries[i].src1.hdr, OBJ_MEMORY_DESC, &po.hdr, NULL)
        header_init(&po.entries[i].src2.hdr, OBJ_MEMORY_DESC, &po.hdr, NULL)


cdef void post_ops_clear(dnnl_post_ops *po) noexcept nogil:
    cdef int i
    for i in range(po.len):
        free(po.entries[i])
        po.entries[i] = NULL
    po.len = 0


cdef int post_ops_copy(dnnl_post_ops *dst, const dnnl_post_ops *src) noexcept nogil:
    """dst (empty) takes copies of src's entries; -1 if out of memory (dst
    then holds those copied so far)."""
    cdef int i
    for i in range(src.len):
        dst.entries[i] = <post_op_t *>malloc(sizeof(post_op_t))
        if dst.entries[i] == NULL:
            return -1
        dst.entries[i][0] = src.entries[i][0]
        dst.len = i + 1
    post_ops_set_owner(dst, NULL)
    return 0


cdef bint post_ops_ok(const dnnl_post_ops *po) noexcept nogil:
    return obj_alive(&po.hdr if po != NULL else NULL, OBJ_POST_OPS)


cdef void post_ops_free(obj_header *obj) noexcept nogil:
    post_ops_clear(<dnnl_post_ops *>obj)
    free(obj)


cdef dnnl_post_ops *post_ops_new() noexcept nogil:
    cdef dnnl_post_ops *po = <dnnl_post_ops *>malloc(sizeof(dnnl_post_ops))
    if po != NULL:
        header_init(&po.hdr, OBJ_POST_OPS, NULL, post_ops_free)
        post_ops_init(po)
    return po


cdef dnnl_status_t dnnl_post_ops_create(dnnl_post_ops_t *post_ops) noexcept nogil:
    if post_ops == NULL:
        return fail(dnnl_invalid_arguments, "post_ops: NULL output pointer")
    cdef dnnl_post_ops *po = post_ops_new()
    if po == NULL:
        return fail(dnnl_out_of_memory, "post_ops: out of memory")
    post_ops[0] = po
    return dnnl_success


cdef dnnl_status_t dnnl_post_ops_clone(dnnl_post_ops_t *post_ops,
                                       const_dnnl_post_ops_t existing_post_ops) noexcept nogil:
    if post_ops == NULL or not post_ops_ok(existing_post_ops):
        return fail(dnnl_invalid_arguments, "post_ops: NULL output or dead post-ops")
    cdef dnnl_post_ops *po = post_ops_new()
    if po == NULL:
        return fail(dnnl_out_of_memory, "post_ops: out of memory")
    if post_ops_copy(po, existing_post_ops) != 0:
        post_ops_free(&po.hdr)
        return fail(dnnl_out_of_memory, "post_ops: out of memory")
    post_ops[0] = po
    return dnnl_success


cdef dnnl_status_t dnnl_post_ops_destroy(dnnl_post_ops_t post_ops) noexcept nogil:
    return obj_destroy(&post_ops.hdr if post_ops != NULL else NULL, OBJ_POST_OPS, "post_ops")


cdef int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops) noexcept nogil:
    return post_ops.len if post_ops_ok(post_ops) else 0


cdef dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops,
                                                  int index) noexcept nogil:
    if not post_ops_ok(post_ops) or index < 0 or index >= post_ops.len:
        return dnnl_undefined_primitive
    return post_ops.entries[index].kind

# ------------------------------------------------------------ appending


cdef post_op_t *append(dnnl_post_ops *po, dnnl_primitive_kind_t kind,
                       dnnl_status_t *st) noexcept nogil:
    """A new zeroed entry at the end (NULL and st set when it cannot be)."""
    cdef post_op_t *e
    if not post_ops_ok(po) or po.hdr.owner != NULL:
        st[0] = fail(dnnl_invalid_arguments, "post_ops: not live post-ops of the user")
        return NULL
    if po.len >= POST_OPS_LIMIT:
        st[0] = fail(dnnl_out_of_memory, "post_ops: at most 32 post-ops")
        return NULL
    e = <post_op_t *>calloc(1, sizeof(post_op_t))
    if e == NULL:
        st[0] = fail(dnnl_out_of_memory, "post_ops: out of memory")
        return NULL
    e.kind = kind
    md_zero(&e.src1.md)
    md_zero(&e.src2.md)
    header_init(&e.src1.hdr, OBJ_MEMORY_DESC, &po.hdr, NULL)
    header_init(&e.src2.hdr, OBJ_MEMORY_DESC, &po.hdr, NULL)
    po.entries[po.len] = e
    po.len += 1
    st[0] = dnnl_success
    return e


cdef dnnl_status_t dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
                                            int zero_point,
                                            dnnl_data_type_t data_type) noexcept nogil:
    cdef dnnl_status_t st
    if not isfinite(scale):
        return fail(dnnl_invalid_arguments, "post_ops: sum scale must be finite")
    cdef post_op_t *e = append(post_ops, dnnl_sum, &st)
    if e != NULL:
        e.scale, e.zero_point, e.dt = scale, zero_point, data_type
    return st


cdef bint eltwise_alg(dnnl_alg_kind_t alg) noexcept nogil:
    return (dnnl_eltwise_relu <= alg <= dnnl_eltwise_hardswish
            or dnnl_eltwise_relu_use_dst_for_bwd <= alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd)


cdef dnnl_status_t dnnl_post_ops_append_eltwise(dnnl_post_ops_t post_ops,
                                                dnnl_alg_kind_t alg_kind, float alpha,
                                                float beta) noexcept nogil:
    cdef dnnl_status_t st
    if not eltwise_alg(alg_kind):
        return fail(dnnl_invalid_arguments, "post_ops: not an eltwise algorithm")
    if not (isfinite(alpha) and isfinite(beta)):
        return fail(dnnl_invalid_arguments, "post_ops: eltwise alpha and beta must be finite")
    cdef post_op_t *e = append(post_ops, dnnl_eltwise, &st)
    if e != NULL:
        e.alg, e.alpha, e.beta, e.scale = alg_kind, alpha, beta, 1.0
    return st


cdef dnnl_status_t dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops,
                                           dnnl_data_type_t weights_data_type,
                                           dnnl_data_type_t bias_data_type,
                                           dnnl_data_type_t dst_data_type,
                                           dnnl_dim_t kernel_size, dnnl_dim_t stride_size,
                                           dnnl_dim_t padding_l_size) noexcept nogil:
    cdef dnnl_status_t st
    if weights_data_type == dnnl_data_type_undef or dst_data_type == dnnl_data_type_undef:
        return fail(dnnl_invalid_arguments, "post_ops: depthwise weights and dst data "
                    "types must be given")
    if kernel_size <= 0 or stride_size <= 0 or padding_l_size < 0 or \
            padding_l_size + 1 > kernel_size:
        return fail(dnnl_invalid_arguments, "post_ops: depthwise kernel, stride and "
                    "padding must satisfy kernel > 0, stride > 0, 0 <= padding < kernel")
    cdef post_op_t *e = append(post_ops, dnnl_convolution, &st)
    if e != NULL:
        e.wei_dt, e.bias_dt, e.dst_dt = weights_data_type, bias_data_type, dst_data_type
        e.kernel, e.stride, e.padding = kernel_size, stride_size, padding_l_size
    return st


cdef dnnl_status_t dnnl_post_ops_append_binary(dnnl_post_ops_t post_ops,
                                               dnnl_alg_kind_t alg_kind,
                                               const_dnnl_memory_desc_t src1_desc) noexcept nogil:
    return dnnl_post_ops_append_binary_v2(post_ops, alg_kind, src1_desc, NULL)


cdef dnnl_status_t dnnl_post_ops_append_binary_v2(
        dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc) noexcept nogil:
    cdef dnnl_status_t st
    if not (dnnl_binary_add <= alg_kind <= dnnl_binary_select):
        return fail(dnnl_invalid_arguments, "post_ops: not a binary algorithm")
    if not md_ok(src1_desc):
        return fail(dnnl_invalid_arguments, "post_ops: src1_desc is not a live memory "
                    "descriptor")
    st = sanity_status(src1_desc.md.ndims, src1_desc.md.dims, src1_desc.md.data_type)
    if st != dnnl_success:
        return st
    if alg_kind == dnnl_binary_select:     # the only ternary one
        if not md_ok(src2_desc):
            return fail(dnnl_invalid_arguments, "post_ops: binary_select needs src2_desc")
        st = sanity_status(src2_desc.md.ndims, src2_desc.md.dims, src2_desc.md.data_type)
        if st != dnnl_success:
            return st
    cdef post_op_t *e = append(post_ops, dnnl_binary, &st)
    if e != NULL:
        e.alg = alg_kind
        e.src1.md = src1_desc.md
        if alg_kind == dnnl_binary_select:
            e.src2.md = src2_desc.md
    return st


cdef dnnl_status_t dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask) noexcept nogil:
    cdef dnnl_status_t st
    if mask < 0:
        return fail(dnnl_invalid_arguments, "post_ops: prelu mask must be >= 0")
    cdef post_op_t *e = append(post_ops, dnnl_prelu, &st)
    if e != NULL:
        e.mask = mask
    return st

# ------------------------------------------------------------ reading


cdef const post_op_t *entry(const dnnl_post_ops *po, int index, dnnl_primitive_kind_t kind,
                            dnnl_status_t *st) noexcept nogil:
    if not post_ops_ok(po) or index < 0 or index >= po.len:
        st[0] = fail(dnnl_invalid_arguments, "post_ops: dead post-ops or index out of range")
        return NULL
    if po.entries[index].kind != kind:
        st[0] = fail(dnnl_invalid_arguments, "post_ops: the post-op at index is of "
                     "another kind")
        return NULL
    st[0] = dnnl_success
    return po.entries[index]


cdef dnnl_status_t dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops, int index,
                                                float *scale, int *zero_point,
                                                dnnl_data_type_t *data_type) noexcept nogil:
    cdef dnnl_status_t st
    cdef const post_op_t *e = entry(post_ops, index, dnnl_sum, &st)
    if e != NULL:
        if scale != NULL:
            scale[0] = e.scale
        if zero_point != NULL:
            zero_point[0] = e.zero_point
        if data_type != NULL:
            data_type[0] = e.dt
    return st


cdef dnnl_status_t dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops, int index,
                                                    dnnl_alg_kind_t *alg_kind, float *alpha,
                                                    float *beta) noexcept nogil:
    cdef dnnl_status_t st
    cdef const post_op_t *e = entry(post_ops, index, dnnl_eltwise, &st)
    if e != NULL:
        if alg_kind != NULL:
            alg_kind[0] = e.alg
        if alpha != NULL:
            alpha[0] = e.alpha
        if beta != NULL:
            beta[0] = e.beta
    return st


cdef dnnl_status_t dnnl_post_ops_get_params_dw(
        const_dnnl_post_ops_t post_ops, int index, dnnl_data_type_t *weights_data_type,
        dnnl_data_type_t *bias_data_type, dnnl_data_type_t *dst_data_type,
        dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
        dnnl_dim_t *padding_l_size) noexcept nogil:
    cdef dnnl_status_t st
    cdef const post_op_t *e = entry(post_ops, index, dnnl_convolution, &st)
    if e != NULL:
        if weights_data_type != NULL:
            weights_data_type[0] = e.wei_dt
        if bias_data_type != NULL:
            bias_data_type[0] = e.bias_dt
        if dst_data_type != NULL:
            dst_data_type[0] = e.dst_dt
        if kernel_size != NULL:
            kernel_size[0] = e.kernel
        if stride_size != NULL:
            stride_size[0] = e.stride
        if padding_l_size != NULL:
            padding_l_size[0] = e.padding
    return st


cdef dnnl_status_t dnnl_post_ops_get_params_binary(
        const_dnnl_post_ops_t post_ops, int index, dnnl_alg_kind_t *alg_kind,
        const_dnnl_memory_desc_t *src1_desc) noexcept nogil:
    return dnnl_post_ops_get_params_binary_v2(post_ops, index, alg_kind, src1_desc, NULL)


cdef dnnl_status_t dnnl_post_ops_get_params_binary_v2(
        const_dnnl_post_ops_t post_ops, int index, dnnl_alg_kind_t *alg_kind,
        const_dnnl_memory_desc_t *src1_desc, const_dnnl_memory_desc_t *src2_desc) noexcept nogil:
    cdef dnnl_status_t st
    cdef const post_op_t *e = entry(post_ops, index, dnnl_binary, &st)
    if e != NULL:
        if alg_kind != NULL:
            alg_kind[0] = e.alg
        if src1_desc != NULL:
            src1_desc[0] = &e.src1
        if src2_desc != NULL:
            src2_desc[0] = &e.src2
    return st


cdef dnnl_status_t dnnl_post_ops_get_params_prelu(const_dnnl_post_ops_t post_ops, int index,
                                                  int *mask) noexcept nogil:
    cdef dnnl_status_t st
    cdef const post_op_t *e = entry(post_ops, index, dnnl_prelu, &st)
    if e != NULL and mask != NULL:
        mask[0] = e.mask
    return st

# ------------------------------------------------------------ in attributes


cdef dnnl_status_t dnnl_primitive_attr_get_post_ops(
        const_dnnl_primitive_attr_t attr, const_dnnl_post_ops_t *post_ops) noexcept nogil:
    if not obj_alive(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR) or \
            post_ops == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    post_ops[0] = &attr.post_ops
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_post_ops(
        dnnl_primitive_attr_t attr, const_dnnl_post_ops_t post_ops) noexcept nogil:
    cdef dnnl_post_ops fresh
    cdef int i
    if not obj_alive(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR) or \
            attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    if not post_ops_ok(post_ops):
        return fail(dnnl_invalid_arguments, "attr: post_ops is not live post-ops")
    if post_ops == &attr.post_ops:
        return dnnl_success
    post_ops_init(&fresh)
    if attr.post_ops.len > 0 and attr.extra == NULL:
        attr.extra = <attr_extra_t *>calloc(1, sizeof(attr_extra_t))
    if post_ops_copy(&fresh, post_ops) != 0 or (attr.post_ops.len > 0 and attr.extra == NULL):
        post_ops_clear(&fresh)
        return fail(dnnl_out_of_memory, "attr: out of memory")
    # the old entries may have handles out (get_params_binary): kept until
    # the attr goes
    for i in range(attr.post_ops.len):
        extra_retire(attr.extra, attr.post_ops.entries[i])
        attr.post_ops.entries[i] = NULL
    for i in range(POST_OPS_LIMIT):
        attr.post_ops.entries[i] = fresh.entries[i]
    attr.post_ops.len = fresh.len
    post_ops_set_owner(&attr.post_ops, &attr.hdr)
    return dnnl_success
