# Pooling kernels. The fast ones see channels as blocks of `cb` contiguous
# lanes (nChw8c, nChw16c, channels-last in 16s, or single channels): a
# window is then a few vector loads per tap. Pixels whose window lies inside
# src run on a table of tap offsets through small C kernels with GCC vector
# extensions (8 or 16 lanes; four pixels at a time forward); border pixels
# take bounds-checked loops. Backward scatters into windows that overlap, so
# it runs in parallel over (n, channel block) only, each owning its part of
# diff_src. The reference works on plain f32 with plain loops. The C
# kernels are in kernels/include/pool_kernels.h.

from cython.parallel cimport prange, threadid
from libc.string cimport memcpy, memset
from libc.float cimport FLT_MAX
from libc.stdint cimport int64_t, int32_t, uint8_t

from dnnl_c.dnnl_types cimport *
from dnnl_c.kernels.types cimport bf16_t, data_t, get, put
from dnnl_c.kernels.bf16 cimport bf16_to_f32

cdef extern from "kernels/include/pool_kernels.h" nogil:
    void max_f32_16 "cydnnl_pool_max_f32_16"(const float *s, const int64_t *toff, int64_t nt,
            float lowest, float *acc, int32_t *idx)
    void sum_f32_16 "cydnnl_pool_sum_f32_16"(const float *s, const int64_t *toff, int64_t nt,
            float *acc)
    void max_f32_8 "cydnnl_pool_max_f32_8"(const float *s, const int64_t *toff, int64_t nt,
            float lowest, float *acc, int32_t *idx)
    void sum_f32_8 "cydnnl_pool_sum_f32_8"(const float *s, const int64_t *toff, int64_t nt,
            float *acc)
    void max_f32_n "cydnnl_pool_max_f32_n"(const float *s, const int64_t *toff, int64_t nt,
            float lowest, float *acc, int32_t *idx, int64_t n)
    void sum_f32_n "cydnnl_pool_sum_f32_n"(const float *s, const int64_t *toff, int64_t nt,
            float *acc, int64_t n)
    void max_bf16_16 "cydnnl_pool_max_bf16_16"(const bf16_t *s, const int64_t *toff, int64_t nt,
            float lowest, float *acc, int32_t *idx)
    void sum_bf16_16 "cydnnl_pool_sum_bf16_16"(const bf16_t *s, const int64_t *toff, int64_t nt,
            float *acc)
    void max_bf16_8 "cydnnl_pool_max_bf16_8"(const bf16_t *s, const int64_t *toff, int64_t nt,
            float lowest, float *acc, int32_t *idx)
    void sum_bf16_8 "cydnnl_pool_sum_bf16_8"(const bf16_t *s, const int64_t *toff, int64_t nt,
            float *acc)
    void max_bf16_n "cydnnl_pool_max_bf16_n"(const bf16_t *s, const int64_t *toff, int64_t nt,
            float lowest, float *acc, int32_t *idx, int64_t n)
    void sum_bf16_n "cydnnl_pool_sum_bf16_n"(const bf16_t *s, const int64_t *toff, int64_t nt,
            float *acc, int64_t n)
    void add_16 "cydnnl_pool_add_16"(float *acc, const int64_t *toff, int64_t nt,
            const float *v)
    void maxbwd_16 "cydnnl_pool_maxbwd_16"(float *acc, const int64_t *toff, int64_t nt,
            const float *dd, const int32_t *k)
    void to_bf16_16 "cydnnl_pool_to_bf16_16"(bf16_t *d, const float *a)
    void ws_u8_16 "cydnnl_pool_ws_u8_16"(uint8_t *w, const int32_t *idx)
    void ws_to_s32_u8_16 "cydnnl_pool_ws_to_s32_u8_16"(int32_t *k, const uint8_t *w)
    void add_8 "cydnnl_pool_add_8"(float *acc, const int64_t *toff, int64_t nt,
            const float *v)
    void maxbwd_8 "cydnnl_pool_maxbwd_8"(float *acc, const int64_t *toff, int64_t nt,
            const float *dd, const int32_t *k)
    void to_bf16_8 "cydnnl_pool_to_bf16_8"(bf16_t *d, const float *a)
    void ws_u8_8 "cydnnl_pool_ws_u8_8"(uint8_t *w, const int32_t *idx)
    void ws_to_s32_u8_8 "cydnnl_pool_ws_to_s32_u8_8"(int32_t *k, const uint8_t *w)
    void avgbwd_row_f32_16 "cydnnl_pool_avgbwd_row_f32_16"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const float *dd, int64_t ds, int64_t count,
            float div)
    void maxbwd_row_u8_f32_16 "cydnnl_pool_maxbwd_row_u8_f32_16"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const float *dd, int64_t ds, const uint8_t *ws,
            int64_t count)
    void maxbwd_row_s32_f32_16 "cydnnl_pool_maxbwd_row_s32_f32_16"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const float *dd, int64_t ds, const int32_t *ws,
            int64_t count)
    void avgbwd_row_f32_8 "cydnnl_pool_avgbwd_row_f32_8"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const float *dd, int64_t ds, int64_t count,
            float div)
    void maxbwd_row_u8_f32_8 "cydnnl_pool_maxbwd_row_u8_f32_8"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const float *dd, int64_t ds, const uint8_t *ws,
            int64_t count)
    void maxbwd_row_s32_f32_8 "cydnnl_pool_maxbwd_row_s32_f32_8"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const float *dd, int64_t ds, const int32_t *ws,
            int64_t count)
    void avgbwd_row_bf16_16 "cydnnl_pool_avgbwd_row_bf16_16"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const bf16_t *dd, int64_t ds, int64_t count,
            float div)
    void maxbwd_row_u8_bf16_16 "cydnnl_pool_maxbwd_row_u8_bf16_16"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const bf16_t *dd, int64_t ds, const uint8_t *ws,
            int64_t count)
    void maxbwd_row_s32_bf16_16 "cydnnl_pool_maxbwd_row_s32_bf16_16"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const bf16_t *dd, int64_t ds, const int32_t *ws,
            int64_t count)
    void avgbwd_row_bf16_8 "cydnnl_pool_avgbwd_row_bf16_8"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const bf16_t *dd, int64_t ds, int64_t count,
            float div)
    void maxbwd_row_u8_bf16_8 "cydnnl_pool_maxbwd_row_u8_bf16_8"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const bf16_t *dd, int64_t ds, const uint8_t *ws,
            int64_t count)
    void maxbwd_row_s32_bf16_8 "cydnnl_pool_maxbwd_row_s32_bf16_8"(float *acc, int64_t ps,
            const int64_t *toff, int64_t nt, const bf16_t *dd, int64_t ds, const int32_t *ws,
            int64_t count)
    void fwd_row_f32_16 "cydnnl_pool_fwd_row_f32_16"(const float *s, int64_t ps,
            const int64_t *toff, int64_t nt, int is_max, float lowest, float div, float *d,
            int64_t ds, void *ws, int ws_u8, int64_t count)
    void fwd_row_f32_8 "cydnnl_pool_fwd_row_f32_8"(const float *s, int64_t ps,
            const int64_t *toff, int64_t nt, int is_max, float lowest, float div, float *d,
            int64_t ds, void *ws, int ws_u8, int64_t count)
    void fwd_row_bf16_16 "cydnnl_pool_fwd_row_bf16_16"(const bf16_t *s, int64_t ps,
            const int64_t *toff, int64_t nt, int is_max, float lowest, float div, bf16_t *d,
            int64_t ds, void *ws, int ws_u8, int64_t count)
    void fwd_row_bf16_8 "cydnnl_pool_fwd_row_bf16_8"(const bf16_t *s, int64_t ps,
            const int64_t *toff, int64_t nt, int is_max, float lowest, float div, bf16_t *d,
            int64_t ds, void *ws, int ws_u8, int64_t count)
    void add_n "cydnnl_pool_add_n"(float *acc, const int64_t *toff, int64_t nt, const float *v,
            int64_t n)

