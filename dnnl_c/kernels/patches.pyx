# A convolution's source read as its patch matrix P (one row per output
# pixel, one column per tap: an implicit im2col), for the GEMM's packing and
# its in-place micro-kernels: whole runs of taps or pixels at a time, zeros
# in the padding.

from libc.stdint cimport int64_t, uint16_t

from dnnl_c.dnnl_types cimport dnnl_bf16
from dnnl_c.kernels.bf16 cimport bf16_to_f32
from dnnl_c.kernels.gemm cimport gemm_operand_t, conv_geom_t


cdef inline void gather(const gemm_operand_t *o, int64_t start, int64_t step, float *out,
                        int64_t stride, int64_t n) noexcept nogil:
    """out[i * stride] = source[start + i * step] for i < n, as f32."""
    cdef int64_t i
    cdef const float *f = <const float *>o.ptr + start
    cdef const uint16_t *h = <const uint16_t *>o.ptr + start
    if o.src_dt == dnnl_bf16:
        for i in range(n):
            out[i * stride] = bf16_to_f32(h[i * step])
    else:
        for i in range(n):
            out[i * stride] = f[i * step]


cdef inline void zeros(float *out, int64_t stride, int64_t lo, int64_t hi) noexcept nogil:
    cdef int64_t r
    for r in range(lo, hi):
        out[r * stride] = 0


cdef inline void run_1d(const gemm_operand_t *o, int64_t base, int64_t x, int64_t step,
                        int64_t limit, int64_t pix_stride, float *out, int64_t stride,
                        int64_t n) noexcept nogil:
    """out[r * stride] for r < n: the source at base + (x + r * step) *
    pix_stride where 0 <= x + r * step < limit, else 0."""
    cdef int64_t lo = 0, hi
    if x < 0:
        lo = (-x + step - 1) // step
    hi = (limit - x + step - 1) // step if limit > x else 0
    if hi > n:
        hi = n
    if lo > hi:
        lo = hi
    zeros(out, stride, 0, lo)
    gather(o, base + (x + lo * step) * pix_stride, step * pix_stride, out + lo * stride,
           stride, hi - lo)
    zeros(out, stride, hi, n)


# The packers walk runs along which only one index moves: the fastest tap
# index (ic channels-last, kw channels-first) in a row of P, ow in a column.

