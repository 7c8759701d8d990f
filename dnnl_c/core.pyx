# The core: oneDNN's semantics for handles, memory descriptors and the
# primitive-descriptor machinery (src/common in oneDNN). No kernels here.

from libc.stdlib cimport malloc, calloc, free, getenv
from libc.string cimport memset, memcpy, strcmp, strncpy, strstr, strlen
from libc.stdio cimport snprintf, printf, fflush, stdout
from libc.stdint cimport int64_t, uintptr_t

from dnnl_c.dnnl_types cimport *

cdef extern from "_tables.h" nogil:
    ctypedef struct cydnnl_tag_info_t:
        int ndims
        int order[12]
        int nblks
        int blks[12]
        int idxs[12]
        const char *name
    const cydnnl_tag_info_t cydnnl_tag_table[]
    int CYDNNL_N_TAGS
    const char *cydnnl_status2str(int)
    const char *cydnnl_dt2str(int)
    const char *cydnnl_fmt_kind2str(int)
    const char *cydnnl_fmt_tag2str(int)
    const char *cydnnl_prop_kind2str(int)
    const char *cydnnl_prim_kind2str(int)
    const char *cydnnl_alg_kind2str(int)
    const char *cydnnl_engine_kind2str(int)
    const char *cydnnl_rnn_direction2str(int)
    const char *cydnnl_rnn_flags2str(int)
    const char *cydnnl_scratchpad_mode2str(int)
    const char *cydnnl_fpmath_mode2str(int)
    const char *cydnnl_query2str(int)

cdef extern from *:
    """
    #include <time.h>
    #ifdef _OPENMP
    #define CYDNNL_RUNTIME 2u  /* DNNL_RUNTIME_OMP */
    #else
    #define CYDNNL_RUNTIME 1u  /* DNNL_RUNTIME_SEQ */
    #endif
    static __thread char cydnnl_error_buf[1024];
    static __thread int cydnnl_quiet;
    static __thread int cydnnl_dispatching;
    static inline int cydnnl_atomic_add(int *p, int v) {
        return __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL);
    }
    static inline double cydnnl_now_ms(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
    }
    """
    char cydnnl_error_buf[1024]
    int cydnnl_quiet
    int cydnnl_dispatching
    unsigned CYDNNL_RUNTIME
    int cydnnl_atomic_add(int *p, int v) nogil
    double cydnnl_now_ms() nogil

DEF ALIGN = 64
cdef char *MEMORY_ALLOCATE = <char *>(<uintptr_t>-1)

# ------------------------------------------------------------ verbose, errors

cdef enum:
    VERBOSE_CHECK = 1
    VERBOSE_CREATE = 2
    VERBOSE_EXEC = 4

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


cdef void quiet(bint on) noexcept nogil:
    global cydnnl_quiet
    cydnnl_quiet += 1 if on else -1


cdef dnnl_status_t fail(dnnl_status_t status, const char *msg) noexcept nogil:
    """Records why a call fails and returns its status."""
    if cydnnl_quiet > 0:
        return status
    if msg != <const char *>cydnnl_error_buf:
        strncpy(cydnnl_error_buf, msg, 1023)
        cydnnl_error_buf[1023] = 0
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

# ------------------------------------------------------------ object lifetime

cdef void free_object(obj_header *obj) noexcept nogil:
    cdef dnnl_memory *mem
    cdef dnnl_stream *stream
    cdef dnnl_primitive *prim
    if obj.kind == OBJ_MEMORY:
        mem = <dnnl_memory *>obj
        free(mem.own_data)
        obj_release(&mem.engine.hdr)
    elif obj.kind == OBJ_STREAM:
        stream = <dnnl_stream *>obj
        obj_release(&stream.engine.hdr)
    elif obj.kind == OBJ_PRIMITIVE_DESC:
        pd_free(<dnnl_primitive_desc *>obj)
        return
    elif obj.kind == OBJ_PRIMITIVE:
        prim = <dnnl_primitive *>obj
        pd_free(prim.pd)
    free(obj)


cdef void obj_retain(obj_header *obj) noexcept nogil:
    if obj != NULL:
        cydnnl_atomic_add(&obj.refcount, 1)


cdef void obj_release(obj_header *obj) noexcept nogil:
    if obj != NULL and cydnnl_atomic_add(&obj.refcount, -1) == 0:
        free_object(obj)


cdef bint obj_alive(const obj_header *obj, int kind) noexcept nogil:
    """A handle of this kind that nobody destroyed, nor anything it lives in."""
    if obj == NULL or obj.kind != kind:
        return False
    while obj != NULL:
        if obj.destroyed:
            return False
        obj = obj.owner
    return True


cdef inline void header_init(obj_header *hdr, int kind, obj_header *owner) noexcept nogil:
    hdr.kind = kind
    hdr.refcount = 1
    hdr.destroyed = 0
    hdr.owner = owner


cdef dnnl_status_t destroy(obj_header *obj, int kind, const char *what) noexcept nogil:
    """oneDNN's dnnl_*_destroy: NULL is fine; a borrowed handle is not ours."""
    if obj == NULL:
        return dnnl_success
    if obj.kind != kind or obj.destroyed:
        snprintf(cydnnl_error_buf, 1024, "%s is not a live %s handle", what, what)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    if obj.owner != NULL:
        snprintf(cydnnl_error_buf, 1024,
                 "%s belongs to another object and cannot be destroyed", what)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    obj.destroyed = 1
    obj_release(obj)
    return dnnl_success

# ------------------------------------------------------------ engine, stream

cdef size_t dnnl_engine_get_count(dnnl_engine_kind_t kind) noexcept nogil:
    return 1 if kind == dnnl_cpu else 0


cdef dnnl_status_t dnnl_engine_create(dnnl_engine_t *engine, dnnl_engine_kind_t kind,
                                      size_t index) noexcept nogil:
    if engine == NULL:
        return fail(dnnl_invalid_arguments, "engine: NULL output pointer")
    if kind != dnnl_cpu:
        snprintf(cydnnl_error_buf, 1024, "no %s engine in this build",
                 cydnnl_engine_kind2str(kind))
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    if index >= dnnl_engine_get_count(kind):
        snprintf(cydnnl_error_buf, 1024, "cpu engine index %zu out of range (1 engine)",
                 index)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    cdef dnnl_engine *e = <dnnl_engine *>calloc(1, sizeof(dnnl_engine))
    if e == NULL:
        return fail(dnnl_out_of_memory, "engine: out of memory")
    header_init(&e.hdr, OBJ_ENGINE, NULL)
    e.kind = kind
    e.index = index
    engine[0] = e
    return dnnl_success


cdef bint engine_ok(dnnl_engine *engine) noexcept nogil:
    return obj_alive(&engine.hdr if engine != NULL else NULL, OBJ_ENGINE)


cdef dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine,
                                        dnnl_engine_kind_t *kind) noexcept nogil:
    if not engine_ok(engine) or kind == NULL:
        return fail(dnnl_invalid_arguments, "engine: not a live engine or NULL output")
    kind[0] = engine.kind
    return dnnl_success


cdef dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) noexcept nogil:
    return destroy(&engine.hdr if engine != NULL else NULL, OBJ_ENGINE, "engine")


cdef dnnl_status_t dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
                                      unsigned flags) noexcept nogil:
    if stream == NULL or not engine_ok(engine):
        return fail(dnnl_invalid_arguments, "stream: NULL output or engine not live")
    if flags & ~<unsigned>(dnnl_stream_in_order | dnnl_stream_out_of_order) or flags == 0:
        return fail(dnnl_invalid_arguments, "stream: unknown flags")
    cdef dnnl_stream *s = <dnnl_stream *>calloc(1, sizeof(dnnl_stream))
    if s == NULL:
        return fail(dnnl_out_of_memory, "stream: out of memory")
    header_init(&s.hdr, OBJ_STREAM, NULL)
    s.engine = engine
    obj_retain(&engine.hdr)
    s.flags = flags
    stream[0] = s
    return dnnl_success


cdef inline bint stream_ok(const dnnl_stream *stream) noexcept nogil:
    return obj_alive(&stream.hdr if stream != NULL else NULL, OBJ_STREAM)


cdef dnnl_status_t dnnl_stream_get_engine(const_dnnl_stream_t stream,
                                          dnnl_engine_t *engine) noexcept nogil:
    if not stream_ok(stream) or engine == NULL:
        return fail(dnnl_invalid_arguments, "stream: not a live stream or NULL output")
    engine[0] = stream.engine
    return dnnl_success


cdef dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) noexcept nogil:
    # Execution is synchronous: when execute returns, the work is done.
    if not stream_ok(stream):
        return fail(dnnl_invalid_arguments, "stream: not a live stream")
    return dnnl_success


cdef dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) noexcept nogil:
    return destroy(&stream.hdr if stream != NULL else NULL, OBJ_STREAM, "stream")

# ------------------------------------------------------------ memory descriptors

cdef size_t dt_size(dnnl_data_type_t dt) noexcept nogil:
    if dt == dnnl_f32 or dt == dnnl_s32:
        return 4
    if dt == dnnl_bf16 or dt == dnnl_f16:
        return 2
    if dt == dnnl_f64 or dt == dnnl_s64:
        return 8
    if (dt == dnnl_s8 or dt == dnnl_u8 or dt == dnnl_boolean or dt == dnnl_f8_e5m2
            or dt == dnnl_f8_e4m3 or dt == dnnl_s4 or dt == dnnl_u4 or dt == dnnl_e8m0
            or dt == dnnl_f4_e2m1 or dt == dnnl_f4_e3m0):
        return 1
    return 0


cdef size_t dnnl_data_type_size(dnnl_data_type_t data_type) noexcept nogil:
    return dt_size(data_type)


cdef inline bint sub_byte(dnnl_data_type_t dt) noexcept nogil:
    return dt == dnnl_s4 or dt == dnnl_u4 or dt == dnnl_f4_e2m1 or dt == dnnl_f4_e3m0


cdef void md_zero(md_t *md) noexcept nogil:
    memset(md, 0, sizeof(md_t))


cdef bint md_is_zero(const md_t *md) noexcept nogil:
    return md.ndims == 0


