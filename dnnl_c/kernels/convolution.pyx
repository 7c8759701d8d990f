# Convolution kernels on GEMM (kernels/convolution.pxd says what each computes).

from cython.parallel cimport prange, threadid
from libc.stdint cimport int64_t, INT64_MAX, SIZE_MAX
from libc.string cimport memset, memcpy

from libc.stdint cimport uint16_t, uint32_t, uintptr_t
from dnnl_c.dnnl_types cimport dnnl_bf16, dnnl_f32
from dnnl_c.kernels.reorder cimport reorder_linear, convert_serial
from dnnl_c.kernels.gemm cimport (gemm_ex, gemm_operand_t, conv_geom_t, matrix_operand, gemm_pack_a,
                                  gemm_packed_a, gemm_packed_a_floats,
                                  patches_operand, operand_col_sums, gemm_writes_bf16,
                                  gemm_ex_bf16)
from dnnl_c.kernels.gemm_pt cimport patches_t_in_place, gemm_patches_t
from dnnl_c.kernels.col2im cimport col2im_w_t, col2im_w_init, col2im_kernels_t, col2im_kernels_for
from dnnl_c.kernels.conv_direct cimport (direct_floats, direct_wei_floats, direct_pack_wei,
                                         bwd_data_direct)
from dnnl_c.kernels.prefetch cimport prefetch_t, prefetch_init, prefetch_add, prefetch_step


# ------------------------------------------------------------ GEMM-based
# Per image and group, the patch matrix A (P x K) holds the input under each
# kernel tap: P output pixels, K = icg*kd*kh*kw taps. The GEMM reads it
# straight from src while packing (no im2col buffer). Then
#   forward          Y = A . W^T          (dst as P x OC, or OC x P)
#   backward data    dA = dY . W, scattered back into diff_src (col2im)
#   backward weights dW (+)= dY^T . A,     db (+)= sums of dY
# with the GEMM's transposes absorbing every orientation.


cdef inline int64_t col_rows(const conv_shape_t *s) noexcept nogil:
    return s.icg * s.kd * s.kh * s.kw


cdef inline int64_t out_spatial(const conv_shape_t *s) noexcept nogil:
    return s.od * s.oh * s.ow


cdef inline int64_t in_spatial(const conv_shape_t *s) noexcept nogil:
    return s.id * s.ih * s.iw


cdef inline bint no_col(const conv_shape_t *s) noexcept nogil:
    """A 1x1 convolution without stride or padding reads src as its own
    patch matrix. Output pixel p must be input pixel p: right padding
    (outputs past the input) would read and write src out of bounds."""
    return (s.kd == 1 and s.kh == 1 and s.kw == 1 and s.sd == 1 and s.sh == 1 and s.sw == 1
            and s.pd == 0 and s.ph == 0 and s.pw == 0
            and s.od == s.id and s.oh == s.ih and s.ow == s.iw)


# Channels-first backward data runs the GEMM on blocks of this many output
# pixels (a multiple of every level's NR: no part-filled tile of C), each
# block's col added into the phases while it is in L2 (AlexNet conv1, Zen 4:
# blocks of 1536 put 2.2 MB of col through L3 and its adds ran at L3's
# bandwidth, 14% of bf16 backward data). W^T is packed once for them all.
cdef enum:
    BWD_DATA_COLS = 384


cdef inline int64_t bwd_data_block_cols(const conv_shape_t *s) noexcept nogil:
    return min(<int64_t>BWD_DATA_COLS, max(out_spatial(s), 1))


