# Primitive attributes: scratchpad mode and fpmath mode (oneDNN's
# primitive_attr.cpp).

from libc.stdlib cimport malloc

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail
from dnnl_c.core.objects cimport header_init, obj_alive, obj_destroy


cdef bint attr_ok(const dnnl_primitive_attr *attr) noexcept nogil:
    return obj_alive(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR)


cdef void attr_default(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil:
    header_init(&attr.hdr, OBJ_PRIMITIVE_ATTR, owner, NULL)
    attr.scratchpad_mode = dnnl_scratchpad_mode_library
    attr.fpmath_mode = dnnl_fpmath_mode_strict
    attr.fpmath_apply_to_int = 0


cdef dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) noexcept nogil:
    if attr == NULL:
        return fail(dnnl_invalid_arguments, "attr: NULL output pointer")
    cdef dnnl_primitive_attr *a = <dnnl_primitive_attr *>malloc(sizeof(dnnl_primitive_attr))
    if a == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    attr_default(a, NULL)
    attr[0] = a
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) noexcept nogil:
    if attr == NULL or not attr_ok(existing_attr):
        return fail(dnnl_invalid_arguments, "attr: NULL output or dead attr")
    cdef dnnl_primitive_attr *a = <dnnl_primitive_attr *>malloc(sizeof(dnnl_primitive_attr))
    if a == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    a[0] = existing_attr[0]
    header_init(&a.hdr, OBJ_PRIMITIVE_ATTR, NULL, NULL)
    attr[0] = a
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) noexcept nogil:
    return obj_destroy(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR, "attr")


cdef dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) noexcept nogil:
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = attr.scratchpad_mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) noexcept nogil:
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
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
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    if mode < dnnl_fpmath_mode_strict or mode > dnnl_fpmath_mode_tf32:
        return fail(dnnl_invalid_arguments, "attr: unknown fpmath mode")
    attr.fpmath_mode = mode
    return dnnl_success
