"""dnnl.memory and dnnl.memory.desc (oneDNN's dnnl::memory), and the bridge
to NumPy: dtype mapping, views of plain layouts, write()/read() of any
layout."""

import numbers

import numpy as np

import dnnl_c as c
from dnnl._engine import engine
from dnnl._enums import _enum
from dnnl._error import error
from dnnl._handle import _c, _type_name, _wrapper, handle
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


def _list(values, name):
    """A dims-like argument as a list (its length is ndims); dnnl_c checks
    each entry."""
    if isinstance(values, (str, bytes)):
        values = None
    try:
        return list(values)
    except TypeError:
        raise error(c.dnnl_invalid_arguments, "%s must be a sequence of ints, not %s"
                    % (name, _type_name(values))) from None


class desc(_wrapper):
    """oneDNN's dnnl::memory::desc: desc(), desc(dims, data_type, format_tag),
    desc(dims, data_type, strides), desc(blob) (bytes from get_blob()), or
    desc.host_scalar(data_type). Equality is by value."""

    def __init__(self, *args, allow_empty=False):
        self._h = None
        if len(args) == 1 and isinstance(args[0], c.dnnl_memory_desc_t):
            self._h = args[0]
            return
        h = c.dnnl_memory_desc_t()
        if len(args) == 1 and isinstance(args[0], (bytes, bytearray, memoryview, list)):
            blob = bytes(args[0])
            st = c.dnnl_memory_desc_create_with_blob(h, blob)
            if st != c.dnnl_success and allow_empty:
                return
            error.wrap_c_api(st, "could not create a memory descriptor from blob")
            self._h = h
            return
        if not args:
            st = c.dnnl_memory_desc_create_with_tag(h, 0, [], c.dnnl_data_type_undef,
                                                    c.dnnl_format_tag_undef)
        elif len(args) == 3:
            dims, data_type, layout = args
            dims = _list(dims, "dims")
            if isinstance(layout, numbers.Integral):          # a format_tag
                st = c.dnnl_memory_desc_create_with_tag(h, len(dims), dims, data_type, layout)
            elif isinstance(layout, (str, bytes)) or not hasattr(layout, "__len__"):
                raise error(c.dnnl_invalid_arguments,
                            "memory.desc: the third argument must be a memory.format_tag or a "
                            "list of strides, not %s" % _type_name(layout))
            else:
                strides = _list(layout, "strides")
                if len(strides) != len(dims):
                    raise error(c.dnnl_invalid_arguments,
                                "memory.desc: %d strides for %d dims" % (len(strides), len(dims)))
                st = c.dnnl_memory_desc_create_with_strides(h, len(dims), dims, data_type,
                                                            strides)
        else:
            raise error(c.dnnl_invalid_arguments, "memory.desc takes (), (dims, data_type, "
                        "format_tag) or (dims, data_type, strides)")
        if st != c.dnnl_success and allow_empty:
            return
        error.wrap_c_api(st, "could not construct a memory descriptor")
        self._h = h

    def __del__(self):
        if getattr(self, "_h", None):
            c.dnnl_memory_desc_destroy(self._h)

    def _derived(self, fn, what, allow_empty, *args):
        h = c.dnnl_memory_desc_t()
        st = fn(h, self.get(), *args)
        if st != c.dnnl_success and allow_empty:
            empty = desc.__new__(desc)
            empty._h = None
            return empty
        error.wrap_c_api(st, what)
        return desc(h)

    def submemory_desc(self, adims, offsets, allow_empty=False):
        return self._derived(c.dnnl_memory_desc_create_submemory,
                             "could not construct a sub-memory", allow_empty,
                             _list(adims, "dims"), _list(offsets, "offsets"))

    def reshape(self, adims, allow_empty=False):
        adims = _list(adims, "dims")
        return self._derived(c.dnnl_memory_desc_reshape,
                             "could not reshape a memory descriptor", allow_empty,
                             len(adims), adims)

    def permute_axes(self, permutation, allow_empty=False):
        return self._derived(c.dnnl_memory_desc_permute_axes,
                             "could not permute axes of a memory descriptor", allow_empty,
                             _list(permutation, "permutation"))

    def _query(self, what, default):
        out = [default]
        if c.dnnl_memory_desc_query(self.get(), what, out) != c.dnnl_success:
            return default
        return out[0]

    def get_ndims(self):
        return self._query(c.dnnl_query_ndims_s32, 0)

    def get_dims(self):
        return list(self._query(c.dnnl_query_dims, ()))

    def get_data_type(self):
        return memory.data_type(self._query(c.dnnl_query_data_type, 0))

    def get_format_kind(self):
        return memory.format_kind(self._query(c.dnnl_query_format_kind, 0))

    def get_padded_dims(self):
        return list(self._query(c.dnnl_query_padded_dims, ()))

    def get_padded_offsets(self):
        return list(self._query(c.dnnl_query_padded_offsets, ()))

    def get_submemory_offset(self):
        return self._query(c.dnnl_query_submemory_offset_s64, 0)

    def get_strides(self):
        return list(self._query(c.dnnl_query_strides, ()))

    def get_inner_nblks(self):
        return self._query(c.dnnl_query_inner_nblks_s32, 0)

    def get_inner_blks(self):
        return list(self._query(c.dnnl_query_inner_blks, ()))

    def get_inner_idxs(self):
        return list(self._query(c.dnnl_query_inner_idxs, ()))

    def get_size(self, index=0):
        return c.dnnl_memory_desc_get_size_v2(self.get(), index)

    def get_num_handles(self):
        out = [0]
        c.dnnl_memory_desc_query_v2(self.get(), c.dnnl_query_num_handles_s32, 0, out)
        return out[0]

    def get_blob(self):
        """The descriptor as bytes, which desc(blob) turns back into it."""
        size = [None]
        error.wrap_c_api(c.dnnl_memory_desc_get_blob(None, size, self.get()),
                         "could not get memory descriptor blob size")
        blob = bytearray(size[0])
        error.wrap_c_api(c.dnnl_memory_desc_get_blob(blob, size, self.get()),
                         "could not get memory descriptor blob")
        return bytes(blob)

    @staticmethod
    def host_scalar(adata_type):
        """A descriptor of one value of adata_type on the host."""
        h = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_create_host_scalar(h, adata_type),
                         "could not create a memory descriptor describing host side scalar")
        return desc(h)

    def is_zero(self):
        return self.get_ndims() == 0

    def __eq__(self, other):
        if not isinstance(other, desc):
            return NotImplemented
        return c.dnnl_memory_desc_equal(self.get(allow_empty=True),
                                        other.get(allow_empty=True)) != 0

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self):
        if not self._h:
            return "memory.desc(<empty>)"
        if self.is_zero():
            return "memory.desc()"
        return "memory.desc(%s, %s)" % (self.get_dims(), c.cydnnl_md2str(self._h))


