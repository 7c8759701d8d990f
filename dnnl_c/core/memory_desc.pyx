# The C API on memory descriptors (oneDNN's memory_desc.cpp): create with a
# tag or strides, sub-memories, reshape, permute, clone, query, equal, size.

from libc.stdlib cimport malloc
from libc.string cimport memcpy, memcmp
from libc.stdint cimport uint8_t
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail, err_buf, ERR_LEN, dnnl_query2str
from dnnl_c.core.objects cimport header_init, obj_alive, obj_destroy
from dnnl_c.core.memory_desc_wrapper cimport *
from dnnl_c.core.util cimport cydnnl_mul_overflow, cydnnl_add_overflow


cdef bint md_ok(const dnnl_memory_desc *md) noexcept nogil:
    return obj_alive(&md.hdr if md != NULL else NULL, OBJ_MEMORY_DESC)


cdef dnnl_status_t new_md(dnnl_memory_desc_t *out, const md_t *md) noexcept nogil:
    cdef dnnl_memory_desc *h = <dnnl_memory_desc *>malloc(sizeof(dnnl_memory_desc))
    if h == NULL:
        return fail(dnnl_out_of_memory, "memory desc: out of memory")
    header_init(&h.hdr, OBJ_MEMORY_DESC, NULL, NULL)
    h.md = md[0]
    out[0] = h
    return dnnl_success