cdef bint md_is_any(const md_t *md) noexcept nogil:
    return md.format_kind == dnnl_format_kind_any


cdef dnnl_status_t sanity_status(int ndims, const dnnl_dim_t *dims,
                                 dnnl_data_type_t dt) noexcept nogil:
    """oneDNN's memory_desc_sanity_check; runtime dims are not supported."""
    cdef int d
    if dims == NULL or ndims <= 0 or ndims > DNNL_MAX_NDIMS:
        snprintf(cydnnl_error_buf, 1024, "memory desc: ndims %d is not in [1, 12]", ndims)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    if not (dt == dnnl_f32 or dt == dnnl_bf16 or dt == dnnl_f16 or dt == dnnl_s32
            or dt == dnnl_s8 or dt == dnnl_u8 or dt == dnnl_f64 or dt == dnnl_f8_e5m2
            or dt == dnnl_f8_e4m3 or dt == dnnl_s4 or dt == dnnl_u4):
        snprintf(cydnnl_error_buf, 1024, "memory desc: data type %s is not allowed",
                 cydnnl_dt2str(dt))
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    for d in range(ndims):
        if dims[d] == DNNL_RUNTIME_DIM_VAL:
            snprintf(cydnnl_error_buf, 1024, "memory desc: dim %d is a runtime dim, "
                     "which this library does not support", d)
            return fail(dnnl_unimplemented, cydnnl_error_buf)
        if dims[d] < 0:
            snprintf(cydnnl_error_buf, 1024, "memory desc: dim %d is negative (%lld)",
                     d, <long long>dims[d])
            return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    return dnnl_success


cdef void md_blocks(const md_t *md, dnnl_dim_t *blocks) noexcept nogil:
    """The product of the inner blocks of each dim (1 when not blocked)."""
    cdef int d
    for d in range(DNNL_MAX_NDIMS):
        blocks[d] = 1
    for d in range(md.inner_nblks):
        blocks[md.inner_idxs[d]] *= md.inner_blks[d]


cdef dnnl_status_t md_set_tag(md_t *md, dnnl_format_tag_t tag) noexcept nogil:
    """Blocking of a format tag over md's dims (oneDNN's fill_blocked)."""
    if tag <= dnnl_format_tag_any or tag >= CYDNNL_N_TAGS:
        snprintf(cydnnl_error_buf, 1024, "memory desc: unknown format tag %d", <int>tag)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    cdef const cydnnl_tag_info_t *info = &cydnnl_tag_table[<int>tag]
    if info.ndims != md.ndims:
        snprintf(cydnnl_error_buf, 1024,
                 "memory desc: tag %s is for %d dims, the descriptor has %d",
                 info.name, info.ndims, md.ndims)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    cdef dnnl_dims_t blocks
    cdef int d, i
    cdef dnnl_dim_t block_size = 1, stride
    for d in range(DNNL_MAX_NDIMS):
        blocks[d] = 1
    md.inner_nblks = info.nblks
    for i in range(info.nblks):
        md.inner_blks[i] = info.blks[i]
        md.inner_idxs[i] = info.idxs[i]
        blocks[info.idxs[i]] *= info.blks[i]
        block_size *= info.blks[i]
    for d in range(md.ndims):
        md.padded_dims[d] = (md.dims[d] + blocks[d] - 1) // blocks[d] * blocks[d]
        md.padded_offsets[d] = 0
    stride = block_size
    for i in range(md.ndims - 1, -1, -1):
        d = info.order[i]
        md.strides[d] = stride
        if md.padded_dims[d] != 0:
            stride *= md.padded_dims[d] // blocks[d]
    md.format_kind = dnnl_blocked
    return dnnl_success


cdef dnnl_status_t md_init_by_tag(md_t *md, int ndims, const dnnl_dim_t *dims,
                                  dnnl_data_type_t data_type,
                                  dnnl_format_tag_t tag) noexcept nogil:
    md_zero(md)
    if ndims == 0 or tag == dnnl_format_tag_undef:
        return dnnl_success
    cdef dnnl_status_t st = sanity_status(ndims, dims, data_type)
    if st != dnnl_success:
        return st
    cdef md_t tmp
    md_zero(&tmp)
    tmp.ndims = ndims
    tmp.data_type = data_type
    memcpy(tmp.dims, dims, ndims * sizeof(dnnl_dim_t))
    memcpy(tmp.padded_dims, dims, ndims * sizeof(dnnl_dim_t))
    if tag == dnnl_format_tag_any:
        tmp.format_kind = dnnl_format_kind_any
    else:
        st = md_set_tag(&tmp, tag)
        if st != dnnl_success:
            return st
    md[0] = tmp
    return dnnl_success


cdef bint strides_ok(const md_t *md, const dnnl_dim_t *strides) noexcept nogil:
    """oneDNN's memory_desc_strides_check: no two elements share an address
    (strides of 0 and of size-1 dims are exempt)."""
    cdef int perm[12]
    cdef int d, i, j, t
    for d in range(md.ndims):
        if md.padded_dims[d] == 0:
            return True
        perm[d] = d
    # insertion sort by (stride, padded dim, index)
    for i in range(1, md.ndims):
        j = i
        while j > 0 and (strides[perm[j]] < strides[perm[j - 1]] or (
                strides[perm[j]] == strides[perm[j - 1]]
                and md.padded_dims[perm[j]] < md.padded_dims[perm[j - 1]])):
            t = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = t
            j -= 1
    cdef dnnl_dim_t min_stride = 1
    for i in range(md.ndims):
        d = perm[i]
        if strides[d] == 0 or md.padded_dims[d] == 1:
            continue
        if strides[d] < min_stride:
            return False
        min_stride = strides[d] * md.padded_dims[d]
    return True


cdef dnnl_status_t md_init_by_strides(md_t *md, int ndims, const dnnl_dim_t *dims,
                                      dnnl_data_type_t data_type,
                                      const dnnl_dim_t *strides) noexcept nogil:
    md_zero(md)
    if ndims == 0:
        return dnnl_success
    cdef dnnl_status_t st = sanity_status(ndims, dims, data_type)
    if st != dnnl_success:
        return st
    cdef md_t tmp
    cdef int d
    md_zero(&tmp)
    tmp.ndims = ndims
    tmp.data_type = data_type
    memcpy(tmp.dims, dims, ndims * sizeof(dnnl_dim_t))
    memcpy(tmp.padded_dims, dims, ndims * sizeof(dnnl_dim_t))
    tmp.format_kind = dnnl_blocked
    if strides == NULL:
        tmp.strides[ndims - 1] = 1
        for d in range(ndims - 2, -1, -1):
            tmp.strides[d] = tmp.strides[d + 1] * tmp.padded_dims[d + 1]
    else:
        for d in range(ndims):
            if strides[d] < 0:
                return fail(dnnl_invalid_arguments, "memory desc: negative stride")
        if not strides_ok(&tmp, strides):
            return fail(dnnl_invalid_arguments,
                        "memory desc: strides make elements overlap")
        memcpy(tmp.strides, strides, ndims * sizeof(dnnl_dim_t))
    md[0] = tmp
    return dnnl_success


cdef bint md_equal(const md_t *lhs, const md_t *rhs) noexcept nogil:
    """oneDNN's operator== on memory descriptors (type_helpers.hpp)."""
    cdef int d
    if lhs.ndims == 0 and rhs.ndims == 0:
        return True
    if (lhs.ndims != rhs.ndims or lhs.data_type != rhs.data_type
            or lhs.offset0 != rhs.offset0 or lhs.format_kind != rhs.format_kind):
        return False
    for d in range(lhs.ndims):
        if (lhs.dims[d] != rhs.dims[d] or lhs.padded_dims[d] != rhs.padded_dims[d]
                or lhs.padded_offsets[d] != rhs.padded_offsets[d]):
            return False
    if lhs.format_kind != dnnl_blocked:
        return True
    if lhs.inner_nblks != rhs.inner_nblks:
        return False
    for d in range(lhs.inner_nblks):
        if lhs.inner_blks[d] != rhs.inner_blks[d] or lhs.inner_idxs[d] != rhs.inner_idxs[d]:
            return False
    for d in range(lhs.ndims):
        if lhs.dims[d] == 1 and lhs.padded_dims[d] == 1:
            continue
        if lhs.strides[d] != rhs.strides[d]:
            return False
    return True


cdef bint md_matches_tag(const md_t *md, dnnl_format_tag_t tag) noexcept nogil:
    if md.format_kind != dnnl_blocked or tag <= dnnl_format_tag_any or tag >= CYDNNL_N_TAGS:
        return False
    if cydnnl_tag_table[<int>tag].ndims != md.ndims:
        return False
    cdef md_t gold = md[0]
    if md_set_tag(&gold, tag) != dnnl_success:
        return False
    gold.offset0 = md.offset0
    return md_equal(md, &gold)


cdef dnnl_status_t md_init_by_blocking(md_t *out, const md_t *layout) noexcept nogil:
    """out (dims and data type set) takes layout's blocking on its own dims:
    the same inner blocks and order of outer strides, dense (oneDNN's
    memory_desc_init_by_blocking_desc)."""
    cdef int perm[12]
    cdef dnnl_dim_t blocks[12]
    cdef int i, j, t, d
    cdef dnnl_dim_t block_size = 1, stride
    if layout.format_kind != dnnl_blocked or layout.ndims != out.ndims:
        return fail(dnnl_unimplemented, "no blocked layout to follow")
    for d in range(out.ndims):
        perm[d] = d
        blocks[d] = 1
    # outermost first: strides descending, ties kept in dim order
    for i in range(1, out.ndims):
        j = i
        while j > 0 and layout.strides[perm[j]] > layout.strides[perm[j - 1]]:
            t = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = t
            j -= 1
    out.format_kind = dnnl_blocked
    out.offset0 = 0
    out.inner_nblks = layout.inner_nblks
    for i in range(layout.inner_nblks):
        out.inner_blks[i] = layout.inner_blks[i]
        out.inner_idxs[i] = layout.inner_idxs[i]
        blocks[layout.inner_idxs[i]] *= layout.inner_blks[i]
        block_size *= layout.inner_blks[i]
    for d in range(out.ndims):
        out.padded_dims[d] = (out.dims[d] + blocks[d] - 1) // blocks[d] * blocks[d]
        out.padded_offsets[d] = 0
    stride = block_size
    for i in range(out.ndims - 1, -1, -1):
        d = perm[i]
        out.strides[d] = stride
        if out.padded_dims[d] != 0:
            stride *= out.padded_dims[d] // blocks[d]
    return dnnl_success


