# The primitive kinds the families registered, and their implementation
# lists. A family fills a primitive_kind_t (types.pxd) when its module
# loads and registers it with one call; the core dispatches through it.

from dnnl_c.core.types cimport *

# Appends an implementation to a list (lists grow; 0 on success, -1 if out of memory).
cdef int impl_list_add(impl_list_t *list, const char *name, pd_init_fn init,
                       execute_fn execute) noexcept nogil
# The same for an implementation whose kernels are compiled for one ISA
# level: named "<prefix>:<level>" (oneDNN's "jit:avx2"), skipped by the
# dispatch where the CPU or the ISA limit does not allow the level.
cdef int impl_list_add_isa(impl_list_t *list, const char *prefix, dnnl_cpu_isa_t isa,
                           pd_init_fn init, execute_fn execute) noexcept nogil
cdef void register_kind(const primitive_kind_t *kind) noexcept nogil
# The registration of a primitive kind, NULL if no family registered it.
cdef const primitive_kind_t *find_kind(dnnl_primitive_kind_t kind) noexcept nogil