cdef dnnl_status_t dnnl_memory_desc_create_with_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, dnnl_format_tag_t tag) noexcept nogil:
    if memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory desc: NULL output pointer")
    cdef md_t md
    cdef dnnl_status_t st = md_init_by_tag(&md, ndims, dims, data_type, tag)
    if st != dnnl_success:
        return st
    return new_md(memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_create_with_strides(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, const dnnl_dim_t *strides) noexcept nogil:
    if memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory desc: NULL output pointer")
    cdef md_t md
    cdef dnnl_status_t st = md_init_by_strides(&md, ndims, dims, data_type, strides)
    if st != dnnl_success:
        return st
    return new_md(memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_create_submemory(
        dnnl_memory_desc_t *memory_desc, const_dnnl_memory_desc_t parent_memory_desc,
        const dnnl_dim_t *dims, const dnnl_dim_t *offsets) noexcept nogil:
    if memory_desc == NULL or not md_ok(parent_memory_desc) or dims == NULL or offsets == NULL:
        return fail(dnnl_invalid_arguments, "submemory: NULL or dead argument")
    cdef const md_t *parent = &parent_memory_desc.md
    cdef dnnl_status_t st = sanity_status(parent.ndims, parent.dims, parent.data_type)
    if st != dnnl_success:
        return st
    cdef int d
    for d in range(parent.ndims):
        # offsets + dims, written so it cannot overflow
        if dims[d] < 0 or offsets[d] < 0 or offsets[d] > parent.dims[d] \
                or dims[d] > parent.dims[d] - offsets[d]:
            snprintf(err_buf(), ERR_LEN, "submemory: dim %d: offset %lld + size %lld "
                     "is outside the parent's %lld", d, <long long>offsets[d],
                     <long long>dims[d], <long long>parent.dims[d])
            return fail(dnnl_invalid_arguments, err_buf())
    if parent.format_kind != dnnl_blocked:
        return fail(dnnl_unimplemented, "submemory: the parent must have a blocked format")
    cdef dnnl_dims_t blocks
    md_blocks(parent, blocks)
    cdef md_t md = parent[0]
    cdef bint right_border
    cdef dnnl_dim_t off
    for d in range(parent.ndims):
        right_border = dims[d] == parent.dims[d] - offsets[d]
        if not (offsets[d] % blocks[d] == 0 and parent.padded_offsets[d] == 0 and (
                right_border or dims[d] % blocks[d] == 0 or dims[d] < blocks[d])):
            snprintf(err_buf(), ERR_LEN, "submemory: dim %d cuts through a block "
                     "of %lld", d, <long long>blocks[d])
            return fail(dnnl_unimplemented, err_buf())
        md.dims[d] = dims[d]
        md.padded_dims[d] = parent.padded_dims[d] - offsets[d] if right_border else dims[d]
        md.padded_offsets[d] = parent.padded_offsets[d]
        if cydnnl_mul_overflow(offsets[d] // blocks[d], parent.strides[d], &off) or \
                cydnnl_add_overflow(md.offset0, off, &md.offset0):
            return fail(dnnl_invalid_arguments, "submemory: the offset overflows")
    st = md_check_size(&md)
    if st != dnnl_success:
        return st
    return new_md(memory_desc, &md)


cdef dnnl_status_t md_reshape(md_t *out, const md_t *inp, int ndims,
                              const dnnl_dim_t *dims) noexcept nogil:
    """oneDNN's memory_desc_reshape: groups of dims of equal volume, matched
    from the innermost; a merged group must be dense and not blocked."""
    cdef dnnl_status_t st = sanity_status(inp.ndims, inp.dims, inp.data_type)
    if st != dnnl_success:
        return st
    st = sanity_status(ndims, dims, inp.data_type)
    if st != dnnl_success:
        return st
    if inp.format_kind != dnnl_blocked and inp.format_kind != dnnl_format_kind_any:
        return fail(dnnl_invalid_arguments, "reshape: format must be blocked or any")
    cdef dnnl_dim_t vin = 1, vout = 1
    cdef int d
    cdef bint over = False
    for d in range(inp.ndims):
        over |= cydnnl_mul_overflow(vin, inp.dims[d] if inp.dims[d] > 0 else 1, &vin)
    for d in range(ndims):
        over |= cydnnl_mul_overflow(vout, dims[d] if dims[d] > 0 else 1, &vout)
    if over:
        return fail(dnnl_invalid_arguments, "reshape: the number of elements overflows")
    if vin != vout:
        return fail(dnnl_invalid_arguments, "reshape: the number of elements differs")
    if inp.format_kind == dnnl_format_kind_any:
        return md_init_by_tag(out, ndims, dims, inp.data_type, dnnl_format_tag_any)
    cdef md_t md = inp[0]
    md.ndims = ndims
    for d in range(ndims):
        md.dims[d] = dims[d]
    cdef int ib = inp.ndims, ie = inp.ndims, ob = ndims, oe = ndims, j
    cdef dnnl_dim_t iv, ov, cur
    cdef int action   # 0 remove 1, 1 add 1, 2 keep, 3 rearrange
    while ie != 0 or oe != 0:
        # find the next pair of groups, from the innermost dims outwards
        if ie > 0 and inp.dims[ie - 1] == 1:
            ib = ie - 1
            if inp.padded_dims[ie - 1] == 1:
                ob = oe
                action = 0
            elif oe > 0 and dims[oe - 1] == 1:
                ob = oe - 1
                action = 2
            else:
                return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
        elif oe > 0 and dims[oe - 1] == 1:
            ib = ie
            ob = oe - 1
            action = 1
        else:
            if ie == 0 or oe == 0:
                return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
            ib = ie - 1
            ob = oe - 1
            iv = inp.dims[ib]
            ov = dims[ob]
            while iv != ov:
                if iv < ov:
                    if ib == 0:
                        return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
                    ib -= 1
                    iv *= inp.dims[ib]      # at most vin: cannot overflow
                    if iv == 0:
                        return fail(dnnl_invalid_arguments, "reshape: zero dim inside a group")
                else:
                    if ob == 0:
                        return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
                    ob -= 1
                    ov *= dims[ob]          # at most vout
                    if ov == 0:
                        return fail(dnnl_invalid_arguments, "reshape: zero dim inside a group")
            action = 2 if (ib + 1 == ie and ob + 1 == oe) else 3
        if action == 1:
            cur = 1
            if ib == inp.ndims:
                for j in range(inp.inner_nblks):
                    cur *= inp.inner_blks[j]
            elif cydnnl_mul_overflow(inp.strides[ib], inp.dims[ib], &cur):
                return fail(dnnl_invalid_arguments, "reshape: a stride overflows")
            else:
                for j in range(inp.inner_nblks):
                    if inp.inner_idxs[j] == ib:
                        cur //= inp.inner_blks[j]
            md.padded_dims[ob] = 1
            md.padded_offsets[ob] = 0
            md.strides[ob] = cur
        elif action == 2:
            md.padded_dims[ob] = inp.padded_dims[ib]
            md.padded_offsets[ob] = inp.padded_offsets[ib]
            md.strides[ob] = inp.strides[ib]
            for j in range(inp.inner_nblks):
                if inp.inner_idxs[j] == ib:
                    md.inner_idxs[j] = ob
        elif action == 3:
            for j in range(ie - 1, ib, -1):
                if cydnnl_mul_overflow(inp.dims[j], inp.strides[j], &cur) \
                        or cur != inp.strides[j - 1]:
                    return fail(dnnl_invalid_arguments, "reshape: merged dims are not dense")
            for j in range(inp.inner_nblks):
                if inp.inner_idxs[j] == ib:
                    return fail(dnnl_invalid_arguments, "reshape: merges a blocked dim")
            if inp.padded_dims[ib] != inp.dims[ib] or inp.padded_offsets[ib] != 0:
                return fail(dnnl_invalid_arguments, "reshape: merges a padded dim")
            cur = inp.strides[ie - 1]
            for j in range(oe - 1, ob - 1, -1):
                md.padded_dims[j] = dims[j]
                md.padded_offsets[j] = 0
                md.strides[j] = cur
                if j > ob and cydnnl_mul_overflow(cur, md.padded_dims[j], &cur):
                    return fail(dnnl_invalid_arguments, "reshape: a stride overflows")
        ie = ib
        oe = ob
    st = md_check_size(&md)
    if st != dnnl_success:
        return st
    out[0] = md
    return dnnl_success


cdef dnnl_status_t dnnl_memory_desc_reshape(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        int ndims, const dnnl_dim_t *dims) noexcept nogil:
    if out_memory_desc == NULL or not md_ok(in_memory_desc):
        return fail(dnnl_invalid_arguments, "reshape: NULL or dead argument")
    if in_memory_desc.md.ndims == 0:
        return fail(dnnl_invalid_arguments, "reshape: the descriptor is the zero one")
    cdef md_t md
    cdef dnnl_status_t st = md_reshape(&md, &in_memory_desc.md, ndims, dims)
    if st != dnnl_success:
        return st
    return new_md(out_memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_permute_axes(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        const int *permutation) noexcept nogil:
    if out_memory_desc == NULL or not md_ok(in_memory_desc) or permutation == NULL:
        return fail(dnnl_invalid_arguments, "permute_axes: NULL or dead argument")
    cdef const md_t *inp = &in_memory_desc.md
    if inp.ndims == 0:
        return fail(dnnl_invalid_arguments, "permute_axes: the descriptor is the zero one")
    if inp.format_kind != dnnl_blocked and inp.format_kind != dnnl_format_kind_any:
        return fail(dnnl_invalid_arguments, "permute_axes: format must be blocked or any")
    cdef unsigned mask = 0
    cdef int d, b
    cdef dnnl_status_t st
    for d in range(inp.ndims):
        if 0 <= permutation[d] < inp.ndims:
            mask |= 1u << permutation[d]
    if mask + 1 != (1u << inp.ndims):
        return fail(dnnl_invalid_arguments, "permute_axes: not a permutation of the dims")
    cdef md_t md = inp[0]
    for d in range(inp.ndims):
        md.dims[permutation[d]] = inp.dims[d]
        md.padded_dims[permutation[d]] = inp.padded_dims[d]
        md.padded_offsets[permutation[d]] = inp.padded_offsets[d]
        if inp.format_kind == dnnl_blocked:
            md.strides[permutation[d]] = inp.strides[d]
            for b in range(inp.inner_nblks):
                if inp.inner_idxs[b] == d:
                    md.inner_idxs[b] = permutation[d]
    st = md_check_size(&md)
    if st != dnnl_success:
        return st
    return new_md(out_memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_clone(
        dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t existing_memory_desc) noexcept nogil:
    if memory_desc == NULL or not md_ok(existing_memory_desc):
        return fail(dnnl_invalid_arguments, "clone: NULL or dead memory desc")
    return new_md(memory_desc, &existing_memory_desc.md)


cdef dnnl_status_t dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc) noexcept nogil:
    return obj_destroy(&memory_desc.hdr if memory_desc != NULL else NULL, OBJ_MEMORY_DESC,
                   "memory desc")


cdef dnnl_status_t dnnl_memory_desc_query(const_dnnl_memory_desc_t memory_desc,
                                          dnnl_query_t what, void *result) noexcept nogil:
    if not md_ok(memory_desc) or result == NULL:
        return fail(dnnl_invalid_arguments, "memory desc query: NULL or dead argument")
    cdef const md_t *md = &memory_desc.md
    cdef bint blocked = md.format_kind == dnnl_blocked
    if what == dnnl_query_ndims_s32:
        (<int *>result)[0] = md.ndims
    elif what == dnnl_query_dims:
        (<const dnnl_dim_t **>result)[0] = &md.dims[0]
    elif what == dnnl_query_data_type:
        (<dnnl_data_type_t *>result)[0] = md.data_type
    elif what == dnnl_query_submemory_offset_s64:
        (<dnnl_dim_t *>result)[0] = md.offset0
    elif what == dnnl_query_padded_dims:
        (<const dnnl_dim_t **>result)[0] = &md.padded_dims[0]
    elif what == dnnl_query_padded_offsets:
        (<const dnnl_dim_t **>result)[0] = &md.padded_offsets[0]
    elif what == dnnl_query_format_kind:
        (<dnnl_format_kind_t *>result)[0] = md.format_kind
    elif what in (dnnl_query_strides, dnnl_query_inner_nblks_s32, dnnl_query_inner_blks,
                  dnnl_query_inner_idxs):
        if not blocked:
            return fail(dnnl_invalid_arguments,
                        "memory desc query: strides and blocks need a blocked format")
        if what == dnnl_query_strides:
            (<const dnnl_dim_t **>result)[0] = &md.strides[0]
        elif what == dnnl_query_inner_nblks_s32:
            (<int *>result)[0] = md.inner_nblks
        elif what == dnnl_query_inner_blks:
            (<const dnnl_dim_t **>result)[0] = &md.inner_blks[0]
        else:
            (<const dnnl_dim_t **>result)[0] = &md.inner_idxs[0]
    else:
        snprintf(err_buf(), ERR_LEN, "memory desc query: %s is not a memory "
                 "descriptor query", dnnl_query2str(what))
        return fail(dnnl_unimplemented, err_buf())
    return dnnl_success


cdef dnnl_status_t dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
                                             dnnl_query_t what, int index,
                                             void *result) noexcept nogil:
    if not md_ok(memory_desc) or result == NULL:
        return fail(dnnl_invalid_arguments, "memory desc query: NULL or dead argument")
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory desc query: index must be 0 "
                    "(sparse formats are not supported)")
    if what == dnnl_query_num_handles_s32:
        (<int *>result)[0] = 1
        return dnnl_success
    if what == dnnl_query_sparse_encoding or what == dnnl_query_nnz_s64:
        return fail(dnnl_invalid_arguments, "memory desc query: not a sparse descriptor")
    return dnnl_memory_desc_query(memory_desc, what, result)


cdef int dnnl_memory_desc_equal(const_dnnl_memory_desc_t lhs,
                                const_dnnl_memory_desc_t rhs) noexcept nogil:
    if lhs == rhs:
        return 1
    if not md_ok(lhs) or not md_ok(rhs):
        return 0
    return 1 if md_equal(&lhs.md, &rhs.md) else 0


cdef size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc) noexcept nogil:
    if not md_ok(memory_desc):
        return 0
    return md_size(&memory_desc.md)


cdef size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc,
                                         int index) noexcept nogil:
    if index != 0:
        return 0
    return dnnl_memory_desc_get_size(memory_desc)


