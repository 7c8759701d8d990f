# The pooling primitive (oneDNN src/common/pooling.cpp, pooling_pd.hpp and the
# cpu pooling list): validation, then implementations on channel-blocked,
# channels-last and plain layouts, one per ISA level each ("blocked:avx2",
# ...), and `ref:any` on any layouts through plain f32 scratch.

from libc.stdio cimport snprintf
from libc.stdint cimport int64_t, int32_t, INT64_MAX
from libc.string cimport memset

from dnnl_c.core cimport *
from dnnl_c.primitives.reorder.reorder cimport reorder_md
from dnnl_c.primitives.pooling.desc cimport pooling_desc_t, pooling_desc, pooling_fast_conf_t
from dnnl_c.kernels.openmp cimport omp_get_max_threads
from dnnl_c.kernels.pooling cimport (pool_geom_t, pool_blocks_t, pool_view_t, pool_lowest,
                                     pool_kernels_t, pool_kernels_for, pool_fwd_blocked,
                                     pool_bwd_blocked, pool_bwd_slab, pool_fwd_ref, pool_bwd_ref)
from dnnl_c.kernels.isa cimport ISA_SSE41, ISA_AVX2, ISA_AVX512_CORE, ISA_AVX512_CORE_BF16

cdef extern from "primitives/pooling/pooling_shape.h" nogil:
    int cydnnl_pool_out_check(int64_t src, int64_t out, int64_t k, int64_t dil, int64_t s,
                              int64_t pl, int64_t pr)

cdef enum:
    KIND_BLOCKED = 1    # one inner block, on channels (nChw8c, nCdhw16c, ...)
    KIND_NHWC = 2       # plain, channels dense innermost (nwc, nhwc, ndhwc)
    KIND_PLAIN = 3      # plain, any strides
    NHWC_LANES = 16     # channels-last runs in blocks of this many channels
    MAX_BLOCK = 64      # the kernels' lane buffers
    SCRATCH_ALIGN = 64
    WS_KVOL_LIMIT = 2147483647


