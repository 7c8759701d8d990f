# The LRN op descriptor (oneDNN's lrn_desc_t) and the configuration of its
# `blocked:<level>` implementations.

from libc.stdint cimport int64_t
from dnnl_c.core.types cimport *

cdef struct lrn_desc_t:
    op_desc_t hdr
    dnnl_alg_kind_t alg_kind
    md_t src_desc
    md_t dst_desc
    md_t diff_src_desc
    md_t diff_dst_desc
    dnnl_dim_t local_size
    float lrn_alpha
    float lrn_beta
    float lrn_k

cdef inline const lrn_desc_t *lrn_desc(const dnnl_primitive_desc *pd) noexcept nogil:
    return <const lrn_desc_t *>pd.desc

# blocked:<level>: the layout as (n, channel block, spatial) strides, the
# tile the kernels work on (positions per task), whether backward runs
# the direct kernel, the threads the scratchpad was sized for, and
# the ISA level of the row kernels.
cdef struct lrn_blocked_conf_t:
    int64_t blk
    int64_t sn
    int64_t sc
    int64_t ss
    int64_t tile
    int nthr
    dnnl_cpu_isa_t isa
    bint direct             # backward by the level's direct kernel, no tiles
