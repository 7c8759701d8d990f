# Shared by the Python-level API modules (dnnl_c/api/*.pyx and each family's
# api.pyx): handle objects and the argument helpers.

from libc.stdint cimport int64_t

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport dnnl_status_t


cdef class _handle:
    cdef c.obj_header *ptr
    cdef c.obj_header *root
    cdef void adopt(self, c.obj_header *p)


cdef class dnnl_engine_t(_handle):
    pass


cdef class dnnl_stream_t(_handle):
    pass


cdef class dnnl_memory_desc_t(_handle):
    pass


cdef class dnnl_memory_t(_handle):
    pass


cdef class dnnl_primitive_desc_t(_handle):
    pass


cdef class dnnl_primitive_t(_handle):
    pass


cdef class dnnl_primitive_attr_t(_handle):
    pass


cdef class dnnl_post_ops_t(_handle):
    pass


cdef class dnnl_exec_arg_t:
    cdef public int arg
    cdef public object memory


# Conversions of user values to C types; each raises _BadArg naming the
# argument for a wrong type (floats, str, None, arrays where an int is
# expected) or a value the C type cannot hold.
cdef int64_t _int(object x, str name) except? -1
cdef int _int32(object x, str name) except? -1
cdef int _enum(object x, str name) except? -1
cdef size_t _size(object x, str name) except? 0
cdef unsigned _unsigned(object x, str name) except? 0
cdef float _float(object x, str name) except? -1
# One dim (an int64; bool refused).
cdef int64_t _dim(object x, str name) except? -1
# The items of a sequence argument as a list.
cdef list _seq(object x, str name)
# How messages name a value.
cdef str _what(object x)
# The C pointer of an input handle of class cls (None is NULL); raises _BadArg.
cdef c.obj_header *_in(object h, type cls, str name) except? NULL
# The same, typed, for the arguments every primitive_desc_create takes.
cdef c.const_dnnl_memory_desc_t _md(object h, str name) except? NULL
cdef c.dnnl_engine_t _engine(object h) except? NULL
cdef c.const_dnnl_primitive_attr_t _attr(object h) except? NULL
cdef c.const_dnnl_primitive_desc_t _hint(object h) except? NULL
# How many entries the per-spatial-dim arguments (strides, padding, ...) of
# a primitive over this md need: ndims - 2 of a live md, else 0 (the C call
# then rejects the md; the dims arrays are zero-filled either way).
cdef int _spatial_dims(object md, str name) except -1
# An output handle the call fills in.
cdef _handle _out(object h, type cls, str name)
# A sequence of ints into a dnnl_dims_t holding at least `need` of them.
cdef int _fill_dims(object seq, c.dnnl_dim_t *out, int need, str name) except -1
# seq into out, or NULL when seq is None.
cdef c.dnnl_dim_t *_opt_dims(object seq, c.dnnl_dim_t *out, int need, str name) except? NULL
# out[0] = value, out a list of at least one element (C's &result).
cdef int _set_out(object out, object value, str name) except -1
cdef int _fail(str msg) except -1
# Records the exception's message and returns its status:
# dnnl_invalid_arguments (dnnl_out_of_memory for MemoryError). Every
# wrapper's try ends with `except Exception as err: return _bad(err)`.
cdef dnnl_status_t _bad(object e)
# Fills an output handle with a freshly created object.
cdef void _adopt_new(_handle out, c.obj_header *p)
# The end of every *_primitive_desc_create wrapper: fills `out` on success.
cdef dnnl_status_t _pd_created(dnnl_status_t st, _handle out, c.dnnl_primitive_desc_t pd)
# The first n dims at p as a tuple.
cdef tuple _dims_tuple(const c.dnnl_dim_t *p, int n)
