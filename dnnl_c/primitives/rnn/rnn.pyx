# The RNN family (oneDNN src/common/rnn.cpp rnn_common_*_desc_init and the
# cpu rnn list): validation, `any` resolution, the workspace, and the
# implementations on the family's driver (kernels/rnn.pyx). The LSTM cell is
# the one implemented; other cell kinds answer dnnl_unimplemented.

from libc.stdio cimport snprintf
from libc.stdint cimport int64_t
from libc.string cimport memset

from dnnl_c.core cimport *
from dnnl_c.primitives.reorder.reorder cimport stage_f32_as, unstage_f32
from dnnl_c.primitives.rnn.desc cimport rnn_desc_t, rnn_desc, rnn_conf_t
from dnnl_c.kernels.rnn cimport (rnn_shape_t, rnn_cell_t, rnn_fwd_args_t, rnn_bwd_args_t,
                                 lstm_cell_for, rnn_ws_floats, rnn_fwd_work_floats,
                                 rnn_bwd_work_floats, rnn_fwd,
                                 rnn_bwd)
from dnnl_c.kernels.gemm cimport gemm_kernel_for, gemm_kernel_t
from dnnl_c.kernels.isa cimport ISA_SSE41, ISA_AVX2, ISA_AVX512_CORE
from dnnl_c.kernels.openmp cimport omp_get_max_threads

# The arguments the driver reads or writes, in the order of the create
# functions (forward: the first 11).
cdef int ARGS[22]
ARGS[:] = [DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C, DNNL_ARG_WEIGHTS_LAYER,
           DNNL_ARG_WEIGHTS_ITER, DNNL_ARG_WEIGHTS_PEEPHOLE, DNNL_ARG_WEIGHTS_PROJECTION,
           DNNL_ARG_BIAS, DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C,
           DNNL_ARG_DIFF_SRC_LAYER, DNNL_ARG_DIFF_SRC_ITER, DNNL_ARG_DIFF_SRC_ITER_C,
           DNNL_ARG_DIFF_WEIGHTS_LAYER, DNNL_ARG_DIFF_WEIGHTS_ITER,
           DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE, DNNL_ARG_DIFF_WEIGHTS_PROJECTION,
           DNNL_ARG_DIFF_BIAS, DNNL_ARG_DIFF_DST_LAYER, DNNL_ARG_DIFF_DST_ITER,
           DNNL_ARG_DIFF_DST_ITER_C]
cdef const char *NAMES[22]
NAMES[:] = [b"src_layer_desc", b"src_iter_desc", b"src_iter_c_desc", b"weights_layer_desc",
            b"weights_iter_desc", b"weights_peephole_desc", b"weights_projection_desc",
            b"bias_desc", b"dst_layer_desc", b"dst_iter_desc", b"dst_iter_c_desc",
            b"diff_src_layer_desc", b"diff_src_iter_desc", b"diff_src_iter_c_desc",
            b"diff_weights_layer_desc", b"diff_weights_iter_desc",
            b"diff_weights_peephole_desc", b"diff_weights_projection_desc",
            b"diff_bias_desc", b"diff_dst_layer_desc", b"diff_dst_iter_desc",
            b"diff_dst_iter_c_desc"]


