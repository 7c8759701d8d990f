# The Python-level C-style API: oneDNN's C functions with their names and
# argument orders. Output handles are objects the call fills in place (C's
# &handle); other outputs go to out[0] of a list the caller passes. Every
# function returns a dnnl_status_t and never raises. A handle object keeps
# what it points to allocated, so a destroyed handle answers
# dnnl_invalid_arguments instead of touching freed memory.

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE,
                             PyBUF_ANY_CONTIGUOUS, PyBUF_FORMAT, PyBUF_ND)
from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.reorder cimport dnnl_reorder_primitive_desc_create as c_reorder_pd_create

import operator

# ------------------------------------------------------------ handles


cdef class _handle:
    """A C handle. Holds a reference on the object the handle lives in, so
    the memory behind it stays valid as long as this Python object does."""

    cdef void adopt(self, c.obj_header *p):
        cdef c.obj_header *old = self.root
        cdef c.obj_header *root = p
        while root != NULL and root.owner != NULL:
            root = root.owner
        c.obj_retain(root)
        self.ptr = p
        self.root = root
        c.obj_release(old)

    def __dealloc__(self):
        c.obj_release(self.root)
        self.root = NULL

    def __bool__(self):
        return self.ptr != NULL

    def __eq__(self, other):
        if not isinstance(other, _handle):
            return NotImplemented
        return self.ptr == (<_handle>other).ptr and type(self) is type(other)

    def __hash__(self):
        return hash(<uintptr_t>self.ptr)

    def __repr__(self):
        if self.ptr == NULL:
            return "%s(NULL)" % type(self).__name__
        return "%s(0x%x)" % (type(self).__name__, <uintptr_t>self.ptr)


cdef class dnnl_engine_t(_handle):
    """An engine handle (dnnl_engine_t)."""


cdef class dnnl_stream_t(_handle):
    """A stream handle (dnnl_stream_t)."""


cdef class dnnl_memory_desc_t(_handle):
    """A memory descriptor handle (dnnl_memory_desc_t, const_dnnl_memory_desc_t)."""


cdef class dnnl_memory_t(_handle):
    """A memory handle (dnnl_memory_t, const_dnnl_memory_t)."""


cdef class dnnl_primitive_desc_t(_handle):
    """A primitive descriptor handle (dnnl_primitive_desc_t)."""


cdef class dnnl_primitive_t(_handle):
    """A primitive handle (dnnl_primitive_t)."""


cdef class dnnl_primitive_attr_t(_handle):
    """A primitive attributes handle (dnnl_primitive_attr_t)."""


const_dnnl_memory_desc_t = dnnl_memory_desc_t
const_dnnl_memory_t = dnnl_memory_t
const_dnnl_primitive_desc_t = dnnl_primitive_desc_t
const_dnnl_primitive_t = dnnl_primitive_t
const_dnnl_primitive_attr_t = dnnl_primitive_attr_t
const_dnnl_stream_t = dnnl_stream_t


cdef class dnnl_exec_arg_t:
    """One execution argument: {arg, memory}, as in C."""
    cdef public int arg
    cdef public object memory

    def __init__(self, arg=0, memory=None):
        self.arg = arg
        self.memory = memory

    def __repr__(self):
        return "dnnl_exec_arg_t(arg=%d, memory=%r)" % (self.arg, self.memory)


class _MemoryAllocate:
    def __repr__(self):
        return "DNNL_MEMORY_ALLOCATE"


DNNL_MEMORY_ALLOCATE = _MemoryAllocate()
DNNL_MEMORY_NONE = None

# ------------------------------------------------------------ user buffers


cdef class _buffer:
    """A writable contiguous buffer exported by a Python object, held open."""
    cdef Py_buffer view
    cdef bint held
    cdef readonly object obj

    def __cinit__(self, obj):
        try:
            PyObject_GetBuffer(obj, &self.view, PyBUF_WRITABLE | PyBUF_ANY_CONTIGUOUS)
        except (BufferError, TypeError, ValueError) as err:
            raise _BadArg("the data handle must be a writable contiguous buffer (%s)" % err)
        self.held = True
        self.obj = obj

    def __dealloc__(self):
        if self.held:
            PyBuffer_Release(&self.view)


