# The LRN primitive (oneDNN src/common/lrn.cpp and the cpu lrn list):
# validation, then `blocked:<level>` across channels directly on one layout
# (plain or blocked on channels), one per ISA level of its row kernels, and
# `ref:any` on any layouts through plain f32 scratch. Neither keeps a workspace:
# backward recomputes omega from src. At AVX-512, for beta 3/4 on 16-channel
# blocks or channels-last rows, both directions work straight on the layout
# (no tiles); bf16 data also runs at avx512_core_bf16, rounding in one
# instruction.

from libc.stdio cimport snprintf
from libc.stdint cimport int64_t, INT64_MAX
from libc.string cimport memset

from dnnl_c.core cimport *
from dnnl_c.primitives.reorder.reorder cimport reorder_md
from dnnl_c.primitives.lrn.desc cimport lrn_desc_t, lrn_desc, lrn_blocked_conf_t
from dnnl_c.kernels.lrn cimport (lrn_params_t, lrn_kernels_t, lrn_kernels_for, lrn_fwd_ref,
                                 lrn_bwd_ref, lrn_pick_tile, lrn_tile_floats,
                                 lrn_across_fwd_tiled, lrn_across_bwd_tiled,
                                 lrn_direct_ok, lrn_across_direct)
from dnnl_c.kernels.isa cimport ISA_SSE41, ISA_AVX2, ISA_AVX512_CORE, ISA_AVX512_CORE_BF16
from dnnl_c.kernels.openmp cimport omp_get_max_threads


cdef enum:
    # spatial dims the within-channel window covers (oneDNN's D, H, W)
    MAX_WITHIN_NDIMS = 5


