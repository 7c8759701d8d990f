# The convolution primitive (oneDNN src/common/convolution.cpp conv_desc_init
# and the cpu convolution list): validation, then implementations tried in
# order, the layout-generic reference last.

from libc.stdio cimport snprintf
from libc.stdint cimport int64_t
from libc.string cimport memset

from dnnl_c.core cimport *
from dnnl_c.primitives.reorder.reorder cimport stage_f32, unstage_f32
from dnnl_c.primitives.convolution.desc cimport (convolution_desc_t, conv_desc,
                                                conv_plain_conf_t)
from dnnl_c.kernels.conv_ref cimport conv_fwd_ref, conv_bwd_data_ref, conv_bwd_weights_ref
from dnnl_c.kernels.convolution cimport (conv_shape_t, conv_layout_t, conv_gemm_work,
                                         conv_fwd_gemm, conv_bwd_data_gemm,
                                         conv_bwd_weights_gemm, conv_bwd_data_writes_bf16,
                                         conv_gemm_widen, conv_fwd_widens, CONV_FWD,
                                         CONV_BWD_DATA,
                                         CONV_BWD_WEIGHTS)
from dnnl_c.kernels.gemm cimport gemm_kernel_for, gemm_kernel_t
from dnnl_c.kernels.isa cimport ISA_SSE41, ISA_AVX2, ISA_AVX512_CORE, ISA_AVX512_CORE_BF16
from dnnl_c.kernels.openmp cimport omp_get_max_threads

# The arguments in the roles every direction shares: the data tensor on the
# input side, weights, bias, the data tensor on the output side.
cdef struct conv_args_t:
    int src
    int wei
    int bias
    int dst


