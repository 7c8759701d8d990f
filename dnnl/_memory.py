"""dnnl.memory (oneDNN's dnnl::memory) and its bridges: NumPy (dtype
mapping, zero-copy views of plain layouts, write()/read() of any layout) and
DLPack (__dlpack__ and memory.from_dlpack, shared with PyTorch, NumPy,
JAX, ... without copies)."""

import numbers

import numpy as np

import dnnl_c as c
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c, _type_name, handle
from dnnl._memory_desc import data_type, desc, format_kind, format_tag
from dnnl._stream import stream

try:
    import ml_dtypes
    _bf16_dtype = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # bf16 then shows as its raw 16-bit words
    _bf16_dtype = None

_NP_OF_DT = {
    c.dnnl_f32: np.dtype(np.float32), c.dnnl_f16: np.dtype(np.float16),
    c.dnnl_f64: np.dtype(np.float64), c.dnnl_s32: np.dtype(np.int32),
    c.dnnl_s8: np.dtype(np.int8), c.dnnl_u8: np.dtype(np.uint8),
    c.dnnl_s64: np.dtype(np.int64), c.dnnl_boolean: np.dtype(np.bool_),
}
_KDLCPU = 1          # DLPack's device type of host memory


def numpy_dtype(data_type):
    """The NumPy dtype of a dnnl data type (bf16: ml_dtypes.bfloat16 when
    installed, uint16 otherwise)."""
    if data_type == c.dnnl_bf16:
        return _bf16_dtype if _bf16_dtype is not None else np.dtype(np.uint16)
    try:
        return _NP_OF_DT[data_type]
    except KeyError:
        raise error(c.dnnl_unimplemented,
                    "no NumPy dtype for data type %s" % c.dnnl_dt2str(data_type)) from None


def data_type_of(dtype):
    """The dnnl data type of a NumPy dtype."""
    dtype = np.dtype(dtype)
    if _bf16_dtype is not None and dtype == _bf16_dtype:
        return c.dnnl_bf16
    for dt, npdt in _NP_OF_DT.items():
        if npdt == dtype:
            return dt
    raise error(c.dnnl_invalid_arguments, "no dnnl data type for NumPy dtype %s" % dtype)


