# Memory descriptor algebra on md_t (oneDNN's memory_desc_wrapper and
# dnnl_memory_desc_init_*): layouts from tags, strides and blockings; sizes,
# extents and element offsets; equality. No handles here.

from libc.string cimport memset, memcpy
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.tables cimport *
from dnnl_c.core.verbose cimport fail, err_buf, ERR_LEN


cdef size_t dt_size(dnnl_data_type_t dt) noexcept nogil:
    if dt == dnnl_f32 or dt == dnnl_s32:
        return 4
    if dt == dnnl_bf16 or dt == dnnl_f16:
        return 2
    if dt == dnnl_f64 or dt == dnnl_s64:
        return 8
    if (dt == dnnl_s8 or dt == dnnl_u8 or dt == dnnl_boolean or dt == dnnl_f8_e5m2
            or dt == dnnl_f8_e4m3 or dt == dnnl_s4 or dt == dnnl_u4 or dt == dnnl_e8m0
            or dt == dnnl_f4_e2m1 or dt == dnnl_f4_e3m0):
        return 1
    return 0


cdef size_t dnnl_data_type_size(dnnl_data_type_t data_type) noexcept nogil:
    return dt_size(data_type)


cdef inline bint sub_byte(dnnl_data_type_t dt) noexcept nogil:
    return dt == dnnl_s4 or dt == dnnl_u4 or dt == dnnl_f4_e2m1 or dt == dnnl_f4_e3m0


cdef void md_zero(md_t *md) noexcept nogil:
    memset(md, 0, sizeof(md_t))


cdef bint md_is_zero(const md_t *md) noexcept nogil:
    return md.ndims == 0


cdef bint md_is_any(const md_t *md) noexcept nogil:
    return md.format_kind == dnnl_format_kind_any


cdef dnnl_status_t sanity_status(int ndims, const dnnl_dim_t *dims,
                                 dnnl_data_type_t dt) noexcept nogil:
    """oneDNN's memory_desc_sanity_check; runtime dims are not supported."""
    cdef int d
    if dims == NULL or ndims <= 0 or ndims > DNNL_MAX_NDIMS:
        snprintf(err_buf(), ERR_LEN, "memory desc: ndims %d is not in [1, 12]", ndims)
        return fail(dnnl_invalid_arguments, err_buf())
    if not (dt == dnnl_f32 or dt == dnnl_bf16 or dt == dnnl_f16 or dt == dnnl_s32
            or dt == dnnl_s8 or dt == dnnl_u8 or dt == dnnl_f64 or dt == dnnl_f8_e5m2
            or dt == dnnl_f8_e4m3 or dt == dnnl_s4 or dt == dnnl_u4):
        snprintf(err_buf(), ERR_LEN, "memory desc: data type %s is not allowed",
                 cydnnl_dt2str(dt))
        return fail(dnnl_invalid_arguments, err_buf())
    for d in range(ndims):
        if dims[d] == DNNL_RUNTIME_DIM_VAL:
            snprintf(err_buf(), ERR_LEN, "memory desc: dim %d is a runtime dim, "
                     "which this library does not support", d)
            return fail(dnnl_unimplemented, err_buf())
        if dims[d] < 0:
            snprintf(err_buf(), ERR_LEN, "memory desc: dim %d is negative (%lld)",
                     d, <long long>dims[d])
            return fail(dnnl_invalid_arguments, err_buf())
    return dnnl_success


cdef void md_blocks(const md_t *md, dnnl_dim_t *blocks) noexcept nogil:
    """The product of the inner blocks of each dim (1 when not blocked)."""
    cdef int d
    for d in range(DNNL_MAX_NDIMS):
        blocks[d] = 1
    for d in range(md.inner_nblks):
        blocks[md.inner_idxs[d]] *= md.inner_blks[d]


