# The reorder primitive (oneDNN src/common/reorder.cpp and the cpu reorder
# list): implementations tried in order, the layout-generic one last.

from dnnl_c.kernels.alloc cimport cydnnl_malloc, cydnnl_free
from libc.stdint cimport int64_t
from libc.stdio cimport snprintf
from libc.string cimport memset

from dnnl_c.core cimport *
from dnnl_c.primitives.reorder.desc cimport reorder_desc_t, reorder_desc
from dnnl_c.kernels.isa cimport ISA_SSE41, ISA_AVX2, ISA_AVX512_CORE, ISA_AVX512_CORE_BF16
from dnnl_c.kernels.reorder cimport (reorder_supports, reorder_linear, reorder_tables,
                                     reorder_blocked_c)


cdef bint types_ok(const dnnl_primitive_desc *pd) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_FROM)
    cdef const md_t *dst = pd_md(pd, DNNL_ARG_TO)
    if not reorder_supports(src.data_type) or not reorder_supports(dst.data_type):
        fail(dnnl_unimplemented, "data types other than f32, bf16, s32, s8, u8")
        return False
    return True


# -- simple:copy: both sides the same dense layout without padding

cdef int best_level() noexcept nogil:
    """The highest kernel level the CPU and the ISA limit allow (oneDNN's
    jit:uni reorder also picks its ISA inside)."""
    cdef int levels[4]
    levels[:] = [ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41]
    for i in range(4):
        if cpu_isa_has(<dnnl_cpu_isa_t>levels[i]):
            return levels[i]
    return 0


cdef dnnl_status_t copy_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_FROM)
    cdef const md_t *dst = pd_md(pd, DNNL_ARG_TO)
    if not types_ok(pd):
        return dnnl_unimplemented
    cdef md_t a = src[0]
    cdef md_t b = dst[0]
    a.offset0 = 0
    b.offset0 = 0
    b.data_type = a.data_type
    cdef int64_t n = md_nelems(src, False)
    if not md_equal(&a, &b) or md_nelems(src, True) != n or md_size(src) != n * dt_size(src.data_type):
        return fail(dnnl_unimplemented, "layouts differ or are not dense")
    return dnnl_success


cdef dnnl_status_t copy_execute(const dnnl_primitive_desc *pd,
                                const exec_ctx_t *ctx) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_FROM)
    cdef const md_t *dst = pd_md(pd, DNNL_ARG_TO)
    reorder_linear(ctx_data(ctx, DNNL_ARG_FROM), src.data_type, ctx_data(ctx, DNNL_ARG_TO),
                   dst.data_type, md_nelems(src, False), best_level())
    return dnnl_success


# -- simple:blocked_c: plain <-> blocked on channels only (nChw8c, nCdhw16c, ...)

cdef bint spatial_flat(const md_t *md) noexcept nogil:
    """Spatial dims (2..) nest densely, so they walk as one dim."""
    cdef int d
    for d in range(2, md.ndims - 1):
        if md.strides[d] != md.strides[d + 1] * md.padded_dims[d + 1]:
            return False
    for d in range(md.ndims):
        if d != 1 and md.padded_dims[d] != md.dims[d]:
            return False
    return True


cdef bint channels_last(const md_t *md) noexcept nogil:
    """Plain with the channels innermost (nwc, nhwc, ndhwc): one channel block
    of all channels, for the kernel."""
    return md_is_plain(md) and md.strides[1] == 1 and md.padded_dims[1] == md.dims[1]


cdef bint channel_blocked(const md_t *md) noexcept nogil:
    return (md.inner_nblks == 1 and md.inner_idxs[0] == 1) or channels_last(md)


cdef dnnl_status_t blocked_c_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_FROM)
    cdef const md_t *dst = pd_md(pd, DNNL_ARG_TO)
    if not types_ok(pd):
        return dnnl_unimplemented
    if src.ndims < 3 or not spatial_flat(src) or not spatial_flat(dst):
        return fail(dnnl_unimplemented, "needs spatial dims that nest densely")
    if not ((md_is_plain(src) and channel_blocked(dst))
            or (md_is_plain(dst) and channel_blocked(src))):
        return fail(dnnl_unimplemented, "needs a plain side and a channel-blocked side")
    if channels_last(src) and channels_last(dst):
        return fail(dnnl_unimplemented, "channels innermost on both sides")
    if src.padded_dims[1] != src.dims[1] and md_is_plain(src) or (
            dst.padded_dims[1] != dst.dims[1] and md_is_plain(dst)):
        return fail(dnnl_unimplemented, "padded plain channels")
    return dnnl_success