class memory(handle):
    """A tensor: a memory descriptor, an engine and a buffer. oneDNN's
    dnnl::memory.

    memory(md, aengine) allocates a zero-filled buffer; memory(md, aengine,
    handle) works on a NumPy array or another writable, C-contiguous buffer
    of md's data type (or raw bytes) without copying, and keeps it alive;
    memory(md, aengine, None) has no buffer until set_data_handle();
    memory(md, value) with md = memory.desc.host_scalar(...) holds one value
    on the host.
    numpy.asarray(mem) and DLPack consumers (torch.from_dlpack,
    numpy.from_dlpack) view a plain layout in place; write() and read() move
    NumPy arrays in and out of any layout."""

    desc = desc
    dims = list
    data_type = data_type
    format_tag = format_tag
    format_kind = format_kind
    _destroy = staticmethod(c.dnnl_memory_destroy)

    def __init__(self, md=None, aengine=None, handle=c.DNNL_MEMORY_ALLOCATE):
        super().__init__()
        if md is None and aengine is None:
            return
        if not isinstance(md, desc):
            raise error(c.dnnl_invalid_arguments,
                        "md must be a memory.desc, not %s" % _type_name(md))
        h = c.dnnl_memory_t()
        if isinstance(aengine, (numbers.Number, bytes)):    # memory(md, value): a host scalar
            error.wrap_c_api(c.dnnl_memory_create_host_scalar(h, md.get(), aengine),
                             "could not create a memory object")
            self._h = h
            return
        error.wrap_c_api(c.dnnl_memory_create(h, md.get(), _c(aengine, "aengine", engine),
                                              handle),
                         "could not create a memory object")
        self._h = h

    def get_desc(self):
        """The memory's descriptor (a copy)."""
        md = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_get_memory_desc(self.get(), md),
                         "could not get a memory descriptor from a memory object")
        clone = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_clone(clone, md),
                         "could not clone a memory descriptor")
        return desc(clone)

    def get_engine(self):
        """The engine the memory lives on."""
        e = c.dnnl_engine_t()
        error.wrap_c_api(c.dnnl_memory_get_engine(self.get(), e),
                         "could not get an engine from a memory object")
        return engine(c_engine=e, weak=True)

    def get_data_handle(self, index=0):
        """A dnnl_c.data_handle (a buffer over the data, which keeps it
        alive), or None when the memory has no buffer."""
        out = [None]
        error.wrap_c_api(c.dnnl_memory_get_data_handle_v2(self.get(), out, index),
                         "could not get a native handle from a memory object")
        return out[0]

    def set_data_handle(self, handle, index=0):
        """Points the memory at another buffer (as for the constructor), or
        at none (None)."""
        error.wrap_c_api(c.dnnl_memory_set_data_handle_v2(self.get(), handle, index),
                         "could not set native handle of a memory object")

    def map_data(self, index=0):
        """The data handle, for host access (memories live on the host)."""
        out = [None]
        error.wrap_c_api(c.dnnl_memory_map_data_v2(self.get(), out, index),
                         "could not map memory object data")
        return out[0]

    def unmap_data(self, mapped_ptr=None, index=0):
        """Ends a map_data() (nothing to do on the host)."""
        error.wrap_c_api(c.dnnl_memory_unmap_data_v2(self.get(), mapped_ptr, index),
                         "could not unmap memory object data")

    def get_host_scalar_value(self):
        """The value of a host scalar memory, as a Python number."""
        out = [None]
        error.wrap_c_api(c.dnnl_memory_get_host_scalar_value(self.get(), out),
                         "could not get host scalar value from a memory object")
        return out[0]

    def set_host_scalar_value(self, value):
        """Sets the value of a host scalar memory."""
        error.wrap_c_api(c.dnnl_memory_set_host_scalar_value(self.get(), value),
                         "could not set host scalar value to a memory object")

    @staticmethod
    def data_type_size(adata_type):
        """The bytes one element of adata_type takes."""
        return c.dnnl_data_type_size(adata_type)

    # ------------------------------------------------------------ NumPy

    def __array__(self, dtype=None, copy=None):
        """A NumPy view of a plain layout (strides and offset0 as the
        descriptor says), in the memory's dtype; another dtype, or
        copy=True, gives a copy (copy=False refuses it)."""
        view = _plain_view(self)
        if dtype is not None and np.dtype(dtype) != view.dtype:
            if copy is False:
                raise ValueError("a view of a %s memory as %s needs a copy"
                                 % (view.dtype, np.dtype(dtype)))
            return view.astype(dtype)
        return view.copy() if copy else view

    def write(self, array):
        """Writes a NumPy array of the memory's logical dims into the memory,
        whatever its layout and data type (to bf16: round to nearest even)."""
        src = np.asarray(array)
        dims = self.get_desc().get_dims()
        if list(src.shape) != dims:
            raise error(c.dnnl_invalid_arguments,
                        "array shape %s differs from the memory's dims %s"
                        % (list(src.shape), dims))
        try:
            src_dt = data_type_of(src.dtype)
        except error:
            src, src_dt = src.astype(np.float32), c.dnnl_f32
        if src_dt not in (c.dnnl_f32, c.dnnl_bf16, c.dnnl_s32, c.dnnl_s8, c.dnnl_u8):
            src, src_dt = src.astype(np.float32), c.dnnl_f32
        _reorder_with_numpy(np.array(src, order="C", copy=True), src_dt, self, True)

    def read(self, dtype=None):
        """A new NumPy array of the memory's logical dims with its contents,
        in the memory's data type or in `dtype`."""
        md = self.get_desc()
        dt = md.get_data_type() if dtype is None else data_type_of(dtype)
        out = np.zeros(md.get_dims(), dtype=numpy_dtype(dt))
        _reorder_with_numpy(out, dt, self, False)
        return out

    # ------------------------------------------------------------ DLPack

    def __dlpack_device__(self):
        """DLPack's (device type, device id) of the memory: (1, 0), the
        host."""
        self.get()
        return (_KDLCPU, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The memory as a DLPack capsule, for torch.from_dlpack,
        numpy.from_dlpack and other consumers: the tensor shares the
        memory's buffer (a plain layout: strides, no blocks) and keeps it
        alive. max_version >= (1, 0) gives a versioned capsule; copy=True
        exports a copy."""
        if stream is not None and stream != -1:
            raise error(c.dnnl_invalid_arguments,
                        "__dlpack__: stream must be None for host memory, not %r" % (stream,))
        if dl_device is not None and tuple(dl_device) != (_KDLCPU, 0):
            raise error(c.dnnl_invalid_arguments,
                        "__dlpack__: the memory is on the host (1, 0), not %r" % (dl_device,))
        src = self
        if copy:
            src = memory(self.get_desc(), self.get_engine())
            _copy(self, src)
        versioned = max_version is not None and tuple(max_version)[:1] >= (1,)
        out = [None]
        error.wrap_c_api(c.cydnnl_memory_get_dlpack(src.get(), versioned, out),
                         "could not export a memory to DLPack")
        return out[0]

    @staticmethod
    def from_dlpack(x, aengine=None, *, copy=None):
        """A memory over the tensor of x, any object with __dlpack__ (a
        torch.Tensor, a NumPy array, a memory) or a DLPack capsule, sharing
        its buffer: writes through either side show on the other, and the
        memory keeps the tensor alive. The descriptor has the tensor's dims,
        strides and data type; aengine defaults to a CPU engine. copy=True
        gives a memory of its own."""
        if aengine is None:
            aengine = _default_stream().get_engine()
        capsule = x
        if hasattr(x, "__dlpack__"):
            if hasattr(x, "__dlpack_device__"):
                device = tuple(x.__dlpack_device__())
                if device[0] != _KDLCPU:
                    raise error(c.dnnl_unimplemented, "memory.from_dlpack: the tensor is on "
                                "DLPack device %r; memories are host memory" % (device,))
            try:
                capsule = x.__dlpack__(max_version=(1, 0))
            except TypeError:          # a producer of the older protocol
                capsule = x.__dlpack__()
        mem = memory()
        h = c.dnnl_memory_t()
        error.wrap_c_api(c.cydnnl_memory_create_from_dlpack(h, _c(aengine, "aengine", engine),
                                                            capsule),
                         "could not create a memory from a DLPack tensor")
        mem._h = h
        if copy:
            own = memory(mem.get_desc(), aengine)
            _copy(mem, own)
            return own
        return mem

    def __repr__(self):
        if not self._h:
            return "<dnnl.memory empty>"
        md = self.get_desc()
        if md.get_format_kind() == format_kind.host_scalar:
            return "<dnnl.memory host_scalar %s %r>" % (md.get_data_type().name,
                                                        self.get_host_scalar_value())
        md = md._describe() if not md.is_zero() else "zero"
        return "<dnnl.memory %s %s%s>" % (md, self.get_engine().get_kind().name,
                                          "" if self.get_data_handle() is not None
                                          else " no data")


def _plain_view(mem):
    md = mem.get_desc()
    if md.is_zero():
        return np.empty((0,), dtype=np.float32)
    if md.get_format_kind() != format_kind.blocked or md.get_inner_nblks() != 0:
        raise error(c.dnnl_invalid_arguments,
                    "memory has the blocked layout %s; a NumPy view needs a plain layout "
                    "(use memory.read(), or reorder to a plain layout)"
                    % c.cydnnl_md2str(md.get()))
    dtype = numpy_dtype(md.get_data_type())
    h = mem.get_data_handle()
    if h is None:
        raise error(c.dnnl_invalid_arguments, "memory has no data handle")
    return np.ndarray(tuple(md.get_dims()), dtype=dtype, buffer=h,
                      offset=md.get_submemory_offset() * dtype.itemsize,
                      strides=[s * dtype.itemsize for s in md.get_strides()])


_default = []


def _default_stream():
    if not _default:
        eng = engine(engine.kind.cpu, 0)
        _default.extend([eng, stream(eng)])
    return _default[1]


def _reorder(src, dst):
    """Runs a reorder from memory src to memory dst. Calls the C API
    directly: dnnl.reorder sits above memory and is built on it."""
    src_md, dst_md = src.get_desc(), dst.get_desc()  # alive until the pd is made
    pd = c.dnnl_primitive_desc_t()
    error.wrap_c_api(c.dnnl_reorder_primitive_desc_create(
        pd, src_md.get(), _c(src.get_engine()), dst_md.get(), _c(dst.get_engine()), None),
        "could not create a primitive descriptor for a reorder primitive")
    prim = c.dnnl_primitive_t()
    try:
        error.wrap_c_api(c.dnnl_primitive_create(prim, pd), "could not create a primitive")
    finally:
        c.dnnl_primitive_desc_destroy(pd)
    try:
        args = [(c.DNNL_ARG_FROM, _c(src)), (c.DNNL_ARG_TO, _c(dst))]
        error.wrap_c_api(c.dnnl_primitive_execute(prim, _c(_default_stream()), 2, args),
                         "could not execute a primitive")
    finally:
        c.dnnl_primitive_destroy(prim)


def _copy(src, dst):
    """dst = src, two memories of one descriptor (a reorder copies any
    layout and data type; a plain byte copy would miss strides)."""
    if src.get_desc().get_size() and src.get_data_handle() is not None:
        _reorder(src, dst)


def _reorder_with_numpy(array, data_type, mem, to_memory):
    """Reorders between a C-contiguous NumPy array and a memory."""
    if array.size == 0:
        return
    plain = desc(list(array.shape), data_type, [s // array.itemsize for s in array.strides])
    user = memory(plain, mem.get_engine(), array.reshape(-1).view(np.uint8))
    if to_memory:
        _reorder(user, mem)
    else:
        _reorder(mem, user)
