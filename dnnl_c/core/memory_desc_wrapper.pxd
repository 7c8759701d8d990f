# Memory descriptor algebra on md_t (see memory_desc_wrapper.pyx).

from dnnl_c.core.types cimport *

cdef size_t dt_size(dnnl_data_type_t dt) noexcept nogil
cdef size_t dnnl_data_type_size(dnnl_data_type_t data_type) noexcept nogil
cdef void md_zero(md_t *md) noexcept nogil
cdef bint md_is_zero(const md_t *md) noexcept nogil
cdef bint md_is_any(const md_t *md) noexcept nogil
# oneDNN's memory_desc_sanity_check (runtime dims are not supported).
cdef dnnl_status_t sanity_status(int ndims, const dnnl_dim_t *dims,
                                 dnnl_data_type_t dt) noexcept nogil
# The product of the inner blocks of each dim (1 when not blocked).
cdef void md_blocks(const md_t *md, dnnl_dim_t *blocks) noexcept nogil
cdef dnnl_status_t md_set_tag(md_t *md, dnnl_format_tag_t tag) noexcept nogil
cdef dnnl_status_t md_init_by_tag(md_t *md, int ndims, const dnnl_dim_t *dims,
                                  dnnl_data_type_t data_type,
                                  dnnl_format_tag_t tag) noexcept nogil
cdef dnnl_status_t md_init_by_strides(md_t *md, int ndims, const dnnl_dim_t *dims,
                                      dnnl_data_type_t data_type,
                                      const dnnl_dim_t *strides) noexcept nogil
cdef bint md_equal(const md_t *lhs, const md_t *rhs) noexcept nogil
cdef bint md_matches_tag(const md_t *md, dnnl_format_tag_t tag) noexcept nogil
# out (dims and data type set) takes layout's blocking, dense, on its own
# dims (oneDNN's memory_desc_init_by_blocking_desc).
cdef dnnl_status_t md_init_by_blocking(md_t *out, const md_t *layout) noexcept nogil
cdef bint md_is_plain(const md_t *md) noexcept nogil
cdef dnnl_dim_t md_nelems(const md_t *md, bint padded) noexcept nogil
cdef size_t elems_to_bytes(const md_t *md, size_t n) noexcept nogil
cdef size_t md_size(const md_t *md) noexcept nogil
# Bytes from the handle to one past the last element md addresses.
cdef size_t md_extent(const md_t *md) noexcept nogil
cdef void md_dim_offsets(const md_t *md, int d, dnnl_dim_t n,
                         dnnl_dim_t *table) noexcept nogil
cdef dnnl_dim_t md_offset(const md_t *md, const dnnl_dim_t *pos) noexcept nogil
# A plain dense layout (abc...) of md's dims in data type dt.
cdef void md_plain(md_t *out, const md_t *md, dnnl_data_type_t dt) noexcept nogil
# out takes in's layout (blocking, strides, padding) and keeps its data type.
cdef dnnl_status_t md_copy_layout(md_t *out, const md_t *layout) noexcept nogil
# 'f32:aBcd8b' or 'f32:strides(...)'; '' for zero mds.
cdef void md_describe(const md_t *md, char *buf, size_t n) noexcept nogil
# '8x3x227x227'
cdef void dims_describe(const md_t *md, char *buf, size_t n) noexcept nogil
