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
# md_set_tag, md_init_by_blocking and md_copy_layout change nothing when
# they fail (a layout that does not fit is dnnl_invalid_arguments).
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
# md (dims set) takes inner blocks blks on dims idxs and dense outer strides
# in `order` (outermost first), padded to whole blocks: a layout no format
# tag names (oneDNN's memory_desc_init_by_blocking_desc).
cdef dnnl_status_t md_set_blocked(md_t *md, const int *order, int nblks,
                                  const dnnl_dim_t *blks, const dnnl_dim_t *idxs) noexcept nogil
cdef bint md_is_plain(const md_t *md) noexcept nogil
# The product of the (padded) dims; -1 when it overflows int64 (never for
# an md the constructors made).
cdef dnnl_dim_t md_nelems(const md_t *md, bint padded) noexcept nogil
# SIZE_MAX when it overflows.
cdef size_t elems_to_bytes(const md_t *md, size_t n) noexcept nogil
# The one rule for representable sizes: true when md's padded element count
# fits int64 and its dense byte count, byte size (size, offset0 excluded)
# and extent (extent) fit CYDNNL_MAX_BYTES, computed without overflow.
cdef bint md_bytes(const md_t *md, size_t *size, size_t *extent) noexcept nogil
# dnnl_invalid_arguments (with a message) when md breaks that rule; every
# constructor here checks its result with it.
cdef dnnl_status_t md_check_size(const md_t *md) noexcept nogil
# oneDNN's memory_desc_wrapper::size(); 0 when not representable.
cdef size_t md_size(const md_t *md) noexcept nogil
# Bytes from the handle to one past the last element md addresses; 0 when
# not representable.
cdef size_t md_extent(const md_t *md) noexcept nogil
cdef void md_dim_offsets(const md_t *md, int d, dnnl_dim_t n,
                         dnnl_dim_t *table) noexcept nogil
cdef dnnl_dim_t md_offset(const md_t *md, const dnnl_dim_t *pos) noexcept nogil
# A plain dense layout (abc...) of md's dims in data type dt.
cdef dnnl_status_t md_plain(md_t *out, const md_t *md, dnnl_data_type_t dt) noexcept nogil
# out takes in's layout (blocking, strides, padding) and keeps its data type.
cdef dnnl_status_t md_copy_layout(md_t *out, const md_t *layout) noexcept nogil
# 'f32:aBcd8b' or 'f32:strides(...)'; '' for zero mds.
cdef void md_describe(const md_t *md, char *buf, size_t n) noexcept nogil
# '8x3x227x227'
cdef void dims_describe(const md_t *md, char *buf, size_t n) noexcept nogil