cdef class data_handle:
    """A memory's data handle (C's void *): the address, and the bytes behind
    it as a buffer. It keeps the storage alive; pass it to
    dnnl_memory_set_data_handle or view it with numpy.frombuffer."""
    cdef char *ptr
    cdef Py_ssize_t nbytes
    cdef object keep
    cdef Py_ssize_t shape[1]

    @property
    def address(self):
        return <uintptr_t>self.ptr

    def __int__(self):
        return <uintptr_t>self.ptr

    def __len__(self):
        return self.nbytes

    def __eq__(self, other):
        if isinstance(other, data_handle):
            return self.ptr == (<data_handle>other).ptr
        return NotImplemented

    def __hash__(self):
        return hash(<uintptr_t>self.ptr)

    def __repr__(self):
        return "data_handle(0x%x, %d bytes)" % (<uintptr_t>self.ptr, self.nbytes)

    def __getbuffer__(self, Py_buffer *view, int flags):
        self.shape[0] = self.nbytes
        view.buf = self.ptr
        view.obj = self
        view.len = self.nbytes
        view.readonly = 0
        view.itemsize = 1
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = "B"
        view.ndim = 1
        view.shape = NULL
        if flags & PyBUF_ND:
            view.shape = self.shape
        view.strides = NULL
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer *view):
        pass


cdef data_handle _make_data_handle(char *ptr, Py_ssize_t nbytes, object keep):
    cdef data_handle h = data_handle.__new__(data_handle)
    h.ptr = ptr
    h.nbytes = nbytes
    h.keep = keep
    return h


# memory address -> the _buffer its handle points into (kept alive with it)
cdef dict _user_buffers = {}

# ------------------------------------------------------------ argument checks


class _BadArg(Exception):
    pass


cdef int _fail(str msg) except -1:
    raise _BadArg(msg)


cdef c.obj_header *_in(object h, type cls, str name) except? NULL:
    """The C pointer of an input handle (None is NULL)."""
    if h is None:
        return NULL
    if type(h) is not cls and not isinstance(h, cls):
        _fail("%s must be a %s, not %s" % (name, cls.__name__, type(h).__name__))
    return (<_handle>h).ptr


cdef c.const_dnnl_memory_desc_t _md(object h, str name) except? NULL:
    return <c.const_dnnl_memory_desc_t>_in(h, dnnl_memory_desc_t, name)


cdef c.dnnl_engine_t _engine(object h) except? NULL:
    return <c.dnnl_engine_t>_in(h, dnnl_engine_t, "engine")


cdef c.const_dnnl_primitive_attr_t _attr(object h) except? NULL:
    return <c.const_dnnl_primitive_attr_t>_in(h, dnnl_primitive_attr_t, "attr")


cdef c.const_dnnl_primitive_desc_t _hint(object h) except? NULL:
    return <c.const_dnnl_primitive_desc_t>_in(h, dnnl_primitive_desc_t, "hint_fwd_pd")


cdef int _spatial_dims(object md, str name) except -1:
    cdef c.obj_header *p = _in(md, dnnl_memory_desc_t, name)
    if p != NULL and c.obj_alive(p, c.OBJ_MEMORY_DESC):
        return max((<c.dnnl_memory_desc *>p).md.ndims - 2, 0)
    return 0


cdef _handle _out(object h, type cls, str name):
    if not isinstance(h, cls):
        _fail("%s must be a %s to fill in, not %s" % (name, cls.__name__, type(h).__name__))
    return <_handle>h


cdef int _fill_dims(object seq, c.dnnl_dim_t *out, int need, str name) except -1:
    """Copies a sequence of ints into a dnnl_dims_t; it must hold `need`."""
    cdef int i, n
    memset(out, 0, sizeof(c.dnnl_dims_t))
    try:
        items = list(seq)
    except TypeError:
        _fail("%s must be a sequence of ints" % name)
    n = len(items)
    if n > DNNL_MAX_NDIMS:
        _fail("%s has %d entries; at most %d" % (name, n, DNNL_MAX_NDIMS))
    if n < need:
        _fail("%s has %d entries; %d needed" % (name, n, need))
    for i in range(n):
        try:
            out[i] = operator.index(items[i])
        except (TypeError, OverflowError):
            _fail("%s[%d] must be an int in the int64 range" % (name, i))
    return n


