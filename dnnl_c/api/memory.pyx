# The Python-level C API on memories, and user buffers as data handles.

from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBuffer_IsContiguous,
                             PyBUF_WRITABLE, PyBUF_STRIDES, PyBUF_SIMPLE, PyBUF_FORMAT,
                             PyBUF_ND)
from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *

from dnnl_c.api.handles import _BadArg, DNNL_MEMORY_ALLOCATE


# ------------------------------------------------------------ user buffers


# The elements a user buffer may hold for each data type, as (kind,
# itemsize) of its buffer format ('f' float, 'i' signed, 'u' unsigned, 'b'
# bool), or a NumPy dtype name for types the buffer protocol cannot name
# (ml_dtypes' bfloat16). Raw bytes ('B', or no format) fit any data type.
cdef dict _ELEMENTS = {
    dnnl_f32: (("f", 4),), dnnl_f64: (("f", 8),), dnnl_f16: (("f", 2),),
    dnnl_bf16: (("u", 2), "bfloat16"), dnnl_s32: (("i", 4),), dnnl_s8: (("i", 1),),
    dnnl_u8: (("u", 1),), dnnl_s64: (("i", 8),), dnnl_boolean: (("b", 1),),
    dnnl_f8_e5m2: ("float8_e5m2",), dnnl_f8_e4m3: ("float8_e4m3fn",),
}
cdef dict _NEEDS = {
    dnnl_f32: "float32", dnnl_f64: "float64", dnnl_f16: "float16",
    dnnl_bf16: "ml_dtypes.bfloat16 or uint16", dnnl_s32: "int32", dnnl_s8: "int8",
    dnnl_u8: "uint8", dnnl_s64: "int64", dnnl_boolean: "bool",
    dnnl_f8_e5m2: "ml_dtypes.float8_e5m2", dnnl_f8_e4m3: "ml_dtypes.float8_e4m3fn",
}
cdef dict _KIND_OF_CODE = {}
for _code in "bhilqn":
    _KIND_OF_CODE[_code] = "i"
for _code in "BHILQN":
    _KIND_OF_CODE[_code] = "u"
for _code in "efd":
    _KIND_OF_CODE[_code] = "f"
_KIND_OF_CODE["?"] = "b"


cdef object _element(bint formatted, const char *fmt, Py_ssize_t itemsize, object obj):
    """What a buffer holds: "raw" (bytes), (kind, itemsize), a dtype name,
    or None when unknown. formatted: the exporter was asked for a format
    (then NULL means bytes); else it could not name it."""
    if not formatted:
        dtype = getattr(obj, "dtype", None)     # NumPy's custom dtypes
        name = getattr(dtype, "name", None)
        return name if isinstance(name, str) else None
    if fmt == NULL:
        return "raw"
    f = (<bytes>fmt).decode("ascii", "replace")
    if f[:1] in ("@", "=", "<"):  # native byte order (x86-64 is little endian)
        f = f[1:]
    if f in ("B", "c"):
        return "raw"
    kind = _KIND_OF_CODE.get(f)
    return (kind, itemsize) if kind is not None else None


cdef str _element_str(object e, const char *fmt):
    if isinstance(e, tuple):
        names = {"f": "float", "i": "int", "u": "uint"}
        return "bool elements" if e[0] == "b" else "%s%d elements" % (names[e[0]], 8 * e[1])
    if isinstance(e, str):
        return "%s elements" % e
    if fmt != NULL:
        return "elements of format %r" % (<bytes>fmt).decode("ascii", "replace")
    return "elements of an unknown type"


cdef class _buffer:
    """A user buffer for a memory of data type `data_type`, held open: it
    must be writable (the library writes to memories), C-contiguous (the
    library addresses it by the descriptor's strides), and hold the data
    type's elements or raw bytes, never anything else reinterpreted."""
    cdef Py_buffer view
    cdef bint held
    cdef readonly object obj

    def __cinit__(self, obj, int data_type):
        cdef bint formatted = True
        try:
            PyObject_GetBuffer(obj, &self.view, PyBUF_STRIDES | PyBUF_WRITABLE | PyBUF_FORMAT)
        except Exception:
            # NumPy cannot name some dtypes (bfloat16) in a buffer format
            formatted = False
            try:
                PyObject_GetBuffer(obj, &self.view, PyBUF_STRIDES | PyBUF_WRITABLE)
            except Exception as err:
                self._refuse_unwritable(obj, err)
        self.held = True
        self.obj = obj
        if not PyBuffer_IsContiguous(&self.view, b"C"):
            raise _BadArg("the buffer must be C-contiguous (a %d-d view with strides %s)" % (
                self.view.ndim, tuple([self.view.strides[i] for i in range(self.view.ndim)])))
        e = _element(formatted, self.view.format, self.view.itemsize, obj)
        if e == "raw" or data_type == dnnl_data_type_undef:
            return
        if e not in _ELEMENTS.get(data_type, ()):
            raise _BadArg("the buffer holds %s; a %s memory needs %s "
                          "(or raw bytes: bytearray, uint8)" % (
                              _element_str(e, self.view.format),
                              (<bytes>c.dnnl_dt2str(<dnnl_data_type_t>data_type)).decode(),
                              _NEEDS.get(data_type, "raw bytes")))

    cdef int _refuse_unwritable(self, obj, err) except -1:
        cdef Py_buffer ro
        try:
            PyObject_GetBuffer(obj, &ro, PyBUF_SIMPLE)
        except Exception:
            raise _BadArg("the data handle must be a buffer (a NumPy array, bytearray, or a "
                          "data_handle), not %s" % _what(obj))
        PyBuffer_Release(&ro)
        raise _BadArg("the buffer must be writable (the library writes to memories) and "
                      "have strides; %s is not (%s)" % (_what(obj), err))

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
    buf = _buffer(handle, md.md.data_type if md != NULL else dnnl_data_type_undef)
    cdef size_t need = c.cydnnl_memory_desc_extent(md) if md != NULL else 0
    if <size_t>(<_buffer>buf).view.len < need:
        _fail("the buffer holds %d bytes; the memory descriptor needs %d"
              % ((<_buffer>buf).view.len, need))
    ptr[0] = (<_buffer>buf).view.buf
    return buf


