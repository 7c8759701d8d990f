# Handles and their lifetime: reference counts, ownership, destroy.

from dnnl_c.core.types cimport *

cdef void header_init(obj_header *hdr, int kind, obj_header *owner,
                      obj_free_fn free_fn) noexcept nogil
cdef void obj_retain(obj_header *obj) noexcept nogil
cdef void obj_release(obj_header *obj) noexcept nogil
# A handle of this kind that nobody destroyed, nor anything it lives in.
cdef bint obj_alive(const obj_header *obj, int kind) noexcept nogil
# oneDNN's dnnl_*_destroy: NULL is fine; a borrowed handle is not ours.
cdef dnnl_status_t obj_destroy(obj_header *obj, int kind, const char *what) noexcept nogil
