# The eltwise primitive (oneDNN src/common/eltwise.cpp and the cpu eltwise
# list): validation, then `dense:<level>` on one dense layout, one per ISA
# level of its vector loops, and `ref:any` on any layouts through plain f32
# scratch (scalar formulas only, at any level).

from libc.stdio cimport snprintf
from libc.stdint cimport int64_t
from libc.string cimport memset

from dnnl_c.core cimport *
from dnnl_c.primitives.reorder.reorder cimport reorder_md
from dnnl_c.primitives.eltwise.desc cimport eltwise_desc_t, eltwise_desc, eltwise_dense_conf_t
from dnnl_c.kernels.eltwise cimport eltwise_kernels_t, eltwise_kernels_for, eltwise_fwd, eltwise_bwd
from dnnl_c.kernels.isa cimport ISA_SSE41, ISA_AVX2, ISA_AVX512_CORE, ISA_AVX512_CORE_BF16


cdef bint known_alg(int alg) noexcept nogil:
    return (dnnl_eltwise_relu <= alg <= dnnl_eltwise_hardswish
            or dnnl_eltwise_relu_use_dst_for_bwd <= alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd)


cdef bint uses_dst(int alg) noexcept nogil:
    return dnnl_eltwise_relu_use_dst_for_bwd <= alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd


cdef dnnl_status_t check_params(int alg, float alpha, float beta) noexcept nogil:
    if not known_alg(alg):
        return fail(dnnl_invalid_arguments, "eltwise: unknown algorithm")
    if (alg == dnnl_eltwise_relu_use_dst_for_bwd or alg == dnnl_eltwise_elu_use_dst_for_bwd) \
            and alpha < 0:
        return fail(dnnl_invalid_arguments,
                    "eltwise: relu/elu with use_dst_for_bwd need alpha >= 0")
    if (alg == dnnl_eltwise_clip or alg == dnnl_eltwise_clip_v2
            or alg == dnnl_eltwise_clip_v2_use_dst_for_bwd) and alpha > beta:
        return fail(dnnl_invalid_arguments, "eltwise: clip needs alpha <= beta")
    return dnnl_success


cdef dnnl_status_t same_dims(const md_t *a, const md_t *b, const char *what) noexcept nogil:
    cdef char msg[160]
    cdef int d
    if a.ndims == 0 or b.ndims == 0:
        snprintf(msg, sizeof(msg), "eltwise: %s is the zero descriptor", what)
        return fail(dnnl_invalid_arguments, msg)
    if a.ndims != b.ndims:
        snprintf(msg, sizeof(msg), "eltwise: %s has other dims", what)
        return fail(dnnl_invalid_arguments, msg)
    for d in range(a.ndims):
        if a.dims[d] != b.dims[d]:
            snprintf(msg, sizeof(msg), "eltwise: %s differs in dim %d", what, d)
            return fail(dnnl_invalid_arguments, msg)
    return dnnl_success


cdef inline int data_arg(const dnnl_primitive_desc *pd) noexcept nogil:
    return DNNL_ARG_DST if uses_dst(eltwise_desc(pd).alg_kind) else DNNL_ARG_SRC


