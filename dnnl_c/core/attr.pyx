# Primitive attributes (oneDNN's primitive_attr.cpp): the modes (scratchpad,
# fpmath, accumulation, deterministic), rounding, dropout, and what a
# primitive descriptor makes of them. Quantization parameters are in
# attr_quant.pyx, post-ops in post_ops.pyx.

from libc.stdlib cimport malloc, calloc, free, getenv
from libc.string cimport strcmp
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail, err_buf, ERR_LEN, dnnl_fpmath_mode2str
from dnnl_c.core.objects cimport header_init, obj_alive, obj_destroy
from dnnl_c.core.memory_desc_wrapper cimport md_zero, md_is_zero
from dnnl_c.core.memory_desc cimport md_ok
from dnnl_c.core.post_ops cimport post_ops_init, post_ops_clear, post_ops_copy, post_ops_set_owner
from dnnl_c.core.attr_quant cimport extra_copy, extra_free, extra_unhonoured

# ------------------------------------------------------------ default fpmath mode

cdef int g_default_fpmath = -1      # -1: ONEDNN_DEFAULT_FPMATH_MODE not read yet


cdef dnnl_fpmath_mode_t default_fpmath() noexcept nogil:
    """oneDNN's get_fpmath_mode(): ONEDNN_DEFAULT_FPMATH_MODE (STRICT, BF16,
    F16, TF32, ANY), strict when unset or unknown."""
    global g_default_fpmath
    cdef const char *v
    cdef const char *names[5]
    cdef int i
    if g_default_fpmath < 0:
        names[:] = [b"STRICT", b"BF16", b"F16", b"ANY", b"TF32"]
        g_default_fpmath = dnnl_fpmath_mode_strict
        v = getenv("ONEDNN_DEFAULT_FPMATH_MODE")
        if v == NULL:
            v = getenv("DNNL_DEFAULT_FPMATH_MODE")
        if v != NULL:
            for i in range(5):      # the enum values follow this order
                if strcmp(v, names[i]) == 0:
                    g_default_fpmath = i
    return <dnnl_fpmath_mode_t>g_default_fpmath


cdef dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode) noexcept nogil:
    if mode == NULL:
        return fail(dnnl_invalid_arguments, "default fpmath mode: NULL output")
    mode[0] = default_fpmath()
    return dnnl_success


cdef dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode) noexcept nogil:
    global g_default_fpmath
    if mode < dnnl_fpmath_mode_strict or mode > dnnl_fpmath_mode_tf32:
        return fail(dnnl_invalid_arguments, "default fpmath mode: unknown fpmath mode")
    g_default_fpmath = mode
    return dnnl_success

# ------------------------------------------------------------ the object


cdef bint attr_ok(const dnnl_primitive_attr *attr) noexcept nogil:
    return obj_alive(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR)


cdef inline dnnl_status_t mutable(const dnnl_primitive_attr *attr) noexcept nogil:
    # a primitive descriptor's attributes are read-only
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    return dnnl_success


