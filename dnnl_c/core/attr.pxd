# Primitive attributes (see attr.pyx).

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

cdef bint attr_ok(const dnnl_primitive_attr *attr) noexcept nogil
cdef void attr_default(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil
