# The ISA levels the kernels are compiled for (kernels/include/cydnnl_isa.h):
# dnnl_cpu_isa_t values. A family registers one implementation per level,
# highest first, each named "<prefix>:<level>".

cdef extern from "kernels/include/cydnnl_isa.h":
    enum:
        ISA_SSE41 "CYDNNL_ISA_SSE41"
        ISA_AVX2 "CYDNNL_ISA_AVX2"
        ISA_AVX512_CORE "CYDNNL_ISA_AVX512_CORE"
        ISA_AVX512_CORE_BF16 "CYDNNL_ISA_AVX512_CORE_BF16"