cdef void attr_set_owner(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil:
    """The handles inside attr (post-ops, the dropout md) live in it."""
    header_init(&attr.dropout_md.hdr, OBJ_MEMORY_DESC, &attr.hdr, NULL)
    post_ops_set_owner(&attr.post_ops, &attr.hdr)
    if owner != NULL:
        header_init(&attr.hdr, OBJ_PRIMITIVE_ATTR, owner, NULL)


cdef void attr_default(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil:
    header_init(&attr.hdr, OBJ_PRIMITIVE_ATTR, owner, NULL)
    attr.scratchpad_mode = dnnl_scratchpad_mode_library
    attr.fpmath_mode = default_fpmath()
    attr.fpmath_apply_to_int = 0
    attr.acc_mode = dnnl_accumulation_mode_strict
    attr.deterministic = 0
    post_ops_init(&attr.post_ops)
    md_zero(&attr.dropout_md.md)
    attr.dropout_seed_dt = dnnl_data_type_undef
    attr.dropout_use_offset = 0
    attr.dropout_use_host_scalars = 0
    attr.rnn_data_scale = 1.0
    attr.rnn_data_shift = 0.0
    attr.extra = NULL
    attr_set_owner(attr, NULL)


cdef void attr_free(obj_header *obj) noexcept nogil:
    cdef dnnl_primitive_attr *attr = <dnnl_primitive_attr *>obj
    post_ops_clear(&attr.post_ops)
    extra_free(attr.extra)
    free(attr)


cdef dnnl_primitive_attr *attr_new() noexcept nogil:
    cdef dnnl_primitive_attr *a = <dnnl_primitive_attr *>malloc(sizeof(dnnl_primitive_attr))
    if a != NULL:
        attr_default(a, NULL)
        a.hdr.free = attr_free
    return a


cdef dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) noexcept nogil:
    if attr == NULL:
        return fail(dnnl_invalid_arguments, "attr: NULL output pointer")
    cdef dnnl_primitive_attr *a = attr_new()
    if a == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    attr[0] = a
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) noexcept nogil:
    if attr == NULL or not attr_ok(existing_attr):
        return fail(dnnl_invalid_arguments, "attr: NULL output or dead attr")
    cdef dnnl_primitive_attr *a = attr_new()
    if a == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    attr_copy_values(a, existing_attr)
    a.dropout_md.md = existing_attr.dropout_md.md
    a.dropout_seed_dt = existing_attr.dropout_seed_dt
    a.dropout_use_offset = existing_attr.dropout_use_offset
    a.dropout_use_host_scalars = existing_attr.dropout_use_host_scalars
    a.rnn_data_scale = existing_attr.rnn_data_scale
    a.rnn_data_shift = existing_attr.rnn_data_shift
    if post_ops_copy(&a.post_ops, &existing_attr.post_ops) != 0 or (
            existing_attr.extra != NULL and extra_copy(&a.extra, existing_attr.extra) != 0):
        attr_free(&a.hdr)
        return fail(dnnl_out_of_memory, "attr: out of memory")
    attr_set_owner(a, NULL)
    attr[0] = a
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) noexcept nogil:
    return obj_destroy(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR, "attr")

# ------------------------------------------------------------ for primitive descriptors


cdef void attr_copy_values(dnnl_primitive_attr *dst,
                           const dnnl_primitive_attr *src) noexcept nogil:
    dst.scratchpad_mode = src.scratchpad_mode
    dst.fpmath_mode = src.fpmath_mode
    dst.fpmath_apply_to_int = src.fpmath_apply_to_int
    dst.acc_mode = src.acc_mode
    dst.deterministic = src.deterministic


cdef dnnl_status_t attr_check_honoured(const dnnl_primitive_attr *attr) noexcept nogil:
    """dnnl_unimplemented, naming the attribute, when attr asks for what no
    implementation does (oneDNN's implementations check has_default_values);
    our implementations compute in f32 and are deterministic at a given
    number of threads, which honours every fpmath mode, deterministic, and
    the strict, relaxed, any and f32 accumulation modes."""
    cdef const char *what = NULL
    if attr.post_ops.len > 0:
        what = "post-ops"
    elif not md_is_zero(&attr.dropout_md.md):
        what = "dropout"
    elif attr.rnn_data_scale != 1.0 or attr.rnn_data_shift != 0.0:
        what = "rnn data quantization parameters"
    elif attr.acc_mode == dnnl_accumulation_mode_s32:
        what = "accumulation mode s32"
    elif attr.acc_mode == dnnl_accumulation_mode_f16:
        what = "accumulation mode f16"
    elif attr.extra != NULL:
        what = extra_unhonoured(attr.extra)
    if what == NULL:
        return dnnl_success
    snprintf(err_buf(), ERR_LEN, "attr: %s: no implementation supports this "
             "attribute", what)
    return fail(dnnl_unimplemented, err_buf())


