# Pooling kernels. The fast ones see channels as blocks of `cb` contiguous
# lanes (nChw8c, nChw16c, channels-last in 16s, or single channels): a
# window is then a few vector loads per tap. Each row of output pixels whose
# windows lie inside src runs in one call of a C row kernel over a table of
# tap offsets, compiled once per ISA level (kernels/include/pool_kernels.h,
# kernels/isa/pooling_isa.c; the caller passes the level's table); border
# pixels take bounds-checked loops here. Max backward in 2D gathers: each
# src row is written once, every pixel the sum of the outputs whose window
# holds it where the workspace names its tap (rows in parallel, no zeroing).
# Otherwise backward scatters into windows that overlap, so it runs in
# parallel over (n, channel block), or over n (f32 channels-last), each
# owning its part of diff_src. The reference works on plain f32 with plain
# loops.

from cython.parallel cimport prange, threadid
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.float cimport FLT_MAX
from libc.stdint cimport int64_t, int32_t, uint8_t

from dnnl_c.dnnl_types cimport *
from dnnl_c.kernels.types cimport bf16_t, data_t, get, put
from dnnl_c.kernels.bf16 cimport bf16_to_f32

cdef extern from "kernels/include/pool_isa.h" nogil:
    const pool_kernels_t *kernels_for "cydnnl_pool_kernels_for"(int level)
    enum: CYDNNL_POOL_MAXC

cdef enum:
    MAX_LANES = 64
    MAX_TAPS = 512      # windows up to this many taps get an offset table


cdef const pool_kernels_t *pool_kernels_for(int isa) noexcept nogil:
    return kernels_for(isa)


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


cdef inline void store_pixel(data_t *d, const float *acc, int64_t wl) noexcept nogil:
    cdef int64_t ci
    if data_t is float:
        memcpy(d, acc, wl * sizeof(float))
    else:
        for ci in range(wl):
            put(d, ci, acc[ci])


cdef inline void store_ws(char *ws, int ws_dt, int64_t off, const int32_t *idx,
                          int64_t wl) noexcept nogil:
    cdef int64_t ci
    if ws_dt != dnnl_u8:
        memcpy(<int32_t *>ws + off, idx, wl * sizeof(int32_t))
    else:
        for ci in range(wl):
            (<uint8_t *>ws)[off + ci] = <uint8_t>idx[ci]


cdef inline void zero_lanes(data_t *d, int64_t ds, char *ws, int ws_dt, int64_t count,
                            int64_t nl, int64_t wl) noexcept nogil:
    """Lanes [nl, wl) of `count` pixels ds apart: a tail block's layout
    padding, which outputs hold at 0."""
    cdef int64_t j, ci
    for j in range(count):
        for ci in range(nl, wl):
            put(d, j * ds + ci, 0)
            if ws == NULL:
                pass
            elif ws_dt == dnnl_u8:
                (<uint8_t *>ws)[j * ds + ci] = 0
            else:
                (<int32_t *>ws)[j * ds + ci] = 0


cdef inline void row_init(pool_row_t *r, const pool_geom_t *g, const int64_t *toff, int64_t nt,
                          int64_t lanes, bint bf16, int ws_dt, float lowest) noexcept nogil:
    r.toff = toff
    r.nt = nt
    r.lanes = lanes
    r.bf16 = bf16
    r.is_max = g.alg == dnnl_pooling_max
    r.ws_u8 = ws_dt == dnnl_u8
    r.lowest = lowest
    r.nv = 0


cdef inline int64_t vector_groups(const pool_kernels_t *k, const pool_blocks_t *b,
                                  const pool_view_t *vs, const pool_view_t *vd,
                                  int64_t *nv) noexcept nogil:
    """How a row's channels go to the row kernel in vectors of the level's
    width: -1 with nv[0] the vectors of a pixel where its channels are
    adjacent on both sides (channels-last, a whole number of vectors); the
    count of whole blocks of vector width where there are at least two
    (done together; a tail block on its own); else 0 (block by block)."""
    cdef int64_t c = (b.nblk - 1) * b.cb + b.last, nfull
    nv[0] = 0
    if k.width <= 0:
        return 0
    if vs.sc == b.cb and vd.sc == b.cb and not b.zero_tail and c % k.width == 0:
        nv[0] = c // k.width
        return -1
    nfull = b.nblk - (b.last < b.cb)
    if (b.cb == k.width or (b.cb == 8 and k.width == 16)) and nfull > 1:
        nv[0] = nfull       # (vectors of 8 for blocks of 8 at AVX-512)
        return nfull
    return 0


