# DLPack for memories: a plain memory as a DLPack tensor over its buffer, and
# a memory over a DLPack tensor, both without copies. DLPack is how NumPy,
# PyTorch, JAX and the array API exchange tensors; oneDNN has no such call,
# hence the cydnnl_ names. The object layer's memory.__dlpack__ and
# memory.from_dlpack are built on these two functions.

from cpython.pycapsule cimport (PyCapsule_New, PyCapsule_IsValid, PyCapsule_GetPointer,
                                PyCapsule_SetName, PyCapsule_CheckExact)
from cpython.ref cimport PyObject, Py_INCREF, Py_DECREF
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_ND
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport calloc, free

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *

from dnnl_c.api.handles import _BadArg
from dnnl_c.api.memory import (dnnl_memory_create, dnnl_memory_get_data_handle,
                               dnnl_memory_get_memory_desc)
from dnnl_c.api.memory_desc import cydnnl_md2str, dnnl_memory_desc_create_with_strides


cdef extern from "Python.h" nogil:
    int Py_IsInitialized()


cdef extern from "api/dlpack.h" nogil:
    enum:
        CYDNNL_DLPACK_MAJOR
        CYDNNL_DLPACK_MINOR
        kDLCPU
        kDLInt
        kDLUInt
        kDLFloat
        kDLBfloat
        kDLBool
    uint64_t DLPACK_FLAG_BITMASK_READ_ONLY

    ctypedef struct DLDevice:
        int32_t device_type
        int32_t device_id

    ctypedef struct DLDataType:
        uint8_t code
        uint8_t bits
        uint16_t lanes

    ctypedef struct DLTensor:
        void *data
        DLDevice device
        int32_t ndim
        DLDataType dtype
        int64_t *shape
        int64_t *strides
        uint64_t byte_offset

    ctypedef struct DLManagedTensor:
        DLTensor dl_tensor
        void *manager_ctx
        void (*deleter)(DLManagedTensor *self) noexcept nogil

    ctypedef struct DLPackVersion:
        uint32_t major
        uint32_t minor

    ctypedef struct DLManagedTensorVersioned:
        DLPackVersion version
        void *manager_ctx
        void (*deleter)(DLManagedTensorVersioned *self) noexcept nogil
        uint64_t flags
        DLTensor dl_tensor

    ctypedef struct cydnnl_dlpack_export_t:
        DLManagedTensor legacy
        DLManagedTensorVersioned versioned
        int64_t shape[12]
        int64_t strides[12]
        PyObject *owner


# dnnl data type <-> DLPack (code, bits); the types both sides name
cdef dict _DL_OF_DT = {
    dnnl_f32: (kDLFloat, 32), dnnl_f64: (kDLFloat, 64), dnnl_f16: (kDLFloat, 16),
    dnnl_bf16: (kDLBfloat, 16), dnnl_s32: (kDLInt, 32), dnnl_s64: (kDLInt, 64),
    dnnl_s8: (kDLInt, 8), dnnl_u8: (kDLUInt, 8), dnnl_boolean: (kDLBool, 8),
}
cdef dict _DT_OF_DL = {v: k for k, v in _DL_OF_DT.items()}

cdef const char *LEGACY = b"dltensor"
cdef const char *VERSIONED = b"dltensor_versioned"
cdef const char *USED_LEGACY = b"used_dltensor"
cdef const char *USED_VERSIONED = b"used_dltensor_versioned"


# ------------------------------------------------------------ export


cdef void _release_export(cydnnl_dlpack_export_t *e) noexcept nogil:
    if e == NULL:
        return
    # consumers may call the deleter from any thread, without the GIL
    if e.owner != NULL and Py_IsInitialized():
        with gil:
            Py_DECREF(<object>e.owner)
    free(e)


cdef void _delete_legacy(DLManagedTensor *self) noexcept nogil:
    _release_export(<cydnnl_dlpack_export_t *>self.manager_ctx)


cdef void _delete_versioned(DLManagedTensorVersioned *self) noexcept nogil:
    _release_export(<cydnnl_dlpack_export_t *>self.manager_ctx)


cdef void _capsule_destructor(object capsule) noexcept:
    """A capsule no consumer took (still named dltensor*) frees its tensor;
    a consumer renames it used_* and calls the deleter itself."""
    cdef DLManagedTensor *t
    cdef DLManagedTensorVersioned *v
    if PyCapsule_IsValid(capsule, LEGACY):
        t = <DLManagedTensor *>PyCapsule_GetPointer(capsule, LEGACY)
        t.deleter(t)
    elif PyCapsule_IsValid(capsule, VERSIONED):
        v = <DLManagedTensorVersioned *>PyCapsule_GetPointer(capsule, VERSIONED)
        v.deleter(v)


