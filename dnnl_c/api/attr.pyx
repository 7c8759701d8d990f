# The Python-level C API on primitive attributes: the object, its modes,
# rounding, dropout and quantization parameters (post-ops: post_ops.pyx).
# Outputs C allows to be NULL may be None here.

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


cdef c.dnnl_primitive_attr_t _mut(object attr) except? NULL:
    return <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr")


cdef c.const_dnnl_primitive_attr_t _const(object attr) except? NULL:
    return <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr")


cdef int _maybe_set(object out, object value, str name) except -1:
    if out is not None:
        _set_out(out, value, name)
    return 0


# ------------------------------------------------------------ the object


def dnnl_primitive_attr_create(attr):
    cdef c.dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_attr_create(&a)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &a.hdr)
    return st


def dnnl_primitive_attr_clone(attr, existing_attr):
    cdef c.dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_attr_clone(&a, _const(existing_attr))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &a.hdr)
    return st


def dnnl_primitive_attr_destroy(attr):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_destroy(_mut(attr))
    except Exception as err:
        return _bad(err)


# ------------------------------------------------------------ modes


def dnnl_primitive_attr_get_scratchpad_mode(attr, mode):
    cdef dnnl_scratchpad_mode_t m = dnnl_scratchpad_mode_library
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_scratchpad_mode(_const(attr), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_scratchpad_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_scratchpad_mode(
            _mut(attr), <dnnl_scratchpad_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_fpmath_mode(attr, mode):
    cdef dnnl_fpmath_mode_t m = dnnl_fpmath_mode_strict
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_fpmath_mode(_const(attr), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_fpmath_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_fpmath_mode(
            _mut(attr), <dnnl_fpmath_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_fpmath_mode_v2(attr, mode, apply_to_int):
    cdef dnnl_fpmath_mode_t m = dnnl_fpmath_mode_strict
    cdef int a = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_fpmath_mode_v2(_const(attr), &m, &a)
        if st == dnnl_success:
            _maybe_set(mode, <int>m, "mode")
            _maybe_set(apply_to_int, a, "apply_to_int")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_fpmath_mode_v2(attr, mode, apply_to_int):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_fpmath_mode_v2(
            _mut(attr), <dnnl_fpmath_mode_t>_enum(mode, "mode"),
            _int32(apply_to_int, "apply_to_int"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_accumulation_mode(attr, mode):
    cdef dnnl_accumulation_mode_t m = dnnl_accumulation_mode_strict
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_accumulation_mode(_const(attr), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_accumulation_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_accumulation_mode(
            _mut(attr), <dnnl_accumulation_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_deterministic(attr, value):
    cdef int v = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_deterministic(_const(attr), &v)
        if st == dnnl_success:
            _set_out(value, v, "value")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_deterministic(attr, value):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_deterministic(_mut(attr), _int32(value, "value"))
    except Exception as err:
        return _bad(err)


def dnnl_get_default_fpmath_mode(mode):
    cdef dnnl_fpmath_mode_t m = dnnl_fpmath_mode_strict
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_get_default_fpmath_mode(&m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_set_default_fpmath_mode(mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_default_fpmath_mode(<dnnl_fpmath_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)


# ------------------------------------------------------------ rounding, dropout


def dnnl_primitive_attr_get_rounding(attr, arg, mode):
    cdef dnnl_rounding_mode_t m = dnnl_rounding_mode_environment
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_rounding(_mut(attr), _int32(arg, "arg"), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_rounding(attr, arg, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_rounding(
            _mut(attr), _int32(arg, "arg"), <dnnl_rounding_mode_t>_enum(mode, "mode"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_dropout(attr, mask_desc):
    return dnnl_primitive_attr_get_dropout_v2(attr, mask_desc, None, None, None)


def dnnl_primitive_attr_set_dropout(attr, mask_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_dropout(_mut(attr), _md(mask_desc, "mask_desc"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_dropout_v2(attr, mask_desc, seed_dt, use_offset,
                                       use_host_scalars):
    """mask_desc: a dnnl_memory_desc_t to fill in (or None)."""
    cdef c.const_dnnl_memory_desc_t md = NULL
    cdef dnnl_data_type_t dt = dnnl_data_type_undef
    cdef int off = 0, host = 0
    c.cydnnl_clear_error()
    try:
        out = None if mask_desc is None else _out(mask_desc, dnnl_memory_desc_t, "mask_desc")
        st = c.dnnl_primitive_attr_get_dropout_v2(_const(attr), &md, &dt, &off, &host)
        if st == dnnl_success:
            _maybe_set(seed_dt, <int>dt, "seed_dt")
            _maybe_set(use_offset, off, "use_offset")
            _maybe_set(use_host_scalars, host, "use_host_scalars")
            if out is not None:
                (<_handle>out).adopt(<c.obj_header *>&md.hdr)
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_dropout_v2(attr, mask_desc, seed_dt, use_offset, use_host_scalars):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_dropout_v2(
            _mut(attr), _md(mask_desc, "mask_desc"), <dnnl_data_type_t>_enum(seed_dt, "seed_dt"),
            _int32(use_offset, "use_offset"), _int32(use_host_scalars, "use_host_scalars"))
    except Exception as err:
        return _bad(err)


# ------------------------------------------------------------ quantization


cdef c.dnnl_dim_t *_groups(object group_ndims, object group_dims, c.dnnl_dim_t *buf,
                           int *n) except? NULL:
    """group_dims (None: NULL) for group_ndims dims."""
    n[0] = _int32(group_ndims, "group_ndims")
    return _opt_dims(group_dims, buf, min(max(n[0], 0), DNNL_MAX_NDIMS), "group_dims")


def dnnl_primitive_attr_set_scales_mask(attr, arg, mask):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_scales_mask(_mut(attr), _int32(arg, "arg"),
                                                     _int32(mask, "mask"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_set_scales(attr, arg, mask, group_ndims, group_dims, data_type):
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, group_ndims, group_dims,
                                             data_type, 0, dnnl_quantization_mode_static_sazp)


def dnnl_primitive_attr_set_scales_v2(attr, arg, mask, group_ndims, group_dims, data_type,
                                      is_on_host):
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, group_ndims, group_dims,
                                             data_type, is_on_host,
                                             dnnl_quantization_mode_static_sazp)


def dnnl_primitive_attr_set_scales_v3(attr, arg, mask, group_ndims, group_dims, data_type,
                                      is_on_host, qmode):
    cdef c.dnnl_dims_t buf
    cdef int n
    c.cydnnl_clear_error()
    try:
        a = _mut(attr)
        g = _groups(group_ndims, group_dims, buf, &n)
        return c.dnnl_primitive_attr_set_scales_v3(
            a, _int32(arg, "arg"), _int32(mask, "mask"), n, g,
            <dnnl_data_type_t>_enum(data_type, "data_type"), _int32(is_on_host, "is_on_host"),
            <dnnl_quantization_mode_t>_enum(qmode, "qmode"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_set_zero_points_mask(attr, arg, mask):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_zero_points_mask(_mut(attr), _int32(arg, "arg"),
                                                          _int32(mask, "mask"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_set_zero_points(attr, arg, mask, group_ndims, group_dims, data_type):
    return dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, group_ndims, group_dims,
                                                  data_type, 0)


def dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, group_ndims, group_dims, data_type,
                                           is_on_host):
    cdef c.dnnl_dims_t buf
    cdef int n
    c.cydnnl_clear_error()
    try:
        a = _mut(attr)
        g = _groups(group_ndims, group_dims, buf, &n)
        return c.dnnl_primitive_attr_set_zero_points_v2(
            a, _int32(arg, "arg"), _int32(mask, "mask"), n, g,
            <dnnl_data_type_t>_enum(data_type, "data_type"), _int32(is_on_host, "is_on_host"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_set_precomputed_reductions(attr, arg, mask, group_ndims, group_dims,
                                                   data_type):
    cdef c.dnnl_dims_t buf
    cdef int n
    c.cydnnl_clear_error()
    try:
        a = _mut(attr)
        g = _groups(group_ndims, group_dims, buf, &n)
        return c.dnnl_primitive_attr_set_precomputed_reductions(
            a, _int32(arg, "arg"), _int32(mask, "mask"), n, g,
            <dnnl_data_type_t>_enum(data_type, "data_type"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_set_rnn_data_qparams(attr, scale, shift):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_rnn_data_qparams(_mut(attr), _float(scale, "scale"),
                                                          _float(shift, "shift"))
    except Exception as err:
        return _bad(err)


def dnnl_primitive_attr_get_rnn_data_qparams(attr, scale, shift):
    cdef float sc = 0, sh = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_rnn_data_qparams(_const(attr), &sc, &sh)
        if st == dnnl_success:
            _maybe_set(scale, sc, "scale")
            _maybe_set(shift, sh, "shift")
    except Exception as err:
        return _bad(err)
    return st


cdef _set_wei(object attr, object count, object mask, object scales, bint projection):
    cdef float *buf = NULL
    cdef int64_t n, i
    c.cydnnl_clear_error()
    try:
        a = _mut(attr)
        n = _int(count, "count")
        m = _int32(mask, "mask")
        items = _seq(scales, "scales")
        if n > len(items):
            _fail("scales has %d entries; count is %d" % (len(items), n))
        buf = <float *>malloc(max(n, 1) * sizeof(float))
        if buf == NULL:
            raise MemoryError()
        for i in range(max(n, 0)):
            buf[i] = _float(items[i], "scales[%d]" % i)
        if projection:
            st = c.dnnl_primitive_attr_set_rnn_weights_projection_qparams(a, n, m, buf)
        else:
            st = c.dnnl_primitive_attr_set_rnn_weights_qparams(a, n, m, buf)
    except Exception as err:
        st = _bad(err)
    free(buf)
    return st


cdef _get_wei(object attr, object count, object mask, object scales, bint projection):
    cdef c.dnnl_dim_t n = 0
    cdef int m = 0
    cdef const float *s = NULL
    c.cydnnl_clear_error()
    try:
        if projection:
            st = c.dnnl_primitive_attr_get_rnn_weights_projection_qparams(_const(attr), &n, &m,
                                                                          &s)
        else:
            st = c.dnnl_primitive_attr_get_rnn_weights_qparams(_const(attr), &n, &m, &s)
        if st == dnnl_success:
            _maybe_set(count, n, "count")
            _maybe_set(mask, m, "mask")
            _maybe_set(scales, [s[i] for i in range(n)], "scales")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_rnn_weights_qparams(attr, count, mask, scales):
    """scales: a sequence of at least count floats."""
    return _set_wei(attr, count, mask, scales, False)


def dnnl_primitive_attr_get_rnn_weights_qparams(attr, count, mask, scales):
    """scales[0] receives the scales as a list of floats."""
    return _get_wei(attr, count, mask, scales, False)


def dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr, count, mask, scales):
    return _set_wei(attr, count, mask, scales, True)


def dnnl_primitive_attr_get_rnn_weights_projection_qparams(attr, count, mask, scales):
    return _get_wei(attr, count, mask, scales, True)