cdef inline bint is_fwd(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd.desc.prop_kind == dnnl_forward_training or pd.desc.prop_kind == dnnl_forward_inference


cdef conv_args_t roles(const dnnl_primitive_desc *pd) noexcept nogil:
    cdef conv_args_t a
    if is_fwd(pd):
        a.src, a.wei, a.bias, a.dst = DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST
    elif pd.desc.prop_kind == dnnl_backward_data:
        a.src, a.wei, a.bias, a.dst = (DNNL_ARG_DIFF_SRC, DNNL_ARG_WEIGHTS, -1,
                                       DNNL_ARG_DIFF_DST)
    else:
        a.src, a.wei, a.bias, a.dst = (DNNL_ARG_SRC, DNNL_ARG_DIFF_WEIGHTS, DNNL_ARG_DIFF_BIAS,
                                       DNNL_ARG_DIFF_DST)
    return a


cdef void shape_of(const dnnl_primitive_desc *pd, conv_shape_t *s) noexcept nogil:
    cdef conv_args_t a = roles(pd)
    cdef const md_t *src = pd_md(pd, a.src)
    cdef const md_t *wei = pd_md(pd, a.wei)
    cdef const md_t *dst = pd_md(pd, a.dst)
    cdef int sp = src.ndims - 2, i
    cdef bint groups = wei.ndims == src.ndims + 1
    cdef int64_t idims[3]
    cdef int64_t odims[3]
    cdef int64_t kdims[3]
    cdef int64_t st[3]
    cdef int64_t dl[3]
    cdef int64_t pl[3]
    for i in range(3):
        idims[i] = odims[i] = kdims[i] = st[i] = 1
        dl[i] = pl[i] = 0
    for i in range(sp):
        idims[3 - sp + i] = src.dims[2 + i]
        odims[3 - sp + i] = dst.dims[2 + i]
        kdims[3 - sp + i] = wei.dims[wei.ndims - sp + i]
        st[3 - sp + i] = conv_desc(pd).strides[i]
        dl[3 - sp + i] = conv_desc(pd).dilates[i]
        pl[3 - sp + i] = conv_desc(pd).padding_l[i]
    s.mb = src.dims[0]
    s.g = wei.dims[0] if groups else 1
    s.ocg = wei.dims[1] if groups else wei.dims[0]
    s.icg = wei.dims[2] if groups else wei.dims[1]
    s.id, s.ih, s.iw = idims[0], idims[1], idims[2]
    s.od, s.oh, s.ow = odims[0], odims[1], odims[2]
    s.kd, s.kh, s.kw = kdims[0], kdims[1], kdims[2]
    s.sd, s.sh, s.sw = st[0], st[1], st[2]
    s.dd, s.dh, s.dw = dl[0], dl[1], dl[2]
    s.pd, s.ph, s.pw = pl[0], pl[1], pl[2]


cdef dnnl_status_t check_types(const dnnl_primitive_desc *pd) noexcept nogil:
    """oneDNN's data-type table for convolution (doc/primitives/convolution.md)."""
    cdef conv_args_t a = roles(pd)
    cdef dnnl_data_type_t src = pd_md(pd, a.src).data_type
    cdef dnnl_data_type_t wei = pd_md(pd, a.wei).data_type
    cdef dnnl_data_type_t dst = pd_md(pd, a.dst).data_type
    cdef const md_t *bias_md = pd_md(pd, a.bias) if a.bias >= 0 else NULL
    cdef dnnl_data_type_t bias = bias_md.data_type if bias_md != NULL and bias_md.ndims else \
        dnnl_data_type_undef
    cdef bint ok
    cdef bint bias_ok = bias == dnnl_data_type_undef or bias == dnnl_f32 or bias == dnnl_bf16
    if is_fwd(pd):
        ok = (src == wei == dst == dnnl_f32 and (bias == dnnl_data_type_undef or bias == dnnl_f32)) \
            or (src == wei == dnnl_bf16 and (dst == dnnl_f32 or dst == dnnl_bf16) and bias_ok)
    elif pd.desc.prop_kind == dnnl_backward_data:
        # src is diff_src, dst is diff_dst here
        ok = (src == wei == dst == dnnl_f32) or (
            wei == dst == dnnl_bf16 and (src == dnnl_f32 or src == dnnl_bf16))
    else:
        # wei is diff_weights, bias diff_bias, dst diff_dst
        ok = (src == wei == dst == dnnl_f32 and (bias == dnnl_data_type_undef or bias == dnnl_f32)) \
            or (src == dst == dnnl_bf16 and (wei == dnnl_f32 or wei == dnnl_bf16) and bias_ok)
    if not ok:
        return fail(dnnl_unimplemented, "convolution: unsupported data type combination")
    if (src == dnnl_bf16 or wei == dnnl_bf16 or dst == dnnl_bf16) and not bf16_allowed():
        return fail(dnnl_unimplemented, "convolution: bf16 is disabled by CYDNNL_BF16_UNIMPLEMENTED")
    return dnnl_success


# ------------------------------------------------------------ layouts
# The reference works on plain f32, channels-first (ncdhw, goidhw). The GEMM
# one works channels-first or channels-last (ndhwc) on each side, with
# weights to match the source (oidhw or odhwi), and reads its inputs in f32
# or bf16; `any` picks channels-last except for sources of few channels.
# Arguments in other layouts, bf16 outputs and (for the reference) bf16
# inputs are staged through f32 scratch.

cdef inline dnnl_format_tag_t plain_tag(int ndims) noexcept nogil:
    return <dnnl_format_tag_t>(dnnl_a + ndims - 1)


cdef dnnl_format_tag_t data_tag(int ndims, bint cl) noexcept nogil:
    if not cl:
        return plain_tag(ndims)
    return dnnl_acb if ndims == 3 else (dnnl_acdb if ndims == 4 else dnnl_acdeb)


cdef dnnl_format_tag_t weights_tag(int ndims, bint grouped, bint cl) noexcept nogil:
    """(g,) o, spatial, i when cl; the plain order otherwise."""
    if not cl:
        return plain_tag(ndims)
    if not grouped:
        return data_tag(ndims, True)
    return dnnl_abdc if ndims == 4 else (dnnl_abdec if ndims == 5 else dnnl_abdefc)


cdef int orientation(const md_t *md, dnnl_format_tag_t cf, dnnl_format_tag_t cl) noexcept nogil:
    """1 channels-last, 0 channels-first, -1 another layout."""
    cdef md_t x = md[0]
    x.offset0 = 0
    if md_matches_tag(&x, cl):
        return 1
    if md_matches_tag(&x, cf):
        return 0
    return -1


cdef inline bint staged(const md_t *md, dnnl_format_tag_t tag, bint bf16_ok) noexcept nogil:
    """Whether md needs an f32 copy in `tag` (not for the zero md)."""
    return md.ndims != 0 and not ((md.data_type == dnnl_f32 or
                                   (bf16_ok and md.data_type == dnnl_bf16))
                                  and md.offset0 == 0 and md_matches_tag(md, tag))


cdef inline bint gemm_reads(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    """Whether the GEMM kernels read arg (src, weights or diff_dst) as is."""
    if is_fwd(pd):
        return arg == DNNL_ARG_SRC or arg == DNNL_ARG_WEIGHTS
    if pd.desc.prop_kind == dnnl_backward_data:
        return arg == DNNL_ARG_WEIGHTS or arg == DNNL_ARG_DIFF_DST
    return arg == DNNL_ARG_SRC or arg == DNNL_ARG_DIFF_DST


cdef inline bint takes_bf16(const dnnl_primitive_desc *pd, int arg, bint bf16_in) noexcept nogil:
    """Whether the GEMM convolution takes arg in bf16 as it is: what its
    kernels read with bf16 dot products (bf16_in), and at every level
    forward's src, backward weights' src and diff_dst and backward data's
    diff_dst (the kernels widen them an image at a time where they cannot
    read them, or at sse41 the forward's bands as they copy src)."""
    return gemm_reads(pd, arg) and (bf16_in or direction(pd) == CONV_BWD_WEIGHTS
                                    or (direction(pd) == CONV_BWD_DATA
                                        and arg == DNNL_ARG_DIFF_DST)
                                    or (direction(pd) == CONV_FWD and arg == DNNL_ARG_SRC))


cdef inline bint reads_bf16(const gemm_kernel_t *uk) noexcept nogil:
    """Whether the GEMM kernels take bf16 inputs as they are: with bf16 dot
    products. Without them a bf16 input is converted to f32 once (up front,
    or an image at a time: forward's src, backward weights' inputs, backward
    data's diff_dst): converting in the packing converted each source element once
    per tap that reads it (AlexNet conv1, avx2: bf16 forward at 65% of the
    peak where f32 ran at 85%)."""
    return uk != NULL and uk.ukernel_bf16 != NULL


cdef inline bint written_as_is(const dnnl_primitive_desc *pd, int arg,
                               const conv_shape_t *s, bint src_cl) noexcept nogil:
    """Whether the GEMM kernels write arg in bf16 themselves (forward's dst,
    one group; backward data's channels-first diff_src)."""
    if pd.desc.prop_kind == dnnl_backward_data:
        return arg == DNNL_ARG_DIFF_SRC and conv_bwd_data_writes_bf16(s, src_cl)
    return is_fwd(pd) and arg == DNNL_ARG_DST and s.g == 1


cdef void resolve_from(md_t *md, const dnnl_primitive_desc *hint, int hint_arg,
                       dnnl_format_tag_t tag) noexcept nogil:
    """An `any` md takes the forward hint's layout for the same tensor when
    there is one, else `tag`."""
    cdef const md_t *h
    if not md_is_any(md):
        return
    if hint != NULL:
        h = pd_md(hint, hint_arg)
        if h.ndims == md.ndims and h.format_kind == dnnl_blocked \
                and md_copy_layout(md, h) == dnnl_success:
            return
    md_set_tag(md, tag)


cdef inline int hint_arg(int arg) noexcept nogil:
    """The forward argument a backward one mirrors."""
    if arg == DNNL_ARG_DIFF_SRC:
        return DNNL_ARG_SRC
    if arg == DNNL_ARG_DIFF_DST:
        return DNNL_ARG_DST
    if arg == DNNL_ARG_DIFF_WEIGHTS:
        return DNNL_ARG_WEIGHTS
    if arg == DNNL_ARG_DIFF_BIAS:
        return DNNL_ARG_BIAS
    return arg


cdef dnnl_status_t plain_init(dnnl_primitive_desc *pd, bint gemm) noexcept nogil:
    cdef conv_args_t a = roles(pd)
    cdef md_t *src = pd_md(pd, a.src)
    cdef md_t *wei = pd_md(pd, a.wei)
    cdef md_t *dst = pd_md(pd, a.dst)
    cdef md_t *bias = pd_md(pd, a.bias) if a.bias >= 0 else NULL
    cdef int nd = src.ndims, o
    cdef bint grouped = wei.ndims == nd + 1, src_cl = False, dst_cl = False, widen
    cdef conv_shape_t s
    if conv_desc(pd).alg_kind != dnnl_convolution_direct:
        return fail(dnnl_unimplemented, "convolution: only the direct algorithm")
    shape_of(pd, &s)
    if gemm:
        src_cl = s.g * s.icg >= 8
        resolve_from(src, pd.hint, hint_arg(a.src), data_tag(nd, src_cl))
        o = orientation(src, data_tag(nd, False), data_tag(nd, True))
        src_cl = o == 1 or (o < 0 and s.g * s.icg >= 8)
        resolve_from(dst, pd.hint, hint_arg(a.dst), data_tag(nd, True))
        dst_cl = orientation(dst, data_tag(nd, False), data_tag(nd, True)) != 0
        resolve_from(wei, pd.hint, hint_arg(a.wei), weights_tag(wei.ndims, grouped, src_cl))
    else:
        resolve_from(src, NULL, 0, plain_tag(nd))
        resolve_from(dst, NULL, 0, plain_tag(nd))
        resolve_from(wei, NULL, 0, plain_tag(wei.ndims))
    if bias != NULL:
        resolve_from(bias, NULL, 0, dnnl_a)
    cdef dnnl_status_t st = check_types(pd)
    if st != dnnl_success:
        return st
    cdef bint bf16_in = gemm and reads_bf16(gemm_kernel_for(pd_isa(pd)))
    cdef size_t scratch = 0
    cdef md_t *mds[4]
    cdef dnnl_format_tag_t tags[4]
    cdef int args[4]
    mds[0], tags[0], args[0] = src, data_tag(nd, src_cl), a.src
    mds[1], tags[1], args[1] = dst, data_tag(nd, dst_cl), a.dst
    mds[2], tags[2], args[2] = wei, weights_tag(wei.ndims, grouped, src_cl), a.wei
    mds[3], tags[3], args[3] = (bias if bias != NULL else &pd.zero_md.md), dnnl_a, a.bias
    for o in range(4):
        if staged(mds[o], tags[o], (gemm and takes_bf16(pd, args[o], bf16_in))
                  or (gemm and written_as_is(pd, args[o], &s, src_cl))) and (
                cydnnl_bytes_add_overflow(&scratch, md_nelems(mds[o], False), sizeof(float))
                or cydnnl_bytes_add_overflow(&scratch, 64, 1)):
            return fail(dnnl_unimplemented, "convolution: the f32 copies do not fit in memory")
    cdef conv_plain_conf_t *conf = <conv_plain_conf_t *>pd_conf(pd, sizeof(conv_plain_conf_t))
    if conf == NULL:
        return fail(dnnl_out_of_memory, "convolution: out of memory")
    conf.src_cl = src_cl
    conf.dst_cl = dst_cl
    if gemm:
        conf.isa = pd_isa(pd)
        if conf.isa == ISA_AVX512_CORE_BF16 and not (
                src.data_type == dnnl_bf16 or wei.data_type == dnnl_bf16
                or dst.data_type == dnnl_bf16):
            return fail(dnnl_unimplemented, "convolution: f32 runs at avx512_core")
        if gemm_kernel_for(conf.isa) == NULL:
            return fail(dnnl_unimplemented, "convolution: this build has no GEMM kernel "
                        "for this ISA level")
        conf.nthr = omp_get_max_threads()
        conf.work_offset = <int64_t>scratch
        # room for forward (src), backward weights (src, diff_dst) and
        # backward data (diff_dst) to widen an image of bf16 per thread
        widen = not bf16_in and (
            (direction(pd) == CONV_FWD and src.data_type == dnnl_bf16
             and not staged(src, tags[0], True)
             and conv_fwd_widens(gemm_kernel_for(conf.isa), dst_cl))
            or (direction(pd) == CONV_BWD_WEIGHTS and src.data_type == dnnl_bf16
                and not staged(src, tags[0], True))
            or (direction(pd) != CONV_FWD and dst.data_type == dnnl_bf16
                and not staged(dst, tags[1], True)))
        if (cydnnl_bytes_add_overflow(&scratch, conv_gemm_work(&s, direction(pd), conf.nthr),
                                      sizeof(float))
                or (widen and cydnnl_bytes_add_overflow(
                    &scratch, conv_gemm_widen(&s, direction(pd)), sizeof(float) * conf.nthr))
                or cydnnl_bytes_add_overflow(&scratch, 64, 1)):
            return fail(dnnl_unimplemented, "convolution: the GEMM buffers do not fit in memory")
    pd.scratchpad_size = scratch
    return dnnl_success


cdef inline int direction(const dnnl_primitive_desc *pd) noexcept nogil:
    if is_fwd(pd):
        return CONV_FWD
    return CONV_BWD_DATA if pd.desc.prop_kind == dnnl_backward_data else CONV_BWD_WEIGHTS


cdef dnnl_status_t ref_init(dnnl_primitive_desc *pd) noexcept nogil:
    return plain_init(pd, False)


cdef dnnl_status_t gemm_init(dnnl_primitive_desc *pd) noexcept nogil:
    return plain_init(pd, True)


cdef float *input_as(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int arg,
                     dnnl_format_tag_t tag, char **scratch, dnnl_status_t *st) noexcept nogil:
    """The argument as f32 in `tag`: its own buffer, or a converted copy."""
    cdef int dt
    return <float *>gemm_input(pd, ctx, arg, tag, False, &dt, scratch, st)


cdef void *gemm_input(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int arg,
                      dnnl_format_tag_t tag, bint bf16_ok, int *dt, char **scratch,
                      dnnl_status_t *st) noexcept nogil:
    """The argument in `tag`, f32 (or bf16 when bf16_ok; dt says which): its
    own buffer, or an f32 copy."""
    cdef const md_t *md = pd_md(pd, arg)
    dt[0] = dnnl_f32
    if md.ndims == 0:
        return NULL
    if not staged(md, tag, bf16_ok):
        dt[0] = md.data_type
        return ctx_data(ctx, arg)
    return stage_f32(ctx_data(ctx, arg), md, tag, scratch, True, st)


cdef float *output_as(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int arg,
                      dnnl_format_tag_t tag, char **scratch) noexcept nogil:
    cdef const md_t *md = pd_md(pd, arg)
    if md.ndims == 0:
        return NULL
    if not staged(md, tag, False):
        return <float *>ctx_data(ctx, arg)
    return stage_f32(NULL, md, tag, scratch, False, NULL)


cdef void *gemm_output(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int arg,
                       dnnl_format_tag_t tag, bint gemm, const conv_shape_t *s, bint src_cl,
                       int *dt, char **scratch) noexcept nogil:
    """The output in `tag`: bf16 itself where the GEMM kernels round into it
    (written_as_is; dt says bf16), else f32 (dt f32: its own buffer, or a
    copy store_output writes back)."""
    cdef const md_t *md = pd_md(pd, arg)
    dt[0] = dnnl_f32
    if (gemm and written_as_is(pd, arg, s, src_cl) and md.data_type == dnnl_bf16
            and not staged(md, tag, True)):
        dt[0] = dnnl_bf16
        return ctx_data(ctx, arg)
    return output_as(pd, ctx, arg, tag, scratch)


cdef dnnl_status_t store_output(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx, int arg,
                                dnnl_format_tag_t tag, const float *data) noexcept nogil:
    cdef const md_t *md = pd_md(pd, arg)
    if not staged(md, tag, False):
        return dnnl_success
    return unstage_f32(data, tag, ctx_data(ctx, arg), md)


cdef dnnl_status_t plain_execute(const dnnl_primitive_desc *pd, const exec_ctx_t *ctx,
                                 bint gemm) noexcept nogil:
    cdef conv_shape_t s
    cdef conv_args_t a = roles(pd)
    cdef char *scratch = ctx.scratchpad
    cdef dnnl_status_t st = dnnl_success
    cdef conv_layout_t lay
    cdef void *src         # f32, or bf16 where lay says so
    cdef void *wei
    cdef float *bias
    cdef void *dst
    cdef float *work = NULL
    cdef const conv_plain_conf_t *conf = <const conv_plain_conf_t *>pd.conf
    cdef int nthr = conf.nthr
    cdef int nd = pd_md(pd, a.src).ndims
    cdef int wnd = pd_md(pd, a.wei).ndims
    lay.src_cl = conf.src_cl != 0
    lay.dst_cl = conf.dst_cl != 0
    lay.src_dt = lay.wei_dt = lay.dst_dt = dnnl_f32
    lay.uk = gemm_kernel_for(conf.isa) if gemm else NULL
    lay.isa = conf.isa
    cdef dnnl_format_tag_t stag = data_tag(nd, lay.src_cl)
    cdef dnnl_format_tag_t dtag = data_tag(nd, lay.dst_cl)
    cdef dnnl_format_tag_t wtag = weights_tag(wnd, wnd == nd + 1, lay.src_cl)
    shape_of(pd, &s)
    if s.mb * s.g * s.icg * s.ocg * s.id * s.ih * s.iw == 0:
        return dnnl_success
    if gemm:
        work = <float *>(ctx.scratchpad + conf.work_offset)
        if omp_get_max_threads() < nthr:
            nthr = omp_get_max_threads()
    # the inputs the GEMM kernels read: f32, or bf16 as is (lay says which)
    cdef bint bf16_in = gemm and reads_bf16(lay.uk)
    if is_fwd(pd):
        src = gemm_input(pd, ctx, a.src, stag, gemm and takes_bf16(pd, a.src, bf16_in),
                         &lay.src_dt, &scratch, &st)
        wei = gemm_input(pd, ctx, a.wei, wtag, bf16_in, &lay.wei_dt, &scratch, &st)
        bias = input_as(pd, ctx, a.bias, dnnl_a, &scratch, &st)
        dst = gemm_output(pd, ctx, a.dst, dtag, gemm, &s, lay.src_cl, &lay.dst_dt, &scratch)
        if st == dnnl_success:
            if gemm:
                conv_fwd_gemm(&s, lay, src, wei, bias, dst, work, nthr)
            else:
                conv_fwd_ref(&s, <float *>src, <float *>wei, bias, <float *>dst)
            if lay.dst_dt != dnnl_bf16:
                st = store_output(pd, ctx, a.dst, dtag, <float *>dst)
    elif pd.desc.prop_kind == dnnl_backward_data:
        wei = gemm_input(pd, ctx, a.wei, wtag, bf16_in, &lay.wei_dt, &scratch, &st)
        dst = gemm_input(pd, ctx, a.dst, dtag, gemm and takes_bf16(pd, a.dst, bf16_in),
                         &lay.dst_dt, &scratch, &st)
        src = gemm_output(pd, ctx, a.src, stag, gemm, &s, lay.src_cl, &lay.src_dt, &scratch)
        if st == dnnl_success:
            if gemm:
                conv_bwd_data_gemm(&s, lay, src, wei, dst, work, nthr)
            else:
                conv_bwd_data_ref(&s, <float *>src, <float *>wei, <float *>dst)
            if lay.src_dt != dnnl_bf16:
                st = store_output(pd, ctx, a.src, stag, <float *>src)
    else:
        src = gemm_input(pd, ctx, a.src, stag, gemm and takes_bf16(pd, a.src, bf16_in),
                         &lay.src_dt, &scratch, &st)
        dst = gemm_input(pd, ctx, a.dst, dtag, gemm and takes_bf16(pd, a.dst, bf16_in),
                         &lay.dst_dt, &scratch, &st)
        wei = output_as(pd, ctx, a.wei, wtag, &scratch)
        bias = output_as(pd, ctx, a.bias, dnnl_a, &scratch)
        if st == dnnl_success:
            if gemm:
                conv_bwd_weights_gemm(&s, lay, src, <float *>wei, bias, dst, work, nthr)
            else:
                conv_bwd_weights_ref(&s, <float *>src, <float *>wei, bias, <float *>dst)
            st = store_output(pd, ctx, a.wei, wtag, <float *>wei)
            if st == dnnl_success and a.bias >= 0 and pd_md(pd, a.bias).ndims:
                st = store_output(pd, ctx, a.bias, dnnl_a, bias)
    return st


cdef dnnl_status_t ref_execute(const dnnl_primitive_desc *pd,
                               const exec_ctx_t *ctx) noexcept nogil:
    return plain_execute(pd, ctx, False)


cdef dnnl_status_t gemm_execute(const dnnl_primitive_desc *pd,
                                const exec_ctx_t *ctx) noexcept nogil:
    return plain_execute(pd, ctx, True)


cdef dnnl_status_t conv_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                              int index, void *result) noexcept nogil:
    cdef const convolution_desc_t *d = conv_desc(pd)
    if what == dnnl_query_alg_kind:
        (<dnnl_alg_kind_t *>result)[0] = d.alg_kind
    elif what == dnnl_query_strides:
        (<const dnnl_dim_t **>result)[0] = &d.strides[0]
    elif what == dnnl_query_dilations:
        (<const dnnl_dim_t **>result)[0] = &d.dilates[0]
    elif what == dnnl_query_padding_l:
        (<const dnnl_dim_t **>result)[0] = &d.padding_l[0]
    elif what == dnnl_query_padding_r:
        (<const dnnl_dim_t **>result)[0] = &d.padding_r[0]
    else:
        return dnnl_unimplemented
    return dnnl_success


# The family's registration: the convolution kind and its implementation
# list, the layout-generic reference last.
cdef void conv_verbose(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """oneDNN's init_info_convolution: src, wei, bia, dst (diff ones where
    the direction computes them); alg; g..mb.._ic..oc.._id..od..kd..sd..dd..pd.._
    ih..oh..kh..sh..dh..ph.._iw..ow..kw..sw..dw..pw.."""
    cdef conv_args_t a = roles(pd)
    cdef conv_shape_t s
    cdef const md_t *src = pd_arg_md(pd, a.src)
    cdef const md_t *wei = pd_arg_md(pd, a.wei)
    cdef int sp = src.ndims - 2, i
    cdef int64_t idims[3]
    cdef int64_t odims[3]
    cdef int64_t kdims[3]
    cdef int64_t st[3]
    cdef int64_t dl[3]
    cdef int64_t pl[3]
    cdef char c
    vs_arg(&v.mds, pd, "src", a.src)
    vs_arg(&v.mds, pd, "wei", a.wei)
    vs_arg(&v.mds, pd, "bia", a.bias)
    vs_arg(&v.mds, pd, "dst", a.dst)
    cydnnl_vs_printf(&v.aux, "alg:%s", dnnl_alg_kind2str(conv_desc(pd).alg_kind))
    shape_of(pd, &s)
    idims[:] = [s.id, s.ih, s.iw]
    odims[:] = [s.od, s.oh, s.ow]
    kdims[:] = [s.kd, s.kh, s.kw]
    st[:] = [s.sd, s.sh, s.sw]
    dl[:] = [s.dd, s.dh, s.dw]
    pl[:] = [s.pd, s.ph, s.pw]
    if wei.ndims == src.ndims + 1:
        cydnnl_vs_printf(&v.prb, "g%lld", <long long>s.g)
    cydnnl_vs_printf(&v.prb, "mb%lld_ic%lldoc%lld_", <long long>s.mb,
                     <long long>(s.icg * s.g), <long long>(s.ocg * s.g))
    for i in range(3 - sp, 3):
        c = b"dhw"[i]
        cydnnl_vs_printf(&v.prb, "i%c%lldo%c%lldk%c%llds%c%lldd%c%lldp%c%lld%s",
                         c, <long long>idims[i], c, <long long>odims[i], c, <long long>kdims[i],
                         c, <long long>st[i], c, <long long>dl[i], c, <long long>pl[i],
                         <const char *>("_" if i < 2 else ""))


cdef primitive_kind_t conv_kind
conv_kind.kind = dnnl_convolution
conv_kind.query = conv_query
conv_kind.verbose = conv_verbose
for isa in (ISA_AVX512_CORE_BF16, ISA_AVX512_CORE, ISA_AVX2, ISA_SSE41):
    impl_list_add_isa(&conv_kind.impls, "gemm", isa, gemm_init, gemm_execute)
impl_list_add(&conv_kind.impls, "ref:any", ref_init, ref_execute)
register_kind(&conv_kind)

# ------------------------------------------------------------ validation


cdef dnnl_status_t init_desc(convolution_desc_t *desc, dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg,
                             const dnnl_memory_desc *src, const dnnl_memory_desc *wei,
                             const dnnl_memory_desc *bias, const dnnl_memory_desc *dst,
                             const dnnl_dim_t *strides, const dnnl_dim_t *dilates,
                             const dnnl_dim_t *padding_l, const dnnl_dim_t *padding_r,
                             const char *src_name, const char *wei_name,
                             const char *bias_name, const char *dst_name) noexcept nogil:
    """oneDNN's conv_desc_init: every check on shapes and parameters."""
    cdef char msg[256]
    cdef dnnl_status_t st = check_md_arg(src, src_name, False)
    if st == dnnl_success:
        st = check_md_arg(wei, wei_name, False)
    if st == dnnl_success:
        st = check_md_arg(dst, dst_name, False)
    if st == dnnl_success:
        st = check_md_arg(bias, bias_name, True)
    if st != dnnl_success:
        return st
    if alg != dnnl_convolution_direct and alg != dnnl_convolution_auto \
            and alg != dnnl_convolution_winograd:
        return fail(dnnl_invalid_arguments, "convolution: unknown algorithm")
    if strides == NULL or padding_l == NULL or padding_r == NULL:
        return fail(dnnl_invalid_arguments, "convolution: strides and padding are required")
    cdef const md_t *s = &src.md
    cdef const md_t *w = &wei.md
    cdef const md_t *d = &dst.md
    cdef int nd = s.ndims, sp, i
    if nd < 3 or nd > 5:
        snprintf(msg, sizeof(msg), "convolution: %s has %d dims; 3 to 5 (N, C, spatial)",
                 src_name, nd)
        return fail(dnnl_invalid_arguments, msg)
    sp = nd - 2
    cdef bint groups = w.ndims == nd + 1
    if d.ndims != nd or not (w.ndims == nd or groups):
        snprintf(msg, sizeof(msg), "convolution: %s, %s and %s have inconsistent ndims "
                 "(%d, %d, %d)", src_name, wei_name, dst_name, nd, w.ndims, d.ndims)
        return fail(dnnl_invalid_arguments, msg)
    cdef int64_t g = w.dims[0] if groups else 1
    cdef int64_t oc = w.dims[1] * g if groups else w.dims[0]
    cdef int64_t ic = w.dims[2] * g if groups else w.dims[1]
    if s.dims[0] != d.dims[0] or s.dims[1] != ic or d.dims[1] != oc:
        snprintf(msg, sizeof(msg), "convolution: channels or batch do not match: %s %lldx%lld, "
                 "%s gives ic %lld oc %lld, %s %lldx%lld", src_name, <long long>s.dims[0],
                 <long long>s.dims[1], wei_name, <long long>ic, <long long>oc, dst_name,
                 <long long>d.dims[0], <long long>d.dims[1])
        return fail(dnnl_invalid_arguments, msg)
    if bias != NULL and bias.md.ndims != 0 and (bias.md.ndims != 1 or bias.md.dims[0] != oc):
        snprintf(msg, sizeof(msg), "convolution: %s must be 1-D of %lld (oc)", bias_name,
                 <long long>oc)
        return fail(dnnl_invalid_arguments, msg)
    cdef int64_t ker, dil, ext, out
    for i in range(sp):
        dil = dilates[i] if dilates != NULL else 0
        ker = w.dims[w.ndims - sp + i]
        if strides[i] <= 0 or dil < 0 or padding_l[i] < 0 or padding_r[i] + strides[i] <= 0:
            snprintf(msg, sizeof(msg), "convolution: spatial dim %d: stride %lld, dilation "
                     "%lld, padding %lld/%lld not allowed", i, <long long>strides[i],
                     <long long>dil, <long long>padding_l[i], <long long>padding_r[i])
            return fail(dnnl_invalid_arguments, msg)
        ext = (ker - 1) * (dil + 1) + 1
        out = s.dims[2 + i] - ext + padding_l[i] + padding_r[i]
        # C division, as oneDNN checks it
        out = (out // strides[i] if out >= 0 else -((-out) // strides[i])) + 1
        if out != d.dims[2 + i]:
            snprintf(msg, sizeof(msg), "convolution: spatial dim %d: %s is %lld, the "
                     "parameters give %lld", i, dst_name, <long long>d.dims[2 + i],
                     <long long>out)
            return fail(dnnl_invalid_arguments, msg)
    memset(desc, 0, sizeof(convolution_desc_t))
    desc.hdr.primitive_kind = dnnl_convolution
    desc.hdr.prop_kind = prop_kind
    desc.alg_kind = dnnl_convolution_direct if alg == dnnl_convolution_auto else alg
    desc.src_desc = s[0]
    desc.weights_desc = w[0]
    desc.dst_desc = d[0]
    if bias != NULL:
        desc.bias_desc = bias.md
    for i in range(sp):
        desc.strides[i] = strides[i]
        desc.dilates[i] = dilates[i] if dilates != NULL else 0
        desc.padding_l[i] = padding_l[i]
        desc.padding_r[i] = padding_r[i]
    return dnnl_success


cdef dnnl_status_t dnnl_convolution_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_desc,
        const dnnl_dim_t *strides, const dnnl_dim_t *dilates,
        const dnnl_dim_t *padding_l, const dnnl_dim_t *padding_r,
        const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef convolution_desc_t desc
    cdef arg_spec_t args[4]
    cdef int n = 0
    if prop_kind != dnnl_forward_training and prop_kind != dnnl_forward_inference:
        return fail(dnnl_invalid_arguments, "convolution forward: prop_kind must be forward_*")
    cdef dnnl_status_t st = init_desc(&desc, prop_kind, alg_kind, src_desc, weights_desc,
                                      bias_desc, dst_desc, strides, dilates, padding_l,
                                      padding_r, "src_desc", "weights_desc", "bias_desc",
                                      "dst_desc")
    if st != dnnl_success:
        return st
    args[0] = arg_spec_t(DNNL_ARG_SRC, ARG_INPUT, &src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_WEIGHTS, ARG_INPUT, &weights_desc.md)
    n = 2
    if bias_desc != NULL and bias_desc.md.ndims != 0:
        args[n] = arg_spec_t(DNNL_ARG_BIAS, ARG_INPUT, &bias_desc.md)
        n += 1
    args[n] = arg_spec_t(DNNL_ARG_DST, ARG_OUTPUT, &dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), n + 1, args, attr, NULL)


cdef dnnl_status_t dnnl_convolution_backward_data_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const dnnl_dim_t *strides, const dnnl_dim_t *dilates,
        const dnnl_dim_t *padding_l, const dnnl_dim_t *padding_r,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef convolution_desc_t desc
    cdef arg_spec_t args[4]
    cdef int n = 0
    cdef dnnl_status_t st = init_desc(&desc, dnnl_backward_data, alg_kind, diff_src_desc,
                                      weights_desc, NULL, diff_dst_desc, strides, dilates,
                                      padding_l, padding_r, "diff_src_desc", "weights_desc",
                                      "bias_desc", "diff_dst_desc")
    if st == dnnl_success:
        st = check_hint(hint_fwd_pd, dnnl_convolution, False)
    if st != dnnl_success:
        return st
    args[0] = arg_spec_t(DNNL_ARG_DIFF_SRC, ARG_OUTPUT, &diff_src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_WEIGHTS, ARG_INPUT, &weights_desc.md)
    args[2] = arg_spec_t(DNNL_ARG_DIFF_DST, ARG_INPUT, &diff_dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), 3, args, attr,
                     hint_fwd_pd)


cdef dnnl_status_t dnnl_convolution_backward_weights_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t diff_weights_desc, const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dim_t *strides,
        const dnnl_dim_t *dilates, const dnnl_dim_t *padding_l, const dnnl_dim_t *padding_r,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) noexcept nogil:
    cdef convolution_desc_t desc
    cdef arg_spec_t args[4]
    cdef int n = 0
    cdef dnnl_status_t st = init_desc(&desc, dnnl_backward_weights, alg_kind, src_desc,
                                      diff_weights_desc, diff_bias_desc, diff_dst_desc,
                                      strides, dilates, padding_l, padding_r, "src_desc",
                                      "diff_weights_desc", "diff_bias_desc", "diff_dst_desc")
    if st == dnnl_success:
        st = check_hint(hint_fwd_pd, dnnl_convolution, False)
    if st != dnnl_success:
        return st
    args[0] = arg_spec_t(DNNL_ARG_SRC, ARG_INPUT, &src_desc.md)
    args[1] = arg_spec_t(DNNL_ARG_DIFF_WEIGHTS, ARG_OUTPUT, &diff_weights_desc.md)
    n = 2
    if diff_bias_desc != NULL and diff_bias_desc.md.ndims != 0:
        args[n] = arg_spec_t(DNNL_ARG_DIFF_BIAS, ARG_OUTPUT, &diff_bias_desc.md)
        n += 1
    args[n] = arg_spec_t(DNNL_ARG_DIFF_DST, ARG_INPUT, &diff_dst_desc.md)
    return pd_create(primitive_desc, engine, &desc.hdr, sizeof(desc), n + 1, args, attr,
                     hint_fwd_pd)