cdef dnnl_status_t md_set_tag(md_t *md, dnnl_format_tag_t tag) noexcept nogil:
    """Blocking of a format tag over md's dims (oneDNN's fill_blocked)."""
    if tag <= dnnl_format_tag_any or tag >= CYDNNL_N_TAGS:
        snprintf(err_buf(), ERR_LEN, "memory desc: unknown format tag %d", <int>tag)
        return fail(dnnl_invalid_arguments, err_buf())
    cdef const cydnnl_tag_info_t *info = &cydnnl_tag_table[<int>tag]
    if info.ndims != md.ndims:
        snprintf(err_buf(), ERR_LEN,
                 "memory desc: tag %s is for %d dims, the descriptor has %d",
                 info.name, info.ndims, md.ndims)
        return fail(dnnl_invalid_arguments, err_buf())
    cdef dnnl_dims_t blocks
    cdef int d, i
    cdef dnnl_dim_t block_size = 1, stride
    for d in range(DNNL_MAX_NDIMS):
        blocks[d] = 1
    md.inner_nblks = info.nblks
    for i in range(info.nblks):
        md.inner_blks[i] = info.blks[i]
        md.inner_idxs[i] = info.idxs[i]
        blocks[info.idxs[i]] *= info.blks[i]
        block_size *= info.blks[i]
    for d in range(md.ndims):
        md.padded_dims[d] = (md.dims[d] + blocks[d] - 1) // blocks[d] * blocks[d]
        md.padded_offsets[d] = 0
    stride = block_size
    for i in range(md.ndims - 1, -1, -1):
        d = info.order[i]
        md.strides[d] = stride
        if md.padded_dims[d] != 0:
            stride *= md.padded_dims[d] // blocks[d]
    md.format_kind = dnnl_blocked
    return dnnl_success


cdef dnnl_status_t md_init_by_tag(md_t *md, int ndims, const dnnl_dim_t *dims,
                                  dnnl_data_type_t data_type,
                                  dnnl_format_tag_t tag) noexcept nogil:
    md_zero(md)
    if ndims == 0 or tag == dnnl_format_tag_undef:
        return dnnl_success
    cdef dnnl_status_t st = sanity_status(ndims, dims, data_type)
    if st != dnnl_success:
        return st
    cdef md_t tmp
    md_zero(&tmp)
    tmp.ndims = ndims
    tmp.data_type = data_type
    memcpy(tmp.dims, dims, ndims * sizeof(dnnl_dim_t))
    memcpy(tmp.padded_dims, dims, ndims * sizeof(dnnl_dim_t))
    if tag == dnnl_format_tag_any:
        tmp.format_kind = dnnl_format_kind_any
    else:
        st = md_set_tag(&tmp, tag)
        if st != dnnl_success:
            return st
    md[0] = tmp
    return dnnl_success


cdef bint strides_ok(const md_t *md, const dnnl_dim_t *strides) noexcept nogil:
    """oneDNN's memory_desc_strides_check: no two elements share an address
    (strides of 0 and of size-1 dims are exempt)."""
    cdef int perm[12]
    cdef int d, i, j, t
    for d in range(md.ndims):
        if md.padded_dims[d] == 0:
            return True
        perm[d] = d
    # insertion sort by (stride, padded dim, index)
    for i in range(1, md.ndims):
        j = i
        while j > 0 and (strides[perm[j]] < strides[perm[j - 1]] or (
                strides[perm[j]] == strides[perm[j - 1]]
                and md.padded_dims[perm[j]] < md.padded_dims[perm[j - 1]])):
            t = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = t
            j -= 1
    cdef dnnl_dim_t min_stride = 1
    for i in range(md.ndims):
        d = perm[i]
        if strides[d] == 0 or md.padded_dims[d] == 1:
            continue
        if strides[d] < min_stride:
            return False
        min_stride = strides[d] * md.padded_dims[d]
    return True


