# The Python-level C API on post-ops and an attr's post-ops. Outputs C
# allows to be NULL may be None here.

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


cdef c.dnnl_post_ops_t _po(object post_ops) except? NULL:
    return <c.dnnl_post_ops_t>_in(post_ops, dnnl_post_ops_t, "post_ops")


cdef int _maybe_set(object out, object value, str name) except -1:
    if out is not None:
        _set_out(out, value, name)
    return 0


def dnnl_post_ops_create(post_ops):
    cdef c.dnnl_post_ops_t p = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(post_ops, dnnl_post_ops_t, "post_ops")
        st = c.dnnl_post_ops_create(&p)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &p.hdr)
    return st


def dnnl_post_ops_clone(post_ops, existing_post_ops):
    cdef c.dnnl_post_ops_t p = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(post_ops, dnnl_post_ops_t, "post_ops")
        st = c.dnnl_post_ops_clone(&p, _po(existing_post_ops))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &p.hdr)
    return st


def dnnl_post_ops_destroy(post_ops):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_destroy(_po(post_ops))
    except Exception as err:
        return _bad(err)


def dnnl_post_ops_len(post_ops):
    """The number of post-ops (0 for anything that is not live post-ops, as in C)."""
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_len(_po(post_ops))
    except Exception as err:
        _bad(err)
        return 0


def dnnl_post_ops_get_kind(post_ops, index):
    """The kind of the post-op at index (dnnl_undefined_primitive when there is none)."""
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_get_kind(_po(post_ops), _int32(index, "index"))
    except Exception as err:
        _bad(err)
        return dnnl_undefined_primitive


def dnnl_post_ops_append_sum(post_ops, scale, zero_point, data_type):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_append_sum(_po(post_ops), _float(scale, "scale"),
                                          _int32(zero_point, "zero_point"),
                                          <dnnl_data_type_t>_enum(data_type, "data_type"))
    except Exception as err:
        return _bad(err)


def dnnl_post_ops_get_params_sum(post_ops, index, scale, zero_point, data_type):
    cdef float s = 0
    cdef int zp = 0
    cdef dnnl_data_type_t dt = dnnl_data_type_undef
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_post_ops_get_params_sum(_po(post_ops), _int32(index, "index"), &s, &zp, &dt)
        if st == dnnl_success:
            _maybe_set(scale, s, "scale")
            _maybe_set(zero_point, zp, "zero_point")
            _maybe_set(data_type, <int>dt, "data_type")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_post_ops_append_eltwise(post_ops, alg_kind, alpha, beta):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_append_eltwise(_po(post_ops),
                                              <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
                                              _float(alpha, "alpha"), _float(beta, "beta"))
    except Exception as err:
        return _bad(err)


def dnnl_post_ops_get_params_eltwise(post_ops, index, alg_kind, alpha, beta):
    cdef dnnl_alg_kind_t alg = dnnl_alg_kind_undef
    cdef float a = 0, b = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_post_ops_get_params_eltwise(_po(post_ops), _int32(index, "index"), &alg,
                                                &a, &b)
        if st == dnnl_success:
            _maybe_set(alg_kind, <int>alg, "alg_kind")
            _maybe_set(alpha, a, "alpha")
            _maybe_set(beta, b, "beta")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_post_ops_append_dw(post_ops, weights_data_type, bias_data_type, dst_data_type,
                            kernel_size, stride_size, padding_l_size):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_append_dw(
            _po(post_ops), <dnnl_data_type_t>_enum(weights_data_type, "weights_data_type"),
            <dnnl_data_type_t>_enum(bias_data_type, "bias_data_type"),
            <dnnl_data_type_t>_enum(dst_data_type, "dst_data_type"),
            _int(kernel_size, "kernel_size"), _int(stride_size, "stride_size"),
            _int(padding_l_size, "padding_l_size"))
    except Exception as err:
        return _bad(err)


