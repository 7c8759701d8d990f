# oneDNN's JIT-code settings (see service.pyx: there is no JIT code here).

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_set_jit_dump(int enable) noexcept nogil
cdef dnnl_status_t dnnl_set_jit_profiling_flags(unsigned flags) noexcept nogil
cdef dnnl_status_t dnnl_set_jit_profiling_jitdumpdir(const char *dir) noexcept nogil