cdef bint md_is_plain(const md_t *md) noexcept nogil:
    return md.format_kind == dnnl_blocked and md.inner_nblks == 0


cdef dnnl_dim_t md_nelems(const md_t *md, bint padded) noexcept nogil:
    if md.ndims == 0:
        return 0
    cdef dnnl_dim_t n = 1
    cdef int d
    for d in range(md.ndims):
        n *= md.padded_dims[d] if padded else md.dims[d]
    return n


cdef inline size_t elems_to_bytes(const md_t *md, size_t n) noexcept nogil:
    if sub_byte(md.data_type):
        return (n + 1) // 2
    return n * dt_size(md.data_type)


cdef size_t md_size(const md_t *md) noexcept nogil:
    """oneDNN's memory_desc_wrapper::size(): offset0 is not included. (A
    sub-memory narrower than a block still counts the whole block.)"""
    if md.ndims == 0 or md.format_kind != dnnl_blocked or md_nelems(md, False) == 0:
        return 0
    cdef dnnl_dims_t blocks
    md_blocks(md, blocks)
    cdef size_t max_size = 0, s
    cdef dnnl_dim_t strided
    cdef int d
    for d in range(md.ndims):
        strided = (md.padded_dims[d] + blocks[d] - 1) // blocks[d]
        s = strided * (1 if strided == 1 else md.strides[d])
        if s > max_size:
            max_size = s
    if max_size == 1 and md.inner_nblks != 0:
        for d in range(md.inner_nblks):
            max_size *= md.inner_blks[d]
    return elems_to_bytes(md, max_size)