cdef dnnl_status_t md_init_by_strides(md_t *md, int ndims, const dnnl_dim_t *dims,
                                      dnnl_data_type_t data_type,
                                      const dnnl_dim_t *strides) noexcept nogil:
    md_zero(md)
    if ndims == 0:
        return dnnl_success
    cdef dnnl_status_t st = sanity_status(ndims, dims, data_type)
    if st != dnnl_success:
        return st
    cdef md_t tmp
    cdef int d
    md_zero(&tmp)
    tmp.ndims = ndims
    tmp.data_type = data_type
    memcpy(tmp.dims, dims, ndims * sizeof(dnnl_dim_t))
    memcpy(tmp.padded_dims, dims, ndims * sizeof(dnnl_dim_t))
    tmp.format_kind = dnnl_blocked
    if strides == NULL:
        tmp.strides[ndims - 1] = 1
        for d in range(ndims - 2, -1, -1):
            tmp.strides[d] = tmp.strides[d + 1] * tmp.padded_dims[d + 1]
    else:
        for d in range(ndims):
            if strides[d] < 0:
                return fail(dnnl_invalid_arguments, "memory desc: negative stride")
        if not strides_ok(&tmp, strides):
            return fail(dnnl_invalid_arguments,
                        "memory desc: strides make elements overlap")
        memcpy(tmp.strides, strides, ndims * sizeof(dnnl_dim_t))
    md[0] = tmp
    return dnnl_success


cdef bint md_equal(const md_t *lhs, const md_t *rhs) noexcept nogil:
    """oneDNN's operator== on memory descriptors (type_helpers.hpp)."""
    cdef int d
    if lhs.ndims == 0 and rhs.ndims == 0:
        return True
    if (lhs.ndims != rhs.ndims or lhs.data_type != rhs.data_type
            or lhs.offset0 != rhs.offset0 or lhs.format_kind != rhs.format_kind):
        return False
    for d in range(lhs.ndims):
        if (lhs.dims[d] != rhs.dims[d] or lhs.padded_dims[d] != rhs.padded_dims[d]
                or lhs.padded_offsets[d] != rhs.padded_offsets[d]):
            return False
    if lhs.format_kind != dnnl_blocked:
        return True
    if lhs.inner_nblks != rhs.inner_nblks:
        return False
    for d in range(lhs.inner_nblks):
        if lhs.inner_blks[d] != rhs.inner_blks[d] or lhs.inner_idxs[d] != rhs.inner_idxs[d]:
            return False
    for d in range(lhs.ndims):
        if lhs.dims[d] == 1 and lhs.padded_dims[d] == 1:
            continue
        if lhs.strides[d] != rhs.strides[d]:
            return False
    return True


cdef bint md_matches_tag(const md_t *md, dnnl_format_tag_t tag) noexcept nogil:
    if md.format_kind != dnnl_blocked or tag <= dnnl_format_tag_any or tag >= CYDNNL_N_TAGS:
        return False
    if cydnnl_tag_table[<int>tag].ndims != md.ndims:
        return False
    cdef md_t gold = md[0]
    if md_set_tag(&gold, tag) != dnnl_success:
        return False
    gold.offset0 = md.offset0
    return md_equal(md, &gold)


cdef dnnl_status_t md_init_by_blocking(md_t *out, const md_t *layout) noexcept nogil:
    """out (dims and data type set) takes layout's blocking on its own dims:
    the same inner blocks and order of outer strides, dense (oneDNN's
    memory_desc_init_by_blocking_desc)."""
    cdef int perm[12]
    cdef dnnl_dim_t blocks[12]
    cdef int i, j, t, d
    cdef dnnl_dim_t block_size = 1, stride
    if layout.format_kind != dnnl_blocked or layout.ndims != out.ndims:
        return fail(dnnl_unimplemented, "no blocked layout to follow")
    for d in range(out.ndims):
        perm[d] = d
        blocks[d] = 1
    # outermost first: strides descending, ties kept in dim order
    for i in range(1, out.ndims):
        j = i
        while j > 0 and layout.strides[perm[j]] > layout.strides[perm[j - 1]]:
            t = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = t
            j -= 1
    out.format_kind = dnnl_blocked
    out.offset0 = 0
    out.inner_nblks = layout.inner_nblks
    for i in range(layout.inner_nblks):
        out.inner_blks[i] = layout.inner_blks[i]
        out.inner_idxs[i] = layout.inner_idxs[i]
        blocks[layout.inner_idxs[i]] *= layout.inner_blks[i]
        block_size *= layout.inner_blks[i]
    for d in range(out.ndims):
        out.padded_dims[d] = (out.dims[d] + blocks[d] - 1) // blocks[d] * blocks[d]
        out.padded_offsets[d] = 0
    stride = block_size
    for i in range(out.ndims - 1, -1, -1):
        d = perm[i]
        out.strides[d] = stride
        if out.padded_dims[d] != 0:
            stride *= out.padded_dims[d] // blocks[d]
    return dnnl_success


