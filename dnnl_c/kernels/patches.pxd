# A convolution's source read as its patch matrix P (kernels/patches.pyx):
# P[pixel, tap] for the GEMM (kernels/gemm.pyx), whose operand and geometry
# types (gemm.pxd) it reads.

from libc.stdint cimport int64_t

from dnnl_c.kernels.gemm cimport gemm_operand_t, conv_geom_t


cdef inline void tap_of(const conv_geom_t *g, int64_t t, int64_t *c, int64_t *kd,
                        int64_t *kh, int64_t *kw) noexcept nogil:
    cdef int64_t ksp
    if g.cl:
        c[0] = t % g.icg
        ksp = t // g.icg
    else:
        c[0] = t // (g.kd * g.kh * g.kw)
        ksp = t % (g.kd * g.kh * g.kw)
    kw[0] = ksp % g.kw
    kh[0] = (ksp // g.kw) % g.kh
    kd[0] = ksp // (g.kw * g.kh)


cdef inline void next_taps(const conv_geom_t *g, int64_t n, int64_t *c, int64_t *kd,
                           int64_t *kh, int64_t *kw) noexcept nogil:
    """Moves (c, kd, kh, kw) n taps on, n not past the end of the current run."""
    if g.cl:
        c[0] += n
        if c[0] < g.icg:
            return
        c[0] = 0
        kw[0] += 1
    else:
        kw[0] += n
    if kw[0] < g.kw:
        return
    kw[0] = 0
    kh[0] += 1
    if kh[0] < g.kh:
        return
    kh[0] = 0
    kd[0] += 1
    if kd[0] < g.kd or g.cl:
        return
    kd[0] = 0
    c[0] += 1


cdef inline void next_pixels(const conv_geom_t *g, int64_t n, int64_t *od, int64_t *oh,
                             int64_t *ow) noexcept nogil:
    """Moves output pixel (od, oh, ow) n on, n not past the end of its row."""
    ow[0] += n
    if ow[0] < g.ow:
        return
    ow[0] = 0
    oh[0] += 1
    if oh[0] == g.oh:
        oh[0] = 0
        od[0] += 1


# out[i * stride] = P[pix, t0 + i] for i < count: one pixel along its taps.
cdef void patch_row(const gemm_operand_t *o, int64_t pix, int64_t t0, int64_t count,
                    float *out, int64_t stride) noexcept nogil
# out[i * stride] = P[pix0 + i, t]: one tap along the output pixels.
cdef void patch_col(const gemm_operand_t *o, int64_t t, int64_t pix0, int64_t count,
                    float *out, int64_t stride) noexcept nogil
# toff[t]: tap t0 + t's offset from its window's origin element. For windows
# wholly inside src, tap t of the pixel whose window starts at element o is
# src[o + toff[t]], and the pixels of one output row start sw * pix_stride apart.
cdef void tap_offsets(const conv_geom_t *g, int64_t t0, int64_t count,
                      int64_t *toff) noexcept nogil
# Whether every output pixel's window lies inside src (no padding).
cdef bint windows_inside(const conv_geom_t *g) noexcept nogil
# Whether output pixels pix .. pix+n-1 lie on one output row with every
# window inside src; origin: the first window's origin element.
cdef bint run_inside(const conv_geom_t *g, int64_t pix, int64_t n, int64_t *origin) noexcept nogil
# How many pixels from pix on (whose window is inside) along its row have
# their windows inside src.
cdef int64_t inside_len(const conv_geom_t *g, int64_t pix) noexcept nogil
# out[t * ld + i] = P[pix0 + i, t0 + t] (toff: taps t0 ...).
cdef void pixel_runs(const gemm_operand_t *o, int64_t pix0, int64_t npix, int64_t t0,
                     int64_t ntaps, const int64_t *toff, float *out, int64_t ld) noexcept nogil
# out[p * ld + j] = P[pix0 + p, t0 + j] (toff: taps t0 ...).
cdef void pixels_by_taps(const gemm_operand_t *o, int64_t pix0, int64_t t0, const int64_t *toff,
                         int64_t ntaps, int64_t npix, float *out, int64_t ld) noexcept nogil
# Bands (SSE's in-place patches: the forward's tiles in kernels/gemm.pyx; the
# weight gradient, gemm_pt.pyx, takes a block's whole source span, spread4
# alone): the source lines under the windows of npix output pixels of one
# row for taps t0 .. t0+kc, each
# element as 4 floats (BAND_LANES), so that the micro-kernel loads a whole
# vector where it would broadcast (SSE has no broadcast from memory). A
# line's floats for npix pixels, the band's, its tap offsets (returning its
# pixel stride), all in floats, and the copy from the window at `origin`
# (run_inside's), lines lw floats apart.
cdef enum:
    BAND_LANES = 4
# dst[4 i .. 4 i + 3] = src[i * step] (f32, or bf16 where bf16), i < n
cdef extern from "kernels/include/patch_bands.h" nogil:
    void cydnnl_spread4(const void *src, int bf16, int64_t step, int64_t n, float *dst)
cdef int64_t band_line_floats(const conv_geom_t *g, int64_t npix) noexcept nogil
cdef int64_t band_floats(const conv_geom_t *g, int64_t npix, int64_t t0,
                         int64_t kc) noexcept nogil
cdef int64_t band_offsets(const conv_geom_t *g, int64_t npix, int64_t t0, int64_t kc,
                          int64_t *toff) noexcept nogil
cdef void expand_band(const gemm_operand_t *o, int64_t origin, int64_t npix, int64_t lw,
                      int64_t t0, int64_t kc, float *band) noexcept nogil