cdef size_t cydnnl_memory_desc_extent(const_dnnl_memory_desc_t memory_desc) noexcept nogil:
    if not md_ok(memory_desc):
        return 0
    return md_extent(&memory_desc.md)

# ------------------------------------------------------------ host scalars, blobs


cdef dnnl_status_t dnnl_memory_desc_create_host_scalar(
        dnnl_memory_desc_t *memory_desc, dnnl_data_type_t data_type) noexcept nogil:
    """oneDNN's memory_desc_init_host_scalar: one value of data_type on the host."""
    cdef md_t md
    cdef dnnl_dim_t one = 1
    if memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory desc: NULL output pointer")
    cdef dnnl_status_t st = sanity_status(1, &one, data_type)
    if st != dnnl_success:
        return st
    md_zero(&md)
    md.ndims = 1
    md.dims[0] = md.padded_dims[0] = 1
    md.data_type = data_type
    md.format_kind = dnnl_format_kind_host_scalar
    return new_md(memory_desc, &md)


# A blob: "CYMD", a format version, then the fields of md_t one after the
# other (native byte order, no padding), so equal descriptors give equal blobs.
DEF BLOB_VERSION = 1
cdef const char *BLOB_MAGIC = b"CYMD"
DEF BLOB_SIZE = 4 + 4 + 4 + 8 * 12 + 4 + 8 * 12 * 2 + 8 + 4 + 8 * 12 + 4 + 8 * 12 * 2