cdef inline bint is_fwd(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd.desc.prop_kind != dnnl_backward_data


cdef inline md_t *data_md(const dnnl_primitive_desc *pd) noexcept nogil:
    """src, or diff_src in backward."""
    return pd_md(pd, DNNL_ARG_SRC if is_fwd(pd) else DNNL_ARG_DIFF_SRC)


cdef inline md_t *out_md(const dnnl_primitive_desc *pd) noexcept nogil:
    """dst, or diff_dst in backward."""
    return pd_md(pd, DNNL_ARG_DST if is_fwd(pd) else DNNL_ARG_DIFF_DST)


cdef double kernel_volume(const pooling_desc_t *desc, int sp) noexcept nogil:
    cdef double v = 1
    cdef int i
    for i in range(sp):
        v *= <double>desc.kernel[i]
    return v


cdef dnnl_data_type_t ws_data_type(const pooling_desc_t *desc, int sp) noexcept nogil:
    # oneDNN's pooling_pd_t::indices_data_type
    return dnnl_u8 if kernel_volume(desc, sp) <= 255 else dnnl_s32


# ------------------------------------------------------------ layouts

cdef bint same_dims(const md_t *a, const md_t *b) noexcept nogil:
    cdef int d
    if a.ndims != b.ndims:
        return False
    for d in range(a.ndims):
        if a.dims[d] != b.dims[d]:
            return False
    return True


cdef dnnl_status_t resolve(dnnl_primitive_desc *pd) noexcept nogil:
    """Resolves `any` as oneDNN's pooling pds do, checks data types and adds
    the workspace. Forward: dst follows src's blocking. Backward: diff_src
    takes the hint's src layout (plain without a hint), diff_dst follows
    diff_src's blocking; max needs the hint's workspace to match."""
    cdef md_t *data = data_md(pd)
    cdef md_t *out = out_md(pd)
    cdef md_t *hint_src
    cdef md_t *hint_ws
    cdef md_t ws
    cdef pd_arg_t *a
    cdef dnnl_status_t st
    cdef int sp = data.ndims - 2
    cdef bint is_max = pooling_desc(pd).alg_kind == dnnl_pooling_max
    if kernel_volume(pooling_desc(pd), sp) > WS_KVOL_LIMIT:
        return fail(dnnl_unimplemented, "pooling: kernel volume beyond 2^31 - 1")
    if not is_fwd(pd) and md_is_any(data):
        if pd.hint != NULL and pd_md(pd.hint, DNNL_ARG_SRC).ndims == data.ndims:
            hint_src = pd_md(pd.hint, DNNL_ARG_SRC)
            st = md_copy_layout(data, hint_src) if same_dims(data, hint_src) else \
                md_init_by_blocking(data, hint_src)
        else:
            st = md_set_tag(data, <dnnl_format_tag_t>(dnnl_a + data.ndims - 1))
        if st != dnnl_success:
            return fail(dnnl_unimplemented, "pooling: cannot resolve diff_src_desc")
    if md_is_any(out) and md_init_by_blocking(out, data) != dnnl_success:
        return dnnl_unimplemented
    if not ((data.data_type == dnnl_f32 or data.data_type == dnnl_bf16)
            and (out.data_type == dnnl_f32 or out.data_type == dnnl_bf16)):
        return fail(dnnl_unimplemented, "pooling: data types other than f32 and bf16")
    if (data.data_type == dnnl_bf16 or out.data_type == dnnl_bf16) and not bf16_allowed():
        return fail(dnnl_unimplemented, "pooling: bf16 is disabled by CYDNNL_BF16_UNIMPLEMENTED")
    if not is_max:
        return dnnl_success
    # dst's blocking, dense: dst itself may be a view into a bigger tensor
    ws = out[0]
    ws.data_type = ws_data_type(pooling_desc(pd), sp)
    if md_init_by_blocking(&ws, out) != dnnl_success:
        return dnnl_unimplemented
    if is_fwd(pd):
        if pd.desc.prop_kind == dnnl_forward_training:
            a = pd_add_arg(pd, DNNL_ARG_WORKSPACE, ARG_OUTPUT)
            if a == NULL:
                return fail(dnnl_out_of_memory, "pooling: out of memory")
            a.md.md = ws
        return dnnl_success
    # backward max reads the indices its forward pass wrote
    if pd.hint == NULL:
        return fail(dnnl_invalid_arguments, "pooling backward max needs hint_fwd_pd")
    if pooling_desc(pd.hint).alg_kind != dnnl_pooling_max or \
            pd.hint.desc.prop_kind != dnnl_forward_training:
        return fail(dnnl_unimplemented, "pooling backward max: hint_fwd_pd is not a max "
                    "pooling forward_training primitive descriptor, so it has no workspace")
    hint_ws = pd_md(pd.hint, DNNL_ARG_WORKSPACE)
    if not md_equal(&ws, hint_ws):
        return fail(dnnl_unimplemented, "pooling backward max: the workspace of "
                    "hint_fwd_pd differs from the one diff_dst_desc implies (layout, dims "
                    "or data type)")
    a = pd_add_arg(pd, DNNL_ARG_WORKSPACE, ARG_INPUT)
    if a == NULL:
        return fail(dnnl_out_of_memory, "pooling: out of memory")
    a.md.md = hint_ws[0]
    return dnnl_success


cdef void fill_geom(const dnnl_primitive_desc *pd, pool_geom_t *g) noexcept nogil:
    """The problem with 1-D and 2-D spatial extended to 3-D by unit dims."""
    cdef const md_t *data = data_md(pd)
    cdef const md_t *out = out_md(pd)
    cdef int sp = data.ndims - 2
    cdef int i, j
    g.alg = pooling_desc(pd).alg_kind
    g.mb = data.dims[0]
    g.c = data.dims[1]
    for j in range(3):
        i = j - (3 - sp)
        if i < 0:
            g.i[j] = 1
            g.o[j] = 1
            g.k[j] = 1
            g.s[j] = 1
            g.step[j] = 1
            g.p[j] = 0
        else:
            g.i[j] = data.dims[2 + i]
            g.o[j] = out.dims[2 + i]
            g.k[j] = pooling_desc(pd).kernel[i]
            g.s[j] = pooling_desc(pd).strides[i]
            g.step[j] = pooling_desc(pd).dilation[i] + 1
            g.p[j] = pooling_desc(pd).padding_l[i]


# ------------------------------------------------------------ blocked, nhwc, plain

cdef void fill_blocks(const md_t *md, int kind, pool_blocks_t *b) noexcept nogil:
    cdef int64_t c = md.dims[1]
    b.cb = 1
    if kind == KIND_BLOCKED:
        b.cb = md.inner_blks[0]
    elif kind == KIND_NHWC:
        b.cb = NHWC_LANES
    b.nblk = (c + b.cb - 1) // b.cb
    b.last = c - (b.nblk - 1) * b.cb if b.nblk > 0 else 0
    b.zero_tail = kind == KIND_BLOCKED and b.last < b.cb


cdef bint same_strides(const md_t *ws, const md_t *out) noexcept nogil:
    """The kernels address the workspace with dst's offsets (no workspace: True)."""
    if ws.ndims == 0:
        return True
    cdef md_t a = ws[0]
    cdef md_t b = out[0]
    a.offset0 = 0
    b.offset0 = 0
    b.data_type = a.data_type
    return md_equal(&a, &b)


cdef bint kind_fits(const md_t *md, int kind) noexcept nogil:
    cdef int d
    if md.format_kind != dnnl_blocked:
        return False
    for d in range(md.ndims):
        if md.padded_offsets[d] != 0 or (d != 1 and md.padded_dims[d] != md.dims[d]):
            return False
    if kind == KIND_BLOCKED:
        # the lanes past the channels in the last block must be layout
        # padding (zeroed in outputs), not a parent tensor's channels
        return (md.inner_nblks == 1 and md.inner_idxs[0] == 1
                and 1 < md.inner_blks[0] <= MAX_BLOCK
                and md.padded_dims[1] == (md.dims[1] + md.inner_blks[0] - 1)
                // md.inner_blks[0] * md.inner_blks[0])
    if md.inner_nblks != 0 or md.padded_dims[1] != md.dims[1]:
        return False
    return kind == KIND_PLAIN or md.strides[1] == 1


cdef dnnl_status_t fast_init(dnnl_primitive_desc *pd, int kind) noexcept nogil:
    cdef dnnl_status_t st = resolve(pd)
    if st != dnnl_success:
        return st
    cdef const md_t *data = data_md(pd)
    cdef const md_t *out = out_md(pd)
    if data.data_type != out.data_type:
        return fail(dnnl_unimplemented, "pooling: data types differ")
    if pd_isa(pd) == ISA_AVX512_CORE_BF16 and data.data_type != dnnl_bf16:
        return fail(dnnl_unimplemented, "pooling: f32 runs at avx512_core")
    if not (kind_fits(data, kind) and kind_fits(out, kind)):
        return fail(dnnl_unimplemented, "pooling: layouts are not of this implementation")
    if kind == KIND_BLOCKED and data.inner_blks[0] != out.inner_blks[0]:
        return fail(dnnl_unimplemented, "pooling: channel blocks differ")
    if not same_strides(pd_md(pd, DNNL_ARG_WORKSPACE), out):
        return fail(dnnl_unimplemented, "pooling: the workspace is laid out unlike dst")
    cdef pool_geom_t g
    cdef pool_blocks_t b
    cdef pooling_fast_conf_t *conf = <pooling_fast_conf_t *>pd_conf(
        pd, sizeof(pooling_fast_conf_t))
    if conf == NULL:
        return fail(dnnl_out_of_memory, "pooling: out of memory")
    conf.layout = kind
    conf.isa = pd_isa(pd)
    if pool_kernels_for(conf.isa) == NULL:
        return fail(dnnl_unimplemented, "pooling: this build has no kernels for this ISA "
                    "level")
    # backward's threads each own a slab of f32 accumulators for bf16
    conf.nthr = max(omp_get_max_threads(), 1)
    if not is_fwd(pd) and data.data_type == dnnl_bf16:
        fill_geom(pd, &g)
        fill_blocks(data, kind, &b)
        # a slab is src's spatial size (no more than its element count) times
        # a channel block, which may be more than its channels
        if g.i[0] * g.i[1] * g.i[2] > INT64_MAX // b.cb or cydnnl_bytes_add_overflow(
                &pd.scratchpad_size, pool_bwd_slab(&g, &b), conf.nthr * sizeof(float)):
            return fail(dnnl_unimplemented, "pooling: the f32 slabs do not fit in memory")
    return dnnl_success


cdef dnnl_status_t blocked_init(dnnl_primitive_desc *pd) noexcept nogil:
    return fast_init(pd, KIND_BLOCKED)


cdef dnnl_status_t nhwc_init(dnnl_primitive_desc *pd) noexcept nogil:
    return fast_init(pd, KIND_NHWC)


cdef dnnl_status_t plain_init(dnnl_primitive_desc *pd) noexcept nogil:
    return fast_init(pd, KIND_PLAIN)


cdef void fill_view(const md_t *md, int kind, pool_view_t *v) noexcept nogil:
    cdef int sp = md.ndims - 2
    v.sn = md.strides[0]
    v.sc = md.strides[1] * (NHWC_LANES if kind == KIND_NHWC else 1)
    v.sd = md.strides[2] if sp == 3 else 0
    v.sh = md.strides[md.ndims - 2] if sp >= 2 else 0
    v.sw = md.strides[md.ndims - 1]


cdef dnnl_status_t fast_execute(const dnnl_primitive_desc *pd,
                                const exec_ctx_t *ctx) noexcept nogil:
    cdef const pooling_fast_conf_t *conf = <const pooling_fast_conf_t *>pd.conf
    cdef int kind = conf.layout
    cdef const md_t *data = data_md(pd)
    cdef const md_t *out = out_md(pd)
    cdef const md_t *ws_md = pd_md(pd, DNNL_ARG_WORKSPACE)
    cdef char *ws = ctx_data(ctx, DNNL_ARG_WORKSPACE) if ws_md.ndims != 0 else NULL
    cdef pool_geom_t g
    cdef pool_blocks_t b
    cdef pool_view_t vs, vd
    cdef const pool_kernels_t *k = pool_kernels_for(conf.isa)
    fill_geom(pd, &g)
    fill_blocks(data, kind, &b)
    fill_view(data, kind, &vs)
    fill_view(out, kind, &vd)
    if is_fwd(pd):
        pool_fwd_blocked(k, &g, &b, ctx_data(ctx, DNNL_ARG_SRC), &vs, ctx_data(ctx, DNNL_ARG_DST),
                         &vd, ws, data.data_type, ws_md.data_type)
    else:
        pool_bwd_blocked(k, &g, &b, ctx_data(ctx, DNNL_ARG_DIFF_DST), &vd, ws,
                         ctx_data(ctx, DNNL_ARG_DIFF_SRC), &vs, <float *>ctx.scratchpad,
                         conf.nthr, data.data_type, ws_md.data_type)
    return dnnl_success


# ------------------------------------------------------------ ref:any

cdef inline size_t aligned(size_t n) noexcept nogil:
    return (n + SCRATCH_ALIGN - 1) // SCRATCH_ALIGN * SCRATCH_ALIGN


cdef dnnl_status_t ref_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef dnnl_status_t st = resolve(pd)
    if st != dnnl_success:
        return st
    cdef size_t n_data = md_nelems(data_md(pd), False)
    cdef size_t n_out = md_nelems(out_md(pd), False)
    cdef bint ws = pd_md(pd, DNNL_ARG_WORKSPACE).ndims != 0
    cdef size_t scratch = 0
    # the sum of the aligned parts is that of each part aligned in turn
    if (cydnnl_bytes_add_overflow(&scratch, n_data, sizeof(float))
            or cydnnl_bytes_add_overflow(&scratch, aligned(scratch) - scratch, 1)
            or cydnnl_bytes_add_overflow(&scratch, n_out, sizeof(float))
            or cydnnl_bytes_add_overflow(&scratch, aligned(scratch) - scratch, 1)
            or cydnnl_bytes_add_overflow(&scratch, n_out if ws else 0, sizeof(int32_t))
            or cydnnl_bytes_add_overflow(&scratch, aligned(scratch) - scratch, 1)):
        return fail(dnnl_unimplemented, "pooling: the f32 copies do not fit in memory")
    pd.scratchpad_size = scratch
    return dnnl_success


cdef dnnl_status_t ref_execute(const dnnl_primitive_desc *pd,
                               const exec_ctx_t *ctx) noexcept nogil:
    cdef const md_t *data = data_md(pd)
    cdef const md_t *out = out_md(pd)
    cdef const md_t *ws_md = pd_md(pd, DNNL_ARG_WORKSPACE)
    cdef int64_t n_data = md_nelems(data, False)
    cdef int64_t n_out = md_nelems(out, False)
    cdef float *x_data = <float *>ctx.scratchpad
    cdef float *x_out = <float *>(ctx.scratchpad + aligned(n_data * sizeof(float)))
    cdef int32_t *x_ws = NULL
    cdef md_t plain_data, plain_out, plain_ws
    cdef pool_geom_t g
    cdef dnnl_status_t st = dnnl_success
    if ws_md.ndims != 0:
        x_ws = <int32_t *>(ctx.scratchpad + aligned(n_data * sizeof(float))
                           + aligned(n_out * sizeof(float)))
    fill_geom(pd, &g)
    md_plain(&plain_data, data, dnnl_f32)
    md_plain(&plain_out, out, dnnl_f32)
    md_plain(&plain_ws, out, dnnl_s32)
    if is_fwd(pd):
        if n_data > 0:
            st = reorder_md(ctx_data(ctx, DNNL_ARG_SRC), data, <char *>x_data, &plain_data)
        if st != dnnl_success or n_out == 0:
            return st
        pool_fwd_ref(&g, x_data, x_out, x_ws, pool_lowest(data.data_type))
        st = reorder_md(<char *>x_out, &plain_out, ctx_data(ctx, DNNL_ARG_DST), out)
        if st == dnnl_success and x_ws != NULL:
            st = reorder_md(<char *>x_ws, &plain_ws, ctx_data(ctx, DNNL_ARG_WORKSPACE), ws_md)
        return st
    if n_out > 0:
        st = reorder_md(ctx_data(ctx, DNNL_ARG_DIFF_DST), out, <char *>x_out, &plain_out)
        if st == dnnl_success and x_ws != NULL:
            st = reorder_md(ctx_data(ctx, DNNL_ARG_WORKSPACE), ws_md, <char *>x_ws, &plain_ws)
    if st != dnnl_success or n_data == 0:
        return st
    pool_bwd_ref(&g, x_out, x_ws, x_data)
    return reorder_md(<char *>x_data, &plain_data, ctx_data(ctx, DNNL_ARG_DIFF_SRC), data)


cdef dnnl_status_t pooling_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                                 int index, void *result) noexcept nogil:
    cdef const pooling_desc_t *d = pooling_desc(pd)
    if what == dnnl_query_alg_kind:
        (<dnnl_alg_kind_t *>result)[0] = d.alg_kind
    elif what == dnnl_query_strides:
        (<const dnnl_dim_t **>result)[0] = &d.strides[0]
    elif what == dnnl_query_kernel:
        (<const dnnl_dim_t **>result)[0] = &d.kernel[0]
    elif what == dnnl_query_dilations:
        (<const dnnl_dim_t **>result)[0] = &d.dilation[0]
    elif what == dnnl_query_padding_l:
        (<const dnnl_dim_t **>result)[0] = &d.padding_l[0]
    elif what == dnnl_query_padding_r:
        (<const dnnl_dim_t **>result)[0] = &d.padding_r[0]
    else:
        return dnnl_unimplemented
    return dnnl_success