cdef inline bint is_fwd(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd.desc.prop_kind != dnnl_backward


cdef inline bint is_output(int i, bint fwd) noexcept nogil:
    """Whether ARGS[i] is written: dst_* forward, diff_src_* and diff weights backward."""
    return (8 <= i <= 10) if fwd else (11 <= i <= 18)


cdef md_t *desc_md(rnn_desc_t *d, int i) noexcept nogil:
    cdef md_t *mds[22]
    mds[:] = [&d.src_layer_desc, &d.src_iter_desc, &d.src_iter_c_desc, &d.weights_layer_desc,
              &d.weights_iter_desc, &d.weights_peephole_desc, &d.weights_projection_desc,
              &d.bias_desc, &d.dst_layer_desc, &d.dst_iter_desc, &d.dst_iter_c_desc,
              &d.diff_src_layer_desc, &d.diff_src_iter_desc, &d.diff_src_iter_c_desc,
              &d.diff_weights_layer_desc, &d.diff_weights_iter_desc,
              &d.diff_weights_peephole_desc, &d.diff_weights_projection_desc,
              &d.diff_bias_desc, &d.diff_dst_layer_desc, &d.diff_dst_iter_desc,
              &d.diff_dst_iter_c_desc]
    return mds[i]


cdef void shape_of(const rnn_desc_t *d, rnn_shape_t *s) noexcept nogil:
    s.L = d.weights_layer_desc.dims[0]
    s.D = d.weights_layer_desc.dims[1]
    s.T = d.src_layer_desc.dims[0]
    s.N = d.src_layer_desc.dims[1]
    s.SLC = d.src_layer_desc.dims[2]
    s.SIC = d.weights_iter_desc.dims[2]
    s.G = d.weights_layer_desc.dims[3]
    s.DHC = d.weights_layer_desc.dims[4]
    s.peephole = d.weights_peephole_desc.ndims != 0
    s.projection = d.weights_projection_desc.ndims != 0
    s.DIC = d.weights_projection_desc.dims[3] if s.projection else s.DHC
    s.DLC = d.dst_layer_desc.dims[2]
    s.direction = d.direction
    s.wnr = 0

# ------------------------------------------------------------ layouts
# The driver works on dense f32 in the plain layouts (tnc, ldnc, ldigo,
# ldgo, ldio), except weights_layer and weights_iter: backward's in ldgoi
# (oneDNN's backward asks for ldgoi too: its products use the transposed
# weights), and with the GEMM kernel, when the sizes are whole panels, in
# the kernel's packed panels (rnn.pxd): forward ldgOi32o (at AVX-512),
# backward the same over i. The products then read the weights as they are,
# with no packing per call, as oneDNN's packed and blocked RNN weights do.
# `any` resolves to these; other layouts, sub-memories and bf16 are staged
# through f32 copies in the scratchpad.

cdef int64_t weights_panels(const rnn_shape_t *s, const gemm_kernel_t *uk,
                            bint fwd) noexcept nogil:
    """The panel width of the packed weights layouts, 0 for the plain ones."""
    if uk == NULL:
        return 0
    if fwd:
        return uk.nr if s.DHC % uk.nr == 0 else 0
    return uk.nr if s.SLC % uk.nr == 0 and s.SIC % uk.nr == 0 else 0


cdef dnnl_status_t driver_md(const dnnl_primitive_desc *pd, int64_t wnr, int i,
                             md_t *out) noexcept nogil:
    """The f32 layout the driver reads argument ARGS[i] in (wnr: the panel
    width of the weights, rnn_shape_t.wnr)."""
    cdef const md_t *md = pd_md(pd, ARGS[i])
    cdef bint fwd = is_fwd(pd)
    cdef int order[5]
    cdef dnnl_dim_t blk[1]
    cdef dnnl_dim_t idx[1]
    cdef dnnl_status_t st = md_init_by_tag(out, md.ndims, md.dims, dnnl_f32,
                                           <dnnl_format_tag_t>(dnnl_a + md.ndims - 1))
    if st != dnnl_success or not (i == 3 or i == 4):
        return st
    if wnr == 0:
        return dnnl_success if fwd else md_set_tag(out, dnnl_ldgoi)
    # (l, d, g, o / wnr, i, wnr o) forward; (l, d, i / wnr, g, o, wnr i) backward
    blk[0] = wnr
    if fwd:
        order[:] = [0, 1, 3, 4, 2]
        idx[0] = 4
    else:
        order[:] = [0, 1, 2, 3, 4]
        idx[0] = 2
    return md_set_blocked(out, order, 1, blk, idx)


cdef inline bint staged(const md_t *md, const md_t *layout) noexcept nogil:
    """Whether md needs an f32 copy in `layout` (an offset0 alone does not:
    the driver gets the first element)."""
    cdef md_t x
    if md.ndims == 0:
        return False
    x = md[0]
    x.offset0 = 0
    return not (md.data_type == dnnl_f32 and md_equal(&x, layout))


cdef dnnl_status_t check_types(const rnn_desc_t *d) noexcept nogil:
    """The 'Data Types' table of oneDNN's rnn.md for f32 and bf16."""
    cdef int i
    cdef bint f32 = True, bf16 = True
    cdef dnnl_data_type_t dt
    for i in range(11):
        dt = desc_md(<rnn_desc_t *>d, i).data_type
        if desc_md(<rnn_desc_t *>d, i).ndims == 0:
            continue
        if i == 2 or i == 10:       # c states: f32 (bf16 allowed with bf16)
            f32 = f32 and dt == dnnl_f32
            bf16 = bf16 and (dt == dnnl_f32 or dt == dnnl_bf16)
        elif i == 5 and d.cell_kind == dnnl_vanilla_lstm:   # peephole weights stay f32
            f32 = f32 and dt == dnnl_f32
            bf16 = bf16 and dt == dnnl_f32
        elif i == 7:                # bias f32 or bf16 with bf16
            f32 = f32 and dt == dnnl_f32
            bf16 = bf16 and (dt == dnnl_f32 or dt == dnnl_bf16)
        else:
            f32 = f32 and dt == dnnl_f32
            bf16 = bf16 and dt == dnnl_bf16
    if d.hdr.prop_kind == dnnl_backward:
        for i in range(11, 22):     # every diff is f32, bf16 problems too
            if desc_md(<rnn_desc_t *>d, i).ndims != 0 and \
                    desc_md(<rnn_desc_t *>d, i).data_type != dnnl_f32:
                return fail(dnnl_unimplemented, "rnn: diff tensors must be f32")
    if not (f32 or bf16):
        return fail(dnnl_unimplemented, "rnn: unsupported data type combination")
    if bf16 and not f32 and not bf16_allowed():
        return fail(dnnl_unimplemented, "rnn: bf16 is disabled by CYDNNL_BF16_UNIMPLEMENTED")
    return dnnl_success


cdef bint same_problem(const rnn_desc_t *a, const rnn_desc_t *b) noexcept nogil:
    """Whether a forward hint describes the backward problem's forward."""
    cdef int i, k
    cdef const md_t *x
    cdef const md_t *y
    if a.cell_kind != b.cell_kind or a.direction != b.direction:
        return False
    for i in range(11):
        x = desc_md(<rnn_desc_t *>a, i)
        y = desc_md(<rnn_desc_t *>b, i)
        if x.ndims != y.ndims:
            return False
        for k in range(x.ndims):
            if x.dims[k] != y.dims[k]:
                return False
    return True


cdef dnnl_status_t plain_init(dnnl_primitive_desc *pd, bint gemm) noexcept nogil:
    cdef const rnn_desc_t *d = rnn_desc(pd)
    cdef bint fwd = is_fwd(pd)
    cdef int i, n = 11 if fwd else 22
    cdef md_t *md
    cdef rnn_shape_t s
    cdef size_t scratch = 0
    cdef int64_t ws, work = 0
    cdef dnnl_dim_t ws_dims[1]
    cdef rnn_conf_t *conf
    cdef pd_arg_t *a
    cdef const gemm_kernel_t *uk = NULL
    cdef md_t layout
    cdef dnnl_status_t st
    if d.cell_kind != dnnl_vanilla_lstm:
        return fail(dnnl_unimplemented, "rnn: only the LSTM cell is implemented")
    if gemm:
        uk = gemm_kernel_for(pd_isa(pd))
        if uk == NULL:
            return fail(dnnl_unimplemented, "rnn: this build has no GEMM kernel for this "
                        "ISA level")
    shape_of(d, &s)
    s.wnr = weights_panels(&s, uk, fwd)
    for i in range(n):
        md = pd_md(pd, ARGS[i])
        if md_is_any(md):
            st = driver_md(pd, s.wnr, i, &layout)
            if st == dnnl_success:
                st = md_copy_layout(md, &layout)
            if st != dnnl_success:
                return st
    if not fwd:
        if pd.hint == NULL or not same_problem(rnn_desc(pd.hint), d) or \
                pd.hint.desc.prop_kind != dnnl_forward_training:
            return fail(dnnl_unimplemented, "rnn backward: the forward hint is not a "
                        "forward_training pd of the same problem")
    ws = rnn_ws_floats(&s)
    if ws < 0 or cydnnl_bytes_add_overflow(&scratch, 64, 1):
        return fail(dnnl_unimplemented, "rnn: the state area does not fit in memory")
    # stage copies first, then the state area (inference), then backward's work
    for i in range(n):
        md = pd_md(pd, ARGS[i])
        if (not fwd and 8 <= i <= 10) or md.ndims == 0:
            continue                # backward does not read dst_*
        st = driver_md(pd, s.wnr, i, &layout)
        if st != dnnl_success:
            return st
        if staged(md, &layout) and (cydnnl_bytes_add_overflow(&scratch, md_nelems(md, False),
                                                              sizeof(float))
                                    or cydnnl_bytes_add_overflow(&scratch, 64, 1)):
            return fail(dnnl_unimplemented, "rnn: the f32 copies do not fit in memory")
    conf = <rnn_conf_t *>pd_conf(pd, sizeof(rnn_conf_t))
    if conf == NULL:
        return fail(dnnl_out_of_memory, "rnn: out of memory")
    conf.shape = s
    conf.ws_floats = ws
    conf.state_offset = -1
    conf.stage_offset = 0
    conf.isa = pd_isa(pd) if gemm else 0
    if fwd and pd.desc.prop_kind == dnnl_forward_inference:
        conf.state_offset = <int64_t>scratch
        if cydnnl_bytes_add_overflow(&scratch, ws, sizeof(float)) or \
                cydnnl_bytes_add_overflow(&scratch, 64, 1):
            return fail(dnnl_unimplemented, "rnn: the state area does not fit in memory")
    conf.nthr = omp_get_max_threads()
    work = rnn_fwd_work_floats(&s, uk, conf.nthr) if fwd else \
        rnn_bwd_work_floats(&s, uk, conf.nthr)
    if cydnnl_bytes_add_overflow(&scratch, 64 - scratch % 64, 1):
        return fail(dnnl_unimplemented, "rnn: the work area does not fit in memory")
    conf.work_offset = <int64_t>scratch
    if work < 0 or cydnnl_bytes_add_overflow(&scratch, work, sizeof(float)):
        return fail(dnnl_unimplemented, "rnn: the work area does not fit in memory")
    pd.scratchpad_size = scratch
    if pd.desc.prop_kind != dnnl_forward_inference:
        # forward_training writes what backward reads: gates and states of
        # every layer, direction and step
        ws_dims[0] = ws * <int64_t>sizeof(float)
        a = pd_add_arg(pd, DNNL_ARG_WORKSPACE, ARG_OUTPUT if fwd else ARG_INPUT)
        if a == NULL:
            return fail(dnnl_out_of_memory, "rnn: out of memory")
        if md_init_by_tag(&a.md.md, 1, ws_dims, dnnl_u8, dnnl_a) != dnnl_success:
            return fail(dnnl_unimplemented, "rnn: the workspace does not fit in memory")
    return check_types(d)


cdef dnnl_status_t ref_init(dnnl_primitive_desc *pd) noexcept nogil:
    return plain_init(pd, False)


cdef dnnl_status_t gemm_init(dnnl_primitive_desc *pd) noexcept nogil:
    return plain_init(pd, True)

# ------------------------------------------------------------ execution

cdef float *stage_in(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int i,
                     char **scratch, bint load, dnnl_status_t *st) noexcept nogil:
    """Argument ARGS[i] as dense f32 in the driver's layout: its own
    buffer, or a copy in the scratchpad (loaded from the argument when
    `load`, else left for the kernels to write)."""
    cdef const rnn_conf_t *conf = <const rnn_conf_t *>pd.conf
    cdef const md_t *md = pd_md(pd, ARGS[i])
    cdef md_t layout
    if md.ndims == 0 or driver_md(pd, conf.shape.wnr, i, &layout) != dnnl_success:
        return NULL
    if not staged(md, &layout):
        return <float *>ctx_data(ctx, ARGS[i])
    return stage_f32_as(ctx_data(ctx, ARGS[i]), md, &layout, scratch, load, st)


cdef dnnl_status_t stage_out(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int i,
                             const float *data) noexcept nogil:
    cdef const md_t *md = pd_md(pd, ARGS[i])
    cdef md_t layout
    if md.ndims == 0 or driver_md(pd, 0, i, &layout) != dnnl_success:
        return dnnl_success
    if not staged(md, &layout):     # outputs are never packed weights
        return dnnl_success
    return unstage_f32(data, <dnnl_format_tag_t>(dnnl_a + md.ndims - 1), ctx_data(ctx, ARGS[i]),
                       md)


cdef dnnl_status_t plain_execute(const dnnl_primitive_desc *pd,
                                 const exec_ctx_t *ctx) noexcept nogil:
    cdef const rnn_conf_t *conf = <const rnn_conf_t *>pd.conf
    cdef const rnn_desc_t *d = rnn_desc(pd)
    cdef bint fwd = is_fwd(pd)
    cdef char *scratch = ctx.scratchpad
    cdef dnnl_status_t st = dnnl_success
    cdef float *p[22]
    cdef int i, n = 11 if fwd else 22
    cdef bint overwrite = (d.flags & dnnl_rnn_flags_diff_weights_overwrite) != 0
    cdef rnn_fwd_args_t fa
    cdef rnn_bwd_args_t ba
    cdef float *ws
    cdef const gemm_kernel_t *uk = gemm_kernel_for(conf.isa) if conf.isa != 0 else NULL
    cdef int nthr = conf.nthr if conf.nthr < omp_get_max_threads() else omp_get_max_threads()
    cdef rnn_cell_t cell
    lstm_cell_for(conf.isa, &cell)
    for i in range(n):
        p[i] = NULL
        if not fwd and 8 <= i <= 10:
            continue
        # inputs are loaded; diff weights too unless overwritten
        p[i] = stage_in(pd, ctx, i, &scratch,
                        not is_output(i, fwd) or (14 <= i <= 18 and not overwrite), &st)
        if p[i] != NULL and 14 <= i <= 18 and overwrite:
            memset(p[i], 0, md_nelems(pd_md(pd, ARGS[i]), False) * sizeof(float))
    if st != dnnl_success:
        return st
    if conf.state_offset >= 0:
        ws = <float *>(ctx.scratchpad + conf.state_offset)
    else:
        ws = <float *>ctx_data(ctx, DNNL_ARG_WORKSPACE)
    if fwd:
        fa.src_layer, fa.src_iter, fa.src_iter_c = p[0], p[1], p[2]
        fa.weights_layer, fa.weights_iter, fa.weights_peephole = p[3], p[4], p[5]
        fa.weights_projection, fa.bias = p[6], p[7]
        fa.dst_layer, fa.dst_iter, fa.dst_iter_c = p[8], p[9], p[10]
        fa.ws = ws
        fa.work = <float *>(ctx.scratchpad + conf.work_offset)
        fa.nthr = nthr
        rnn_fwd(&cell, uk, &conf.shape, &fa)
    else:
        ba.src_layer, ba.src_iter, ba.src_iter_c = p[0], p[1], p[2]
        ba.weights_layer, ba.weights_iter, ba.weights_peephole = p[3], p[4], p[5]
        ba.weights_projection, ba.bias = p[6], p[7]
        ba.ws = ws
        ba.diff_src_layer, ba.diff_src_iter, ba.diff_src_iter_c = p[11], p[12], p[13]
        ba.diff_weights_layer, ba.diff_weights_iter = p[14], p[15]
        ba.diff_weights_peephole, ba.diff_weights_projection = p[16], p[17]
        ba.diff_bias = p[18]
        ba.diff_dst_layer, ba.diff_dst_iter, ba.diff_dst_iter_c = p[19], p[20], p[21]
        ba.work = <float *>(ctx.scratchpad + conf.work_offset)
        ba.nthr = nthr
        rnn_bwd(&cell, uk, &conf.shape, &ba)
    for i in range(n):
        if p[i] != NULL and is_output(i, fwd) and st == dnnl_success:
            st = stage_out(pd, ctx, i, p[i])
    return st


cdef dnnl_status_t rnn_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                             int index, void *result) noexcept nogil:
    cdef const rnn_desc_t *d = rnn_desc(pd)
    if what == dnnl_query_cell_kind:
        (<dnnl_alg_kind_t *>result)[0] = d.cell_kind
    elif what == dnnl_query_direction:
        (<dnnl_rnn_direction_t *>result)[0] = d.direction
    elif what == dnnl_query_activation_kind:
        (<dnnl_alg_kind_t *>result)[0] = d.activation_kind
    elif what == dnnl_query_flags:
        (<unsigned *>result)[0] = d.flags
    else:
        return dnnl_unimplemented
    return dnnl_success