cdef inline bint is_fwd(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd.desc.prop_kind != dnnl_backward_data


cdef dnnl_status_t same_dims(const md_t *a, const md_t *b, const char *what) noexcept nogil:
    cdef char msg[160]
    cdef int d
    if a.ndims != b.ndims:
        snprintf(msg, sizeof(msg), "lrn: %s has %d dims, src %d", what, b.ndims, a.ndims)
        return fail(dnnl_invalid_arguments, msg)
    for d in range(a.ndims):
        if a.dims[d] != b.dims[d]:
            snprintf(msg, sizeof(msg), "lrn: %s differs from src in dim %d (%lld, not %lld)",
                     what, d, <long long>b.dims[d], <long long>a.dims[d])
            return fail(dnnl_invalid_arguments, msg)
    return dnnl_success


cdef dnnl_status_t check_params(dnnl_alg_kind_t alg_kind, dnnl_dim_t local_size) noexcept nogil:
    if alg_kind != dnnl_lrn_across_channels and alg_kind != dnnl_lrn_within_channel:
        return fail(dnnl_invalid_arguments,
                    "lrn: algorithm must be lrn_across_channels or lrn_within_channel")
    if local_size < 0:
        return fail(dnnl_invalid_arguments, "lrn: local_size is negative")
    return dnnl_success


cdef dnnl_status_t check_src_ndims(const md_t *src) noexcept nogil:
    cdef char msg[96]
    if src.ndims < 2:
        snprintf(msg, sizeof(msg), "lrn: src needs at least 2 dims (N, C), it has %d",
                 src.ndims)
        return fail(dnnl_invalid_arguments, msg)
    return dnnl_success


cdef dnnl_status_t resolve(dnnl_primitive_desc *pd) noexcept nogil:
    """Resolves `any` as oneDNN does (dst and diffs take src's layout; a
    backward src left `any` takes diff_dst's) and checks data types: all f32
    or all bf16."""
    cdef md_t *src = pd_md(pd, DNNL_ARG_SRC)
    cdef md_t *dst
    cdef md_t *ddst
    cdef md_t *dsrc
    cdef dnnl_data_type_t dt = src.data_type
    if is_fwd(pd):
        dst = pd_md(pd, DNNL_ARG_DST)
        if md_is_any(dst) and md_copy_layout(dst, src) != dnnl_success:
            return dnnl_unimplemented
        if dst.data_type != dt:
            return fail(dnnl_unimplemented, "lrn: src and dst data types differ")
    else:
        ddst = pd_md(pd, DNNL_ARG_DIFF_DST)
        dsrc = pd_md(pd, DNNL_ARG_DIFF_SRC)
        if md_is_any(src):
            if not md_is_any(ddst):
                md_copy_layout(src, ddst)
            elif not md_is_any(dsrc):
                md_copy_layout(src, dsrc)
            else:
                md_set_tag(src, <dnnl_format_tag_t>(dnnl_a + src.ndims - 1))
        if md_is_any(ddst):
            md_copy_layout(ddst, src)
        if md_is_any(dsrc):
            md_copy_layout(dsrc, src)
        if ddst.data_type != dt or dsrc.data_type != dt:
            return fail(dnnl_unimplemented, "lrn: src, diff_src and diff_dst data types differ")
    if dt != dnnl_f32 and dt != dnnl_bf16:
        return fail(dnnl_unimplemented, "lrn: data type must be f32 or bf16")
    if dt == dnnl_bf16 and not bf16_allowed():
        return fail(dnnl_unimplemented, "lrn: bf16 is disabled by CYDNNL_BF16_UNIMPLEMENTED")
    if lrn_desc(pd).alg_kind == dnnl_lrn_within_channel and src.ndims > MAX_WITHIN_NDIMS:
        return fail(dnnl_unimplemented, "lrn: within-channel windows cover at most 3 "
                    "spatial dims")
    return dnnl_success


cdef float summands(const dnnl_primitive_desc *pd) noexcept nogil:
    """The divisor of alpha: local_size, or local_size^(spatial dims) within
    a channel."""
    cdef float n = lrn_desc(pd).local_size
    cdef float s = 1
    cdef int d
    if lrn_desc(pd).alg_kind == dnnl_lrn_across_channels:
        return n
    for d in range(2, pd_md(pd, DNNL_ARG_SRC).ndims):
        s *= n
    return s


cdef void fill_params(const dnnl_primitive_desc *pd, lrn_params_t *p) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_SRC)
    cdef int d
    p.across = lrn_desc(pd).alg_kind == dnnl_lrn_across_channels
    p.local_size = lrn_desc(pd).local_size
    p.alpha = lrn_desc(pd).lrn_alpha
    p.beta = lrn_desc(pd).lrn_beta
    p.k = lrn_desc(pd).lrn_k
    p.summands = summands(pd)
    p.N = src.dims[0]
    p.C = src.dims[1]
    p.S = 1
    for d in range(2, src.ndims):
        p.S *= src.dims[d]
    # the reference walks spatial dims as (D, H, W); across channels they flatten
    p.D = src.dims[src.ndims - 3] if src.ndims >= 5 and not p.across else 1
    p.H = src.dims[src.ndims - 2] if src.ndims >= 4 and not p.across else 1
    p.W = (src.dims[src.ndims - 1] if not p.across else p.S) if src.ndims >= 3 else 1


cdef bint same_layout(const md_t *a, const md_t *b) noexcept nogil:
    cdef md_t x = a[0]
    cdef md_t y = b[0]
    x.offset0 = 0
    y.offset0 = 0
    y.data_type = x.data_type
    return md_equal(&x, &y)


# -- blocked:<level>: across channels, every tensor in one layout where
#    element (n, c, s) is at n*sn + (c/blk)*sc + c%blk + s*ss

cdef bint tiled_layout(const md_t *md, int64_t *blk, int64_t *sn, int64_t *sc,
                       int64_t *ss) noexcept nogil:
    cdef int d, inner = -1
    cdef int64_t expect
    for d in range(md.ndims):
        if md.padded_offsets[d] != 0 or (d != 1 and md.padded_dims[d] != md.dims[d]):
            return False
    if md.inner_nblks == 1 and md.inner_idxs[0] == 1:
        blk[0] = md.inner_blks[0]
        sc[0] = md.strides[1]
        # the kernels zero the last block's lanes past the channels: they must
        # be layout padding, not a parent tensor's channels (a sub-memory)
        if md.padded_dims[1] != (md.dims[1] + blk[0] - 1) // blk[0] * blk[0]:
            return False
    elif md.inner_nblks == 0 and md.padded_dims[1] == md.dims[1]:
        if md.strides[1] == 1 and md.dims[1] > 1:
            blk[0] = md.dims[1]     # channels innermost: one block of all of them
            sc[0] = 0
        else:
            blk[0] = 1
            sc[0] = md.strides[1]
    else:
        return False
    sn[0] = md.strides[0]
    # spatial dims must nest densely so that they walk as one
    for d in range(md.ndims - 1, 1, -1):
        if md.dims[d] > 1:
            inner = d
            break
    ss[0] = md.strides[inner] if inner > 0 else 0
    if inner < 0:
        return True
    expect = ss[0]
    for d in range(inner, 1, -1):
        if md.dims[d] > 1 and md.strides[d] != expect:
            return False
        expect *= md.dims[d]
    return True