cdef enum:
    MAX_LANES = 64
    MAX_TAPS = 512      # windows up to this many taps get an offset table


cdef float pool_lowest(int dt) noexcept nogil:
    # oneDNN starts from the data type's lowest finite value and keeps it
    # when no element beats it (empty windows, all -inf or NaN)
    if dt == dnnl_bf16:
        return bf16_to_f32(0xff7f)
    return -FLT_MAX


cdef inline void tap_range(int64_t o, int64_t s, int64_t p, int64_t step, int64_t k,
                           int64_t n, int64_t *lo, int64_t *hi) noexcept nogil:
    """Taps t in [lo, hi) of the window of output o land in [0, n)."""
    cdef int64_t start = o * s - p
    cdef int64_t a = 0, b = 0
    if start < 0:
        a = (-start + step - 1) // step
    if start < n:
        b = (n - start + step - 1) // step
    if b > k:
        b = k
    if a > b:
        a = b
    lo[0] = a
    hi[0] = b


# ------------------------------------------------------------ blocked forward

cdef inline void max_pixel(const data_t *sb, const pool_view_t *vs, const pool_geom_t *g,
                           const int64_t *lo, const int64_t *hi, const int64_t *start,
                           float *acc, int32_t *idx, int64_t nl, float lowest) noexcept nogil:
    cdef int64_t kd, kh, kw, ci
    cdef int32_t k
    cdef const data_t *p
    cdef float v
    cdef bint gt
    for ci in range(nl):
        acc[ci] = lowest
        idx[ci] = 0
    for kd in range(lo[0], hi[0]):
        for kh in range(lo[1], hi[1]):
            for kw in range(lo[2], hi[2]):
                p = sb + ((start[0] + kd * g.step[0]) * vs.sd + (start[1] + kh * g.step[1]) * vs.sh
                          + (start[2] + kw * g.step[2]) * vs.sw)
                k = <int32_t>((kd * g.k[1] + kh) * g.k[2] + kw)
                for ci in range(nl):
                    # strict >: the first maximum in (kd, kh, kw) order wins
                    v = get(p, ci)
                    gt = v > acc[ci]
                    acc[ci] = v if gt else acc[ci]
                    idx[ci] = k if gt else idx[ci]


