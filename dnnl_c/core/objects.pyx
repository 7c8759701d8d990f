# Handles and their lifetime (see objects.pxd). An object is freed when its
# last reference goes: the user's (dropped by destroy) and those of the
# objects and Python handles that point to it.

from libc.stdlib cimport free
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail, err_buf, ERR_LEN
from dnnl_c.core.util cimport cydnnl_atomic_add


cdef void header_init(obj_header *hdr, int kind, obj_header *owner,
                      obj_free_fn free_fn) noexcept nogil:
    hdr.kind = kind
    hdr.refcount = 1
    hdr.destroyed = 0
    hdr.owner = owner
    hdr.free = free_fn


cdef void obj_retain(obj_header *obj) noexcept nogil:
    if obj != NULL:
        cydnnl_atomic_add(&obj.refcount, 1)


cdef void obj_release(obj_header *obj) noexcept nogil:
    if obj != NULL and cydnnl_atomic_add(&obj.refcount, -1) == 0:
        if obj.free != NULL:
            obj.free(obj)
        else:
            free(obj)


cdef bint obj_alive(const obj_header *obj, int kind) noexcept nogil:
    if obj == NULL or obj.kind != kind:
        return False
    while obj != NULL:
        if obj.destroyed:
            return False
        obj = obj.owner
    return True


cdef dnnl_status_t obj_destroy(obj_header *obj, int kind, const char *what) noexcept nogil:
    if obj == NULL:
        return dnnl_success
    if obj.kind != kind or obj.destroyed:
        snprintf(err_buf(), ERR_LEN, "%s is not a live %s handle", what, what)
        return fail(dnnl_invalid_arguments, err_buf())
    if obj.owner != NULL:
        snprintf(err_buf(), ERR_LEN,
                 "%s belongs to another object and cannot be destroyed", what)
        return fail(dnnl_invalid_arguments, err_buf())
    obj.destroyed = 1
    obj_release(obj)
    return dnnl_success
