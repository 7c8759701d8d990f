# Primitives and their execution (see primitive.pxd). Execute checks every
# argument the primitive descriptor declares against the memory given for
# it, then runs the implementation without the GIL.

from libc.stdlib cimport malloc, calloc, free
from dnnl_c.kernels.alloc cimport cydnnl_thread_scratch, cydnnl_thread_scratch_done
from libc.stdio cimport snprintf
from libc.stdint cimport uint8_t

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport (fail, err_buf, ERR_LEN, set_executing, VERBOSE_EXEC_PROFILE,
                                  VERBOSE_CREATE_PROFILE, dnnl_prim_kind2str)
from dnnl_c.core.objects cimport header_init, obj_alive, obj_release, obj_destroy
from dnnl_c.core.memory_desc_wrapper cimport md_equal, md_extent, elems_to_bytes
from dnnl_c.core.memory cimport mem_ok
from dnnl_c.core.engine_stream cimport stream_ok
from dnnl_c.core.primitive_desc cimport pd_is_alive, pd_arg_name
from dnnl_c.core.pd_info cimport pd_verbose_on, pd_verbose_create, pd_verbose_exec
from dnnl_c.core.primitive_cache cimport primitive_cache_get, impl_release
from dnnl_c.core.attr cimport attr_set_owner
from dnnl_c.core.util cimport cydnnl_now_ms

cdef extern from "core/cydnnl_verbose.h" nogil:
    double cydnnl_wall_ms()

DEF STACK_ARGS = 32


cdef void primitive_free(obj_header *obj) noexcept nogil:
    impl_release((<dnnl_primitive *>obj).impl)
    free(obj)


cdef inline bint pd_ok(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd_is_alive(pd)


cdef bint prim_ok(const dnnl_primitive *prim) noexcept nogil:
    return obj_alive(&prim.hdr if prim != NULL else NULL, OBJ_PRIMITIVE)


cdef dnnl_status_t dnnl_primitive_create(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc) noexcept nogil:
    if primitive == NULL or not pd_ok(primitive_desc):
        return fail(dnnl_invalid_arguments,
                    "primitive: NULL output or not a live primitive descriptor")
    # oneDNN's create line times the primitive's creation; the primitive
    # cache says whether it was a cache_hit
    cdef bint profile = pd_verbose_on(primitive_desc, VERBOSE_CREATE_PROFILE)
    cdef double start_ms = cydnnl_wall_ms() if profile else 0
    cdef double t0 = cydnnl_now_ms() if profile else 0
    cdef bint hit
    cdef dnnl_primitive *prim = <dnnl_primitive *>calloc(1, sizeof(dnnl_primitive))
    if prim == NULL:
        return fail(dnnl_out_of_memory, "primitive: out of memory")
    header_init(&prim.hdr, OBJ_PRIMITIVE, NULL, primitive_free)
    prim.impl = primitive_cache_get(primitive_desc, &hit)
    if prim.impl == NULL:
        free(prim)
        return fail(dnnl_out_of_memory, "primitive: out of memory")
    prim.pd_iface = prim.impl.pd[0]
    header_init(&prim.pd_iface.hdr, OBJ_PRIMITIVE_DESC, &prim.hdr, NULL)
    header_init(&prim.pd_iface.zero_md.hdr, OBJ_MEMORY_DESC, &prim.pd_iface.hdr, NULL)
    attr_set_owner(&prim.pd_iface.attr, &prim.pd_iface.hdr)
    prim.pd = &prim.pd_iface
    primitive[0] = prim
    if profile:
        pd_verbose_create(prim.pd, "cache_hit" if hit else "cache_miss", start_ms,
                          cydnnl_now_ms() - t0)
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_get_primitive_desc(
        const_dnnl_primitive_t primitive,
        const_dnnl_primitive_desc_t *primitive_desc) noexcept nogil:
    if not prim_ok(primitive) or primitive_desc == NULL:
        return fail(dnnl_invalid_arguments, "primitive: not a live primitive or NULL output")
    primitive_desc[0] = primitive.pd
    return dnnl_success


# Cache blobs hold a GPU engine's compiled kernels; oneDNN's CPU engine has
# none to give and answers dnnl_unimplemented, as here.
cdef dnnl_status_t dnnl_primitive_get_cache_blob(const_dnnl_primitive_t primitive, size_t *size,
                                                 uint8_t *cache_blob) noexcept nogil:
    if not prim_ok(primitive) or size == NULL:
        return fail(dnnl_invalid_arguments, "cache blob: not a live primitive or NULL size")
    return fail(dnnl_unimplemented, "cache blob: the cpu engine has no cache blobs")


cdef dnnl_status_t dnnl_primitive_create_from_cache_blob(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc, size_t size,
        const uint8_t *cache_blob) noexcept nogil:
    if primitive == NULL or not pd_ok(primitive_desc) or cache_blob == NULL or size == 0:
        return fail(dnnl_invalid_arguments, "cache blob: NULL, dead or empty argument")
    return fail(dnnl_unimplemented, "cache blob: the cpu engine has no cache blobs")


cdef dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive) noexcept nogil:
    return obj_destroy(&primitive.hdr if primitive != NULL else NULL, OBJ_PRIMITIVE, "primitive")