cdef bint _flag(object x, str name) except -1:
    if isinstance(x, bool) or (isinstance(x, int) and x in (0, 1)):
        return bool(x)
    _fail("%s must be a bool, not %s" % (name, _what(x)))


def cydnnl_memory_get_dlpack(memory, versioned, dltensor):
    """dltensor[0] receives a DLPack capsule over the memory's buffer, no
    copy: named "dltensor_versioned" (DLPack 1.0) when versioned, else
    "dltensor" (the older protocol). The memory needs a plain layout (strides,
    no inner blocks), a data handle and one of the data types f32, f64, f16,
    bf16, s32, s64, s8, u8, boolean; the capsule keeps the buffer alive for
    as long as the consumer holds the tensor, whatever happens to the
    memory."""
    cdef c.dnnl_memory *m
    cdef const c.md_t *md
    cdef cydnnl_dlpack_export_t *e = NULL
    cdef DLTensor *t
    cdef int d
    cdef bint as_versioned
    c.cydnnl_clear_error()
    try:
        m = <c.dnnl_memory *>_in(memory, dnnl_memory_t, "memory")
        if m == NULL or not c.obj_alive(&m.hdr, c.OBJ_MEMORY):
            _fail("memory is not a live memory")
        as_versioned = _flag(versioned, "versioned")
        md = &m.md.md
        if md.ndims == 0:
            _fail("a memory with a zero descriptor holds no tensor")
        if md.format_kind != dnnl_blocked or md.inner_nblks != 0:
            _fail("the memory has the blocked layout %s; a DLPack tensor has strides "
                  "only (reorder to a plain layout first)" % _md_str(memory))
        dl = _DL_OF_DT.get(md.data_type)
        if dl is None:
            return _unimplemented("DLPack has no tensors of data type %s"
                                  % (<bytes>c.dnnl_dt2str(md.data_type)).decode())
        handle = [None]
        st = dnnl_memory_get_data_handle(memory, handle)
        if st != dnnl_success:
            return st
        if handle[0] is None:
            _fail("the memory has no data handle")
        e = <cydnnl_dlpack_export_t *>calloc(1, sizeof(cydnnl_dlpack_export_t))
        if e == NULL:
            raise MemoryError("DLPack export: out of memory")
        t = &e.versioned.dl_tensor if as_versioned else &e.legacy.dl_tensor
        t.data = <void *><uintptr_t>int(handle[0])
        t.device.device_type = kDLCPU
        t.device.device_id = 0
        t.ndim = md.ndims
        t.dtype.code = dl[0]
        t.dtype.bits = dl[1]
        t.dtype.lanes = 1
        for d in range(md.ndims):
            e.shape[d], e.strides[d] = md.dims[d], md.strides[d]
        t.shape, t.strides = e.shape, e.strides
        t.byte_offset = <uint64_t>md.offset0 * c.dt_size(md.data_type)
        # the data handle keeps the buffer (the library's or the user's) alive
        e.owner = <PyObject *>handle[0]
        Py_INCREF(handle[0])
        if as_versioned:
            e.versioned.version.major = CYDNNL_DLPACK_MAJOR
            e.versioned.version.minor = CYDNNL_DLPACK_MINOR
            e.versioned.manager_ctx = e
            e.versioned.deleter = _delete_versioned
            capsule = PyCapsule_New(&e.versioned, VERSIONED, _capsule_destructor)
        else:
            e.legacy.manager_ctx = e
            e.legacy.deleter = _delete_legacy
            capsule = PyCapsule_New(&e.legacy, LEGACY, _capsule_destructor)
        e = NULL                    # the capsule owns it now
        _set_out(dltensor, capsule, "dltensor")
    except Exception as err:
        _release_export(e)
        return _bad(err)
    return dnnl_success


cdef str _md_str(object memory):
    md = dnnl_memory_desc_t()
    if dnnl_memory_get_memory_desc(memory, md) != dnnl_success:
        return "?"
    return cydnnl_md2str(md)


cdef dnnl_status_t _unimplemented(str msg):
    _bad(_BadArg(msg))
    return dnnl_unimplemented


# ------------------------------------------------------------ import


cdef class _dlpack_tensor:
    """A DLPack tensor a memory took over: its bytes as a buffer (what the
    memory's handle points to), and the deleter called when the last user
    of the buffer goes."""
    cdef void *managed
    cdef bint versioned
    cdef bint owned             # True once the capsule was marked used
    cdef char *ptr
    cdef Py_ssize_t nbytes
    cdef Py_ssize_t shape[1]

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

    def __dealloc__(self):
        if not self.owned or self.managed == NULL:
            return
        if self.versioned:
            if (<DLManagedTensorVersioned *>self.managed).deleter != NULL:
                (<DLManagedTensorVersioned *>self.managed).deleter(
                    <DLManagedTensorVersioned *>self.managed)
        elif (<DLManagedTensor *>self.managed).deleter != NULL:
            (<DLManagedTensor *>self.managed).deleter(<DLManagedTensor *>self.managed)
        self.managed = NULL