cdef bint md_is_plain(const md_t *md) noexcept nogil:
    return md.format_kind == dnnl_blocked and md.inner_nblks == 0


cdef dnnl_dim_t md_nelems(const md_t *md, bint padded) noexcept nogil:
    if md.ndims == 0:
        return 0
    cdef dnnl_dim_t n = 1
    cdef int d
    for d in range(md.ndims):
        n *= md.padded_dims[d] if padded else md.dims[d]
    return n


cdef size_t elems_to_bytes(const md_t *md, size_t n) noexcept nogil:
    if sub_byte(md.data_type):
        return (n + 1) // 2
    return n * dt_size(md.data_type)


cdef size_t md_size(const md_t *md) noexcept nogil:
    """oneDNN's memory_desc_wrapper::size(): offset0 is not included. (A
    sub-memory narrower than a block still counts the whole block.)"""
    if md.ndims == 0 or md.format_kind != dnnl_blocked or md_nelems(md, False) == 0:
        return 0
    cdef dnnl_dims_t blocks
    md_blocks(md, blocks)
    cdef size_t max_size = 0, s
    cdef dnnl_dim_t strided
    cdef int d
    for d in range(md.ndims):
        strided = (md.padded_dims[d] + blocks[d] - 1) // blocks[d]
        s = strided * (1 if strided == 1 else md.strides[d])
        if s > max_size:
            max_size = s
    if max_size == 1 and md.inner_nblks != 0:
        for d in range(md.inner_nblks):
            max_size *= md.inner_blks[d]
    return elems_to_bytes(md, max_size)