cdef const char *memory_fits(const dnnl_memory *mem, const md_t *md) noexcept nogil:
    """Why `mem` cannot serve as an argument described by the primitive's `md`
    (NULL if it can). Equal descriptors fit; so does a memory whose layout is
    the same and whose buffer holds md (a sub-memory of it, as oneDNN allows)."""
    cdef const md_t *mmd = &mem.md.md
    cdef size_t have, need
    cdef int d
    if mmd.ndims == 0:
        return "the memory has the zero descriptor"
    if mmd.format_kind != dnnl_blocked:
        return "the memory is a host scalar"
    if mmd.data_type != md.data_type:
        return "the memory's data type differs"
    if not md_equal(mmd, md):
        if mmd.ndims != md.ndims or mmd.inner_nblks != md.inner_nblks:
            return "the memory's layout differs"
        for d in range(md.inner_nblks):
            if mmd.inner_blks[d] != md.inner_blks[d] or mmd.inner_idxs[d] != md.inner_idxs[d]:
                return "the memory's blocking differs"
        for d in range(md.ndims):
            if (md.padded_dims[d] > 1 or mmd.padded_dims[d] > 1) and mmd.strides[d] != md.strides[d]:
                return "the memory's strides differ"
    need = md_extent(md)
    have = mem.capacity if mem.capacity > 0 else md_extent(mmd)
    if need > have:
        return "the memory's buffer is too small"
    if mem.handle == NULL and need > 0:
        return "the memory has no data handle"
    return NULL



cdef dnnl_status_t bind_args(const dnnl_primitive_desc *pd, int nargs,
                             const dnnl_exec_arg_t *args, exec_ctx_t *ctx) noexcept nogil:
    """Finds the memory for every argument the pd declares and checks it fits."""
    cdef int i, j
    cdef const dnnl_memory *mem
    cdef const char *why
    for i in range(nargs):
        if args[i].memory != NULL and not mem_ok(args[i].memory):
            snprintf(err_buf(), ERR_LEN, "execute: argument %s (%d) is not a live memory",
                     pd_arg_name(pd, args[i].arg), args[i].arg)
            return fail(dnnl_invalid_arguments, err_buf())
        for j in range(i):
            if args[j].arg == args[i].arg and args[i].memory != NULL and args[j].memory != NULL:
                snprintf(err_buf(), ERR_LEN, "execute: argument %s (%d) given twice",
                         pd_arg_name(pd, args[i].arg), args[i].arg)
                return fail(dnnl_invalid_arguments, err_buf())
    for i in range(pd.nargs):
        if pd.args[i].md.md.ndims == 0:
            continue
        if pd.args[i].arg == DNNL_ARG_SCRATCHPAD and (
                pd.attr.scratchpad_mode != dnnl_scratchpad_mode_user):
            continue
        mem = NULL
        for j in range(nargs):
            if args[j].arg == pd.args[i].arg and args[j].memory != NULL:
                mem = args[j].memory
        if mem == NULL:
            snprintf(err_buf(), ERR_LEN, "execute: %s %s needs argument DNNL_ARG_%s (%d)",
                     dnnl_prim_kind2str(pd.desc.primitive_kind), pd.info,
                     pd_arg_name(pd, pd.args[i].arg), pd.args[i].arg)
            return fail(dnnl_invalid_arguments, err_buf())
        why = memory_fits(mem, &pd.args[i].md.md)
        if why != NULL:
            snprintf(err_buf(), ERR_LEN, "execute: argument DNNL_ARG_%s (%d): %s",
                     pd_arg_name(pd, pd.args[i].arg), pd.args[i].arg, why)
            return fail(dnnl_invalid_arguments, err_buf())
        ctx.args[ctx.nargs].arg = pd.args[i].arg
        ctx.args[ctx.nargs].data = mem.handle
        ctx.args[ctx.nargs].md = &pd.args[i].md.md
        if pd.args[i].arg == DNNL_ARG_SCRATCHPAD:
            ctx.scratchpad = mem.handle
        ctx.nargs += 1
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_execute(
        const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs,
        const dnnl_exec_arg_t *args) noexcept nogil:
    set_executing(True)         # failed checks print as exec:check
    cdef dnnl_status_t st = primitive_execute(primitive, stream, nargs, args)
    set_executing(False)
    return st