cdef dnnl_status_t blocked_c_execute(const dnnl_primitive_desc *pd,
                                     const exec_ctx_t *ctx) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_FROM)
    cdef const md_t *dst = pd_md(pd, DNNL_ARG_TO)
    # the blocked side: the one with a channel block, else the channels-last one
    cdef bint to_blocked = dst.inner_nblks == 1 or (src.inner_nblks == 0 and channels_last(dst))
    cdef const md_t *plain = src if to_blocked else dst
    cdef const md_t *blk = dst if to_blocked else src
    cdef bint cl = channels_last(blk)
    cdef int64_t spatial = 1
    cdef int d, last = src.ndims - 1
    for d in range(2, src.ndims):
        spatial *= src.dims[d]
    if md_nelems(src, False) == 0:
        return dnnl_success
    reorder_blocked_c(ctx_data(ctx, DNNL_ARG_FROM), src.data_type, ctx_data(ctx, DNNL_ARG_TO),
                      dst.data_type, to_blocked, src.dims[0], src.dims[1],
                      blk.padded_dims[1], spatial, blk.dims[1] if cl else blk.inner_blks[0],
                      plain.strides[0], plain.strides[1], plain.strides[last], blk.strides[0],
                      0 if cl else blk.strides[1], blk.strides[last], best_level())
    return dnnl_success


# -- ref:any: any two blocked layouts, through per-dim offset tables

cdef dnnl_status_t ref_init(dnnl_primitive_desc *pd) noexcept nogil:
    if not types_ok(pd):
        return dnnl_unimplemented
    return dnnl_success


cdef dnnl_status_t ref_execute(const dnnl_primitive_desc *pd,
                               const exec_ctx_t *ctx) noexcept nogil:
    cdef const md_t *src = pd_md(pd, DNNL_ARG_FROM)
    cdef const md_t *dst = pd_md(pd, DNNL_ARG_TO)
    cdef int ndims = dst.ndims, d, inner = ndims - 1
    cdef int64_t total = 0, best = -1, step
    if md_nelems(dst, True) == 0:
        return dnnl_success
    for d in range(ndims):
        total += dst.padded_dims[d]
    cdef int64_t *buf = <int64_t *>cydnnl_malloc(2 * total * sizeof(int64_t), sizeof(int64_t))
    if buf == NULL:
        return fail(dnnl_out_of_memory, "reorder: cannot allocate offset tables")
    cdef int64_t *src_off[12]
    cdef int64_t *dst_off[12]
    cdef int64_t *p = buf
    for d in range(ndims):
        src_off[d] = p
        p += dst.padded_dims[d]
        dst_off[d] = p
        p += dst.padded_dims[d]
        md_dim_offsets(src, d, src.dims[d], src_off[d])
        md_dim_offsets(dst, d, dst.padded_dims[d], dst_off[d])
        # walk innermost the dim that moves least in dst
        if dst.padded_dims[d] > 1:
            step = dst_off[d][1] - dst_off[d][0]
            if best < 0 or step <= best:
                best = step
                inner = d
    reorder_tables(ctx_data(ctx, DNNL_ARG_FROM), src.data_type, ctx_data(ctx, DNNL_ARG_TO),
                   dst.data_type, ndims, dst.dims, dst.padded_dims,
                   <const int64_t *const *>src_off, <const int64_t *const *>dst_off, inner)
    cydnnl_free(buf)
    return dnnl_success


cdef dnnl_status_t reorder_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                                 int index, void *result) noexcept nogil:
    if what == dnnl_query_reorder_src_engine or what == dnnl_query_reorder_dst_engine:
        (<obj_header **>result)[0] = reorder_desc(pd).hdr.refs[
            0 if what == dnnl_query_reorder_src_engine else 1]
        return dnnl_success
    return dnnl_unimplemented