cdef size_t put(uint8_t *out, size_t at, const void *p, size_t n) noexcept nogil:
    memcpy(out + at, p, n)
    return at + n


cdef size_t get(const uint8_t *blob, size_t at, void *p, size_t n) noexcept nogil:
    memcpy(p, blob + at, n)
    return at + n


cdef dnnl_status_t dnnl_memory_desc_get_blob(uint8_t *blob, size_t *size,
                                             const_dnnl_memory_desc_t memory_desc) noexcept nogil:
    cdef int version = BLOB_VERSION, v
    cdef const md_t *md
    cdef size_t at = 0
    if size == NULL or not md_ok(memory_desc):
        return fail(dnnl_invalid_arguments, "memory desc blob: NULL size or dead memory desc")
    if blob == NULL:
        size[0] = BLOB_SIZE
        return dnnl_success
    md = &memory_desc.md
    at = put(blob, at, BLOB_MAGIC, 4)
    at = put(blob, at, &version, 4)
    at = put(blob, at, &md.ndims, 4)
    at = put(blob, at, md.dims, sizeof(md.dims))
    v = md.data_type
    at = put(blob, at, &v, 4)
    at = put(blob, at, md.padded_dims, sizeof(md.padded_dims))
    at = put(blob, at, md.padded_offsets, sizeof(md.padded_offsets))
    at = put(blob, at, &md.offset0, 8)
    v = md.format_kind
    at = put(blob, at, &v, 4)
    at = put(blob, at, md.strides, sizeof(md.strides))
    at = put(blob, at, &md.inner_nblks, 4)
    at = put(blob, at, md.inner_blks, sizeof(md.inner_blks))
    put(blob, at, md.inner_idxs, sizeof(md.inner_idxs))
    return dnnl_success


