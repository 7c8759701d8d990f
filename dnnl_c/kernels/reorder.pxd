# Reorder kernels: copy with data-type conversion between two layouts of the
# same logical tensor. Pointers are to the first element (offset0 applied).

from libc.stdint cimport int64_t, uint16_t

# Types a reorder converts between (oneDNN dnnl_data_type_t values).
cdef bint reorder_supports(int dt) noexcept nogil

# dst[i] = src[i] for i < n: same layout, no padding. f32 <-> bf16 runs the
# conversion compiled for ISA level `isa` (dnnl_cpu_isa_t; kernels/isa.pxd),
# which the caller checked the CPU has (0: the baseline loop).
cdef void reorder_linear(const char *src, int src_dt, char *dst, int dst_dt, int64_t n,
                         int isa) noexcept nogil

# The same conversion, f32 -> bf16 (src_dt f32) or bf16 -> f32, on the calling
# thread alone (for callers inside a parallel region that convert a block while
# it is in cache).
cdef void convert_serial(const char *src, int src_dt, char *dst, int64_t n,
                         int isa) noexcept nogil

# The general case. A layout's element offset is a sum over dims of per-dim
# tables: off[d][p] for p < dst_pdims[d] (src tables need only p < dims[d]).
# Positions in dst's padding (p >= dims[d]) get zeros. `inner` is the dim
# walked innermost.
cdef void reorder_tables(const char *src, int src_dt, char *dst, int dst_dt,
                         int ndims, const int64_t *dims, const int64_t *dst_pdims,
                         const int64_t *const *src_off, const int64_t *const *dst_off,
                         int inner) noexcept nogil

# Between a plain layout and one whose only block is on the channel dim
# (nChw8c, nCdhw16c, ...; channels-last nhwc is one block of all channels):
# spatial dims flattened to S with stride s_s on each side. to_blocked: plain -> blocked, zeroing channels [ch, padded_ch)
# (a sub-memory's padded_ch may end inside a block), else blocked -> plain. f32 and
# bf16 with the plain side's spatial dims innermost transpose in registers at ISA
# level `isa` (as reorder_linear).
cdef void reorder_blocked_c(const char *src, int src_dt, char *dst, int dst_dt,
                            bint to_blocked, int64_t n, int64_t ch, int64_t padded_ch,
                            int64_t s, int64_t blk,
                            int64_t plain_s_n, int64_t plain_s_c, int64_t plain_s_s,
                            int64_t blk_s_n, int64_t blk_s_cb, int64_t blk_s_s,
                            int isa) noexcept nogil