cdef inline void sum_pixel(const data_t *sb, const pool_view_t *vs, const pool_geom_t *g,
                           const int64_t *lo, const int64_t *hi, const int64_t *start,
                           float *acc, int64_t nl) noexcept nogil:
    cdef int64_t kd, kh, kw, ci
    cdef const data_t *p
    for ci in range(nl):
        acc[ci] = 0
    for kd in range(lo[0], hi[0]):
        for kh in range(lo[1], hi[1]):
            for kw in range(lo[2], hi[2]):
                p = sb + ((start[0] + kd * g.step[0]) * vs.sd + (start[1] + kh * g.step[1]) * vs.sh
                          + (start[2] + kw * g.step[2]) * vs.sw)
                for ci in range(nl):
                    acc[ci] += get(p, ci)


cdef inline float avg_divisor(const pool_geom_t *g, const int64_t *lo,
                              const int64_t *hi) noexcept nogil:
    if g.alg == dnnl_pooling_avg_include_padding:
        return <float>(g.k[0] * g.k[1] * g.k[2])
    return <float>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]))


cdef inline int64_t tap_table(const pool_geom_t *g, const pool_view_t *v,
                              int64_t *toff) noexcept nogil:
    """Offsets of the kernel taps from a window's origin in flat (kd, kh, kw)
    order; 0 (no table) beyond MAX_TAPS taps."""
    cdef int64_t kd, kh, kw, t = 0
    if g.k[0] * g.k[1] * g.k[2] > MAX_TAPS:
        return 0
    for kd in range(g.k[0]):
        for kh in range(g.k[1]):
            for kw in range(g.k[2]):
                toff[t] = kd * g.step[0] * v.sd + kh * g.step[1] * v.sh + kw * g.step[2] * v.sw
                t += 1
    return t


cdef inline bint inside(int64_t start, int64_t k, int64_t step, int64_t n) noexcept nogil:
    """The whole window from `start` lies in [0, n)."""
    return start >= 0 and start + (k - 1) * step < n


cdef inline void inside_range(int64_t o, int64_t s, int64_t p, int64_t k, int64_t step,
                              int64_t n, int64_t *lo, int64_t *hi) noexcept nogil:
    """Outputs [lo, hi) along one dim whose windows lie inside [0, n)."""
    cdef int64_t last = n - 1 + p - (k - 1) * step
    lo[0] = (p + s - 1) // s
    hi[0] = last // s + 1 if last >= 0 else 0
    if hi[0] > o:
        hi[0] = o
    if lo[0] > hi[0]:
        lo[0] = hi[0]


cdef inline void max_window(const data_t *s, const int64_t *toff, int64_t nt, float lowest,
                            float *acc, int32_t *idx, int64_t nl) noexcept nogil:
    if data_t is float:
        if nl == 16:
            max_f32_16(s, toff, nt, lowest, acc, idx)
        elif nl == 8:
            max_f32_8(s, toff, nt, lowest, acc, idx)
        else:
            max_f32_n(s, toff, nt, lowest, acc, idx, nl)
    else:
        if nl == 16:
            max_bf16_16(s, toff, nt, lowest, acc, idx)
        elif nl == 8:
            max_bf16_8(s, toff, nt, lowest, acc, idx)
        else:
            max_bf16_n(s, toff, nt, lowest, acc, idx, nl)


cdef inline void fwd_run(const data_t *s, int64_t ps, const int64_t *toff, int64_t nt,
                         bint is_max, float lowest, data_t *d, int64_t ds, char *ws,
                         int ws_dt, int64_t count, int64_t wl) noexcept nogil:
    """`count` pixels along w whose windows lie inside src, all wl (8 or 16)
    lanes real, stored in place."""
    cdef bint u8 = ws_dt == dnnl_u8
    if data_t is float:
        if wl == 16:
            fwd_row_f32_16(s, ps, toff, nt, is_max, lowest, <float>nt, d, ds, ws, u8, count)
        else:
            fwd_row_f32_8(s, ps, toff, nt, is_max, lowest, <float>nt, d, ds, ws, u8, count)
    else:
        if wl == 16:
            fwd_row_bf16_16(s, ps, toff, nt, is_max, lowest, <float>nt, d, ds, ws, u8, count)
        else:
            fwd_row_bf16_8(s, ps, toff, nt, is_max, lowest, <float>nt, d, ds, ws, u8, count)