cdef void attr_copy_honoured(dnnl_primitive_attr *dst,
                             const dnnl_primitive_attr *src) noexcept nogil:
    attr_default(dst, NULL)
    if src != NULL:
        attr_copy_values(dst, src)


cdef bint attr_equal(const dnnl_primitive_attr *a, const dnnl_primitive_attr *b) noexcept nogil:
    return (a.scratchpad_mode == b.scratchpad_mode and a.fpmath_mode == b.fpmath_mode
            and a.fpmath_apply_to_int == b.fpmath_apply_to_int and a.acc_mode == b.acc_mode
            and a.deterministic == b.deterministic)

# ------------------------------------------------------------ modes


cdef dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) noexcept nogil:
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = attr.scratchpad_mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) noexcept nogil:
    if mutable(attr) != dnnl_success:
        return dnnl_invalid_arguments
    if mode != dnnl_scratchpad_mode_library and mode != dnnl_scratchpad_mode_user:
        return fail(dnnl_invalid_arguments, "attr: unknown scratchpad mode")
    attr.scratchpad_mode = mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode) noexcept nogil:
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = attr.fpmath_mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode) noexcept nogil:
    return dnnl_primitive_attr_set_fpmath_mode_v2(attr, mode, 0)


cdef dnnl_status_t dnnl_primitive_attr_get_fpmath_mode_v2(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode,
        int *apply_to_int) noexcept nogil:
    if not attr_ok(attr):
        return fail(dnnl_invalid_arguments, "attr: dead attr")
    if mode != NULL:
        mode[0] = attr.fpmath_mode
    if apply_to_int != NULL:
        apply_to_int[0] = attr.fpmath_apply_to_int
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_fpmath_mode_v2(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode, int apply_to_int) noexcept nogil:
    if mutable(attr) != dnnl_success:
        return dnnl_invalid_arguments
    if mode < dnnl_fpmath_mode_strict or mode > dnnl_fpmath_mode_tf32:
        return fail(dnnl_invalid_arguments, "attr: unknown fpmath mode")
    attr.fpmath_mode = mode
    attr.fpmath_apply_to_int = 1 if apply_to_int else 0
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_get_accumulation_mode(
        const_dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t *mode) noexcept nogil:
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = attr.acc_mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_accumulation_mode(
        dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t mode) noexcept nogil:
    if mutable(attr) != dnnl_success:
        return dnnl_invalid_arguments
    if mode < dnnl_accumulation_mode_strict or mode > dnnl_accumulation_mode_f16:
        return fail(dnnl_invalid_arguments, "attr: unknown accumulation mode")
    attr.acc_mode = mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_get_deterministic(
        const_dnnl_primitive_attr_t attr, int *value) noexcept nogil:
    if not attr_ok(attr) or value == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    value[0] = attr.deterministic
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_deterministic(
        dnnl_primitive_attr_t attr, int value) noexcept nogil:
    if mutable(attr) != dnnl_success:
        return dnnl_invalid_arguments
    attr.deterministic = 1 if value else 0
    return dnnl_success

# ------------------------------------------------------------ dropout


cdef dnnl_status_t dnnl_primitive_attr_get_dropout(
        const_dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t *mask_desc) noexcept nogil:
    return dnnl_primitive_attr_get_dropout_v2(attr, mask_desc, NULL, NULL, NULL)


cdef dnnl_status_t dnnl_primitive_attr_set_dropout(
        dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t mask_desc) noexcept nogil:
    return dnnl_primitive_attr_set_dropout_v2(attr, mask_desc, dnnl_s32, 0, 0)


