# What a primitive's verbose lines say (see pd_info.pxd). The format is
# oneDNN 3.13's, field for field, so that its scripts/verbose_converter reads
# our logs; the per-kind parts come from each family's `verbose` hook.

from libc.stdint cimport uint64_t
from libc.stdio cimport snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport (get_verbose_kind, verbose_emit, dnnl_dt2str,
                                  dnnl_fmt_kind2str, dnnl_prim_kind2str, dnnl_prop_kind2str,
                                  dnnl_engine_kind2str, dnnl_scratchpad_mode2str,
                                  dnnl_fpmath_mode2str)
from dnnl_c.core.memory_desc_wrapper cimport (md_blocks, md_is_plain, md_nelems, md_size,
                                              elems_to_bytes)

cdef extern from "core/cydnnl_verbose.h" nogil:
    double cydnnl_wall_ms()

cdef enum:
    INFO_LEN = 8192         # an LSTM backward's 13 mds with strides fit
    PART_LEN = 6144

cdef md_t g_zero_md         # static: all zeros


cdef const md_t *pd_arg_md(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    cdef int i
    if arg >= 0:
        for i in range(pd.nargs):
            if pd.args[i].arg == arg:
                return &pd.args[i].md.md
    return &g_zero_md


cdef bint pd_user_any(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    """oneDNN's *_user_format_kind: what the user described, before the
    implementation resolved it."""
    cdef int i
    for i in range(pd.ndesc_args):
        if pd.desc_args[i].arg == arg:
            return pd.desc_args[i].md.format_kind == dnnl_format_kind_any
    return False


cdef inline bint stride_first(const md_t *md, const dnnl_dim_t *blocks, int a,
                              int b) noexcept nogil:
    """The order md2fmt_tag_str lists dims in: larger strides first (a stride
    of 0 counts as the largest), then larger outer blocks, then by index."""
    cdef uint64_t sa = <uint64_t>(md.strides[a] - 1)
    cdef uint64_t sb = <uint64_t>(md.strides[b] - 1)
    cdef dnnl_dim_t oa = md.padded_dims[a] // blocks[a]
    cdef dnnl_dim_t ob = md.padded_dims[b] // blocks[b]
    if sa != sb:
        return sa > sb
    if oa != ob:
        return oa > ob
    return a < b


cdef void vs_tag(cydnnl_vstr *s, const md_t *md) noexcept nogil:
    """oneDNN's md2fmt_tag_str: the dims outermost first, upper case where
    blocked ("aBcd"), then the inner blocks ("16b")."""
    cdef dnnl_dims_t blocks
    cdef int order[12]
    cdef int i, j, t
    md_blocks(md, blocks)
    for i in range(md.ndims):
        order[i] = i
        j = i
        while j > 0 and stride_first(md, blocks, order[j], order[j - 1]):
            t = order[j]
            order[j] = order[j - 1]
            order[j - 1] = t
            j -= 1
    for i in range(md.ndims):
        cydnnl_vs_printf(s, "%c", (c'a' if blocks[order[i]] == 1 else c'A') + order[i])
    if not md_is_plain(md):
        for i in range(md.inner_nblks):
            cydnnl_vs_printf(s, "%lld%c", <long long>md.inner_blks[i],
                             c'a' + <int>md.inner_idxs[i])


cdef bint dense(const md_t *md) noexcept nogil:
    """oneDNN's is_dense(with_padding=true): the padded elements fill the
    buffer exactly, no broadcast stride."""
    cdef int d
    for d in range(md.ndims):
        if md.strides[d] == 0:
            return False
    return md_size(md) == elems_to_bytes(md, <size_t>md_nelems(md, True))


cdef void vs_md(cydnnl_vstr *s, const char *name, const md_t *md, bint user_any) noexcept nogil:
    cdef int d
    cdef bint padded = False, offsets = False
    if s.len > 0:
        cydnnl_vs_printf(s, " ")
    if md == NULL or md.ndims == 0:
        cydnnl_vs_printf(s, "%s:undef::undef:::", name)
        return
    for d in range(md.ndims):
        padded = padded or md.dims[d] != md.padded_dims[d]
        offsets = offsets or md.padded_offsets[d] != 0
    cydnnl_vs_printf(s, "%s:%s:%s%s%s%s:%s", name, dnnl_dt2str(md.data_type),
                     <const char *>("a" if user_any else ""),
                     <const char *>("p" if padded else ""),
                     <const char *>("o" if offsets else ""),
                     <const char *>("0" if md.offset0 != 0 else ""),
                     dnnl_fmt_kind2str(md.format_kind))
    if md.format_kind == dnnl_blocked:
        cydnnl_vs_printf(s, ":")
        vs_tag(s, md)
        cydnnl_vs_printf(s, ":")
        if not dense(md):
            for d in range(md.ndims):
                cydnnl_vs_printf(s, "%s%lld", <const char *>("x" if d else ""),
                                 <long long>md.strides[d])
    elif md.format_kind == dnnl_format_kind_any:
        cydnnl_vs_printf(s, ":any:")
    else:
        cydnnl_vs_printf(s, "::")
    cydnnl_vs_printf(s, ":f0")     # no extra flags (compensations) in this library


cdef void vs_arg(cydnnl_vstr *s, const dnnl_primitive_desc *pd, const char *name,
                 int arg) noexcept nogil:
    vs_md(s, name, pd_arg_md(pd, arg), pd_user_any(pd, arg) if arg >= 0 else False)


cdef void vs_dims(cydnnl_vstr *s, const md_t *md) noexcept nogil:
    cdef int d
    for d in range(md.ndims):
        cydnnl_vs_printf(s, "%s%lld", <const char *>("x" if d else ""), <long long>md.dims[d])


cdef void vs_desc(cydnnl_vstr *s, const md_t *md) noexcept nogil:
    cdef int n = md.ndims
    if n >= 6:
        vs_dims(s, md)
    elif n == 1:
        cydnnl_vs_printf(s, "x%lld", <long long>md.dims[0])
    elif n >= 2:
        cydnnl_vs_printf(s, "mb%lldic%lld", <long long>md.dims[0], <long long>md.dims[1])
        if n >= 5:
            cydnnl_vs_printf(s, "id%lld", <long long>md.dims[n - 3])
        if n >= 4:
            cydnnl_vs_printf(s, "ih%lld", <long long>md.dims[n - 2])
        if n >= 3:
            cydnnl_vs_printf(s, "iw%lld", <long long>md.dims[n - 1])


cdef const char *generic_name(int arg) noexcept nogil:
    if arg == DNNL_ARG_SRC: return "src"
    if arg == DNNL_ARG_DST: return "dst"
    if arg == DNNL_ARG_WEIGHTS: return "wei"
    if arg == DNNL_ARG_BIAS: return "bia"
    if arg == DNNL_ARG_DIFF_SRC: return "diff_src"
    if arg == DNNL_ARG_DIFF_DST: return "diff_dst"
    if arg == DNNL_ARG_DIFF_WEIGHTS: return "diff_wei"
    if arg == DNNL_ARG_DIFF_BIAS: return "diff_bia"
    if arg == DNNL_ARG_WORKSPACE: return "ws"
    return NULL


cdef void generic_parts(const dnnl_primitive_desc *pd, verbose_parts_t *v) noexcept nogil:
    """For a kind that registered no hook: every md but the scratchpad, and
    the first one's dims as the problem."""
    cdef char name[24]
    cdef const char *known
    cdef int i
    for i in range(pd.nargs):
        if pd.args[i].arg == DNNL_ARG_SCRATCHPAD or pd.args[i].md.md.ndims == 0:
            continue
        known = generic_name(pd.args[i].arg)
        if known == NULL:
            snprintf(name, sizeof(name), "arg%d", pd.args[i].arg)
            known = name
        vs_md(&v.mds, known, &pd.args[i].md.md, pd_user_any(pd, pd.args[i].arg))
        if v.prb.len == 0:
            vs_dims(&v.prb, &pd.args[i].md.md)


cdef void vs_attr(cydnnl_vstr *s, const dnnl_primitive_attr *attr) noexcept nogil:
    """oneDNN's attr2str for the attributes this library has: the scratchpad
    mode and the fpmath mode, where not the defaults."""
    cdef const char *sep = ""
    if attr.scratchpad_mode != dnnl_scratchpad_mode_library:
        cydnnl_vs_printf(s, "attr-scratchpad:%s", dnnl_scratchpad_mode2str(attr.scratchpad_mode))
        sep = " "
    if attr.fpmath_mode != dnnl_fpmath_mode_strict or attr.fpmath_apply_to_int:
        cydnnl_vs_printf(s, "%sattr-fpmath:%s%s", sep, dnnl_fpmath_mode2str(attr.fpmath_mode),
                         <const char *>(":true" if attr.fpmath_apply_to_int else ""))


cdef void pd_info(const dnnl_primitive_desc *pd, cydnnl_vstr *s) noexcept nogil:
    cdef char mds[PART_LEN]
    cdef char aux[512]
    cdef char prb[512]
    cdef verbose_parts_t v
    cdef const char *impl = <const char *>pd.info
    cydnnl_vs_init(&v.mds, mds, sizeof(mds))
    cydnnl_vs_init(&v.aux, aux, sizeof(aux))
    cydnnl_vs_init(&v.prb, prb, sizeof(prb))
    if 0 <= pd.impl_index < pd.kind.impls.n:
        impl = pd.kind.impls.impls[pd.impl_index].name     # also while it is being tried
    if pd.kind.verbose != NULL:
        pd.kind.verbose(pd, &v)
    else:
        generic_parts(pd, &v)
    # one CPU engine: oneDNN adds ":<index>" only when there are several
    cydnnl_vs_printf(s, "%s,%s,%s,%s,%s,", dnnl_engine_kind2str(pd.engine.kind),
                     dnnl_prim_kind2str(pd.desc.primitive_kind), impl,
                     dnnl_prop_kind2str(pd.desc.prop_kind), mds)
    vs_attr(s, &pd.attr)
    cydnnl_vs_printf(s, ",%s,%s", aux, prb)


cdef bint pd_verbose_on(const dnnl_primitive_desc *pd, unsigned flag) noexcept nogil:
    return get_verbose_kind(flag, pd.desc.primitive_kind) != 0


cdef void pd_verbose_create(const dnnl_primitive_desc *pd, const char *cache_state,
                            double start_ms, double ms) noexcept nogil:
    cdef char buf[INFO_LEN]
    cdef cydnnl_vstr s
    cydnnl_vs_init(&s, buf, sizeof(buf))
    cydnnl_vs_printf(&s, "primitive,create:%s,", cache_state)
    pd_info(pd, &s)
    cydnnl_vs_printf(&s, ",%g", ms)
    verbose_emit(buf, start_ms)


cdef void pd_verbose_exec(const dnnl_primitive_desc *pd, double start_ms,
                          double ms) noexcept nogil:
    cdef char buf[INFO_LEN]
    cdef cydnnl_vstr s
    cydnnl_vs_init(&s, buf, sizeof(buf))
    cydnnl_vs_printf(&s, "primitive,exec,")
    pd_info(pd, &s)
    cydnnl_vs_printf(&s, ",%g", ms)
    verbose_emit(buf, start_ms)


cdef void pd_verbose_dispatch(const dnnl_primitive_desc *pd, const char *reason,
                              const char *where) noexcept nogil:
    cdef char buf[INFO_LEN]
    cdef cydnnl_vstr s
    cydnnl_vs_init(&s, buf, sizeof(buf))
    cydnnl_vs_printf(&s, "primitive,create:dispatch,%s,",
                     dnnl_prim_kind2str(pd.desc.primitive_kind))
    pd_info(pd, &s)
    cydnnl_vs_printf(&s, ",%s,%s", reason, where)
    verbose_emit(buf, cydnnl_wall_ms())