cdef dnnl_status_t blob_md_check(const md_t *md) noexcept nogil:
    """A blob comes from outside: its md is checked as the constructors would."""
    cdef int d
    if md.ndims == 0:
        return dnnl_success
    cdef dnnl_status_t st = sanity_status(md.ndims, md.dims, md.data_type)
    if st != dnnl_success:
        return st
    if not (md.format_kind == dnnl_blocked or md.format_kind == dnnl_format_kind_any
            or md.format_kind == dnnl_format_kind_host_scalar):
        return fail(dnnl_invalid_arguments, "memory desc blob: unknown format kind")
    if md.inner_nblks < 0 or md.inner_nblks > DNNL_MAX_NDIMS:
        return fail(dnnl_invalid_arguments, "memory desc blob: bad number of blocks")
    for d in range(md.inner_nblks):
        if md.inner_blks[d] <= 0 or not (0 <= md.inner_idxs[d] < md.ndims):
            return fail(dnnl_invalid_arguments, "memory desc blob: bad block")
    for d in range(md.ndims):
        if md.padded_dims[d] < md.dims[d] or md.padded_offsets[d] < 0 or (
                md.format_kind == dnnl_blocked and md.strides[d] < 0):
            return fail(dnnl_invalid_arguments, "memory desc blob: bad padding or strides")
    if md.offset0 < 0:
        return fail(dnnl_invalid_arguments, "memory desc blob: negative offset")
    return md_check_size(md)


cdef dnnl_status_t dnnl_memory_desc_create_with_blob(dnnl_memory_desc_t *memory_desc,
                                                     const uint8_t *blob) noexcept nogil:
    cdef md_t md
    cdef int version = 0, v = 0
    cdef size_t at = 8
    if memory_desc == NULL or blob == NULL:
        return fail(dnnl_invalid_arguments, "memory desc blob: NULL argument")
    get(blob, 4, &version, 4)
    if memcmp(blob, BLOB_MAGIC, 4) != 0 or version != BLOB_VERSION:
        return fail(dnnl_invalid_arguments, "memory desc blob: not a blob of "
                    "dnnl_memory_desc_get_blob")
    md_zero(&md)
    at = get(blob, at, &md.ndims, 4)
    if md.ndims < 0 or md.ndims > DNNL_MAX_NDIMS:
        return fail(dnnl_invalid_arguments, "memory desc blob: bad ndims")
    at = get(blob, at, md.dims, sizeof(md.dims))
    at = get(blob, at, &v, 4)
    md.data_type = <dnnl_data_type_t>v
    at = get(blob, at, md.padded_dims, sizeof(md.padded_dims))
    at = get(blob, at, md.padded_offsets, sizeof(md.padded_offsets))
    at = get(blob, at, &md.offset0, 8)
    at = get(blob, at, &v, 4)
    md.format_kind = <dnnl_format_kind_t>v
    at = get(blob, at, md.strides, sizeof(md.strides))
    at = get(blob, at, &md.inner_nblks, 4)
    at = get(blob, at, md.inner_blks, sizeof(md.inner_blks))
    get(blob, at, md.inner_idxs, sizeof(md.inner_idxs))
    cdef dnnl_status_t st = blob_md_check(&md)
    if st != dnnl_success:
        return st
    return new_md(memory_desc, &md)


cdef size_t cydnnl_memory_desc_blob_size() noexcept nogil:
    return BLOB_SIZE