cdef inline void sum_window(const data_t *s, const int64_t *toff, int64_t nt, float *acc,
                            int64_t nl) noexcept nogil:
    if data_t is float:
        if nl == 16:
            sum_f32_16(s, toff, nt, acc)
        elif nl == 8:
            sum_f32_8(s, toff, nt, acc)
        else:
            sum_f32_n(s, toff, nt, acc, nl)
    else:
        if nl == 16:
            sum_bf16_16(s, toff, nt, acc)
        elif nl == 8:
            sum_bf16_8(s, toff, nt, acc)
        else:
            sum_bf16_n(s, toff, nt, acc, nl)


cdef inline void store_pixel(data_t *d, const float *acc, int64_t wl) noexcept nogil:
    cdef int64_t ci
    if data_t is float:
        memcpy(d, acc, wl * sizeof(float))
    elif wl == 16:
        to_bf16_16(d, acc)
    elif wl == 8:
        to_bf16_8(d, acc)
    else:
        for ci in range(wl):
            put(d, ci, acc[ci])


cdef inline void store_ws(char *ws, int ws_dt, int64_t off, const int32_t *idx,
                          int64_t wl) noexcept nogil:
    cdef int64_t ci
    if ws_dt != dnnl_u8:
        memcpy(<int32_t *>ws + off, idx, wl * sizeof(int32_t))
    elif wl == 16:
        ws_u8_16(<uint8_t *>ws + off, idx)
    elif wl == 8:
        ws_u8_8(<uint8_t *>ws + off, idx)
    else:
        for ci in range(wl):
            (<uint8_t *>ws)[off + ci] = <uint8_t>idx[ci]


cdef void fwd_row(const pool_geom_t *g, const pool_blocks_t *b, const data_t *src,
                  const pool_view_t *vs, data_t *dst, const pool_view_t *vd, char *ws,
                  int ws_dt, float lowest, int64_t u) noexcept nogil:
    """All outputs of one (n, block, od, oh). A tail block computes its
    layout padding lanes too (they exist in memory) and then zeroes them."""
    cdef int64_t oh = u % g.o[1]
    u = u // g.o[1]
    cdef int64_t od = u % g.o[0]
    u = u // g.o[0]
    cdef int64_t blk = u % b.nblk
    cdef int64_t n = u // b.nblk
    cdef bint tail = blk == b.nblk - 1
    cdef int64_t nl = b.last if tail else b.cb
    cdef int64_t wl = b.cb if (not tail or b.zero_tail) else nl
    cdef int64_t lo[3]
    cdef int64_t hi[3]
    cdef int64_t start[3]
    cdef int64_t toff[MAX_TAPS]
    cdef float acc[MAX_LANES]
    cdef int32_t idx[MAX_LANES]
    cdef int64_t ci, off
    cdef float div
    cdef bint is_max = g.alg == dnnl_pooling_max
    cdef const data_t *sb = src + n * vs.sn + blk * vs.sc
    cdef int64_t nt = tap_table(g, vs, toff)
    tap_range(od, g.s[0], g.p[0], g.step[0], g.k[0], g.i[0], &lo[0], &hi[0])
    tap_range(oh, g.s[1], g.p[1], g.step[1], g.k[1], g.i[1], &lo[1], &hi[1])
    start[0] = od * g.s[0] - g.p[0]
    start[1] = oh * g.s[1] - g.p[1]
    cdef bint row_inside = (nt > 0 and inside(start[0], g.k[0], g.step[0], g.i[0])
                            and inside(start[1], g.k[1], g.step[1], g.i[1]))
    cdef int64_t ow, off0
    cdef int64_t run_lo = 0, run_hi = 0
    if row_inside and nl == wl and (wl == 16 or wl == 8):
        inside_range(g.o[2], g.s[2], g.p[2], g.k[2], g.step[2], g.i[2], &run_lo, &run_hi)
    for ow in range(g.o[2]):
        if ow == run_lo and run_hi > run_lo:
            # the run of inner pixels in one call
            off0 = n * vd.sn + blk * vd.sc + od * vd.sd + oh * vd.sh + run_lo * vd.sw
            fwd_run(sb + start[0] * vs.sd + start[1] * vs.sh
                    + (run_lo * g.s[2] - g.p[2]) * vs.sw, g.s[2] * vs.sw, toff, nt, is_max,
                    lowest, dst + off0, vd.sw,
                    ws + off0 * (1 if ws_dt == dnnl_u8 else 4) if ws != NULL else NULL,
                    ws_dt, run_hi - run_lo, wl)
        if run_lo <= ow < run_hi:
            continue
        start[2] = ow * g.s[2] - g.p[2]
        if row_inside and inside(start[2], g.k[2], g.step[2], g.i[2]):
            # every tap in src: the offset table, no bounds
            if is_max:
                max_window(sb + start[0] * vs.sd + start[1] * vs.sh + start[2] * vs.sw, toff,
                           nt, lowest, acc, idx, wl)
            else:
                sum_window(sb + start[0] * vs.sd + start[1] * vs.sh + start[2] * vs.sw, toff,
                           nt, acc, wl)
                for ci in range(wl):
                    acc[ci] = acc[ci] / <float>nt
        else:
            tap_range(ow, g.s[2], g.p[2], g.step[2], g.k[2], g.i[2], &lo[2], &hi[2])
            if is_max:
                max_pixel(sb, vs, g, lo, hi, start, acc, idx, wl, lowest)
            else:
                sum_pixel(sb, vs, g, lo, hi, start, acc, wl)
                div = avg_divisor(g, lo, hi)
                for ci in range(wl):
                    acc[ci] = acc[ci] / div
        for ci in range(nl, wl):
            acc[ci] = 0
            idx[ci] = 0
        off = n * vd.sn + blk * vd.sc + od * vd.sd + oh * vd.sh + ow * vd.sw
        store_pixel(dst + off, acc, wl)
        if ws != NULL:
            store_ws(ws, ws_dt, off, idx, wl)


