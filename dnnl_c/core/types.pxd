# The core's types: oneDNN's objects as C structs (oneDNN's c_types_map and
# the *_t structs behind its handles). Kind-agnostic: a primitive family
# brings its own typed op descriptor and implementation configurations.

from libc.stdint cimport int64_t
from dnnl_c.dnnl_types cimport *

ctypedef int64_t dnnl_dim_t
ctypedef dnnl_dim_t dnnl_dims_t[12]

cdef struct dnnl_primitive_desc
cdef struct obj_header

# ---------------------------------------------------------------- objects

ctypedef void (*obj_free_fn)(obj_header *obj) noexcept nogil

# Every handle starts with this header. `owner` is set for objects that live
# inside another one (a pd's memory descriptors, a primitive's pd): those are
# borrowed, never destroyed on their own, and valid while the owner is.
# `free` releases what the object holds when its last reference goes (NULL:
# nothing but the object itself).
cdef struct obj_header:
    int kind
    int refcount
    int destroyed
    obj_header *owner
    obj_free_fn free

cdef enum obj_kind:
    OBJ_ENGINE = 1
    OBJ_STREAM
    OBJ_MEMORY_DESC
    OBJ_MEMORY
    OBJ_PRIMITIVE_DESC
    OBJ_PRIMITIVE
    OBJ_PRIMITIVE_ATTR
    OBJ_PRIMITIVE_IMPL
    OBJ_POST_OPS

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

# One post-op (oneDNN's post_ops_t::entry_t); kind is dnnl_sum, dnnl_eltwise,
# dnnl_convolution (depthwise), dnnl_binary or dnnl_prelu, and says which
# fields mean something.
cdef struct post_op_t:
    dnnl_primitive_kind_t kind
    float scale                 # sum
    int zero_point
    dnnl_data_type_t dt
    dnnl_alg_kind_t alg         # eltwise, binary
    float alpha
    float beta
    dnnl_data_type_t wei_dt     # depthwise convolution
    dnnl_data_type_t bias_dt
    dnnl_data_type_t dst_dt
    dnnl_dim_t kernel
    dnnl_dim_t stride
    dnnl_dim_t padding
    int mask                    # prelu
    dnnl_memory_desc src1       # binary; handles owned by the post-ops
    dnnl_memory_desc src2

cdef enum:
    POST_OPS_LIMIT = 32         # oneDNN's post_ops_t::post_ops_limit

# Entries are allocated one by one, so that handles to their mds stay put
# while more are appended.
cdef struct dnnl_post_ops:
    obj_header hdr
    int len
    post_op_t *entries[POST_OPS_LIMIT]

# Quantization parameters for one argument (scales, zero points,
# precomputed reductions).
cdef struct quant_t:
    int arg
    int mask
    int group_ndims
    dnnl_dims_t group_dims
    dnnl_data_type_t data_type
    int is_on_host
    int qmode

cdef enum:
    ATTR_MAX_QUANT = 16         # arguments with scales (zero points, ...) per attr
    ATTR_MAX_ROUNDING = 4

# The attributes none of our implementations honours yet, kept apart so
# that a primitive descriptor (which only accepts defaults for them) never
# copies them: see attr.pxd.
cdef struct attr_extra_t:
    int nscales
    quant_t scales[ATTR_MAX_QUANT]
    int nzero_points
    quant_t zero_points[ATTR_MAX_QUANT]
    int nreductions
    quant_t reductions[ATTR_MAX_QUANT]
    int nrounding
    int rounding_arg[ATTR_MAX_ROUNDING]
    int rounding_mode[ATTR_MAX_ROUNDING]
    dnnl_dim_t rnn_wei_count    # 0: not set
    int rnn_wei_mask
    float *rnn_wei_scales
    dnnl_dim_t rnn_proj_count
    int rnn_proj_mask
    float *rnn_proj_scales
    void *retired               # post-op entries replaced by set_post_ops

cdef struct dnnl_primitive_attr:
    obj_header hdr
    dnnl_scratchpad_mode_t scratchpad_mode
    dnnl_fpmath_mode_t fpmath_mode
    int fpmath_apply_to_int
    dnnl_accumulation_mode_t acc_mode
    int deterministic
    dnnl_post_ops post_ops          # owner = this attr
    dnnl_memory_desc dropout_md     # the zero md: no dropout; owner = this attr
    dnnl_data_type_t dropout_seed_dt
    int dropout_use_offset
    int dropout_use_host_scalars
    float rnn_data_scale
    float rnn_data_shift
    attr_extra_t *extra             # NULL until one of its attributes is set

# ---------------------------------------------------------------- operations

cdef enum:
    ARG_INPUT = 1
    ARG_OUTPUT = 2
    MAX_DESC_REFS = 2

# The header every typed op descriptor starts with (a family's
# convolution_desc_t, eltwise_desc_t, ... has it as its first member `hdr`).
# `refs` are objects the description points to (a reorder's engines): the
# core keeps them alive as long as the description.
cdef struct op_desc_t:
    dnnl_primitive_kind_t primitive_kind
    dnnl_prop_kind_t prop_kind
    obj_header *refs[MAX_DESC_REFS]

