# Memories: a memory descriptor and a data handle, the library's own
# buffer or the user's (oneDNN's memory.cpp).

from libc.stdlib cimport calloc, free
from libc.string cimport memcpy
from libc.stdint cimport uintptr_t

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail
from dnnl_c.core.objects cimport header_init, obj_retain, obj_release, obj_alive, obj_destroy
from dnnl_c.core.memory_desc_wrapper cimport md_zero, md_extent, md_check_size, dt_size
from dnnl_c.core.memory_desc cimport md_ok
from dnnl_c.core.engine_stream cimport engine_ok
from dnnl_c.kernels.alloc cimport cydnnl_calloc, cydnnl_free

DEF ALIGN = 64
cdef char *MEMORY_ALLOCATE = <char *>(<uintptr_t>-1)


cdef void memory_free(obj_header *obj) noexcept nogil:
    cdef dnnl_memory *mem = <dnnl_memory *>obj
    cydnnl_free(mem.own_data)
    obj_release(&mem.engine.hdr)
    free(mem)


cdef bint mem_ok(const dnnl_memory *mem) noexcept nogil:
    return obj_alive(&mem.hdr if mem != NULL else NULL, OBJ_MEMORY)


cdef dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
                                      const_dnnl_memory_desc_t memory_desc,
                                      dnnl_engine_t engine, void *handle) noexcept nogil:
    if memory == NULL:
        return fail(dnnl_invalid_arguments, "memory: NULL output pointer")
    if not engine_ok(engine):
        return fail(dnnl_invalid_arguments, "memory: engine is not a live engine")
    if memory_desc != NULL and not md_ok(memory_desc):
        return fail(dnnl_invalid_arguments, "memory: the memory desc is not live")
    cdef md_t md
    if memory_desc == NULL:
        md_zero(&md)
    else:
        md = memory_desc.md
    if md.format_kind == dnnl_format_kind_host_scalar:
        return fail(dnnl_invalid_arguments, "memory: a host scalar descriptor makes a "
                    "memory with dnnl_memory_create_host_scalar")
    if md.ndims != 0 and md.format_kind != dnnl_blocked:
        return fail(dnnl_invalid_arguments,
                    "memory: the memory desc has format any; query the primitive "
                    "descriptor for the layout it chose")
    # sizes that overflow would make a short buffer (or none) look right
    if md_check_size(&md) != dnnl_success:
        return dnnl_invalid_arguments
    cdef dnnl_memory *mem = <dnnl_memory *>calloc(1, sizeof(dnnl_memory))
    if mem == NULL:
        return fail(dnnl_out_of_memory, "memory: out of memory")
    header_init(&mem.hdr, OBJ_MEMORY, NULL, memory_free)
    header_init(&mem.md.hdr, OBJ_MEMORY_DESC, &mem.hdr, NULL)
    mem.md.md = md
    cdef size_t n
    if <char *>handle == MEMORY_ALLOCATE:
        # Zero-filled, so padding is zero and results are repeatable.
        n = md_extent(&md)
        if n > 0:
            mem.own_data = <char *>cydnnl_calloc(n, ALIGN)
            if mem.own_data == NULL:
                free(mem)
                return fail(dnnl_out_of_memory, "memory: cannot allocate the buffer")
            mem.handle = mem.own_data
            mem.own_size = n
            mem.capacity = n
    else:
        mem.handle = <char *>handle
    mem.engine = engine
    obj_retain(&engine.hdr)
    memory[0] = mem
    return dnnl_success


cdef dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
                                         const_dnnl_memory_desc_t memory_desc,
                                         dnnl_engine_t engine, int nhandles,
                                         void **handles) noexcept nogil:
    if nhandles != 1 or handles == NULL:
        return fail(dnnl_invalid_arguments, "memory: dense formats take exactly one handle")
    return dnnl_memory_create(memory, memory_desc, engine, handles[0])


cdef dnnl_status_t dnnl_memory_get_memory_desc(
        const_dnnl_memory_t memory, const_dnnl_memory_desc_t *memory_desc) noexcept nogil:
    if not mem_ok(memory) or memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    memory_desc[0] = &memory.md
    return dnnl_success


cdef dnnl_status_t dnnl_memory_get_engine(const_dnnl_memory_t memory,
                                          dnnl_engine_t *engine) noexcept nogil:
    if not mem_ok(memory) or engine == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    engine[0] = memory.engine
    return dnnl_success


cdef inline bint is_host_scalar(const dnnl_memory *mem) noexcept nogil:
    return mem.md.md.format_kind == dnnl_format_kind_host_scalar


cdef dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory,
                                               void **handle) noexcept nogil:
    if not mem_ok(memory) or handle == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    if is_host_scalar(memory):
        return fail(dnnl_invalid_arguments, "memory: a host scalar has a value, not a "
                    "data handle")
    handle[0] = memory.handle
    return dnnl_success


cdef dnnl_status_t dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory,
                                                  void **handle, int index) noexcept nogil:
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory: handle index must be 0")
    return dnnl_memory_get_data_handle(memory, handle)


