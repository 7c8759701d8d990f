# LRN kernels (oneDNN's ref_lrn.cpp formulas):
#   omega = k + alpha / summands * sum of src^2 over the window (clipped at the
#   borders), dst = src * omega^-beta,
# summands = ls across channels, ls^(number of spatial dims) within a channel.
# Backward recomputes omega from src, so no workspace is needed.

from libc.stdint cimport int64_t

cdef struct lrn_params_t:
    bint across             # lrn_across_channels, else lrn_within_channel
    int64_t local_size
    float alpha
    float beta
    float k
    float summands
    int64_t N
    int64_t C
    # plain reference kernels: spatial dims (1 where absent), dense abcde order
    int64_t D
    int64_t H
    int64_t W
    # tiled kernels: element (n, c, s), s the flattened spatial position, is at
    # n*sn + (c / blk)*sc + c % blk + s*ss
    int64_t S
    int64_t blk
    int64_t sn
    int64_t sc
    int64_t ss
    int64_t tile            # spatial positions per task
    int nthr                # threads the work buffer was sized for

# omega^-beta, as both kernel families compute it.
cdef float lrn_pow_neg(float omega, float beta) noexcept nogil

# Reference, on plain dense f32 (N, C, D, H, W). Forward: dst from src.
cdef void lrn_fwd_ref(const lrn_params_t *p, const float *src, float *dst) noexcept nogil
# Backward: `diff` holds diff_dst on entry and diff_src on return; `work`
# holds as many floats as src.
cdef void lrn_bwd_ref(const lrn_params_t *p, const float *src, float *diff,
                      float *work) noexcept nogil

# Across channels, directly on the layout (f32 or bf16: dt), in tiles of
# p.tile spatial positions holding every channel. `work` holds
# p.nthr * lrn_tile_floats(p, bwd) floats; padded channels of the output are
# zeroed. A tile is read whole before it is written, so src may be dst.
cdef int64_t lrn_pick_tile(const lrn_params_t *p, int nthr) noexcept nogil
cdef int64_t lrn_tile_floats(const lrn_params_t *p, bint bwd) noexcept nogil
cdef void lrn_across_fwd_tiled(const lrn_params_t *p, const char *src, char *dst, int dt,
                               float *work) noexcept nogil
cdef void lrn_across_bwd_tiled(const lrn_params_t *p, const char *src, const char *diff_dst,
                               char *diff_src, int dt, float *work) noexcept nogil
