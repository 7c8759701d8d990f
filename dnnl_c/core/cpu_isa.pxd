# The CPU's instruction sets and oneDNN's ISA controls (oneDNN's
# cpu_isa_traits): the ISA limit (ONEDNN_MAX_CPU_ISA or DNNL_MAX_CPU_ISA,
# dnnl_set_max_cpu_isa) and the ISA hints (ONEDNN_CPU_ISA_HINTS,
# dnnl_set_cpu_isa_hints). Each can be set once, before the library first
# reads it; pd_create reads both (cpu_isa_effective), so they are fixed from
# the first primitive descriptor on.

from dnnl_c.dnnl_types cimport *

# The highest oneDNN level this CPU and its OS support, whatever the limit.
cdef dnnl_cpu_isa_t cpu_isa_detected() noexcept nogil
# The level the library runs at: the highest the CPU and the limit allow.
# Locks the limit and the hints.
cdef dnnl_cpu_isa_t cpu_isa_effective() noexcept nogil
# oneDNN's mayiuse(level), for implementations' init functions: the CPU has
# `level` and the limit allows it (levels are only partially ordered:
# avx2_vnni may be usable when the effective level is avx512_core).
cdef bint cpu_isa_has(dnnl_cpu_isa_t level) noexcept nogil
# oneDNN's description of a level ("Intel AVX2"), for verbose output.
cdef const char *cpu_isa_info(dnnl_cpu_isa_t isa) noexcept nogil
# oneDNN's short name of a level ("avx2", "avx512_core"), "any" for the
# default level: the suffix of implementation names.
cdef const char *cpu_isa_name(dnnl_cpu_isa_t isa) noexcept nogil
# Whether bf16 compute primitives may be created. Our kernels convert bf16 in
# software, so bf16 works at every ISA level and under any limit; the project
# switch CYDNNL_BF16_UNIMPLEMENTED=1 (read at each call) makes them answer
# dnnl_unimplemented, as oneDNN does on CPUs without bf16 support.
cdef bint bf16_allowed() noexcept nogil

cdef dnnl_status_t dnnl_set_max_cpu_isa(dnnl_cpu_isa_t isa) noexcept nogil
cdef dnnl_cpu_isa_t dnnl_get_effective_cpu_isa() noexcept nogil
cdef dnnl_status_t dnnl_set_cpu_isa_hints(dnnl_cpu_isa_hints_t isa_hints) noexcept nogil
cdef dnnl_cpu_isa_hints_t dnnl_get_cpu_isa_hints() noexcept nogil
