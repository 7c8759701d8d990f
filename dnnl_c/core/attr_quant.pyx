# Quantization attributes (oneDNN's primitive_attr_quant.cpp and the RNN
# qparams of primitive_attr.cpp): scales, zero points and precomputed
# reductions per argument, and the RNN data and weights parameters. The
# setters check what oneDNN's check; no implementation here reads them yet,
# so a primitive descriptor with any of them set is dnnl_unimplemented
# (attr_check_honoured).

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail
from dnnl_c.core.objects cimport obj_alive

cdef float g_one = 1.0      # the default RNN weights scale (count 1, mask 0)


cdef inline bint attr_ok(const dnnl_primitive_attr *attr) noexcept nogil:
    return obj_alive(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR)


cdef dnnl_status_t extra_of(dnnl_primitive_attr *attr, attr_extra_t **out) noexcept nogil:
    """The attr's extra block, made on first use; checks attr is the user's."""
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    if attr.extra == NULL:
        attr.extra = <attr_extra_t *>calloc(1, sizeof(attr_extra_t))
        if attr.extra == NULL:
            return fail(dnnl_out_of_memory, "attr: out of memory")
    out[0] = attr.extra
    return dnnl_success


cdef float *dup_floats(const float *p, dnnl_dim_t n) noexcept nogil:
    cdef float *q = <float *>malloc(n * sizeof(float) if n > 0 else 1)
    if q != NULL and n > 0:
        memcpy(q, p, n * sizeof(float))
    return q


cdef int extra_copy(attr_extra_t **dst, const attr_extra_t *src) noexcept nogil:
    cdef attr_extra_t *e = <attr_extra_t *>malloc(sizeof(attr_extra_t))
    if e == NULL:
        return -1
    e[0] = src[0]
    e.retired = NULL
    e.rnn_wei_scales = NULL
    e.rnn_proj_scales = NULL
    dst[0] = e
    if src.rnn_wei_count > 0:
        e.rnn_wei_scales = dup_floats(src.rnn_wei_scales, src.rnn_wei_count)
        if e.rnn_wei_scales == NULL:
            return -1
    if src.rnn_proj_count > 0:
        e.rnn_proj_scales = dup_floats(src.rnn_proj_scales, src.rnn_proj_count)
        if e.rnn_proj_scales == NULL:
            return -1
    return 0


cdef struct retired_t:
    retired_t *next
    post_op_t *entry


cdef void extra_retire(attr_extra_t *extra, post_op_t *entry) noexcept nogil:
    """Keeps a post-op entry the attr no longer uses until the attr goes
    (handles to its mds may be out); without memory for that, frees it."""
    cdef retired_t *r = <retired_t *>malloc(sizeof(retired_t))
    if r == NULL:
        free(entry)
        return
    r.entry = entry
    r.next = <retired_t *>extra.retired
    extra.retired = r


cdef void extra_free(attr_extra_t *extra) noexcept nogil:
    cdef retired_t *r
    if extra == NULL:
        return
    while extra.retired != NULL:
        r = <retired_t *>extra.retired
        extra.retired = r.next
        free(r.entry)
        free(r)
    free(extra.rnn_wei_scales)
    free(extra.rnn_proj_scales)
    free(extra)


cdef const char *extra_unhonoured(const attr_extra_t *extra) noexcept nogil:
    """The first attribute of the block set to other than its default."""
    if extra.nscales > 0:
        return "scales"
    if extra.nzero_points > 0:
        return "zero points"
    if extra.nreductions > 0:
        return "precomputed reductions"
    if extra.nrounding > 0:
        return "stochastic rounding"
    if extra.rnn_wei_count > 0 and not (extra.rnn_wei_count == 1 and extra.rnn_wei_mask == 0
                                        and extra.rnn_wei_scales[0] == 1.0):
        return "rnn weights quantization parameters"
    if extra.rnn_proj_count > 0 and not (extra.rnn_proj_count == 1 and extra.rnn_proj_mask == 0
                                         and extra.rnn_proj_scales[0] == 1.0):
        return "rnn weights projection quantization parameters"
    return NULL

# ------------------------------------------------------------ per-argument tables


cdef bint dims_ok(int group_ndims, const dnnl_dim_t *group_dims) noexcept nogil:
    cdef int i
    if group_ndims == 0:
        return True
    if group_dims == NULL:
        return False
    for i in range(group_ndims):
        if group_dims[i] <= 0:
            return False
    return True


cdef dnnl_status_t quant_set(quant_t *table, int *n, const char *what, int arg, int mask,
                             int group_ndims, const dnnl_dim_t *group_dims,
                             dnnl_data_type_t data_type, int is_on_host,
                             int qmode) noexcept nogil:
    """Sets arg's entry of a table (replacing an earlier one)."""
    cdef int i, j
    for i in range(n[0] + 1):
        if i == n[0] or table[i].arg == arg:
            break
    if i == ATTR_MAX_QUANT:
        return fail(dnnl_out_of_memory, "attr: too many arguments with quantization "
                    "parameters")
    table[i].arg = arg
    table[i].mask = mask
    table[i].group_ndims = group_ndims
    for j in range(DNNL_MAX_NDIMS):
        table[i].group_dims[j] = group_dims[j] if j < group_ndims else 0
    table[i].data_type = data_type
    table[i].is_on_host = 1 if is_on_host else 0
    table[i].qmode = qmode
    if i == n[0]:
        n[0] += 1
    return dnnl_success


