# The core of dnnl_c: oneDNN's objects as C structs, and the C-level API for
# engines, streams, memory descriptors, memories, attributes, primitive
# descriptors and primitives. Primitive families (reorder.pyx, ...) cimport
# the internal helpers declared at the bottom; users cimport dnnl_c.dnnl.

from libc.stdint cimport int64_t, uint8_t, uint16_t
from dnnl_c.dnnl_types cimport *

ctypedef int64_t dnnl_dim_t
ctypedef dnnl_dim_t dnnl_dims_t[12]

cdef struct dnnl_primitive_desc

# ---------------------------------------------------------------- objects

# Every handle starts with this header. `owner` is set for objects that live
# inside another one (a pd's memory descriptors, a primitive's pd): those are
# borrowed, never destroyed on their own, and valid while the owner is.
cdef struct obj_header:
    int kind
    int refcount
    int destroyed
    obj_header *owner

cdef enum obj_kind:
    OBJ_ENGINE = 1
    OBJ_STREAM
    OBJ_MEMORY_DESC
    OBJ_MEMORY
    OBJ_PRIMITIVE_DESC
    OBJ_PRIMITIVE
    OBJ_PRIMITIVE_ATTR

# oneDNN's memory descriptor (src/common/memory_desc.hpp), blocked formats only.
cdef struct md_t:
    int ndims
    dnnl_dims_t dims
    dnnl_data_type_t data_type
    dnnl_dims_t padded_dims
    dnnl_dims_t padded_offsets
    dnnl_dim_t offset0
    dnnl_format_kind_t format_kind
    dnnl_dims_t strides
    int inner_nblks
    dnnl_dims_t inner_blks
    dnnl_dims_t inner_idxs

cdef struct dnnl_memory_desc:
    obj_header hdr
    md_t md

cdef struct dnnl_engine:
    obj_header hdr
    dnnl_engine_kind_t kind
    size_t index

cdef struct dnnl_stream:
    obj_header hdr
    dnnl_engine *engine
    unsigned flags

cdef struct dnnl_memory:
    obj_header hdr
    dnnl_engine *engine
    dnnl_memory_desc md
    char *handle
    char *own_data          # allocated by the library, freed with the memory
    size_t own_size
    size_t capacity         # bytes addressable at handle; 0 = not known

cdef struct dnnl_primitive_attr:
    obj_header hdr
    dnnl_scratchpad_mode_t scratchpad_mode
    dnnl_fpmath_mode_t fpmath_mode
    int fpmath_apply_to_int

cdef enum:
    MAX_PD_ARGS = 24
    ARG_INPUT = 1
    ARG_OUTPUT = 2

cdef struct pd_arg_t:
    int arg                 # DNNL_ARG_*
    int usage               # ARG_INPUT or ARG_OUTPUT
    dnnl_memory_desc md     # as resolved by the implementation

# The operation description: what the user asked for, before an
# implementation resolved it (oneDNN's op_desc_t, one struct for all kinds).
cdef struct op_desc_t:
    dnnl_primitive_kind_t primitive_kind
    dnnl_prop_kind_t prop_kind
    dnnl_alg_kind_t alg_kind
    dnnl_dims_t strides
    dnnl_dims_t dilates
    dnnl_dims_t padding_l
    dnnl_dims_t padding_r
    dnnl_dims_t kernel
    float alpha
    float beta
    float k
    dnnl_dim_t local_size
    unsigned flags
    dnnl_rnn_direction_t direction
    dnnl_alg_kind_t activation_kind
    int nargs
    int args[MAX_PD_ARGS]
    int usage[MAX_PD_ARGS]
    md_t mds[MAX_PD_ARGS]

cdef struct exec_arg_t:
    int arg
    char *data              # the memory's base handle; apply md.offset0
    const md_t *md          # the primitive descriptor's descriptor

cdef struct exec_ctx_t:
    int nargs
    exec_arg_t args[MAX_PD_ARGS]
    char *scratchpad
    dnnl_stream *stream

ctypedef dnnl_status_t (*pd_init_fn)(dnnl_primitive_desc *pd) noexcept nogil
ctypedef dnnl_status_t (*execute_fn)(const dnnl_primitive_desc *pd,
                                     const exec_ctx_t *ctx) noexcept nogil

cdef struct impl_t:
    const char *name
    pd_init_fn init
    execute_fn execute

