# The convolution op descriptor (oneDNN's convolution_desc_t) and the
# configuration of its implementations.

from libc.stdint cimport int64_t
from dnnl_c.core.types cimport *

cdef struct convolution_desc_t:
    op_desc_t hdr
    dnnl_alg_kind_t alg_kind
    md_t src_desc               # diff_src in backward data
    md_t weights_desc           # diff_weights in backward weights
    md_t bias_desc              # diff_bias in backward weights
    md_t dst_desc               # diff_dst in backward
    dnnl_dims_t strides
    dnnl_dims_t dilates         # 0 = dense, as oneDNN's
    dnnl_dims_t padding_l
    dnnl_dims_t padding_r

cdef inline const convolution_desc_t *conv_desc(const dnnl_primitive_desc *pd) noexcept nogil:
    return <const convolution_desc_t *>pd.desc

# gemm:any and ref:any: which sides are channels-last, the threads the GEMM
# work area was sized for and where it starts in the scratchpad.
cdef struct conv_plain_conf_t:
    int isa                 # the GEMM kernels' ISA level (gemm implementations)
    int src_cl
    int dst_cl
    int nthr
    int64_t work_offset