cdef inline int64_t phase_floats(const conv_shape_t *s) noexcept nogil:
    """Channels-first backward data's work: the phase rows of every input
    row, then a block's col (col2im_phases.h). -1 past int64."""
    cdef int64_t na = s.ow + (s.kw - 1) * (s.dw + 1) // s.sw + 1
    cdef int64_t rows = s.icg * s.id * s.ih, cols = bwd_data_block_cols(s)
    # each of the four parts under 2^61: their sum fits (packed W^T takes up
    # to 4 floats an element: gemm_packed_a_floats)
    if (rows != 0 and s.sw * na > INT64_MAX // 4 // rows
            or cols != 0 and col_rows(s) > INT64_MAX // 4 // cols
            or col_rows(s) + 16 > INT64_MAX // 16 // max(s.ocg + 1, 1)
            or s.iw > INT64_MAX // 4):
        return -1
    return (rows * s.sw * na + col_rows(s) * cols + gemm_packed_a_floats(col_rows(s), s.ocg)
            + s.iw)


cdef size_t conv_gemm_work(const conv_shape_t *s, int direction, int nthr) noexcept nogil:
    """Forward reads its patches in place; backward data scatters a column
    buffer (channels-last) or adds into phase rows (channels-first) per
    thread, or without col2im sums phases (bwd_data_direct.h) per thread
    from every group's weights packed once; backward weights accumulates
    per thread. SIZE_MAX
    when the count does not fit int64 (each factor is a tensor's, the
    product need not be)."""
    cdef int64_t a, b
    if direction == CONV_FWD:   # an f32 image per thread, for a bf16 dst
        a, b = out_spatial(s), s.ocg
    elif direction == CONV_BWD_DATA:    # channels-last's col, or channels-first's phases
        a, b = col_rows(s), out_spatial(s)
        if phase_floats(s) < 0 or (a != 0 and b > INT64_MAX // a):
            return SIZE_MAX     # either does not fit (a * b would wrap)
        if max(phase_floats(s), direct_floats(s)) > a * b:
            a, b = 1, max(phase_floats(s), direct_floats(s))
    else:
        a, b = s.g * s.ocg, col_rows(s) + 1
    # (halved: room for the direct path's shared weights below)
    if a != 0 and b > INT64_MAX // a // max(nthr, 1) // 2 or b < 0:
        return SIZE_MAX
    if direction == CONV_BWD_DATA:      # and the weights packed for backward data's direct path
        return a * b * nthr + direct_wei_floats(s)
    return a * b * nthr


cdef inline int64_t tap_pixel(const conv_shape_t *s, int64_t od, int64_t oh, int64_t ow,
                              int64_t kd, int64_t kh, int64_t kw) noexcept nogil:
    """The input pixel under a tap, or -1 in the padding."""
    cdef int64_t idd = od * s.sd + kd * (s.dd + 1) - s.pd
    cdef int64_t ihh = oh * s.sh + kh * (s.dh + 1) - s.ph
    cdef int64_t iww = ow * s.sw + kw * (s.dw + 1) - s.pw
    if idd < 0 or idd >= s.id or ihh < 0 or ihh >= s.ih or iww < 0 or iww >= s.iw:
        return -1
    return (idd * s.ih + ihh) * s.iw + iww


cdef void col2im_cl(const conv_shape_t *s, const float *colt, float *src,
                    int64_t ic_stride) noexcept nogil:
    """Channels-last: src[id, ih, iw, ic] = sum of its colT entries (this
    group's channels only)."""
    cdef int64_t pix, od, oh, ow, kd, kh, kw, ic
    cdef const float *row = colt
    cdef float *dst
    for pix in range(in_spatial(s)):
        memset(src + pix * ic_stride, 0, s.icg * sizeof(float))
    for od in range(s.od):
        for oh in range(s.oh):
            for ow in range(s.ow):
                for kd in range(s.kd):
                    for kh in range(s.kh):
                        for kw in range(s.kw):
                            pix = tap_pixel(s, od, oh, ow, kd, kh, kw)
                            if pix >= 0:
                                dst = src + pix * ic_stride
                                for ic in range(s.icg):
                                    dst[ic] += row[ic]
                            row += s.icg


cdef inline gemm_operand_t patches(const conv_shape_t *s, conv_layout_t lay, const void *x,
                                   conv_geom_t *geom) noexcept nogil:
    """The patch matrix P (pixels x taps) of the image's group whose first
    input channel is at x, read in place: a 1x1 convolution's src is P."""
    cdef int64_t ic_all = s.g * s.icg
    if no_col(s):
        if lay.src_cl:
            return matrix_operand(x, lay.src_dt, b'N', ic_all)
        return matrix_operand(x, lay.src_dt, b'T', out_spatial(s))
    geom.icg = s.icg
    geom.id, geom.ih, geom.iw = s.id, s.ih, s.iw
    geom.od, geom.oh, geom.ow = s.od, s.oh, s.ow
    geom.kd, geom.kh, geom.kw = s.kd, s.kh, s.kw
    geom.sd, geom.sh, geom.sw = s.sd, s.sh, s.sw
    geom.dd, geom.dh, geom.dw = s.dd, s.dh, s.dw
    geom.pd, geom.ph, geom.pw = s.pd, s.ph, s.pw
    geom.cl = lay.src_cl
    geom.c_stride = 1 if lay.src_cl else in_spatial(s)
    geom.pix_stride = ic_all if lay.src_cl else 1
    return patches_operand(x, lay.src_dt, geom, b'N')


cdef inline gemm_operand_t transposed(gemm_operand_t o) noexcept nogil:
    o.trans = b'T' if o.trans == b'N' else b'N'
    return o


cdef inline void gemm(const conv_layout_t *lay, bint parallel, gemm_operand_t a,
                      gemm_operand_t b, int64_t m, int64_t n, int64_t k, float beta, float *c,
                      int64_t ldc, const float *bias=NULL) noexcept nogil:
    gemm_ex(lay.uk, m, n, k, 1.0, &a, &b, beta, c, ldc, parallel, bias)


cdef inline const void *at(const void *x, int dt, int64_t i) noexcept nogil:
    """&x[i] for an f32 or bf16 tensor."""
    return <const char *>x + i * (2 if dt == dnnl_bf16 else 4)


cdef inline int64_t src_group(const conv_shape_t *s, conv_layout_t lay, int64_t n,
                              int64_t g) noexcept nogil:
    return n * s.g * s.icg * in_spatial(s) + (g * s.icg if lay.src_cl
                                              else g * s.icg * in_spatial(s))


cdef inline int64_t dst_group(const conv_shape_t *s, conv_layout_t lay, int64_t n,
                              int64_t g) noexcept nogil:
    return n * s.g * s.ocg * out_spatial(s) + (g * s.ocg if lay.dst_cl
                                               else g * s.ocg * out_spatial(s))


cdef inline void fwd_one(const conv_shape_t *s, conv_layout_t lay, int64_t g, const void *x,
                         const void *wei, const float *bias, float *y,
                         bint parallel) noexcept nogil:
    """Group g of the image at x into y: its place in dst, or (bf16 dst) an
    image buffer."""
    cdef int64_t k = col_rows(s), osp = out_spatial(s), oc_all = s.g * s.ocg, oc, p
    cdef conv_geom_t geom
    cdef gemm_operand_t a = patches(s, lay, at(x, lay.src_dt, src_group(s, lay, 0, g)), &geom)
    cdef gemm_operand_t w = matrix_operand(at(wei, lay.wei_dt, g * s.ocg * k), lay.wei_dt, b'N', k)
    if lay.dst_cl:      # Y (P x OCg, ld OC) = A . W^T + bias, added to each tile of Y
        gemm(&lay, parallel, a, transposed(w), osp, s.ocg, k, 0.0, y, oc_all,
             NULL if bias == NULL else bias + g * s.ocg)
    else:               # Y (OCg x P) = W . A^T
        gemm(&lay, parallel, w, transposed(a), s.ocg, osp, k, 0.0, y, osp)
        if bias != NULL:
            for oc in range(s.ocg):
                for p in range(osp):
                    y[oc * osp + p] += bias[g * s.ocg + oc]


cdef bint conv_fwd_widens(const gemm_kernel_t *uk, bint dst_cl) noexcept nogil:
    """Whether the forward widens a bf16 src an image at a time: where the
    kernels have no bf16 dot products, and at sse41 but into channels-first
    dst (into channels-last its bands widen src as they copy it). Converted
    whole up front, AlexNet conv1's bf16 mb32 src went through memory as
    20 MB of f32."""
    return uk.ukernel_bf16 == NULL and not (uk.ukernel_wide != NULL and dst_cl)


cdef inline const void *fwd_image(const conv_shape_t *s, conv_layout_t lay, bint widen,
                                  const void *src, int64_t n, float *buf) noexcept nogil:
    """Image n of src as the GEMM reads it (widened into buf where widen)."""
    cdef int64_t ni = s.g * s.icg * in_spatial(s)
    if widen:
        return widened(src, lay.src_dt, n, ni, buf, lay.isa)
    return at(src, lay.src_dt, n * ni)


cdef void conv_fwd_gemm(const conv_shape_t *s, conv_layout_t lay, const void *src,
                        const void *wei, const float *bias, void *dst, float *work,
                        int nthr) noexcept nogil:
    cdef int64_t jobs = s.mb * s.g, job, n
    cdef int64_t per = out_spatial(s) * s.ocg, wf = conv_gemm_widen(s, CONV_FWD)
    # a bf16 src the kernels do not read: each thread's image widened after
    # the threads' f32 images, every group of it then run (wl: lay with src f32)
    cdef bint widen = lay.src_dt == dnnl_bf16 and conv_fwd_widens(lay.uk, lay.dst_cl)
    cdef float *wide = <float *>(((<uintptr_t>(work + nthr * per)) + 63) & ~(<uintptr_t>63))
    cdef conv_layout_t wl = lay
    if widen:
        wl.src_dt = dnnl_f32
    if lay.dst_dt == dnnl_bf16:     # one f32 image per thread, rounded into dst
        if s.mb >= nthr:
            for n in prange(s.mb, schedule='static', num_threads=nthr):
                fwd_bf16_image(s, wl, n, fwd_image(s, lay, widen, src, n, wide + threadid() * wf),
                               wei, bias, <uint16_t *>dst, work + threadid() * per, False)
        else:
            for n in range(s.mb):
                fwd_bf16_image(s, wl, n, fwd_image(s, lay, widen, src, n, wide), wei, bias,
                               <uint16_t *>dst, work, True)
    elif widen:
        if s.mb >= nthr:
            for n in prange(s.mb, schedule='static', num_threads=nthr):
                fwd_groups(s, wl, n, fwd_image(s, lay, widen, src, n, wide + threadid() * wf),
                           wei, bias, <float *>dst, False)
        else:
            for n in range(s.mb):
                fwd_groups(s, wl, n, fwd_image(s, lay, widen, src, n, wide), wei, bias,
                           <float *>dst, True)
    elif jobs >= nthr:
        for job in prange(jobs, schedule='static', num_threads=nthr):
            fwd_one(s, lay, job % s.g, fwd_image(s, lay, False, src, job // s.g, NULL), wei,
                    bias, <float *>dst + dst_group(s, lay, job // s.g, job % s.g), False)
    else:
        for job in range(jobs):
            fwd_one(s, lay, job % s.g, fwd_image(s, lay, False, src, job // s.g, NULL), wei,
                    bias, <float *>dst + dst_group(s, lay, job // s.g, job % s.g), True)


cdef inline void fwd_groups(const conv_shape_t *s, conv_layout_t lay, int64_t n, const void *x,
                            const void *wei, const float *bias, float *dst,
                            bint parallel) noexcept nogil:
    """Every group of image n (its src at x) into dst."""
    cdef int64_t g
    for g in range(s.g):
        fwd_one(s, lay, g, x, wei, bias, dst + dst_group(s, lay, n, g), parallel)


cdef inline void fwd_bf16_image(const conv_shape_t *s, conv_layout_t lay, int64_t n,
                                const void *x, const void *wei, const float *bias,
                                uint16_t *dst, float *buf, bint parallel) noexcept nogil:
    """Image n (its src at x; one group: the image is one dense span of dst in either
    orientation) into bf16 dst: channels-last where gemm_writes_bf16, each
    tile rounded as it is stored (AlexNet conv1 bf16 mb32 on one Zen 4 core:
    33.0 -> 32.0 ms, 88% -> 90% of twice the peak; the f32 image, 1.2 MB,
    went through L3 and a pass of its own); else through the f32 buffer."""
    cdef int64_t per = out_spatial(s) * s.ocg, rows = out_spatial(s), length = s.ocg, t, blk
    cdef uint16_t *y = dst + n * per
    cdef conv_geom_t geom
    cdef gemm_operand_t a, w
    if lay.dst_cl:
        a = patches(s, lay, x, &geom)
        w = transposed(matrix_operand(wei, lay.wei_dt, b'N', col_rows(s)))
        if gemm_writes_bf16(lay.uk, col_rows(s), &a, &w):
            gemm_ex_bf16(lay.uk, rows, s.ocg, col_rows(s), &a, &w, y, s.ocg, parallel, bias)
            return
    # channels-last: the bias added as the kernels store each tile (a pass of
    # its own was 3% of AlexNet conv1's bf16 forward)
    fwd_one(s, lay, 0, x, wei, bias if lay.dst_cl else NULL, buf, parallel)
    if lay.dst_cl:
        bias = NULL
    else:
        rows, length = s.ocg, out_spatial(s)
    # (bias and) rounding in one pass, a block of rows at a time while it is in
    # cache (separate passes each read the image's f32 buffer again)
    blk = max(1, 8192 // length)
    if parallel:
        for t in prange((rows + blk - 1) // blk, schedule='static'):
            round_rows(buf, y, bias, t * blk, min(t * blk + blk, rows), length, lay)
    else:
        for t in range((rows + blk - 1) // blk):
            round_rows(buf, y, bias, t * blk, min(t * blk + blk, rows), length, lay)


cdef inline void round_rows(float *buf, uint16_t *y, const float *bias, int64_t r0, int64_t r1,
                            int64_t length, conv_layout_t lay) noexcept nogil:
    """Rows r0 .. r1-1 of an image's f32 buffer plus bias into bf16: rows are
    pixels of channels (channels-last) or channels of pixels."""
    cdef int64_t r, i
    cdef float *row
    if bias != NULL:
        for r in range(r0, r1):
            row = buf + r * length
            if lay.dst_cl:
                for i in range(length):
                    row[i] += bias[i]
            else:
                for i in range(length):
                    row[i] += bias[r]
    convert_serial(<const char *>(buf + r0 * length), dnnl_f32, <char *>(y + r0 * length),
                   (r1 - r0) * length, lay.isa)


cdef bint conv_bwd_data_writes_bf16(const conv_shape_t *s, bint src_cl) noexcept nogil:
    return not src_cl and not no_col(s)


cdef inline bint direct_ok(const conv_shape_t *s, conv_layout_t lay) noexcept nogil:
    """Whether backward data runs without col2im: channels-first, bf16 dY
    and W, at a level with bf16 dot products."""
    cdef const col2im_kernels_t *kl = col2im_kernels_for(lay.isa)
    return (not lay.src_cl and lay.wei_dt == dnnl_bf16 and lay.dst_dt == dnnl_bf16
            and direct_wei_floats(s) > 0 and kl != NULL and kl.direct_span != NULL)


cdef inline void bwd_data_one(const conv_shape_t *s, conv_layout_t lay, int64_t n, int64_t g,
                              void *diff_src, const void *wei, const void *diff_dst,
                              float *col, bint parallel, int64_t job_next,
                              const uint32_t *wp=NULL) noexcept nogil:
    """Image n, group g; wp: every group's weights packed for the direct
    path (NULL: not direct_ok)."""
    cdef int64_t k = col_rows(s), osp = out_spatial(s), oc_all = s.g * s.ocg
    cdef int64_t ic_all = s.g * s.icg
    cdef gemm_operand_t w = matrix_operand(at(wei, lay.wei_dt, g * s.ocg * k), lay.wei_dt, b'N', k)
    # dY as P x OCg
    cdef gemm_operand_t dy = matrix_operand(at(diff_dst, lay.dst_dt, dst_group(s, lay, n, g)),
                                            lay.dst_dt, b'N' if lay.dst_cl else b'T',
                                            oc_all if lay.dst_cl else osp)
    cdef void *x = <void *>at(diff_src, lay.src_dt, src_group(s, lay, n, g))
    if wp != NULL:
        bwd_data_direct(s, lay, col2im_kernels_for(lay.isa), g, x, wp,
                        <const uint16_t *>at(diff_dst, lay.dst_dt, dst_group(s, lay, n, g)),
                        <const uint16_t *>at(diff_dst, lay.dst_dt, dst_group(
                            s, lay, job_next // s.g, job_next % s.g)) if job_next >= 0 else NULL,
                        col, parallel)
    elif lay.src_cl:    # dA (P x K) = dY . W
        if no_col(s):
            gemm(&lay, parallel, dy, w, osp, k, s.ocg, 0.0, <float *>x, ic_all)
        else:
            gemm(&lay, parallel, dy, w, osp, k, s.ocg, 0.0, col, k)
            col2im_cl(s, col, <float *>x, ic_all)
    elif no_col(s):     # dA (K x P) = W^T . dY^T
        gemm(&lay, parallel, transposed(w), transposed(dy), k, osp, s.ocg, 0.0, <float *>x,
             osp)
    else:
        bwd_data_phases(s, lay, w, dy, x, col, parallel,
                        at(diff_dst, lay.dst_dt, dst_group(s, lay, job_next // s.g,
                                                          job_next % s.g))
                        if job_next >= 0 else NULL)


cdef inline void next_dy_prefetch(const conv_shape_t *s, conv_layout_t lay,
                                  const gemm_operand_t *dy, int64_t q0, int64_t q1,
                                  prefetch_t *pf) noexcept nogil:
    """Output pixels q0 .. q1 - 1 of dY (the next block's), to be asked for
    into cache a slice at a time while this block's col is added: from memory,
    packing them stalled on every line (6% of AlexNet conv1's bf16 backward
    data)."""
    cdef int64_t es = 2 if lay.dst_dt == dnnl_bf16 else 4
    prefetch_init(pf)
    if q1 <= q0:
        return
    if not lay.dst_cl:      # OCg rows of pixels
        prefetch_add(pf, at(dy.ptr, lay.dst_dt, q0), (q1 - q0) * es, s.ocg, dy.ld * es)
    elif dy.ld == s.ocg:    # one group: the pixels' channels are one span
        prefetch_add(pf, at(dy.ptr, lay.dst_dt, q0 * dy.ld), (q1 - q0) * dy.ld * es, 1, 0)
    else:
        prefetch_add(pf, at(dy.ptr, lay.dst_dt, q0 * dy.ld), s.ocg * es, q1 - q0, dy.ld * es)


cdef void bwd_data_cut_row(const conv_shape_t *s, const col2im_kernels_t *kl,
                           const col2im_w_t *cw, float *phases, const float *col, int64_t ncols,
                           int64_t r, int64_t o0, int64_t n, int64_t c0) noexcept nogil:
    """Columns o0 .. o0 + n - 1 of output row r (at column c0 of the block's
    col): per input channel and kd, its kernel rows inside src as one run
    of add_rows - all share the row's masks (one by one, the rows a block
    cuts took a third of the adds' time)."""
    cdef int64_t od = r // s.oh, oh = r % s.oh, kh0 = 0, kh1 = s.kh, ic, kd, idd
    cdef int64_t per_row = s.sw * cw.na
    while kh0 < s.kh and oh * s.sh + kh0 * (s.dh + 1) - s.ph < 0:
        kh0 += 1
    while kh1 > kh0 and oh * s.sh + (kh1 - 1) * (s.dh + 1) - s.ph >= s.ih:
        kh1 -= 1
    if kh0 == kh1:
        return
    for ic in range(s.icg):
        for kd in range(s.kd):
            idd = od * s.sd + kd * (s.dd + 1) - s.pd
            if idd < 0 or idd >= s.id:
                continue
            kl.add_rows(cw, phases + ((ic * s.id + idd) * s.ih + oh * s.sh
                                      + kh0 * (s.dh + 1) - s.ph) * per_row,
                        (s.dh + 1) * per_row,
                        col + ((ic * s.kd + kd) * s.kh + kh0) * s.kw * ncols + c0,
                        s.kw * ncols, ncols, o0, n, kh1 - kh0)


cdef void bwd_data_phases(const conv_shape_t *s, conv_layout_t lay, gemm_operand_t w,
                          gemm_operand_t dy, void *x, float *work, bint parallel,
                          const void *dy_next) noexcept nogil:
    """Channels-first dA (K x P) = W^T . dY^T a block of output pixels at a
    time, each block's taps added into the phase rows of the input rows they
    land on while the block is in cache; then each input row of x from its
    phases (col2im_phases.h), rounded into bf16 there for a bf16 x. A whole
    image's col (AlexNet conv1: 4.4 MB) went through memory, then a scalar
    scatter. The last block asks for dy_next's first (the thread's next
    image; NULL: none), whose packing stalled on memory (3% of AlexNet
    conv1's bf16 backward data on Zen 5)."""
    cdef col2im_w_t cw
    col2im_w_init(&cw, s.ow, s.iw, s.kw, s.sw, s.dw, s.pw)
    cdef int64_t k = col_rows(s), osp = out_spatial(s), nb = bwd_data_block_cols(s)
    cdef int64_t per_row = s.sw * cw.na, rows_in = s.icg * s.id * s.ih
    cdef int64_t p0, p1, ncols, r, nr, o0, o1, ic, kd, kh, od, oh, idd, ihh, row, at0, quota
    cdef prefetch_t pf
    cdef gemm_operand_t dy_n
    cdef float *phases = work
    cdef float *col = work + rows_in * per_row
    # W^T packed once for all blocks (each block packed it again: 5% of
    # AlexNet conv1's bf16 backward data, and kept the blocks large)
    cdef float *wp = col + k * nb
    cdef float *rowbuf = wp + gemm_packed_a_floats(k, s.ocg)
    cdef gemm_operand_t wt = transposed(w)
    cdef gemm_operand_t dyt = transposed(dy)
    # the level's: built wherever its GEMM kernel is (gemm_init asks for that)
    cdef const col2im_kernels_t *kl = col2im_kernels_for(lay.isa)
    memset(phases, 0, rows_in * per_row * sizeof(float))
    gemm_pack_a(lay.uk, &wt, &dyt, k, s.ocg, wp)
    p0 = 0
    while p0 < osp:
        p1 = min(p0 + nb, osp)
        ncols = p1 - p0
        dyt.ptr = at(dy.ptr, lay.dst_dt, p0 * (dy.ld if lay.dst_cl else 1))
        gemm_packed_a(lay.uk, k, ncols, s.ocg, 1.0, &wt, wp, &dyt, 0.0, col, ncols, parallel)
        if p1 < osp or dy_next == NULL:
            next_dy_prefetch(s, lay, &dy, p1, min(p1 + nb, osp), &pf)
        else:       # the next image's first block
            dy_n = dy
            dy_n.ptr = dy_next
            next_dy_prefetch(s, lay, &dy_n, 0, min(nb, osp), &pf)
        quota = pf.left // max(s.icg * s.kd * s.kh, 1) + 1
        for ic in range(s.icg):
            for kd in range(s.kd):
                for kh in range(s.kh):
                    prefetch_step(&pf, quota)
                    # the whole output rows in the block
                    r = (p0 + s.ow - 1) // s.ow
                    while (r + 1) * s.ow <= p1:
                        od = r // s.oh
                        oh = r % s.oh
                        idd = od * s.sd + kd * (s.dd + 1) - s.pd
                        ihh = oh * s.sh + kh * (s.dh + 1) - s.ph
                        nr = 1
                        if idd < 0 or idd >= s.id or ihh < 0 or ihh >= s.ih:
                            r += 1
                            continue
                        row = (ic * s.id + idd) * s.ih + ihh
                        # tap 0's column 0 of output row r in the block's col
                        at0 = ((ic * s.kd + kd) * s.kh + kh) * s.kw * ncols + r * s.ow - p0
                        # the whole rows after it in the block, of this od and
                        # inside src, their input rows sh apart
                        while ((r + nr + 1) * s.ow <= p1 and (r + nr) % s.oh != 0
                               and ihh + nr * s.sh < s.ih):
                            nr += 1
                        kl.add_rows(&cw, phases + row * per_row, s.sh * per_row, col + at0,
                                    s.ow, ncols, 0, s.ow, nr)
                        r += nr
        # the rows the block cuts (its first and last at most)
        r = p0 // s.ow
        while r <= (p1 - 1) // s.ow:
            o0 = max(p0 - r * s.ow, 0)
            o1 = min(p1 - r * s.ow, s.ow)
            if o1 - o0 < s.ow:
                bwd_data_cut_row(s, kl, &cw, phases, col, ncols, r, o0, o1 - o0,
                                 r * s.ow + o0 - p0)
            r = max(r + 1, (p1 - 1) // s.ow)
        prefetch_step(&pf, -1)
        p0 = p1
    if lay.src_dt == dnnl_bf16:     # no f32 diff_src to round in a second pass
        for row in range(rows_in):
            # stride 4 straight into bf16 at AVX-512 (else the f32 row's
            # narrow stores held up the rounding's loads)
            if kl.row4_bf16 == NULL or not kl.row4_bf16(&cw, phases + row * per_row,
                                                        <uint16_t *>x + row * s.iw):
                kl.row(&cw, phases + row * per_row, rowbuf)
                convert_serial(<const char *>rowbuf, dnnl_f32,
                               <char *>(<uint16_t *>x + row * s.iw), s.iw, lay.isa)
    else:
        for row in range(rows_in):
            kl.row(&cw, phases + row * per_row, <float *>x + row * s.iw)


cdef void bwd_data_image(const conv_shape_t *s, conv_layout_t lay, conv_layout_t wl,
                         int64_t n, void *diff_src, const void *wei, const void *diff_dst,
                         float *col, float *buf, bint parallel) noexcept nogil:
    """Image n, every group, its bf16 diff_dst widened into buf first (wl:
    lay with diff_dst f32); as image 0 of the widened copy and of diff_src
    from image n on (a group's offset does not depend on n)."""
    cdef int64_t g
    cdef const void *dy = widened(diff_dst, lay.dst_dt, n, s.g * s.ocg * out_spatial(s), buf,
                                  lay.isa)
    cdef void *x = <void *>at(diff_src, lay.src_dt, src_group(s, lay, n, 0))
    for g in range(s.g):
        bwd_data_one(s, wl, 0, g, x, wei, dy, col, parallel, -1)


cdef void conv_bwd_data_gemm(const conv_shape_t *s, conv_layout_t lay, void *diff_src,
                             const void *wei, const void *diff_dst, float *work,
                             int nthr) noexcept nogil:
    cdef int64_t jobs = s.mb * s.g, job, n
    # a thread's part, then the direct path's shared packed weights
    cdef int64_t shared = direct_wei_floats(s)
    cdef size_t per = conv_gemm_work(s, CONV_BWD_DATA, 1) - shared
    cdef uint32_t *wp = NULL
    # a bf16 diff_dst without bf16 dot products: widened an image at a time
    # by each thread (converted whole up front, AlexNet conv1's bf16 mb32
    # diff_dst went through memory as 37 MB of f32)
    cdef float *wide = <float *>(((<uintptr_t>(work + nthr * per + shared)) + 63)
                                 & ~(<uintptr_t>63))
    cdef int64_t wf = conv_gemm_widen(s, CONV_BWD_DATA)
    cdef conv_layout_t wl = lay
    if lay.uk.ukernel_bf16 == NULL and lay.dst_dt == dnnl_bf16:
        wl.dst_dt = dnnl_f32
        if s.mb >= nthr:
            for n in prange(s.mb, schedule='static', num_threads=nthr):
                bwd_data_image(s, lay, wl, n, diff_src, wei, diff_dst, work + threadid() * per,
                               wide + threadid() * wf, False)
        else:
            for n in range(s.mb):
                bwd_data_image(s, lay, wl, n, diff_src, wei, diff_dst, work, wide, True)
        return
    if direct_ok(s, lay):       # each group's weights packed once
        wp = <uint32_t *>(((<uintptr_t>(work + nthr * per)) + 63) & ~(<uintptr_t>63))
        direct_pack_wei(s, col2im_kernels_for(lay.isa), <const uint16_t *>wei, wp)
    if jobs >= nthr:
        for job in prange(jobs, schedule='static', num_threads=nthr):
            # the next job is this thread's but at the end of its share
            bwd_data_one(s, lay, job // s.g, job % s.g, diff_src, wei, diff_dst,
                         work + threadid() * per, False, job + 1 if job + 1 < jobs else -1, wp)
    else:
        for job in range(jobs):
            bwd_data_one(s, lay, job // s.g, job % s.g, diff_src, wei, diff_dst, work, True,
                         job + 1 if job + 1 < jobs else -1, wp)


cdef bint bwd_weights_in_place(const conv_shape_t *s, conv_layout_t lay, int nthr) noexcept nogil:
    """Whether the weight gradient reads its patches in place, as dW^T (taps
    x OCg, per group) = P^T . dY: one thread per image, so with images for
    every thread."""
    cdef conv_geom_t geom
    cdef gemm_operand_t a = patches(s, lay, <const void *>NULL, &geom)
    return (nthr < 2 or s.mb >= 2) and patches_t_in_place(lay.uk, &a, lay.dst_dt)


cdef inline void bwd_weights_one(const conv_shape_t *s, conv_layout_t lay, int64_t n, int64_t g,
                                 const void *src, float *acc_w, float *acc_b,
                                 const void *diff_dst, bint first, bint parallel,
                                 bint in_place, int64_t n_next, int64_t g_next) noexcept nogil:
    """acc_w[g] (+)= dY^T . A (in_place: its transpose) and acc_b[g] (+)=
    sums of dY (acc_b NULL: no bias), for image n; (n_next, g_next) the
    group this thread does next (n_next < 0: none), asked for into cache
    while this one ends."""
    cdef int64_t k = col_rows(s), osp = out_spatial(s), oc_all = s.g * s.ocg, oc
    cdef conv_geom_t geom
    cdef gemm_operand_t a = patches(s, lay, at(src, lay.src_dt, src_group(s, lay, n, g)), &geom)
    cdef const void *dy = at(diff_dst, lay.dst_dt, dst_group(s, lay, n, g))
    cdef float *b = NULL
    # dY^T as OCg x P; A as P x K
    cdef gemm_operand_t dyt = matrix_operand(dy, lay.dst_dt, b'T' if lay.dst_cl else b'N',
                                             oc_all if lay.dst_cl else osp)
    cdef gemm_operand_t dy_op = transposed(dyt)      # dY as P x OCg
    if acc_b != NULL:
        b = acc_b + g * s.ocg
        if first:
            for oc in range(s.ocg):
                b[oc] = 0
    if in_place:        # the bias sums too, while dY's rows are in cache
        gemm_patches_t(lay.uk, &a, &dy_op, s.ocg, 0.0 if first else 1.0,
                       acc_w + g * s.ocg * k, s.ocg, b,
                       at(src, lay.src_dt, src_group(s, lay, n_next, g_next))
                       if n_next >= 0 else NULL,
                       at(diff_dst, lay.dst_dt, dst_group(s, lay, n_next, g_next))
                       if n_next >= 0 else NULL)
        return
    gemm(&lay, parallel, dyt, a, s.ocg, k, osp, 0.0 if first else 1.0,
         acc_w + g * s.ocg * k, k)
    if b != NULL:
        operand_col_sums(lay.uk, &dy_op, 0, osp, s.ocg, b)


cdef inline int64_t lines(int64_t floats) noexcept nogil:
    """floats rounded up to whole 64-byte lines (the GEMM's vector loads of a
    widened image split lines at any other start: 4% slower at sse41)"""
    return (floats + 15) // 16 * 16


cdef inline int64_t widened_floats(const conv_shape_t *s) noexcept nogil:
    """An image of src and one of diff_dst widened, each in whole lines."""
    return lines(s.g * s.icg * in_spatial(s)) + lines(s.g * s.ocg * out_spatial(s))


cdef size_t conv_gemm_widen(const conv_shape_t *s, int direction) noexcept nogil:
    # a line more for the start of them all
    if direction == CONV_BWD_WEIGHTS:
        return widened_floats(s) + 16
    if direction == CONV_BWD_DATA:      # diff_dst alone
        return lines(s.g * s.ocg * out_spatial(s)) + 16
    return lines(s.g * s.icg * in_spatial(s)) + 16     # forward's src


cdef inline bint widens(conv_layout_t lay) noexcept nogil:
    return lay.uk.ukernel_bf16 == NULL and (lay.src_dt == dnnl_bf16 or lay.dst_dt == dnnl_bf16)


cdef inline const void *widened(const void *x, int dt, int64_t n, int64_t count, float *buf,
                                int isa) noexcept nogil:
    """Image n (count elements) of x as the GEMM reads it: a bf16 one widened
    into buf (its f32 copy then addressed as image 0), an f32 one in place."""
    if dt == dnnl_bf16:
        convert_serial(<const char *>(<const uint16_t *>x + n * count), dnnl_bf16,
                       <char *>buf, count, isa)
        return buf
    return <const float *>x + n * count


cdef void bwd_weights_images(const conv_shape_t *s, conv_layout_t lay, conv_layout_t wl,
                             bint widen, const void *src, const void *diff_dst, int64_t n0,
                             int64_t n1, float *acc_w, float *acc_b, float *buf, bint parallel,
                             bint in_place) noexcept nogil:
    """Images n0 .. n1 - 1 into acc_w and acc_b (the first one sets them), as
    the GEMM reads them: widened into buf where widen (src, then diff_dst a
    line on; wl: lay with their types f32)."""
    cdef int64_t ni = s.g * s.icg * in_spatial(s), no = s.g * s.ocg * out_spatial(s), n, g, nn
    cdef int64_t n_next
    cdef const void *src_n = src
    cdef const void *dy_n = diff_dst
    for n in range(n0, n1):
        nn = n
        if widen:
            src_n = widened(src, lay.src_dt, n, ni, buf, lay.isa)
            dy_n = widened(diff_dst, lay.dst_dt, n, no, buf + lines(ni), lay.isa)
            nn = 0
        for g in range(s.g):
            # next: this image's next group, else the next image's first (a
            # widened image is in buf alone)
            n_next = nn if g + 1 < s.g else (-1 if widen or n + 1 >= n1 else n + 1)
            bwd_weights_one(s, wl, nn, g, src_n, acc_w, acc_b, dy_n, n == n0, parallel,
                            in_place, n_next, (g + 1) % s.g)


cdef void conv_bwd_weights_gemm(const conv_shape_t *s, conv_layout_t lay, const void *src,
                                float *diff_wei, float *diff_bias, const void *diff_dst,
                                float *work, int nthr) noexcept nogil:
    cdef int64_t k = col_rows(s), nw = s.g * s.ocg * k, nb = s.g * s.ocg
    cdef size_t per = conv_gemm_work(s, CONV_BWD_WEIGHTS, 1)
    cdef int64_t t, i, r, n0, n1, chunk
    cdef float *acc
    # bf16 inputs without bf16 dot products: each thread widens an image at a
    # time into f32 after all threads' accumulators (the whole tensors
    # converted up front, 57 MB of f32 at bf16 mb32, went through memory:
    # AlexNet conv1 at avx512_core ran at 74% of the f32 peak, f32 at 86%)
    cdef bint widen = widens(lay)
    cdef float *wide = <float *>(((<uintptr_t>(work + nthr * per)) + 63) & ~(<uintptr_t>63))
    cdef conv_layout_t wl = lay
    if widen:
        wl.src_dt = wl.dst_dt = dnnl_f32
    cdef bint in_place = bwd_weights_in_place(s, wl, nthr)
    if s.mb < 2 or nthr < 2:
        # one accumulator, parallel GEMMs
        bwd_weights_images(s, lay, wl, widen, src, diff_dst, 0, s.mb,
                           work if in_place else diff_wei,
                           work + nw if diff_bias != NULL else NULL, wide, True, in_place)
        if in_place:
            for r in prange(nb, schedule='static', num_threads=nthr):
                for t in range(k):
                    diff_wei[r * k + t] = work[transposed_at(s, r, t)]
        if diff_bias != NULL:
            memcpy(diff_bias, work + nw, nb * sizeof(float))
        return
    # images split across threads, each with its own accumulators, then summed
    if nthr > s.mb:
        nthr = <int>s.mb
    chunk = (s.mb + nthr - 1) // nthr
    for t in prange(nthr, schedule='static', num_threads=nthr):
        acc = work + t * per
        n0 = t * chunk
        n1 = n0 + chunk if n0 + chunk < s.mb else s.mb
        bwd_weights_images(s, lay, wl, widen, src, diff_dst, n0, n1, acc,
                           acc + nw if diff_bias != NULL else NULL, wide + t * widened_floats(s),
                           False, in_place)
    for r in prange(nb, schedule='static', num_threads=nthr):
        for t in range(k):
            diff_wei[r * k + t] = sum_threads(
                work + (transposed_at(s, r, t) if in_place else r * k + t), per, nthr, chunk,
                s.mb)
    if diff_bias != NULL:
        for i in range(nb):
            diff_bias[i] = sum_threads(work + nw + i, per, nthr, chunk, s.mb)


cdef inline int64_t transposed_at(const conv_shape_t *s, int64_t r, int64_t t) noexcept nogil:
    """Where tap t of weight row r (g * OCg + oc) is in an accumulator of dW^T
    per group."""
    return (r - r % s.ocg) * col_rows(s) + t * s.ocg + r % s.ocg


cdef inline float sum_threads(const float *p, size_t stride, int nthr, int64_t chunk,
                              int64_t mb) noexcept nogil:
    cdef float acc = 0
    cdef int t
    for t in range(nthr):
        if t * chunk < mb:      # threads past the last image have nothing
            acc = acc + p[t * stride]
    return acc