cdef int _set_out(object out, object value, str name) except -1:
    try:
        out[0] = value
    except (TypeError, IndexError):
        _fail("%s must be a list (or other mutable sequence) to receive the result" % name)
    return 0


cdef dnnl_status_t _bad(object e):
    msg = str(e).encode("utf-8", "replace")
    c.fail(dnnl_invalid_arguments, msg)
    return dnnl_invalid_arguments


def cydnnl_last_error():
    """Why the last call of this thread failed ('' if it did not)."""
    return (<bytes>c.cydnnl_last_error()).decode("utf-8", "replace")


def cydnnl_md2str(memory_desc):
    """A short description of a memory descriptor: 'f32:aBcd8b' (data type
    and the format tag it matches), 'f32:strides(...)' otherwise."""
    cdef char buf[256]
    cdef c.const_dnnl_memory_desc_t md
    try:
        md = <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc")
    except _BadArg:
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
    except _BadArg:
        return 0

# ------------------------------------------------------------ engine, stream


def dnnl_engine_get_count(kind):
    try:
        return c.dnnl_engine_get_count(<dnnl_engine_kind_t><int>kind)
    except (TypeError, OverflowError):
        return 0


def dnnl_engine_create(engine, kind, index):
    cdef c.dnnl_engine_t e = NULL
    cdef dnnl_status_t st
    c.cydnnl_clear_error()
    try:
        out = _out(engine, dnnl_engine_t, "engine")
        if index < 0:
            _fail("index must be >= 0")
        st = c.dnnl_engine_create(&e, <dnnl_engine_kind_t><int>kind, <size_t>index)
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &e.hdr)
    return st


def dnnl_engine_get_kind(engine, kind):
    cdef dnnl_engine_kind_t k = dnnl_any_engine
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_engine_get_kind(<c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"), &k)
        if st == dnnl_success:
            _set_out(kind, <int>k, "kind")
    except _BadArg as err:
        return _bad(err)
    return st


def dnnl_engine_destroy(engine):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_engine_destroy(<c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"))
    except _BadArg as err:
        return _bad(err)


def dnnl_stream_create(stream, engine, flags):
    cdef c.dnnl_stream_t s = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(stream, dnnl_stream_t, "stream")
        st = c.dnnl_stream_create(&s, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                                  <unsigned>flags)
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &s.hdr)
    return st


cdef void _adopt_new(_handle out, c.obj_header *p):
    """A created object has one reference, the user's, which destroy
    releases; the handle object adds its own."""
    out.adopt(p)


cdef dnnl_status_t _pd_created(dnnl_status_t st, _handle out, c.dnnl_primitive_desc_t pd):
    if st == dnnl_success:
        _adopt_new(out, &pd.hdr)
    return st


cdef c.dnnl_dim_t *_opt_dims(object seq, c.dnnl_dim_t *out, int need, str name) except? NULL:
    if seq is None:
        return NULL
    _fill_dims(seq, out, need, name)
    return out


def dnnl_stream_get_engine(stream, engine):
    cdef c.dnnl_engine_t e = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(engine, dnnl_engine_t, "engine")
        st = c.dnnl_stream_get_engine(<c.const_dnnl_stream_t>_in(stream, dnnl_stream_t, "stream"), &e)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(&e.hdr)
    return st


def dnnl_stream_wait(stream):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_stream_wait(<c.dnnl_stream_t>_in(stream, dnnl_stream_t, "stream"))
    except _BadArg as err:
        return _bad(err)


def dnnl_stream_destroy(stream):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_stream_destroy(<c.dnnl_stream_t>_in(stream, dnnl_stream_t, "stream"))
    except _BadArg as err:
        return _bad(err)

# ------------------------------------------------------------ memory descriptors


cdef int _ndims(object ndims) except? -1:
    try:
        n = operator.index(ndims)
    except TypeError:
        _fail("ndims must be an int")
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
        st = c.dnnl_memory_desc_create_with_tag(&md, n, d, <dnnl_data_type_t><int>data_type,
                                                <dnnl_format_tag_t><int>tag)
    except (_BadArg, TypeError, OverflowError) as err:
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
            &md, n, d, <dnnl_data_type_t><int>data_type, sp)
    except (_BadArg, TypeError, OverflowError) as err:
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
    except (_BadArg, TypeError, OverflowError) as err:
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
    except (_BadArg, TypeError, OverflowError) as err:
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
        items = list(permutation)
        if len(items) < inp.md.ndims:
            _fail("permutation has %d entries; %d needed" % (len(items), inp.md.ndims))
        for i in range(inp.md.ndims):
            perm[i] = operator.index(items[i])
        st = c.dnnl_memory_desc_permute_axes(&md, inp, perm)
    except (_BadArg, TypeError, OverflowError) as err:
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
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &md.hdr)
    return st


