# Memory descriptor algebra on md_t (oneDNN's memory_desc_wrapper and
# dnnl_memory_desc_init_*): layouts from tags, strides and blockings; sizes,
# extents and element offsets; equality. No handles here.
#
# Every size is representable: each constructor checks, with the checked
# arithmetic of cydnnl_core.h, that the padded dims, strides, element count,
# byte size and extent it produces fit (md_check_size), and answers
# dnnl_invalid_arguments otherwise, leaving its output untouched.

from libc.stdint cimport INT64_MAX, SIZE_MAX
from libc.string cimport memset, memcpy
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.tables cimport *
from dnnl_c.core.verbose cimport fail, err_buf, ERR_LEN
from dnnl_c.core.util cimport (CYDNNL_MAX_BYTES, cydnnl_mul_overflow, cydnnl_add_overflow,
                               cydnnl_size_mul_overflow)


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
            or dt == dnnl_f8_e4m3 or dt == dnnl_s4 or dt == dnnl_u4 or dt == dnnl_s64
            or dt == dnnl_e8m0 or dt == dnnl_f4_e2m1):
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
    """The product of the inner blocks of each dim (1 when not blocked).
    Blocks come from the tag table (at most four, each at most 64), so
    their products cannot overflow."""
    cdef int d
    for d in range(DNNL_MAX_NDIMS):
        blocks[d] = 1
    for d in range(md.inner_nblks):
        blocks[md.inner_idxs[d]] *= md.inner_blks[d]


cdef inline bint rnd_up(dnnl_dim_t n, dnnl_dim_t b, dnnl_dim_t *out) noexcept nogil:
    """out = n (>= 0) rounded up to a multiple of b (> 0); False on overflow."""
    cdef dnnl_dim_t t
    if cydnnl_add_overflow(n, b - 1, &t):
        return False
    out[0] = t // b * b
    return True