cdef dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory,
                                               void *handle) noexcept nogil:
    if not mem_ok(memory):
        return fail(dnnl_invalid_arguments, "memory: not a live memory")
    if is_host_scalar(memory):
        return fail(dnnl_invalid_arguments, "memory: a host scalar has a value, not a "
                    "data handle")
    if <char *>handle == MEMORY_ALLOCATE:
        return fail(dnnl_invalid_arguments, "memory: DNNL_MEMORY_ALLOCATE is not a handle")
    memory.handle = <char *>handle
    # inside the library's own buffer: what is left of it from there
    memory.capacity = memory.own_size - <size_t>(<char *>handle - memory.own_data) if (
        handle != NULL and memory.own_data != NULL and <char *>handle >= memory.own_data
        and <char *>handle < memory.own_data + memory.own_size) else 0
    return dnnl_success


cdef dnnl_status_t dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle,
                                                  int index) noexcept nogil:
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory: handle index must be 0")
    return dnnl_memory_set_data_handle(memory, handle)


cdef dnnl_status_t cydnnl_memory_set_capacity(dnnl_memory_t memory,
                                              size_t capacity) noexcept nogil:
    if not mem_ok(memory):
        return fail(dnnl_invalid_arguments, "memory: not a live memory")
    memory.capacity = capacity
    return dnnl_success


cdef dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory,
                                        void **mapped_ptr) noexcept nogil:
    return dnnl_memory_map_data_v2(memory, mapped_ptr, 0)


cdef dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory,
                                          void *mapped_ptr) noexcept nogil:
    return dnnl_memory_unmap_data_v2(memory, mapped_ptr, 0)


# CPU memory is host memory: mapping gives the buffer itself. Our memories
# have one buffer (index 0).
cdef dnnl_status_t dnnl_memory_map_data_v2(const_dnnl_memory_t memory, void **mapped_ptr,
                                           int index) noexcept nogil:
    if not mem_ok(memory) or mapped_ptr == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory: buffer index must be 0")
    mapped_ptr[0] = memory.handle
    return dnnl_success


cdef dnnl_status_t dnnl_memory_unmap_data_v2(const_dnnl_memory_t memory, void *mapped_ptr,
                                             int index) noexcept nogil:
    if not mem_ok(memory):
        return fail(dnnl_invalid_arguments, "memory: not a live memory")
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory: buffer index must be 0")
    if mapped_ptr != NULL and mapped_ptr != memory.handle:
        return fail(dnnl_invalid_arguments, "memory: not the pointer map_data gave")
    return dnnl_success

# ------------------------------------------------------------ host scalars


cdef dnnl_status_t dnnl_memory_create_host_scalar(dnnl_memory_t *memory,
                                                  const_dnnl_memory_desc_t memory_desc,
                                                  void *scalar_ptr) noexcept nogil:
    """A memory holding a copy of one value, with no engine (oneDNN's
    host_scalar_memory_storage_t)."""
    if memory == NULL or scalar_ptr == NULL or not md_ok(memory_desc):
        return fail(dnnl_invalid_arguments, "memory: NULL or dead argument")
    if memory_desc.md.format_kind != dnnl_format_kind_host_scalar:
        return fail(dnnl_invalid_arguments, "memory: not a host scalar descriptor")
    cdef size_t n = dt_size(memory_desc.md.data_type)
    cdef dnnl_memory *mem = <dnnl_memory *>calloc(1, sizeof(dnnl_memory))
    if mem == NULL:
        return fail(dnnl_out_of_memory, "memory: out of memory")
    mem.own_data = <char *>cydnnl_calloc(n if n > 0 else 1, ALIGN)
    if mem.own_data == NULL:
        free(mem)
        return fail(dnnl_out_of_memory, "memory: out of memory")
    header_init(&mem.hdr, OBJ_MEMORY, NULL, memory_free)
    header_init(&mem.md.hdr, OBJ_MEMORY_DESC, &mem.hdr, NULL)
    mem.md.md = memory_desc.md
    memcpy(mem.own_data, scalar_ptr, n)
    mem.handle = mem.own_data
    mem.own_size = mem.capacity = n
    mem.engine = NULL
    memory[0] = mem
    return dnnl_success


cdef dnnl_status_t dnnl_memory_get_host_scalar_value(const_dnnl_memory_t memory,
                                                     void *value) noexcept nogil:
    if not mem_ok(memory) or value == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    if not is_host_scalar(memory):
        return fail(dnnl_invalid_arguments, "memory: not a host scalar memory")
    memcpy(value, memory.handle, dt_size(memory.md.md.data_type))
    return dnnl_success


cdef dnnl_status_t dnnl_memory_set_host_scalar_value(dnnl_memory_t memory,
                                                     const void *value) noexcept nogil:
    if not mem_ok(memory) or value == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL value")
    if not is_host_scalar(memory):
        return fail(dnnl_invalid_arguments, "memory: not a host scalar memory")
    memcpy(memory.handle, value, dt_size(memory.md.md.data_type))
    return dnnl_success


cdef dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) noexcept nogil:
    return obj_destroy(&memory.hdr if memory != NULL else NULL, OBJ_MEMORY, "memory")