cdef void fwd_blocked_impl(const pool_geom_t *g, const pool_blocks_t *b, const data_t *src,
                           const pool_view_t *vs, data_t *dst, const pool_view_t *vd, char *ws,
                           int ws_dt, float lowest) noexcept nogil:
    cdef int64_t units = g.mb * b.nblk * g.o[0] * g.o[1]
    cdef int64_t u
    if g.o[2] == 0:
        return
    for u in prange(units, schedule='static'):
        fwd_row(g, b, src, vs, dst, vd, ws, ws_dt, lowest, u)


cdef void pool_fwd_blocked(const pool_geom_t *g, const pool_blocks_t *b, const char *src,
                           const pool_view_t *vs, char *dst, const pool_view_t *vd, char *ws,
                           int dt, int ws_dt) noexcept nogil:
    if dt == dnnl_bf16:
        fwd_blocked_impl(g, b, <const bf16_t *>src, vs, <bf16_t *>dst, vd, ws, ws_dt,
                         pool_lowest(dt))
    else:
        fwd_blocked_impl(g, b, <const float *>src, vs, <float *>dst, vd, ws, ws_dt,
                         pool_lowest(dt))


# ------------------------------------------------------------ blocked backward

cdef inline void bwd_row(float *acc, int64_t ps, const int64_t *toff, int64_t nt,
                         const data_t *dd, int64_t ds, const char *ws, int ws_dt, int64_t count,
                         bint is_max, int64_t wl) noexcept nogil:
    """`count` pixels along w whose windows lie inside src, all wl (8 or 16)
    lanes real: diff_dst and ws read in place."""
    if data_t is float:
        if not is_max:
            if wl == 16:
                avgbwd_row_f32_16(acc, ps, toff, nt, dd, ds, count, <float>nt)
            else:
                avgbwd_row_f32_8(acc, ps, toff, nt, dd, ds, count, <float>nt)
        elif ws_dt == dnnl_u8:
            if wl == 16:
                maxbwd_row_u8_f32_16(acc, ps, toff, nt, dd, ds, <const uint8_t *>ws, count)
            else:
                maxbwd_row_u8_f32_8(acc, ps, toff, nt, dd, ds, <const uint8_t *>ws, count)
        elif wl == 16:
            maxbwd_row_s32_f32_16(acc, ps, toff, nt, dd, ds, <const int32_t *>ws, count)
        else:
            maxbwd_row_s32_f32_8(acc, ps, toff, nt, dd, ds, <const int32_t *>ws, count)
    else:
        if not is_max:
            if wl == 16:
                avgbwd_row_bf16_16(acc, ps, toff, nt, dd, ds, count, <float>nt)
            else:
                avgbwd_row_bf16_8(acc, ps, toff, nt, dd, ds, count, <float>nt)
        elif ws_dt == dnnl_u8:
            if wl == 16:
                maxbwd_row_u8_bf16_16(acc, ps, toff, nt, dd, ds, <const uint8_t *>ws, count)
            else:
                maxbwd_row_u8_bf16_8(acc, ps, toff, nt, dd, ds, <const uint8_t *>ws, count)
        elif wl == 16:
            maxbwd_row_s32_bf16_16(acc, ps, toff, nt, dd, ds, <const int32_t *>ws, count)
        else:
            maxbwd_row_s32_bf16_8(acc, ps, toff, nt, dd, ds, <const int32_t *>ws, count)


