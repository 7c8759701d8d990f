# Engines (cpu only) and streams (execution is synchronous).

from dnnl_c.core.types cimport *

cdef size_t dnnl_engine_get_count(dnnl_engine_kind_t kind) noexcept nogil
cdef dnnl_status_t dnnl_engine_create(dnnl_engine_t *engine, dnnl_engine_kind_t kind,
                                      size_t index) noexcept nogil
cdef dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine,
                                        dnnl_engine_kind_t *kind) noexcept nogil
cdef dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) noexcept nogil

cdef dnnl_status_t dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
                                      unsigned flags) noexcept nogil
cdef dnnl_status_t dnnl_stream_get_engine(const_dnnl_stream_t stream,
                                          dnnl_engine_t *engine) noexcept nogil
cdef dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) noexcept nogil
cdef dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) noexcept nogil

cdef bint engine_ok(const dnnl_engine *engine) noexcept nogil
cdef bint stream_ok(const dnnl_stream *stream) noexcept nogil
