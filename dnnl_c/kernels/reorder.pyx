# Reorder kernels. One fused template converts between any two supported
# types; dispatch on the data types picks the instance.

from cython.parallel cimport prange
from libc.stdint cimport int64_t, int32_t, int8_t, uint8_t, uint16_t
from libc.math cimport nearbyintf, isnan
from libc.string cimport memset

from dnnl_c.dnnl_types cimport dnnl_f32, dnnl_bf16, dnnl_s32, dnnl_s8, dnnl_u8
from dnnl_c.kernels.bf16 cimport bf16_to_f32, f32_to_bf16
from dnnl_c.kernels.isa cimport ISA_AVX512_CORE, ISA_AVX512_CORE_BF16

ctypedef uint16_t bf16_t

ctypedef fused src_t:
    float
    bf16_t
    int32_t
    int8_t
    uint8_t

ctypedef fused dst_t:
    float
    bf16_t
    int32_t
    int8_t
    uint8_t


cdef bint reorder_supports(int dt) noexcept nogil:
    return dt == dnnl_f32 or dt == dnnl_bf16 or dt == dnnl_s32 or dt == dnnl_s8 or dt == dnnl_u8


cdef inline float saturate(float f, float lo, float hi) noexcept nogil:
    if isnan(f):
        return 0.0
    return nearbyintf(lo if f < lo else (hi if f > hi else f))


cdef inline dst_t convert(src_t v, dst_t *tag) noexcept nogil:
    """v as dst_t: bit-exact between equal types, through f32 otherwise."""
    cdef float f
    if src_t is dst_t:
        return v
    if src_t is float:
        f = v
    elif src_t is bf16_t:
        f = bf16_to_f32(v)
    else:
        f = <float>v
    if dst_t is float:
        return f
    elif dst_t is bf16_t:
        return f32_to_bf16(f)
    elif dst_t is int32_t:
        return <int32_t>saturate(f, -2147483648.0, 2147483520.0)
    elif dst_t is int8_t:
        return <int8_t>saturate(f, -128.0, 127.0)
    else:
        return <uint8_t>saturate(f, 0.0, 255.0)


cdef void linear_impl(const src_t *src, dst_t *dst, int64_t n) noexcept nogil:
    cdef int64_t i
    for i in prange(n, schedule='static'):
        dst[i] = convert(src[i], <dst_t *>0)


cdef void tables_impl(const src_t *src, dst_t *dst, int ndims, const int64_t *dims,
                      const int64_t *dst_pdims, const int64_t *const *src_off,
                      const int64_t *const *dst_off, int inner) noexcept nogil:
    cdef int64_t n_outer = 1, o, rem, p, soff, doff, i
    cdef int64_t n_inner = dims[inner], n_inner_pad = dst_pdims[inner]
    cdef const int64_t *s_in = src_off[inner]
    cdef const int64_t *d_in = dst_off[inner]
    cdef int d
    cdef bint pad
    for d in range(ndims):
        if d != inner:
            n_outer *= dst_pdims[d]
    for o in prange(n_outer, schedule='static'):
        rem = o
        soff = 0
        doff = 0
        pad = False
        for d in range(ndims - 1, -1, -1):
            if d == inner:
                continue
            p = rem % dst_pdims[d]
            rem = rem // dst_pdims[d]
            doff = doff + dst_off[d][p]
            if p >= dims[d]:
                pad = True
            else:
                soff = soff + src_off[d][p]
        if pad:
            for i in range(n_inner_pad):
                dst[doff + d_in[i]] = 0
        else:
            for i in range(n_inner):
                dst[doff + d_in[i]] = convert(src[soff + s_in[i]], <dst_t *>0)
            for i in range(n_inner, n_inner_pad):
                dst[doff + d_in[i]] = 0


DEF TILE = 64