cdef size_t md_extent(const md_t *md) noexcept nogil:
    """Bytes from the handle to one past the last (padded) element md reaches,
    offset0 included: what a buffer must hold for md to be safe."""
    if md.ndims == 0 or md.format_kind != dnnl_blocked or md_nelems(md, True) == 0:
        return 0
    cdef dnnl_dims_t blocks
    md_blocks(md, blocks)
    cdef dnnl_dim_t last = md.offset0, inner = 1
    cdef int d
    for d in range(md.ndims):
        last += ((md.padded_dims[d] + blocks[d] - 1) // blocks[d] - 1) * md.strides[d]
    for d in range(md.inner_nblks):
        inner *= md.inner_blks[d]
    return elems_to_bytes(md, last + inner)


cdef void md_dim_offsets(const md_t *md, int d, dnnl_dim_t n,
                         dnnl_dim_t *table) noexcept nogil:
    """table[p] = element offset of position p along dim d (offset0 excluded);
    a layout's offset is the sum of these over the dims."""
    cdef dnnl_dim_t blocks[12]
    cdef dnnl_dim_t inner_stride[12]
    cdef dnnl_dim_t blk = 1, q, off, s = 1
    cdef int j
    cdef dnnl_dim_t p
    for j in range(md.inner_nblks - 1, -1, -1):
        inner_stride[j] = s
        s *= md.inner_blks[j]
    for j in range(md.inner_nblks):
        if md.inner_idxs[j] == d:
            blk *= md.inner_blks[j]
    for p in range(n):
        off = (p // blk) * md.strides[d]
        q = p % blk
        for j in range(md.inner_nblks - 1, -1, -1):
            if md.inner_idxs[j] == d:
                off += (q % md.inner_blks[j]) * inner_stride[j]
                q = q // md.inner_blks[j]
        table[p] = off


cdef dnnl_dim_t md_offset(const md_t *md, const dnnl_dim_t *pos) noexcept nogil:
    """Element offset of a logical position, offset0 included."""
    cdef dnnl_dim_t off = md.offset0, t
    cdef int d
    for d in range(md.ndims):
        md_dim_offsets_one(md, d, pos[d], &t)
        off += t
    return off


cdef inline void md_dim_offsets_one(const md_t *md, int d, dnnl_dim_t p,
                                    dnnl_dim_t *out) noexcept nogil:
    cdef dnnl_dim_t s = 1, blk = 1, q, off
    cdef dnnl_dim_t inner_stride[12]
    cdef int j
    for j in range(md.inner_nblks - 1, -1, -1):
        inner_stride[j] = s
        s *= md.inner_blks[j]
        if md.inner_idxs[j] == d:
            blk *= md.inner_blks[j]
    off = (p // blk) * md.strides[d]
    q = p % blk
    for j in range(md.inner_nblks - 1, -1, -1):
        if md.inner_idxs[j] == d:
            off += (q % md.inner_blks[j]) * inner_stride[j]
            q = q // md.inner_blks[j]
    out[0] = off


cdef void md_plain(md_t *out, const md_t *md, dnnl_data_type_t dt) noexcept nogil:
    md_init_by_tag(out, md.ndims, md.dims, dt, <dnnl_format_tag_t>(dnnl_a + md.ndims - 1))


cdef dnnl_status_t md_copy_layout(md_t *out, const md_t *layout) noexcept nogil:
    cdef int d
    if out.ndims != layout.ndims or layout.format_kind != dnnl_blocked:
        return fail(dnnl_invalid_arguments, "cannot copy a layout across different dims")
    for d in range(out.ndims):
        if out.dims[d] != layout.dims[d]:
            return fail(dnnl_invalid_arguments, "cannot copy a layout across different dims")
    cdef dnnl_data_type_t dt = out.data_type
    out[0] = layout[0]
    out.data_type = dt
    out.offset0 = 0
    return dnnl_success


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


cdef void md_describe(const md_t *md, char *buf, size_t n) noexcept nogil:
    """Short description for messages and verbose lines: 'f32:aBcd8b' or
    'f32:strides(...)'; '' for zero mds."""
    cdef int t, d
    cdef size_t used
    if md.ndims == 0:
        buf[0] = 0
        return
    if md.format_kind == dnnl_format_kind_any:
        snprintf(buf, n, "%s:any", cydnnl_dt2str(md.data_type))
        return
    for t in range(2, CYDNNL_N_TAGS):
        if cydnnl_tag_table[t].ndims == md.ndims and md_matches_tag(md, <dnnl_format_tag_t>t):
            if md.offset0:
                snprintf(buf, n, "%s:%s:off%lld", cydnnl_dt2str(md.data_type),
                         cydnnl_tag_table[t].name, <long long>md.offset0)
            else:
                snprintf(buf, n, "%s:%s", cydnnl_dt2str(md.data_type),
                         cydnnl_tag_table[t].name)
            return
    used = snprintf(buf, n, "%s:strides", cydnnl_dt2str(md.data_type))
    for d in range(md.ndims):
        if used < n:
            used += snprintf(buf + used, n - used, "%s%lld", "(" if d == 0 else ",",
                             <long long>md.strides[d])
    if used < n:
        snprintf(buf + used, n - used, ")")


cdef void dims_describe(const md_t *md, char *buf, size_t n) noexcept nogil:
    cdef size_t used = 0
    cdef int d
    buf[0] = 0
    for d in range(md.ndims):
        if used < n:
            used += snprintf(buf + used, n - used, "%s%lld", "" if d == 0 else "x",
                             <long long>md.dims[d])

# -- the C API on memory descriptors

cdef inline bint md_ok(const dnnl_memory_desc *md) noexcept nogil:
    return obj_alive(&md.hdr if md != NULL else NULL, OBJ_MEMORY_DESC)


cdef dnnl_status_t new_md(dnnl_memory_desc_t *out, const md_t *md) noexcept nogil:
    cdef dnnl_memory_desc *h = <dnnl_memory_desc *>malloc(sizeof(dnnl_memory_desc))
    if h == NULL:
        return fail(dnnl_out_of_memory, "memory desc: out of memory")
    header_init(&h.hdr, OBJ_MEMORY_DESC, NULL)
    h.md = md[0]
    out[0] = h
    return dnnl_success


cdef dnnl_status_t dnnl_memory_desc_create_with_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, dnnl_format_tag_t tag) noexcept nogil:
    if memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory desc: NULL output pointer")
    cdef md_t md
    cdef dnnl_status_t st = md_init_by_tag(&md, ndims, dims, data_type, tag)
    if st != dnnl_success:
        return st
    return new_md(memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_create_with_strides(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, const dnnl_dim_t *strides) noexcept nogil:
    if memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory desc: NULL output pointer")
    cdef md_t md
    cdef dnnl_status_t st = md_init_by_strides(&md, ndims, dims, data_type, strides)
    if st != dnnl_success:
        return st
    return new_md(memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_create_submemory(
        dnnl_memory_desc_t *memory_desc, const_dnnl_memory_desc_t parent_memory_desc,
        const dnnl_dim_t *dims, const dnnl_dim_t *offsets) noexcept nogil:
    if memory_desc == NULL or not md_ok(parent_memory_desc) or dims == NULL or offsets == NULL:
        return fail(dnnl_invalid_arguments, "submemory: NULL or dead argument")
    cdef const md_t *parent = &parent_memory_desc.md
    cdef dnnl_status_t st = sanity_status(parent.ndims, parent.dims, parent.data_type)
    if st != dnnl_success:
        return st
    cdef int d
    for d in range(parent.ndims):
        if dims[d] < 0 or offsets[d] < 0 or offsets[d] + dims[d] > parent.dims[d]:
            snprintf(cydnnl_error_buf, 1024, "submemory: dim %d: offset %lld + size %lld "
                     "is outside the parent's %lld", d, <long long>offsets[d],
                     <long long>dims[d], <long long>parent.dims[d])
            return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    if parent.format_kind != dnnl_blocked:
        return fail(dnnl_unimplemented, "submemory: the parent must have a blocked format")
    cdef dnnl_dims_t blocks
    md_blocks(parent, blocks)
    cdef md_t md = parent[0]
    cdef bint right_border
    for d in range(parent.ndims):
        right_border = offsets[d] + dims[d] == parent.dims[d]
        if not (offsets[d] % blocks[d] == 0 and parent.padded_offsets[d] == 0 and (
                right_border or dims[d] % blocks[d] == 0 or dims[d] < blocks[d])):
            snprintf(cydnnl_error_buf, 1024, "submemory: dim %d cuts through a block "
                     "of %lld", d, <long long>blocks[d])
            return fail(dnnl_unimplemented, cydnnl_error_buf)
        md.dims[d] = dims[d]
        md.padded_dims[d] = parent.padded_dims[d] - offsets[d] if right_border else dims[d]
        md.padded_offsets[d] = parent.padded_offsets[d]
        md.offset0 += offsets[d] // blocks[d] * parent.strides[d]
    return new_md(memory_desc, &md)


cdef dnnl_status_t md_reshape(md_t *out, const md_t *inp, int ndims,
                              const dnnl_dim_t *dims) noexcept nogil:
    """oneDNN's memory_desc_reshape: groups of dims of equal volume, matched
    from the innermost; a merged group must be dense and not blocked."""
    cdef dnnl_status_t st = sanity_status(inp.ndims, inp.dims, inp.data_type)
    if st != dnnl_success:
        return st
    st = sanity_status(ndims, dims, inp.data_type)
    if st != dnnl_success:
        return st
    if inp.format_kind != dnnl_blocked and inp.format_kind != dnnl_format_kind_any:
        return fail(dnnl_invalid_arguments, "reshape: format must be blocked or any")
    cdef dnnl_dim_t vin = 1, vout = 1
    cdef int d
    for d in range(inp.ndims):
        vin *= inp.dims[d] if inp.dims[d] > 0 else 1
    for d in range(ndims):
        vout *= dims[d] if dims[d] > 0 else 1
    if vin != vout:
        return fail(dnnl_invalid_arguments, "reshape: the number of elements differs")
    if inp.format_kind == dnnl_format_kind_any:
        return md_init_by_tag(out, ndims, dims, inp.data_type, dnnl_format_tag_any)
    cdef md_t md = inp[0]
    md.ndims = ndims
    for d in range(ndims):
        md.dims[d] = dims[d]
    cdef int ib = inp.ndims, ie = inp.ndims, ob = ndims, oe = ndims, j
    cdef dnnl_dim_t iv, ov, cur
    cdef int action   # 0 remove 1, 1 add 1, 2 keep, 3 rearrange
    while ie != 0 or oe != 0:
        # find the next pair of groups, from the innermost dims outwards
        if ie > 0 and inp.dims[ie - 1] == 1:
            ib = ie - 1
            if inp.padded_dims[ie - 1] == 1:
                ob = oe
                action = 0
            elif oe > 0 and dims[oe - 1] == 1:
                ob = oe - 1
                action = 2
            else:
                return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
        elif oe > 0 and dims[oe - 1] == 1:
            ib = ie
            ob = oe - 1
            action = 1
        else:
            if ie == 0 or oe == 0:
                return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
            ib = ie - 1
            ob = oe - 1
            iv = inp.dims[ib]
            ov = dims[ob]
            while iv != ov:
                if iv < ov:
                    if ib == 0:
                        return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
                    ib -= 1
                    iv *= inp.dims[ib]
                    if iv == 0:
                        return fail(dnnl_invalid_arguments, "reshape: zero dim inside a group")
                else:
                    if ob == 0:
                        return fail(dnnl_invalid_arguments, "reshape: incompatible dims")
                    ob -= 1
                    ov *= dims[ob]
                    if ov == 0:
                        return fail(dnnl_invalid_arguments, "reshape: zero dim inside a group")
            action = 2 if (ib + 1 == ie and ob + 1 == oe) else 3
        if action == 1:
            cur = 1
            if ib == inp.ndims:
                for j in range(inp.inner_nblks):
                    cur *= inp.inner_blks[j]
            else:
                cur = inp.strides[ib] * inp.dims[ib]
                for j in range(inp.inner_nblks):
                    if inp.inner_idxs[j] == ib:
                        cur //= inp.inner_blks[j]
            md.padded_dims[ob] = 1
            md.padded_offsets[ob] = 0
            md.strides[ob] = cur
        elif action == 2:
            md.padded_dims[ob] = inp.padded_dims[ib]
            md.padded_offsets[ob] = inp.padded_offsets[ib]
            md.strides[ob] = inp.strides[ib]
            for j in range(inp.inner_nblks):
                if inp.inner_idxs[j] == ib:
                    md.inner_idxs[j] = ob
        elif action == 3:
            for j in range(ie - 1, ib, -1):
                if inp.dims[j] * inp.strides[j] != inp.strides[j - 1]:
                    return fail(dnnl_invalid_arguments, "reshape: merged dims are not dense")
            for j in range(inp.inner_nblks):
                if inp.inner_idxs[j] == ib:
                    return fail(dnnl_invalid_arguments, "reshape: merges a blocked dim")
            if inp.padded_dims[ib] != inp.dims[ib] or inp.padded_offsets[ib] != 0:
                return fail(dnnl_invalid_arguments, "reshape: merges a padded dim")
            cur = inp.strides[ie - 1]
            for j in range(oe - 1, ob - 1, -1):
                md.padded_dims[j] = dims[j]
                md.padded_offsets[j] = 0
                md.strides[j] = cur
                cur *= md.padded_dims[j]
        ie = ib
        oe = ob
    out[0] = md
    return dnnl_success


cdef dnnl_status_t dnnl_memory_desc_reshape(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        int ndims, const dnnl_dim_t *dims) noexcept nogil:
    if out_memory_desc == NULL or not md_ok(in_memory_desc):
        return fail(dnnl_invalid_arguments, "reshape: NULL or dead argument")
    if in_memory_desc.md.ndims == 0:
        return fail(dnnl_invalid_arguments, "reshape: the descriptor is the zero one")
    cdef md_t md
    cdef dnnl_status_t st = md_reshape(&md, &in_memory_desc.md, ndims, dims)
    if st != dnnl_success:
        return st
    return new_md(out_memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_permute_axes(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        const int *permutation) noexcept nogil:
    if out_memory_desc == NULL or not md_ok(in_memory_desc) or permutation == NULL:
        return fail(dnnl_invalid_arguments, "permute_axes: NULL or dead argument")
    cdef const md_t *inp = &in_memory_desc.md
    if inp.ndims == 0:
        return fail(dnnl_invalid_arguments, "permute_axes: the descriptor is the zero one")
    if inp.format_kind != dnnl_blocked and inp.format_kind != dnnl_format_kind_any:
        return fail(dnnl_invalid_arguments, "permute_axes: format must be blocked or any")
    cdef unsigned mask = 0
    cdef int d, b
    for d in range(inp.ndims):
        if 0 <= permutation[d] < inp.ndims:
            mask |= 1u << permutation[d]
    if mask + 1 != (1u << inp.ndims):
        return fail(dnnl_invalid_arguments, "permute_axes: not a permutation of the dims")
    cdef md_t md = inp[0]
    for d in range(inp.ndims):
        md.dims[permutation[d]] = inp.dims[d]
        md.padded_dims[permutation[d]] = inp.padded_dims[d]
        md.padded_offsets[permutation[d]] = inp.padded_offsets[d]
        if inp.format_kind == dnnl_blocked:
            md.strides[permutation[d]] = inp.strides[d]
            for b in range(inp.inner_nblks):
                if inp.inner_idxs[b] == d:
                    md.inner_idxs[b] = permutation[d]
    return new_md(out_memory_desc, &md)


cdef dnnl_status_t dnnl_memory_desc_clone(
        dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t existing_memory_desc) noexcept nogil:
    if memory_desc == NULL or not md_ok(existing_memory_desc):
        return fail(dnnl_invalid_arguments, "clone: NULL or dead memory desc")
    return new_md(memory_desc, &existing_memory_desc.md)


cdef dnnl_status_t dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc) noexcept nogil:
    return destroy(&memory_desc.hdr if memory_desc != NULL else NULL, OBJ_MEMORY_DESC,
                   "memory desc")


cdef dnnl_status_t dnnl_memory_desc_query(const_dnnl_memory_desc_t memory_desc,
                                          dnnl_query_t what, void *result) noexcept nogil:
    if not md_ok(memory_desc) or result == NULL:
        return fail(dnnl_invalid_arguments, "memory desc query: NULL or dead argument")
    cdef const md_t *md = &memory_desc.md
    cdef bint blocked = md.format_kind == dnnl_blocked
    if what == dnnl_query_ndims_s32:
        (<int *>result)[0] = md.ndims
    elif what == dnnl_query_dims:
        (<const dnnl_dim_t **>result)[0] = &md.dims[0]
    elif what == dnnl_query_data_type:
        (<dnnl_data_type_t *>result)[0] = md.data_type
    elif what == dnnl_query_submemory_offset_s64:
        (<dnnl_dim_t *>result)[0] = md.offset0
    elif what == dnnl_query_padded_dims:
        (<const dnnl_dim_t **>result)[0] = &md.padded_dims[0]
    elif what == dnnl_query_padded_offsets:
        (<const dnnl_dim_t **>result)[0] = &md.padded_offsets[0]
    elif what == dnnl_query_format_kind:
        (<dnnl_format_kind_t *>result)[0] = md.format_kind
    elif what in (dnnl_query_strides, dnnl_query_inner_nblks_s32, dnnl_query_inner_blks,
                  dnnl_query_inner_idxs):
        if not blocked:
            return fail(dnnl_invalid_arguments,
                        "memory desc query: strides and blocks need a blocked format")
        if what == dnnl_query_strides:
            (<const dnnl_dim_t **>result)[0] = &md.strides[0]
        elif what == dnnl_query_inner_nblks_s32:
            (<int *>result)[0] = md.inner_nblks
        elif what == dnnl_query_inner_blks:
            (<const dnnl_dim_t **>result)[0] = &md.inner_blks[0]
        else:
            (<const dnnl_dim_t **>result)[0] = &md.inner_idxs[0]
    else:
        snprintf(cydnnl_error_buf, 1024, "memory desc query: %s is not a memory "
                 "descriptor query", cydnnl_query2str(what))
        return fail(dnnl_unimplemented, cydnnl_error_buf)
    return dnnl_success


cdef dnnl_status_t dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
                                             dnnl_query_t what, int index,
                                             void *result) noexcept nogil:
    if not md_ok(memory_desc) or result == NULL:
        return fail(dnnl_invalid_arguments, "memory desc query: NULL or dead argument")
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory desc query: index must be 0 "
                    "(sparse formats are not supported)")
    if what == dnnl_query_num_handles_s32:
        (<int *>result)[0] = 1
        return dnnl_success
    if what == dnnl_query_sparse_encoding or what == dnnl_query_nnz_s64:
        return fail(dnnl_invalid_arguments, "memory desc query: not a sparse descriptor")
    return dnnl_memory_desc_query(memory_desc, what, result)


cdef int dnnl_memory_desc_equal(const_dnnl_memory_desc_t lhs,
                                const_dnnl_memory_desc_t rhs) noexcept nogil:
    if lhs == rhs:
        return 1
    if not md_ok(lhs) or not md_ok(rhs):
        return 0
    return 1 if md_equal(&lhs.md, &rhs.md) else 0


cdef size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc) noexcept nogil:
    if not md_ok(memory_desc):
        return 0
    return md_size(&memory_desc.md)


cdef size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc,
                                         int index) noexcept nogil:
    if index != 0:
        return 0
    return dnnl_memory_desc_get_size(memory_desc)