cdef dnnl_status_t primitive_execute(const_dnnl_primitive_t primitive, dnnl_stream_t stream,
                                     int nargs, const dnnl_exec_arg_t *args) noexcept nogil:
    if not prim_ok(primitive):
        return fail(dnnl_invalid_arguments, "execute: not a live primitive")
    if not stream_ok(stream):
        return fail(dnnl_invalid_arguments, "execute: not a live stream")
    if nargs < 0 or (nargs > 0 and args == NULL):
        return fail(dnnl_invalid_arguments, "execute: bad argument list")
    cdef const dnnl_primitive_desc *pd = primitive.pd
    cdef exec_ctx_t ctx
    cdef exec_arg_t on_stack[STACK_ARGS]
    cdef char *own_scratchpad = NULL
    cdef double t0, start_ms
    cdef dnnl_status_t st
    ctx.nargs = 0
    ctx.scratchpad = NULL
    ctx.stream = stream
    if pd.nargs <= STACK_ARGS:
        ctx.args = &on_stack[0]
    else:
        ctx.args = <exec_arg_t *>malloc(pd.nargs * sizeof(exec_arg_t))
    if ctx.args == NULL:
        return fail(dnnl_out_of_memory, "execute: out of memory")
    st = bind_args(pd, nargs, args, &ctx)
    if st == dnnl_success and pd.scratchpad_size > 0 and ctx.scratchpad == NULL:
        # the thread's kept block, as oneDNN's default global scratchpad: a
        # fresh one per execute cost the page faults and zeroing of its
        # megabytes at every call
        own_scratchpad = <char *>cydnnl_thread_scratch(pd.scratchpad_size)
        if own_scratchpad == NULL:
            st = fail(dnnl_out_of_memory, "execute: cannot allocate the scratchpad")
        ctx.scratchpad = own_scratchpad
    if st == dnnl_success and pd_verbose_on(pd, VERBOSE_EXEC_PROFILE):
        start_ms = cydnnl_wall_ms()
        t0 = cydnnl_now_ms()
        st = pd.kind.impls.impls[pd.impl_index].execute(pd, &ctx)
        if st == dnnl_success:
            pd_verbose_exec(pd, start_ms, cydnnl_now_ms() - t0)
    elif st == dnnl_success:
        st = pd.kind.impls.impls[pd.impl_index].execute(pd, &ctx)
    if own_scratchpad != NULL:
        cydnnl_thread_scratch_done(own_scratchpad)
    if ctx.args != &on_stack[0]:
        free(ctx.args)
    return st

# ------------------------------------------------------------ execution context

cdef const exec_arg_t *ctx_arg(const exec_ctx_t *ctx, int arg) noexcept nogil:
    cdef int i
    for i in range(ctx.nargs):
        if ctx.args[i].arg == arg:
            return &ctx.args[i]
    return NULL


cdef char *ctx_data(const exec_ctx_t *ctx, int arg) noexcept nogil:
    """Address of the first element of an argument: handle + offset0."""
    cdef const exec_arg_t *a = ctx_arg(ctx, arg)
    if a == NULL or a.data == NULL:
        return NULL
    return a.data + elems_to_bytes(a.md, a.md.offset0)