cdef void fwd_unit(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                   const data_t *src, const pool_view_t *vs, data_t *dst, const pool_view_t *vd,
                   char *ws, int ws_dt, float lowest, int64_t groups, int64_t nvec,
                   int64_t u) noexcept nogil:
    """All outputs of one (n, unit, od, oh), a unit being a channel block or,
    as vector_groups says, all channels (groups -1) or the whole vector-wide
    blocks (unit 0) and the tail block (unit 1): the pixels whose window lies
    inside src in one call of the level's row kernel, the others here with
    bounds, block by block. A tail block computes its layout padding lanes
    too (they exist in memory) and then zeroes them. Where a pixel's blocks
    are adjacent (channels-last) the unit is the fastest index: a thread does
    all of an output row while its src rows are in cache, reading src in
    order."""
    cdef int64_t nu = 1 if groups < 0 else (1 + (b.nblk > groups) if groups > 0 else b.nblk)
    cdef int64_t gi = 0, oh, od, n, b0, b1, blk
    if vs.sc == b.cb:
        gi = u % nu
        u = u // nu
    oh = u % g.o[1]
    u = u // g.o[1]
    od = u % g.o[0]
    u = u // g.o[0]
    if vs.sc == b.cb:
        n = u
    else:
        gi = u % nu
        n = u // nu
    cdef int64_t nv = 0
    if groups < 0:
        b0, b1, nv = 0, b.nblk, nvec
    elif groups > 0 and gi == 0:
        b0, b1, nv = 0, groups, nvec
    elif groups > 0:
        b0, b1 = b.nblk - 1, b.nblk
    else:
        b0, b1 = gi, gi + 1
    cdef bint tail
    cdef int64_t nl, wl
    cdef int64_t lo[3]
    cdef int64_t hi[3]
    cdef int64_t start[3]
    cdef int64_t toff[MAX_TAPS]
    cdef float acc[MAX_LANES]
    cdef int32_t idx[MAX_LANES]
    cdef int64_t ci, off, ow, off0
    cdef int64_t wsz = 1 if ws_dt == dnnl_u8 else 4
    cdef int64_t run_lo = 0, run_hi = 0
    cdef float div
    cdef bint is_max = g.alg == dnnl_pooling_max
    cdef const data_t *sb
    cdef pool_row_t r
    cdef int64_t nt = tap_table(g, vs, toff)
    tap_range(od, g.s[0], g.p[0], g.step[0], g.k[0], g.i[0], &lo[0], &hi[0])
    tap_range(oh, g.s[1], g.p[1], g.step[1], g.k[1], g.i[1], &lo[1], &hi[1])
    start[0] = od * g.s[0] - g.p[0]
    start[1] = oh * g.s[1] - g.p[1]
    if (nt > 0 and inside(start[0], g.k[0], g.step[0], g.i[0])
            and inside(start[1], g.k[1], g.step[1], g.i[1])):
        inside_range(g.o[2], g.s[2], g.p[2], g.k[2], g.step[2], g.i[2], &run_lo, &run_hi)
    if nv > 0 and run_hi > run_lo:
        # the run of inner pixels of all the unit's blocks in one call
        row_init(&r, g, toff, nt, k.width if groups < 0 else b.cb, data_t is not float, ws_dt,
                 lowest)
        r.nv = nv
        r.vs = k.width if groups < 0 else vs.sc
        r.vd = k.width if groups < 0 else vd.sc
        off0 = n * vd.sn + b0 * vd.sc + od * vd.sd + oh * vd.sh + run_lo * vd.sw
        k.fwd_row(&r, src + n * vs.sn + b0 * vs.sc + start[0] * vs.sd + start[1] * vs.sh
                  + (run_lo * g.s[2] - g.p[2]) * vs.sw, g.s[2] * vs.sw, dst + off0, vd.sw,
                  ws + off0 * wsz if ws != NULL else NULL, run_hi - run_lo)
    for blk in range(b0, b1):
        tail = blk == b.nblk - 1
        nl = b.last if tail else b.cb
        wl = b.cb if (not tail or b.zero_tail) else nl
        sb = src + n * vs.sn + blk * vs.sc
        row_init(&r, g, toff, nt, wl, data_t is not float, ws_dt, lowest)
        if run_hi > run_lo and nv == 0:
            # the run of inner pixels in one call
            off0 = n * vd.sn + blk * vd.sc + od * vd.sd + oh * vd.sh + run_lo * vd.sw
            k.fwd_row(&r, sb + start[0] * vs.sd + start[1] * vs.sh
                      + (run_lo * g.s[2] - g.p[2]) * vs.sw, g.s[2] * vs.sw, dst + off0,
                      vd.sw, ws + off0 * wsz if ws != NULL else NULL, run_hi - run_lo)
            if nl < wl:
                zero_lanes(dst + off0, vd.sw, ws + off0 * wsz if ws != NULL else NULL,
                           ws_dt, run_hi - run_lo, nl, wl)
        ow = 0
        while ow < g.o[2]:
            if ow == run_lo and run_hi > run_lo:
                ow = run_hi     # done above
                continue
            start[2] = ow * g.s[2] - g.p[2]
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
            ow += 1


