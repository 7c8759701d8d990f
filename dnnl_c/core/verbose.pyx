# Status reporting and verbose output (see verbose.pxd).

from libc.stdlib cimport getenv, atoi
from libc.string cimport strcmp, strncmp, strncpy, strlen
from libc.stdio cimport printf, fflush, stdout, snprintf

from dnnl_c.core.types cimport *
from dnnl_c.core.tables cimport *
from dnnl_c.core.util cimport CYDNNL_RUNTIME
from dnnl_c.kernels.openmp cimport omp_get_max_threads

cdef extern from *:
    """
    static __thread char cydnnl_error_buf[1024];
    static __thread int cydnnl_quiet;
    static __thread int cydnnl_dispatching;
    static __thread int cydnnl_executing;
    """
    char cydnnl_error_buf[1024]
    int cydnnl_quiet
    int cydnnl_dispatching
    int cydnnl_executing

cdef extern from "core/cydnnl_verbose.h" nogil:
    void cydnnl_verbose_once(void (*init)() noexcept nogil)
    int cydnnl_regex_search(const char *pattern, const char *text)
    int cydnnl_test_and_set(int *flag)
    double cydnnl_wall_ms()
    void cydnnl_vs_init(cydnnl_vstr *s, char *buf, size_t cap)
    void cydnnl_vs_printf(cydnnl_vstr *s, const char *fmt, ...)

cdef enum:
    COMPONENT_PRIMITIVE = 1             # bit 0; a primitive kind k is bit k
    N_COMPONENTS = 25                   # ... then graph, gemm_api, ukernel
    FILTER_NONE = 0
    FILTER_VALID = 1
    FILTER_INVALID = 2

cdef dnnl_version_t g_version
g_version.major = 3
g_version.minor = 13
g_version.patch = 1
g_version.hash = b"cydnnl"
g_version.cpu_runtime = CYDNNL_RUNTIME
g_version.gpu_runtime = 0

cdef unsigned g_verbose = 0
cdef unsigned g_filter = 0xffffffffu    # components whose lines print
cdef int g_filter_status = FILTER_NONE
cdef char g_filter_hits[512]
cdef char g_filter_error[256]
cdef int g_timestamp = -1
cdef int g_header_printed = 0
cdef isa_info_fn g_isa_info = NULL


cdef const char *component_name(int bit) noexcept nogil:
    """oneDNN's component_t names: bit 0 is every primitive, bit k the
    primitive kind k (gemm, 12, has no name of its own), then the APIs."""
    if bit == 0:
        return "primitive"
    if bit == 12:
        return NULL
    if bit < 22:
        return cydnnl_prim_kind2str(bit)
    return "graph" if bit == 22 else ("gemm_api" if bit == 23 else "ukernel")


cdef unsigned parse_filter(const char *regex) noexcept nogil:
    """The components filter=REGEX names (searched in each name, as oneDNN's
    std::regex_search); all of them, reported invalid, when it names none or
    does not compile."""
    global g_filter_status
    cdef unsigned hit = 0
    cdef int bit, r
    cdef size_t used = 0
    cdef const char *name
    g_filter_hits[0] = 0
    for bit in range(N_COMPONENTS):
        name = component_name(bit)
        if name == NULL:
            continue
        r = cydnnl_regex_search(regex, name)
        if r < 0:
            g_filter_status = FILTER_INVALID
            snprintf(g_filter_error, sizeof(g_filter_error),
                     "invalid regular expression '%s'", regex)
            return 0xffffffffu
        if r and used < sizeof(g_filter_hits):
            hit |= 1u << bit
            used += snprintf(g_filter_hits + used, sizeof(g_filter_hits) - used, "%s%s",
                             <const char *>("" if used == 0 else ","), name)
    if hit == 0:
        g_filter_status = FILTER_INVALID
        snprintf(g_filter_error, sizeof(g_filter_error),
                 "component with name '%s' not found", regex)
        return 0xffffffffu
    g_filter_status = FILTER_VALID
    return hit


cdef unsigned parse_token(const char *t, unsigned val) noexcept nogil:
    """One comma-separated token of ONEDNN_VERBOSE (oneDNN 3.13's update_kind)."""
    if strcmp(t, "0") == 0 or strcmp(t, "none") == 0:
        return 0
    if strcmp(t, "1") == 0:
        return val | VERBOSE_LEVEL1
    if strcmp(t, "2") == 0:
        return val | VERBOSE_LEVEL2
    if strcmp(t, "all") == 0 or strcmp(t, "-1") == 0:
        return 0xffffffffu
    if strcmp(t, "error") == 0:
        return val | VERBOSE_ERROR
    if strcmp(t, "check") == 0:
        return val | VERBOSE_CREATE_CHECK | VERBOSE_EXEC_CHECK
    if strcmp(t, "dispatch") == 0:
        return val | VERBOSE_CREATE_DISPATCH
    if strcmp(t, "profile") == 0:
        return val | VERBOSE_CREATE_PROFILE | VERBOSE_EXEC_PROFILE
    if strcmp(t, "profile_create") == 0:
        return val | VERBOSE_CREATE_PROFILE
    if strcmp(t, "profile_exec") == 0:
        return val | VERBOSE_EXEC_PROFILE
    if strcmp(t, "profile_externals") == 0:
        return val | VERBOSE_PROFILE_EXTERNALS
    if strcmp(t, "warn") == 0:
        return val | VERBOSE_WARN
    if strncmp(t, "debuginfo=", 10) == 0:
        return val | ((<unsigned>atoi(t + 10)) << 24)
    if strncmp(t, "filter=", 7) == 0 and t[7] != 0:
        global g_filter
        g_filter = parse_filter(t + 7)
    return val