def dnnl_memory_desc_destroy(memory_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_memory_desc_destroy(
            <c.dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"))
    except _BadArg as err:
        return _bad(err)


cdef tuple _dims_tuple(const c.dnnl_dim_t *p, int n):
    return tuple([p[i] for i in range(n)])


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
        q = <dnnl_query_t><int>what
        buf[0] = 0
        st = c.dnnl_memory_desc_query_v2(md, q, <int>index, buf)
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
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return st


def dnnl_memory_desc_equal(lhs, rhs):
    try:
        return c.dnnl_memory_desc_equal(
            <c.const_dnnl_memory_desc_t>_in(lhs, dnnl_memory_desc_t, "lhs"),
            <c.const_dnnl_memory_desc_t>_in(rhs, dnnl_memory_desc_t, "rhs"))
    except _BadArg:
        return 0


def dnnl_memory_desc_get_size(memory_desc):
    try:
        return c.dnnl_memory_desc_get_size(
            <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"))
    except _BadArg:
        return 0


def dnnl_memory_desc_get_size_v2(memory_desc, index):
    try:
        return c.dnnl_memory_desc_get_size_v2(
            <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc"),
            <int>index)
    except (_BadArg, TypeError, OverflowError):
        return 0


def dnnl_data_type_size(data_type):
    try:
        return c.dnnl_data_type_size(<dnnl_data_type_t><int>data_type)
    except (TypeError, OverflowError):
        return 0

# ------------------------------------------------------------ memory


cdef object _handle_arg(object handle, void **ptr, c.const_dnnl_memory_desc_t md):
    """C's void *handle from DNNL_MEMORY_ALLOCATE, None or a buffer; returns
    the _buffer to keep alive (or None)."""
    if handle is DNNL_MEMORY_ALLOCATE:
        ptr[0] = <void *>(<uintptr_t>-1)
        return None
    if handle is None:
        ptr[0] = NULL
        return None
    if isinstance(handle, int):
        _fail("raw addresses are not accepted as data handles; pass a buffer "
              "(a NumPy array, bytearray, or a data_handle from dnnl_memory_get_data_handle)")
    buf = _buffer(handle)
    cdef size_t need = c.cydnnl_memory_desc_extent(md) if md != NULL else 0
    if <size_t>(<_buffer>buf).view.len < need:
        _fail("the buffer holds %d bytes; the memory descriptor needs %d"
              % ((<_buffer>buf).view.len, need))
    ptr[0] = (<_buffer>buf).view.buf
    return buf


def dnnl_memory_create(memory, memory_desc, engine, handle):
    """handle: DNNL_MEMORY_ALLOCATE (zero-filled), DNNL_MEMORY_NONE (None),
    or a writable contiguous buffer of at least the descriptor's size, which
    the memory keeps alive."""
    cdef c.dnnl_memory_t m = NULL
    cdef c.const_dnnl_memory_desc_t md
    cdef void *ptr = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(memory, dnnl_memory_t, "memory")
        md = <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc")
        if md != NULL and not c.obj_alive(&md.hdr, c.OBJ_MEMORY_DESC):
            _fail("memory_desc is not a live memory desc")
        buf = _handle_arg(handle, &ptr, md)
        st = c.dnnl_memory_create(&m, md, <c.dnnl_engine_t>_in(engine, dnnl_engine_t, "engine"),
                                  ptr)
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    if st == dnnl_success:
        if buf is not None:
            c.cydnnl_memory_set_capacity(m, (<_buffer>buf).view.len)
            _user_buffers[<uintptr_t>m] = buf
        _adopt_new(out, &m.hdr)
    return st


def dnnl_memory_create_v2(memory, memory_desc, engine, nhandles, handles):
    c.cydnnl_clear_error()
    try:
        if nhandles != 1 or handles is None or len(handles) < 1:
            _fail("dense formats take exactly one handle")
    except (_BadArg, TypeError) as err:
        return _bad(err)
    return dnnl_memory_create(memory, memory_desc, engine, handles[0])


def dnnl_memory_get_memory_desc(memory, memory_desc):
    cdef c.const_dnnl_memory_desc_t md = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        st = c.dnnl_memory_get_memory_desc(
            <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory"), &md)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(<c.obj_header *>&md.hdr)
    return st


def dnnl_memory_get_engine(memory, engine):
    cdef c.dnnl_engine_t e = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(engine, dnnl_engine_t, "engine")
        st = c.dnnl_memory_get_engine(<c.const_dnnl_memory_t>_in(memory, dnnl_memory_t,
                                                                 "memory"), &e)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(&e.hdr)
    return st


def dnnl_memory_get_data_handle(memory, handle):
    """handle[0] receives a data_handle (None for a memory without one)."""
    return dnnl_memory_get_data_handle_v2(memory, handle, 0)


def dnnl_memory_get_data_handle_v2(memory, handle, index):
    cdef c.const_dnnl_memory_t m
    cdef void *ptr = NULL
    cdef size_t n
    c.cydnnl_clear_error()
    try:
        m = <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        st = c.dnnl_memory_get_data_handle_v2(m, &ptr, <int>index)
        if st != dnnl_success:
            return st
        if ptr == NULL:
            _set_out(handle, None, "handle")
            return st
        keep = _user_buffers.get(<uintptr_t>m)
        if keep is None or <char *>(<_buffer>keep).view.buf != <char *>ptr:
            keep = memory      # the library's own buffer lives as long as the memory struct
        n = m.capacity if m.capacity > 0 else c.md_extent(&m.md.md)
        _set_out(handle, _make_data_handle(<char *>ptr, n, keep), "handle")
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return st


def dnnl_memory_set_data_handle(memory, handle):
    """handle: a writable contiguous buffer (or a data_handle), or None."""
    return dnnl_memory_set_data_handle_v2(memory, handle, 0)


def dnnl_memory_set_data_handle_v2(memory, handle, index):
    cdef c.dnnl_memory_t m
    cdef void *ptr = NULL
    c.cydnnl_clear_error()
    try:
        m = <c.dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        if m == NULL or not c.obj_alive(&m.hdr, c.OBJ_MEMORY):
            _fail("memory is not a live memory")
        if handle is DNNL_MEMORY_ALLOCATE:
            _fail("DNNL_MEMORY_ALLOCATE is not a data handle")
        buf = _handle_arg(handle, &ptr, &m.md)
        st = c.dnnl_memory_set_data_handle_v2(m, ptr, <int>index)
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    if st == dnnl_success:
        if buf is not None:
            c.cydnnl_memory_set_capacity(m, (<_buffer>buf).view.len)
            _user_buffers[<uintptr_t>m] = buf
        else:
            _user_buffers.pop(<uintptr_t>m, None)
    return st


def dnnl_memory_map_data(memory, mapped_ptr):
    return dnnl_memory_get_data_handle(memory, mapped_ptr)


def dnnl_memory_unmap_data(memory, mapped_ptr):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_memory_unmap_data(
            <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory"), NULL)
    except _BadArg as err:
        return _bad(err)


def dnnl_memory_destroy(memory):
    cdef c.dnnl_memory_t m
    c.cydnnl_clear_error()
    try:
        m = <c.dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        st = c.dnnl_memory_destroy(m)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success and m != NULL:
        _user_buffers.pop(<uintptr_t>m, None)
    return st

# ------------------------------------------------------------ attributes


def dnnl_primitive_attr_create(attr):
    cdef c.dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_attr_create(&a)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &a.hdr)
    return st


def dnnl_primitive_attr_clone(attr, existing_attr):
    cdef c.dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_attr_clone(&a, <c.const_dnnl_primitive_attr_t>_in(
            existing_attr, dnnl_primitive_attr_t, "existing_attr"))
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &a.hdr)
    return st


def dnnl_primitive_attr_destroy(attr):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_destroy(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except _BadArg as err:
        return _bad(err)


def dnnl_primitive_attr_get_scratchpad_mode(attr, mode):
    cdef dnnl_scratchpad_mode_t m = dnnl_scratchpad_mode_library
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_scratchpad_mode(
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except _BadArg as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_scratchpad_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_scratchpad_mode(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"),
            <dnnl_scratchpad_mode_t><int>mode)
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)


def dnnl_primitive_attr_get_fpmath_mode(attr, mode):
    cdef dnnl_fpmath_mode_t m = dnnl_fpmath_mode_strict
    c.cydnnl_clear_error()
    try:
        st = c.dnnl_primitive_attr_get_fpmath_mode(
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"), &m)
        if st == dnnl_success:
            _set_out(mode, <int>m, "mode")
    except _BadArg as err:
        return _bad(err)
    return st


def dnnl_primitive_attr_set_fpmath_mode(attr, mode):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_attr_set_fpmath_mode(
            <c.dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"),
            <dnnl_fpmath_mode_t><int>mode)
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)

# ------------------------------------------------------------ primitive descriptors


def dnnl_primitive_desc_next_impl(primitive_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_desc_next_impl(
            <c.dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                         "primitive_desc"))
    except _BadArg as err:
        return _bad(err)


def dnnl_primitive_desc_clone(primitive_desc, existing_primitive_desc):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c.dnnl_primitive_desc_clone(&pd, <c.const_dnnl_primitive_desc_t>_in(
            existing_primitive_desc, dnnl_primitive_desc_t, "existing_primitive_desc"))
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &pd.hdr)
    return st


def dnnl_primitive_desc_get_attr(primitive_desc, attr):
    cdef c.const_dnnl_primitive_attr_t a = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(attr, dnnl_primitive_attr_t, "attr")
        st = c.dnnl_primitive_desc_get_attr(<c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"), &a)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(<c.obj_header *>&a.hdr)
    return st


def dnnl_primitive_desc_destroy(primitive_desc):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_desc_destroy(
            <c.dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                         "primitive_desc"))
    except _BadArg as err:
        return _bad(err)


cdef int _spatial_ndims(c.const_dnnl_primitive_desc_t pd):
    cdef int i
    for i in range(pd.nargs):
        if pd.args[i].arg in (DNNL_ARG_SRC, DNNL_ARG_DIFF_SRC) and pd.args[i].md.md.ndims:
            return pd.args[i].md.md.ndims - 2
    return DNNL_MAX_NDIMS


def dnnl_primitive_desc_query(primitive_desc, what, index, result):
    """As in C; result[0] receives the answer: handles as handle objects,
    dims-like answers as tuples (spatial dims only), strings as str."""
    cdef c.const_dnnl_primitive_desc_t pd
    cdef int64_t buf[2]
    cdef dnnl_query_t q
    c.cydnnl_clear_error()
    try:
        pd = <c.const_dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                                "primitive_desc")
        q = <dnnl_query_t><int>what
        buf[0] = 0
        st = c.dnnl_primitive_desc_query(pd, q, <int>index, buf)
        if st != dnnl_success:
            return st
        if q in (dnnl_query_engine, dnnl_query_scratchpad_engine, dnnl_query_reorder_src_engine,
                 dnnl_query_reorder_dst_engine):
            value = dnnl_engine_t()
            (<_handle>value).adopt(<c.obj_header *>(<void **>buf)[0])
        elif dnnl_query_some_md <= q <= dnnl_query_exec_arg_md:
            value = dnnl_memory_desc_t()
            (<_handle>value).adopt(<c.obj_header *>(<void **>buf)[0])
        elif q == dnnl_query_impl_info_str:
            value = (<bytes>(<const char **>buf)[0]).decode()
        elif q in (dnnl_query_strides, dnnl_query_dilations, dnnl_query_padding_l,
                   dnnl_query_padding_r, dnnl_query_kernel):
            value = _dims_tuple((<const c.dnnl_dim_t **>buf)[0], _spatial_ndims(pd))
        elif q in (dnnl_query_alpha_f32, dnnl_query_beta_f32, dnnl_query_k_f32):
            value = (<float *>buf)[0]
        elif q == dnnl_query_time_estimate_f64:
            value = (<double *>buf)[0]
        elif q in (dnnl_query_local_size_s64, dnnl_query_memory_consumption_s64):
            value = buf[0]
        elif q == dnnl_query_flags:
            value = (<unsigned *>buf)[0]
        else:
            value = (<int *>buf)[0]
        _set_out(result, value, "result")
    except (_BadArg, TypeError, OverflowError) as err:
        return _bad(err)
    return st


def dnnl_primitive_desc_query_md(primitive_desc, what, index):
    """The memory descriptor, or None (C's NULL) on error."""
    cdef c.const_dnnl_memory_desc_t md
    c.cydnnl_clear_error()
    try:
        md = c.dnnl_primitive_desc_query_md(<c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"),
            <dnnl_query_t><int>what, <int>index)
    except (_BadArg, TypeError, OverflowError) as err:
        _bad(err)
        return None
    if md == NULL:
        return None
    value = dnnl_memory_desc_t()
    (<_handle>value).adopt(<c.obj_header *>&md.hdr)
    return value


def dnnl_primitive_desc_query_s32(primitive_desc, what, index):
    try:
        return c.dnnl_primitive_desc_query_s32(<c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"),
            <dnnl_query_t><int>what, <int>index)
    except (_BadArg, TypeError, OverflowError):
        return 0

# ------------------------------------------------------------ primitives


def dnnl_primitive_create(primitive, primitive_desc):
    cdef c.dnnl_primitive_t p = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive, dnnl_primitive_t, "primitive")
        st = c.dnnl_primitive_create(&p, <c.const_dnnl_primitive_desc_t>_in(
            primitive_desc, dnnl_primitive_desc_t, "primitive_desc"))
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &p.hdr)
    return st