def dnnl_post_ops_get_params_dw(post_ops, index, weights_data_type, bias_data_type,
                                dst_data_type, kernel_size, stride_size, padding_l_size):
    cdef dnnl_data_type_t w = dnnl_data_type_undef, b = dnnl_data_type_undef
    cdef dnnl_data_type_t d = dnnl_data_type_undef
    cdef c.dnnl_dim_t k = 0, s = 0, p = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_post_ops_get_params_dw(_po(post_ops), _int32(index, "index"), &w, &b, &d,
                                           &k, &s, &p)
        if st == dnnl_success:
            _maybe_set(weights_data_type, <int>w, "weights_data_type")
            _maybe_set(bias_data_type, <int>b, "bias_data_type")
            _maybe_set(dst_data_type, <int>d, "dst_data_type")
            _maybe_set(kernel_size, k, "kernel_size")
            _maybe_set(stride_size, s, "stride_size")
            _maybe_set(padding_l_size, p, "padding_l_size")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_post_ops_append_binary(post_ops, alg_kind, src1_desc):
    return dnnl_post_ops_append_binary_v2(post_ops, alg_kind, src1_desc, None)


def dnnl_post_ops_append_binary_v2(post_ops, alg_kind, src1_desc, src2_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_append_binary_v2(
            _po(post_ops), <dnnl_alg_kind_t>_enum(alg_kind, "alg_kind"),
            _md(src1_desc, "src1_desc"), _md(src2_desc, "src2_desc"))
    except Exception as err:
        return _bad(err)


def dnnl_post_ops_get_params_binary(post_ops, index, alg_kind, src1_desc):
    return dnnl_post_ops_get_params_binary_v2(post_ops, index, alg_kind, src1_desc, None)


def dnnl_post_ops_get_params_binary_v2(post_ops, index, alg_kind, src1_desc, src2_desc):
    """src1_desc, src2_desc: dnnl_memory_desc_t handles to fill in (or None)."""
    cdef dnnl_alg_kind_t alg = dnnl_alg_kind_undef
    cdef c.const_dnnl_memory_desc_t s1 = NULL
    cdef c.const_dnnl_memory_desc_t s2 = NULL
    c.cydnnl_clear_error()
    try:
        o1 = None if src1_desc is None else _out(src1_desc, dnnl_memory_desc_t, "src1_desc")
        o2 = None if src2_desc is None else _out(src2_desc, dnnl_memory_desc_t, "src2_desc")
        st = c.dnnl_post_ops_get_params_binary_v2(_po(post_ops), _int32(index, "index"), &alg,
                                                  &s1, &s2)
        if st == dnnl_success:
            _maybe_set(alg_kind, <int>alg, "alg_kind")
            if o1 is not None:
                (<_handle>o1).adopt(<c.obj_header *>&s1.hdr)
            if o2 is not None:
                (<_handle>o2).adopt(<c.obj_header *>&s2.hdr)
    except Exception as err:
        return _bad(err)
    return st


def dnnl_post_ops_append_prelu(post_ops, mask):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_post_ops_append_prelu(_po(post_ops), _int32(mask, "mask"))
    except Exception as err:
        return _bad(err)


def dnnl_post_ops_get_params_prelu(post_ops, index, mask):
    cdef int m = 0
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_post_ops_get_params_prelu(_po(post_ops), _int32(index, "index"), &m)
        if st == dnnl_success:
            _maybe_set(mask, m, "mask")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_get_post_ops(attr, post_ops):
    """post_ops: a dnnl_post_ops_t to fill in with the attr's own (read-only) chain."""
    cdef c.const_dnnl_post_ops_t p = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(post_ops, dnnl_post_ops_t, "post_ops")
        st = c.dnnl_primitive_attr_get_post_ops(
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"), &p)
        if st == dnnl_success:
            out.adopt(<c.obj_header *>&p.hdr)
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_post_ops(attr, post_ops):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_post_ops(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"), _po(post_ops))
    except Exception as err:
        return _bad(err)