cdef bint dense_blocking(md_t *md, const int *order, int nblks, const dnnl_dim_t *blks,
                         const dnnl_dim_t *idxs) noexcept nogil:
    """md (dims set) takes inner blocks blks/idxs and dense outer strides in
    `order` (outermost first), padded to whole blocks (oneDNN's fill_blocked).
    False, md untouched, when a padded dim or a stride overflows int64."""
    cdef md_t tmp = md[0]
    cdef dnnl_dims_t blocks
    cdef int d, i
    cdef dnnl_dim_t block_size = 1, stride
    for d in range(DNNL_MAX_NDIMS):
        blocks[d] = 1
    tmp.inner_nblks = nblks
    for i in range(nblks):
        tmp.inner_blks[i] = blks[i]
        tmp.inner_idxs[i] = idxs[i]
        blocks[idxs[i]] *= blks[i]
        block_size *= blks[i]
    for d in range(tmp.ndims):
        if not rnd_up(tmp.dims[d], blocks[d], &tmp.padded_dims[d]):
            return False
        tmp.padded_offsets[d] = 0
    stride = block_size
    for i in range(tmp.ndims - 1, -1, -1):
        d = order[i]
        tmp.strides[d] = stride
        # the outermost dim's product is no stride but the size: md_check_size's
        if i > 0 and tmp.padded_dims[d] != 0 and cydnnl_mul_overflow(
                stride, tmp.padded_dims[d] // blocks[d], &stride):
            return False
    tmp.format_kind = dnnl_blocked
    md[0] = tmp
    return True


cdef inline bint tag_blocking(md_t *md, const cydnnl_tag_info_t *info) noexcept nogil:
    cdef dnnl_dim_t blks[12]
    cdef dnnl_dim_t idxs[12]
    cdef int i
    for i in range(info.nblks):
        blks[i] = info.blks[i]
        idxs[i] = info.idxs[i]
    return dense_blocking(md, info.order, info.nblks, blks, idxs)


cdef dnnl_status_t too_big(const md_t *md) noexcept nogil:
    cdef char dims[160]
    dims_describe(md, dims, sizeof(dims))
    snprintf(err_buf(), ERR_LEN, "memory desc: %s %s is too big: its sizes overflow "
             "(the byte size must fit in 63 bits)", cydnnl_dt2str(md.data_type), dims)
    return fail(dnnl_invalid_arguments, err_buf())


cdef dnnl_status_t md_set_tag(md_t *md, dnnl_format_tag_t tag) noexcept nogil:
    """Blocking of a format tag over md's dims (oneDNN's fill_blocked); md
    is untouched on failure."""
    if tag <= dnnl_format_tag_any or tag >= CYDNNL_N_TAGS:
        snprintf(err_buf(), ERR_LEN, "memory desc: unknown format tag %d", <int>tag)
        return fail(dnnl_invalid_arguments, err_buf())
    cdef const cydnnl_tag_info_t *info = &cydnnl_tag_table[<int>tag]
    if info.ndims != md.ndims:
        snprintf(err_buf(), ERR_LEN,
                 "memory desc: tag %s is for %d dims, the descriptor has %d",
                 info.name, info.ndims, md.ndims)
        return fail(dnnl_invalid_arguments, err_buf())
    cdef md_t tmp = md[0]
    if not tag_blocking(&tmp, info):
        return too_big(md)
    cdef dnnl_status_t st = md_check_size(&tmp)
    if st == dnnl_success:
        md[0] = tmp
    return st


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
        # whatever layout resolves it later must be representable too
        tmp.format_kind = dnnl_format_kind_any
        st = md_check_size(&tmp)
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
        # saturated: no stride can pass it then, and md_check_size rejects
        # such a layout anyway
        if cydnnl_mul_overflow(strides[d], md.padded_dims[d], &min_stride):
            min_stride = INT64_MAX
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
            if cydnnl_mul_overflow(tmp.strides[d + 1], tmp.padded_dims[d + 1],
                                   &tmp.strides[d]):
                return too_big(&tmp)
    else:
        for d in range(ndims):
            if strides[d] < 0:
                return fail(dnnl_invalid_arguments, "memory desc: negative stride")
        if not strides_ok(&tmp, strides):
            return fail(dnnl_invalid_arguments,
                        "memory desc: strides make elements overlap")
        memcpy(tmp.strides, strides, ndims * sizeof(dnnl_dim_t))
    st = md_check_size(&tmp)
    if st != dnnl_success:
        return st
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
    # quietly: md_describe tries every tag, some may not fit md's dims
    if not tag_blocking(&gold, &cydnnl_tag_table[<int>tag]):
        return False
    gold.offset0 = md.offset0
    return md_equal(md, &gold)


cdef dnnl_status_t md_init_by_blocking(md_t *out, const md_t *layout) noexcept nogil:
    """out (dims and data type set) takes layout's blocking on its own dims:
    the same inner blocks and order of outer strides, dense (oneDNN's
    memory_desc_init_by_blocking_desc); out is untouched on failure."""
    cdef int perm[12]
    cdef int i, j, t, d
    if layout.format_kind != dnnl_blocked or layout.ndims != out.ndims:
        return fail(dnnl_unimplemented, "no blocked layout to follow")
    for d in range(out.ndims):
        perm[d] = d
    # outermost first: strides descending, ties kept in dim order
    for i in range(1, out.ndims):
        j = i
        while j > 0 and layout.strides[perm[j]] > layout.strides[perm[j - 1]]:
            t = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = t
            j -= 1
    cdef md_t tmp = out[0]
    tmp.offset0 = 0
    if not dense_blocking(&tmp, perm, layout.inner_nblks, layout.inner_blks,
                          layout.inner_idxs):
        return too_big(out)
    cdef dnnl_status_t st = md_check_size(&tmp)
    if st == dnnl_success:
        out[0] = tmp
    return st


cdef dnnl_status_t md_set_blocked(md_t *md, const int *order, int nblks,
                                  const dnnl_dim_t *blks, const dnnl_dim_t *idxs) noexcept nogil:
    cdef md_t tmp = md[0]
    if not dense_blocking(&tmp, order, nblks, blks, idxs):
        return too_big(md)
    cdef dnnl_status_t st = md_check_size(&tmp)
    if st == dnnl_success:
        md[0] = tmp
    return st


cdef bint md_is_plain(const md_t *md) noexcept nogil:
    return md.format_kind == dnnl_blocked and md.inner_nblks == 0


cdef bint nelems_of(const md_t *md, bint padded, dnnl_dim_t *n) noexcept nogil:
    """n = the product of the (padded) dims; False when it overflows."""
    cdef const dnnl_dim_t *dims = &md.dims[0]
    if padded:
        dims = &md.padded_dims[0]
    cdef dnnl_dim_t p = 1
    cdef int d
    n[0] = 0
    if md.ndims == 0:
        return True
    for d in range(md.ndims):
        if dims[d] == 0:    # empty, however big the other dims are
            return True
    for d in range(md.ndims):
        if cydnnl_mul_overflow(p, dims[d], &p):
            return False
    n[0] = p
    return True


cdef dnnl_dim_t md_nelems(const md_t *md, bint padded) noexcept nogil:
    """-1 when the count overflows (never for an md the constructors made)."""
    cdef dnnl_dim_t n
    return n if nelems_of(md, padded, &n) else -1


cdef inline bint to_bytes(dnnl_data_type_t dt, size_t n, size_t *out) noexcept nogil:
    if sub_byte(dt):
        out[0] = n // 2 + (n & 1)
        return True
    return not cydnnl_size_mul_overflow(n, dt_size(dt), out)


cdef size_t elems_to_bytes(const md_t *md, size_t n) noexcept nogil:
    """SIZE_MAX when it overflows, which no buffer or capacity check passes."""
    cdef size_t b
    return b if to_bytes(md.data_type, n, &b) else SIZE_MAX


cdef bint md_bytes(const md_t *md, size_t *size, size_t *extent) noexcept nogil:
    """The one rule for representable sizes. size: oneDNN's
    memory_desc_wrapper::size(), offset0 not included (a sub-memory narrower
    than a block still counts the whole block); extent: bytes from the handle
    to one past the last padded element, offset0 included. True when the
    padded element count fits int64 and its dense byte count, size and
    extent fit CYDNNL_MAX_BYTES, all computed without overflow."""
    cdef dnnl_dim_t padded_n, n, strided, s, max_size = 0, last, inner = 1
    cdef size_t b
    cdef dnnl_dims_t blocks
    cdef int d
    size[0] = 0
    extent[0] = 0
    if md.ndims == 0:
        return True
    if not nelems_of(md, True, &padded_n) or not nelems_of(md, False, &n):
        return False
    if not to_bytes(md.data_type, padded_n, &b) or b > CYDNNL_MAX_BYTES:
        return False
    if md.format_kind == dnnl_format_kind_host_scalar:     # one value
        size[0] = extent[0] = dt_size(md.data_type)
        return True
    if md.format_kind != dnnl_blocked or padded_n == 0:
        return True
    md_blocks(md, blocks)
    last = md.offset0
    for d in range(md.ndims):
        # blocks a dim spans (a sub-memory's last one may be partial)
        strided = md.padded_dims[d] // blocks[d] + (1 if md.padded_dims[d] % blocks[d] else 0)
        if strided == 1:
            s = 1
        elif cydnnl_mul_overflow(strided, md.strides[d], &s):
            return False
        if s > max_size:
            max_size = s
        if cydnnl_mul_overflow(strided - 1, md.strides[d], &s) or \
                cydnnl_add_overflow(last, s, &last):
            return False
    for d in range(md.inner_nblks):
        inner *= md.inner_blks[d]
    if max_size == 1 and md.inner_nblks != 0:
        max_size = inner
    if cydnnl_add_overflow(last, inner, &last):
        return False
    if not to_bytes(md.data_type, last, extent) or extent[0] > CYDNNL_MAX_BYTES:
        return False
    if n != 0 and (not to_bytes(md.data_type, max_size, size) or size[0] > CYDNNL_MAX_BYTES):
        return False
    return True


cdef dnnl_status_t md_check_size(const md_t *md) noexcept nogil:
    cdef size_t size, extent
    return dnnl_success if md_bytes(md, &size, &extent) else too_big(md)


cdef size_t md_size(const md_t *md) noexcept nogil:
    """md_bytes' size; 0 when not representable (so
    dnnl_memory_desc_get_size answers 0 then)."""
    cdef size_t size, extent
    return size if md_bytes(md, &size, &extent) else 0


cdef size_t md_extent(const md_t *md) noexcept nogil:
    """md_bytes' extent: what a buffer must hold for md to be safe; 0 when
    not representable."""
    cdef size_t size, extent
    return extent if md_bytes(md, &size, &extent) else 0


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


cdef dnnl_status_t md_plain(md_t *out, const md_t *md, dnnl_data_type_t dt) noexcept nogil:
    return md_init_by_tag(out, md.ndims, md.dims, dt,
                          <dnnl_format_tag_t>(dnnl_a + md.ndims - 1))


cdef dnnl_status_t md_copy_layout(md_t *out, const md_t *layout) noexcept nogil:
    cdef int d
    if out.ndims != layout.ndims or layout.format_kind != dnnl_blocked:
        return fail(dnnl_invalid_arguments, "cannot copy a layout across different dims")
    for d in range(out.ndims):
        if out.dims[d] != layout.dims[d]:
            return fail(dnnl_invalid_arguments, "cannot copy a layout across different dims")
    cdef md_t tmp = layout[0]
    tmp.data_type = out.data_type
    tmp.offset0 = 0
    # a wider data type may not fit where the layout's did
    cdef dnnl_status_t st = md_check_size(&tmp)
    if st == dnnl_success:
        out[0] = tmp
    return st


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