cdef void reorder_verbose(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """oneDNN's init_info_reorder: src and dst; no auxiliary field; the dims."""
    vs_arg(&v.mds, pd, "src", DNNL_ARG_FROM)
    vs_arg(&v.mds, pd, "dst", DNNL_ARG_TO)
    vs_dims(&v.prb, pd_arg_md(pd, DNNL_ARG_FROM))


# The family's registration: the reorder kind and its implementation list,
# the layout-generic one last.
cdef primitive_kind_t reorder_kind
reorder_kind.kind = dnnl_reorder
reorder_kind.query = reorder_query
reorder_kind.verbose = reorder_verbose
impl_list_add(&reorder_kind.impls, "simple:copy", copy_init, copy_execute)
impl_list_add(&reorder_kind.impls, "simple:blocked_c", blocked_c_init, blocked_c_execute)
impl_list_add(&reorder_kind.impls, "ref:any", ref_init, ref_execute)
register_kind(&reorder_kind)


cdef dnnl_status_t reorder_md(const char *src, const md_t *src_md, char *dst,
                              const md_t *dst_md) noexcept nogil:
    """The reorder primitive's work without a primitive: the first
    implementation that accepts the pair runs."""
    cdef dnnl_primitive_desc pd
    cdef pd_arg_t args[2]
    cdef exec_ctx_t ctx
    cdef exec_arg_t ctx_args[2]
    cdef const impl_list_t *impls = &reorder_kind.impls
    cdef int i
    cdef dnnl_status_t st
    pd.args = args
    pd.args_cap = 2
    pd.nargs = 2
    pd.args[0].arg = DNNL_ARG_FROM
    pd.args[0].md.md = src_md[0]
    pd.args[0].md.md.offset0 = 0
    pd.args[1].arg = DNNL_ARG_TO
    pd.args[1].md.md = dst_md[0]
    pd.args[1].md.md.offset0 = 0
    md_zero(&pd.zero_md.md)
    ctx.nargs = 2
    ctx.args = ctx_args
    ctx.args[0].arg = DNNL_ARG_FROM
    ctx.args[0].data = <char *>src
    ctx.args[0].md = &pd.args[0].md.md
    ctx.args[1].arg = DNNL_ARG_TO
    ctx.args[1].data = dst
    ctx.args[1].md = &pd.args[1].md.md
    for i in range(impls.n):
        quiet(True)
        st = impls.impls[i].init(&pd)
        quiet(False)
        if st == dnnl_success:
            return impls.impls[i].execute(&pd, &ctx)
    return fail(dnnl_unimplemented, "no reorder between these descriptors")


cdef dnnl_status_t dnnl_reorder_primitive_desc_create(
        dnnl_primitive_desc_t *reorder_primitive_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_engine_t src_engine,
        const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef char msg[256]
    cdef int d
    if reorder_primitive_desc == NULL:
        return fail(dnnl_invalid_arguments, "reorder: NULL output pointer")
    if not obj_alive(&src_desc.hdr if src_desc != NULL else NULL, OBJ_MEMORY_DESC):
        return fail(dnnl_invalid_arguments, "reorder: src_desc is not a live memory desc")
    if not obj_alive(&dst_desc.hdr if dst_desc != NULL else NULL, OBJ_MEMORY_DESC):
        return fail(dnnl_invalid_arguments, "reorder: dst_desc is not a live memory desc")
    if not engine_ok(src_engine) or not engine_ok(dst_engine):
        return fail(dnnl_invalid_arguments, "reorder: engines must be live engines")
    cdef const md_t *src = &src_desc.md
    cdef const md_t *dst = &dst_desc.md
    if src.ndims == 0 or dst.ndims == 0:
        return fail(dnnl_invalid_arguments, "reorder: zero memory descriptor")
    if src.format_kind != dnnl_blocked or dst.format_kind != dnnl_blocked:
        return fail(dnnl_invalid_arguments,
                    "reorder: both descriptors need a concrete layout, not format any")
    if src.ndims != dst.ndims:
        snprintf(msg, sizeof(msg), "reorder: src has %d dims, dst %d", src.ndims, dst.ndims)
        return fail(dnnl_invalid_arguments, msg)
    for d in range(src.ndims):
        if src.dims[d] != dst.dims[d]:
            snprintf(msg, sizeof(msg), "reorder: dim %d differs: src %lld, dst %lld", d,
                     <long long>src.dims[d], <long long>dst.dims[d])
            return fail(dnnl_invalid_arguments, msg)
    cdef reorder_desc_t desc
    memset(&desc, 0, sizeof(desc))
    desc.hdr.primitive_kind = dnnl_reorder
    desc.hdr.refs[0] = &src_engine.hdr
    desc.hdr.refs[1] = &dst_engine.hdr
    desc.src_desc = src[0]
    desc.dst_desc = dst[0]
    cdef arg_spec_t args[2]
    args[0] = arg_spec_t(DNNL_ARG_FROM, ARG_INPUT, src)
    args[1] = arg_spec_t(DNNL_ARG_TO, ARG_OUTPUT, dst)
    return pd_create(reorder_primitive_desc, src_engine, &desc.hdr, sizeof(desc), 2, args,
                     attr, NULL)


cdef float *stage_f32(const char *data, const md_t *md, dnnl_format_tag_t tag, char **scratch,
                      bint load, dnnl_status_t *st) noexcept nogil:
    cdef md_t layout
    md_init_by_tag(&layout, md.ndims, md.dims, dnnl_f32, tag)
    return stage_f32_as(data, md, &layout, scratch, load, st)


cdef float *stage_f32_as(const char *data, const md_t *md, const md_t *layout, char **scratch,
                         bint load, dnnl_status_t *st) noexcept nogil:
    cdef float *out = <float *>scratch[0]
    scratch[0] += md_nelems(md, False) * sizeof(float) + 64
    if load and st[0] == dnnl_success:
        st[0] = reorder_md(data, md, <char *>out, layout)
    return out


cdef dnnl_status_t unstage_f32(const float *data, dnnl_format_tag_t tag, char *dst,
                               const md_t *md) noexcept nogil:
    cdef md_t layout
    md_init_by_tag(&layout, md.ndims, md.dims, dnnl_f32, tag)
    return reorder_md(<const char *>data, &layout, dst, md)
