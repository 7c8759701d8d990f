# Pooling kernels (oneDNN's ref_pooling.cpp semantics): max, and average
# including or excluding padding; forward and backward; 1-D to 3-D spatial
# (missing leading spatial dims are 1). Pointers are to the first element
# (offset0 applied); element types f32 or bf16 (dt), workspace u8 or s32.

from libc.stdint cimport int64_t, int32_t, uint16_t

# The problem. Spatial arrays are (d, h, w).
cdef struct pool_geom_t:
    int alg             # dnnl_pooling_max / _avg_include_padding / _avg_exclude_padding
    int64_t mb
    int64_t c
    int64_t i[3]        # src spatial dims
    int64_t o[3]        # dst spatial dims
    int64_t k[3]        # kernel
    int64_t s[3]        # strides
    int64_t step[3]     # dilation + 1: distance between kernel taps
    int64_t p[3]        # left padding

# How channels split into blocks of `cb` contiguous lanes: a channel-blocked
# layout (nChw8c: cb = 8), channels-last cut into blocks, or cb = 1 (every
# channel on its own, any strides).
cdef struct pool_blocks_t:
    int64_t cb
    int64_t nblk
    int64_t last        # channels in the last block
    int zero_tail       # the last block's lanes [last, cb) are layout padding (outputs get 0)

# Element (n, c, d, h, w) of a tensor lies at
# n*sn + (c / cb)*sc + d*sd + h*sh + w*sw + c % cb.
cdef struct pool_view_t:
    int64_t sn
    int64_t sc
    int64_t sd
    int64_t sh
    int64_t sw

# The row kernels of one ISA level (kernels/include/pool_isa.h).
cdef extern from "kernels/include/pool_isa.h" nogil:
    ctypedef struct pool_row_t "cydnnl_pool_row_t":
        const int64_t *toff
        int64_t nt
        int64_t lanes
        int bf16
        int is_max
        int ws_u8
        float lowest
        int64_t nv
        int64_t vs
        int64_t vd
    ctypedef struct pool_gather_t "cydnnl_pool_gather_t":
        int64_t lanes
        int64_t nb
        int64_t dsb
        int64_t ddb
        int ws_u8
        int bf16
        int nr
        const int64_t *roff
        const int32_t *rtap
        const int64_t *cbeg
        const int64_t *coff
        const int32_t *ctap
        int w32
        int64_t pw
        int64_t ow
        int64_t osw
        int64_t rsd
    ctypedef struct pool_kernels_t "cydnnl_pool_kernels_t":
        void (*fwd_row)(const pool_row_t *r, const void *src, int64_t ps, void *dst,
                        int64_t ds, void *ws, int64_t count) noexcept nogil
        void (*bwd_row)(const pool_row_t *r, float *acc, int64_t ps, const void *diff_dst,
                        int64_t ds, const void *ws, int64_t count) noexcept nogil
        void (*zero_row)(float *dst, int64_t ds, int64_t lanes, int64_t count) noexcept nogil
        void (*to_bf16_row)(uint16_t *dst, int64_t ds, const float *src, int64_t ss,
                            int64_t lanes, int64_t count) noexcept nogil
        # max backward by gathering, one src row (pool_isa.h)
        void (*gather_row)(const pool_gather_t *q, void *diff_src, int64_t ps,
                           const void *diff_dst, const void *ws, int64_t count) noexcept nogil
        int64_t width

# The table compiled for a dnnl_cpu_isa_t level (sse41, avx2, avx512_core,
# avx512_core_bf16); NULL for a level this build lacks. The caller checks
# that the CPU has the level.
cdef const pool_kernels_t *pool_kernels_for(int isa) noexcept nogil

# The value max pooling writes for a window with no element in src.
cdef float pool_lowest(int dt) noexcept nogil

# Forward on blocks with the row kernels k; ws (dst's view, u8 or s32) may
# be NULL.
cdef void pool_fwd_blocked(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                           const char *src, const pool_view_t *vs, char *dst,
                           const pool_view_t *vd, char *ws, int dt, int ws_dt) noexcept nogil
# Backward on blocks with the row kernels k, in parallel on at most nthr
# threads over (n, block), or over n for f32 whose blocks are adjacent in a
# pixel (channels-last). ws has diff_dst's view. bf16 accumulates in f32
# slabs, pool_bwd_slab floats per thread (slabs unused for f32).
cdef void pool_bwd_blocked(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                           const char *diff_dst, const pool_view_t *vd, const char *ws,
                           char *diff_src, const pool_view_t *vs, float *slabs, int nthr,
                           int dt, int ws_dt) noexcept nogil
cdef int64_t pool_bwd_slab(const pool_geom_t *g, const pool_blocks_t *b) noexcept nogil

# The reference: plain dense f32 (n, c, d, h, w) and an s32 workspace of
# dst's dims (may be NULL in forward); `lowest` fills windows with no element.
cdef void pool_fwd_ref(const pool_geom_t *g, const float *src, float *dst, int32_t *ws,
                       float lowest) noexcept nogil
cdef void pool_bwd_ref(const pool_geom_t *g, const float *diff_dst, const int32_t *ws,
                       float *diff_src) noexcept nogil
