# The Python-level C API on memories, and user buffers as data handles.

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE,
                             PyBUF_ANY_CONTIGUOUS, PyBUF_FORMAT, PyBUF_ND)
from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *

from dnnl_c.api.handles import _BadArg, DNNL_MEMORY_ALLOCATE
import operator


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


cdef object _kept_buffer(const c.dnnl_memory *memory):
    return _user_buffers.get(<uintptr_t>memory)


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
