# The CPU's instruction sets and the ISA controls (see cpu_isa.pxd); the
# detection and the set-once settings are C, in cpu_isa.h.

from libc.stdlib cimport getenv
from libc.string cimport strcmp

from dnnl_c.dnnl_types cimport *
from dnnl_c.core.verbose cimport fail, verbose_set_isa_info

# Only this module includes the header: its settings must exist once.
cdef extern from "core/cpu_isa.h" nogil:
    enum:
        CY_ISA_OK
        CY_ISA_BAD_VALUE
        CY_ISA_LOCKED
        CY_ISA_NOT_X86
    int cydnnl_set_max_isa(int pub)
    int cydnnl_isa_effective()
    int cydnnl_isa_detected()
    int cydnnl_isa_has(int pub)
    const char *cydnnl_isa_info(int pub)
    const char *cydnnl_isa_name(int pub)
    int cydnnl_set_isa_hints(int hints)
    int cydnnl_get_isa_hints()


cdef dnnl_cpu_isa_t cpu_isa_detected() noexcept nogil:
    return <dnnl_cpu_isa_t>cydnnl_isa_detected()


cdef dnnl_cpu_isa_t cpu_isa_effective() noexcept nogil:
    return <dnnl_cpu_isa_t>cydnnl_isa_effective()


cdef bint cpu_isa_has(dnnl_cpu_isa_t level) noexcept nogil:
    return cydnnl_isa_has(<int>level) != 0


cdef const char *cpu_isa_info(dnnl_cpu_isa_t isa) noexcept nogil:
    return cydnnl_isa_info(<int>isa)


cdef const char *cpu_isa_name(dnnl_cpu_isa_t isa) noexcept nogil:
    return cydnnl_isa_name(<int>isa)


cdef bint bf16_allowed() noexcept nogil:
    cdef const char *v = getenv("CYDNNL_BF16_UNIMPLEMENTED")
    return v == NULL or v[0] == 0 or strcmp(v, "0") == 0


cdef dnnl_status_t dnnl_set_max_cpu_isa(dnnl_cpu_isa_t isa) noexcept nogil:
    cdef int r = cydnnl_set_max_isa(<int>isa)
    if r == CY_ISA_BAD_VALUE:
        return fail(dnnl_invalid_arguments, "set_max_cpu_isa: not a dnnl_cpu_isa_t value")
    if r == CY_ISA_LOCKED:
        return fail(dnnl_invalid_arguments, "set_max_cpu_isa: the ISA limit was already "
                    "set, or read by the first primitive descriptor")
    if r == CY_ISA_NOT_X86:
        return fail(dnnl_unimplemented, "set_max_cpu_isa: not an x86-64 CPU")
    return dnnl_success


cdef dnnl_cpu_isa_t dnnl_get_effective_cpu_isa() noexcept nogil:
    return cpu_isa_effective()


cdef dnnl_status_t dnnl_set_cpu_isa_hints(dnnl_cpu_isa_hints_t isa_hints) noexcept nogil:
    cdef int r = cydnnl_set_isa_hints(<int>isa_hints)
    if r == CY_ISA_BAD_VALUE:
        return fail(dnnl_invalid_arguments, "set_cpu_isa_hints: not a dnnl_cpu_isa_hints_t value")
    if r == CY_ISA_LOCKED:
        return fail(dnnl_runtime_error, "set_cpu_isa_hints: the ISA hints were already "
                    "set, or read by the first primitive descriptor")
    if r == CY_ISA_NOT_X86:
        return fail(dnnl_unimplemented, "set_cpu_isa_hints: not an x86-64 CPU")
    return dnnl_success


cdef dnnl_cpu_isa_hints_t dnnl_get_cpu_isa_hints() noexcept nogil:
    return <dnnl_cpu_isa_hints_t>cydnnl_get_isa_hints()


cdef const char *effective_isa_info() noexcept nogil:
    return cydnnl_isa_info(cydnnl_isa_effective())


# The verbose header names the ISA the library runs at (verbose.pyx is below
# this module, so it asks through this hook).
verbose_set_isa_info(effective_isa_info)
