# The RNN driver (oneDNN's src/cpu/rnn/ref_rnn.cpp, ref_rnn grid): layers,
# directions and time steps around matrix products; the cell (its gates
# and their derivatives) is the only cell-specific part. Every tensor is
# dense f32 in the layouts below: the primitive stages other layouts and
# data types.
#   src_layer (T, N, SLC)  dst_layer (T, N, DLC)  states (L, D, N, C)
#   weights_layer (L, D, SLC, G, DHC)  weights_iter (L, D, SIC, G, DHC)
#     (ldigo) forward; backward takes them as ldgoi, (L, D, G, DHC, SLC or
#     SIC) in memory, as oneDNN's backward asks: its products are with the
#     transposed weights, which ldgoi holds row by row. With wnr (below)
#     both are instead in the GEMM's packed panels of wnr columns (gemm.pxd,
#     gemm_pack_b) of the products' B: forward (L, D, G, DHC / wnr, SLC or
#     SIC, wnr) (ldgOi32o for wnr = 32), backward (L, D, SLC or SIC / wnr,
#     G, DHC, wnr).
#   weights_peephole (L, D, 3, DHC)  weights_projection (L, D, DHC, DIC)
#   bias (L, D, G, DHC)

from libc.stdint cimport int64_t
from dnnl_c.kernels.gemm cimport gemm_kernel_t

cdef struct rnn_shape_t:
    int64_t L, D, T, N, SLC, SIC, DHC, DIC, DLC, G
    int direction           # dnnl_rnn_direction_t
    bint peephole
    bint projection
    int64_t wnr             # 0, or the weights are in panels of the kernel's nr

# A cell: gates per step after the products (fwd) and their gradient (bwd),
# for columns [j0, j1) of every gate (the driver splits them between its
# threads; `threaded`: the cell splits the rows itself). LSTM's signature;
# c arguments are NULL for cells without a c state.
ctypedef void (*rnn_cell_fwd_fn)(int64_t n, int64_t dhc, int64_t j0, int64_t j1, float *gates,
                                 int64_t ldg, const float *bias, const float *peep,
                                 const float *c_prev, int64_t ldcp, float *c_out, int64_t ldc,
                                 float *h_out, int64_t ldh, int threaded) noexcept nogil
ctypedef void (*rnn_cell_bwd_fn)(int64_t n, int64_t dhc, int64_t j0, int64_t j1,
                                 const float *gates, int64_t ldg, const float *peep,
                                 const float *c_prev, int64_t ldcp, const float *c_t,
                                 int64_t ldc, const float *dh, int64_t lddh, float *dc,
                                 int64_t lddc, float *dg, int64_t lddg, float *dpeep,
                                 int threaded) noexcept nogil

cdef struct rnn_cell_t:
    int n_gates
    bint has_c_state
    rnn_cell_fwd_fn fwd
    rnn_cell_bwd_fn bwd

# The LSTM cell with its gate loops compiled for a dnnl_cpu_isa_t level (0 or a
# level this build lacks: the baseline build).
cdef void lstm_cell_for(int isa, rnn_cell_t *cell) noexcept nogil

# NULL pointers: absent (zeros for inputs, not written for outputs).
cdef struct rnn_fwd_args_t:
    const float *src_layer
    const float *src_iter
    const float *src_iter_c
    const float *weights_layer
    const float *weights_iter
    const float *weights_peephole
    const float *weights_projection
    const float *bias
    float *dst_layer
    float *dst_iter
    float *dst_iter_c
    float *ws               # rnn_ws_floats: what backward reads
    float *work             # rnn_fwd_work_floats, 64-byte aligned
    int nthr                # threads the work area was sized for

# The diff weights and diff bias are accumulated into (+=).
cdef struct rnn_bwd_args_t:
    const float *src_layer
    const float *src_iter
    const float *src_iter_c
    const float *weights_layer
    const float *weights_iter
    const float *weights_peephole
    const float *weights_projection
    const float *bias
    const float *ws
    float *diff_src_layer
    float *diff_src_iter
    float *diff_src_iter_c
    float *diff_weights_layer
    float *diff_weights_iter
    float *diff_weights_peephole
    float *diff_weights_projection
    float *diff_bias
    const float *diff_dst_layer
    const float *diff_dst_iter
    const float *diff_dst_iter_c
    float *work             # rnn_bwd_work_floats, 64-byte aligned
    int nthr

# Sizes in floats; -1 when they overflow.
cdef int64_t rnn_ws_floats(const rnn_shape_t *s) noexcept nogil
cdef int64_t rnn_fwd_work_floats(const rnn_shape_t *s, const gemm_kernel_t *uk,
                                 int nthr) noexcept nogil
cdef int64_t rnn_bwd_work_floats(const rnn_shape_t *s, const gemm_kernel_t *uk,
                                 int nthr) noexcept nogil

# uk: the GEMM micro-kernel; NULL runs the products as plain loops (ref).
cdef void rnn_fwd(const rnn_cell_t *cell, const gemm_kernel_t *uk, const rnn_shape_t *s,
                  const rnn_fwd_args_t *a) noexcept nogil
cdef void rnn_bwd(const rnn_cell_t *cell, const gemm_kernel_t *uk, const rnn_shape_t *s,
                  const rnn_bwd_args_t *a) noexcept nogil