cdef inline bint is_fwd(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd.desc.prop_kind != dnnl_backward_data


cdef dnnl_status_t resolve(dnnl_primitive_desc *pd) noexcept nogil:
    """Resolves `any` (oneDNN: dst and diffs follow the data layout) and
    checks data types: one of f32 or bf16 for every tensor."""
    cdef md_t *data
    cdef md_t *dst
    cdef md_t *ddst
    cdef md_t *dsrc
    cdef dnnl_data_type_t dt
    if is_fwd(pd):
        data = pd_md(pd, DNNL_ARG_SRC)
        dst = pd_md(pd, DNNL_ARG_DST)
        if md_is_any(dst) and md_copy_layout(dst, data) != dnnl_success:
            return dnnl_unimplemented
        if dst.data_type != data.data_type:
            return fail(dnnl_unimplemented, "eltwise: src and dst data types differ")
    else:
        data = pd_md(pd, data_arg(pd))
        ddst = pd_md(pd, DNNL_ARG_DIFF_DST)
        dsrc = pd_md(pd, DNNL_ARG_DIFF_SRC)
        if md_is_any(data):
            if not md_is_any(ddst):
                md_copy_layout(data, ddst)
            elif not md_is_any(dsrc):
                md_copy_layout(data, dsrc)
            else:
                md_set_tag(data, <dnnl_format_tag_t>(dnnl_a + data.ndims - 1))
        if md_is_any(ddst):
            md_copy_layout(ddst, data)
        if md_is_any(dsrc):
            md_copy_layout(dsrc, ddst)
        if ddst.data_type != data.data_type or dsrc.data_type != data.data_type:
            return fail(dnnl_unimplemented, "eltwise: data and diff data types differ")
    dt = data.data_type
    if dt != dnnl_f32 and dt != dnnl_bf16:
        return fail(dnnl_unimplemented, "eltwise: data type must be f32 or bf16")
    if dt == dnnl_bf16 and not bf16_allowed():
        return fail(dnnl_unimplemented, "eltwise: bf16 is disabled by CYDNNL_BF16_UNIMPLEMENTED")
    return dnnl_success


cdef bint same_dense_layout(const md_t *a, const md_t *b) noexcept nogil:
    cdef md_t x = a[0]
    cdef md_t y = b[0]
    x.offset0 = 0
    y.offset0 = 0
    y.data_type = x.data_type
    return (md_equal(&x, &y) and md_nelems(a, True) == md_nelems(a, False)
            and md_size(a) == <size_t>md_nelems(a, False) * dt_size(a.data_type))


# -- dense:<level>: every tensor in one dense layout without padding

cdef dnnl_status_t dense_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef dnnl_status_t st = resolve(pd)
    if st != dnnl_success:
        return st
    cdef const md_t *data = pd_md(pd, DNNL_ARG_SRC if is_fwd(pd) else data_arg(pd))
    if is_fwd(pd):
        if not same_dense_layout(data, pd_md(pd, DNNL_ARG_DST)):
            return fail(dnnl_unimplemented, "eltwise: src and dst layouts differ or pad")
    elif not (same_dense_layout(data, pd_md(pd, DNNL_ARG_DIFF_DST))
              and same_dense_layout(data, pd_md(pd, DNNL_ARG_DIFF_SRC))):
        return fail(dnnl_unimplemented, "eltwise: layouts differ or pad")
    cdef dnnl_cpu_isa_t isa = pd_isa(pd)
    if isa == ISA_AVX512_CORE_BF16 and data.data_type != dnnl_bf16:
        return fail(dnnl_unimplemented, "eltwise: f32 runs at avx512_core")
    if eltwise_kernels_for(isa) == NULL:
        return fail(dnnl_unimplemented, "eltwise: this build has no vector loops for this "
                    "ISA level")
    cdef eltwise_dense_conf_t *conf = <eltwise_dense_conf_t *>pd_conf(
        pd, sizeof(eltwise_dense_conf_t))
    if conf == NULL:
        return fail(dnnl_out_of_memory, "eltwise: out of memory")
    conf.isa = isa
    return dnnl_success


cdef dnnl_status_t dense_execute(const dnnl_primitive_desc *pd,
                                 const exec_ctx_t *ctx) noexcept nogil:
    cdef const md_t *data
    cdef const eltwise_kernels_t *uk = eltwise_kernels_for(
        (<const eltwise_dense_conf_t *>pd.conf).isa)
    if is_fwd(pd):
        data = pd_md(pd, DNNL_ARG_SRC)
        eltwise_fwd(uk, eltwise_desc(pd).alg_kind, eltwise_desc(pd).alpha,
                    eltwise_desc(pd).beta, ctx_data(ctx, DNNL_ARG_SRC),
                    ctx_data(ctx, DNNL_ARG_DST), data.data_type, md_nelems(data, False))
    else:
        data = pd_md(pd, data_arg(pd))
        eltwise_bwd(uk, eltwise_desc(pd).alg_kind, eltwise_desc(pd).alpha, eltwise_desc(pd).beta,
                    ctx_data(ctx, data_arg(pd)), ctx_data(ctx, DNNL_ARG_DIFF_DST),
                    ctx_data(ctx, DNNL_ARG_DIFF_SRC), data.data_type, md_nelems(data, False))
    return dnnl_success


# -- ref:any: any layouts, computed on plain f32 copies

cdef dnnl_status_t ref_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef dnnl_status_t st = resolve(pd)
    if st != dnnl_success:
        return st
    cdef int64_t n = md_nelems(pd_md(pd, DNNL_ARG_SRC if is_fwd(pd) else data_arg(pd)), False)
    if cydnnl_bytes_add_overflow(&pd.scratchpad_size, n, sizeof(float) * (1 if is_fwd(pd) else 2)):
        return fail(dnnl_unimplemented, "eltwise: the f32 copies do not fit in memory")
    return dnnl_success


cdef dnnl_status_t ref_execute(const dnnl_primitive_desc *pd,
                               const exec_ctx_t *ctx) noexcept nogil:
    cdef md_t plain
    cdef const md_t *data = pd_md(pd, DNNL_ARG_SRC if is_fwd(pd) else data_arg(pd))
    cdef int64_t n = md_nelems(data, False)
    cdef float *x = <float *>ctx.scratchpad
    cdef float *dd = x + n
    cdef dnnl_status_t st
    if n == 0:
        return dnnl_success
    md_plain(&plain, data, dnnl_f32)
    if is_fwd(pd):
        st = reorder_md(ctx_data(ctx, DNNL_ARG_SRC), data, <char *>x, &plain)
        if st == dnnl_success:
            eltwise_fwd(NULL, eltwise_desc(pd).alg_kind, eltwise_desc(pd).alpha,
                        eltwise_desc(pd).beta, <char *>x, <char *>x, dnnl_f32, n)
            st = reorder_md(<char *>x, &plain, ctx_data(ctx, DNNL_ARG_DST),
                            pd_md(pd, DNNL_ARG_DST))
        return st
    st = reorder_md(ctx_data(ctx, data_arg(pd)), data, <char *>x, &plain)
    if st == dnnl_success:
        st = reorder_md(ctx_data(ctx, DNNL_ARG_DIFF_DST), pd_md(pd, DNNL_ARG_DIFF_DST),
                        <char *>dd, &plain)
    if st == dnnl_success:
        eltwise_bwd(NULL, eltwise_desc(pd).alg_kind, eltwise_desc(pd).alpha,
                    eltwise_desc(pd).beta, <char *>x, <char *>dd, <char *>dd, dnnl_f32, n)
        st = reorder_md(<char *>dd, &plain, ctx_data(ctx, DNNL_ARG_DIFF_SRC),
                        pd_md(pd, DNNL_ARG_DIFF_SRC))
    return st


cdef dnnl_status_t eltwise_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                                 int index, void *result) noexcept nogil:
    if what == dnnl_query_alg_kind:
        (<dnnl_alg_kind_t *>result)[0] = eltwise_desc(pd).alg_kind
    elif what == dnnl_query_alpha_f32:
        (<float *>result)[0] = eltwise_desc(pd).alpha
    elif what == dnnl_query_beta_f32:
        (<float *>result)[0] = eltwise_desc(pd).beta
    else:
        return dnnl_unimplemented
    return dnnl_success