cdef dnnl_status_t blocked_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef dnnl_status_t st = resolve(pd)
    if st != dnnl_success:
        return st
    if lrn_desc(pd).alg_kind != dnnl_lrn_across_channels:
        return fail(dnnl_unimplemented, "lrn: only across channels")
    cdef const md_t *src = pd_md(pd, DNNL_ARG_SRC)
    if is_fwd(pd):
        if not same_layout(src, pd_md(pd, DNNL_ARG_DST)):
            return fail(dnnl_unimplemented, "lrn: src and dst layouts differ")
    elif not (same_layout(src, pd_md(pd, DNNL_ARG_DIFF_DST))
              and same_layout(src, pd_md(pd, DNNL_ARG_DIFF_SRC))):
        return fail(dnnl_unimplemented, "lrn: src, diff_src and diff_dst layouts differ")
    cdef int64_t blk, sn, sc, ss
    if not tiled_layout(src, &blk, &sn, &sc, &ss):
        return fail(dnnl_unimplemented, "lrn: layout is neither plain with dense spatial "
                    "dims nor blocked on channels only")
    cdef lrn_params_t p
    fill_params(pd, &p)
    # a tile's floats are at most 9 C + 15 (or 3 * 16384 + 15): keep that in int64
    if p.C > INT64_MAX // 16:
        return fail(dnnl_unimplemented, "lrn: too many channels for tiles")
    cdef int nthr = omp_get_max_threads()
    p.tile = lrn_pick_tile(&p, nthr)
    cdef dnnl_cpu_isa_t isa = pd_isa(pd)
    if isa == ISA_AVX512_CORE_BF16 and src.data_type != dnnl_bf16:
        return fail(dnnl_unimplemented, "lrn: f32 runs at avx512_core")
    cdef const lrn_kernels_t *uk = lrn_kernels_for(isa)
    if uk == NULL:
        return fail(dnnl_unimplemented, "lrn: this build has no row kernels for this ISA level")
    cdef lrn_blocked_conf_t *conf = <lrn_blocked_conf_t *>pd_conf(pd, sizeof(lrn_blocked_conf_t))
    if conf == NULL:
        return fail(dnnl_out_of_memory, "lrn: out of memory")
    conf.isa = isa
    conf.blk = blk
    conf.sn = sn
    conf.sc = sc
    conf.ss = ss
    conf.tile = p.tile
    conf.nthr = nthr
    p.blk = blk
    p.sc = sc
    conf.direct = lrn_direct_ok(uk, &p, is_fwd(pd))
    if conf.direct:
        return dnnl_success
    if cydnnl_bytes_add_overflow(&pd.scratchpad_size, lrn_tile_floats(&p, not is_fwd(pd)),
                                 nthr * sizeof(float)):
        return fail(dnnl_unimplemented, "lrn: the tiles do not fit in memory")
    return dnnl_success


cdef dnnl_status_t blocked_execute(const dnnl_primitive_desc *pd,
                                   const exec_ctx_t *ctx) noexcept nogil:
    cdef lrn_params_t p
    fill_params(pd, &p)
    cdef const lrn_blocked_conf_t *conf = <const lrn_blocked_conf_t *>pd.conf
    p.blk = conf.blk
    p.sn = conf.sn
    p.sc = conf.sc
    p.ss = conf.ss
    p.tile = conf.tile
    p.nthr = conf.nthr
    cdef int dt = pd_md(pd, DNNL_ARG_SRC).data_type
    cdef const lrn_kernels_t *uk = lrn_kernels_for(conf.isa)
    if conf.direct and is_fwd(pd):
        lrn_across_direct(uk, &p, True, ctx_data(ctx, DNNL_ARG_SRC), ctx_data(ctx, DNNL_ARG_DST),
                          NULL, dt)
    elif is_fwd(pd):
        lrn_across_fwd_tiled(uk, &p, ctx_data(ctx, DNNL_ARG_SRC), ctx_data(ctx, DNNL_ARG_DST),
                             dt, <float *>ctx.scratchpad)
    elif conf.direct:
        lrn_across_direct(uk, &p, False, ctx_data(ctx, DNNL_ARG_SRC),
                          ctx_data(ctx, DNNL_ARG_DIFF_DST), ctx_data(ctx, DNNL_ARG_DIFF_SRC), dt)
    else:
        lrn_across_bwd_tiled(uk, &p, ctx_data(ctx, DNNL_ARG_SRC),
                             ctx_data(ctx, DNNL_ARG_DIFF_DST), ctx_data(ctx, DNNL_ARG_DIFF_SRC),
                             dt, <float *>ctx.scratchpad)
    return dnnl_success


