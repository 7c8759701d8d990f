# The Python-level C API on memory descriptors.

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE,
                             PyBUF_SIMPLE, PyBUF_FORMAT)
from libc.stdint cimport int64_t, uintptr_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *


def cydnnl_md2str(memory_desc):
    """A short description of a memory descriptor: 'f32:aBcd8b' (data type
    and the format tag it matches), 'f32:strides(...)' otherwise."""
    cdef char buf[256]
    cdef c.const_dnnl_memory_desc_t md
    try:
        md = <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc")
    except Exception as err:
        _bad(err)
        return ""
    if md == NULL or not c.obj_alive(&md.hdr, c.OBJ_MEMORY_DESC):
        return ""
    c.md_describe(&md.md, buf, sizeof(buf))
    return (<bytes>buf).decode()


def cydnnl_memory_desc_extent(memory_desc):
    """Bytes a buffer must hold for memory_desc (offset0 included)."""
    try:
        return c.cydnnl_memory_desc_extent(
            <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"))
    except Exception as err:
        _bad(err)
        return 0


# ------------------------------------------------------------ memory descriptors


cdef int _ndims(object ndims) except? -1:
    cdef int n = _int32(ndims, "ndims")
    if n < 0 or n > DNNL_MAX_NDIMS:
        _fail("ndims %d is not in [0, %d]" % (n, DNNL_MAX_NDIMS))
    return n


def dnnl_memory_desc_create_with_tag(memory_desc, ndims, dims, data_type, tag):
    cdef c.dnnl_memory_desc_t md = NULL
    cdef c.dnnl_dims_t d
    cdef int n
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        n = _ndims(ndims)
        if dims is None and n > 0:
            _fail("dims is NULL")
        if n > 0:
            _fill_dims(dims, d, n, "dims")
        st = c.dnnl_memory_desc_create_with_tag(
            &md, n, d, <dnnl_data_type_t>_enum(data_type, "data_type"),
            <dnnl_format_tag_t>_enum(tag, "tag"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_create_with_strides(memory_desc, ndims, dims, data_type, strides):
    cdef c.dnnl_memory_desc_t md = NULL
    cdef c.dnnl_dims_t d, s
    cdef c.dnnl_dim_t *sp = NULL
    cdef int n
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        n = _ndims(ndims)
        if n > 0:
            _fill_dims(dims, d, n, "dims")
            if strides is not None:
                _fill_dims(strides, s, n, "strides")
                sp = s
        st = c.dnnl_memory_desc_create_with_strides(
            &md, n, d, <dnnl_data_type_t>_enum(data_type, "data_type"), sp)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_create_submemory(memory_desc, parent_memory_desc, dims, offsets):
    cdef c.dnnl_memory_desc_t md = NULL
    cdef c.dnnl_dims_t d, o
    cdef c.const_dnnl_memory_desc_t parent
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        parent = <c.const_dnnl_memory_desc_t>_in(parent_memory_desc, dnnl_memory_desc_t,
                                                 "parent_memory_desc")
        if parent == NULL or not c.obj_alive(&parent.hdr, c.OBJ_MEMORY_DESC):
            _fail("parent_memory_desc is not a live memory desc")
        _fill_dims(dims, d, parent.md.ndims, "dims")
        _fill_dims(offsets, o, parent.md.ndims, "offsets")
        st = c.dnnl_memory_desc_create_submemory(&md, parent, d, o)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_reshape(out_memory_desc, in_memory_desc, ndims, dims):
    cdef c.dnnl_memory_desc_t md = NULL
    cdef c.dnnl_dims_t d
    cdef int n
    c.cydnnl_clear_error()
    try:
        out = _out(out_memory_desc, dnnl_memory_desc_t, "out_memory_desc")
        n = _ndims(ndims)
        _fill_dims(dims, d, n, "dims")
        st = c.dnnl_memory_desc_reshape(
            &md, <c.const_dnnl_memory_desc_t>_in(in_memory_desc, dnnl_memory_desc_t,
                                                 "in_memory_desc"), n, d)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_permute_axes(out_memory_desc, in_memory_desc, permutation):
    cdef c.dnnl_memory_desc_t md = NULL
    cdef int perm[12]
    cdef c.const_dnnl_memory_desc_t inp
    cdef int i
    c.cydnnl_clear_error()
    try:
        out = _out(out_memory_desc, dnnl_memory_desc_t, "out_memory_desc")
        inp = <c.const_dnnl_memory_desc_t>_in(in_memory_desc, dnnl_memory_desc_t,
                                              "in_memory_desc")
        if inp == NULL or not c.obj_alive(&inp.hdr, c.OBJ_MEMORY_DESC):
            _fail("in_memory_desc is not a live memory desc")
        items = _seq(permutation, "permutation")
        if len(items) < inp.md.ndims:
            _fail("permutation has %d entries; %d needed" % (len(items), inp.md.ndims))
        for i in range(inp.md.ndims):
            perm[i] = _int32(items[i], "permutation[%d]" % i)
        st = c.dnnl_memory_desc_permute_axes(&md, inp, perm)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_clone(memory_desc, existing_memory_desc):
    cdef c.dnnl_memory_desc_t md = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        st = c.dnnl_memory_desc_clone(&md, <c.const_dnnl_memory_desc_t>_in(
            existing_memory_desc, dnnl_memory_desc_t, "existing_memory_desc"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_destroy(memory_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_memory_desc_destroy(
            <c.dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"))
    except Exception as err:
        return _bad(err)


def dnnl_memory_desc_query(memory_desc, what, result):
    """As in C; result[0] receives the answer (dims-like answers as tuples
    of ndims ints)."""
    return dnnl_memory_desc_query_v2(memory_desc, what, 0, result)


def dnnl_memory_desc_query_v2(memory_desc, what, index, result):
    cdef c.const_dnnl_memory_desc_t md
    cdef int64_t buf[2]
    cdef dnnl_query_t q
    cdef int n
    c.cydnnl_clear_error()
    try:
        md = <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc")
        q = <dnnl_query_t>_enum(what, "what")
        buf[0] = 0
        st = c.dnnl_memory_desc_query_v2(md, q, _int32(index, "index"), buf)
        if st != dnnl_success:
            return st
        n = md.md.ndims
        if q in (dnnl_query_dims, dnnl_query_padded_dims, dnnl_query_padded_offsets,
                 dnnl_query_strides):
            value = _dims_tuple((<const c.dnnl_dim_t **>buf)[0], n)
        elif q in (dnnl_query_inner_blks, dnnl_query_inner_idxs):
            value = _dims_tuple((<const c.dnnl_dim_t **>buf)[0], md.md.inner_nblks)
        elif q == dnnl_query_submemory_offset_s64:
            value = buf[0]
        else:
            value = (<int *>buf)[0]
        _set_out(result, value, "result")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_memory_desc_equal(lhs, rhs):
    try:
        return c.dnnl_memory_desc_equal(
            <c.const_dnnl_memory_desc_t>_in(lhs, dnnl_memory_desc_t, "lhs"),
            <c.const_dnnl_memory_desc_t>_in(rhs, dnnl_memory_desc_t, "rhs"))
    except Exception as err:
        _bad(err)
        return 0


def dnnl_memory_desc_get_size(memory_desc):
    try:
        return c.dnnl_memory_desc_get_size(
            <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"))
    except Exception as err:
        _bad(err)
        return 0


def dnnl_memory_desc_get_size_v2(memory_desc, index):
    try:
        return c.dnnl_memory_desc_get_size_v2(
            <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"),
            _int32(index, "index"))
    except Exception as err:
        _bad(err)
        return 0


def dnnl_data_type_size(data_type):
    try:
        return c.dnnl_data_type_size(<dnnl_data_type_t>_enum(data_type, "data_type"))
    except Exception as err:
        _bad(err)
        return 0


# ------------------------------------------------------------ host scalars, blobs


def dnnl_memory_desc_create_host_scalar(memory_desc, data_type):
    cdef c.dnnl_memory_desc_t md = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        st = c.dnnl_memory_desc_create_host_scalar(
            &md, <dnnl_data_type_t>_enum(data_type, "data_type"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_get_blob(blob, size, memory_desc):
    """blob None: size[0] receives the blob's size; else blob is a writable
    buffer of at least that size, which receives the blob."""
    cdef size_t n = 0
    cdef Py_buffer view
    cdef c.const_dnnl_memory_desc_t md
    c.cydnnl_clear_error()
    try:
        md = <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc")
        if blob is None:
            st = c.dnnl_memory_desc_get_blob(NULL, &n, md)
            if st == dnnl_success:
                _set_out(size, n, "size")
            return st
        try:
            PyObject_GetBuffer(blob, &view, PyBUF_WRITABLE | PyBUF_FORMAT)
        except Exception:
            _fail("blob must be a writable buffer (a bytearray), not %s" % _what(blob))
        try:
            # raw bytes only: writing over the items of, say, an object array
            # would corrupt it
            if view.format != NULL and view.format not in (b"B", b"b", b"c", b"@B", b"=B"):
                _fail("blob must hold bytes (a bytearray or uint8 array), not items of "
                      "format %r" % (<bytes>view.format).decode("ascii", "replace"))
            if <size_t>view.len < c.cydnnl_memory_desc_blob_size():
                _fail("blob holds %d bytes; the blob needs %d" % (
                    view.len, c.cydnnl_memory_desc_blob_size()))
            n = view.len
            st = c.dnnl_memory_desc_get_blob(<uint8_t *>view.buf, &n, md)
        finally:
            PyBuffer_Release(&view)
    except Exception as err:
        return _bad(err)
    return st


def dnnl_memory_desc_create_with_blob(memory_desc, blob):
    """blob: the bytes dnnl_memory_desc_get_blob wrote."""
    cdef c.dnnl_memory_desc_t md = NULL
    cdef Py_buffer view
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        try:
            PyObject_GetBuffer(blob, &view, PyBUF_SIMPLE)
        except Exception:
            _fail("blob must be a buffer (bytes), not %s" % _what(blob))
        try:
            if <size_t>view.len < c.cydnnl_memory_desc_blob_size():
                _fail("blob holds %d bytes; a memory descriptor blob has %d" % (
                    view.len, c.cydnnl_memory_desc_blob_size()))
            st = c.dnnl_memory_desc_create_with_blob(&md, <const uint8_t *>view.buf)
        finally:
            PyBuffer_Release(&view)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st
