# Primitive descriptors (see primitive_desc.pxd). The core knows no
# primitive kind: what a kind means comes from the family that registered
# it (registry.pxd): its implementation list, its queries, its argument names.

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, strncpy
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport (fail, err_buf, ERR_LEN, set_dispatching,
                                  VERBOSE_CREATE_DISPATCH, dnnl_prim_kind2str,
                                  dnnl_prop_kind2str, dnnl_query2str)
from dnnl_c.core.objects cimport header_init, obj_retain, obj_release, obj_alive, obj_destroy
from dnnl_c.core.memory_desc_wrapper cimport md_zero, md_init_by_tag, md_check_size
from dnnl_c.core.memory_desc cimport md_ok
from dnnl_c.core.engine_stream cimport engine_ok
from dnnl_c.core.attr cimport attr_ok, attr_check_honoured, attr_copy_honoured, attr_set_owner
from dnnl_c.core.registry cimport find_kind
from dnnl_c.core.cpu_isa cimport cpu_isa_effective, cpu_isa_has, cpu_isa_name
from dnnl_c.core.pd_info cimport pd_verbose_on, pd_verbose_dispatch
from dnnl_c.core.util cimport CYDNNL_MAX_BYTES

cdef enum:
    SPARE_ARGS = 8      # room for what implementations add (workspace, scratchpad)

# An argument array next_impl replaced while handles to its mds may be out:
# kept until the pd goes.
cdef struct retired_t:
    retired_t *next
    pd_arg_t *args


cdef inline bint pd_ok(const dnnl_primitive_desc *pd) noexcept nogil:
    return obj_alive(&pd.hdr if pd != NULL else NULL, OBJ_PRIMITIVE_DESC)


