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
from libc.math cimport INFINITY, fabs
from libc.float cimport FLT_MAX

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *

import numbers
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


cdef class dnnl_post_ops_t(_handle):
    """A post-ops handle (dnnl_post_ops_t, const_dnnl_post_ops_t)."""


const_dnnl_memory_desc_t = dnnl_memory_desc_t
const_dnnl_memory_t = dnnl_memory_t
const_dnnl_primitive_desc_t = dnnl_primitive_desc_t
const_dnnl_primitive_t = dnnl_primitive_t
const_dnnl_primitive_attr_t = dnnl_primitive_attr_t
const_dnnl_stream_t = dnnl_stream_t
const_dnnl_post_ops_t = dnnl_post_ops_t


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
# Every wrapper converts what the user passes with these helpers, inside a
# try whose except turns any exception into a status (_bad). They raise
# _BadArg naming the argument, so a wrong type or a value C cannot hold is
# dnnl_invalid_arguments with a message, never a truncation.


class _BadArg(Exception):
    pass


cdef int _fail(str msg) except -1:
    raise _BadArg(msg)


cdef str _what(object x):
    """How a message names a value: its type, and the value if short."""
    t = type(x)
    name = t.__name__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__, t.__qualname__)
    if isinstance(x, (int, float, str, bytes)):
        r = repr(x)
        if len(r) <= 40:
            return "%s %s" % (name, r)
    if isinstance(x, (list, tuple, dict)) and len(x) == 0:
        return "an empty " + name
    return name


cdef object _index(object x, str name):
    """x as a Python int: ints and NumPy integer scalars (operator.index);
    floats, strings, None, arrays are refused, not truncated."""
    try:
        return operator.index(x)
    except Exception:
        _fail("%s must be an int, not %s" % (name, _what(x)))


cdef object _ranged(object x, str name, object lo, object hi, str ctype):
    v = _index(x, name)
    if v < lo or v > hi:
        _fail("%s = %d does not fit in %s" % (name, v, ctype))
    return v


cdef int64_t _int(object x, str name) except? -1:
    return _ranged(x, name, -2**63, 2**63 - 1, "int64")


cdef int _int32(object x, str name) except? -1:
    return _ranged(x, name, -2**31, 2**31 - 1, "a C int")


cdef int _enum(object x, str name) except? -1:
    # oneDNN's enums are C ints
    return _ranged(x, name, -2**31, 2**31 - 1, "a C enum")


cdef size_t _size(object x, str name) except? 0:
    v = _index(x, name)
    if v < 0:
        _fail("%s = %d must be >= 0" % (name, v))
    if v > <size_t>-1:
        _fail("%s = %d does not fit in size_t" % (name, v))
    return v


cdef unsigned _unsigned(object x, str name) except? 0:
    return _ranged(x, name, 0, 2**32 - 1, "a C unsigned")


cdef float _float(object x, str name) except? -1:
    # numbers.Real: int, float, NumPy scalars; not str ("1.5"), None, arrays
    cdef double v
    if not isinstance(x, numbers.Real):
        _fail("%s must be a real number, not %s" % (name, _what(x)))
    try:
        v = float(x)
    except Exception:
        _fail("%s = %s is not representable as a float" % (name, _what(x)))
    if FLT_MAX < fabs(v) < INFINITY:      # inf and nan are floats too
        _fail("%s = %r does not fit in a C float" % (name, v))
    return <float>v


cdef list _seq(object x, str name):
    """The items of a sequence argument (a list, tuple, NumPy array, ...)."""
    if x is None or isinstance(x, (str, bytes, dict, set, frozenset)):   # sets have no order
        _fail("%s must be a sequence, not %s" % (name, _what(x)))
    if getattr(getattr(x, "dtype", None), "kind", None) == "O":
        _fail("%s must be a sequence of numbers, not an array of Python objects" % name)
    try:
        return list(x)
    except Exception:
        _fail("%s must be a sequence, not %s" % (name, _what(x)))


cdef int64_t _dim(object x, str name) except? -1:
    # bool is an int to Python, never a dim
    if isinstance(x, bool):
        _fail("%s must be an int, not bool" % name)
    return _int(x, name)


cdef c.obj_header *_in(object h, type cls, str name) except? NULL:
    """The C pointer of an input handle (None is NULL)."""
    if h is None:
        return NULL
    if not isinstance(h, cls):
        _fail("%s must be a %s, not %s" % (name, cls.__name__, _what(h)))
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
        _fail("%s must be a %s to fill in, not %s" % (name, cls.__name__, _what(h)))
    return <_handle>h


cdef int _fill_dims(object seq, c.dnnl_dim_t *out, int need, str name) except -1:
    """Copies a sequence of ints into a dnnl_dims_t; it must hold `need`."""
    cdef int i, n
    memset(out, 0, sizeof(c.dnnl_dims_t))
    items = _seq(seq, name)
    n = len(items)
    if n > DNNL_MAX_NDIMS:
        _fail("%s has %d entries; at most %d" % (name, n, DNNL_MAX_NDIMS))
    if n < need:
        _fail("%s has %d entries; %d needed" % (name, n, need))
    for i in range(n):
        out[i] = _dim(items[i], "%s[%d]" % (name, i))
    return n


cdef int _set_out(object out, object value, str name) except -1:
    # out must be a list (C's &result); its length is checked here, not left
    # to Cython's indexing, whose bounds check the build may turn off
    if not isinstance(out, list) or len(<list>out) < 1:
        _fail("%s must be a list of at least one element ([None]) to receive the "
              "result, not %s" % (name, _what(out)))
    out[0] = value
    return 0


cdef dnnl_status_t _bad(object e):
    cdef dnnl_status_t st = dnnl_out_of_memory if isinstance(e, MemoryError) \
        else dnnl_invalid_arguments
    try:
        text = str(e) if isinstance(e, _BadArg) else "%s: %s" % (type(e).__name__, e)
        msg = text.encode("utf-8", "replace")
    except Exception:
        msg = type(e).__name__.encode("utf-8", "replace")
    c.fail(st, msg)
    return st


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