cdef void eltwise_verbose(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """oneDNN's init_info_eltwise: data (src, or dst for the use_dst_for_bwd
    algorithms) and diff; alg, alpha, beta; the dims."""
    cdef int data = DNNL_ARG_SRC if is_fwd(pd) else data_arg(pd)
    vs_arg(&v.mds, pd, "data", data)
    if not is_fwd(pd):
        vs_arg(&v.mds, pd, "diff", DNNL_ARG_DIFF_SRC)
    cydnnl_vs_printf(&v.aux, "alg:%s alpha:%g beta:%g",
                     dnnl_alg_kind2str(eltwise_desc(pd).alg_kind), eltwise_desc(pd).alpha,
                     eltwise_desc(pd).beta)
    vs_dims(&v.prb, pd_arg_md(pd, data))


# The family's registration: the eltwise kind and its implementation list.
cdef primitive_kind_t eltwise_kind
eltwise_kind.kind = dnnl_eltwise
eltwise_kind.query = eltwise_query
eltwise_kind.verbose = eltwise_verbose
# bf16 also at avx512_core_bf16: its stores round with vcvtneps2bf16
for isa in (ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&eltwise_kind.impls, "dense", isa, dense_init, dense_execute)
impl_list_add(&eltwise_kind.impls, "ref:any", ref_init, ref_execute)
register_kind(&eltwise_kind)


cdef void init_desc(eltwise_desc_t *desc, dnnl_prop_kind_t prop_kind,
                    dnnl_alg_kind_t alg_kind, float alpha, float beta) noexcept nogil:
    memset(desc, 0, sizeof(eltwise_desc_t))
    desc.hdr.primitive_kind = dnnl_eltwise
    desc.hdr.prop_kind = prop_kind
    desc.alg_kind = alg_kind
    desc.alpha = alpha
    desc.beta = beta


cdef dnnl_status_t dnnl_eltwise_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        float alpha, float beta, const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef dnnl_status_t st
    if prop_kind != dnnl_forward_training and prop_kind != dnnl_forward_inference:
        return fail(dnnl_invalid_arguments, "eltwise forward: prop_kind must be forward_*")
    st = check_params(alg_kind, alpha, beta)
    if st == dnnl_success:
        st = check_md_arg(src_desc, "src_desc", False)
    if st == dnnl_success:
        st = check_md_arg(dst_desc, "dst_desc", False)
    if st == dnnl_success:
        st = same_dims(&src_desc.md, &dst_desc.md, "dst_desc")
    if st != dnnl_success:
        return st
    if md_is_any(&src_desc.md):
        return fail(dnnl_invalid_arguments, "eltwise forward: src_desc needs a concrete layout")
    cdef eltwise_desc_t desc
    init_desc(&desc, prop_kind, alg_kind, alpha, beta)
    desc.src_desc = src_desc.md
    desc.dst_desc = dst_desc.md
    cdef arg_spec_t args[2]
    args[0] = arg_spec_t(DNNL_ARG_SRC, ARG_INPUT, &src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DST, ARG_OUTPUT, &dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 2, args, attr, NULL)


cdef dnnl_status_t dnnl_eltwise_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t data_desc,
        float alpha, float beta, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef dnnl_status_t st = check_params(alg_kind, alpha, beta)
    if st == dnnl_success and alg_kind == dnnl_eltwise_round:
        st = fail(dnnl_invalid_arguments, "eltwise: round has no backward")
    if st == dnnl_success:
        st = check_md_arg(diff_src_desc, "diff_src_desc", False)
    if st == dnnl_success:
        st = check_md_arg(diff_dst_desc, "diff_dst_desc", False)
    if st == dnnl_success:
        st = check_md_arg(data_desc, "data_desc", False)
    if st == dnnl_success:
        st = same_dims(&data_desc.md, &diff_src_desc.md, "diff_src_desc")
    if st == dnnl_success:
        st = same_dims(&data_desc.md, &diff_dst_desc.md, "diff_dst_desc")
    if st == dnnl_success:
        st = check_hint(hint_fwd_pd, dnnl_eltwise, False)
    if st != dnnl_success:
        return st
    cdef eltwise_desc_t desc
    init_desc(&desc, dnnl_backward_data, alg_kind, alpha, beta)
    desc.src_desc = data_desc.md
    desc.diff_src_desc = diff_src_desc.md
    desc.diff_dst_desc = diff_dst_desc.md
    cdef arg_spec_t args[3]
    args[0] = arg_spec_t(DNNL_ARG_DIFF_SRC, ARG_OUTPUT, &diff_src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DIFF_DST, ARG_INPUT, &diff_dst_desc.md)
    args[2] = arg_spec_t(DNNL_ARG_DST if uses_dst(alg_kind) else DNNL_ARG_SRC, ARG_INPUT,
                         &data_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 3, args, attr,
                     hint_fwd_pd)
