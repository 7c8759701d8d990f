# Memories (see memory.pyx).

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
                                      const_dnnl_memory_desc_t memory_desc,
                                      dnnl_engine_t engine, void *handle) noexcept nogil
cdef dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
                                         const_dnnl_memory_desc_t memory_desc,
                                         dnnl_engine_t engine, int nhandles,
                                         void **handles) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_memory_desc(
        const_dnnl_memory_t memory, const_dnnl_memory_desc_t *memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_engine(const_dnnl_memory_t memory,
                                          dnnl_engine_t *engine) noexcept nogil
cdef dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory,
                                        void **mapped_ptr) noexcept nogil
cdef dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory,
                                          void *mapped_ptr) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory,
                                               void **handle) noexcept nogil
cdef dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory,
                                               void *handle) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory,
                                                  void **handle, int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle,
                                                  int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_map_data_v2(const_dnnl_memory_t memory, void **mapped_ptr,
                                           int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_unmap_data_v2(const_dnnl_memory_t memory, void *mapped_ptr,
                                             int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_create_host_scalar(dnnl_memory_t *memory,
                                                  const_dnnl_memory_desc_t memory_desc,
                                                  void *scalar_ptr) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_host_scalar_value(const_dnnl_memory_t memory,
                                                     void *value) noexcept nogil
cdef dnnl_status_t dnnl_memory_set_host_scalar_value(dnnl_memory_t memory,
                                                     const void *value) noexcept nogil
cdef dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) noexcept nogil
# Declares how many bytes a user handle holds, so execute can check bounds.
cdef dnnl_status_t cydnnl_memory_set_capacity(dnnl_memory_t memory,
                                              size_t capacity) noexcept nogil

cdef bint mem_ok(const dnnl_memory *mem) noexcept nogil
