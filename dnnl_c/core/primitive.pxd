# Primitives and their execution (oneDNN's primitive.cpp and primitive_exec_types).

from libc.stdint cimport uint8_t
from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_primitive_create(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_execute(
        const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs,
        const dnnl_exec_arg_t *args) noexcept nogil
cdef dnnl_status_t dnnl_primitive_get_primitive_desc(
        const_dnnl_primitive_t primitive,
        const_dnnl_primitive_desc_t *primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive) noexcept nogil
cdef dnnl_status_t dnnl_primitive_get_cache_blob(const_dnnl_primitive_t primitive, size_t *size,
                                                 uint8_t *cache_blob) noexcept nogil
cdef dnnl_status_t dnnl_primitive_create_from_cache_blob(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc, size_t size,
        const uint8_t *cache_blob) noexcept nogil

# ------------------------------------------- for the implementations

cdef const exec_arg_t *ctx_arg(const exec_ctx_t *ctx, int arg) noexcept nogil
# Address of the first element of an argument: handle + offset0 (NULL if absent).
cdef char *ctx_data(const exec_ctx_t *ctx, int arg) noexcept nogil
