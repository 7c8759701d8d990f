# The Python-level C API on primitives: create, execute, destroy.

from libc.stdint cimport int64_t, uintptr_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cimport dnnl_c.core as c
from dnnl_c.dnnl_types cimport *
from dnnl_c.api.handles cimport *
from dnnl_c.api.memory cimport _kept_buffer


# ------------------------------------------------------------ primitives


def dnnl_primitive_create(primitive, primitive_desc):
    """Runs without the GIL (the primitive cache is shared by all threads)."""
    cdef c.dnnl_primitive_t p = NULL
    cdef c.const_dnnl_primitive_desc_t pd
    cdef dnnl_status_t st
    c.cydnnl_clear_error()
    try:
        out = _out(primitive, dnnl_primitive_t, "primitive")
        pd = <c.const_dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                               "primitive_desc")
    except Exception as err:
        return _bad(err)
    with nogil:
        st = c.dnnl_primitive_create(&p, pd)
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
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        out.adopt(<c.obj_header *>&pd.hdr)
    return st


def dnnl_primitive_destroy(primitive):
    c.cydnnl_clear_error()
    try:
        return c.dnnl_primitive_destroy(
            <c.dnnl_primitive_t>_in(primitive, dnnl_primitive_t, "primitive"))
    except Exception as err:
        return _bad(err)


# arguments held on the stack (more: allocated)
cdef enum:
    STACK_ARGS = 16


def dnnl_primitive_execute(primitive, stream, nargs, args):
    """args: a sequence of dnnl_exec_arg_t (or (arg, memory) pairs); the
    first nargs are used. Runs without the GIL."""
    cdef c.const_dnnl_primitive_t prim
    cdef c.dnnl_stream_t s
    cdef c.dnnl_exec_arg_t on_stack[STACK_ARGS]
    cdef c.dnnl_exec_arg_t *cargs = on_stack
    cdef int n, i
    cdef dnnl_status_t st
    # execute is on every step's path: lists and tuples as they are, nothing
    # allocated for a few arguments, messages formatted only for a bad one
    # (a tiny reorder's call took 1.3 us, oneDNN's through ctypes 0.8)
    cdef list keep = None
    c.cydnnl_clear_error()
    try:
        prim = <c.const_dnnl_primitive_t>_in(primitive, dnnl_primitive_t, "primitive")
        s = <c.dnnl_stream_t>_in(stream, dnnl_stream_t, "stream")
        n = _int32(nargs, "nargs")
        items = (() if n == 0 else args if type(args) is list or type(args) is tuple
                 else _seq(args, "args"))
        if n < 0 or n > len(items):
            _fail("nargs is %d but %d arguments are given" % (n, len(items)))
        if n > STACK_ARGS:
            cargs = <c.dnnl_exec_arg_t *>malloc(n * sizeof(c.dnnl_exec_arg_t))
            if cargs == NULL:
                raise MemoryError()
        for i in range(n):
            item = items[i]
            if isinstance(item, dnnl_exec_arg_t):
                arg, mem = (<dnnl_exec_arg_t>item).arg, (<dnnl_exec_arg_t>item).memory
            else:
                try:
                    arg, mem = item
                except Exception:
                    _fail("args[%d] must be a dnnl_exec_arg_t or an (arg, memory) pair, not %s"
                          % (i, _what(item)))
            if type(arg) is int and -2**31 <= arg <= 2**31 - 1:
                cargs[i].arg = arg
            else:
                cargs[i].arg = _int32(arg, "args[%d].arg" % i)
            if isinstance(mem, dnnl_memory_t):
                cargs[i].memory = <c.dnnl_memory_t>(<_handle>mem).ptr
            else:
                cargs[i].memory = <c.dnnl_memory_t>_in(mem, dnnl_memory_t,
                                                       "args[%d].memory" % i)
            # the user buffers the memories point into live through the call
            kept = _kept_buffer(<c.dnnl_memory *>cargs[i].memory)
            if kept is not None:
                if keep is None:
                    keep = []
                keep.append(kept)
    except Exception as err:
        if cargs != on_stack:
            free(cargs)
        return _bad(err)
    with nogil:
        st = c.dnnl_primitive_execute(prim, s, n, cargs)
    if cargs != on_stack:
        free(cargs)
    return st


# ------------------------------------------------------------ cache blobs


def dnnl_primitive_get_cache_blob(primitive, size, cache_blob):
    """As in C: the CPU engine has no cache blobs (dnnl_unimplemented)."""
    cdef size_t n = 0
    c.cydnnl_clear_error()
    try:
        if cache_blob is not None:
            _fail("cache_blob must be None: the cpu engine has no cache blobs")
        st = c.dnnl_primitive_get_cache_blob(
            <c.const_dnnl_primitive_t>_in(primitive, dnnl_primitive_t, "primitive"), &n, NULL)
        if st == dnnl_success:
            _set_out(size, n, "size")
    except Exception as err:
        return _bad(err)
    return st


def dnnl_primitive_create_from_cache_blob(primitive, primitive_desc, size, cache_blob):
    cdef c.dnnl_primitive_t p = NULL
    cdef bytes blob
    c.cydnnl_clear_error()
    try:
        out = _out(primitive, dnnl_primitive_t, "primitive")
        n = _size(size, "size")
        blob = bytes(cache_blob) if cache_blob is not None else b""
        if <size_t>len(blob) < n:
            _fail("cache_blob holds %d bytes; size is %d" % (len(blob), n))
        st = c.dnnl_primitive_create_from_cache_blob(
            &p, <c.const_dnnl_primitive_desc_t>_in(primitive_desc, dnnl_primitive_desc_t,
                                                   "primitive_desc"),
            n, <const uint8_t *>(<char *>blob) if cache_blob is not None else NULL)
    except Exception as err:
        return _bad(err)
    if st == dnnl_success:
        _adopt_new(out, &p.hdr)
    return st