def dnnl_primitive_get_primitive_desc(primitive, primitive_desc):
    cdef c.const_dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(primitive_desc, dnnl_primitive_desc_t, "primitive_desc")
        st = c.dnnl_primitive_get_primitive_desc(
            <c.const_dnnl_primitive_t>_in(primitive, dnnl_primitive_t, "primitive"), &pd)
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(<c.obj_header *>&pd.hdr)
    return st


def dnnl_primitive_destroy(primitive):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_destroy(
            <c.dnnl_primitive_t>_in(primitive, dnnl_primitive_t, "primitive"))
    except _BadArg as err:
        return _bad(err)


def dnnl_primitive_execute(primitive, stream, nargs, args):
    """args: a sequence of dnnl_exec_arg_t (or (arg, memory) pairs); the
    first nargs are used. Runs without the GIL."""
    cdef c.const_dnnl_primitive_t prim
    cdef c.dnnl_stream_t s
    cdef c.dnnl_exec_arg_t *cargs = NULL
    cdef int n, i
    cdef dnnl_status_t st
    c.cydnnl_clear_error()
    try:
        prim = <c.const_dnnl_primitive_t>_in(primitive, dnnl_primitive_t, "primitive")
        s = <c.dnnl_stream_t>_in(stream, dnnl_stream_t, "stream")
        n = operator.index(nargs)
        items = [] if n == 0 else list(args)
        if n < 0 or n > len(items):
            _fail("nargs is %d but %d arguments are given" % (n, len(items)))
        keep = []
        cargs = <c.dnnl_exec_arg_t *>malloc((n + 1) * sizeof(c.dnnl_exec_arg_t))
        if cargs == NULL:
            raise MemoryError()
        for i in range(n):
            item = items[i]
            if isinstance(item, dnnl_exec_arg_t):
                arg, mem = (<dnnl_exec_arg_t>item).arg, (<dnnl_exec_arg_t>item).memory
            else:
                try:
                    arg, mem = item
                except (TypeError, ValueError):
                    _fail("args[%d] must be a dnnl_exec_arg_t or an (arg, memory) pair" % i)
            cargs[i].arg = operator.index(arg)
            cargs[i].memory = <c.dnnl_memory_t>_in(mem, dnnl_memory_t, "args[%d].memory" % i)
            keep.append(_user_buffers.get(<uintptr_t>cargs[i].memory))
    except (_BadArg, TypeError, OverflowError) as err:
        free(cargs)
        return _bad(err)
    except MemoryError:
        return dnnl_out_of_memory
    with nogil:
        st = c.dnnl_primitive_execute(prim, s, n, cargs)
    free(cargs)
    return st