cdef dnnl_status_t dnnl_primitive_attr_get_dropout_v2(
        const_dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t *mask_desc,
        dnnl_data_type_t *seed_dt, int *use_offset, int *use_host_scalars) noexcept nogil:
    if not attr_ok(attr):
        return fail(dnnl_invalid_arguments, "attr: dead attr")
    if mask_desc != NULL:
        mask_desc[0] = &attr.dropout_md
    if seed_dt != NULL:
        seed_dt[0] = attr.dropout_seed_dt
    if use_offset != NULL:
        use_offset[0] = attr.dropout_use_offset
    if use_host_scalars != NULL:
        use_host_scalars[0] = attr.dropout_use_host_scalars
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_dropout_v2(
        dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t mask_desc,
        dnnl_data_type_t seed_dt, int use_offset, int use_host_scalars) noexcept nogil:
    if mutable(attr) != dnnl_success:
        return dnnl_invalid_arguments
    if not md_ok(mask_desc):
        return fail(dnnl_invalid_arguments, "attr: dropout mask_desc is not a live memory "
                    "descriptor")
    if mask_desc.md.data_type != dnnl_u8 and mask_desc.md.data_type != dnnl_data_type_undef:
        return fail(dnnl_invalid_arguments, "attr: the dropout mask must be u8")
    if seed_dt != dnnl_s32 and seed_dt != dnnl_s64:
        return fail(dnnl_invalid_arguments, "attr: the dropout seed must be s32 or s64")
    attr.dropout_md.md = mask_desc.md
    attr.dropout_seed_dt = seed_dt
    attr.dropout_use_offset = 1 if use_offset else 0
    attr.dropout_use_host_scalars = 1 if use_host_scalars else 0
    return dnnl_success

# ------------------------------------------------------------ rounding


cdef dnnl_status_t dnnl_primitive_attr_get_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t *mode) noexcept nogil:
    cdef int i
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = dnnl_rounding_mode_environment
    if attr.extra != NULL:
        for i in range(attr.extra.nrounding):
            if attr.extra.rounding_arg[i] == arg:
                mode[0] = <dnnl_rounding_mode_t>attr.extra.rounding_mode[i]
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t mode) noexcept nogil:
    cdef int i, n
    if mutable(attr) != dnnl_success:
        return dnnl_invalid_arguments
    if mode != dnnl_rounding_mode_environment and mode != dnnl_rounding_mode_stochastic:
        return fail(dnnl_invalid_arguments, "attr: unknown rounding mode")
    # as oneDNN: only results and gradients may round other than the default
    if mode != dnnl_rounding_mode_environment and not (
            arg == DNNL_ARG_DST or arg == DNNL_ARG_DIFF_SRC or arg == DNNL_ARG_DIFF_WEIGHTS):
        return fail(dnnl_invalid_arguments, "attr: stochastic rounding applies to "
                    "DNNL_ARG_DST, DNNL_ARG_DIFF_SRC or DNNL_ARG_DIFF_WEIGHTS only")
    if mode == dnnl_rounding_mode_environment and attr.extra == NULL:
        return dnnl_success
    if attr.extra == NULL:
        attr.extra = <attr_extra_t *>calloc(1, sizeof(attr_extra_t))
        if attr.extra == NULL:
            return fail(dnnl_out_of_memory, "attr: out of memory")
    n = attr.extra.nrounding
    for i in range(n):
        if attr.extra.rounding_arg[i] == arg:
            if mode == dnnl_rounding_mode_environment:   # back to the default: drop it
                attr.extra.rounding_arg[i] = attr.extra.rounding_arg[n - 1]
                attr.extra.rounding_mode[i] = attr.extra.rounding_mode[n - 1]
                attr.extra.nrounding = n - 1
            else:
                attr.extra.rounding_mode[i] = mode
            return dnnl_success
    if mode == dnnl_rounding_mode_environment:
        return dnnl_success
    # three arguments may round stochastically: the table has room for them
    attr.extra.rounding_arg[n] = arg
    attr.extra.rounding_mode[n] = mode
    attr.extra.nrounding = n + 1
    return dnnl_success