cdef void fwd_blocked_impl(const pool_kernels_t *k, const pool_geom_t *g,
                           const pool_blocks_t *b, const data_t *src, const pool_view_t *vs,
                           data_t *dst, const pool_view_t *vd, char *ws, int ws_dt,
                           float lowest) noexcept nogil:
    cdef int64_t nvec
    cdef int64_t groups = vector_groups(k, b, vs, vd, &nvec)
    cdef int64_t nu = 1 if groups < 0 else (1 + (b.nblk > groups) if groups > 0 else b.nblk)
    cdef int64_t units = g.mb * nu * g.o[0] * g.o[1]
    cdef int64_t u
    if g.o[2] == 0:
        return
    for u in prange(units, schedule='static'):
        fwd_unit(k, g, b, src, vs, dst, vd, ws, ws_dt, lowest, groups, nvec, u)


cdef void pool_fwd_blocked(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                           const char *src, const pool_view_t *vs, char *dst,
                           const pool_view_t *vd, char *ws, int dt, int ws_dt) noexcept nogil:
    if dt == dnnl_bf16:
        fwd_blocked_impl(k, g, b, <const bf16_t *>src, vs, <bf16_t *>dst, vd, ws, ws_dt,
                         pool_lowest(dt))
    else:
        fwd_blocked_impl(k, g, b, <const float *>src, vs, <float *>dst, vd, ws, ws_dt,
                         pool_lowest(dt))


# ------------------------------------------------------------ blocked backward

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


