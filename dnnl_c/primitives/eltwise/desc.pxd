# The eltwise op descriptor (oneDNN's eltwise_desc_t) and the configuration
# of its `dense:<level>` implementations.

from dnnl_c.core.types cimport *

cdef struct eltwise_desc_t:
    op_desc_t hdr
    dnnl_alg_kind_t alg_kind
    md_t src_desc               # the data: src, or dst for the *_use_dst_for_bwd algorithms
    md_t dst_desc
    md_t diff_src_desc
    md_t diff_dst_desc
    float alpha
    float beta

cdef inline const eltwise_desc_t *eltwise_desc(const dnnl_primitive_desc *pd) noexcept nogil:
    return <const eltwise_desc_t *>pd.desc

# dense:<level>: the ISA level of the vector loops.
cdef struct eltwise_dense_conf_t:
    dnnl_cpu_isa_t isa