cdef enum:
    MAX_IMPLS = 8

# An ordered list of implementations of one primitive kind: the first whose
# init accepts the operation description wins (oneDNN's cpu_*_list.cpp).
cdef struct impl_list_t:
    int n
    impl_t impls[MAX_IMPLS]

cdef struct dnnl_primitive_desc:
    obj_header hdr
    dnnl_engine *engine
    dnnl_engine *src_engine         # reorder only
    dnnl_engine *dst_engine         # reorder only
    op_desc_t desc
    const impl_list_t *impls
    int impl_index
    int nargs
    pd_arg_t args[MAX_PD_ARGS]
    dnnl_memory_desc zero_md        # what md queries answer for absent args
    dnnl_primitive_attr attr
    dnnl_primitive_desc *hint       # a private clone of the forward hint
    size_t scratchpad_size
    int64_t params[16]              # the implementation's own choices
    char info[64]

cdef struct dnnl_primitive:
    obj_header hdr
    dnnl_primitive_desc *pd         # a private clone; owner = this primitive

cdef struct dnnl_exec_arg_t:
    int arg
    dnnl_memory *memory

cdef struct dnnl_version_t:
    int major
    int minor
    int patch
    const char *hash
    unsigned cpu_runtime
    unsigned gpu_runtime

ctypedef dnnl_engine *dnnl_engine_t
ctypedef dnnl_stream *dnnl_stream_t
ctypedef const dnnl_stream *const_dnnl_stream_t
ctypedef dnnl_memory_desc *dnnl_memory_desc_t
ctypedef const dnnl_memory_desc *const_dnnl_memory_desc_t
ctypedef dnnl_memory *dnnl_memory_t
ctypedef const dnnl_memory *const_dnnl_memory_t
ctypedef dnnl_primitive_attr *dnnl_primitive_attr_t
ctypedef const dnnl_primitive_attr *const_dnnl_primitive_attr_t
ctypedef dnnl_primitive_desc *dnnl_primitive_desc_t
ctypedef const dnnl_primitive_desc *const_dnnl_primitive_desc_t
ctypedef dnnl_primitive *dnnl_primitive_t
ctypedef const dnnl_primitive *const_dnnl_primitive_t

# ---------------------------------------------------------------- C API

cdef size_t dnnl_engine_get_count(dnnl_engine_kind_t kind) noexcept nogil
cdef dnnl_status_t dnnl_engine_create(dnnl_engine_t *engine, dnnl_engine_kind_t kind,
                                      size_t index) noexcept nogil
cdef dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine,
                                        dnnl_engine_kind_t *kind) noexcept nogil
cdef dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) noexcept nogil

cdef dnnl_status_t dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
                                      unsigned flags) noexcept nogil
cdef dnnl_status_t dnnl_stream_get_engine(const_dnnl_stream_t stream,
                                          dnnl_engine_t *engine) noexcept nogil
cdef dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) noexcept nogil
cdef dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) noexcept nogil

cdef dnnl_status_t dnnl_memory_desc_create_with_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, dnnl_format_tag_t tag) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_create_with_strides(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dim_t *dims,
        dnnl_data_type_t data_type, const dnnl_dim_t *strides) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_create_submemory(
        dnnl_memory_desc_t *memory_desc, const_dnnl_memory_desc_t parent_memory_desc,
        const dnnl_dim_t *dims, const dnnl_dim_t *offsets) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_reshape(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        int ndims, const dnnl_dim_t *dims) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_permute_axes(
        dnnl_memory_desc_t *out_memory_desc, const_dnnl_memory_desc_t in_memory_desc,
        const int *permutation) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_clone(
        dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t existing_memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_query(const_dnnl_memory_desc_t memory_desc,
                                          dnnl_query_t what, void *result) noexcept nogil
cdef dnnl_status_t dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
                                             dnnl_query_t what, int index,
                                             void *result) noexcept nogil
cdef int dnnl_memory_desc_equal(const_dnnl_memory_desc_t lhs,
                                const_dnnl_memory_desc_t rhs) noexcept nogil
cdef size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc) noexcept nogil
cdef size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc,
                                         int index) noexcept nogil
cdef size_t dnnl_data_type_size(dnnl_data_type_t data_type) noexcept nogil

cdef dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
                                      const_dnnl_memory_desc_t memory_desc,
                                      dnnl_engine_t engine, void *handle) noexcept nogil