cdef void blocked_c_impl(const src_t *src, dst_t *dst, bint to_blocked, int64_t n,
                         int64_t ch, int64_t padded_ch, int64_t s, int64_t blk, int64_t p_n,
                         int64_t p_c, int64_t p_s, int64_t b_n, int64_t b_cb,
                         int64_t b_s) noexcept nogil:
    cdef int64_t ncb = (padded_ch + blk - 1) // blk, job, i, cb, s0, ts, j, cc, cmax, cpad
    cdef const src_t *sp
    cdef dst_t *dp
    for job in prange(n * ncb, schedule='static'):
        i = job // ncb
        cb = job % ncb
        cmax = ch - cb * blk
        if cmax > blk:
            cmax = blk
        if cmax < 0:
            cmax = 0
        cpad = padded_ch - cb * blk
        if cpad > blk:
            cpad = blk
        if to_blocked:
            sp = src + i * p_n + cb * blk * p_c
            dp = dst + i * b_n + cb * b_cb
            if p_c == 1:        # channels innermost on both sides
                for j in range(s):
                    for cc in range(cmax):
                        dp[j * b_s + cc] = convert(sp[j * p_s + cc], <dst_t *>0)
                    for cc in range(cmax, cpad):
                        dp[j * b_s + cc] = 0
            else:               # spatial innermost on the plain side: by tiles of
                for s0 in range(0, s, TILE):    # pixels, read along rows
                    ts = s - s0 if s - s0 < TILE else TILE
                    for cc in range(cmax):
                        for j in range(s0, s0 + ts):
                            dp[j * b_s + cc] = convert(sp[cc * p_c + j * p_s], <dst_t *>0)
                    for j in range(s0, s0 + ts):
                        for cc in range(cmax, cpad):
                            dp[j * b_s + cc] = 0
        else:
            sp = src + i * b_n + cb * b_cb
            dp = dst + i * p_n + cb * blk * p_c
            if p_c == 1:
                for j in range(s):
                    for cc in range(cmax):
                        dp[j * p_s + cc] = convert(sp[j * b_s + cc], <dst_t *>0)
            else:
                for s0 in range(0, s, TILE):
                    ts = s - s0 if s - s0 < TILE else TILE
                    for cc in range(cmax):
                        for j in range(s0, s0 + ts):
                            dp[cc * p_c + j * p_s] = convert(sp[j * b_s + cc], <dst_t *>0)


# -- dispatch on (src_dt, dst_dt)

cdef void linear_to(const src_t *src, char *dst, int dst_dt, int64_t n) noexcept nogil:
    if dst_dt == dnnl_f32:
        linear_impl(src, <float *>dst, n)
    elif dst_dt == dnnl_bf16:
        linear_impl(src, <bf16_t *>dst, n)
    elif dst_dt == dnnl_s32:
        linear_impl(src, <int32_t *>dst, n)
    elif dst_dt == dnnl_s8:
        linear_impl(src, <int8_t *>dst, n)
    elif dst_dt == dnnl_u8:
        linear_impl(src, <uint8_t *>dst, n)


cdef extern from "kernels/include/reorder_isa.h" nogil:
    ctypedef struct reorder_kernels_t "cydnnl_reorder_kernels_t":
        void (*f32_to_bf16)(const float *s, bf16_t *d, int64_t n) noexcept nogil
        void (*bf16_to_f32)(const bf16_t *s, float *d, int64_t n) noexcept nogil
        void (*transpose)(const void *src, int src_bf16, int64_t lds, void *dst, int dst_bf16,
                          int64_t ldd, int64_t rows, int64_t pad, int64_t cols) noexcept nogil
    const reorder_kernels_t *reorder_kernels_for "cydnnl_reorder_kernels_for"(int level)

DEF CHUNK = 8192        # elements per task of the per-level conversions


