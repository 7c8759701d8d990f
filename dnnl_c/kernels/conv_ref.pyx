# Reference convolution kernels on plain dense f32 (the implementation list's
# last). Each loop nest keeps the innermost loop along the output width, where
# the compiler can vectorise, and parallelises over outputs no two threads
# share.

from cython.parallel cimport prange
from libc.stdint cimport int64_t
from libc.string cimport memset

from dnnl_c.kernels.convolution cimport conv_shape_t


cdef inline int64_t div_up(int64_t a, int64_t b) noexcept nogil:
    return -((-a) // b) if a < 0 else (a + b - 1) // b


# The outputs o with 0 <= o*st + k*(d+1) - p < n_in, within [0, n_out), are
# [range_lo, range_hi). (Values, not out-parameters: a variable written
# only through a pointer would be shared between prange threads.)
cdef inline int64_t range_lo(int64_t k, int64_t d, int64_t p, int64_t st) noexcept nogil:
    cdef int64_t a = div_up(p - k * (d + 1), st)
    return a if a > 0 else 0


cdef inline int64_t range_hi(int64_t k, int64_t d, int64_t p, int64_t st, int64_t n_in,
                             int64_t n_out) noexcept nogil:
    cdef int64_t b = div_up(n_in - k * (d + 1) + p, st)
    cdef int64_t lo = range_lo(k, d, p, st)
    b = b if b < n_out else n_out
    return b if b > lo else lo


cdef enum:
    TAPS_FWD = 0        # y += w * x
    TAPS_BWD_DATA = 1   # x += w * y
    TAPS_BWD_WEIGHTS = 2    # w += sum of y * x


cdef void pair_taps(const conv_shape_t *s, float *x, float *y, float *w,
                    int mode) noexcept nogil:
    """Every tap of one (input channel, output channel) pair of an image, x
    and y the pair's planes, w its kd * kh * kw weights, as mode says."""
    cdef int64_t kd, kh, kw, od, oh, ow, lo_w, hi_w, lo_h, hi_h, lo_d, hi_d, ihh, idd
    cdef float *xrow
    cdef float *yrow
    cdef float wt, acc
    for kd in range(s.kd):
        lo_d = range_lo(kd, s.dd, s.pd, s.sd)
        hi_d = range_hi(kd, s.dd, s.pd, s.sd, s.id, s.od)
        for kh in range(s.kh):
            lo_h = range_lo(kh, s.dh, s.ph, s.sh)
            hi_h = range_hi(kh, s.dh, s.ph, s.sh, s.ih, s.oh)
            for kw in range(s.kw):
                lo_w = range_lo(kw, s.dw, s.pw, s.sw)
                hi_w = range_hi(kw, s.dw, s.pw, s.sw, s.iw, s.ow)
                wt = w[(kd * s.kh + kh) * s.kw + kw]
                acc = 0.0
                for od in range(lo_d, hi_d):
                    idd = od * s.sd + kd * (s.dd + 1) - s.pd
                    for oh in range(lo_h, hi_h):
                        ihh = oh * s.sh + kh * (s.dh + 1) - s.ph
                        xrow = x + (idd * s.ih + ihh) * s.iw + kw * (s.dw + 1) - s.pw
                        yrow = y + (od * s.oh + oh) * s.ow
                        if mode == TAPS_FWD:
                            for ow in range(lo_w, hi_w):
                                yrow[ow] += wt * xrow[ow * s.sw]
                        elif mode == TAPS_BWD_DATA:
                            for ow in range(lo_w, hi_w):
                                xrow[ow * s.sw] += wt * yrow[ow]
                        else:
                            for ow in range(lo_w, hi_w):
                                acc = acc + yrow[ow] * xrow[ow * s.sw]
                if mode == TAPS_BWD_WEIGHTS:
                    w[(kd * s.kh + kh) * s.kw + kw] = wt + acc


cdef void conv_fwd_ref(const conv_shape_t *s, const float *src, const float *wei,
                       const float *bias, float *dst) noexcept nogil:
    cdef int64_t in_sp = s.id * s.ih * s.iw, out_sp = s.od * s.oh * s.ow
    cdef int64_t ksz = s.kd * s.kh * s.kw
    cdef int64_t job, n, g, oc, ic, i
    cdef float *dst_c
    cdef float b
    for job in prange(s.mb * s.g * s.ocg, schedule='static'):
        n = job // (s.g * s.ocg)
        g = (job // s.ocg) % s.g
        oc = job % s.ocg
        dst_c = dst + (n * s.g * s.ocg + g * s.ocg + oc) * out_sp
        b = bias[g * s.ocg + oc] if bias != NULL else 0.0
        for i in range(out_sp):
            dst_c[i] = b
        for ic in range(s.icg):
            pair_taps(s, <float *>src + (n * s.g * s.icg + g * s.icg + ic) * in_sp, dst_c,
                      <float *>wei + ((g * s.ocg + oc) * s.icg + ic) * ksz, TAPS_FWD)


cdef void conv_bwd_data_ref(const conv_shape_t *s, float *diff_src, const float *wei,
                            const float *diff_dst) noexcept nogil:
    cdef int64_t in_sp = s.id * s.ih * s.iw, out_sp = s.od * s.oh * s.ow
    cdef int64_t ksz = s.kd * s.kh * s.kw
    cdef int64_t job, n, g, oc, ic
    cdef float *dsrc_c
    for job in prange(s.mb * s.g * s.icg, schedule='static'):
        n = job // (s.g * s.icg)
        g = (job // s.icg) % s.g
        ic = job % s.icg
        dsrc_c = diff_src + (n * s.g * s.icg + g * s.icg + ic) * in_sp
        memset(dsrc_c, 0, in_sp * sizeof(float))
        for oc in range(s.ocg):
            pair_taps(s, dsrc_c, <float *>diff_dst + (n * s.g * s.ocg + g * s.ocg + oc) * out_sp,
                      <float *>wei + ((g * s.ocg + oc) * s.icg + ic) * ksz, TAPS_BWD_DATA)


cdef void conv_bwd_weights_ref(const conv_shape_t *s, const float *src, float *diff_wei,
                               float *diff_bias, const float *diff_dst) noexcept nogil:
    cdef int64_t in_sp = s.id * s.ih * s.iw, out_sp = s.od * s.oh * s.ow
    cdef int64_t ksz = s.kd * s.kh * s.kw
    cdef int64_t job, n, g, oc, ic, i
    cdef float *dw
    cdef const float *ddst_c
    cdef float bacc
    for job in prange(s.g * s.ocg * s.icg, schedule='static'):
        g = job // (s.ocg * s.icg)
        oc = (job // s.icg) % s.ocg
        ic = job % s.icg
        dw = diff_wei + ((g * s.ocg + oc) * s.icg + ic) * ksz
        for i in range(ksz):
            dw[i] = 0.0
        for n in range(s.mb):
            pair_taps(s, <float *>src + (n * s.g * s.icg + g * s.icg + ic) * in_sp,
                      <float *>diff_dst + (n * s.g * s.ocg + g * s.ocg + oc) * out_sp, dw,
                      TAPS_BWD_WEIGHTS)
        if diff_bias != NULL and ic == 0:
            bacc = 0.0
            for n in range(s.mb):
                ddst_c = diff_dst + (n * s.g * s.ocg + g * s.ocg + oc) * out_sp
                for i in range(out_sp):
                    bacc = bacc + ddst_c[i]
            diff_bias[g * s.ocg + oc] = bacc
