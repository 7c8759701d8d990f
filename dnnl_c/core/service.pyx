# oneDNN's JIT-code settings (dnnl_set_jit_dump, dnnl_set_jit_profiling_*).
# This library generates no code at run time: its kernels are compiled
# ahead of time, one copy per ISA level, so there is never JIT code to dump
# or to report to a profiler. The settings are checked as oneDNN checks
# them, kept, and have nothing to act on (as in a oneDNN build whose
# primitives all fall back to reference code).

from libc.string cimport strncpy

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail

cdef int g_jit_dump = 0
cdef unsigned g_jit_profiling_flags = 0
cdef char g_jitdump_dir[4096]


cdef dnnl_status_t dnnl_set_jit_dump(int enable) noexcept nogil:
    global g_jit_dump
    g_jit_dump = 1 if enable else 0
    return dnnl_success


cdef dnnl_status_t dnnl_set_jit_profiling_flags(unsigned flags) noexcept nogil:
    global g_jit_profiling_flags
    cdef unsigned known = (DNNL_JIT_PROFILE_VTUNE | DNNL_JIT_PROFILE_LINUX_PERFMAP
                           | DNNL_JIT_PROFILE_LINUX_JITDUMP
                           | DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC)
    if flags & ~known:
        return fail(dnnl_invalid_arguments, "jit profiling: unknown flags")
    g_jit_profiling_flags = flags
    return dnnl_success


cdef dnnl_status_t dnnl_set_jit_profiling_jitdumpdir(const char *dir) noexcept nogil:
    if dir == NULL:
        return fail(dnnl_invalid_arguments, "jit profiling: NULL directory")
    strncpy(g_jitdump_dir, dir, sizeof(g_jitdump_dir) - 1)
    g_jitdump_dir[sizeof(g_jitdump_dir) - 1] = 0
    return dnnl_success