def dnnl_memory_create(memory, memory_desc, engine, handle):
    """handle: DNNL_MEMORY_ALLOCATE (zero-filled), DNNL_MEMORY_NONE (None),
    or a writable C-contiguous buffer of at least the descriptor's size
    holding the memory's data type (or raw bytes), which the memory keeps
    alive."""
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
    except Exception as err:
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
        if _int32(nhandles, "nhandles") != 1:
            _fail("dense formats take exactly one handle")
        items = _seq(handles, "handles")
        if len(items) < 1:
            _fail("handles has no entries; 1 needed")
    except Exception as err:
        return _bad(err)
    return dnnl_memory_create(memory, memory_desc, engine, items[0])


def dnnl_memory_get_memory_desc(memory, memory_desc):
    cdef c.const_dnnl_memory_desc_t md = NULL
    c.cydnnl_clear_error()
    try:
        out = _out(memory_desc, dnnl_memory_desc_t, "memory_desc")
        st = c.dnnl_memory_get_memory_desc(
            <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory"), &md)
    except Exception as err:
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
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(&e.hdr)
    return st


def dnnl_memory_get_data_handle(memory, handle):
    """handle[0] receives a data_handle (None for a memory without one)."""
    return _get_data_handle(memory, handle, 0, "handle", False)


def dnnl_memory_get_data_handle_v2(memory, handle, index):
    return _get_data_handle(memory, handle, index, "handle", False)


cdef dnnl_status_t _get_data_handle(object memory, object out, object index, str name,
                                    bint mapping):
    cdef c.const_dnnl_memory_t m
    cdef void *ptr = NULL
    cdef size_t n
    c.cydnnl_clear_error()
    try:
        m = <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        if mapping:
            st = c.dnnl_memory_map_data_v2(m, &ptr, _int32(index, "index"))
        else:
            st = c.dnnl_memory_get_data_handle_v2(m, &ptr, _int32(index, "index"))
        if st != dnnl_success:
            return st
        if ptr == NULL:
            _set_out(out, None, name)
            return st
        keep = _user_buffers.get(<uintptr_t>m)
        if keep is None or <char *>(<_buffer>keep).view.buf != <char *>ptr:
            keep = memory      # the library's own buffer lives as long as the memory struct
        n = m.capacity if m.capacity > 0 else c.md_extent(&m.md.md)
        _set_out(out, _make_data_handle(<char *>ptr, n, keep), name)
    except Exception as err:
        return _bad(err)
    return st


def dnnl_memory_set_data_handle(memory, handle):
    """handle: a buffer as for dnnl_memory_create (or a data_handle), or None."""
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
        st = c.dnnl_memory_set_data_handle_v2(m, ptr, _int32(index, "index"))
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        if buf is not None:
            c.cydnnl_memory_set_capacity(m, (<_buffer>buf).view.len)
            _user_buffers[<uintptr_t>m] = buf
        else:
            _user_buffers.pop(<uintptr_t>m, None)
    return st


def dnnl_memory_map_data(memory, mapped_ptr):
    """mapped_ptr[0] receives the data handle (memory is host memory)."""
    return _get_data_handle(memory, mapped_ptr, 0, "mapped_ptr", True)


def dnnl_memory_map_data_v2(memory, mapped_ptr, index):
    return _get_data_handle(memory, mapped_ptr, index, "mapped_ptr", True)


def dnnl_memory_unmap_data(memory, mapped_ptr):
    return dnnl_memory_unmap_data_v2(memory, mapped_ptr, 0)


def dnnl_memory_unmap_data_v2(memory, mapped_ptr, index):
    """mapped_ptr: the data_handle map_data gave (or None)."""
    cdef void *ptr = NULL
    c.cydnnl_clear_error()
    try:
        if mapped_ptr is not None:
            if not isinstance(mapped_ptr, data_handle):
                _fail("mapped_ptr must be the data_handle map_data gave, not %s"
                      % _what(mapped_ptr))
            ptr = (<data_handle>mapped_ptr).ptr
        return c.dnnl_memory_unmap_data_v2(
            <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory"), ptr,
            _int32(index, "index"))
    except Exception as err:
        return _bad(err)


# ------------------------------------------------------------ host scalars

import struct as _struct

# How a Python number is stored as one value of each data type.
cdef dict _SCALAR_PACK = {dnnl_f32: "f", dnnl_f64: "d", dnnl_f16: "e", dnnl_s32: "i",
                          dnnl_s64: "q", dnnl_s8: "b", dnnl_u8: "B", dnnl_boolean: "?"}


cdef bytes _scalar_bytes(object value, int dt):
    """value as the bytes of one dt value: a number, or bytes of dt's size."""
    cdef size_t n = c.dnnl_data_type_size(<dnnl_data_type_t>dt)
    if isinstance(value, (bytes, bytearray)):
        if <size_t>len(value) != n:
            _fail("value holds %d bytes; a %s scalar has %d" % (
                len(value), (<bytes>c.dnnl_dt2str(<dnnl_data_type_t>dt)).decode(), n))
        return bytes(value)
    if dt == dnnl_bf16:         # f32 rounded to nearest even, upper half
        bits = _struct.unpack("<I", _struct.pack("<f", _float(value, "value")))[0]
        bits = (bits + 0x7fff + ((bits >> 16) & 1)) >> 16
        return _struct.pack("<H", bits & 0xffff)
    fmt = _SCALAR_PACK.get(dt)
    if fmt is None:
        _fail("a %s scalar takes its value as bytes" % (
            (<bytes>c.dnnl_dt2str(<dnnl_data_type_t>dt)).decode()))
    try:
        return _struct.pack("<" + fmt, _float(value, "value") if fmt in "fde"
                            else (bool(value) if fmt == "?" else _int(value, "value")))
    except _struct.error as err:
        _fail("value %s does not fit the scalar's type (%s)" % (_what(value), err))


cdef object _scalar_value(const char *p, int dt):
    cdef size_t n = c.dnnl_data_type_size(<dnnl_data_type_t>dt)
    raw = p[:n]
    if dt == dnnl_bf16:
        return _struct.unpack("<f", b"\0\0" + raw)[0]
    fmt = _SCALAR_PACK.get(dt)
    return raw if fmt is None else _struct.unpack("<" + fmt, raw)[0]


def dnnl_memory_create_host_scalar(memory, memory_desc, scalar):
    """scalar: a number (converted to the descriptor's data type) or the
    bytes of one value."""
    cdef c.dnnl_memory_t m = NULL
    cdef c.const_dnnl_memory_desc_t md
    cdef bytes raw
    c.cydnnl_clear_error()
    try:
        out = _out(memory, dnnl_memory_t, "memory")
        md = <c.const_dnnl_memory_desc_t>_in(memory_desc, dnnl_memory_desc_t, "memory_desc")
        if md == NULL or not c.obj_alive(&md.hdr, c.OBJ_MEMORY_DESC):
            _fail("memory_desc is not a live memory desc")
        if md.md.format_kind != dnnl_format_kind_host_scalar:
            _fail("memory_desc is not a host scalar descriptor")
        raw = _scalar_bytes(scalar, md.md.data_type)
        st = c.dnnl_memory_create_host_scalar(&m, md, <char *>raw)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &m.hdr)
    return st