# ------------------------------------------------------------ reorder


def dnnl_reorder_primitive_desc_create(reorder_primitive_desc, src_desc, src_engine,
                                       dst_desc, dst_engine, attr):
    cdef c.dnnl_primitive_desc_t pd = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(reorder_primitive_desc, dnnl_primitive_desc_t, "reorder_primitive_desc")
        st = c_reorder_pd_create(
            &pd, <c.const_dnnl_memory_desc_t>_in(src_desc, dnnl_memory_desc_t, "src_desc"),
            <c.dnnl_engine_t>_in(src_engine, dnnl_engine_t, "src_engine"),
            <c.const_dnnl_memory_desc_t>_in(dst_desc, dnnl_memory_desc_t, "dst_desc"),
            <c.dnnl_engine_t>_in(dst_engine, dnnl_engine_t, "dst_engine"),
            <c.const_dnnl_primitive_attr_t>_in(attr, dnnl_primitive_attr_t, "attr"))
    except _BadArg as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &pd.hdr)
    return st

# ------------------------------------------------------------ misc


def dnnl_set_verbose(level):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_set_verbose(<int>level)
    except (TypeError, OverflowError) as err:
        return _bad(err)


class dnnl_version_t:
    def __init__(self, major, minor, patch, hash, cpu_runtime, gpu_runtime):
        self.major, self.minor, self.patch = major, minor, patch
        self.hash, self.cpu_runtime, self.gpu_runtime = hash, cpu_runtime, gpu_runtime

    def __repr__(self):
        return "dnnl_version_t(%d.%d.%d, %s)" % (self.major, self.minor, self.patch, self.hash)


