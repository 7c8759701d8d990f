# Status reporting and verbose output (see verbose.pxd).

from libc.stdlib cimport getenv
from libc.string cimport strcmp, strncpy, strstr
from libc.stdio cimport printf, fflush, stdout

from dnnl_c.core.types cimport *
from dnnl_c.core.tables cimport *
from dnnl_c.core.util cimport CYDNNL_RUNTIME

cdef extern from *:
    """
    static __thread char cydnnl_error_buf[1024];
    static __thread int cydnnl_quiet;
    static __thread int cydnnl_dispatching;
    """
    char cydnnl_error_buf[1024]
    int cydnnl_quiet
    int cydnnl_dispatching

cdef int g_verbose = -1


cdef int parse_verbose(const char *s) noexcept nogil:
    if s == NULL or s[0] == 0:
        return 0
    if strcmp(s, "1") == 0:
        return VERBOSE_EXEC
    if strcmp(s, "2") == 0:
        return VERBOSE_EXEC | VERBOSE_CREATE
    cdef int level = 0
    if strstr(s, "all") != NULL:
        level |= VERBOSE_CHECK | VERBOSE_CREATE | VERBOSE_EXEC
    if strstr(s, "check") != NULL or strstr(s, "dispatch") != NULL:
        level |= VERBOSE_CHECK
    if strstr(s, "profile_create") != NULL:
        level |= VERBOSE_CREATE
    if strstr(s, "profile_exec") != NULL:
        level |= VERBOSE_EXEC
    if strstr(s, "profile") != NULL and strstr(s, "profile_") == NULL:
        level |= VERBOSE_CREATE | VERBOSE_EXEC
    return level


cdef int verbose_level() noexcept nogil:
    global g_verbose
    cdef const char *env
    if g_verbose < 0:
        env = getenv("ONEDNN_VERBOSE")
        if env == NULL:
            env = getenv("DNNL_VERBOSE")
        g_verbose = parse_verbose(env)
    return g_verbose


cdef char *err_buf() noexcept nogil:
    return cydnnl_error_buf


cdef void quiet(bint on) noexcept nogil:
    global cydnnl_quiet
    cydnnl_quiet += 1 if on else -1


cdef void set_dispatching(bint on) noexcept nogil:
    global cydnnl_dispatching
    cydnnl_dispatching = 1 if on else 0


cdef dnnl_status_t fail(dnnl_status_t status, const char *msg) noexcept nogil:
    if cydnnl_quiet > 0:
        return status
    if msg != <const char *>cydnnl_error_buf:
        strncpy(cydnnl_error_buf, msg, ERR_LEN - 1)
        cydnnl_error_buf[ERR_LEN - 1] = 0
    if verbose_level() & VERBOSE_CHECK and not cydnnl_dispatching:
        printf("onednn_verbose,v1,common,error,%s,%s\n", cydnnl_status2str(status),
               cydnnl_error_buf)
        fflush(stdout)
    return status


cdef const char *cydnnl_last_error() noexcept nogil:
    return cydnnl_error_buf


cdef void cydnnl_clear_error() noexcept nogil:
    cydnnl_error_buf[0] = 0


cdef dnnl_status_t dnnl_set_verbose(int level) noexcept nogil:
    global g_verbose
    if level < 0 or level > 2:
        return fail(dnnl_invalid_arguments, "verbose level must be 0, 1 or 2")
    g_verbose = 0 if level == 0 else (VERBOSE_EXEC if level == 1 else VERBOSE_EXEC | VERBOSE_CREATE)
    return dnnl_success


cdef dnnl_version_t g_version
g_version.major = 3
g_version.minor = 13
g_version.patch = 1
g_version.hash = b"cydnnl"
g_version.cpu_runtime = CYDNNL_RUNTIME
g_version.gpu_runtime = 0


cdef const dnnl_version_t *dnnl_version() noexcept nogil:
    return &g_version

# ------------------------------------------------------------ *2str

cdef const char *dnnl_status2str(dnnl_status_t v) noexcept nogil:
    return cydnnl_status2str(v)
cdef const char *dnnl_dt2str(dnnl_data_type_t v) noexcept nogil:
    return cydnnl_dt2str(v)
cdef const char *dnnl_fmt_kind2str(dnnl_format_kind_t v) noexcept nogil:
    return cydnnl_fmt_kind2str(v)
cdef const char *dnnl_fmt_tag2str(dnnl_format_tag_t v) noexcept nogil:
    return cydnnl_fmt_tag2str(v)
cdef const char *dnnl_prop_kind2str(dnnl_prop_kind_t v) noexcept nogil:
    return cydnnl_prop_kind2str(v)
cdef const char *dnnl_prim_kind2str(dnnl_primitive_kind_t v) noexcept nogil:
    return cydnnl_prim_kind2str(v)
cdef const char *dnnl_alg_kind2str(dnnl_alg_kind_t v) noexcept nogil:
    return cydnnl_alg_kind2str(v)
cdef const char *dnnl_engine_kind2str(dnnl_engine_kind_t v) noexcept nogil:
    return cydnnl_engine_kind2str(v)
cdef const char *dnnl_rnn_direction2str(dnnl_rnn_direction_t v) noexcept nogil:
    return cydnnl_rnn_direction2str(v)
cdef const char *dnnl_rnn_flags2str(dnnl_rnn_flags_t v) noexcept nogil:
    return cydnnl_rnn_flags2str(v)
cdef const char *dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_t v) noexcept nogil:
    return cydnnl_scratchpad_mode2str(v)
cdef const char *dnnl_fpmath_mode2str(dnnl_fpmath_mode_t v) noexcept nogil:
    return cydnnl_fpmath_mode2str(v)
cdef const char *dnnl_query2str(dnnl_query_t v) noexcept nogil:
    return cydnnl_query2str(v)


cdef dnnl_status_t dnnl_verbose_profiling_enabled(int *enabled) noexcept nogil:
    """1 when verbose prints creation or execution times."""
    if enabled == NULL:
        return fail(dnnl_invalid_arguments, "verbose: NULL output")
    enabled[0] = 1 if verbose_level() & (VERBOSE_CREATE | VERBOSE_EXEC) else 0
    return dnnl_success