cdef void patch_row(const gemm_operand_t *o, int64_t pix, int64_t t0, int64_t count,
                    float *out, int64_t stride) noexcept nogil:
    """out[i * stride] = P[pix, t0 + i]: one output pixel along its taps."""
    cdef const conv_geom_t *g = o.geom
    cdef int64_t c, kd, kh, kw, i = 0, run, x, y, z, base
    cdef int64_t z0 = (pix // (g.oh * g.ow)) * g.sd - g.pd
    cdef int64_t y0 = ((pix // g.ow) % g.oh) * g.sh - g.ph
    cdef int64_t x0 = (pix % g.ow) * g.sw - g.pw
    cdef bint inside
    tap_of(g, t0, &c, &kd, &kh, &kw)
    while i < count:
        z = z0 + kd * (g.dd + 1)
        y = y0 + kh * (g.dh + 1)
        inside = 0 <= z < g.id and 0 <= y < g.ih
        base = (z * g.ih + y) * g.iw
        if g.cl:
            run = g.icg - c if g.icg - c < count - i else count - i
            x = x0 + kw * (g.dw + 1)
            if inside and 0 <= x < g.iw:
                gather(o, (base + x) * g.pix_stride + c * g.c_stride, g.c_stride,
                       out + i * stride, stride, run)
            else:
                zeros(out + i * stride, stride, 0, run)
        else:
            run = g.kw - kw if g.kw - kw < count - i else count - i
            if inside:
                run_1d(o, base * g.pix_stride + c * g.c_stride, x0 + kw * (g.dw + 1), g.dw + 1,
                       g.iw, g.pix_stride, out + i * stride, stride, run)
            else:
                zeros(out + i * stride, stride, 0, run)
        i += run
        next_taps(g, run, &c, &kd, &kh, &kw)


cdef void patch_col(const gemm_operand_t *o, int64_t t, int64_t pix0, int64_t count,
                    float *out, int64_t stride) noexcept nogil:
    """out[i * stride] = P[pix0 + i, t]: one tap along the output pixels."""
    cdef const conv_geom_t *g = o.geom
    cdef int64_t c, kd, kh, kw, i = 0, run, y, z
    cdef int64_t od = pix0 // (g.oh * g.ow), oh = (pix0 // g.ow) % g.oh, ow = pix0 % g.ow
    tap_of(g, t, &c, &kd, &kh, &kw)
    kd = kd * (g.dd + 1) - g.pd
    kh = kh * (g.dh + 1) - g.ph
    kw = kw * (g.dw + 1) - g.pw
    while i < count:
        run = g.ow - ow if g.ow - ow < count - i else count - i
        z = od * g.sd + kd
        y = oh * g.sh + kh
        if 0 <= z < g.id and 0 <= y < g.ih:
            run_1d(o, c * g.c_stride + (z * g.ih + y) * g.iw * g.pix_stride, ow * g.sw + kw,
                   g.sw, g.iw, g.pix_stride, out + i * stride, stride, run)
        else:
            zeros(out + i * stride, stride, 0, run)
        i += run
        next_pixels(g, run, &od, &oh, &ow)


# Fast paths for windows wholly inside src: then tap t of the pixel whose
# window starts at element o is src[o + toff[t]], toff the same for every
# pixel, and the pixels of one output row start sw * pix_stride apart.

cdef void tap_offsets(const conv_geom_t *g, int64_t t0, int64_t count,
                      int64_t *toff) noexcept nogil:
    """toff[t]: tap t0 + t's offset from its window's origin element."""
    cdef int64_t c, kd, kh, kw, t
    tap_of(g, t0, &c, &kd, &kh, &kw)
    for t in range(count):
        toff[t] = c * g.c_stride + ((kd * (g.dd + 1) * g.ih + kh * (g.dh + 1)) * g.iw
                                    + kw * (g.dw + 1)) * g.pix_stride
        next_taps(g, 1, &c, &kd, &kh, &kw)


cdef bint windows_inside(const conv_geom_t *g) noexcept nogil:
    """Whether every output pixel's window lies inside src (no padding)."""
    return (g.pd == 0 and g.ph == 0 and g.pw == 0
            and (g.od - 1) * g.sd + (g.kd - 1) * (g.dd + 1) < g.id
            and (g.oh - 1) * g.sh + (g.kh - 1) * (g.dh + 1) < g.ih
            and (g.ow - 1) * g.sw + (g.kw - 1) * (g.dw + 1) < g.iw)


cdef bint run_inside(const conv_geom_t *g, int64_t pix, int64_t n, int64_t *origin) noexcept nogil:
    """Whether output pixels pix .. pix+n-1 lie on one output row with every
    window inside src; origin: the first window's origin element."""
    cdef int64_t ow = pix % g.ow, oh = (pix // g.ow) % g.oh, od = pix // (g.ow * g.oh)
    cdef int64_t z = od * g.sd - g.pd, y = oh * g.sh - g.ph, x = ow * g.sw - g.pw
    if ow + n > g.ow or z < 0 or y < 0 or x < 0:
        return False
    if (z + (g.kd - 1) * (g.dd + 1) >= g.id or y + (g.kh - 1) * (g.dh + 1) >= g.ih
            or x + (n - 1) * g.sw + (g.kw - 1) * (g.dw + 1) >= g.iw):
        return False
    origin[0] = ((z * g.ih + y) * g.iw + x) * g.pix_stride
    return True


cdef int64_t inside_len(const conv_geom_t *g, int64_t pix) noexcept nogil:
    """How many output pixels from pix on, along its row, have their windows
    inside src (pix's must be: run_inside(g, pix, 1, ...))."""
    cdef int64_t ow = pix % g.ow, x = ow * g.sw - g.pw
    return min(g.ow - ow, (g.iw - 1 - (g.kw - 1) * (g.dw + 1) - x) // g.sw + 1)


cdef void taps_by_pixels(const gemm_operand_t *o, int64_t origin, const int64_t *toff,
                         int64_t ntaps, int64_t npix, float *out, int64_t ld) noexcept nogil:
    """out[t * ld + i] = tap t of pixel i, pixels i of one output row from
    the window at `origin` on."""
    cdef int64_t t, i, base, step = o.geom.sw * o.geom.pix_stride
    cdef const float *f = <const float *>o.ptr
    cdef const uint16_t *h = <const uint16_t *>o.ptr
    for t in range(ntaps):
        base = origin + toff[t]
        if o.src_dt == dnnl_bf16:
            for i in range(npix):
                out[t * ld + i] = bf16_to_f32(h[base + i * step])
        else:
            for i in range(npix):
                out[t * ld + i] = f[base + i * step]


cdef void pixel_runs(const gemm_operand_t *o, int64_t pix0, int64_t npix, int64_t t0,
                     int64_t ntaps, const int64_t *toff, float *out, int64_t ld) noexcept nogil:
    """out[t * ld + i] = P[pix0 + i, t0 + t] (toff: taps t0 ...), by runs
    along output rows: a run whose windows are inside src at once."""
    cdef int64_t i = 0, q, seg, org
    while i < npix:
        seg = o.geom.ow - (pix0 + i) % o.geom.ow
        if seg > npix - i:
            seg = npix - i
        if run_inside(o.geom, pix0 + i, seg, &org):
            taps_by_pixels(o, org, toff, ntaps, seg, out + i, ld)
        else:
            for q in range(seg):
                patch_row(o, pix0 + i + q, t0, ntaps, out + i + q, ld)
        i += seg


cdef void pixels_by_taps(const gemm_operand_t *o, int64_t pix0, int64_t t0, const int64_t *toff,
                         int64_t ntaps, int64_t npix, float *out, int64_t ld) noexcept nogil:
    """out[p * ld + j] = P[pix0 + p, t0 + j] (toff: taps t0 ...)."""
    cdef const conv_geom_t *g = o.geom
    cdef const float *f = <const float *>o.ptr
    cdef const uint16_t *h = <const uint16_t *>o.ptr
    cdef int64_t ow = pix0 % g.ow, oh = (pix0 // g.ow) % g.oh, od = pix0 // (g.ow * g.oh)
    cdef int64_t p = 0, q, j, run, z, y, org, x_end = g.iw - 1 - (g.kw - 1) * (g.dw + 1) + g.pw
    # the output columns whose windows lie inside src along w
    cdef int64_t ow_lo = (g.pw + g.sw - 1) // g.sw
    cdef int64_t ow_hi = x_end // g.sw + 1 if x_end >= 0 else 0
    cdef bint zy_in
    while p < npix:
        run = g.ow - ow if g.ow - ow < npix - p else npix - p
        z = od * g.sd - g.pd
        y = oh * g.sh - g.ph
        zy_in = (z >= 0 and z + (g.kd - 1) * (g.dd + 1) < g.id
                 and y >= 0 and y + (g.kh - 1) * (g.dh + 1) < g.ih)
        for q in range(run):
            if not (zy_in and ow_lo <= ow + q < ow_hi):
                patch_row(o, pix0 + p + q, t0, ntaps, out + (p + q) * ld, 1)
                continue
            org = ((z * g.ih + y) * g.iw + (ow + q) * g.sw - g.pw) * g.pix_stride
            if o.src_dt == dnnl_bf16:
                for j in range(ntaps):
                    out[(p + q) * ld + j] = bf16_to_f32(h[org + toff[j]])
            else:
                for j in range(ntaps):
                    out[(p + q) * ld + j] = f[org + toff[j]]
        p += run
        next_pixels(g, run, &od, &oh, &ow)


# Bands: a line is one (ic, kd, kh) channels-first, one (kd, kh)
# channels-last (its columns then hold all icg channels), as tap_of orders
# the taps: tap t lies on line t // (kw * cw), cw channels a column.

cdef inline int64_t band_cw(const conv_geom_t *g) noexcept nogil:
    return g.icg if g.cl else 1


cdef int64_t band_line_floats(const conv_geom_t *g, int64_t npix) noexcept nogil:
    """A line's floats for npix pixels: their windows' columns, cw channels each."""
    return ((npix - 1) * g.sw + (g.kw - 1) * (g.dw + 1) + 1) * band_cw(g) * BAND_LANES


cdef inline int64_t band_lines(const conv_geom_t *g, int64_t t0, int64_t kc) noexcept nogil:
    cdef int64_t tpl = g.kw * band_cw(g)
    return (t0 + kc - 1) // tpl - t0 // tpl + 1


cdef int64_t band_floats(const conv_geom_t *g, int64_t npix, int64_t t0,
                         int64_t kc) noexcept nogil:
    return band_lines(g, t0, kc) * band_line_floats(g, npix)


cdef int64_t band_offsets(const conv_geom_t *g, int64_t npix, int64_t t0, int64_t kc,
                          int64_t *toff) noexcept nogil:
    """toff[t]: tap t0 + t's offset in a band for npix pixels; returns the
    pixels' stride there."""
    cdef int64_t cw = band_cw(g), tpl = g.kw * cw, lw = band_line_floats(g, npix)
    cdef int64_t t, r
    for t in range(kc):
        r = (t0 + t) % tpl      # kw * cw + c along the line
        toff[t] = ((t0 + t) // tpl - t0 // tpl) * lw + ((r // cw) * (g.dw + 1) * cw
                                                         + r % cw) * BAND_LANES
    return g.sw * cw * BAND_LANES


cdef void expand_band(const gemm_operand_t *o, int64_t origin, int64_t npix, int64_t lw,
                      int64_t t0, int64_t kc, float *band) noexcept nogil:
    """The band of npix pixels from the window at `origin`, lines lw floats
    apart (band_line_floats for at least npix pixels)."""
    cdef const conv_geom_t *g = o.geom
    cdef int64_t cw = band_cw(g), tpl = g.kw * cw, l0 = t0 // tpl, nl = band_lines(g, t0, kc)
    cdef int64_t ncol = (npix - 1) * g.sw + (g.kw - 1) * (g.dw + 1) + 1
    cdef int64_t l, kh, kd, c, x, start
    cdef bint bf16 = o.src_dt == dnnl_bf16
    cdef const char *src = <const char *>o.ptr
    cdef int64_t es = 2 if bf16 else 4
    for l in range(nl):
        kh = (l0 + l) % g.kh
        kd = (l0 + l) // g.kh % g.kd
        c = 0 if g.cl else (l0 + l) // (g.kh * g.kd)
        start = origin + c * g.c_stride + ((kd * (g.dd + 1) * g.ih + kh * (g.dh + 1)) * g.iw
                                           * g.pix_stride)
        if cw == 1:     # a column at a time
            cydnnl_spread4(src + start * es, bf16, g.pix_stride, ncol, band + l * lw)
            continue
        for x in range(ncol):   # a column's channels at a time
            cydnnl_spread4(src + (start + x * g.pix_stride) * es, bf16, g.c_stride, cw,
                           band + l * lw + x * cw * BAND_LANES)