# An argument the user described when creating a primitive descriptor.
cdef struct arg_spec_t:
    int arg                 # DNNL_ARG_*
    int usage               # ARG_INPUT or ARG_OUTPUT
    const md_t *md          # NULL or the zero md: absent

# The same, as the primitive descriptor keeps it.
cdef struct desc_arg_t:
    int arg
    int usage
    md_t md

# An argument a primitive descriptor declares, as its implementation resolved it.
cdef struct pd_arg_t:
    int arg
    int usage
    dnnl_memory_desc md

cdef struct exec_arg_t:
    int arg
    char *data              # the memory's base handle; apply md.offset0
    const md_t *md          # the primitive descriptor's descriptor

cdef struct exec_ctx_t:
    int nargs
    exec_arg_t *args
    char *scratchpad
    dnnl_stream *stream

ctypedef dnnl_status_t (*pd_init_fn)(dnnl_primitive_desc *pd) noexcept nogil
ctypedef dnnl_status_t (*execute_fn)(const dnnl_primitive_desc *pd,
                                     const exec_ctx_t *ctx) noexcept nogil

# isa: the instruction-set level the implementation's kernels are compiled
# for (dnnl_cpu_isa_default: any); the dispatch skips it when the CPU or the
# ISA limit does not allow that level.
cdef struct impl_t:
    const char *name
    pd_init_fn init
    execute_fn execute
    dnnl_cpu_isa_t isa

# An ordered list of implementations of one primitive kind: the first whose
# init accepts the operation description wins (oneDNN's cpu_*_list.cpp).
# Grows as entries are added.
cdef struct impl_list_t:
    int n
    int cap
    impl_t *impls

# Kind-specific answers to dnnl_primitive_desc_query; dnnl_unimplemented
# when the query does not apply.
ctypedef dnnl_status_t (*kind_query_fn)(const dnnl_primitive_desc *pd, dnnl_query_t what,
                                        int index, void *result) noexcept nogil
# The DNNL_ARG_* an indexed md query stands for (-1: none), where the kind
# differs from the common rule (weights_md index 1 is the bias).
ctypedef int (*kind_md_arg_fn)(const dnnl_primitive_desc *pd, dnnl_query_t what,
                               int index) noexcept nogil
# The name of an argument in the kind's own words (NULL: the common name).
ctypedef const char *(*kind_arg_name_fn)(int arg) noexcept nogil

cdef extern from "core/cydnnl_verbose.h" nogil:
    ctypedef struct cydnnl_vstr:
        char *buf
        size_t cap
        size_t len

# What a family writes into its verbose lines (oneDNN's init_info_<kind>),
# each part appended with the core's vs_* helpers (pd_info.pxd): the memory
# descriptors ("src:f32::blocked:abcd::f0 wei:..."), the auxiliary field
# ("alg:eltwise_relu alpha:0 beta:0") and the problem, in benchdnn's words
# ("mb8_ic3oc96_ih227oh55kh11sh4dh0ph0_iw227ow55kw11sw4dw0pw0").
cdef struct verbose_parts_t:
    cydnnl_vstr mds
    cydnnl_vstr aux
    cydnnl_vstr prb
ctypedef void (*kind_verbose_fn)(const dnnl_primitive_desc *pd,
                                 verbose_parts_t *parts) noexcept nogil

# What a primitive family registers with the core (registry.pxd).
cdef struct primitive_kind_t:
    dnnl_primitive_kind_t kind
    kind_query_fn query
    kind_md_arg_fn md_arg           # optional
    kind_arg_name_fn arg_name       # optional
    kind_verbose_fn verbose         # optional: without it, every md and the dims
    impl_list_t impls

cdef struct dnnl_primitive_desc:
    obj_header hdr
    dnnl_engine *engine
    const primitive_kind_t *kind    # the family that made it
    op_desc_t *desc                 # the family's typed op descriptor
    size_t desc_size
    int ndesc_args                  # what the user described
    desc_arg_t *desc_args
    int impl_index
    int nargs                       # what the implementation declares
    int args_cap
    pd_arg_t *args
    void *retired                   # arg arrays replaced by next_impl, freed with the pd
    dnnl_memory_desc zero_md        # what md queries answer for absent args
    dnnl_primitive_attr attr
    dnnl_primitive_desc *hint       # a private clone of the forward hint
    size_t scratchpad_size
    void *conf                      # the implementation's typed configuration
    size_t conf_size
    char info[64]

# What a primitive runs: a private copy of the primitive descriptor it was
# created from (pd.hdr.owner = this header), shared by every primitive made
# from an equal primitive descriptor through the primitive cache (oneDNN's
# primitive_t behind its primitive_iface_t; primitive_cache.pxd).
cdef struct primitive_impl_t:
    obj_header hdr
    dnnl_primitive_desc *pd

# The primitive descriptor a primitive answers with (oneDNN's
# primitive_desc_iface_t): a shallow copy of impl.pd's struct that shares
# its arrays and lives in the primitive, so it dies with the primitive even
# while the cache keeps the implementation.
cdef struct dnnl_primitive:
    obj_header hdr
    primitive_impl_t *impl          # one reference
    dnnl_primitive_desc *pd         # &pd_iface
    dnnl_primitive_desc pd_iface

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
ctypedef dnnl_post_ops *dnnl_post_ops_t
ctypedef const dnnl_post_ops *const_dnnl_post_ops_t
