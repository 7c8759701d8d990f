# Backward data without col2im (kernels/conv_direct.pxd says what each does).

from cython.parallel cimport prange
from libc.stdint cimport int64_t, uint16_t, uint32_t, uintptr_t
from dnnl_c.dnnl_types cimport dnnl_bf16, dnnl_f32
from dnnl_c.kernels.reorder cimport convert_serial
from dnnl_c.kernels.convolution cimport conv_shape_t, conv_layout_t
from dnnl_c.kernels.col2im cimport (col2im_w_t, col2im_w_init, col2im_kernels_t, bdd_t,
                                    bdd_init, bdd_wei_len, bdd_out_len)


# Backward data without col2im works a band of this many flat positions at a
# time (4 tiles of 8 vectors; AlexNet conv1: 9 rows of its grid; bands of
# 1024 ran 2-3% slower on a Zen 5 core, 256 alike).
cdef enum:
    DIRECT_BAND = 512
    DIRECT_ROWS = 16        # rows of a bf16 diff_src rounded at once


cdef inline bint direct_shape(const conv_shape_t *s) noexcept nogil:
    """Backward data without col2im (bwd_data_direct.h) takes 1-D and 2-D
    dense convolutions with a col (a 1x1 without stride or padding has
    none: diff_src is one GEMM)."""
    return (s.id == 1 and s.od == 1 and s.kd == 1 and s.pd == 0 and s.dd == 0 and s.dh == 0
            and s.dw == 0 and s.ph >= 0 and s.pw >= 0
            and not (s.kh == 1 and s.kw == 1 and s.sh == 1 and s.sw == 1 and s.ph == 0
                     and s.pw == 0 and s.oh == s.ih and s.ow == s.iw))


cdef inline bint direct_fits(const conv_shape_t *s, bdd_t *d) noexcept nogil:
    """d set up for s (a group), its buffers' counts under 2^58 floats."""
    cdef double big = 2.0 ** 58
    if (<double>s.icg * s.sh * s.sw * (s.ih / <double>s.sh + 2) * (s.ow + s.kw + 16) > big
            or (<double>s.ocg + 1) * (s.ih / <double>s.sh + s.kh + 2) * (s.ow + s.kw + 16) > big
            or (<double>s.ocg + 1) * s.icg * s.kh * s.kw * s.g > big):
        return False
    bdd_init(d, s.icg, s.ocg, s.ih, s.iw, s.oh, s.ow, s.kh, s.kw, s.sh, s.sw, s.ph, s.pw)
    return True


cdef int64_t direct_floats(const conv_shape_t *s) noexcept nogil:
    """A thread's work without col2im: the phases' sums, packed dY, rows
    to round; 0 where the shape is not direct_shape's or too large (then
    direct_wei_floats is 0 too: not taken)."""
    cdef bdd_t d
    if not direct_shape(s) or not direct_fits(s, &d):
        return 0
    return bdd_out_len(&d) + d.ocp * d.len + DIRECT_ROWS * s.iw + 32


cdef int64_t direct_wei_floats(const conv_shape_t *s) noexcept nogil:
    """Every group's packed weights, shared by the threads (whole lines)."""
    cdef bdd_t d
    if not direct_shape(s) or not direct_fits(s, &d):
        return 0
    return (s.g * bdd_wei_len(&d) + 15) // 16 * 16 + 16


cdef void direct_pack_wei(const conv_shape_t *s, const col2im_kernels_t *kl,
                          const uint16_t *wei, uint32_t *wp) noexcept nogil:
    cdef bdd_t d
    cdef int64_t g
    if not direct_fits(s, &d):
        return
    for g in range(s.g):
        kl.direct_pack_wei(&d, wei + g * s.ocg * s.icg * s.kh * s.kw, wp + g * bdd_wei_len(&d))


cdef inline const float *phase_rows(const conv_shape_t *s, const bdd_t *d, const float *out,
                                   int64_t ic, int64_t ih) noexcept nogil:
    """Input row ih's phase rows of channel ic: phase (ih + ph) % sh, row
    (ih + ph) / sh of its planes, one plane per phase along w apart."""
    return out + ((ih + s.ph) % s.sh * s.sw * s.icg + ic) * d.plane + (ih + s.ph) // s.sh * d.xs