cdef size_t cydnnl_memory_desc_extent(const_dnnl_memory_desc_t memory_desc) noexcept nogil:
    if not md_ok(memory_desc):
        return 0
    return md_extent(&memory_desc.md)

# ------------------------------------------------------------ memory

cdef inline bint mem_ok(const dnnl_memory *mem) noexcept nogil:
    return obj_alive(&mem.hdr if mem != NULL else NULL, OBJ_MEMORY)


cdef dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
                                      const_dnnl_memory_desc_t memory_desc,
                                      dnnl_engine_t engine, void *handle) noexcept nogil:
    if memory == NULL:
        return fail(dnnl_invalid_arguments, "memory: NULL output pointer")
    if not engine_ok(engine):
        return fail(dnnl_invalid_arguments, "memory: engine is not a live engine")
    if memory_desc != NULL and not md_ok(memory_desc):
        return fail(dnnl_invalid_arguments, "memory: the memory desc is not live")
    cdef md_t md
    if memory_desc == NULL:
        md_zero(&md)
    else:
        md = memory_desc.md
    if md.ndims != 0 and md.format_kind != dnnl_blocked:
        return fail(dnnl_invalid_arguments,
                    "memory: the memory desc has format any; query the primitive "
                    "descriptor for the layout it chose")
    cdef dnnl_memory *mem = <dnnl_memory *>calloc(1, sizeof(dnnl_memory))
    if mem == NULL:
        return fail(dnnl_out_of_memory, "memory: out of memory")
    header_init(&mem.hdr, OBJ_MEMORY, NULL)
    header_init(&mem.md.hdr, OBJ_MEMORY_DESC, &mem.hdr)
    mem.md.md = md
    cdef size_t n
    if <char *>handle == MEMORY_ALLOCATE:
        # Zero-filled, so padding is zero and results are repeatable.
        n = md_extent(&md)
        if n > 0:
            mem.own_data = <char *>calloc(n + ALIGN, 1)
            if mem.own_data == NULL:
                free(mem)
                return fail(dnnl_out_of_memory, "memory: cannot allocate the buffer")
            mem.handle = <char *>((<uintptr_t>mem.own_data + ALIGN - 1) & ~<uintptr_t>(ALIGN - 1))
            mem.own_size = n
            mem.capacity = n
    else:
        mem.handle = <char *>handle
    mem.engine = engine
    obj_retain(&engine.hdr)
    memory[0] = mem
    return dnnl_success


cdef dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
                                         const_dnnl_memory_desc_t memory_desc,
                                         dnnl_engine_t engine, int nhandles,
                                         void **handles) noexcept nogil:
    if nhandles != 1 or handles == NULL:
        return fail(dnnl_invalid_arguments, "memory: dense formats take exactly one handle")
    return dnnl_memory_create(memory, memory_desc, engine, handles[0])


cdef dnnl_status_t dnnl_memory_get_memory_desc(
        const_dnnl_memory_t memory, const_dnnl_memory_desc_t *memory_desc) noexcept nogil:
    if not mem_ok(memory) or memory_desc == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    memory_desc[0] = &memory.md
    return dnnl_success


cdef dnnl_status_t dnnl_memory_get_engine(const_dnnl_memory_t memory,
                                          dnnl_engine_t *engine) noexcept nogil:
    if not mem_ok(memory) or engine == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    engine[0] = memory.engine
    return dnnl_success


cdef dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory,
                                               void **handle) noexcept nogil:
    if not mem_ok(memory) or handle == NULL:
        return fail(dnnl_invalid_arguments, "memory: not a live memory or NULL output")
    handle[0] = memory.handle
    return dnnl_success


cdef dnnl_status_t dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory,
                                                  void **handle, int index) noexcept nogil:
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory: handle index must be 0")
    return dnnl_memory_get_data_handle(memory, handle)


cdef dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory,
                                               void *handle) noexcept nogil:
    if not mem_ok(memory):
        return fail(dnnl_invalid_arguments, "memory: not a live memory")
    if <char *>handle == MEMORY_ALLOCATE:
        return fail(dnnl_invalid_arguments, "memory: DNNL_MEMORY_ALLOCATE is not a handle")
    memory.handle = <char *>handle
    memory.capacity = memory.own_size if (
        handle != NULL and memory.own_data != NULL and <char *>handle >= memory.own_data
        and <char *>handle < memory.own_data + ALIGN) else 0
    return dnnl_success


cdef dnnl_status_t dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle,
                                                  int index) noexcept nogil:
    if index != 0:
        return fail(dnnl_invalid_arguments, "memory: handle index must be 0")
    return dnnl_memory_set_data_handle(memory, handle)


cdef dnnl_status_t cydnnl_memory_set_capacity(dnnl_memory_t memory,
                                              size_t capacity) noexcept nogil:
    if not mem_ok(memory):
        return fail(dnnl_invalid_arguments, "memory: not a live memory")
    memory.capacity = capacity
    return dnnl_success


cdef dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory,
                                        void **mapped_ptr) noexcept nogil:
    return dnnl_memory_get_data_handle(memory, mapped_ptr)


cdef dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory,
                                          void *mapped_ptr) noexcept nogil:
    if not mem_ok(memory):
        return fail(dnnl_invalid_arguments, "memory: not a live memory")
    return dnnl_success


cdef dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) noexcept nogil:
    return destroy(&memory.hdr if memory != NULL else NULL, OBJ_MEMORY, "memory")

# ------------------------------------------------------------ attributes

cdef inline bint attr_ok(const dnnl_primitive_attr *attr) noexcept nogil:
    return obj_alive(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR)


cdef void attr_default(dnnl_primitive_attr *attr, obj_header *owner) noexcept nogil:
    header_init(&attr.hdr, OBJ_PRIMITIVE_ATTR, owner)
    attr.scratchpad_mode = dnnl_scratchpad_mode_library
    attr.fpmath_mode = dnnl_fpmath_mode_strict
    attr.fpmath_apply_to_int = 0


cdef dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) noexcept nogil:
    if attr == NULL:
        return fail(dnnl_invalid_arguments, "attr: NULL output pointer")
    cdef dnnl_primitive_attr *a = <dnnl_primitive_attr *>malloc(sizeof(dnnl_primitive_attr))
    if a == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    attr_default(a, NULL)
    attr[0] = a
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) noexcept nogil:
    if attr == NULL or not attr_ok(existing_attr):
        return fail(dnnl_invalid_arguments, "attr: NULL output or dead attr")
    cdef dnnl_primitive_attr *a = <dnnl_primitive_attr *>malloc(sizeof(dnnl_primitive_attr))
    if a == NULL:
        return fail(dnnl_out_of_memory, "attr: out of memory")
    a[0] = existing_attr[0]
    header_init(&a.hdr, OBJ_PRIMITIVE_ATTR, NULL)
    attr[0] = a
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) noexcept nogil:
    return destroy(&attr.hdr if attr != NULL else NULL, OBJ_PRIMITIVE_ATTR, "attr")


cdef dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) noexcept nogil:
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = attr.scratchpad_mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) noexcept nogil:
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    if mode != dnnl_scratchpad_mode_library and mode != dnnl_scratchpad_mode_user:
        return fail(dnnl_invalid_arguments, "attr: unknown scratchpad mode")
    attr.scratchpad_mode = mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode) noexcept nogil:
    if not attr_ok(attr) or mode == NULL:
        return fail(dnnl_invalid_arguments, "attr: dead attr or NULL output")
    mode[0] = attr.fpmath_mode
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode) noexcept nogil:
    if not attr_ok(attr) or attr.hdr.owner != NULL:
        return fail(dnnl_invalid_arguments, "attr: not a live attr of the user")
    if mode < dnnl_fpmath_mode_strict or mode > dnnl_fpmath_mode_tf32:
        return fail(dnnl_invalid_arguments, "attr: unknown fpmath mode")
    attr.fpmath_mode = mode
    return dnnl_success

# ------------------------------------------------------------ primitive descriptors

cdef inline bint pd_ok(const dnnl_primitive_desc *pd) noexcept nogil:
    return obj_alive(&pd.hdr if pd != NULL else NULL, OBJ_PRIMITIVE_DESC)


cdef bint pd_is_alive(const dnnl_primitive_desc *pd) noexcept nogil:
    return pd_ok(pd)