cdef const char *getenv_user(const char *name) noexcept nogil:
    """ONEDNN_<name>, else DNNL_<name> (an empty value counts as unset)."""
    cdef char full[64]
    cdef const char *v
    snprintf(full, sizeof(full), "ONEDNN_%s", name)
    v = getenv(full)
    if v != NULL and v[0] != 0:
        return v
    snprintf(full, sizeof(full), "DNNL_%s", name)
    v = getenv(full)
    return v if v != NULL and v[0] != 0 else NULL


cdef void verbose_init() noexcept nogil:
    """The settings from the environment, once (errors are on by default)."""
    global g_verbose
    cdef char opt[128]
    cdef char tok[128]
    cdef const char *env = getenv_user("VERBOSE")
    cdef unsigned val = VERBOSE_ERROR
    cdef int i, n = 0
    opt[0] = 0
    if env != NULL:
        strncpy(opt, env, sizeof(opt) - 1)     # oneDNN reads at most 127 characters
        opt[sizeof(opt) - 1] = 0
    i = 0
    while True:
        if opt[i] == c',' or opt[i] == 0:
            tok[n] = 0
            val = parse_token(tok, val)
            n = 0
            if opt[i] == 0:
                break
        elif n < <int>sizeof(tok) - 1:
            # oneDNN lowercases the value
            tok[n] = opt[i] + 32 if c'A' <= opt[i] <= c'Z' else opt[i]
            n += 1
        i += 1
    g_verbose = val


cdef unsigned get_verbose(unsigned flag) noexcept nogil:
    cydnnl_verbose_once(verbose_init)
    return g_verbose & flag


cdef unsigned get_verbose_kind(unsigned flag, dnnl_primitive_kind_t kind) noexcept nogil:
    cdef unsigned comp = COMPONENT_PRIMITIVE
    if 0 < <int>kind < 32:
        comp |= 1u << <int>kind
    cydnnl_verbose_once(verbose_init)
    return g_verbose & flag if g_filter & comp else 0


cdef bint verbose_timestamp() noexcept nogil:
    global g_timestamp
    cdef const char *env
    if get_verbose(0xffffffffu) == 0:
        return False
    if g_timestamp < 0:
        env = getenv_user("VERBOSE_TIMESTAMP")
        g_timestamp = 1 if env != NULL and atoi(env) != 0 else 0
    return g_timestamp == 1


cdef void verbose_set_isa_info(isa_info_fn fn) noexcept nogil:
    global g_isa_info
    g_isa_info = fn


cdef void print_header() noexcept nogil:
    """oneDNN's print_header: once, before the first line of any kind."""
    if cydnnl_test_and_set(&g_header_printed):
        return
    printf("onednn_verbose,v1,info,oneDNN v%d.%d.%d (commit %s)\n", g_version.major,
           g_version.minor, g_version.patch, g_version.hash)
    printf("onednn_verbose,v1,info,cpu,runtime:%s,nthr:%d\n",
           dnnl_runtime2str(g_version.cpu_runtime), omp_get_max_threads())
    printf("onednn_verbose,v1,info,cpu,isa:%s\n",
           g_isa_info() if g_isa_info != NULL else <const char *>"unknown")
    printf("onednn_verbose,v1,info,gpu,runtime:%s\n", dnnl_runtime2str(g_version.gpu_runtime))
    printf("onednn_verbose,v1,primitive,info,template:%soperation,engine,primitive,"
           "implementation,prop_kind,memory_descriptors,attributes,auxiliary,problem_desc,"
           "exec_time\n", <const char *>("timestamp," if verbose_timestamp() else ""))
    if g_filter_status == FILTER_VALID:
        printf("onednn_verbose,v1,common,info,filter format is enabled, hit components: %s\n",
               g_filter_hits)
    elif g_filter_status == FILTER_INVALID:
        printf("onednn_verbose,v1,common,error,filter format is ill-formed and is not "
               "applied, error: %s\n", g_filter_error)


cdef void verbose_emit(const char *line, double stamp_ms) noexcept nogil:
    print_header()
    if verbose_timestamp():
        printf("onednn_verbose,v1,%f,%s\n", stamp_ms, line)
    else:
        printf("onednn_verbose,v1,%s\n", line)
    fflush(stdout)