cdef size_t md_extent(const md_t *md) noexcept nogil:
    """Bytes from the handle to one past the last (padded) element md reaches,
    offset0 included: what a buffer must hold for md to be safe."""
    if md.ndims == 0 or md.format_kind != dnnl_blocked or md_nelems(md, True) == 0:
        return 0
    cdef dnnl_dims_t blocks
    md_blocks(md, blocks)
    cdef dnnl_dim_t last = md.offset0, inner = 1
    cdef int d
    for d in range(md.ndims):
        last += ((md.padded_dims[d] + blocks[d] - 1) // blocks[d] - 1) * md.strides[d]
    for d in range(md.inner_nblks):
        inner *= md.inner_blks[d]
    return elems_to_bytes(md, last + inner)


cdef void md_dim_offsets(const md_t *md, int d, dnnl_dim_t n,
                         dnnl_dim_t *table) noexcept nogil:
    """table[p] = element offset of position p along dim d (offset0 excluded);
    a layout's offset is the sum of these over the dims."""
    cdef dnnl_dim_t blocks[12]
    cdef dnnl_dim_t inner_stride[12]
    cdef dnnl_dim_t blk = 1, q, off, s = 1
    cdef int j
    cdef dnnl_dim_t p
    for j in range(md.inner_nblks - 1, -1, -1):
        inner_stride[j] = s
        s *= md.inner_blks[j]
    for j in range(md.inner_nblks):
        if md.inner_idxs[j] == d:
            blk *= md.inner_blks[j]
    for p in range(n):
        off = (p // blk) * md.strides[d]
        q = p % blk
        for j in range(md.inner_nblks - 1, -1, -1):
            if md.inner_idxs[j] == d:
                off += (q % md.inner_blks[j]) * inner_stride[j]
                q = q // md.inner_blks[j]
        table[p] = off


cdef dnnl_dim_t md_offset(const md_t *md, const dnnl_dim_t *pos) noexcept nogil:
    """Element offset of a logical position, offset0 included."""
    cdef dnnl_dim_t off = md.offset0, t
    cdef int d
    for d in range(md.ndims):
        md_dim_offsets_one(md, d, pos[d], &t)
        off += t
    return off


cdef inline void md_dim_offsets_one(const md_t *md, int d, dnnl_dim_t p,
                                    dnnl_dim_t *out) noexcept nogil:
    cdef dnnl_dim_t s = 1, blk = 1, q, off
    cdef dnnl_dim_t inner_stride[12]
    cdef int j
    for j in range(md.inner_nblks - 1, -1, -1):
        inner_stride[j] = s
        s *= md.inner_blks[j]
        if md.inner_idxs[j] == d:
            blk *= md.inner_blks[j]
    off = (p // blk) * md.strides[d]
    q = p % blk
    for j in range(md.inner_nblks - 1, -1, -1):
        if md.inner_idxs[j] == d:
            off += (q % md.inner_blks[j]) * inner_stride[j]
            q = q // md.inner_blks[j]
    out[0] = off


cdef void md_plain(md_t *out, const md_t *md, dnnl_data_type_t dt) noexcept nogil:
    md_init_by_tag(out, md.ndims, md.dims, dt, <dnnl_format_tag_t>(dnnl_a + md.ndims - 1))


cdef dnnl_status_t md_copy_layout(md_t *out, const md_t *layout) noexcept nogil:
    cdef int d
    if out.ndims != layout.ndims or layout.format_kind != dnnl_blocked:
        return fail(dnnl_invalid_arguments, "cannot copy a layout across different dims")
    for d in range(out.ndims):
        if out.dims[d] != layout.dims[d]:
            return fail(dnnl_invalid_arguments, "cannot copy a layout across different dims")
    cdef dnnl_data_type_t dt = out.data_type
    out[0] = layout[0]
    out.data_type = dt
    out.offset0 = 0
    return dnnl_success


cdef void md_describe(const md_t *md, char *buf, size_t n) noexcept nogil:
    """Short description for messages and verbose lines: 'f32:aBcd8b' or
    'f32:strides(...)'; '' for zero mds."""
    cdef int t, d
    cdef size_t used
    if md.ndims == 0:
        buf[0] = 0
        return
    if md.format_kind == dnnl_format_kind_any:
        snprintf(buf, n, "%s:any", cydnnl_dt2str(md.data_type))
        return
    for t in range(2, CYDNNL_N_TAGS):
        if cydnnl_tag_table[t].ndims == md.ndims and md_matches_tag(md, <dnnl_format_tag_t>t):
            if md.offset0:
                snprintf(buf, n, "%s:%s:off%lld", cydnnl_dt2str(md.data_type),
                         cydnnl_tag_table[t].name, <long long>md.offset0)
            else:
                snprintf(buf, n, "%s:%s", cydnnl_dt2str(md.data_type),
                         cydnnl_tag_table[t].name)
            return
    used = snprintf(buf, n, "%s:strides", cydnnl_dt2str(md.data_type))
    for d in range(md.ndims):
        if used < n:
            used += snprintf(buf + used, n - used, "%s%lld", "(" if d == 0 else ",",
                             <long long>md.strides[d])
    if used < n:
        snprintf(buf + used, n - used, ")")


cdef void dims_describe(const md_t *md, char *buf, size_t n) noexcept nogil:
    cdef size_t used = 0
    cdef int d
    buf[0] = 0
    for d in range(md.ndims):
        if used < n:
            used += snprintf(buf + used, n - used, "%s%lld", "" if d == 0 else "x",
                             <long long>md.dims[d])

# -- the C API on memory descriptors