cdef int weights_arg(const rnn_desc_t *d, int index, bint diff) noexcept nogil:
    """oneDNN's rnn_pd_t::weights_md: layer, iter, [peephole], [projection], bias."""
    cdef int k = 2
    if index == 0:
        return DNNL_ARG_DIFF_WEIGHTS_LAYER if diff else DNNL_ARG_WEIGHTS_LAYER
    if index == 1:
        return DNNL_ARG_DIFF_WEIGHTS_ITER if diff else DNNL_ARG_WEIGHTS_ITER
    if d.weights_peephole_desc.ndims != 0:
        if index == k:
            return DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE if diff else DNNL_ARG_WEIGHTS_PEEPHOLE
        k += 1
    if d.weights_projection_desc.ndims != 0:
        if index == k:
            return DNNL_ARG_DIFF_WEIGHTS_PROJECTION if diff else DNNL_ARG_WEIGHTS_PROJECTION
        k += 1
    if index == k:
        return DNNL_ARG_DIFF_BIAS if diff else DNNL_ARG_BIAS
    return -1


cdef int rnn_md_arg(const dnnl_primitive_desc *pd, dnnl_query_t what, int index) noexcept nogil:
    """oneDNN's rnn_pd_t md indexing: layer, iter, iter_c; weights as above."""
    if what == dnnl_query_exec_arg_md:
        return index
    if index < 0:
        return -1
    if what == dnnl_query_src_md:
        return DNNL_ARG_SRC_LAYER + index if index < 3 else -1
    if what == dnnl_query_dst_md:
        return DNNL_ARG_DST_LAYER + index if index < 3 else -1
    if what == dnnl_query_diff_src_md:
        return DNNL_ARG_DIFF_SRC_LAYER + index if index < 3 else -1
    if what == dnnl_query_diff_dst_md:
        return DNNL_ARG_DIFF_DST_LAYER + index if index < 3 else -1
    if what == dnnl_query_weights_md:
        return weights_arg(rnn_desc(pd), index, False)
    if what == dnnl_query_diff_weights_md:
        return weights_arg(rnn_desc(pd), index, True)
    if what == dnnl_query_workspace_md:
        return DNNL_ARG_WORKSPACE if index == 0 else -1
    if what == dnnl_query_scratchpad_md:
        return DNNL_ARG_SCRATCHPAD if index == 0 else -1
    return -1