cdef inline void add_pixel(float *ab, const pool_view_t *vs, const pool_geom_t *g,
                           const int64_t *lo, const int64_t *hi, const int64_t *start,
                           const float *v, int64_t nl) noexcept nogil:
    cdef int64_t kd, kh, kw, ci
    cdef float *p
    for kd in range(lo[0], hi[0]):
        for kh in range(lo[1], hi[1]):
            for kw in range(lo[2], hi[2]):
                p = ab + ((start[0] + kd * g.step[0]) * vs.sd + (start[1] + kh * g.step[1]) * vs.sh
                          + (start[2] + kw * g.step[2]) * vs.sw)
                for ci in range(nl):
                    p[ci] += v[ci]


cdef void bwd_unit(const pool_geom_t *g, const pool_blocks_t *b, const data_t *diff_dst,
                   const pool_view_t *vd, const char *ws, int ws_dt, data_t *diff_src,
                   const pool_view_t *vs, float *slab, int64_t u) noexcept nogil:
    """diff_src of one (n, block): zero, accumulate in f32 (in place for f32,
    in this thread's slab for bf16), store. Lanes beyond the channels add 0,
    so a tail block's layout padding stays 0."""
    cdef int64_t blk = u % b.nblk
    cdef int64_t n = u // b.nblk
    cdef bint tail = blk == b.nblk - 1
    cdef int64_t nl = b.last if tail else b.cb
    cdef int64_t wl = b.cb if (not tail or b.zero_tail) else nl
    cdef int64_t sbase = n * vs.sn + blk * vs.sc
    cdef int64_t dbase = n * vd.sn + blk * vd.sc
    cdef float *ab
    cdef pool_view_t va
    cdef int64_t id_, ih, iw, od, oh, ow, ci, off, doff, kvol, k, kd, kh, kw, x, y, z
    cdef int64_t lo[3]
    cdef int64_t hi[3]
    cdef int64_t start[3]
    cdef int64_t toff[MAX_TAPS]
    cdef float v[MAX_LANES]
    cdef int32_t kk[MAX_LANES]
    cdef float div
    cdef bint is_max = g.alg == dnnl_pooling_max
    cdef bint row_inside, px_inside
    cdef int64_t nt, run_lo, run_hi
    if data_t is float:
        ab = <float *>diff_src + sbase
        va = vs[0]
        if (va.sw == wl and (g.i[1] == 1 or va.sh == g.i[2] * wl)
                and (g.i[0] == 1 or va.sd == g.i[1] * g.i[2] * wl)):
            memset(ab, 0, g.i[0] * g.i[1] * g.i[2] * wl * sizeof(float))
        else:
            for id_ in range(g.i[0]):
                for ih in range(g.i[1]):
                    for iw in range(g.i[2]):
                        off = id_ * va.sd + ih * va.sh + iw * va.sw
                        for ci in range(wl):
                            ab[off + ci] = 0
    else:
        ab = slab
        va.sn = 0
        va.sc = 0
        va.sw = wl
        va.sh = g.i[2] * wl
        va.sd = g.i[1] * g.i[2] * wl
        memset(ab, 0, g.i[0] * g.i[1] * g.i[2] * wl * sizeof(float))
    nt = tap_table(g, &va, toff)
    kvol = g.k[0] * g.k[1] * g.k[2]
    for ci in range(nl, wl):
        v[ci] = 0
        kk[ci] = -1
    for od in range(g.o[0]):
        start[0] = od * g.s[0] - g.p[0]
        tap_range(od, g.s[0], g.p[0], g.step[0], g.k[0], g.i[0], &lo[0], &hi[0])
        for oh in range(g.o[1]):
            start[1] = oh * g.s[1] - g.p[1]
            tap_range(oh, g.s[1], g.p[1], g.step[1], g.k[1], g.i[1], &lo[1], &hi[1])
            row_inside = (nt > 0 and inside(start[0], g.k[0], g.step[0], g.i[0])
                          and inside(start[1], g.k[1], g.step[1], g.i[1]))
            run_lo = run_hi = 0
            if row_inside and nl == wl and (wl == 16 or wl == 8):
                inside_range(g.o[2], g.s[2], g.p[2], g.k[2], g.step[2], g.i[2], &run_lo,
                             &run_hi)
            for ow in range(g.o[2]):
                if ow == run_lo and run_hi > run_lo:
                    # the whole run of inner pixels in one call
                    start[2] = run_lo * g.s[2] - g.p[2]
                    doff = dbase + od * vd.sd + oh * vd.sh + run_lo * vd.sw
                    bwd_row(ab + start[0] * va.sd + start[1] * va.sh + start[2] * va.sw,
                            g.s[2] * va.sw, toff, nt, diff_dst + doff, vd.sw,
                            ws + doff * (1 if ws_dt == dnnl_u8 else 4) if ws != NULL else NULL,
                            ws_dt, run_hi - run_lo, is_max, wl)
                if run_lo <= ow < run_hi:
                    continue
                start[2] = ow * g.s[2] - g.p[2]
                doff = dbase + od * vd.sd + oh * vd.sh + ow * vd.sw
                px_inside = row_inside and inside(start[2], g.k[2], g.step[2], g.i[2])
                off = start[0] * va.sd + start[1] * va.sh + start[2] * va.sw
                for ci in range(nl):
                    v[ci] = get(diff_dst, doff + ci)
                if is_max:
                    if ws_dt == dnnl_u8:
                        if nl == 16:
                            ws_to_s32_u8_16(kk, <const uint8_t *>ws + doff)
                        elif nl == 8:
                            ws_to_s32_u8_8(kk, <const uint8_t *>ws + doff)
                        else:
                            for ci in range(nl):
                                kk[ci] = (<const uint8_t *>ws)[doff + ci]
                    else:
                        memcpy(kk, <const int32_t *>ws + doff, nl * sizeof(int32_t))
                    if px_inside and wl == 16:
                        maxbwd_16(ab + off, toff, nt, v, kk)
                        continue
                    if px_inside and wl == 8:
                        maxbwd_8(ab + off, toff, nt, v, kk)
                        continue
                    for ci in range(nl):
                        k = kk[ci]
                        if k < 0 or k >= kvol:
                            continue
                        kw = k % g.k[2]
                        kh = (k // g.k[2]) % g.k[1]
                        kd = k // (g.k[2] * g.k[1])
                        x = start[0] + kd * g.step[0]
                        y = start[1] + kh * g.step[1]
                        z = start[2] + kw * g.step[2]
                        # a window with no element in src points at a padded tap
                        if 0 <= x < g.i[0] and 0 <= y < g.i[1] and 0 <= z < g.i[2]:
                            ab[x * va.sd + y * va.sh + z * va.sw + ci] += v[ci]
                    continue
                if px_inside:
                    div = <float>nt
                else:
                    tap_range(ow, g.s[2], g.p[2], g.step[2], g.k[2], g.i[2], &lo[2], &hi[2])
                    div = avg_divisor(g, lo, hi)
                for ci in range(nl):
                    v[ci] = v[ci] / div
                if px_inside:
                    if wl == 16:
                        add_16(ab + off, toff, nt, v)
                    elif wl == 8:
                        add_8(ab + off, toff, nt, v)
                    else:
                        add_n(ab + off, toff, nt, v, wl)
                elif wl == 16:
                    add_pixel(ab, &va, g, lo, hi, start, v, 16)
                elif wl == 8:
                    add_pixel(ab, &va, g, lo, hi, start, v, 8)
                else:
                    add_pixel(ab, &va, g, lo, hi, start, v, wl)
    if data_t is not float:
        for id_ in range(g.i[0]):
            for ih in range(g.i[1]):
                for iw in range(g.i[2]):
                    store_pixel(diff_src + sbase + id_ * vs.sd + ih * vs.sh + iw * vs.sw,
                                ab + id_ * va.sd + ih * va.sh + iw * va.sw, wl)


cdef int64_t pool_bwd_slab(const pool_geom_t *g, const pool_blocks_t *b) noexcept nogil:
    return g.i[0] * g.i[1] * g.i[2] * b.cb


cdef void bwd_blocked_impl(const pool_geom_t *g, const pool_blocks_t *b, const data_t *diff_dst,
                           const pool_view_t *vd, const char *ws, int ws_dt, data_t *diff_src,
                           const pool_view_t *vs, float *slabs, int nthr) noexcept nogil:
    cdef int64_t u
    cdef int64_t slab = pool_bwd_slab(g, b)
    for u in prange(g.mb * b.nblk, schedule='static', num_threads=nthr):
        bwd_unit(g, b, diff_dst, vd, ws, ws_dt, diff_src, vs,
                 slabs + threadid() * slab if slabs != NULL else NULL, u)


cdef void pool_bwd_blocked(const pool_geom_t *g, const pool_blocks_t *b, const char *diff_dst,
                           const pool_view_t *vd, const char *ws, char *diff_src,
                           const pool_view_t *vs, float *slabs, int nthr, int dt,
                           int ws_dt) noexcept nogil:
    if dt == dnnl_bf16:
        bwd_blocked_impl(g, b, <const bf16_t *>diff_dst, vd, ws, ws_dt, <bf16_t *>diff_src, vs,
                         slabs, nthr)
    else:
        bwd_blocked_impl(g, b, <const float *>diff_dst, vd, ws, ws_dt, <float *>diff_src, vs,
                         NULL, nthr)


# ------------------------------------------------------------ reference

cdef void ref_fwd_nc(const pool_geom_t *g, const float *src, float *dst, int32_t *ws,
                     float lowest, int64_t nc) noexcept nogil:
    """One (n, c) plane; a function so that lo/hi are private to the thread."""
    cdef int64_t ID = g.i[0], IH = g.i[1], IW = g.i[2]
    cdef int64_t OD = g.o[0], OH = g.o[1], OW = g.o[2]
    cdef int64_t od, oh, ow, kd, kh, kw, x, y, z, o, count
    cdef int64_t lo[3]
    cdef int64_t hi[3]
    cdef const float *s = src + nc * ID * IH * IW
    cdef float best, total, v
    cdef int32_t arg
    for od in range(OD):
        for oh in range(OH):
            for ow in range(OW):
                tap_range(od, g.s[0], g.p[0], g.step[0], g.k[0], ID, &lo[0], &hi[0])
                tap_range(oh, g.s[1], g.p[1], g.step[1], g.k[1], IH, &lo[1], &hi[1])
                tap_range(ow, g.s[2], g.p[2], g.step[2], g.k[2], IW, &lo[2], &hi[2])
                best = lowest
                arg = 0
                total = 0
                count = 0
                for kd in range(lo[0], hi[0]):
                    x = od * g.s[0] - g.p[0] + kd * g.step[0]
                    for kh in range(lo[1], hi[1]):
                        y = oh * g.s[1] - g.p[1] + kh * g.step[1]
                        for kw in range(lo[2], hi[2]):
                            z = ow * g.s[2] - g.p[2] + kw * g.step[2]
                            v = s[(x * IH + y) * IW + z]
                            if v > best:
                                best = v
                                arg = <int32_t>((kd * g.k[1] + kh) * g.k[2] + kw)
                            total += v
                            count += 1
                o = ((nc * OD + od) * OH + oh) * OW + ow
                if g.alg == dnnl_pooling_max:
                    dst[o] = best
                    if ws != NULL:
                        ws[o] = arg
                elif g.alg == dnnl_pooling_avg_include_padding:
                    dst[o] = total / <float>(g.k[0] * g.k[1] * g.k[2])
                else:
                    dst[o] = total / <float>count


cdef void pool_fwd_ref(const pool_geom_t *g, const float *src, float *dst, int32_t *ws,
                       float lowest) noexcept nogil:
    cdef int64_t nc
    for nc in prange(g.mb * g.c, schedule='static'):
        ref_fwd_nc(g, src, dst, ws, lowest, nc)


cdef void ref_bwd_nc(const pool_geom_t *g, const float *diff_dst, const int32_t *ws,
                     float *diff_src, int64_t nc) noexcept nogil:
    cdef int64_t ID = g.i[0], IH = g.i[1], IW = g.i[2]
    cdef int64_t OD = g.o[0], OH = g.o[1], OW = g.o[2]
    cdef int64_t i, od, oh, ow, kd, kh, kw, x, y, z, o, k, count
    cdef int64_t lo[3]
    cdef int64_t hi[3]
    cdef float *ds = diff_src + nc * ID * IH * IW
    cdef float v
    for i in range(ID * IH * IW):
        ds[i] = 0
    for od in range(OD):
        for oh in range(OH):
            for ow in range(OW):
                o = ((nc * OD + od) * OH + oh) * OW + ow
                if g.alg == dnnl_pooling_max:
                    k = ws[o]
                    kw = k % g.k[2]
                    kh = (k // g.k[2]) % g.k[1]
                    kd = k // (g.k[2] * g.k[1])
                    x = od * g.s[0] - g.p[0] + kd * g.step[0]
                    y = oh * g.s[1] - g.p[1] + kh * g.step[1]
                    z = ow * g.s[2] - g.p[2] + kw * g.step[2]
                    if (0 <= k < g.k[0] * g.k[1] * g.k[2] and 0 <= x < ID and 0 <= y < IH
                            and 0 <= z < IW):
                        ds[(x * IH + y) * IW + z] += diff_dst[o]
                    continue
                tap_range(od, g.s[0], g.p[0], g.step[0], g.k[0], ID, &lo[0], &hi[0])
                tap_range(oh, g.s[1], g.p[1], g.step[1], g.k[1], IH, &lo[1], &hi[1])
                tap_range(ow, g.s[2], g.p[2], g.step[2], g.k[2], IW, &lo[2], &hi[2])
                if g.alg == dnnl_pooling_avg_include_padding:
                    v = diff_dst[o] / <float>(g.k[0] * g.k[1] * g.k[2])
                else:
                    count = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
                    v = diff_dst[o] / <float>count
                for kd in range(lo[0], hi[0]):
                    x = od * g.s[0] - g.p[0] + kd * g.step[0]
                    for kh in range(lo[1], hi[1]):
                        y = oh * g.s[1] - g.p[1] + kh * g.step[1]
                        for kw in range(lo[2], hi[2]):
                            z = ow * g.s[2] - g.p[2] + kw * g.step[2]
                            ds[(x * IH + y) * IW + z] += v


cdef void pool_bwd_ref(const pool_geom_t *g, const float *diff_dst, const int32_t *ws,
                       float *diff_src) noexcept nogil:
    # windows overlap: parallel over (n, c) planes only
    cdef int64_t nc
    for nc in prange(g.mb * g.c, schedule='static'):
        ref_bwd_nc(g, diff_dst, ws, diff_src, nc)