cdef dnnl_status_t check_groups(int mask, int group_ndims, const dnnl_dim_t *group_dims,
                                int is_on_host) noexcept nogil:
    if not (group_ndims == 0 or group_ndims == 2):
        return fail(dnnl_invalid_arguments, "attr: group_ndims must be 0 or 2")
    if not dims_ok(group_ndims, group_dims):
        return fail(dnnl_invalid_arguments, "attr: group_dims must be positive")
    if is_on_host and (mask != 0 or group_ndims != 0):
        return fail(dnnl_invalid_arguments, "attr: a host-side value is a single value "
                    "(mask 0, no groups)")
    if mask < 0:
        return fail(dnnl_invalid_arguments, "attr: mask must be >= 0")
    if group_ndims > 0 and mask == 0:
        return fail(dnnl_invalid_arguments, "attr: groups need a mask > 0")
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_scales_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) noexcept nogil:
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, 0, NULL, dnnl_f32, 0,
                                             dnnl_quantization_mode_static_sazp)


cdef dnnl_status_t dnnl_primitive_attr_set_scales(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type) noexcept nogil:
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, group_ndims, group_dims,
                                             data_type, 0, dnnl_quantization_mode_static_sazp)


cdef dnnl_status_t dnnl_primitive_attr_set_scales_v2(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type,
        int is_on_host) noexcept nogil:
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, group_ndims, group_dims,
                                             data_type, is_on_host,
                                             dnnl_quantization_mode_static_sazp)


cdef dnnl_status_t dnnl_primitive_attr_set_scales_v3(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type, int is_on_host,
        dnnl_quantization_mode_t qmode) noexcept nogil:
    cdef attr_extra_t *e
    cdef dnnl_status_t st = extra_of(attr, &e)
    if st != dnnl_success:
        return st
    if arg < 0:
        return fail(dnnl_invalid_arguments, "attr: scales: arg must be >= 0")
    if not (qmode == dnnl_quantization_mode_static_sazp or qmode ==
            dnnl_quantization_mode_dynamic_mx or qmode == dnnl_quantization_mode_dynamic_fp):
        return fail(dnnl_invalid_arguments, "attr: scales: unknown quantization mode")
    if not (data_type == dnnl_f32 or data_type == dnnl_bf16 or data_type == dnnl_f16
            or data_type == dnnl_e8m0 or data_type == dnnl_f8_e4m3):
        return fail(dnnl_invalid_arguments, "attr: scales: data type must be f32, bf16, "
                    "f16, e8m0 or f8_e4m3")
    if (data_type == dnnl_e8m0 or data_type == dnnl_f8_e4m3) and mask <= 0:
        return fail(dnnl_invalid_arguments, "attr: scales: e8m0 and f8_e4m3 scales are "
                    "per group (mask > 0)")
    st = check_groups(mask, group_ndims, group_dims, is_on_host)
    if st != dnnl_success:
        return st
    return quant_set(e.scales, &e.nscales, "scales", arg, mask, group_ndims, group_dims,
                     data_type, is_on_host, qmode)


cdef dnnl_status_t dnnl_primitive_attr_set_zero_points_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) noexcept nogil:
    return dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, 0, NULL, dnnl_s32, 0)


cdef dnnl_status_t dnnl_primitive_attr_set_zero_points(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type) noexcept nogil:
    return dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, group_ndims, group_dims,
                                                  data_type, 0)


cdef dnnl_status_t dnnl_primitive_attr_set_zero_points_v2(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type,
        int is_on_host) noexcept nogil:
    cdef attr_extra_t *e
    cdef dnnl_status_t st = extra_of(attr, &e)
    if st != dnnl_success:
        return st
    if arg < 0:
        return fail(dnnl_invalid_arguments, "attr: zero points: arg must be >= 0")
    if not (data_type == dnnl_s32 or data_type == dnnl_s8 or data_type == dnnl_u8
            or data_type == dnnl_s4 or data_type == dnnl_u4):
        return fail(dnnl_invalid_arguments, "attr: zero points: data type must be s32, s8, "
                    "u8, s4 or u4")
    if (data_type == dnnl_s4 or data_type == dnnl_u4) and mask <= 0:
        return fail(dnnl_invalid_arguments, "attr: zero points: int4 zero points need a "
                    "mask > 0")
    if not (arg == DNNL_ARG_SRC or arg == DNNL_ARG_WEIGHTS or arg == DNNL_ARG_WEIGHTS_1
            or arg == DNNL_ARG_WEIGHTS_2) and (data_type != dnnl_s32 or group_ndims != 0):
        return fail(dnnl_invalid_arguments, "attr: zero points: only src and weights take "
                    "other than s32 zero points without groups")
    st = check_groups(mask, group_ndims, group_dims, is_on_host)
    if st != dnnl_success:
        return st
    return quant_set(e.zero_points, &e.nzero_points, "zero points", arg, mask, group_ndims,
                     group_dims, data_type, is_on_host, dnnl_quantization_mode_static_sazp)


