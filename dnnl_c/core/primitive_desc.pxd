# Primitive descriptors (oneDNN's primitive_desc.hpp and
# primitive_desc_iterator.hpp): an operation description plus the first
# implementation of its kind's list that accepts it.

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_primitive_desc_next_impl(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_clone(
        dnnl_primitive_desc_t *primitive_desc,
        const_dnnl_primitive_desc_t existing_primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_get_attr(
        const_dnnl_primitive_desc_t primitive_desc,
        const_dnnl_primitive_attr_t *attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_destroy(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_query(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index,
        void *result) noexcept nogil
cdef const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what,
        int index) noexcept nogil
cdef int dnnl_primitive_desc_query_s32(const_dnnl_primitive_desc_t primitive_desc,
                                       dnnl_query_t what, int index) noexcept nogil

# ------------------------------------------- for the primitive families

# Creates a primitive descriptor for a typed op descriptor (its first
# member an op_desc_t) and the arguments the user described: the first
# implementation of the kind's registered list that accepts it.
cdef dnnl_status_t pd_create(dnnl_primitive_desc_t *out, dnnl_engine *engine,
                             const op_desc_t *desc, size_t desc_size,
                             int nargs, const arg_spec_t *args,
                             const_dnnl_primitive_attr_t attr,
                             const_dnnl_primitive_desc_t hint) noexcept nogil
# The ISA level of the pd's implementation (while its init runs: of the
# implementation being tried); dnnl_cpu_isa_default for level-free ones.
cdef dnnl_cpu_isa_t pd_isa(const dnnl_primitive_desc *pd) noexcept nogil
cdef bint pd_is_alive(const dnnl_primitive_desc *pd) noexcept nogil
cdef pd_arg_t *pd_arg(const dnnl_primitive_desc *pd, int arg) noexcept nogil
# The resolved md of an argument; the zero md when there is none.
cdef md_t *pd_md(const dnnl_primitive_desc *pd, int arg) noexcept nogil
# Adds an argument the implementation needs (workspace, scratchpad). It may
# move the argument array: fetch pd_md pointers again afterwards.
cdef pd_arg_t *pd_add_arg(dnnl_primitive_desc *pd, int arg, int usage) noexcept nogil
# The implementation's typed configuration: `size` zeroed bytes owned by
# the pd (copied with it), replacing any earlier one; NULL if out of memory.
cdef void *pd_conf(dnnl_primitive_desc *pd, size_t size) noexcept nogil
# A backward pd's hint: NULL passes unless required; otherwise it must be a
# live forward pd of the same primitive kind.
cdef dnnl_status_t check_hint(const dnnl_primitive_desc *hint, dnnl_primitive_kind_t kind,
                              bint required) noexcept nogil
# Checks that an md argument is a live descriptor (NULL allowed if optional).
cdef dnnl_status_t check_md_arg(const dnnl_memory_desc *md, const char *name,
                                bint optional) noexcept nogil
# The name of an argument (DNNL_ARG_*) in the pd's family's words.
cdef const char *pd_arg_name(const dnnl_primitive_desc *pd, int arg) noexcept nogil

# A deep copy (NULL if out of memory), and its disposal: for primitives,
# which keep a private copy of their pd.
cdef dnnl_primitive_desc *pd_clone_raw(const dnnl_primitive_desc *src) noexcept nogil
cdef void pd_dispose(dnnl_primitive_desc *pd) noexcept nogil
