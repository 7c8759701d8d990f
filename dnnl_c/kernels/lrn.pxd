# LRN kernels (oneDNN's ref_lrn.cpp formulas):
#   omega = k + alpha / summands * sum of src^2 over the window (clipped at the
#   borders), dst = src * omega^-beta,
# summands = ls across channels, ls^(number of spatial dims) within a channel.
# Backward recomputes omega from src, so no workspace is needed.

from libc.stdint cimport int64_t, uint16_t

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

# The tiled kernels' row functions of one ISA level (kernels/include/lrn_isa.h).
cdef extern from "kernels/include/lrn_isa.h" nogil:
    ctypedef struct lrn_kernels_t "cydnnl_lrn_kernels_t":
        void (*in_f32)(float *d, int64_t ld, const float *s, int64_t ls, int64_t rows,
                       int64_t n) noexcept nogil
        void (*in_bf16)(float *d, int64_t ld, const uint16_t *s, int64_t ls, int64_t rows,
                        int64_t n) noexcept nogil
        void (*out_f32)(float *d, int64_t ld, const float *s, int64_t ls, int64_t rows,
                        int64_t n) noexcept nogil
        void (*out_bf16)(uint16_t *d, int64_t ld, const float *s, int64_t ls, int64_t rows,
                         int64_t n) noexcept nogil
        void (*fwd_run)(float *y, const float *x, int64_t n, int64_t h, float k, float scale,
                        float beta) noexcept nogil
        void (*bwd_run1)(float *dd, float *b, const float *x, int64_t n, int64_t h, float k,
                         float scale, float beta) noexcept nogil
        void (*bwd_run2)(float *a, const float *b, const float *x, int64_t n, int64_t h,
                         float coef) noexcept nogil
        void (*bwd_direct)(const void *src, const void *dd, void *ds, int bf16, int64_t npos,
                           int64_t ss, int64_t sc, int64_t C, int64_t h, int pad_lanes,
                           float k, float scale, float coef) noexcept nogil
        void (*fwd_direct)(const void *src, void *dst, int bf16, int64_t npos, int64_t ss,
                           int64_t sc, int64_t C, int64_t h, int pad_lanes, float k,
                           float scale) noexcept nogil

# The row functions compiled for a dnnl_cpu_isa_t level; NULL for a level
# this build lacks. The caller checks that the CPU has the level.
cdef const lrn_kernels_t *lrn_kernels_for(int isa) noexcept nogil

# omega^-beta, as both kernel families compute it.
cdef float lrn_pow_neg(float omega, float beta) noexcept nogil

# Reference, on plain dense f32 (N, C, D, H, W). Forward: dst from src.
cdef void lrn_fwd_ref(const lrn_params_t *p, const float *src, float *dst) noexcept nogil
# Backward: `diff` holds diff_dst on entry and diff_src on return; `work`
# holds as many floats as src.
cdef void lrn_bwd_ref(const lrn_params_t *p, const float *src, float *diff,
                      float *work) noexcept nogil

# Across channels, directly on the layout (f32 or bf16: dt), in tiles of
# p.tile spatial positions holding every channel, with one level's row
# functions uk. `work` holds
# p.nthr * lrn_tile_floats(p, bwd) floats; padded channels of the output are
# zeroed. A tile is read whole before it is written, so src may be dst.
cdef int64_t lrn_pick_tile(const lrn_params_t *p, int nthr) noexcept nogil
cdef int64_t lrn_tile_floats(const lrn_params_t *p, bint bwd) noexcept nogil
cdef void lrn_across_fwd_tiled(const lrn_kernels_t *uk, const lrn_params_t *p,
                               const char *src, char *dst, int dt, float *work) noexcept nogil
# Across channels straight on the layout, without tiles or work buffers,
# where uk has such a kernel and the problem suits it (beta 3/4, windows of
# at most 16 either side, at most 1024 channels, channels innermost in
# blocks of 16 or all of them): p as for the tiled kernels. Forward: `a` is
# src, `b` dst (a may be b); backward: a src, b diff_dst, c diff_src.
cdef bint lrn_direct_ok(const lrn_kernels_t *uk, const lrn_params_t *p, bint fwd) noexcept nogil
cdef void lrn_across_direct(const lrn_kernels_t *uk, const lrn_params_t *p, bint fwd,
                            const char *a, const char *b, char *c, int dt) noexcept nogil
cdef void lrn_across_bwd_tiled(const lrn_kernels_t *uk, const lrn_params_t *p,
                               const char *src, const char *diff_dst, char *diff_src, int dt,
                               float *work) noexcept nogil