class memory(handle):
    """oneDNN's dnnl::memory. memory(md, eng) allocates (zero-filled);
    memory(md, eng, buffer) works on a NumPy array or other writable buffer
    without copying and keeps it alive; memory(md, eng, None) has no buffer
    until set_data_handle. numpy.asarray(mem) views plain layouts;
    write()/read() move NumPy arrays in and out of any layout."""

    desc = desc
    dims = list
    data_type = _enum("data_type", "dnnl_data_type_t", "dnnl_",
                      {"dnnl_data_type_undef": "undef"})
    format_tag = _enum("format_tag", "dnnl_format_tag_t", "dnnl_",
                       {"dnnl_format_tag_undef": "undef", "dnnl_format_tag_any": "any"})
    format_kind = _enum("format_kind", "dnnl_format_kind_t", "dnnl_",
                        {"dnnl_format_kind_undef": "undef", "dnnl_format_kind_any": "any",
                         "dnnl_format_kind_opaque": "opaque",
                         "dnnl_format_kind_sparse": "sparse",
                         "dnnl_format_kind_host_scalar": "host_scalar"})
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
        md = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_get_memory_desc(self.get(), md),
                         "could not get a memory descriptor from a memory object")
        clone = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_clone(clone, md),
                         "could not clone a memory descriptor")
        return desc(clone)

    def get_engine(self):
        e = c.dnnl_engine_t()
        error.wrap_c_api(c.dnnl_memory_get_engine(self.get(), e),
                         "could not get an engine from a memory object")
        return engine(c_engine=e, weak=True)

    def get_data_handle(self, index=0):
        """A dnnl_c.data_handle (a buffer over the data), or None."""
        out = [None]
        error.wrap_c_api(c.dnnl_memory_get_data_handle_v2(self.get(), out, index),
                         "could not get a native handle from a memory object")
        return out[0]

    def set_data_handle(self, handle, index=0):
        error.wrap_c_api(c.dnnl_memory_set_data_handle_v2(self.get(), handle, index),
                         "could not set native handle of a memory object")

    def map_data(self, index=0):
        out = [None]
        error.wrap_c_api(c.dnnl_memory_map_data_v2(self.get(), out, index),
                         "could not map memory object data")
        return out[0]

    def unmap_data(self, mapped_ptr=None, index=0):
        error.wrap_c_api(c.dnnl_memory_unmap_data_v2(self.get(), mapped_ptr, index),
                         "could not unmap memory object data")

    def get_host_scalar_value(self):
        """The value of a host scalar memory, as a Python number."""
        out = [None]
        error.wrap_c_api(c.dnnl_memory_get_host_scalar_value(self.get(), out),
                         "could not get host scalar value from a memory object")
        return out[0]

    def set_host_scalar_value(self, value):
        error.wrap_c_api(c.dnnl_memory_set_host_scalar_value(self.get(), value),
                         "could not set host scalar value to a memory object")

    @staticmethod
    def data_type_size(adata_type):
        return c.dnnl_data_type_size(adata_type)

    def __array__(self, dtype=None, copy=None):
        view = _plain_view(self)
        if dtype is not None and np.dtype(dtype) != view.dtype:
            if copy is False:
                raise ValueError("a view in another dtype needs a copy")
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


desc.__qualname__ = "memory.desc"   # as messages name it


def _plain_view(mem):
    md = mem.get_desc()
    if md.is_zero():
        return np.empty((0,), dtype=np.float32)
    if md.get_format_kind() != memory.format_kind.blocked or md.get_inner_nblks() != 0:
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


def _reorder_with_numpy(array, data_type, mem, to_memory):
    """Reorders between a C-contiguous NumPy array and a memory. Calls the C
    API's reorder directly: dnnl.reorder sits above memory and is built on it."""
    if array.size == 0:
        return
    plain = desc(list(array.shape), data_type, [s // array.itemsize for s in array.strides])
    user = memory(plain, mem.get_engine(), array.reshape(-1).view(np.uint8))
    src, dst = (user, mem) if to_memory else (mem, user)
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