cdef void convert_chunks(const reorder_kernels_t *k, const char *src, int src_dt, char *dst,
                         int64_t n) noexcept nogil:
    cdef int64_t t, lo, m
    for t in prange((n + CHUNK - 1) // CHUNK, schedule='static'):
        lo = t * CHUNK
        m = n - lo if n - lo < CHUNK else CHUNK
        if src_dt == dnnl_f32:
            k.f32_to_bf16(<const float *>src + lo, <bf16_t *>dst + lo, m)
        else:
            k.bf16_to_f32(<const bf16_t *>src + lo, <float *>dst + lo, m)


cdef void convert_serial(const char *src, int src_dt, char *dst, int64_t n,
                         int isa) noexcept nogil:
    cdef const reorder_kernels_t *k = reorder_kernels_for(isa)
    cdef int64_t i
    if k != NULL and src_dt == dnnl_f32:
        k.f32_to_bf16(<const float *>src, <bf16_t *>dst, n)
    elif k != NULL:
        k.bf16_to_f32(<const bf16_t *>src, <float *>dst, n)
    elif src_dt == dnnl_f32:
        for i in range(n):
            (<bf16_t *>dst)[i] = f32_to_bf16((<const float *>src)[i])
    else:
        for i in range(n):
            (<float *>dst)[i] = bf16_to_f32((<const bf16_t *>src)[i])


cdef void reorder_linear(const char *src, int src_dt, char *dst, int dst_dt, int64_t n,
                         int isa) noexcept nogil:
    cdef const reorder_kernels_t *k = reorder_kernels_for(isa)
    if k != NULL and ((src_dt == dnnl_f32 and dst_dt == dnnl_bf16)
                      or (src_dt == dnnl_bf16 and dst_dt == dnnl_f32)):
        convert_chunks(k, src, src_dt, dst, n)
    elif src_dt == dnnl_f32:
        linear_to(<const float *>src, dst, dst_dt, n)
    elif src_dt == dnnl_bf16:
        linear_to(<const bf16_t *>src, dst, dst_dt, n)
    elif src_dt == dnnl_s32:
        linear_to(<const int32_t *>src, dst, dst_dt, n)
    elif src_dt == dnnl_s8:
        linear_to(<const int8_t *>src, dst, dst_dt, n)
    elif src_dt == dnnl_u8:
        linear_to(<const uint8_t *>src, dst, dst_dt, n)


cdef void tables_to(const src_t *src, char *dst, int dst_dt, int ndims,
                    const int64_t *dims, const int64_t *dst_pdims,
                    const int64_t *const *src_off, const int64_t *const *dst_off,
                    int inner) noexcept nogil:
    if dst_dt == dnnl_f32:
        tables_impl(src, <float *>dst, ndims, dims, dst_pdims, src_off, dst_off, inner)
    elif dst_dt == dnnl_bf16:
        tables_impl(src, <bf16_t *>dst, ndims, dims, dst_pdims, src_off, dst_off, inner)
    elif dst_dt == dnnl_s32:
        tables_impl(src, <int32_t *>dst, ndims, dims, dst_pdims, src_off, dst_off, inner)
    elif dst_dt == dnnl_s8:
        tables_impl(src, <int8_t *>dst, ndims, dims, dst_pdims, src_off, dst_off, inner)
    elif dst_dt == dnnl_u8:
        tables_impl(src, <uint8_t *>dst, ndims, dims, dst_pdims, src_off, dst_off, inner)


cdef void reorder_tables(const char *src, int src_dt, char *dst, int dst_dt,
                         int ndims, const int64_t *dims, const int64_t *dst_pdims,
                         const int64_t *const *src_off, const int64_t *const *dst_off,
                         int inner) noexcept nogil:
    if src_dt == dnnl_f32:
        tables_to(<const float *>src, dst, dst_dt, ndims, dims, dst_pdims, src_off,
                  dst_off, inner)
    elif src_dt == dnnl_bf16:
        tables_to(<const bf16_t *>src, dst, dst_dt, ndims, dims, dst_pdims, src_off,
                  dst_off, inner)
    elif src_dt == dnnl_s32:
        tables_to(<const int32_t *>src, dst, dst_dt, ndims, dims, dst_pdims, src_off,
                  dst_off, inner)
    elif src_dt == dnnl_s8:
        tables_to(<const int8_t *>src, dst, dst_dt, ndims, dims, dst_pdims, src_off,
                  dst_off, inner)
    elif src_dt == dnnl_u8:
        tables_to(<const uint8_t *>src, dst, dst_dt, ndims, dims, dst_pdims, src_off,
                  dst_off, inner)


cdef void blocked_c_to(const src_t *src, char *dst, int dst_dt, bint to_blocked, int64_t n,
                       int64_t ch, int64_t padded_ch, int64_t s, int64_t blk, int64_t p_n,
                       int64_t p_c, int64_t p_s, int64_t b_n, int64_t b_cb,
                       int64_t b_s) noexcept nogil:
    if dst_dt == dnnl_f32:
        blocked_c_impl(src, <float *>dst, to_blocked, n, ch, padded_ch, s, blk, p_n, p_c, p_s, b_n, b_cb, b_s)
    elif dst_dt == dnnl_bf16:
        blocked_c_impl(src, <bf16_t *>dst, to_blocked, n, ch, padded_ch, s, blk, p_n, p_c, p_s, b_n,
                       b_cb, b_s)
    elif dst_dt == dnnl_s32:
        blocked_c_impl(src, <int32_t *>dst, to_blocked, n, ch, padded_ch, s, blk, p_n, p_c, p_s, b_n,
                       b_cb, b_s)
    elif dst_dt == dnnl_s8:
        blocked_c_impl(src, <int8_t *>dst, to_blocked, n, ch, padded_ch, s, blk, p_n, p_c, p_s, b_n,
                       b_cb, b_s)
    elif dst_dt == dnnl_u8:
        blocked_c_impl(src, <uint8_t *>dst, to_blocked, n, ch, padded_ch, s, blk, p_n, p_c, p_s, b_n,
                       b_cb, b_s)


cdef bint blocked_c_transposed(const reorder_kernels_t *k, const char *src, int src_dt,
                               char *dst, int dst_dt, bint to_blocked, int64_t n, int64_t ch,
                               int64_t padded_ch, int64_t s, int64_t blk, int64_t p_n,
                               int64_t p_c, int64_t p_s, int64_t b_n, int64_t b_cb,
                               int64_t b_s) noexcept nogil:
    """blocked_c_impl's spatial-innermost case (nchw <-> nhwc, nChw16c) in f32
    and bf16 by the level's register transposes; False where it does not apply."""
    cdef int64_t ss = 2 if src_dt == dnnl_bf16 else 4, ds = 2 if dst_dt == dnnl_bf16 else 4
    cdef int64_t ncb = (padded_ch + blk - 1) // blk, job, i, cb, cmax, cpad, j, cc
    cdef int sbf = src_dt == dnnl_bf16, dbf = dst_dt == dnnl_bf16
    cdef const char *sp
    cdef char *dp
    if (k == NULL or p_s != 1 or p_c == 1 or not (src_dt == dnnl_f32 or src_dt == dnnl_bf16)
            or not (dst_dt == dnnl_f32 or dst_dt == dnnl_bf16)):
        return False
    for job in prange(n * ncb, schedule='static'):
        i = job // ncb
        cb = job % ncb
        cmax = ch - cb * blk
        if cmax > blk:
            cmax = blk
        if cmax < 0:
            cmax = 0
        cpad = padded_ch - cb * blk
        if cpad > blk:
            cpad = blk
        if to_blocked:
            sp = src + (i * p_n + cb * blk * p_c) * ss
            dp = dst + (i * b_n + cb * b_cb) * ds
            k.transpose(sp, sbf, p_c, dp, dbf, b_s, cmax, cpad, s)    # padding lanes zero
        else:
            sp = src + (i * b_n + cb * b_cb) * ss
            dp = dst + (i * p_n + cb * blk * p_c) * ds
            k.transpose(sp, sbf, b_s, dp, dbf, p_c, s, s, cmax)
    return True


cdef void reorder_blocked_c(const char *src, int src_dt, char *dst, int dst_dt,
                            bint to_blocked, int64_t n, int64_t ch, int64_t padded_ch,
                            int64_t s, int64_t blk,
                            int64_t plain_s_n, int64_t plain_s_c, int64_t plain_s_s,
                            int64_t blk_s_n, int64_t blk_s_cb, int64_t blk_s_s,
                            int isa) noexcept nogil:
    # f32 both sides at avx512_core_bf16: avx512_core's transposes (the same
    # source, but GCC's code for it at the bf16 level ran f32 nchw -> nhwc of
    # 8x96x27x27 in 0.057 ms against 0.048 on a Zen 5 core)
    if isa == ISA_AVX512_CORE_BF16 and src_dt == dnnl_f32 and dst_dt == dnnl_f32:
        isa = ISA_AVX512_CORE
    if blocked_c_transposed(reorder_kernels_for(isa), src, src_dt, dst, dst_dt, to_blocked, n,
                            ch, padded_ch, s, blk, plain_s_n, plain_s_c, plain_s_s, blk_s_n,
                            blk_s_cb, blk_s_s):
        return
    if src_dt == dnnl_f32:
        blocked_c_to(<const float *>src, dst, dst_dt, to_blocked, n, ch, padded_ch, s, blk, plain_s_n,
                     plain_s_c, plain_s_s, blk_s_n, blk_s_cb, blk_s_s)
    elif src_dt == dnnl_bf16:
        blocked_c_to(<const bf16_t *>src, dst, dst_dt, to_blocked, n, ch, padded_ch, s, blk, plain_s_n,
                     plain_s_c, plain_s_s, blk_s_n, blk_s_cb, blk_s_s)
    elif src_dt == dnnl_s32:
        blocked_c_to(<const int32_t *>src, dst, dst_dt, to_blocked, n, ch, padded_ch, s, blk, plain_s_n,
                     plain_s_c, plain_s_s, blk_s_n, blk_s_cb, blk_s_s)
    elif src_dt == dnnl_s8:
        blocked_c_to(<const int8_t *>src, dst, dst_dt, to_blocked, n, ch, padded_ch, s, blk, plain_s_n,
                     plain_s_c, plain_s_s, blk_s_n, blk_s_cb, blk_s_s)
    elif src_dt == dnnl_u8:
        blocked_c_to(<const uint8_t *>src, dst, dst_dt, to_blocked, n, ch, padded_ch, s, blk, plain_s_n,
                     plain_s_c, plain_s_s, blk_s_n, blk_s_cb, blk_s_s)