def cydnnl_memory_create_from_dlpack(memory, engine, dltensor):
    """memory (an output handle) over the tensor of a DLPack capsule, as
    __dlpack__() returns it ("dltensor" or "dltensor_versioned"), no copy.
    On success the memory owns the tensor (the capsule is marked used) and
    releases it when the memory, and every data handle taken from it, are
    gone. The tensor must be on the CPU, writable, one lane, of a data type
    dnnl has (see cydnnl_memory_get_dlpack), with strides that are not
    negative; a 0-d tensor becomes a 1-d memory of one element."""
    cdef DLTensor *t
    cdef DLManagedTensorVersioned *v
    cdef void *managed
    cdef bint versioned
    cdef int d, n
    c.cydnnl_clear_error()
    try:
        out = _out(memory, dnnl_memory_t, "memory")
        if not PyCapsule_CheckExact(dltensor):
            _fail("dltensor must be a DLPack capsule (what __dlpack__() returns), not %s"
                  % _what(dltensor))
        if PyCapsule_IsValid(dltensor, VERSIONED):
            versioned = True
            managed = PyCapsule_GetPointer(dltensor, VERSIONED)
            v = <DLManagedTensorVersioned *>managed
            if v.version.major != CYDNNL_DLPACK_MAJOR:
                return _unimplemented("DLPack %d.%d; this library reads 1.x"
                                      % (v.version.major, v.version.minor))
            if v.flags & DLPACK_FLAG_BITMASK_READ_ONLY:
                _fail("the DLPack tensor is read-only; memories are written to (copy it "
                      "first)")
            t = &v.dl_tensor
        elif PyCapsule_IsValid(dltensor, LEGACY):
            versioned = False
            managed = PyCapsule_GetPointer(dltensor, LEGACY)
            t = &(<DLManagedTensor *>managed).dl_tensor
        elif PyCapsule_IsValid(dltensor, USED_LEGACY) or \
                PyCapsule_IsValid(dltensor, USED_VERSIONED):
            _fail("the DLPack capsule was consumed already")
        else:
            _fail("dltensor is a capsule but not a DLPack tensor")
        if t.device.device_type != kDLCPU:
            return _unimplemented("the DLPack tensor is on device type %d; only CPU "
                                  "tensors (1) can be memories" % t.device.device_type)
        if t.dtype.lanes != 1:
            return _unimplemented("DLPack tensors of %d lanes are not supported"
                                  % t.dtype.lanes)
        dt = _DT_OF_DL.get((t.dtype.code, t.dtype.bits))
        if dt is None:
            return _unimplemented("dnnl has no data type for the DLPack type code %d, %d "
                                  "bits" % (t.dtype.code, t.dtype.bits))
        n = t.ndim
        if n < 0 or n > DNNL_MAX_NDIMS:
            return _unimplemented("the DLPack tensor has %d dims; memories have 0 to %d"
                                  % (n, DNNL_MAX_NDIMS))
        if n > 0 and t.shape == NULL:
            _fail("the DLPack tensor has no shape")
        dims = [t.shape[d] for d in range(n)] or [1]
        if t.strides != NULL:
            strides = [t.strides[d] for d in range(n)] or [1]
        else:                       # compact, row-major
            strides = [1] * len(dims)
            for d in range(len(dims) - 2, -1, -1):
                strides[d] = strides[d + 1] * max(dims[d + 1], 1)
        if any(s < 0 for s in strides):
            return _unimplemented("the DLPack tensor has negative strides %s" % strides)
        if t.data == NULL and all(x > 0 for x in dims):
            _fail("the DLPack tensor has elements but no data")
        md = dnnl_memory_desc_t()
        st = dnnl_memory_desc_create_with_strides(md, len(dims), dims, dt, strides)
        if st != dnnl_success:
            return st
        tensor = _dlpack_tensor()
        tensor.managed = managed
        tensor.versioned = versioned
        if t.data != NULL:
            tensor.ptr = <char *>t.data + t.byte_offset
            tensor.nbytes = <Py_ssize_t>c.cydnnl_memory_desc_extent(
                <c.const_dnnl_memory_desc_t>_in(md, dnnl_memory_desc_t, "memory_desc"))
        st = dnnl_memory_create(memory, md, engine, tensor if t.data != NULL else None)
        if st == dnnl_success:
            tensor.owned = True
            PyCapsule_SetName(dltensor, USED_VERSIONED if versioned else USED_LEGACY)
            if t.data == NULL:      # an empty tensor: nothing points into it
                del tensor
    except Exception as err:
        return _bad(err)
    return st