cdef dnnl_status_t fail_error(dnnl_status_t status, const char *component,
                              const char *msg) noexcept nogil:
    cdef char line[ERR_LEN + 128]
    if cydnnl_quiet > 0:
        return status
    if msg != <const char *>cydnnl_error_buf:
        strncpy(cydnnl_error_buf, msg, ERR_LEN - 1)
        cydnnl_error_buf[ERR_LEN - 1] = 0
    if get_verbose(VERBOSE_ERROR):
        snprintf(line, sizeof(line), "common,error,%s,%s", component, cydnnl_error_buf)
        verbose_emit(line, cydnnl_wall_ms())
    return status


cdef char *err_buf() noexcept nogil:
    return cydnnl_error_buf


cdef void quiet(bint on) noexcept nogil:
    global cydnnl_quiet
    cydnnl_quiet += 1 if on else -1


cdef void set_dispatching(bint on) noexcept nogil:
    global cydnnl_dispatching
    cydnnl_dispatching = 1 if on else 0


cdef void set_executing(bint on) noexcept nogil:
    global cydnnl_executing
    cydnnl_executing += 1 if on else -1     # a count: executes may nest


cdef bint is_common_component(const char *c) noexcept nogil:
    """The objects oneDNN checks under its `common` API (memory descriptors,
    memories, engines, streams, attributes): our messages start with them."""
    return (strcmp(c, "memory") == 0 or strcmp(c, "submemory") == 0
            or strcmp(c, "reshape") == 0 or strcmp(c, "permute_axes") == 0
            or strcmp(c, "engine") == 0 or strcmp(c, "stream") == 0
            or strcmp(c, "attr") == 0 or strcmp(c, "verbose") == 0)


cdef void print_check(const char *msg) noexcept nogil:
    """A failed check as oneDNN prints it: <api>,create:check,<component>,<msg>
    (exec:check while executing). Our messages begin with the component
    ("eltwise: ...", "memory desc: ..."): its first word names it."""
    cdef char comp[32]
    cdef char line[ERR_LEN + 128]
    cdef int n = 0
    cdef bint executing = cydnnl_executing != 0
    if not get_verbose(VERBOSE_EXEC_CHECK if executing else VERBOSE_CREATE_CHECK):
        return
    while n < <int>sizeof(comp) - 1 and (c'a' <= msg[n] <= c'z' or msg[n] == c'_'):
        comp[n] = msg[n]
        n += 1
    comp[n] = 0
    if n == 0 or executing or (msg[n] != c':' and msg[n] != c' '):
        strncpy(comp, "primitive", sizeof(comp))
    snprintf(line, sizeof(line), "%s,%s:check,%s,%s",
             <const char *>("common" if is_common_component(comp) else "primitive"),
             <const char *>("exec" if executing else "create"), comp, msg)
    verbose_emit(line, cydnnl_wall_ms())


cdef dnnl_status_t fail(dnnl_status_t status, const char *msg) noexcept nogil:
    if cydnnl_quiet > 0:
        return status
    if msg != <const char *>cydnnl_error_buf:
        strncpy(cydnnl_error_buf, msg, ERR_LEN - 1)
        cydnnl_error_buf[ERR_LEN - 1] = 0
    if not cydnnl_dispatching:
        print_check(cydnnl_error_buf)
    return status


cdef const char *cydnnl_last_error() noexcept nogil:
    return cydnnl_error_buf


cdef void cydnnl_clear_error() noexcept nogil:
    cydnnl_error_buf[0] = 0


cdef dnnl_status_t dnnl_set_verbose(int level) noexcept nogil:
    """oneDNN's levels: 0 (none), 1 (errors, warnings, exec) or 2 (and create);
    replaces whatever ONEDNN_VERBOSE set, its filter aside."""
    global g_verbose
    if level < 0 or level > 2:
        return fail(dnnl_invalid_arguments, "verbose: level must be 0, 1 or 2")
    cydnnl_verbose_once(verbose_init)
    if level == 0:
        g_verbose = 0
    else:
        g_verbose = (VERBOSE_LEVEL1 if level == 1 else VERBOSE_LEVEL2) | (<unsigned>level << 24)
    return dnnl_success


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


cdef const char *dnnl_runtime2str(unsigned v) noexcept nogil:
    if v == 0: return "none"
    if v == 1: return "sequential"
    if v == 2: return "OpenMP"
    if v == 4: return "TBB"
    if v == 8: return "threadpool"
    if v == 256: return "OpenCL"
    if v == 512: return "SYCL"
    if v == 1024: return "Level Zero"
    return "unknown"


# cpu_isa registers the header's ISA description when it loads: load it with
# this module, whatever part of the library a program uses first.
import dnnl_c.core.cpu_isa  # noqa: E402,F401


cdef dnnl_status_t dnnl_verbose_profiling_enabled(int *enabled) noexcept nogil:
    """1 when verbose prints creation or execution times."""
    if enabled == NULL:
        return fail(dnnl_invalid_arguments, "verbose: NULL output")
    enabled[0] = 1 if get_verbose(VERBOSE_CREATE_PROFILE | VERBOSE_EXEC_PROFILE) else 0
    return dnnl_success
