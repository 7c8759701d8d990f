# The RNN op descriptor (oneDNN's rnn_desc_t) and the configuration of its
# implementations. One descriptor for the family: the cell kind says which
# cell (only vanilla_lstm is implemented so far).

from libc.stdint cimport int64_t
from dnnl_c.core.types cimport *
from dnnl_c.kernels.rnn cimport rnn_shape_t

cdef struct rnn_desc_t:
    op_desc_t hdr
    dnnl_alg_kind_t cell_kind
    dnnl_rnn_direction_t direction
    md_t src_layer_desc
    md_t src_iter_desc
    md_t src_iter_c_desc
    md_t weights_layer_desc
    md_t weights_iter_desc
    md_t weights_peephole_desc
    md_t weights_projection_desc
    md_t bias_desc
    md_t dst_layer_desc
    md_t dst_iter_desc
    md_t dst_iter_c_desc
    md_t diff_src_layer_desc
    md_t diff_src_iter_desc
    md_t diff_src_iter_c_desc
    md_t diff_weights_layer_desc
    md_t diff_weights_iter_desc
    md_t diff_weights_peephole_desc
    md_t diff_weights_projection_desc
    md_t diff_bias_desc
    md_t diff_dst_layer_desc
    md_t diff_dst_iter_desc
    md_t diff_dst_iter_c_desc
    unsigned flags
    dnnl_alg_kind_t activation_kind
    float alpha
    float beta

cdef inline const rnn_desc_t *rnn_desc(const dnnl_primitive_desc *pd) noexcept nogil:
    return <const rnn_desc_t *>pd.desc

# gemm:<isa> and ref:any: the problem's sizes, the GEMM kernels' level and
# where the f32 work areas start in the scratchpad (bytes).
cdef struct rnn_conf_t:
    int isa                 # dnnl_cpu_isa_t of the GEMM kernels; 0 for ref
    rnn_shape_t shape
    int64_t ws_floats       # the driver's state area (workspace, or scratchpad in inference)
    int64_t state_offset    # in the scratchpad, when not in the workspace (-1: workspace)
    int64_t work_offset     # the driver's work area (packed weights; backward's gradients)
    int nthr                # threads the work area was sized for
    int64_t stage_offset    # f32 dense copies of arguments start here