def dnnl_memory_get_host_scalar_value(memory, value):
    """value[0] receives the value (a Python number; bytes for types without one)."""
    cdef c.const_dnnl_memory_t m
    cdef char buf[16]
    c.cydnnl_clear_error()
    try:
        m = <c.const_dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        st = c.dnnl_memory_get_host_scalar_value(m, buf)
        if st == dnnl_success:
            _set_out(value, _scalar_value(buf, m.md.md.data_type), "value")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_memory_set_host_scalar_value(memory, value):
    cdef c.dnnl_memory_t m
    cdef bytes raw
    c.cydnnl_clear_error()
    try:
        m = <c.dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        if m == NULL or not c.obj_alive(&m.hdr, c.OBJ_MEMORY):
            _fail("memory is not a live memory")
        if m.md.md.format_kind != dnnl_format_kind_host_scalar:
            _fail("memory is not a host scalar memory")
        raw = _scalar_bytes(value, m.md.md.data_type)
        return c.dnnl_memory_set_host_scalar_value(m, <char *>raw)
    except Exception as err:
        return _bad(err)


def dnnl_memory_destroy(memory):
    cdef c.dnnl_memory_t m
    c.cydnnl_clear_error()
    try:
        m = <c.dnnl_memory_t>_in(memory, dnnl_memory_t, "memory")
        st = c.dnnl_memory_destroy(m)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success and m != NULL:
        _user_buffers.pop(<uintptr_t>m, None)
    return st
