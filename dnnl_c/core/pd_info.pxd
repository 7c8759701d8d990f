# What a primitive's verbose lines say (oneDNN's pd_info_t and the md2*_str
# helpers of verbose.cpp): "<engine>,<kind>,<impl>,<prop_kind>,<mds>,<attrs>,
# <aux>,<problem>". The core writes the engine, kind, implementation, prop
# kind and attributes; the family's `verbose` hook (types.pxd) writes its
# memory descriptors, auxiliary field and problem with the vs_* helpers.

from dnnl_c.core.types cimport *

cdef extern from "core/cydnnl_verbose.h" nogil:
    void cydnnl_vs_init(cydnnl_vstr *s, char *buf, size_t cap)
    # printf-style append; truncates at the buffer's end
    void cydnnl_vs_printf(cydnnl_vstr *s, const char *fmt, ...)

# oneDNN's md2fmt_str, appended to a space-separated list:
# "<name>:<dt>:<flags>:<format kind>:<tag>:<strides>:f0" with flags a (the
# user asked for `any`), p (padded dims), o (padding offsets), 0 (offset0),
# strides only where the layout is not dense; "<name>:undef::undef:::" for
# the zero md.
cdef void vs_md(cydnnl_vstr *s, const char *name, const md_t *md, bint user_any) noexcept nogil
# The same for an argument of the pd (DNNL_ARG_*; absent or -1: the zero
# md), `a` when the user described it as `any`.
cdef void vs_arg(cydnnl_vstr *s, const dnnl_primitive_desc *pd, const char *name,
                 int arg) noexcept nogil
# oneDNN's md2dim_str: "8x96x55x55".
cdef void vs_dims(cydnnl_vstr *s, const md_t *md) noexcept nogil
# oneDNN's md2desc_str: "mb8ic96ih55iw55".
cdef void vs_desc(cydnnl_vstr *s, const md_t *md) noexcept nogil
# The resolved md of an argument of the pd; the zero md when absent.
cdef const md_t *pd_arg_md(const dnnl_primitive_desc *pd, int arg) noexcept nogil

# The pd's info string into s.
cdef void pd_info(const dnnl_primitive_desc *pd, cydnnl_vstr *s) noexcept nogil
# Whether the pd's kind prints lines of `flag` (VERBOSE_*, filter applied).
cdef bint pd_verbose_on(const dnnl_primitive_desc *pd, unsigned flag) noexcept nogil
# "primitive,create:<cache_state>,<info>,<ms>": cache_state is oneDNN's
# cache_miss or cache_hit (the primitive cache decides).
cdef void pd_verbose_create(const dnnl_primitive_desc *pd, const char *cache_state,
                            double start_ms, double ms) noexcept nogil
# "primitive,exec,<info>,<ms>".
cdef void pd_verbose_exec(const dnnl_primitive_desc *pd, double start_ms,
                          double ms) noexcept nogil
# "primitive,create:dispatch,<kind>,<info>,<why the implementation declined>,<where>".
cdef void pd_verbose_dispatch(const dnnl_primitive_desc *pd, const char *reason,
                              const char *where) noexcept nogil
