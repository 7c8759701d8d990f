# Primitive attributes (see attr.pyx; quantization in attr_quant.pxd,
# post-ops in post_ops.pxd).

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_fpmath_mode_v2(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode,
        int *apply_to_int) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_fpmath_mode_v2(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode, int apply_to_int) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_accumulation_mode(
        const_dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_accumulation_mode(
        dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_deterministic(
        const_dnnl_primitive_attr_t attr, int *value) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_deterministic(
        dnnl_primitive_attr_t attr, int value) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_dropout(
        const_dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t *mask_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_dropout(
        dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t mask_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_dropout_v2(
        const_dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t *mask_desc,
        dnnl_data_type_t *seed_dt, int *use_offset, int *use_host_scalars) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_dropout_v2(
        dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t mask_desc,
        dnnl_data_type_t seed_dt, int use_offset, int use_host_scalars) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t mode) noexcept nogil
cdef dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode) noexcept nogil

# ------------------------------------------- for the primitive descriptors

cdef bint attr_ok(const dnnl_primitive_attr *attr) noexcept nogil
# Default attributes (the fpmath mode: dnnl_get_default_fpmath_mode's).
cdef void attr_default(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil
# attr lives in owner; the handles inside it (post-ops, dropout md) in attr.
cdef void attr_set_owner(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil
# dnnl_unimplemented (with a message naming it) when attr sets an attribute
# no implementation honours: post-ops, scales, zero points, precomputed
# reductions, stochastic rounding, dropout, RNN qparams, s32 or f16 accumulation.
cdef dnnl_status_t attr_check_honoured(const dnnl_primitive_attr *attr) noexcept nogil
# What a primitive descriptor keeps of attributes that passed the check: the
# modes; everything else at its default (so nothing on the heap). src NULL:
# the defaults.
cdef void attr_copy_honoured(dnnl_primitive_attr *dst,
                             const dnnl_primitive_attr *src) noexcept nogil
# Equal in what a primitive descriptor keeps.
cdef bint attr_equal(const dnnl_primitive_attr *a, const dnnl_primitive_attr *b) noexcept nogil
