# The C API on memory descriptors (see memory_desc.pyx).

from libc.stdint cimport uint8_t
from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_memory_desc_create_with_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, dnnl_format_tag_t tag) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_create_with_strides(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, const dnnl_dim_t *strides) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_create_submemory(
        dnnl_memory_desc_t *memory_desc, const_dnnl_memory_desc_t parent_memory_desc,
        const dnnl_dim_t *dims, const dnnl_dim_t *offsets) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_reshape(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        int ndims, const dnnl_dim_t *dims) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_permute_axes(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        const int *permutation) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_clone(
        dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t existing_memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_query(const_dnnl_memory_desc_t memory_desc,
                                          dnnl_query_t what, void *result) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
                                             dnnl_query_t what, int index,
                                             void *result) noexcept nogil
cdef int dnnl_memory_desc_equal(const_dnnl_memory_desc_t lhs,
                                const_dnnl_memory_desc_t rhs) noexcept nogil
cdef size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc) noexcept nogil
cdef size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc,
                                         int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_create_host_scalar(
        dnnl_memory_desc_t *memory_desc, dnnl_data_type_t data_type) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_get_blob(uint8_t *blob, size_t *size,
                                             const_dnnl_memory_desc_t memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_create_with_blob(dnnl_memory_desc_t *memory_desc,
                                                     const uint8_t *blob) noexcept nogil
# The size of every blob dnnl_memory_desc_get_blob writes.
cdef size_t cydnnl_memory_desc_blob_size() noexcept nogil
# Bytes from the handle to one past the last element an md addresses.
cdef size_t cydnnl_memory_desc_extent(const_dnnl_memory_desc_t memory_desc) noexcept nogil

# A live memory descriptor handle.
cdef bint md_ok(const dnnl_memory_desc *md) noexcept nogil
