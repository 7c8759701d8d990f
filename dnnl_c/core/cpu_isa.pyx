# The CPU's instruction sets and the ISA limit (see cpu_isa.pxd).

from libc.stdlib cimport getenv
from libc.string cimport strcmp


cdef bint bf16_allowed() noexcept nogil:
    cdef const char *isa = getenv("ONEDNN_MAX_CPU_ISA")
    if isa == NULL:
        isa = getenv("DNNL_MAX_CPU_ISA")
    if isa == NULL:
        return True
    return not (strcmp(isa, "SSE41") == 0 or strcmp(isa, "AVX") == 0
                or strcmp(isa, "AVX2") == 0 or strcmp(isa, "AVX2_VNNI") == 0
                or strcmp(isa, "sse41") == 0 or strcmp(isa, "avx") == 0
                or strcmp(isa, "avx2") == 0 or strcmp(isa, "avx2_vnni") == 0)