cdef dnnl_status_t dnnl_primitive_attr_set_precomputed_reductions(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dim_t *group_dims, dnnl_data_type_t data_type) noexcept nogil:
    cdef attr_extra_t *e
    cdef dnnl_status_t st = extra_of(attr, &e)
    if st != dnnl_success:
        return st
    if arg != DNNL_ARG_SRC and arg != DNNL_ARG_WEIGHTS:
        return fail(dnnl_invalid_arguments, "attr: precomputed reductions: arg must be "
                    "DNNL_ARG_SRC or DNNL_ARG_WEIGHTS")
    if data_type != dnnl_s32:
        return fail(dnnl_invalid_arguments, "attr: precomputed reductions must be s32")
    st = check_groups(mask, group_ndims, group_dims, 0)
    if st != dnnl_success:
        return st
    return quant_set(e.reductions, &e.nreductions, "precomputed reductions", arg, mask,
                     group_ndims, group_dims, data_type, 0, dnnl_quantization_mode_static_sazp)

# ------------------------------------------------------------ RNN qparams


cdef dnnl_status_t dnnl_primitive_attr_set_rnn_data_qparams(
        dnnl_primitive_attr_t attr, const float scale, const float shift) noexcept nogil:
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    attr.rnn_data_scale = scale
    attr.rnn_data_shift = shift
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_get_rnn_data_qparams(
        const_dnnl_primitive_attr_t attr, float *scale, float *shift) noexcept nogil:
    if not attr_ok(attr):
        return fail(dnnl_invalid_arguments, "attr: dead attr")
    if scale != NULL:
        scale[0] = attr.rnn_data_scale
    if shift != NULL:
        shift[0] = attr.rnn_data_shift
    return dnnl_success


cdef dnnl_status_t set_wei_qparams(dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask,
                                   const float *scales, bint projection) noexcept nogil:
    cdef attr_extra_t *e
    cdef float *copy
    if scales == NULL or count <= 0 or mask < 0:
        return fail(dnnl_invalid_arguments, "attr: rnn weights qparams need count > 0, "
                    "mask >= 0 and scales")
    cdef dnnl_status_t st = extra_of(attr, &e)
    if st != dnnl_success:
        return st
    if <size_t>count > (<size_t>-1) // sizeof(float) // 2:
        return fail(dnnl_invalid_arguments, "attr: rnn weights qparams: count is too big")
    copy = dup_floats(scales, count)
    if copy == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    if projection:
        free(e.rnn_proj_scales)
        e.rnn_proj_scales, e.rnn_proj_count, e.rnn_proj_mask = copy, count, mask
    else:
        free(e.rnn_wei_scales)
        e.rnn_wei_scales, e.rnn_wei_count, e.rnn_wei_mask = copy, count, mask
    return dnnl_success


cdef dnnl_status_t get_wei_qparams(const_dnnl_primitive_attr_t attr, dnnl_dim_t *count,
                                   int *mask, const float **scales,
                                   bint projection) noexcept nogil:
    cdef const attr_extra_t *e
    cdef dnnl_dim_t n = 1
    cdef int m = 0
    cdef const float *s = &g_one
    if not attr_ok(attr):
        return fail(dnnl_invalid_arguments, "attr: dead attr")
    e = attr.extra
    if e != NULL and projection and e.rnn_proj_count > 0:
        n, m, s = e.rnn_proj_count, e.rnn_proj_mask, e.rnn_proj_scales
    elif e != NULL and not projection and e.rnn_wei_count > 0:
        n, m, s = e.rnn_wei_count, e.rnn_wei_mask, e.rnn_wei_scales
    if count != NULL:
        count[0] = n
    if mask != NULL:
        mask[0] = m
    if scales != NULL:
        scales[0] = s
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_rnn_weights_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask,
        const float *scales) noexcept nogil:
    return set_wei_qparams(attr, count, mask, scales, False)


cdef dnnl_status_t dnnl_primitive_attr_get_rnn_weights_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
        const float **scales) noexcept nogil:
    return get_wei_qparams(attr, count, mask, scales, False)


cdef dnnl_status_t dnnl_primitive_attr_set_rnn_weights_projection_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask,
        const float *scales) noexcept nogil:
    return set_wei_qparams(attr, count, mask, scales, True)


cdef dnnl_status_t dnnl_primitive_attr_get_rnn_weights_projection_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
        const float **scales) noexcept nogil:
    return get_wei_qparams(attr, count, mask, scales, True)
