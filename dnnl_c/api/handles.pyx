# The handle objects of the Python-level C-style API and the argument
# conversions every wrapper shares. Output handles are objects the call
# fills in place (C's &handle); other outputs go to out[0] of a list the
# caller passes. Every function returns a dnnl_status_t and never raises. A
# handle object keeps what it points to allocated, so a destroyed handle
# answers dnnl_invalid_arguments instead of touching freed memory.

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE,
                             PyBUF_ANY_CONTIGUOUS, PyBUF_FORMAT, PyBUF_ND)
from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *

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


cdef tuple _dims_tuple(const c.dnnl_dim_t *p, int n):
    return tuple([p[i] for i in range(n)])


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