cdef dnnl_status_t check_hint(const dnnl_primitive_desc *hint, dnnl_primitive_kind_t kind,
                              bint required) noexcept nogil:
    if hint == NULL:
        if required:
            snprintf(cydnnl_error_buf, 1024, "%s backward needs hint_fwd_pd, the forward "
                     "primitive descriptor", cydnnl_prim_kind2str(kind))
            return fail(dnnl_invalid_arguments, cydnnl_error_buf)
        return dnnl_success
    if not pd_ok(hint):
        return fail(dnnl_invalid_arguments, "hint_fwd_pd is not a live primitive descriptor")
    if hint.desc.primitive_kind != kind or not (
            hint.desc.prop_kind == dnnl_forward_training
            or hint.desc.prop_kind == dnnl_forward_inference):
        snprintf(cydnnl_error_buf, 1024, "hint_fwd_pd is a %s %s primitive descriptor, not a "
                 "%s forward one", cydnnl_prim_kind2str(hint.desc.primitive_kind),
                 cydnnl_prop_kind2str(hint.desc.prop_kind), cydnnl_prim_kind2str(kind))
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    return dnnl_success


cdef dnnl_status_t check_md_arg(const dnnl_memory_desc *md, const char *name,
                                bint optional) noexcept nogil:
    if md == NULL and optional:
        return dnnl_success
    if not md_ok(md):
        snprintf(cydnnl_error_buf, 1024, "%s is not a live memory descriptor", name)
        return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    return dnnl_success


cdef void op_init(op_desc_t *desc, dnnl_primitive_kind_t kind, dnnl_prop_kind_t prop_kind,
                  dnnl_alg_kind_t alg_kind) noexcept nogil:
    memset(desc, 0, sizeof(op_desc_t))
    desc.primitive_kind = kind
    desc.prop_kind = prop_kind
    desc.alg_kind = alg_kind


cdef void op_add_arg(op_desc_t *desc, int arg, int usage, const md_t *md) noexcept nogil:
    """Records an argument the user described (md may be the zero md)."""
    if desc.nargs < MAX_PD_ARGS:
        desc.args[desc.nargs] = arg
        desc.usage[desc.nargs] = usage
        desc.mds[desc.nargs] = md[0]
        desc.nargs += 1