cdef dnnl_cpu_isa_t pd_isa(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd.kind.impls.impls[pd.impl_index].isa


cdef bint pd_is_alive(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd_ok(pd)


cdef dnnl_status_t check_hint(const dnnl_primitive_desc *hint, dnnl_primitive_kind_t kind,
                              bint required) noexcept nogil:
    if hint == NULL:
        if required:
            snprintf(err_buf(), ERR_LEN, "%s backward needs hint_fwd_pd, the forward "
                     "primitive descriptor", dnnl_prim_kind2str(kind))
            return fail(dnnl_invalid_arguments, err_buf())
        return dnnl_success
    if not pd_ok(hint):
        return fail(dnnl_invalid_arguments, "hint_fwd_pd is not a live primitive descriptor")
    if hint.desc.primitive_kind != kind or not (
            hint.desc.prop_kind == dnnl_forward_training
            or hint.desc.prop_kind == dnnl_forward_inference):
        snprintf(err_buf(), ERR_LEN, "hint_fwd_pd is a %s %s primitive descriptor, not a "
                 "%s forward one", dnnl_prim_kind2str(hint.desc.primitive_kind),
                 dnnl_prop_kind2str(hint.desc.prop_kind), dnnl_prim_kind2str(kind))
        return fail(dnnl_invalid_arguments, err_buf())
    return dnnl_success


cdef dnnl_status_t check_md_arg(const dnnl_memory_desc *md, const char *name,
                                bint optional) noexcept nogil:
    if md == NULL and optional:
        return dnnl_success
    if not md_ok(md):
        snprintf(err_buf(), ERR_LEN, "%s is not a live memory descriptor", name)
        return fail(dnnl_invalid_arguments, err_buf())
    return dnnl_success

# ------------------------------------------------------------ arguments

cdef pd_arg_t *pd_arg(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    cdef int i
    for i in range(pd.nargs):
        if pd.args[i].arg == arg:
            return &pd.args[i]
    return NULL


cdef md_t *pd_md(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    cdef pd_arg_t *a = pd_arg(pd, arg)
    return &a.md.md if a != NULL else <md_t *>&pd.zero_md.md


cdef void fix_owners(dnnl_primitive_desc *pd) noexcept nogil:
    """The mds and the attr inside a pd are borrowed handles owned by it."""
    cdef int i
    for i in range(pd.args_cap):
        header_init(&pd.args[i].md.hdr, OBJ_MEMORY_DESC, &pd.hdr, NULL)
    header_init(&pd.zero_md.hdr, OBJ_MEMORY_DESC, &pd.hdr, NULL)
    attr_set_owner(&pd.attr, &pd.hdr)


cdef bint reserve_args(dnnl_primitive_desc *pd, int n) noexcept nogil:
    """Room for n arguments. Only while the pd is being made (nobody holds
    pointers into the array yet)."""
    cdef pd_arg_t *grown
    if n <= pd.args_cap:
        return True
    grown = <pd_arg_t *>realloc(pd.args, n * sizeof(pd_arg_t))
    if grown == NULL:
        return False
    memset(grown + pd.args_cap, 0, (n - pd.args_cap) * sizeof(pd_arg_t))
    pd.args = grown
    pd.args_cap = n
    fix_owners(pd)
    return True


cdef pd_arg_t *pd_add_arg(dnnl_primitive_desc *pd, int arg, int usage) noexcept nogil:
    cdef pd_arg_t *a = pd_arg(pd, arg)
    if a == NULL:
        if not reserve_args(pd, pd.nargs + 1 if pd.nargs < pd.args_cap
                            else 2 * pd.args_cap + 1):
            return NULL
        a = &pd.args[pd.nargs]
        pd.nargs += 1
        a.arg = arg
        md_zero(&a.md.md)
    a.usage = usage
    return a


cdef void *pd_conf(dnnl_primitive_desc *pd, size_t size) noexcept nogil:
    free(pd.conf)
    pd.conf = calloc(1, size if size > 0 else 1)
    pd.conf_size = size if pd.conf != NULL else 0
    return pd.conf

# ------------------------------------------------------------ the implementation walk

cdef dnnl_status_t init_result_ok(const dnnl_primitive_desc *pd) noexcept nogil:
    """What every accepted init leaves, whatever the family: each md resolved
    and of representable size (a layout an init chose, such as a padded
    blocking, may not fit where the user's `any` did), and a scratchpad
    that can be allocated and addressed."""
    cdef const md_t *md
    cdef int j
    for j in range(pd.nargs):
        md = &pd.args[j].md.md
        if md.ndims != 0 and md.format_kind != dnnl_blocked:
            return fail(dnnl_unimplemented, "left a memory descriptor unresolved")
        if md_check_size(md) != dnnl_success:
            return dnnl_unimplemented
    if pd.scratchpad_size > CYDNNL_MAX_BYTES:
        return fail(dnnl_unimplemented, "the scratchpad is too big")
    return dnnl_success


cdef void reset_args(dnnl_primitive_desc *pd) noexcept nogil:
    """The arguments as the user described them, before an implementation's init."""
    cdef int j
    pd.nargs = pd.ndesc_args
    for j in range(pd.ndesc_args):
        pd.args[j].arg = pd.desc_args[j].arg
        pd.args[j].usage = pd.desc_args[j].usage
        pd.args[j].md.md = pd.desc_args[j].md


cdef void print_dispatch(dnnl_primitive_desc *pd, const char *reason, bint by_core) noexcept nogil:
    """A create:dispatch line for the implementation that declined, showing
    the description it was given; where = who declined (the core for the
    ISA level and the result checks, else the family)."""
    cdef char where[96]
    if by_core:
        snprintf(where, sizeof(where), "dnnl_c/core/primitive_desc.pyx")
    else:
        snprintf(where, sizeof(where), "dnnl_c/primitives/%s",
                 dnnl_prim_kind2str(pd.desc.primitive_kind))
    reset_args(pd)
    pd_verbose_dispatch(pd, reason, where)


cdef dnnl_status_t pd_try_impls(dnnl_primitive_desc *pd, int start) noexcept nogil:
    """Tries the implementations from `start` on; the first whose init
    accepts the description wins and has resolved every `any`."""
    cdef const impl_list_t *impls = &pd.kind.impls
    cdef int i
    cdef dnnl_status_t st
    cdef char reasons[768]
    cdef const char *reason
    cdef dnnl_dim_t scratch_dims[1]
    cdef size_t used = 0
    cdef bint by_core
    reasons[0] = 0
    if not reserve_args(pd, pd.ndesc_args + SPARE_ARGS):
        return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
    for i in range(start, impls.n):
        reset_args(pd)
        pd.scratchpad_size = 0
        free(pd.conf)
        pd.conf = NULL
        pd.conf_size = 0
        err_buf()[0] = 0
        set_dispatching(True)
        pd.impl_index = i       # pd_isa() answers for the implementation being tried
        by_core = True
        if impls.impls[i].isa != dnnl_cpu_isa_default and not cpu_isa_has(impls.impls[i].isa):
            st = dnnl_unimplemented
            snprintf(err_buf(), ERR_LEN, "isa %s is not available (CPU or ONEDNN_MAX_CPU_ISA)",
                     cpu_isa_name(impls.impls[i].isa))
        else:
            st = impls.impls[i].init(pd)
            by_core = st == dnnl_success
        if st == dnnl_success:
            st = init_result_ok(pd)
        set_dispatching(False)
        if st != dnnl_success and pd_verbose_on(pd, VERBOSE_CREATE_DISPATCH):
            print_dispatch(pd, err_buf() if err_buf()[0] else <const char *>"rejected",
                           by_core)
        if st == dnnl_success:
            pd.impl_index = i
            strncpy(pd.info, impls.impls[i].name, 63)
            pd.info[63] = 0
            if pd.scratchpad_size > 0 and pd.attr.scratchpad_mode == dnnl_scratchpad_mode_user:
                scratch_dims[0] = pd.scratchpad_size
                if pd_add_arg(pd, DNNL_ARG_SCRATCHPAD, ARG_OUTPUT) == NULL:
                    return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
                md_init_by_tag(pd_md(pd, DNNL_ARG_SCRATCHPAD), 1, scratch_dims, dnnl_u8, dnnl_a)
            fix_owners(pd)
            err_buf()[0] = 0
            return dnnl_success
        reason = err_buf()
        if reason[0] == 0:
            reason = "rejected"
        if used < sizeof(reasons):
            used += snprintf(reasons + used, sizeof(reasons) - used, "%s%s: %s",
                             <const char *>("" if used == 0 else "; "), impls.impls[i].name,
                             reason)
    if start > 0 and start >= impls.n:
        return dnnl_last_impl_reached
    snprintf(err_buf(), ERR_LEN, "could not create a primitive descriptor for %s: "
             "no implementation accepted it (%s)",
             dnnl_prim_kind2str(pd.desc.primitive_kind), reasons)
    return fail(dnnl_last_impl_reached if start > 0 else dnnl_unimplemented, err_buf())

# ------------------------------------------------------------ lifetime

cdef void pd_dispose(dnnl_primitive_desc *pd) noexcept nogil:
    """Frees what a pd holds and the pd itself (NULL fields are fine)."""
    cdef retired_t *r
    cdef int i
    if pd == NULL:
        return
    if pd.hint != NULL:
        pd_dispose(pd.hint)
    if pd.engine != NULL:
        obj_release(&pd.engine.hdr)
    if pd.desc != NULL:
        for i in range(MAX_DESC_REFS):
            obj_release(pd.desc.refs[i])
    while pd.retired != NULL:
        r = <retired_t *>pd.retired
        pd.retired = r.next
        free(r.args)
        free(r)
    free(pd.desc)
    free(pd.desc_args)
    free(pd.args)
    free(pd.conf)
    free(pd)


cdef void pd_free_obj(obj_header *obj) noexcept nogil:
    pd_dispose(<dnnl_primitive_desc *>obj)


cdef void *dup(const void *p, size_t n) noexcept nogil:
    cdef void *q
    if p == NULL:
        return NULL
    q = malloc(n if n > 0 else 1)
    if q != NULL:
        memcpy(q, p, n)
    return q


cdef dnnl_primitive_desc *pd_clone_raw(const dnnl_primitive_desc *src) noexcept nogil:
    """A deep copy, with its own references to what the original points to."""
    cdef int i
    cdef dnnl_primitive_desc *pd = <dnnl_primitive_desc *>malloc(sizeof(dnnl_primitive_desc))
    if pd == NULL:
        return NULL
    memcpy(pd, src, sizeof(dnnl_primitive_desc))
    header_init(&pd.hdr, OBJ_PRIMITIVE_DESC, NULL, pd_free_obj)
    pd.retired = NULL
    pd.desc = <op_desc_t *>dup(src.desc, src.desc_size)
    pd.desc_args = <desc_arg_t *>dup(src.desc_args, src.ndesc_args * sizeof(desc_arg_t))
    pd.args = <pd_arg_t *>dup(src.args, src.args_cap * sizeof(pd_arg_t))
    pd.conf = dup(src.conf, src.conf_size)
    pd.hint = pd_clone_raw(src.hint) if src.hint != NULL else NULL
    obj_retain(&pd.engine.hdr)
    if pd.desc != NULL:
        for i in range(MAX_DESC_REFS):
            obj_retain(pd.desc.refs[i])
    if (pd.desc == NULL or (src.ndesc_args > 0 and pd.desc_args == NULL) or pd.args == NULL
            or (src.conf != NULL and pd.conf == NULL) or (src.hint != NULL and pd.hint == NULL)):
        pd_dispose(pd)
        return NULL
    fix_owners(pd)
    return pd


cdef dnnl_status_t pd_create(dnnl_primitive_desc_t *out, dnnl_engine *engine,
                             const op_desc_t *desc, size_t desc_size,
                             int nargs, const arg_spec_t *args,
                             const_dnnl_primitive_attr_t attr,
                             const_dnnl_primitive_desc_t hint) noexcept nogil:
    cdef int i
    if out == NULL:
        return fail(dnnl_invalid_arguments, "NULL primitive descriptor pointer")
    if not engine_ok(engine):
        return fail(dnnl_invalid_arguments, "engine is not a live engine")
    if attr != NULL and not attr_ok(attr):
        return fail(dnnl_invalid_arguments, "attr is not a live attr")
    if hint != NULL and not pd_ok(hint):
        return fail(dnnl_invalid_arguments, "hint_fwd_pd is not a live primitive descriptor")
    if attr != NULL and attr_check_honoured(attr) != dnnl_success:
        return dnnl_unimplemented
    cdef const primitive_kind_t *kind = find_kind(desc.primitive_kind)
    if kind == NULL:
        snprintf(err_buf(), ERR_LEN, "no primitive family registered %s",
                 dnnl_prim_kind2str(desc.primitive_kind))
        return fail(dnnl_unimplemented, err_buf())
    cdef dnnl_primitive_desc *pd = <dnnl_primitive_desc *>calloc(1, sizeof(dnnl_primitive_desc))
    if pd == NULL:
        return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
    header_init(&pd.hdr, OBJ_PRIMITIVE_DESC, NULL, pd_free_obj)
    pd.engine = engine
    obj_retain(&engine.hdr)
    pd.kind = kind
    pd.desc = <op_desc_t *>dup(desc, desc_size)
    pd.desc_size = desc_size
    pd.desc_args = <desc_arg_t *>calloc(nargs if nargs > 0 else 1, sizeof(desc_arg_t))
    if pd.desc == NULL or pd.desc_args == NULL:
        pd_dispose(pd)
        return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
    for i in range(MAX_DESC_REFS):
        obj_retain(pd.desc.refs[i])
    pd.ndesc_args = nargs
    for i in range(nargs):
        pd.desc_args[i].arg = args[i].arg
        pd.desc_args[i].usage = args[i].usage
        if args[i].md != NULL:
            pd.desc_args[i].md = args[i].md[0]
    attr_copy_honoured(&pd.attr, attr)
    if hint != NULL:
        pd.hint = pd_clone_raw(hint)
        if pd.hint == NULL:
            pd_dispose(pd)
            return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
    fix_owners(pd)
    # Dispatch reads the ISA limit and hints, which fixes them (as oneDNN's
    # first mayiuse does); implementations then ask cpu_isa_has().
    cpu_isa_effective()
    cdef dnnl_status_t st = pd_try_impls(pd, 0)
    if st != dnnl_success:
        pd_dispose(pd)
        return st
    out[0] = pd
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_next_impl(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil:
    if not pd_ok(primitive_desc):
        return fail(dnnl_invalid_arguments, "next_impl: not a live primitive descriptor")
    if primitive_desc.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "next_impl: a primitive's primitive descriptor "
                    "cannot change")
    cdef dnnl_primitive_desc *pd = primitive_desc
    cdef dnnl_primitive_desc *tmp = pd_clone_raw(pd)
    if tmp == NULL:
        return fail(dnnl_out_of_memory, "next_impl: out of memory")
    cdef dnnl_status_t st = pd_try_impls(tmp, pd.impl_index + 1)
    cdef retired_t *r
    cdef void *swap
    if st == dnnl_success:
        # The user may hold handles to the mds in pd.args: copy into the same
        # array where it fits, else keep the old array until the pd goes.
        if tmp.nargs <= pd.args_cap:
            memcpy(pd.args, tmp.args, tmp.nargs * sizeof(pd_arg_t))
        else:
            r = <retired_t *>malloc(sizeof(retired_t))
            if r == NULL:
                pd_dispose(tmp)
                return fail(dnnl_out_of_memory, "next_impl: out of memory")
            r.args = pd.args
            r.next = <retired_t *>pd.retired
            pd.retired = r
            pd.args = tmp.args
            pd.args_cap = tmp.args_cap
            tmp.args = NULL
        pd.nargs = tmp.nargs
        swap = pd.conf
        pd.conf = tmp.conf
        tmp.conf = swap
        pd.conf_size = tmp.conf_size
        pd.impl_index = tmp.impl_index
        pd.scratchpad_size = tmp.scratchpad_size
        memcpy(pd.info, tmp.info, sizeof(pd.info))
        fix_owners(pd)
    pd_dispose(tmp)
    if st != dnnl_success:
        return fail(dnnl_last_impl_reached, "next_impl: no more implementations")
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_clone(
        dnnl_primitive_desc_t *primitive_desc,
        const_dnnl_primitive_desc_t existing_primitive_desc) noexcept nogil:
    if primitive_desc == NULL or not pd_ok(existing_primitive_desc):
        return fail(dnnl_invalid_arguments, "clone: NULL output or dead primitive descriptor")
    cdef dnnl_primitive_desc *pd = pd_clone_raw(existing_primitive_desc)
    if pd == NULL:
        return fail(dnnl_out_of_memory, "clone: out of memory")
    primitive_desc[0] = pd
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_get_attr(
        const_dnnl_primitive_desc_t primitive_desc,
        const_dnnl_primitive_attr_t *attr) noexcept nogil:
    if not pd_ok(primitive_desc) or attr == NULL:
        return fail(dnnl_invalid_arguments, "get_attr: dead primitive descriptor or NULL output")
    attr[0] = &primitive_desc.attr
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_destroy(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil:
    return obj_destroy(&primitive_desc.hdr if primitive_desc != NULL else NULL,
                       OBJ_PRIMITIVE_DESC, "primitive descriptor")

# ------------------------------------------------------------ queries

cdef int common_md_arg(dnnl_query_t what, int index) noexcept nogil:
    """The DNNL_ARG_* an indexed md query stands for (oneDNN's primitive_desc.hpp):
    weights index 1 is the bias; a family with more weights says otherwise."""
    if what == dnnl_query_exec_arg_md:
        return index
    if index < 0:
        return -1
    if what == dnnl_query_src_md:
        return DNNL_ARG_SRC_0 + index if index < 3 else -1
    if what == dnnl_query_dst_md:
        return DNNL_ARG_DST_0 + index if index < 3 else -1
    if what == dnnl_query_diff_src_md:
        return DNNL_ARG_DIFF_SRC_0 + index if index < 3 else -1
    if what == dnnl_query_diff_dst_md:
        return DNNL_ARG_DIFF_DST_0 + index if index < 3 else -1
    if what == dnnl_query_workspace_md:
        return DNNL_ARG_WORKSPACE if index == 0 else -1
    if what == dnnl_query_scratchpad_md:
        return DNNL_ARG_SCRATCHPAD if index == 0 else -1
    if what == dnnl_query_weights_md:
        return DNNL_ARG_WEIGHTS_0 if index == 0 else (DNNL_ARG_BIAS if index == 1 else -1)
    if what == dnnl_query_diff_weights_md:
        return DNNL_ARG_DIFF_WEIGHTS_0 if index == 0 else (
            DNNL_ARG_DIFF_BIAS if index == 1 else -1)
    return -1


cdef dnnl_status_t dnnl_primitive_desc_query(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index,
        void *result) noexcept nogil:
    if not pd_ok(primitive_desc) or result == NULL:
        return fail(dnnl_invalid_arguments, "query: dead primitive descriptor or NULL output")
    cdef const dnnl_primitive_desc *pd = primitive_desc
    cdef int i, arg, n = 0
    cdef pd_arg_t *a
    cdef dnnl_status_t st
    if what == dnnl_query_engine or what == dnnl_query_scratchpad_engine:
        (<dnnl_engine_t *>result)[0] = pd.engine
    elif what == dnnl_query_primitive_kind:
        (<dnnl_primitive_kind_t *>result)[0] = pd.desc.primitive_kind
    elif what == dnnl_query_num_of_inputs_s32 or what == dnnl_query_num_of_outputs_s32:
        for i in range(pd.nargs):
            if pd.args[i].md.md.ndims != 0 and pd.args[i].arg != DNNL_ARG_SCRATCHPAD and (
                    pd.args[i].usage == (ARG_INPUT if what == dnnl_query_num_of_inputs_s32
                                         else ARG_OUTPUT)):
                n += 1
        (<int *>result)[0] = n
    elif what == dnnl_query_time_estimate_f64:
        (<double *>result)[0] = 0.0
    elif what == dnnl_query_memory_consumption_s64:
        (<dnnl_dim_t *>result)[0] = pd.scratchpad_size if (
            pd.attr.scratchpad_mode == dnnl_scratchpad_mode_library) else 0
    elif what == dnnl_query_impl_info_str:
        (<const char **>result)[0] = pd.info
    elif what == dnnl_query_cache_blob_id_size_s64:
        (<dnnl_dim_t *>result)[0] = 0       # no cache blobs on the CPU engine (as oneDNN)
    elif what == dnnl_query_cache_blob_id:
        (<const void **>result)[0] = NULL
    elif what == dnnl_query_prop_kind and pd.desc.prop_kind != dnnl_prop_kind_undef:
        (<dnnl_prop_kind_t *>result)[0] = pd.desc.prop_kind
    elif (dnnl_query_src_md <= what <= dnnl_query_scratchpad_md
          or what == dnnl_query_exec_arg_md):
        arg = (pd.kind.md_arg(pd, what, index) if pd.kind.md_arg != NULL
               else common_md_arg(what, index))
        a = pd_arg(pd, arg) if arg >= 0 else NULL
        (<const_dnnl_memory_desc_t *>result)[0] = &a.md if a != NULL else &pd.zero_md
    else:
        st = pd.kind.query(pd, what, index, result) if pd.kind.query != NULL \
            else dnnl_unimplemented
        if st != dnnl_success:
            snprintf(err_buf(), ERR_LEN, "query: %s does not apply to a %s primitive "
                     "descriptor", dnnl_query2str(what),
                     dnnl_prim_kind2str(pd.desc.primitive_kind))
            return fail(dnnl_unimplemented, err_buf())
    return dnnl_success


cdef const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what,
        int index) noexcept nogil:
    cdef const_dnnl_memory_desc_t md = NULL
    if not (dnnl_query_some_md <= what <= dnnl_query_exec_arg_md):
        fail(dnnl_invalid_arguments, "query_md: not a memory descriptor query")
        return NULL
    if dnnl_primitive_desc_query(primitive_desc, what, index, &md) != dnnl_success:
        return NULL
    return md


cdef int dnnl_primitive_desc_query_s32(const_dnnl_primitive_desc_t primitive_desc,
                                       dnnl_query_t what, int index) noexcept nogil:
    cdef int res = 0
    if what != dnnl_query_num_of_inputs_s32 and what != dnnl_query_num_of_outputs_s32:
        return 0
    if dnnl_primitive_desc_query(primitive_desc, what, index, &res) != dnnl_success:
        return 0
    return res

# ------------------------------------------------------------ names, verbose

cdef const char *common_arg_name(int arg) noexcept nogil:
    if arg == DNNL_ARG_SRC: return "SRC"
    if arg == DNNL_ARG_SRC_1: return "SRC_1"
    if arg == DNNL_ARG_SRC_2: return "SRC_2"
    if arg == DNNL_ARG_DST: return "DST"
    if arg == DNNL_ARG_DST_1: return "DST_1"
    if arg == DNNL_ARG_DST_2: return "DST_2"
    if arg == DNNL_ARG_WEIGHTS: return "WEIGHTS"
    if arg == DNNL_ARG_WEIGHTS_1: return "WEIGHTS_1"
    if arg == DNNL_ARG_WEIGHTS_2: return "WEIGHTS_2"
    if arg == DNNL_ARG_WEIGHTS_3: return "WEIGHTS_3"
    if arg == DNNL_ARG_BIAS: return "BIAS"
    if arg == DNNL_ARG_WORKSPACE: return "WORKSPACE"
    if arg == DNNL_ARG_SCRATCHPAD: return "SCRATCHPAD"
    if arg == DNNL_ARG_DIFF_SRC: return "DIFF_SRC"
    if arg == DNNL_ARG_DIFF_SRC_1: return "DIFF_SRC_1"
    if arg == DNNL_ARG_DIFF_SRC_2: return "DIFF_SRC_2"
    if arg == DNNL_ARG_DIFF_DST: return "DIFF_DST"
    if arg == DNNL_ARG_DIFF_DST_1: return "DIFF_DST_1"
    if arg == DNNL_ARG_DIFF_DST_2: return "DIFF_DST_2"
    if arg == DNNL_ARG_DIFF_WEIGHTS: return "DIFF_WEIGHTS"
    if arg == DNNL_ARG_DIFF_WEIGHTS_1: return "DIFF_WEIGHTS_1"
    if arg == DNNL_ARG_DIFF_WEIGHTS_2: return "DIFF_WEIGHTS_2"
    if arg == DNNL_ARG_DIFF_WEIGHTS_3: return "DIFF_WEIGHTS_3"
    if arg == DNNL_ARG_DIFF_BIAS: return "DIFF_BIAS"
    return "?"


cdef const char *pd_arg_name(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    cdef const char *name = NULL
    if pd.kind.arg_name != NULL:
        name = pd.kind.arg_name(arg)
    return name if name != NULL else common_arg_name(arg)