cdef void pooling_verbose(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """oneDNN's init_info_pooling: src, dst and the workspace; alg;
    mb..ic.._id..od..kd..sd..dd..pd.._ih.._iw..ow..kw..sw..dw..pw.."""
    cdef const pooling_desc_t *d = pooling_desc(pd)
    cdef const md_t *src = data_md(pd)
    cdef const md_t *dst = out_md(pd)
    cdef const md_t *ws = pd_arg_md(pd, DNNL_ARG_WORKSPACE)
    cdef int sp = src.ndims - 2, i
    cdef char c
    vs_arg(&v.mds, pd, "src", DNNL_ARG_SRC if is_fwd(pd) else DNNL_ARG_DIFF_SRC)
    vs_arg(&v.mds, pd, "dst", DNNL_ARG_DST if is_fwd(pd) else DNNL_ARG_DIFF_DST)
    if ws.ndims != 0:
        vs_md(&v.mds, "ws", ws, False)
    cydnnl_vs_printf(&v.aux, "alg:%s", dnnl_alg_kind2str(d.alg_kind))
    cydnnl_vs_printf(&v.prb, "mb%lldic%lld_", <long long>src.dims[0], <long long>src.dims[1])
    for i in range(sp):
        c = b"dhw"[3 - sp + i]
        cydnnl_vs_printf(&v.prb, "i%c%lldo%c%lldk%c%llds%c%lldd%c%lldp%c%lld%s",
                         c, <long long>src.dims[2 + i], c, <long long>dst.dims[2 + i],
                         c, <long long>d.kernel[i], c, <long long>d.strides[i],
                         c, <long long>d.dilation[i], c, <long long>d.padding_l[i],
                         <const char *>("_" if i < sp - 1 else ""))


# The family's registration: the pooling kind and its implementation list.
cdef primitive_kind_t pooling_kind
pooling_kind.kind = dnnl_pooling
pooling_kind.query = pooling_query
pooling_kind.verbose = pooling_verbose
# each layout kind at every level, highest first, as oneDNN lists its jit kinds
for isa in (ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&pooling_kind.impls, "blocked", isa, blocked_init, fast_execute)
for isa in (ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&pooling_kind.impls, "nhwc", isa, nhwc_init, fast_execute)
for isa in (ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&pooling_kind.impls, "plain", isa, plain_init, fast_execute)
impl_list_add(&pooling_kind.impls, "ref:any", ref_init, ref_execute)
register_kind(&pooling_kind)


# ------------------------------------------------------------ create

cdef dnnl_status_t check_problem(const char *who, dnnl_alg_kind_t alg, bint fwd,
                                 const_dnnl_memory_desc_t src_desc,
                                 const_dnnl_memory_desc_t dst_desc,
                                 const dnnl_dim_t *strides, const dnnl_dim_t *kernel,
                                 const dnnl_dim_t *dilation, const dnnl_dim_t *padding_l,
                                 const dnnl_dim_t *padding_r) noexcept nogil:
    """oneDNN's pooling_desc_init checks, in its order; src/dst are diff_src/
    diff_dst in backward. Everything wrong here is dnnl_invalid_arguments."""
    cdef char msg[256]
    cdef const char *s_name = "src_desc" if fwd else "diff_src_desc"
    cdef const char *d_name = "dst_desc" if fwd else "diff_dst_desc"
    cdef dnnl_status_t st = check_md_arg(src_desc, s_name, False)
    cdef const md_t *src
    cdef const md_t *dst
    cdef int i, r
    cdef dnnl_dim_t k, dil, pl, pr, s
    if st == dnnl_success:
        st = check_md_arg(dst_desc, d_name, False)
    if st != dnnl_success:
        return st
    if strides == NULL or kernel == NULL or padding_l == NULL:
        snprintf(msg, sizeof(msg), "%s: strides, kernel and padding_l must not be NULL", who)
        return fail(dnnl_invalid_arguments, msg)
    if alg != dnnl_pooling_max and alg != dnnl_pooling_avg_include_padding and \
            alg != dnnl_pooling_avg_exclude_padding:
        snprintf(msg, sizeof(msg), "%s: algorithm %d is not a pooling algorithm", who, <int>alg)
        return fail(dnnl_invalid_arguments, msg)
    src = &src_desc.md
    dst = &dst_desc.md
    if fwd and md_is_any(src):
        snprintf(msg, sizeof(msg), "%s: src_desc needs a concrete layout, not any", who)
        return fail(dnnl_invalid_arguments, msg)
    if not (3 <= src.ndims <= 5) or dst.ndims != src.ndims:
        snprintf(msg, sizeof(msg), "%s: %s and %s need the same ndims, 3 to 5 (have %d and %d)",
                 who, s_name, d_name, src.ndims, dst.ndims)
        return fail(dnnl_invalid_arguments, msg)
    for i in range(2):
        if src.dims[i] != dst.dims[i]:
            snprintf(msg, sizeof(msg), "%s: %s and %s differ in dim %d (%lld and %lld)", who,
                     s_name, d_name, i, <long long>src.dims[i], <long long>dst.dims[i])
            return fail(dnnl_invalid_arguments, msg)
    if padding_r == NULL:
        padding_r = padding_l
    for i in range(src.ndims - 2):
        k = kernel[i]
        # oneDNN v3.13 crashes on a NULL dilation; convolution's rule (0 = dense) it is
        dil = dilation[i] if dilation != NULL else 0
        pl = padding_l[i]
        pr = padding_r[i]
        s = strides[i]
        if s <= 0:
            snprintf(msg, sizeof(msg), "%s: strides[%d] = %lld must be positive", who, i,
                     <long long>s)
            return fail(dnnl_invalid_arguments, msg)
        if k <= 0:
            snprintf(msg, sizeof(msg), "%s: kernel[%d] = %lld must be positive", who, i,
                     <long long>k)
            return fail(dnnl_invalid_arguments, msg)
        if dil < 0:
            snprintf(msg, sizeof(msg), "%s: dilation[%d] = %lld must be non-negative", who, i,
                     <long long>dil)
            return fail(dnnl_invalid_arguments, msg)
        if pl < 0:
            snprintf(msg, sizeof(msg), "%s: padding_l[%d] = %lld must be non-negative", who, i,
                     <long long>pl)
            return fail(dnnl_invalid_arguments, msg)
        if pr + s < 0:
            snprintf(msg, sizeof(msg), "%s: padding_r[%d] + strides[%d] = %lld must be "
                     "non-negative", who, i, i, <long long>(pr + s))
            return fail(dnnl_invalid_arguments, msg)
        r = cydnnl_pool_out_check(src.dims[2 + i], dst.dims[2 + i], k, dil, s, pl, pr)
        if r < 0:
            snprintf(msg, sizeof(msg), "%s: spatial dim %d: kernel, dilation, padding or "
                     "strides out of range", who, i)
            return fail(dnnl_invalid_arguments, msg)
        if r == 0:
            snprintf(msg, sizeof(msg), "%s: spatial dim %d: %s has %lld, but (%lld - ((%lld - "
                     "1) * (%lld + 1) + 1) + %lld + %lld) / %lld + 1 = %lld", who, i, d_name,
                     <long long>dst.dims[2 + i], <long long>src.dims[2 + i], <long long>k,
                     <long long>dil, <long long>pl, <long long>pr, <long long>s,
                     <long long>((src.dims[2 + i] - ((k - 1) * (dil + 1) + 1) + pl + pr) // s
                                 + 1))
            return fail(dnnl_invalid_arguments, msg)
        # avg_exclude_padding divides by the elements in the window: never 0
        if alg == dnnl_pooling_avg_exclude_padding and not (
                pl < (k - 1) * (dil + 1) + 1 and pr < (k - 1) * (dil + 1) + 1
                and dil < src.dims[2 + i]):
            snprintf(msg, sizeof(msg), "%s: avg_exclude_padding needs padding (%lld, %lld) "
                     "below the kernel extent %lld and dilation %lld below the src size %lld "
                     "in spatial dim %d", who, <long long>pl, <long long>pr,
                     <long long>((k - 1) * (dil + 1) + 1), <long long>dil,
                     <long long>src.dims[2 + i], i)
            return fail(dnnl_invalid_arguments, msg)
    return dnnl_success


cdef void init_desc(pooling_desc_t *desc, dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
                    const md_t *src, const md_t *dst, const dnnl_dim_t *strides,
                    const dnnl_dim_t *kernel, const dnnl_dim_t *dilation,
                    const dnnl_dim_t *padding_l, const dnnl_dim_t *padding_r) noexcept nogil:
    cdef int i, sp = src.ndims - 2
    memset(desc, 0, sizeof(pooling_desc_t))
    desc.hdr.primitive_kind = dnnl_pooling
    desc.hdr.prop_kind = prop_kind
    desc.alg_kind = alg_kind
    desc.src_desc = src[0]
    desc.dst_desc = dst[0]
    if padding_r == NULL:
        padding_r = padding_l
    for i in range(sp):
        desc.strides[i] = strides[i]
        desc.kernel[i] = kernel[i]
        desc.dilation[i] = dilation[i] if dilation != NULL else 0
        desc.padding_l[i] = padding_l[i]
        desc.padding_r[i] = padding_r[i]


cdef dnnl_status_t dnnl_pooling_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        const dnnl_dim_t *strides, const dnnl_dim_t *kernel, const dnnl_dim_t *dilation,
        const dnnl_dim_t *padding_l, const dnnl_dim_t *padding_r,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    if prop_kind != dnnl_forward_training and prop_kind != dnnl_forward_inference:
        return fail(dnnl_invalid_arguments, "pooling forward: prop_kind must be forward_*")
    cdef dnnl_status_t st = check_problem("pooling forward", alg_kind, True, src_desc,
                                          dst_desc, strides, kernel, dilation, padding_l,
                                          padding_r)
    if st != dnnl_success:
        return st
    cdef pooling_desc_t desc
    init_desc(&desc, prop_kind, alg_kind, &src_desc.md, &dst_desc.md, strides, kernel,
              dilation, padding_l, padding_r)
    cdef arg_spec_t args[2]
    args[0] = arg_spec_t(DNNL_ARG_SRC, ARG_INPUT, &src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DST, ARG_OUTPUT, &dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 2, args, attr, NULL)


cdef dnnl_status_t dnnl_pooling_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dim_t *strides,
        const dnnl_dim_t *kernel, const dnnl_dim_t *dilation, const dnnl_dim_t *padding_l,
        const dnnl_dim_t *padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef dnnl_status_t st = check_problem("pooling backward", alg_kind, False, diff_src_desc,
                                          diff_dst_desc, strides, kernel, dilation, padding_l,
                                          padding_r)
    # max reads the forward pass's workspace: without the hint there is none
    # (oneDNN v3.13 crashes here)
    if st == dnnl_success:
        st = check_hint(hint_fwd_pd, dnnl_pooling, alg_kind == dnnl_pooling_max)
    if st != dnnl_success:
        return st
    cdef pooling_desc_t desc
    init_desc(&desc, dnnl_backward_data, alg_kind, &diff_src_desc.md, &diff_dst_desc.md,
              strides, kernel, dilation, padding_l, padding_r)
    cdef arg_spec_t args[2]
    args[0] = arg_spec_t(DNNL_ARG_DIFF_SRC, ARG_OUTPUT, &diff_src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DIFF_DST, ARG_INPUT, &diff_dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 2, args, attr,
                     hint_fwd_pd)