cdef pd_arg_t *pd_arg(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    cdef int i
    for i in range(pd.nargs):
        if pd.args[i].arg == arg:
            return <pd_arg_t *>&pd.args[i]
    return NULL


cdef md_t *pd_md(const dnnl_primitive_desc *pd, int arg) noexcept nogil:
    """The resolved md of an argument; the zero md when there is none."""
    cdef pd_arg_t *a = pd_arg(pd, arg)
    return &a.md.md if a != NULL else <md_t *>&pd.zero_md.md


cdef pd_arg_t *pd_add_arg(dnnl_primitive_desc *pd, int arg, int usage) noexcept nogil:
    """Adds an argument the implementation needs (workspace, scratchpad)."""
    cdef pd_arg_t *a = pd_arg(pd, arg)
    if a == NULL and pd.nargs < MAX_PD_ARGS:
        a = &pd.args[pd.nargs]
        pd.nargs += 1
        a.arg = arg
        md_zero(&a.md.md)
    if a != NULL:
        a.usage = usage
    return a


cdef void pd_fix_owners(dnnl_primitive_desc *pd) noexcept nogil:
    cdef int i
    for i in range(MAX_PD_ARGS):
        header_init(&pd.args[i].md.hdr, OBJ_MEMORY_DESC, &pd.hdr)
    header_init(&pd.zero_md.hdr, OBJ_MEMORY_DESC, &pd.hdr)
    pd.attr.hdr.owner = &pd.hdr
    pd.attr.hdr.kind = OBJ_PRIMITIVE_ATTR
    pd.attr.hdr.refcount = 1
    pd.attr.hdr.destroyed = 0


cdef dnnl_status_t pd_try_impls(dnnl_primitive_desc *pd, int start) noexcept nogil:
    """Tries the implementations from `start` on; the first whose init
    accepts the description wins and has resolved every `any`."""
    global cydnnl_dispatching
    cdef int i, j
    cdef dnnl_status_t st
    cdef char reasons[768]
    cdef const char *reason
    cdef dnnl_dim_t scratch_dims[1]
    cdef size_t used = 0
    reasons[0] = 0
    for i in range(start, pd.impls.n):
        pd.nargs = pd.desc.nargs
        for j in range(pd.desc.nargs):
            pd.args[j].arg = pd.desc.args[j]
            pd.args[j].usage = pd.desc.usage[j]
            pd.args[j].md.md = pd.desc.mds[j]
        pd.scratchpad_size = 0
        memset(pd.params, 0, sizeof(pd.params))
        cydnnl_error_buf[0] = 0
        cydnnl_dispatching = 1
        st = pd.impls.impls[i].init(pd)
        cydnnl_dispatching = 0
        if st != dnnl_success and verbose_level() & VERBOSE_CHECK:
            printf("onednn_verbose,v1,primitive,create:dispatch,%s,%s,%s\n",
                   cydnnl_prim_kind2str(pd.desc.primitive_kind), pd.impls.impls[i].name,
                   cydnnl_error_buf)
            fflush(stdout)
        if st == dnnl_success:
            pd.impl_index = i
            strncpy(pd.info, pd.impls.impls[i].name, 63)
            pd.info[63] = 0
            if pd.scratchpad_size > 0 and pd.attr.scratchpad_mode == dnnl_scratchpad_mode_user:
                scratch_dims[0] = pd.scratchpad_size
                pd_add_arg(pd, DNNL_ARG_SCRATCHPAD, ARG_OUTPUT)
                md_init_by_tag(pd_md(pd, DNNL_ARG_SCRATCHPAD), 1, scratch_dims, dnnl_u8, dnnl_a)
            pd_fix_owners(pd)
            cydnnl_error_buf[0] = 0
            return dnnl_success
        reason = cydnnl_error_buf
        if reason[0] == 0:
            reason = "rejected"
        if used < sizeof(reasons):
            used += snprintf(reasons + used, sizeof(reasons) - used, "%s%s: %s",
                             <const char *>("" if used == 0 else "; "), pd.impls.impls[i].name,
                             reason)
    if start > 0 and start >= pd.impls.n:
        return dnnl_last_impl_reached
    snprintf(cydnnl_error_buf, 1024, "could not create a primitive descriptor for %s: "
             "no implementation accepted it (%s)",
             cydnnl_prim_kind2str(pd.desc.primitive_kind), reasons)
    return fail(dnnl_last_impl_reached if start > 0 else dnnl_unimplemented,
                cydnnl_error_buf)


cdef dnnl_primitive_desc *pd_clone_raw(const dnnl_primitive_desc *src) noexcept nogil:
    cdef dnnl_primitive_desc *pd = <dnnl_primitive_desc *>malloc(sizeof(dnnl_primitive_desc))
    if pd == NULL:
        return NULL
    memcpy(pd, src, sizeof(dnnl_primitive_desc))
    header_init(&pd.hdr, OBJ_PRIMITIVE_DESC, NULL)
    pd.hint = NULL
    if src.hint != NULL:
        pd.hint = pd_clone_raw(src.hint)
        if pd.hint == NULL:
            free(pd)
            return NULL
    obj_retain(&pd.engine.hdr)
    if pd.src_engine != NULL:
        obj_retain(&pd.src_engine.hdr)
    if pd.dst_engine != NULL:
        obj_retain(&pd.dst_engine.hdr)
    pd_fix_owners(pd)
    return pd


cdef void pd_free(dnnl_primitive_desc *pd) noexcept nogil:
    if pd == NULL:
        return
    if pd.hint != NULL:
        pd_free(pd.hint)
    obj_release(&pd.engine.hdr)
    if pd.src_engine != NULL:
        obj_release(&pd.src_engine.hdr)
    if pd.dst_engine != NULL:
        obj_release(&pd.dst_engine.hdr)
    free(pd)


cdef dnnl_status_t pd_create(dnnl_primitive_desc_t *out, dnnl_engine *engine,
                             const op_desc_t *desc, const impl_list_t *impls,
                             const_dnnl_primitive_attr_t attr,
                             const_dnnl_primitive_desc_t hint) noexcept nogil:
    """Creates a primitive descriptor: the first implementation of `impls`
    that accepts `desc` (oneDNN's primitive_desc_iterator)."""
    if out == NULL:
        return fail(dnnl_invalid_arguments, "NULL primitive descriptor pointer")
    if not engine_ok(engine):
        return fail(dnnl_invalid_arguments, "engine is not a live engine")
    if attr != NULL and not attr_ok(attr):
        return fail(dnnl_invalid_arguments, "attr is not a live attr")
    if hint != NULL and not pd_ok(hint):
        return fail(dnnl_invalid_arguments, "hint_fwd_pd is not a live primitive descriptor")
    cdef double t0 = cydnnl_now_ms()
    cdef dnnl_primitive_desc *pd = <dnnl_primitive_desc *>calloc(1, sizeof(dnnl_primitive_desc))
    if pd == NULL:
        return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
    header_init(&pd.hdr, OBJ_PRIMITIVE_DESC, NULL)
    pd.engine = engine
    obj_retain(&engine.hdr)
    pd.desc = desc[0]
    pd.impls = impls
    if attr != NULL:
        pd.attr = attr[0]
    else:
        attr_default(&pd.attr, NULL)
    if hint != NULL:
        pd.hint = pd_clone_raw(hint)
        if pd.hint == NULL:
            pd_free(pd)
            return fail(dnnl_out_of_memory, "primitive descriptor: out of memory")
    pd_fix_owners(pd)
    cdef dnnl_status_t st = pd_try_impls(pd, 0)
    if st != dnnl_success:
        pd_free(pd)
        return st
    if verbose_level() & VERBOSE_CREATE:
        verbose_line(pd, "create:cache_miss", cydnnl_now_ms() - t0)
    out[0] = pd
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_next_impl(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil:
    if not pd_ok(primitive_desc):
        return fail(dnnl_invalid_arguments, "next_impl: not a live primitive descriptor")
    cdef dnnl_primitive_desc *tmp = <dnnl_primitive_desc *>malloc(sizeof(dnnl_primitive_desc))
    if tmp == NULL:
        return fail(dnnl_out_of_memory, "next_impl: out of memory")
    memcpy(tmp, primitive_desc, sizeof(dnnl_primitive_desc))
    cdef dnnl_status_t st = pd_try_impls(tmp, primitive_desc.impl_index + 1)
    if st == dnnl_success:
        memcpy(primitive_desc, tmp, sizeof(dnnl_primitive_desc))
        pd_fix_owners(primitive_desc)
    free(tmp)
    if st != dnnl_success:
        return fail(dnnl_last_impl_reached, "next_impl: no more implementations")
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_clone(
        dnnl_primitive_desc_t *primitive_desc,
        const_dnnl_primitive_desc_t existing_primitive_desc) noexcept nogil:
    if primitive_desc == NULL or not pd_ok(existing_primitive_desc):
        return fail(dnnl_invalid_arguments, "clone: NULL output or dead primitive descriptor")
    cdef dnnl_primitive_desc *pd = pd_clone_raw(existing_primitive_desc)
    if pd == NULL:
        return fail(dnnl_out_of_memory, "clone: out of memory")
    primitive_desc[0] = pd
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_get_attr(
        const_dnnl_primitive_desc_t primitive_desc,
        const_dnnl_primitive_attr_t *attr) noexcept nogil:
    if not pd_ok(primitive_desc) or attr == NULL:
        return fail(dnnl_invalid_arguments, "get_attr: dead primitive descriptor or NULL output")
    attr[0] = &primitive_desc.attr
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_desc_destroy(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil:
    return destroy(&primitive_desc.hdr if primitive_desc != NULL else NULL,
                   OBJ_PRIMITIVE_DESC, "primitive descriptor")


cdef int query_arg(const dnnl_primitive_desc *pd, dnnl_query_t what, int index) noexcept nogil:
    """The DNNL_ARG_* a md query with an index stands for (oneDNN's *_pd.hpp)."""
    cdef int order[6]
    cdef int n = 0
    cdef bint rnn = pd.desc.primitive_kind == dnnl_rnn
    if what == dnnl_query_exec_arg_md:
        return index
    if index < 0:
        return -1
    if what == dnnl_query_src_md:
        return DNNL_ARG_SRC_0 + index if index < 3 else -1
    if what == dnnl_query_dst_md:
        return DNNL_ARG_DST_0 + index if index < 3 else -1
    if what == dnnl_query_diff_src_md:
        return DNNL_ARG_DIFF_SRC_0 + index if index < 3 else -1
    if what == dnnl_query_diff_dst_md:
        return DNNL_ARG_DIFF_DST_0 + index if index < 3 else -1
    if what == dnnl_query_workspace_md:
        return DNNL_ARG_WORKSPACE if index == 0 else -1
    if what == dnnl_query_scratchpad_md:
        return DNNL_ARG_SCRATCHPAD if index == 0 else -1
    cdef int base = 0
    if what == dnnl_query_weights_md:
        base = 0
    elif what == dnnl_query_diff_weights_md:
        base = DNNL_ARG_DIFF_WEIGHTS_0 - DNNL_ARG_WEIGHTS_0
    else:
        return -1
    order[n] = DNNL_ARG_WEIGHTS_0 + base
    n += 1
    if rnn:
        order[n] = DNNL_ARG_WEIGHTS_1 + base
        n += 1
        if pd_arg(pd, DNNL_ARG_WEIGHTS_2 + base) != NULL:
            order[n] = DNNL_ARG_WEIGHTS_2 + base
            n += 1
        if pd_arg(pd, DNNL_ARG_WEIGHTS_3 + base) != NULL:
            order[n] = DNNL_ARG_WEIGHTS_3 + base
            n += 1
    order[n] = DNNL_ARG_BIAS + base
    n += 1
    return order[index] if index < n else -1


cdef dnnl_status_t dnnl_primitive_desc_query(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index,
        void *result) noexcept nogil:
    if not pd_ok(primitive_desc) or result == NULL:
        return fail(dnnl_invalid_arguments, "query: dead primitive descriptor or NULL output")
    cdef const dnnl_primitive_desc *pd = primitive_desc
    cdef dnnl_primitive_kind_t kind = pd.desc.primitive_kind
    cdef int i, arg, n = 0
    cdef bint conv_like = kind == dnnl_convolution or kind == dnnl_pooling
    if what == dnnl_query_engine or what == dnnl_query_scratchpad_engine:
        (<dnnl_engine_t *>result)[0] = pd.engine
    elif what == dnnl_query_reorder_src_engine and kind == dnnl_reorder:
        (<dnnl_engine_t *>result)[0] = pd.src_engine
    elif what == dnnl_query_reorder_dst_engine and kind == dnnl_reorder:
        (<dnnl_engine_t *>result)[0] = pd.dst_engine
    elif what == dnnl_query_primitive_kind:
        (<dnnl_primitive_kind_t *>result)[0] = kind
    elif what == dnnl_query_num_of_inputs_s32 or what == dnnl_query_num_of_outputs_s32:
        for i in range(pd.nargs):
            if pd.args[i].md.md.ndims != 0 and pd.args[i].arg != DNNL_ARG_SCRATCHPAD and (
                    pd.args[i].usage == (ARG_INPUT if what == dnnl_query_num_of_inputs_s32
                                         else ARG_OUTPUT)):
                n += 1
        (<int *>result)[0] = n
    elif what == dnnl_query_time_estimate_f64:
        (<double *>result)[0] = 0.0
    elif what == dnnl_query_memory_consumption_s64:
        (<dnnl_dim_t *>result)[0] = pd.scratchpad_size if (
            pd.attr.scratchpad_mode == dnnl_scratchpad_mode_library) else 0
    elif what == dnnl_query_impl_info_str:
        (<const char **>result)[0] = pd.info
    elif what == dnnl_query_prop_kind and kind != dnnl_reorder:
        (<dnnl_prop_kind_t *>result)[0] = pd.desc.prop_kind
    elif what == dnnl_query_strides and conv_like:
        (<const dnnl_dim_t **>result)[0] = &pd.desc.strides[0]
    elif what == dnnl_query_dilations and conv_like:
        (<const dnnl_dim_t **>result)[0] = &pd.desc.dilates[0]
    elif what == dnnl_query_padding_l and conv_like:
        (<const dnnl_dim_t **>result)[0] = &pd.desc.padding_l[0]
    elif what == dnnl_query_padding_r and conv_like:
        (<const dnnl_dim_t **>result)[0] = &pd.desc.padding_r[0]
    elif what == dnnl_query_kernel and kind == dnnl_pooling:
        (<const dnnl_dim_t **>result)[0] = &pd.desc.kernel[0]
    elif what == dnnl_query_alg_kind and kind in (dnnl_convolution, dnnl_eltwise, dnnl_lrn,
                                                  dnnl_pooling):
        (<dnnl_alg_kind_t *>result)[0] = pd.desc.alg_kind
    elif what == dnnl_query_cell_kind and kind == dnnl_rnn:
        (<dnnl_alg_kind_t *>result)[0] = pd.desc.alg_kind
    elif what == dnnl_query_activation_kind and kind == dnnl_rnn:
        (<dnnl_alg_kind_t *>result)[0] = pd.desc.activation_kind
    elif what == dnnl_query_direction and kind == dnnl_rnn:
        (<dnnl_rnn_direction_t *>result)[0] = pd.desc.direction
    elif what == dnnl_query_flags and kind == dnnl_rnn:
        (<unsigned *>result)[0] = pd.desc.flags
    elif what == dnnl_query_alpha_f32 and kind in (dnnl_eltwise, dnnl_lrn):
        (<float *>result)[0] = pd.desc.alpha
    elif what == dnnl_query_beta_f32 and kind in (dnnl_eltwise, dnnl_lrn):
        (<float *>result)[0] = pd.desc.beta
    elif what == dnnl_query_k_f32 and kind == dnnl_lrn:
        (<float *>result)[0] = pd.desc.k
    elif what == dnnl_query_local_size_s64 and kind == dnnl_lrn:
        (<dnnl_dim_t *>result)[0] = pd.desc.local_size
    elif (dnnl_query_src_md <= what <= dnnl_query_scratchpad_md
          or what == dnnl_query_exec_arg_md):
        arg = query_arg(pd, what, index)
        (<const_dnnl_memory_desc_t *>result)[0] = (
            &pd_arg(pd, arg).md if arg >= 0 and pd_arg(pd, arg) != NULL else &pd.zero_md)
    else:
        snprintf(cydnnl_error_buf, 1024, "query: %s does not apply to a %s primitive "
                 "descriptor", cydnnl_query2str(what), cydnnl_prim_kind2str(kind))
        return fail(dnnl_unimplemented, cydnnl_error_buf)
    return dnnl_success


cdef const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what,
        int index) noexcept nogil:
    cdef const_dnnl_memory_desc_t md = NULL
    if not (dnnl_query_some_md <= what <= dnnl_query_exec_arg_md):
        fail(dnnl_invalid_arguments, "query_md: not a memory descriptor query")
        return NULL
    if dnnl_primitive_desc_query(primitive_desc, what, index, &md) != dnnl_success:
        return NULL
    return md


cdef int dnnl_primitive_desc_query_s32(const_dnnl_primitive_desc_t primitive_desc,
                                       dnnl_query_t what, int index) noexcept nogil:
    cdef int res = 0
    if what != dnnl_query_num_of_inputs_s32 and what != dnnl_query_num_of_outputs_s32:
        return 0
    if dnnl_primitive_desc_query(primitive_desc, what, index, &res) != dnnl_success:
        return 0
    return res

# ------------------------------------------------------------ primitives

cdef inline bint prim_ok(const dnnl_primitive *prim) noexcept nogil:
    return obj_alive(&prim.hdr if prim != NULL else NULL, OBJ_PRIMITIVE)


cdef dnnl_status_t dnnl_primitive_create(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc) noexcept nogil:
    if primitive == NULL or not pd_ok(primitive_desc):
        return fail(dnnl_invalid_arguments,
                    "primitive: NULL output or not a live primitive descriptor")
    cdef dnnl_primitive *prim = <dnnl_primitive *>calloc(1, sizeof(dnnl_primitive))
    if prim == NULL:
        return fail(dnnl_out_of_memory, "primitive: out of memory")
    header_init(&prim.hdr, OBJ_PRIMITIVE, NULL)
    prim.pd = pd_clone_raw(primitive_desc)
    if prim.pd == NULL:
        free(prim)
        return fail(dnnl_out_of_memory, "primitive: out of memory")
    prim.pd.hdr.owner = &prim.hdr
    primitive[0] = prim
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_get_primitive_desc(
        const_dnnl_primitive_t primitive,
        const_dnnl_primitive_desc_t *primitive_desc) noexcept nogil:
    if not prim_ok(primitive) or primitive_desc == NULL:
        return fail(dnnl_invalid_arguments, "primitive: not a live primitive or NULL output")
    primitive_desc[0] = primitive.pd
    return dnnl_success


cdef dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive) noexcept nogil:
    return destroy(&primitive.hdr if primitive != NULL else NULL, OBJ_PRIMITIVE, "primitive")


cdef const char *arg_name(int arg) noexcept nogil:
    if arg == DNNL_ARG_SRC: return "SRC"
    if arg == DNNL_ARG_SRC_1: return "SRC_ITER"
    if arg == DNNL_ARG_SRC_2: return "SRC_ITER_C"
    if arg == DNNL_ARG_DST: return "DST"
    if arg == DNNL_ARG_DST_1: return "DST_ITER"
    if arg == DNNL_ARG_DST_2: return "DST_ITER_C"
    if arg == DNNL_ARG_WEIGHTS: return "WEIGHTS"
    if arg == DNNL_ARG_WEIGHTS_1: return "WEIGHTS_ITER"
    if arg == DNNL_ARG_WEIGHTS_2: return "WEIGHTS_PEEPHOLE"
    if arg == DNNL_ARG_WEIGHTS_3: return "WEIGHTS_PROJECTION"
    if arg == DNNL_ARG_BIAS: return "BIAS"
    if arg == DNNL_ARG_WORKSPACE: return "WORKSPACE"
    if arg == DNNL_ARG_SCRATCHPAD: return "SCRATCHPAD"
    if arg == DNNL_ARG_DIFF_SRC: return "DIFF_SRC"
    if arg == DNNL_ARG_DIFF_SRC_1: return "DIFF_SRC_ITER"
    if arg == DNNL_ARG_DIFF_SRC_2: return "DIFF_SRC_ITER_C"
    if arg == DNNL_ARG_DIFF_DST: return "DIFF_DST"
    if arg == DNNL_ARG_DIFF_DST_1: return "DIFF_DST_ITER"
    if arg == DNNL_ARG_DIFF_DST_2: return "DIFF_DST_ITER_C"
    if arg == DNNL_ARG_DIFF_WEIGHTS: return "DIFF_WEIGHTS"
    if arg == DNNL_ARG_DIFF_WEIGHTS_1: return "DIFF_WEIGHTS_ITER"
    if arg == DNNL_ARG_DIFF_WEIGHTS_2: return "DIFF_WEIGHTS_PEEPHOLE"
    if arg == DNNL_ARG_DIFF_WEIGHTS_3: return "DIFF_WEIGHTS_PROJECTION"
    if arg == DNNL_ARG_DIFF_BIAS: return "DIFF_BIAS"
    return "?"


cdef const char *memory_fits(const dnnl_memory *mem, const md_t *md) noexcept nogil:
    """Why `mem` cannot serve as an argument described by the primitive's `md`
    (NULL if it can). Equal descriptors fit; so does a memory whose layout is
    the same and whose buffer holds md (a sub-memory of it, as oneDNN allows)."""
    cdef const md_t *mmd = &mem.md.md
    cdef size_t have, need
    cdef int d
    if mmd.ndims == 0:
        return "the memory has the zero descriptor"
    if mmd.data_type != md.data_type:
        return "the memory's data type differs"
    if not md_equal(mmd, md):
        if mmd.ndims != md.ndims or mmd.inner_nblks != md.inner_nblks:
            return "the memory's layout differs"
        for d in range(md.inner_nblks):
            if mmd.inner_blks[d] != md.inner_blks[d] or mmd.inner_idxs[d] != md.inner_idxs[d]:
                return "the memory's blocking differs"
        for d in range(md.ndims):
            if (md.padded_dims[d] > 1 or mmd.padded_dims[d] > 1) and mmd.strides[d] != md.strides[d]:
                return "the memory's strides differ"
    need = md_extent(md)
    have = mem.capacity if mem.capacity > 0 else md_extent(mmd)
    if need > have:
        return "the memory's buffer is too small"
    if mem.handle == NULL and need > 0:
        return "the memory has no data handle"
    return NULL


cdef void verbose_line(const dnnl_primitive_desc *pd, const char *what,
                       double ms) noexcept nogil:
    cdef char mds[1024]
    cdef char one[160]
    cdef char problem[160]
    cdef size_t used = 0
    cdef int i
    mds[0] = 0
    problem[0] = 0
    for i in range(pd.nargs):
        if pd.args[i].md.md.ndims == 0:
            continue
        md_describe(&pd.args[i].md.md, one, sizeof(one))
        if used < sizeof(mds):
            used += snprintf(mds + used, sizeof(mds) - used, "%s%s_%s", <const char *>("" if used == 0 else " "),
                             arg_name(pd.args[i].arg), one)
        if problem[0] == 0:
            dims_describe(&pd.args[i].md.md, problem, sizeof(problem))
    cdef const char *prop = "undef"
    if pd.desc.primitive_kind != dnnl_reorder:
        prop = cydnnl_prop_kind2str(pd.desc.prop_kind)
    printf("onednn_verbose,v1,primitive,%s,cpu,%s,%s,%s,%s,,%s,%s,%g\n", what,
           cydnnl_prim_kind2str(pd.desc.primitive_kind), pd.info, prop, mds,
           cydnnl_alg_kind2str(pd.desc.alg_kind), problem, ms)
    fflush(stdout)


cdef dnnl_status_t dnnl_primitive_execute(
        const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs,
        const dnnl_exec_arg_t *args) noexcept nogil:
    if not prim_ok(primitive):
        return fail(dnnl_invalid_arguments, "execute: not a live primitive")
    if not stream_ok(stream):
        return fail(dnnl_invalid_arguments, "execute: not a live stream")
    if nargs < 0 or (nargs > 0 and args == NULL):
        return fail(dnnl_invalid_arguments, "execute: bad argument list")
    cdef const dnnl_primitive_desc *pd = primitive.pd
    cdef exec_ctx_t ctx
    cdef int i, j
    cdef const dnnl_memory *mem
    cdef const char *why
    cdef dnnl_status_t st
    ctx.nargs = 0
    ctx.scratchpad = NULL
    ctx.stream = stream
    for i in range(nargs):
        if args[i].memory != NULL and not mem_ok(args[i].memory):
            snprintf(cydnnl_error_buf, 1024, "execute: argument %s (%d) is not a live memory",
                     arg_name(args[i].arg), args[i].arg)
            return fail(dnnl_invalid_arguments, cydnnl_error_buf)
        for j in range(i):
            if args[j].arg == args[i].arg and args[i].memory != NULL and args[j].memory != NULL:
                snprintf(cydnnl_error_buf, 1024, "execute: argument %s (%d) given twice",
                         arg_name(args[i].arg), args[i].arg)
                return fail(dnnl_invalid_arguments, cydnnl_error_buf)
    for i in range(pd.nargs):
        if pd.args[i].md.md.ndims == 0:
            continue
        if pd.args[i].arg == DNNL_ARG_SCRATCHPAD and (
                pd.attr.scratchpad_mode != dnnl_scratchpad_mode_user):
            continue
        mem = NULL
        for j in range(nargs):
            if args[j].arg == pd.args[i].arg and args[j].memory != NULL:
                mem = args[j].memory
        if mem == NULL:
            snprintf(cydnnl_error_buf, 1024, "execute: %s %s needs argument DNNL_ARG_%s (%d)",
                     cydnnl_prim_kind2str(pd.desc.primitive_kind), pd.info,
                     arg_name(pd.args[i].arg), pd.args[i].arg)
            return fail(dnnl_invalid_arguments, cydnnl_error_buf)
        why = memory_fits(mem, &pd.args[i].md.md)
        if why != NULL:
            snprintf(cydnnl_error_buf, 1024, "execute: argument DNNL_ARG_%s (%d): %s",
                     arg_name(pd.args[i].arg), pd.args[i].arg, why)
            return fail(dnnl_invalid_arguments, cydnnl_error_buf)
        ctx.args[ctx.nargs].arg = pd.args[i].arg
        ctx.args[ctx.nargs].data = mem.handle
        ctx.args[ctx.nargs].md = &pd.args[i].md.md
        if pd.args[i].arg == DNNL_ARG_SCRATCHPAD:
            ctx.scratchpad = mem.handle
        ctx.nargs += 1
    if pd.scratchpad_size > 0 and ctx.scratchpad == NULL:
        ctx.scratchpad = <char *>malloc(pd.scratchpad_size + ALIGN)
        if ctx.scratchpad == NULL:
            return fail(dnnl_out_of_memory, "execute: cannot allocate the scratchpad")
    cdef char *own_scratchpad = ctx.scratchpad if (
        pd.scratchpad_size > 0 and pd.attr.scratchpad_mode != dnnl_scratchpad_mode_user) else NULL
    if own_scratchpad != NULL:
        ctx.scratchpad = <char *>((<uintptr_t>own_scratchpad + ALIGN - 1) & ~<uintptr_t>(ALIGN - 1))
    cdef double t0 = cydnnl_now_ms()
    st = pd.impls.impls[pd.impl_index].execute(pd, &ctx)
    if verbose_level() & VERBOSE_EXEC:
        verbose_line(pd, "exec", cydnnl_now_ms() - t0)
    free(own_scratchpad)
    return st

# ------------------------------------------------------------ execution context

cdef const exec_arg_t *ctx_arg(const exec_ctx_t *ctx, int arg) noexcept nogil:
    cdef int i
    for i in range(ctx.nargs):
        if ctx.args[i].arg == arg:
            return &ctx.args[i]
    return NULL


cdef char *ctx_data(const exec_ctx_t *ctx, int arg) noexcept nogil:
    """Address of the first element of an argument: handle + offset0."""
    cdef const exec_arg_t *a = ctx_arg(ctx, arg)
    if a == NULL or a.data == NULL:
        return NULL
    return a.data + elems_to_bytes(a.md, a.md.offset0)