def dnnl_version():
    cdef const c.dnnl_version_t *v = c.dnnl_version()
    return dnnl_version_t(v.major, v.minor, v.patch, (<bytes>v.hash).decode(),
                          v.cpu_runtime, v.gpu_runtime)


cdef str _s(const char *p):
    return (<bytes>p).decode()


def dnnl_status2str(v): return _s(c.dnnl_status2str(<dnnl_status_t><int>v))
def dnnl_dt2str(v): return _s(c.dnnl_dt2str(<dnnl_data_type_t><int>v))
def dnnl_fmt_kind2str(v): return _s(c.dnnl_fmt_kind2str(<dnnl_format_kind_t><int>v))
def dnnl_fmt_tag2str(v): return _s(c.dnnl_fmt_tag2str(<dnnl_format_tag_t><int>v))
def dnnl_prop_kind2str(v): return _s(c.dnnl_prop_kind2str(<dnnl_prop_kind_t><int>v))
def dnnl_prim_kind2str(v): return _s(c.dnnl_prim_kind2str(<dnnl_primitive_kind_t><int>v))
def dnnl_alg_kind2str(v): return _s(c.dnnl_alg_kind2str(<dnnl_alg_kind_t><int>v))
def dnnl_engine_kind2str(v): return _s(c.dnnl_engine_kind2str(<dnnl_engine_kind_t><int>v))
def dnnl_rnn_direction2str(v): return _s(c.dnnl_rnn_direction2str(<dnnl_rnn_direction_t><int>v))
def dnnl_rnn_flags2str(v): return _s(c.dnnl_rnn_flags2str(<dnnl_rnn_flags_t><int>v))
def dnnl_scratchpad_mode2str(v):
    return _s(c.dnnl_scratchpad_mode2str(<dnnl_scratchpad_mode_t><int>v))
def dnnl_fpmath_mode2str(v): return _s(c.dnnl_fpmath_mode2str(<dnnl_fpmath_mode_t><int>v))
def dnnl_query2str(v): return _s(c.dnnl_query2str(<dnnl_query_t><int>v))
