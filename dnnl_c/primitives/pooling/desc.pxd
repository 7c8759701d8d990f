# The pooling op descriptor (oneDNN's pooling_desc_t) and the configuration
# of its fast implementations.

from dnnl_c.core.types cimport *

cdef struct pooling_desc_t:
    op_desc_t hdr
    dnnl_alg_kind_t alg_kind
    md_t src_desc               # diff_src in backward
    md_t dst_desc               # diff_dst in backward
    dnnl_dims_t strides
    dnnl_dims_t kernel
    dnnl_dims_t padding_l
    dnnl_dims_t padding_r
    dnnl_dims_t dilation        # 0 = dense, as oneDNN's

cdef inline const pooling_desc_t *pooling_desc(const dnnl_primitive_desc *pd) noexcept nogil:
    return <const pooling_desc_t *>pd.desc

# blocked / nhwc / plain:<level>: how channels are laid out, the ISA level
# (dnnl_cpu_isa_t) whose kernels run, and the threads the backward
# scratchpad was sized for.
cdef struct pooling_fast_conf_t:
    int layout
    int isa
    int nthr