cdef inline void scatter_pixel(float *ab, const pool_view_t *vs, const pool_geom_t *g,
                               const int64_t *start, const float *v, const char *ws, int ws_dt,
                               int64_t doff, int64_t nl) noexcept nogil:
    """Max: lane ci adds v[ci] at the tap its workspace index names."""
    cdef int64_t ci, k, kd, kh, kw, x, y, z
    for ci in range(nl):
        if ws_dt == dnnl_u8:
            k = (<const uint8_t *>ws)[doff + ci]
        else:
            k = (<const int32_t *>ws)[doff + ci]
        if k < 0 or k >= g.k[0] * g.k[1] * g.k[2]:
            continue
        kw = k % g.k[2]
        kh = (k // g.k[2]) % g.k[1]
        kd = k // (g.k[2] * g.k[1])
        x = start[0] + kd * g.step[0]
        y = start[1] + kh * g.step[1]
        z = start[2] + kw * g.step[2]
        # a window with no element in src points at a padded tap
        if 0 <= x < g.i[0] and 0 <= y < g.i[1] and 0 <= z < g.i[2]:
            ab[x * vs.sd + y * vs.sh + z * vs.sw + ci] += v[ci]


cdef void zero_image(const pool_kernels_t *k, const pool_geom_t *g, float *ab,
                     const pool_view_t *va, int64_t lanes) noexcept nogil:
    """Zeroes `lanes` f32 at every src pixel: one memset where they are
    contiguous, vector stores per row otherwise (a memset per pixel costs
    more than the stores)."""
    cdef int64_t id_, ih
    if (va.sw == lanes and (g.i[1] == 1 or va.sh == g.i[2] * lanes)
            and (g.i[0] == 1 or va.sd == g.i[1] * g.i[2] * lanes)):
        memset(ab, 0, g.i[0] * g.i[1] * g.i[2] * lanes * sizeof(float))
        return
    for id_ in range(g.i[0]):
        for ih in range(g.i[1]):
            k.zero_row(ab + id_ * va.sd + ih * va.sh, va.sw, lanes, g.i[2])


cdef void bwd_block_row(const pool_kernels_t *k, const pool_geom_t *g, const pool_row_t *r,
                        float *ab, const pool_view_t *va, const data_t *diff_dst,
                        const pool_view_t *vd, const char *ws, int ws_dt, int64_t dbase,
                        int64_t od, int64_t oh) noexcept nogil:
    """Output row (od, oh) of one channel block (r.lanes channels, diff_dst
    at dbase) added into its f32 accumulators ab (view va)."""
    cdef int64_t nl = r.lanes
    cdef int64_t wsz = 1 if ws_dt == dnnl_u8 else 4
    cdef int64_t ow, ci, doff
    cdef int64_t run_lo = 0, run_hi = 0
    cdef float div
    cdef int64_t lo[3]
    cdef int64_t hi[3]
    cdef int64_t start[3]
    cdef float v[MAX_LANES]
    start[0] = od * g.s[0] - g.p[0]
    start[1] = oh * g.s[1] - g.p[1]
    tap_range(od, g.s[0], g.p[0], g.step[0], g.k[0], g.i[0], &lo[0], &hi[0])
    tap_range(oh, g.s[1], g.p[1], g.step[1], g.k[1], g.i[1], &lo[1], &hi[1])
    if (r.nt > 0 and inside(start[0], g.k[0], g.step[0], g.i[0])
            and inside(start[1], g.k[1], g.step[1], g.i[1])):
        inside_range(g.o[2], g.s[2], g.p[2], g.k[2], g.step[2], g.i[2], &run_lo, &run_hi)
    for ow in range(g.o[2]):
        if ow == run_lo and run_hi > run_lo:
            # the whole run of inner pixels in one call
            start[2] = run_lo * g.s[2] - g.p[2]
            doff = dbase + od * vd.sd + oh * vd.sh + run_lo * vd.sw
            k.bwd_row(r, ab + start[0] * va.sd + start[1] * va.sh + start[2] * va.sw,
                      g.s[2] * va.sw, diff_dst + doff, vd.sw,
                      ws + doff * wsz if ws != NULL else NULL, run_hi - run_lo)
        if run_lo <= ow < run_hi:
            continue
        start[2] = ow * g.s[2] - g.p[2]
        doff = dbase + od * vd.sd + oh * vd.sh + ow * vd.sw
        for ci in range(nl):
            v[ci] = get(diff_dst, doff + ci)
        if r.is_max:
            scatter_pixel(ab, va, g, start, v, ws, ws_dt, doff, nl)
            continue
        tap_range(ow, g.s[2], g.p[2], g.step[2], g.k[2], g.i[2], &lo[2], &hi[2])
        div = avg_divisor(g, lo, hi)
        for ci in range(nl):
            v[ci] = v[ci] / div
        add_pixel(ab, va, g, lo, hi, start, v, nl)


cdef void bwd_unit(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                   const data_t *diff_dst, const pool_view_t *vd, const char *ws, int ws_dt,
                   data_t *diff_src, const pool_view_t *vs, float *slab,
                   int64_t u) noexcept nogil:
    """diff_src of one (n, block): zero, accumulate in f32 (in place for f32,
    in this thread's slab for bf16), store. Only the channels' lanes add, so
    a tail block's layout padding stays 0."""
    cdef int64_t blk = u % b.nblk
    cdef int64_t n = u // b.nblk
    cdef bint tail = blk == b.nblk - 1
    cdef int64_t nl = b.last if tail else b.cb
    cdef int64_t wl = b.cb if (not tail or b.zero_tail) else nl
    cdef int64_t sbase = n * vs.sn + blk * vs.sc
    cdef int64_t id_, ih, od, oh
    cdef int64_t toff[MAX_TAPS]
    cdef float *ab
    cdef pool_view_t va
    cdef pool_row_t r
    if data_t is float:
        ab = <float *>diff_src + sbase
        va = vs[0]
    else:
        ab = slab
        va.sn = 0
        va.sc = 0
        va.sw = wl
        va.sh = g.i[2] * wl
        va.sd = g.i[1] * g.i[2] * wl
    zero_image(k, g, ab, &va, wl)
    row_init(&r, g, toff, tap_table(g, &va, toff), nl, data_t is not float, ws_dt, 0)
    for od in range(g.o[0]):
        for oh in range(g.o[1]):
            bwd_block_row(k, g, &r, ab, &va, diff_dst, vd, ws, ws_dt,
                          n * vd.sn + blk * vd.sc, od, oh)
    if data_t is not float:
        for id_ in range(g.i[0]):
            for ih in range(g.i[1]):
                k.to_bf16_row(diff_src + sbase + id_ * vs.sd + ih * vs.sh, vs.sw,
                              ab + id_ * va.sd + ih * va.sh, va.sw, wl, g.i[2])


cdef void bwd_image(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                    const data_t *diff_dst, const pool_view_t *vd, const char *ws, int ws_dt,
                    data_t *diff_src, const pool_view_t *vs, float *slab,
                    int64_t n) noexcept nogil:
    """diff_src of one n, every block, where a pixel's blocks are adjacent
    (channels-last): the image is zeroed in one pass, and each output row
    does all blocks while the src rows it touches are in cache (block by
    block over the whole image runs twice as long). f32 accumulates in
    place, bf16 in this thread's slab (a dense f32 image), stored at the end."""
    cdef int64_t blk, od, oh, id_, ih
    cdef int64_t lanes = (b.nblk - 1) * b.cb + (b.cb if b.zero_tail else b.last)
    cdef int64_t toff[MAX_TAPS]
    cdef pool_row_t r
    cdef float *ab
    cdef pool_view_t va
    if data_t is float:
        ab = <float *>diff_src + n * vs.sn
        va = vs[0]
    else:
        ab = slab
        va.sn = 0
        va.sc = b.cb
        va.sw = b.nblk * b.cb
        va.sh = g.i[2] * va.sw
        va.sd = g.i[1] * va.sh
    row_init(&r, g, toff, tap_table(g, &va, toff), b.cb, data_t is not float, ws_dt, 0)
    zero_image(k, g, ab, &va, lanes)
    for od in range(g.o[0]):
        for oh in range(g.o[1]):
            for blk in range(b.nblk):
                r.lanes = b.last if blk == b.nblk - 1 else b.cb
                bwd_block_row(k, g, &r, ab + blk * va.sc, &va, diff_dst, vd, ws, ws_dt,
                              n * vd.sn + blk * vd.sc, od, oh)
    if data_t is not float:     # a pixel's channels are adjacent on both sides
        for id_ in range(g.i[0]):
            for ih in range(g.i[1]):
                k.to_bf16_row(diff_src + n * vs.sn + id_ * vs.sd + ih * vs.sh, vs.sw,
                              ab + id_ * va.sd + ih * va.sh, va.sw, lanes, g.i[2])


cdef bint gather_tables(const pool_geom_t *g, const pool_view_t *vd, int64_t *cbeg,
                        int64_t *coff, int32_t *ctap) noexcept nogil:
    """Each src column's candidate output pixels for bwd_gather (output
    order: kw descending); False when a src pixel can have more candidates
    than CYDNNL_POOL_MAXC."""
    cdef int64_t iw, ih, kw, kh, x, cnt = 0, most = 0, rows = 0, most_rows = 0
    for iw in range(g.i[2]):
        cbeg[iw] = cnt
        kw = g.k[2] - 1
        while kw >= 0:
            x = iw + g.p[2] - kw * g.step[2]
            if x >= 0 and x % g.s[2] == 0 and x // g.s[2] < g.o[2]:
                coff[cnt] = x // g.s[2] * vd.sw
                ctap[cnt] = <int32_t>kw
                cnt += 1
            kw -= 1
        if cnt - cbeg[iw] > most:
            most = cnt - cbeg[iw]
    cbeg[g.i[2]] = cnt
    for ih in range(g.i[1]):
        rows = 0
        for kh in range(g.k[1]):
            x = ih + g.p[1] - kh * g.step[1]
            if x >= 0 and x % g.s[1] == 0 and x // g.s[1] < g.o[1]:
                rows += 1
        if rows > most_rows:
            most_rows = rows
    return most_rows <= CYDNNL_POOL_MAXC and most * most_rows <= CYDNNL_POOL_MAXC


cdef void gather_src_row(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                         pool_gather_t q, bint merged, int64_t nfull, bint bf16,
                         const char *diff_dst, const pool_view_t *vd, const char *ws,
                         char *diff_src, const pool_view_t *vs, int64_t u) noexcept nogil:
    """Src row u = (n, unit, ih) of bwd_gather: merged, all channels as one
    block; nfull > 0, the nfull whole blocks of vector width in one call
    (unit 0) and a tail block (unit 1); else one block a unit. A tail
    block's layout padding lanes get zeros."""
    cdef int64_t nu = 1 if merged else (1 + (b.nblk > nfull) if nfull > 0 else b.nblk)
    cdef int64_t ih = u % g.i[1], blk = (u // g.i[1]) % nu, n = u // (g.i[1] * nu)
    cdef int64_t roff[CYDNNL_POOL_MAXC]
    cdef int32_t rtap[CYDNNL_POOL_MAXC]
    cdef int64_t kh = g.k[1] - 1, y, j, esz = 2 if bf16 else 4, wl
    cdef char *dp
    q.nb = 1
    if nfull > 0 and blk == 1:
        blk = b.nblk - 1
    if merged:
        q.lanes = (b.nblk - 1) * b.cb + b.last
        wl = q.lanes
    elif nfull > 0 and blk == 0:
        q.lanes = b.cb
        q.nb = nfull
        q.dsb = vs.sc
        q.ddb = vd.sc
        wl = b.cb
    else:
        q.lanes = b.last if blk == b.nblk - 1 else b.cb
        wl = b.cb if blk != b.nblk - 1 or b.zero_tail else b.last
    dp = diff_src + (n * vs.sn + blk * vs.sc + ih * vs.sh) * esz
    q.nr = 0
    while kh >= 0:      # output order: kh descending
        y = ih + g.p[1] - kh * g.step[1]
        if y >= 0 and y % g.s[1] == 0 and y // g.s[1] < g.o[1]:
            roff[q.nr] = n * vd.sn + blk * vd.sc + y // g.s[1] * vd.sh
            rtap[q.nr] = <int32_t>(kh * g.k[2])
            q.nr += 1
        kh -= 1
    q.roff = roff
    q.rtap = rtap
    k.gather_row(&q, dp, vs.sw, diff_dst, ws, g.i[2])
    if wl > q.lanes:
        for j in range(g.i[2]):
            memset(dp + (j * vs.sw + q.lanes) * esz, 0, (wl - q.lanes) * esz)


cdef bint bwd_gather(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                     const char *diff_dst, const pool_view_t *vd, const char *ws, int ws_dt,
                     char *diff_src, const pool_view_t *vs, int nthr, bint bf16) noexcept nogil:
    """Max backward with a workspace in 2D by gathering (pool_isa.h): each src
    row written once, no zeroing, no f32 accumulators, rows in parallel.
    False where it does not apply (3D, average, too many candidates)."""
    cdef pool_gather_t q
    cdef int64_t nu = b.nblk, u, nfull = 0
    cdef int64_t *cbeg
    cdef bint ok, merged
    if (g.alg != dnnl_pooling_max or ws == NULL or k.gather_row == NULL or g.i[0] != 1
            or g.o[0] != 1 or g.k[0] != 1):
        return False
    cbeg = <int64_t *>malloc((2 * g.i[2] * g.k[2] + g.i[2] + 1) * sizeof(int64_t))
    if cbeg == NULL:
        return False
    q.coff = cbeg + g.i[2] + 1
    q.ctap = <const int32_t *>(q.coff + g.i[2] * g.k[2])
    ok = gather_tables(g, vd, cbeg, <int64_t *>q.coff, <int32_t *>q.ctap)
    if ok:
        q.cbeg = cbeg
        q.ws_u8 = ws_dt == dnnl_u8
        q.bf16 = bf16
        q.w32 = g.k[2] == 3 and g.s[2] == 2 and g.step[2] == 1 and g.p[2] >= 0
        q.pw, q.ow, q.osw, q.rsd = g.p[2], g.o[2], vd.sw, vs.sh
        # channels-last: a pixel's blocks as one run of all its channels
        merged = vs.sc == b.cb and vd.sc == b.cb and not b.zero_tail
        if merged:
            nu = 1
        elif b.cb == k.width or (b.cb == 8 and k.width == 16):
            # blocks one vector wide (or 8 channels at AVX-512, a vector of 8
            # each): the whole ones together, a vector each
            nfull = b.nblk - (b.last < b.cb)
            if nfull > 1:
                nu = 1 + (b.nblk > nfull)
            else:
                nfull = 0
        for u in prange(g.mb * nu * g.i[1], schedule='static', num_threads=nthr):
            gather_src_row(k, g, b, q, merged, nfull, bf16, diff_dst, vd, ws, diff_src, vs, u)
    free(cbeg)
    return ok


cdef int64_t pool_bwd_slab(const pool_geom_t *g, const pool_blocks_t *b) noexcept nogil:
    # a whole image of f32 (bwd_image), which also holds one block (bwd_unit)
    return g.i[0] * g.i[1] * g.i[2] * b.nblk * b.cb


cdef void bwd_blocked_impl(const pool_kernels_t *k, const pool_geom_t *g,
                           const pool_blocks_t *b, const data_t *diff_dst,
                           const pool_view_t *vd, const char *ws, int ws_dt, data_t *diff_src,
                           const pool_view_t *vs, float *slabs, int nthr) noexcept nogil:
    cdef int64_t u
    cdef int64_t slab = pool_bwd_slab(g, b)
    # whole images where a pixel's blocks are adjacent and the batch spreads
    # evenly enough over the threads
    if (b.nblk > 1 and vs.sc == b.cb and (data_t is float or slabs != NULL)
            and (g.mb % nthr == 0 or g.mb >= 4 * nthr)):
        for u in prange(g.mb, schedule='static', num_threads=nthr):
            bwd_image(k, g, b, diff_dst, vd, ws, ws_dt, diff_src, vs,
                      slabs + threadid() * slab if slabs != NULL else NULL, u)
        return
    for u in prange(g.mb * b.nblk, schedule='static', num_threads=nthr):
        bwd_unit(k, g, b, diff_dst, vd, ws, ws_dt, diff_src, vs,
                 slabs + threadid() * slab if slabs != NULL else NULL, u)


cdef void pool_bwd_blocked(const pool_kernels_t *k, const pool_geom_t *g, const pool_blocks_t *b,
                           const char *diff_dst, const pool_view_t *vd, const char *ws,
                           char *diff_src, const pool_view_t *vs, float *slabs, int nthr,
                           int dt, int ws_dt) noexcept nogil:
    if bwd_gather(k, g, b, diff_dst, vd, ws, ws_dt, diff_src, vs, nthr, dt == dnnl_bf16):
        return
    if dt == dnnl_bf16:
        bwd_blocked_impl(k, g, b, <const bf16_t *>diff_dst, vd, ws, ws_dt, <bf16_t *>diff_src,
                         vs, slabs, nthr)
    else:
        bwd_blocked_impl(k, g, b, <const float *>diff_dst, vd, ws, ws_dt, <float *>diff_src,
                         vs, NULL, nthr)


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