# -- ref:any: any layouts, computed on plain f32 copies

cdef dnnl_status_t ref_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef dnnl_status_t st = resolve(pd)
    if st != dnnl_success:
        return st
    cdef int64_t n = md_nelems(pd_md(pd, DNNL_ARG_SRC), False)
    if cydnnl_bytes_add_overflow(&pd.scratchpad_size, n, sizeof(float) * (2 if is_fwd(pd) else 3)):
        return fail(dnnl_unimplemented, "lrn: the f32 copies do not fit in memory")
    return dnnl_success


cdef dnnl_status_t ref_execute(const dnnl_primitive_desc *pd,
                               const exec_ctx_t *ctx) noexcept nogil:
    cdef md_t plain
    cdef const md_t *src = pd_md(pd, DNNL_ARG_SRC)
    cdef int64_t n = md_nelems(src, False)
    cdef float *x = <float *>ctx.scratchpad
    cdef float *y = x + n
    cdef float *work = y + n
    cdef lrn_params_t p
    cdef dnnl_status_t st
    if n == 0:
        return dnnl_success
    fill_params(pd, &p)
    md_plain(&plain, src, dnnl_f32)
    st = reorder_md(ctx_data(ctx, DNNL_ARG_SRC), src, <char *>x, &plain)
    if st != dnnl_success:
        return st
    if is_fwd(pd):
        lrn_fwd_ref(&p, x, y)
        return reorder_md(<char *>y, &plain, ctx_data(ctx, DNNL_ARG_DST), pd_md(pd, DNNL_ARG_DST))
    st = reorder_md(ctx_data(ctx, DNNL_ARG_DIFF_DST), pd_md(pd, DNNL_ARG_DIFF_DST), <char *>y,
                    &plain)
    if st != dnnl_success:
        return st
    lrn_bwd_ref(&p, x, y, work)
    return reorder_md(<char *>y, &plain, ctx_data(ctx, DNNL_ARG_DIFF_SRC),
                      pd_md(pd, DNNL_ARG_DIFF_SRC))


cdef dnnl_status_t lrn_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                             int index, void *result) noexcept nogil:
    cdef const lrn_desc_t *d = lrn_desc(pd)
    if what == dnnl_query_alg_kind:
        (<dnnl_alg_kind_t *>result)[0] = d.alg_kind
    elif what == dnnl_query_alpha_f32:
        (<float *>result)[0] = d.lrn_alpha
    elif what == dnnl_query_beta_f32:
        (<float *>result)[0] = d.lrn_beta
    elif what == dnnl_query_k_f32:
        (<float *>result)[0] = d.lrn_k
    elif what == dnnl_query_local_size_s64:
        (<dnnl_dim_t *>result)[0] = d.local_size
    else:
        return dnnl_unimplemented
    return dnnl_success


