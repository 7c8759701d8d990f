# Engines (cpu only) and streams (see engine_stream.pxd).

from libc.stdlib cimport calloc, free
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail, fail_error, err_buf, ERR_LEN, dnnl_engine_kind2str
from dnnl_c.core.objects cimport header_init, obj_retain, obj_release, obj_alive, obj_destroy


cdef void stream_free(obj_header *obj) noexcept nogil:
    obj_release(&(<dnnl_stream *>obj).engine.hdr)
    free(obj)


cdef size_t dnnl_engine_get_count(dnnl_engine_kind_t kind) noexcept nogil:
    return 1 if kind == dnnl_cpu else 0


cdef dnnl_status_t dnnl_engine_create(dnnl_engine_t *engine, dnnl_engine_kind_t kind,
                                      size_t index) noexcept nogil:
    if engine == NULL:
        return fail(dnnl_invalid_arguments, "engine: NULL output pointer")
    # oneDNN reports a missing engine as a runtime error (VERROR_ENGINE)
    if kind != dnnl_cpu:
        snprintf(err_buf(), ERR_LEN, "no %s engine in this build",
                 dnnl_engine_kind2str(kind))
        return fail_error(dnnl_invalid_arguments, "runtime", err_buf())
    if index >= dnnl_engine_get_count(kind):
        snprintf(err_buf(), ERR_LEN, "cpu engine index %zu out of range (1 engine)",
                 index)
        return fail_error(dnnl_invalid_arguments, "runtime", err_buf())
    cdef dnnl_engine *e = <dnnl_engine *>calloc(1, sizeof(dnnl_engine))
    if e == NULL:
        return fail(dnnl_out_of_memory, "engine: out of memory")
    header_init(&e.hdr, OBJ_ENGINE, NULL, NULL)
    e.kind = kind
    e.index = index
    engine[0] = e
    return dnnl_success


cdef bint engine_ok(const dnnl_engine *engine) noexcept nogil:
    return obj_alive(&engine.hdr if engine != NULL else NULL, OBJ_ENGINE)


cdef dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine,
                                        dnnl_engine_kind_t *kind) noexcept nogil:
    if not engine_ok(engine) or kind == NULL:
        return fail(dnnl_invalid_arguments, "engine: not a live engine or NULL output")
    kind[0] = engine.kind
    return dnnl_success


cdef dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) noexcept nogil:
    return obj_destroy(&engine.hdr if engine != NULL else NULL, OBJ_ENGINE, "engine")


cdef dnnl_status_t dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
                                      unsigned flags) noexcept nogil:
    if stream == NULL or not engine_ok(engine):
        return fail(dnnl_invalid_arguments, "stream: NULL output or engine not live")
    if flags & ~<unsigned>(dnnl_stream_in_order | dnnl_stream_out_of_order) or flags == 0:
        return fail(dnnl_invalid_arguments, "stream: unknown flags")
    cdef dnnl_stream *s = <dnnl_stream *>calloc(1, sizeof(dnnl_stream))
    if s == NULL:
        return fail(dnnl_out_of_memory, "stream: out of memory")
    header_init(&s.hdr, OBJ_STREAM, NULL, stream_free)
    s.engine = engine
    obj_retain(&engine.hdr)
    s.flags = flags
    stream[0] = s
    return dnnl_success


cdef bint stream_ok(const dnnl_stream *stream) noexcept nogil:
    return obj_alive(&stream.hdr if stream != NULL else NULL, OBJ_STREAM)


cdef dnnl_status_t dnnl_stream_get_engine(const_dnnl_stream_t stream,
                                          dnnl_engine_t *engine) noexcept nogil:
    if not stream_ok(stream) or engine == NULL:
        return fail(dnnl_invalid_arguments, "stream: not a live stream or NULL output")
    engine[0] = stream.engine
    return dnnl_success


cdef dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) noexcept nogil:
    # Execution is synchronous: when execute returns, the work is done.
    if not stream_ok(stream):
        return fail(dnnl_invalid_arguments, "stream: not a live stream")
    return dnnl_success


cdef dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) noexcept nogil:
    return obj_destroy(&stream.hdr if stream != NULL else NULL, OBJ_STREAM, "stream")