cdef dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
                                         const_dnnl_memory_desc_t memory_desc,
                                         dnnl_engine_t engine, int nhandles,
                                         void **handles) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_memory_desc(
        const_dnnl_memory_t memory, const_dnnl_memory_desc_t *memory_desc) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_engine(const_dnnl_memory_t memory,
                                          dnnl_engine_t *engine) noexcept nogil
cdef dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory,
                                        void **mapped_ptr) noexcept nogil
cdef dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory,
                                          void *mapped_ptr) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory,
                                               void **handle) noexcept nogil
cdef dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory,
                                               void *handle) noexcept nogil
cdef dnnl_status_t dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory,
                                                  void **handle, int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle,
                                                  int index) noexcept nogil
cdef dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) noexcept nogil

cdef dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode) noexcept nogil
cdef dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode) noexcept nogil

cdef dnnl_status_t dnnl_primitive_desc_next_impl(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_clone(
        dnnl_primitive_desc_t *primitive_desc,
        const_dnnl_primitive_desc_t existing_primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_get_attr(
        const_dnnl_primitive_desc_t primitive_desc,
        const_dnnl_primitive_attr_t *attr) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_destroy(
        dnnl_primitive_desc_t primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_desc_query(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index,
        void *result) noexcept nogil
cdef const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what,
        int index) noexcept nogil
cdef int dnnl_primitive_desc_query_s32(const_dnnl_primitive_desc_t primitive_desc,
                                       dnnl_query_t what, int index) noexcept nogil

cdef dnnl_status_t dnnl_primitive_create(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_execute(
        const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs,
        const dnnl_exec_arg_t *args) noexcept nogil
cdef dnnl_status_t dnnl_primitive_get_primitive_desc(
        const_dnnl_primitive_t primitive,
        const_dnnl_primitive_desc_t *primitive_desc) noexcept nogil
cdef dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive) noexcept nogil

cdef dnnl_status_t dnnl_set_verbose(int level) noexcept nogil
cdef const dnnl_version_t *dnnl_version() noexcept nogil

cdef const char *dnnl_status2str(dnnl_status_t v) noexcept nogil
cdef const char *dnnl_dt2str(dnnl_data_type_t v) noexcept nogil
cdef const char *dnnl_fmt_kind2str(dnnl_format_kind_t v) noexcept nogil
cdef const char *dnnl_fmt_tag2str(dnnl_format_tag_t v) noexcept nogil
cdef const char *dnnl_prop_kind2str(dnnl_prop_kind_t v) noexcept nogil
cdef const char *dnnl_prim_kind2str(dnnl_primitive_kind_t v) noexcept nogil
cdef const char *dnnl_alg_kind2str(dnnl_alg_kind_t v) noexcept nogil
cdef const char *dnnl_engine_kind2str(dnnl_engine_kind_t v) noexcept nogil
cdef const char *dnnl_rnn_direction2str(dnnl_rnn_direction_t v) noexcept nogil
cdef const char *dnnl_rnn_flags2str(dnnl_rnn_flags_t v) noexcept nogil
cdef const char *dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_t v) noexcept nogil
cdef const char *dnnl_fpmath_mode2str(dnnl_fpmath_mode_t v) noexcept nogil
cdef const char *dnnl_query2str(dnnl_query_t v) noexcept nogil

# ------------------------------------------- extensions beyond oneDNN's API

# The reason behind the last non-success status of this thread ("" if none).
cdef const char *cydnnl_last_error() noexcept nogil
cdef void cydnnl_clear_error() noexcept nogil
# Declares how many bytes a user handle holds, so execute can check bounds.
cdef dnnl_status_t cydnnl_memory_set_capacity(dnnl_memory_t memory,
                                              size_t capacity) noexcept nogil
# Bytes from the handle to one past the last element an md addresses.
cdef size_t cydnnl_memory_desc_extent(const_dnnl_memory_desc_t memory_desc) noexcept nogil

# ------------------------------------------- for the primitive families

cdef void obj_retain(obj_header *obj) noexcept nogil
cdef void obj_release(obj_header *obj) noexcept nogil
cdef bint obj_alive(const obj_header *obj, int kind) noexcept nogil
cdef dnnl_status_t fail(dnnl_status_t status, const char *msg) noexcept nogil
# While quiet (a per-thread count), fail() neither records nor prints: for
# trying implementations internally, where a rejection is not an error.
cdef void quiet(bint on) noexcept nogil
cdef int verbose_level() noexcept nogil

cdef void md_zero(md_t *md) noexcept nogil
cdef dnnl_status_t md_init_by_tag(md_t *md, int ndims, const dnnl_dim_t *dims,
                                  dnnl_data_type_t data_type,
                                  dnnl_format_tag_t tag) noexcept nogil
cdef dnnl_status_t md_set_tag(md_t *md, dnnl_format_tag_t tag) noexcept nogil
cdef bint md_is_zero(const md_t *md) noexcept nogil
cdef bint md_is_any(const md_t *md) noexcept nogil
cdef bint md_equal(const md_t *lhs, const md_t *rhs) noexcept nogil
cdef bint md_matches_tag(const md_t *md, dnnl_format_tag_t tag) noexcept nogil
cdef bint md_is_plain(const md_t *md) noexcept nogil
cdef size_t md_size(const md_t *md) noexcept nogil
cdef size_t md_extent(const md_t *md) noexcept nogil
cdef dnnl_dim_t md_nelems(const md_t *md, bint padded) noexcept nogil
cdef void md_blocks(const md_t *md, dnnl_dim_t *blocks) noexcept nogil
cdef void md_dim_offsets(const md_t *md, int d, dnnl_dim_t n,
                         dnnl_dim_t *table) noexcept nogil
cdef dnnl_dim_t md_offset(const md_t *md, const dnnl_dim_t *pos) noexcept nogil
cdef size_t dt_size(dnnl_data_type_t dt) noexcept nogil
cdef void md_describe(const md_t *md, char *buf, size_t n) noexcept nogil

# A plain dense layout (abc...) of md's dims in data type dt.
cdef void md_plain(md_t *out, const md_t *md, dnnl_data_type_t dt) noexcept nogil
# out (dims and data type set) takes layout's blocking, dense, on its own
# dims (oneDNN's memory_desc_init_by_blocking_desc).
cdef dnnl_status_t md_init_by_blocking(md_t *out, const md_t *layout) noexcept nogil
# out takes in's layout (blocking, strides, padding) and keeps its data type.
cdef dnnl_status_t md_copy_layout(md_t *out, const md_t *layout) noexcept nogil
# False when ONEDNN_MAX_CPU_ISA names an ISA without bf16 instructions: then
# bf16 compute primitives answer dnnl_unimplemented, as oneDNN does there.
cdef bint bf16_allowed() noexcept nogil

cdef bint engine_ok(dnnl_engine *engine) noexcept nogil
cdef dnnl_status_t pd_create(dnnl_primitive_desc_t *out, dnnl_engine *engine,
                             const op_desc_t *desc, const impl_list_t *impls,
                             const_dnnl_primitive_attr_t attr,
                             const_dnnl_primitive_desc_t hint) noexcept nogil
cdef void op_init(op_desc_t *desc, dnnl_primitive_kind_t kind, dnnl_prop_kind_t prop_kind,
                  dnnl_alg_kind_t alg_kind) noexcept nogil
cdef void op_add_arg(op_desc_t *desc, int arg, int usage, const md_t *md) noexcept nogil
cdef pd_arg_t *pd_arg(const dnnl_primitive_desc *pd, int arg) noexcept nogil
cdef md_t *pd_md(const dnnl_primitive_desc *pd, int arg) noexcept nogil
cdef pd_arg_t *pd_add_arg(dnnl_primitive_desc *pd, int arg, int usage) noexcept nogil
cdef bint pd_is_alive(const dnnl_primitive_desc *pd) noexcept nogil
# A backward pd's hint: NULL passes unless required; otherwise it must be a
# live forward pd of the same primitive kind.
cdef dnnl_status_t check_hint(const dnnl_primitive_desc *hint, dnnl_primitive_kind_t kind,
                              bint required) noexcept nogil
# Checks that an md argument is a live descriptor (NULL allowed if optional).
cdef dnnl_status_t check_md_arg(const dnnl_memory_desc *md, const char *name,
                                bint optional) noexcept nogil
cdef const exec_arg_t *ctx_arg(const exec_ctx_t *ctx, int arg) noexcept nogil
cdef char *ctx_data(const exec_ctx_t *ctx, int arg) noexcept nogil