cdef const char *rnn_arg_name(int arg) noexcept nogil:
    cdef int i
    cdef const char *names[22]
    names[:] = [b"SRC_LAYER", b"SRC_ITER", b"SRC_ITER_C", b"WEIGHTS_LAYER", b"WEIGHTS_ITER",
                b"WEIGHTS_PEEPHOLE", b"WEIGHTS_PROJECTION", b"BIAS", b"DST_LAYER",
                b"DST_ITER", b"DST_ITER_C", b"DIFF_SRC_LAYER", b"DIFF_SRC_ITER",
                b"DIFF_SRC_ITER_C", b"DIFF_WEIGHTS_LAYER", b"DIFF_WEIGHTS_ITER",
                b"DIFF_WEIGHTS_PEEPHOLE", b"DIFF_WEIGHTS_PROJECTION", b"DIFF_BIAS",
                b"DIFF_DST_LAYER", b"DIFF_DST_ITER", b"DIFF_DST_ITER_C"]
    for i in range(22):
        if ARGS[i] == arg:
            return names[i]
    return NULL


cdef void rnn_verbose(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """oneDNN's init_info_rnn: the layer, iter, weights and bias mds (never
    the *_iter_c ones), their diffs backward; alg, direction, activation,
    flags; l..t..mb..sic..slc..dhc..dic.."""
    cdef rnn_desc_t *d = <rnn_desc_t *>rnn_desc(pd)
    cdef const char *names[18]
    cdef int idx[18]
    cdef int i, n = 18 if not is_fwd(pd) else 9
    cdef int64_t dhc = d.weights_layer_desc.dims[4]
    names[:] = [b"src_layer", b"src_iter", b"wei_layer", b"wei_iter", b"wei_peephole",
                b"wei_proj", b"bias", b"dst_layer", b"dst_iter", b"diff_src_layer",
                b"diff_src_iter", b"diff_wei_layer", b"diff_wei_iter", b"diff_wei_peephole",
                b"diff_wei_proj", b"diff_bias", b"diff_dst_layer", b"diff_dst_iter"]
    idx[:] = [0, 1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 18, 19, 20]
    for i in range(n):
        # the optional ones print where given; a diff where its forward one is
        if desc_md(d, idx[i] - 11 if idx[i] >= 11 else idx[i]).ndims != 0:
            vs_arg(&v.mds, pd, names[i], ARGS[idx[i]])
    cydnnl_vs_printf(&v.aux, "alg:%s direction:%s activation:%s flags:%s",
                     dnnl_alg_kind2str(d.cell_kind), dnnl_rnn_direction2str(d.direction),
                     dnnl_alg_kind2str(d.activation_kind),
                     <const char *>("O" if d.flags & dnnl_rnn_flags_diff_weights_overwrite
                                    else ""))
    cydnnl_vs_printf(&v.prb, "l%lldt%lldmb%lldsic%lldslc%llddhc%llddic%lld",
                     <long long>d.weights_layer_desc.dims[0], <long long>d.src_layer_desc.dims[0],
                     <long long>d.src_layer_desc.dims[1], <long long>d.weights_iter_desc.dims[2],
                     <long long>d.weights_layer_desc.dims[2], <long long>dhc,
                     <long long>(d.weights_projection_desc.dims[3]
                                 if d.weights_projection_desc.ndims != 0 else dhc))


# The family's registration: the GEMM driver per ISA level, then the
# reference (the same driver with plain-loop products) last.
cdef primitive_kind_t rnn_kind
rnn_kind.kind = dnnl_rnn
rnn_kind.query = rnn_query
rnn_kind.verbose = rnn_verbose
rnn_kind.md_arg = rnn_md_arg
rnn_kind.arg_name = rnn_arg_name
for isa in (ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&rnn_kind.impls, "gemm", isa, gemm_init, plain_execute)
impl_list_add(&rnn_kind.impls, "ref:any", ref_init, plain_execute)
register_kind(&rnn_kind)


# ------------------------------------------------------------ validation

cdef inline const md_t *opt(const dnnl_memory_desc *md) noexcept nogil:
    return &md.md if md != NULL and md.md.ndims != 0 else NULL


cdef dnnl_status_t expect_dims(const md_t *md, const char *name, int nd, int64_t a, int64_t b,
                               int64_t c, int64_t d, int64_t e) noexcept nogil:
    cdef char msg[200]
    cdef int64_t want[5]
    cdef int k
    want[:] = [a, b, c, d, e]
    if md.ndims == 0:
        return dnnl_success
    if md.ndims != nd:
        snprintf(msg, sizeof(msg), "rnn: %s has %d dims, expected %d", name, md.ndims, nd)
        return fail(dnnl_invalid_arguments, msg)
    for k in range(nd):
        if md.dims[k] != want[k]:
            snprintf(msg, sizeof(msg), "rnn: %s dim %d is %lld, expected %lld", name, k,
                     <long long>md.dims[k], <long long>want[k])
            return fail(dnnl_invalid_arguments, msg)
    return dnnl_success


cdef int64_t cell_gates(dnnl_alg_kind_t cell_kind) noexcept nogil:
    """oneDNN's rnn::get_gates_count."""
    if cell_kind == dnnl_vanilla_rnn:
        return 1
    return 4 if cell_kind == dnnl_vanilla_lstm else 3


cdef inline bint is_augru(dnnl_alg_kind_t cell_kind) noexcept nogil:
    return cell_kind == dnnl_vanilla_augru or cell_kind == dnnl_lbr_augru


cdef dnnl_status_t check_dims(const rnn_desc_t *r) noexcept nogil:
    """oneDNN's check_dim_consistency (the AUGRU cells keep their attention
    where LSTM keeps the peephole weights, as oneDNN's rnn_desc_t does)."""
    cdef rnn_shape_t s
    cdef int64_t D, G = cell_gates(r.cell_kind)
    cdef int64_t GB = G + (1 if r.cell_kind == dnnl_lbr_gru or r.cell_kind == dnnl_lbr_augru
                           else 0)
    cdef int m = 1 if r.direction == dnnl_bidirectional_concat else 2
    cdef dnnl_status_t st = dnnl_success
    cdef int i
    if (r.src_layer_desc.ndims != 3 or r.weights_layer_desc.ndims != 5
            or r.weights_iter_desc.ndims != 5 or r.dst_layer_desc.ndims != 3
            or (r.weights_projection_desc.ndims != 0 and r.weights_projection_desc.ndims != 4)):
        return fail(dnnl_invalid_arguments, "rnn: src_layer and dst_layer must be 3-D "
                    "(t, n, c), weights_layer and weights_iter 5-D (l, d, i, g, o), "
                    "weights_projection 4-D")
    shape_of(r, &s)
    D = 1 if (r.direction == dnnl_unidirectional_left2right
              or r.direction == dnnl_unidirectional_right2left) else 2
    m = 2 if r.direction == dnnl_bidirectional_concat else 1
    if m * s.DIC != s.DLC or (s.L > 1 and m * s.SLC != s.DLC) or (s.T > 1 and s.SIC != s.DIC) \
            or (r.cell_kind != dnnl_vanilla_lstm and r.cell_kind != dnnl_vanilla_rnn
                and s.SIC != s.DHC):
        return fail(dnnl_invalid_arguments, "rnn: inconsistent channels between src_layer, "
                    "weights_iter, weights_layer (or weights_projection) and dst_layer")
    cdef int64_t dims[22][5]
    cdef int nds[22]
    # expected dims of each argument, in ARGS order
    nds[:] = [3, 4, 4, 5, 5, 4, 4, 4, 3, 4, 4, 3, 4, 4, 5, 5, 4, 4, 4, 3, 4, 4]
    dims[0][:] = [s.T, s.N, s.SLC, 0, 0]
    dims[1][:] = [s.L, D, s.N, s.SIC, 0]
    dims[2][:] = [s.L, D, s.N, s.DHC, 0]
    dims[3][:] = [s.L, D, s.SLC, G, s.DHC]
    dims[4][:] = [s.L, D, s.SIC, G, s.DHC]
    dims[5][:] = [s.L, D, 3, s.DHC, 0]
    if is_augru(r.cell_kind):       # the attention
        nds[5] = 3
        dims[5][:] = [s.T, s.N, 1, 0, 0]
    dims[6][:] = [s.L, D, s.DHC, s.DIC, 0]
    dims[7][:] = [s.L, D, GB, s.DHC, 0]
    dims[8][:] = [s.T, s.N, s.DLC, 0, 0]
    dims[9][:] = [s.L, D, s.N, s.DIC, 0]
    dims[10][:] = [s.L, D, s.N, s.DHC, 0]
    for i in range(11):
        dims[11 + i][:] = dims[i]
    nds[16] = nds[5]
    nds[19], nds[20], nds[21] = 3, 4, 4
    for i in range(22 if r.hdr.prop_kind == dnnl_backward else 11):
        if st == dnnl_success:
            st = expect_dims(desc_md(<rnn_desc_t *>r, i), NAMES[i], nds[i], dims[i][0],
                             dims[i][1], dims[i][2], dims[i][3], dims[i][4])
    return st


cdef dnnl_status_t init_desc(rnn_desc_t *r, dnnl_alg_kind_t cell_kind,
                             dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
                             int nmds, const dnnl_memory_desc **mds, unsigned flags,
                             dnnl_alg_kind_t activation, float alpha, float beta) noexcept nogil:
    """oneDNN's rnn_common_fwd_desc_init / rnn_common_bwd_desc_init; mds in
    ARGS order (11 forward, 22 backward; an AUGRU's attention where LSTM has
    its peephole weights)."""
    cdef int i
    cdef dnnl_status_t st
    cdef bint mandatory
    for i in range(nmds):
        mandatory = i == 0 or i == 3 or i == 4 or i == 8 or i == 11 or i == 14 or i == 15 \
            or i == 19
        st = check_md_arg(mds[i], NAMES[i], not mandatory)
        if st != dnnl_success:
            return st
    if direction < dnnl_unidirectional_left2right or direction > dnnl_bidirectional_sum:
        return fail(dnnl_invalid_arguments, "rnn: unknown direction")
    if cell_kind == dnnl_vanilla_rnn and not (activation == dnnl_eltwise_relu or activation ==
                                              dnnl_eltwise_tanh or
                                              activation == dnnl_eltwise_logistic):
        return fail(dnnl_invalid_arguments, "rnn: the activation of a vanilla RNN must be "
                    "eltwise_relu, eltwise_tanh or eltwise_logistic")
    if is_augru(cell_kind):
        if direction != dnnl_unidirectional_left2right or mds[3].md.dims[0] != 1:
            return fail(dnnl_invalid_arguments, "rnn: AUGRU runs one layer, left to right")
        if opt(mds[5]) == NULL or (nmds == 22 and opt(mds[16]) == NULL):
            return fail(dnnl_invalid_arguments, "rnn: AUGRU needs attention_desc (and "
                        "diff_attention_desc)")
    # *_iter and *_iter_c come together; forward's optional ones with their diffs
    if cell_kind == dnnl_vanilla_lstm and (
            (opt(mds[1]) == NULL) != (opt(mds[2]) == NULL) or
            (opt(mds[9]) == NULL) != (opt(mds[10]) == NULL)):
        return fail(dnnl_invalid_arguments, "rnn: lstm needs *_iter and *_iter_c together")
    if nmds == 22:
        for i in range(11):
            if i in (0, 3, 4, 8):
                continue
            if (opt(mds[i]) == NULL) != (opt(mds[i + 11]) == NULL):
                snprintf(err_buf(), ERR_LEN, "rnn: %s and %s must be both given or both "
                         "absent", NAMES[i], NAMES[i + 11])
                return fail(dnnl_invalid_arguments, err_buf())
    memset(r, 0, sizeof(rnn_desc_t))
    r.hdr.primitive_kind = dnnl_rnn
    r.hdr.prop_kind = prop_kind
    r.cell_kind = cell_kind
    r.direction = direction
    r.flags = flags
    r.activation_kind = activation
    r.alpha = alpha
    r.beta = beta
    for i in range(nmds):
        if opt(mds[i]) != NULL:
            desc_md(r, i)[0] = mds[i].md
    st = check_dims(r)
    if st == dnnl_success:
        st = check_types(r)
    return st


cdef dnnl_status_t create(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
                          rnn_desc_t *desc, int nmds, const dnnl_memory_desc **mds,
                          const_dnnl_primitive_desc_t hint,
                          const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef arg_spec_t args[22]
    cdef int i, n = 0
    cdef bint fwd = nmds == 11
    cdef int arg
    for i in range(nmds):
        if opt(mds[i]) != NULL:
            arg = ARGS[i]
            if is_augru(desc.cell_kind) and (i == 5 or i == 16):
                arg = DNNL_ARG_AUGRU_ATTENTION if i == 5 else DNNL_ARG_DIFF_AUGRU_ATTENTION
            args[n] = arg_spec_t(arg, ARG_OUTPUT if is_output(i, fwd) else ARG_INPUT,
                                 &mds[i].md)
            n += 1
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(rnn_desc_t), n, args, attr,
                     hint)


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
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef rnn_desc_t desc
    cdef const dnnl_memory_desc *mds[11]
    if prop_kind != dnnl_forward_training and prop_kind != dnnl_forward_inference:
        return fail(dnnl_invalid_arguments, "lstm forward: prop_kind must be forward_*")
    mds[:] = [src_layer_desc, src_iter_desc, src_iter_c_desc, weights_layer_desc,
              weights_iter_desc, weights_peephole_desc, weights_projection_desc, bias_desc,
              dst_layer_desc, dst_iter_desc, dst_iter_c_desc]
    cdef dnnl_status_t st = init_desc(&desc, dnnl_vanilla_lstm, prop_kind, direction, 11, mds,
                                      flags, dnnl_alg_kind_undef, 0, 0)
    if st != dnnl_success:
        return st
    return create(primitive_desc, engine, &desc, 11, mds, NULL, attr)


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
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef rnn_desc_t desc
    cdef const dnnl_memory_desc *mds[22]
    if prop_kind != dnnl_backward:
        return fail(dnnl_invalid_arguments, "lstm backward: prop_kind must be backward")
    mds[:] = [src_layer_desc, src_iter_desc, src_iter_c_desc, weights_layer_desc,
              weights_iter_desc, weights_peephole_desc, weights_projection_desc, bias_desc,
              dst_layer_desc, dst_iter_desc, dst_iter_c_desc, diff_src_layer_desc,
              diff_src_iter_desc, diff_src_iter_c_desc, diff_weights_layer_desc,
              diff_weights_iter_desc, diff_weights_peephole_desc, diff_weights_projection_desc,
              diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc, diff_dst_iter_c_desc]
    cdef dnnl_status_t st = init_desc(&desc, dnnl_vanilla_lstm, prop_kind, direction, 22, mds,
                                      flags, dnnl_alg_kind_undef, 0, 0)
    if st == dnnl_success:
        st = check_hint(hint_fwd_pd, dnnl_rnn, False)
    if st != dnnl_success:
        return st
    return create(primitive_desc, engine, &desc, 22, mds, hint_fwd_pd, attr)