cdef void lrn_verbose(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """oneDNN's init_info_lrn: data and diff; alg; mb..ic..ih..iw..ls..beta.."""
    vs_arg(&v.mds, pd, "data", DNNL_ARG_SRC)
    if not is_fwd(pd):
        vs_arg(&v.mds, pd, "diff", DNNL_ARG_DIFF_SRC)
    cydnnl_vs_printf(&v.aux, "alg:%s", dnnl_alg_kind2str(lrn_desc(pd).alg_kind))
    vs_desc(&v.prb, pd_arg_md(pd, DNNL_ARG_SRC))
    cydnnl_vs_printf(&v.prb, "ls%lldbeta%g", <long long>lrn_desc(pd).local_size,
                     lrn_desc(pd).lrn_beta)


# The family's registration: the lrn kind and its implementation list.
cdef primitive_kind_t lrn_kind
lrn_kind.kind = dnnl_lrn
lrn_kind.query = lrn_query
lrn_kind.verbose = lrn_verbose
# bf16 also at avx512_core_bf16: its stores round with vcvtneps2bf16
for isa in (ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&lrn_kind.impls, "blocked", isa, blocked_init, blocked_execute)
impl_list_add(&lrn_kind.impls, "ref:any", ref_init, ref_execute)
register_kind(&lrn_kind)


cdef void init_desc(lrn_desc_t *desc, dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
                    dnnl_dim_t local_size, float alpha, float beta, float k) noexcept nogil:
    memset(desc, 0, sizeof(lrn_desc_t))
    desc.hdr.primitive_kind = dnnl_lrn
    desc.hdr.prop_kind = prop_kind
    desc.alg_kind = alg_kind
    desc.local_size = local_size
    desc.lrn_alpha = alpha
    desc.lrn_beta = beta
    desc.lrn_k = k


cdef dnnl_status_t dnnl_lrn_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        dnnl_dim_t local_size, float alpha, float beta, float k,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef dnnl_status_t st
    if prop_kind != dnnl_forward_training and prop_kind != dnnl_forward_inference:
        return fail(dnnl_invalid_arguments, "lrn forward: prop_kind must be forward_*")
    st = check_params(alg_kind, local_size)
    if st == dnnl_success:
        st = check_md_arg(src_desc, "src_desc", False)
    if st == dnnl_success:
        st = check_md_arg(dst_desc, "dst_desc", False)
    if st != dnnl_success:
        return st
    if md_is_any(&src_desc.md):
        return fail(dnnl_invalid_arguments, "lrn forward: src_desc needs a concrete layout, "
                    "not format any")
    st = check_src_ndims(&src_desc.md)
    if st == dnnl_success:
        st = same_dims(&src_desc.md, &dst_desc.md, "dst_desc")
    if st != dnnl_success:
        return st
    cdef lrn_desc_t desc
    init_desc(&desc, prop_kind, alg_kind, local_size, alpha, beta, k)
    desc.src_desc = src_desc.md
    desc.dst_desc = dst_desc.md
    cdef arg_spec_t args[2]
    args[0] = arg_spec_t(DNNL_ARG_SRC, ARG_INPUT, &src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DST, ARG_OUTPUT, &dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 2, args, attr, NULL)


cdef dnnl_status_t dnnl_lrn_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t src_desc,
        dnnl_dim_t local_size, float alpha, float beta, float k,
        const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef dnnl_status_t st = check_params(alg_kind, local_size)
    if st == dnnl_success:
        st = check_md_arg(diff_src_desc, "diff_src_desc", False)
    if st == dnnl_success:
        st = check_md_arg(diff_dst_desc, "diff_dst_desc", False)
    if st == dnnl_success:
        st = check_md_arg(src_desc, "src_desc", False)
    if st == dnnl_success:
        st = check_src_ndims(&src_desc.md)
    if st == dnnl_success:
        st = same_dims(&src_desc.md, &diff_dst_desc.md, "diff_dst_desc")
    if st == dnnl_success:
        st = same_dims(&src_desc.md, &diff_src_desc.md, "diff_src_desc")
    if st == dnnl_success:
        st = check_hint(hint_fwd_pd, dnnl_lrn, False)
    if st != dnnl_success:
        return st
    cdef lrn_desc_t desc
    init_desc(&desc, dnnl_backward_data, alg_kind, local_size, alpha, beta, k)
    desc.src_desc = src_desc.md
    desc.diff_src_desc = diff_src_desc.md
    desc.diff_dst_desc = diff_dst_desc.md
    cdef arg_spec_t args[3]
    args[0] = arg_spec_t(DNNL_ARG_DIFF_SRC, ARG_OUTPUT, &diff_src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DIFF_DST, ARG_INPUT, &diff_dst_desc.md)
    args[2] = arg_spec_t(DNNL_ARG_SRC, ARG_INPUT, &src_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 3, args, attr,
                     hint_fwd_pd)