cdef void direct_put_rows(const conv_shape_t *s, conv_layout_t lay, const col2im_kernels_t *kl,
                          const col2im_w_t *cw, const bdd_t *d, const float *out, void *x,
                          int64_t ic, int64_t ih0, int64_t ih1, float *rowbuf) noexcept nogil:
    """Rows ih0 .. ih1 - 1 of input channel ic of x from their phase rows;
    a bf16 x's rounded by stride 4's AVX-512 row pass, else DIRECT_ROWS
    rows at a time (row by row, each rounding's loads waited for the row
    pass's narrower stores: 5% of AlexNet conv1's bf16 time)."""
    cdef int64_t ih, i0, k
    cdef float *y
    if lay.src_dt == dnnl_bf16 and kl.row4_bf16 != NULL and s.sw == 4:
        for ih in range(ih0, ih1):
            kl.row4_bf16(cw, phase_rows(s, d, out, ic, ih),
                         <uint16_t *>x + (ic * s.ih + ih) * s.iw)
        return
    i0 = ih0
    while i0 < ih1:
        k = min(<int64_t>DIRECT_ROWS, ih1 - i0)
        for ih in range(i0, i0 + k):
            y = rowbuf + (ih - i0) * s.iw if lay.src_dt == dnnl_bf16 else \
                <float *>x + (ic * s.ih + ih) * s.iw
            kl.row(cw, phase_rows(s, d, out, ic, ih), y)
        if lay.src_dt == dnnl_bf16:
            convert_serial(<const char *>rowbuf, dnnl_f32,
                           <char *>(<uint16_t *>x + (ic * s.ih + i0) * s.iw), k * s.iw, lay.isa)
        i0 += k


cdef inline int64_t direct_rows(const bdd_t *d, int64_t p1) noexcept nogil:
    """dY's rows the tiles of flat positions below p1 read (their vectors
    whole: up to p1 in 16s)."""
    cdef int64_t last = ((p1 + 15) // 16 * 16 - 1 + d.top * d.xs) // d.xs - d.top
    return min(d.rows, last + 1)


cdef void bwd_data_direct(const conv_shape_t *s, conv_layout_t lay, const col2im_kernels_t *kl,
                          int64_t g, void *x, const uint32_t *wp, const uint16_t *dy,
                          const uint16_t *dy_next, float *work, bint parallel) noexcept nogil:
    """A band of DIRECT_BAND flat positions at a time: the dY rows the band
    reads packed, each phase of diff_src summed onto its plane, then the
    input rows the band completes put into x by col2im's row pass - each
    while in L2 (the whole image's packing, then sums, then rows: 4%
    slower, its packing waiting on memory). AlexNet conv1's bf16: the
    GEMM's K was oc = 96 and col2im's adds 12% of the time."""
    cdef bdd_t d
    cdef col2im_w_t cw
    cdef int64_t t, nt, ic, p0, p1, need, packed = 0, ih_done = 0, ih_new, nxt
    cdef int64_t osp = s.od * s.oh * s.ow, oc_all = s.g * s.ocg
    cdef int64_t cs = 1 if lay.dst_cl else osp, ps = oc_all if lay.dst_cl else 1
    cdef const uint16_t *pf
    if not direct_fits(s, &d):      # the caller asked direct_wei_floats first
        return
    wp += g * bdd_wei_len(&d)
    cdef float *out = <float *>(((<uintptr_t>work) + 63) & ~(<uintptr_t>63))
    cdef uint32_t *dyp = <uint32_t *>(out + bdd_out_len(&d))
    cdef float *rowbuf = <float *>(dyp + d.ocp * d.len)
    # the row pass reads a row's xs positions of each phase, a plane apart
    # (phase_rows)
    col2im_w_init(&cw, s.ow, s.iw, s.kw, s.sw, s.dw, s.pw)
    cw.na = d.xs
    cw.pst = s.icg * d.plane
    if parallel:        # one image for all threads: tiles of 8 vectors
        kl.direct_pack_dy(&d, dy, cs, ps, dyp, 0, d.rows)
        nt = (d.flat + 127) // 128
        for t in prange(nt, schedule='static'):
            kl.direct_span(&d, wp, dyp, out, t * 128, min(t * 128 + 128, d.flat), NULL, 0)
        for ic in range(s.icg):
            direct_put_rows(s, lay, kl, &cw, &d, out, x, ic, 0, s.ih, rowbuf)
        return
    p0 = 0
    while p0 < d.flat:
        p1 = min(p0 + DIRECT_BAND, d.flat)
        need = direct_rows(&d, p1)
        if need > packed:
            kl.direct_pack_dy(&d, dy, cs, ps, dyp, packed, need)
            packed = need
        # the next band's rows (channels-last: whole pixels), or the next job's first
        pf = NULL
        if p1 < d.flat and lay.dst_cl:
            nxt = direct_rows(&d, p1 + DIRECT_BAND)
            pf = dy + need * s.ow * ps
        elif p1 == d.flat and dy_next != NULL:
            nxt = direct_rows(&d, DIRECT_BAND) if lay.dst_cl else s.oh
            need = 0
            pf = dy_next
        kl.direct_span(&d, wp, dyp, out, p0, p1, <const char *>pf,
                       0 if pf == NULL else 2 * (nxt - need) * s.ow * (oc_all if lay.dst_cl
                                                                          else s.ocg))
        # the input rows whose phase rows are complete
        ih_new = s.ih if p1 == d.flat else min(s.ih, p1 // d.xs * s.sh - s.ph)
        for ic in range(s.icg):
            direct_put_rows(s, lay, kl, &cw, &d, out, x, ic, ih_done, ih_new, rowbuf)
        ih_done = max(ih_done, ih_new)
        p0 = p1


