# The registered primitive kinds (see registry.pxd).

from libc.stdio cimport snprintf
from libc.stdlib cimport malloc, realloc

from dnnl_c.core.types cimport *
from dnnl_c.core.cpu_isa cimport cpu_isa_name

cdef enum:
    MAX_KIND = 64       # above every dnnl_primitive_kind_t value but dnnl_primitive_kind_max

cdef const primitive_kind_t *g_kinds[MAX_KIND]


cdef int impl_list_add(impl_list_t *list, const char *name, pd_init_fn init,
                       execute_fn execute) noexcept nogil:
    return add_entry(list, name, init, execute, dnnl_cpu_isa_default)


cdef int impl_list_add_isa(impl_list_t *list, const char *prefix, dnnl_cpu_isa_t isa,
                           pd_init_fn init, execute_fn execute) noexcept nogil:
    # The name lives as long as the list, that is as long as the process.
    cdef size_t n = 64
    cdef char *name = <char *>malloc(n)
    if name == NULL:
        return -1
    snprintf(name, n, "%s:%s", prefix, cpu_isa_name(isa))
    return add_entry(list, name, init, execute, isa)


cdef int add_entry(impl_list_t *list, const char *name, pd_init_fn init, execute_fn execute,
                   dnnl_cpu_isa_t isa) noexcept nogil:
    cdef int cap
    cdef impl_t *grown
    if list.n == list.cap:
        cap = 8 if list.cap == 0 else 2 * list.cap
        grown = <impl_t *>realloc(list.impls, cap * sizeof(impl_t))
        if grown == NULL:
            return -1
        list.impls = grown
        list.cap = cap
    list.impls[list.n].name = name
    list.impls[list.n].init = init
    list.impls[list.n].execute = execute
    list.impls[list.n].isa = isa
    list.n += 1
    return 0


cdef void register_kind(const primitive_kind_t *kind) noexcept nogil:
    if 0 <= <int>kind.kind < MAX_KIND:
        g_kinds[<int>kind.kind] = kind


cdef const primitive_kind_t *find_kind(dnnl_primitive_kind_t kind) noexcept nogil:
    if 0 <= <int>kind < MAX_KIND:
        return g_kinds[<int>kind]
    return NULL
