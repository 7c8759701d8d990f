# P^T . B with the patches P of a convolution's source read in place, P^T
# being taps x pixels: a convolution's weight gradient, dW^T = P^T . dY, on
# the calling thread, through the micro-kernels of kernels/gemm.pyx (its
# packing of B and its edge tiles too); and the column sums of B, a weight
# gradient's bias, taken as its blocks pass (gemm.pyx's operand_col_sums).

from libc.stdint cimport int64_t, int32_t, uint16_t, uint32_t
from dnnl_c.kernels.alloc cimport cydnnl_thread_scratch, cydnnl_thread_scratch_done

from dnnl_c.dnnl_types cimport dnnl_bf16
from dnnl_c.kernels.prefetch cimport prefetch_t, prefetch_init, prefetch_add, prefetch_step
from dnnl_c.kernels.patches cimport (tap_of, next_pixels, tap_offsets, BAND_LANES,
                                     cydnnl_spread4, windows_inside)
from dnnl_c.kernels.gemm cimport (gemm_kernel_t, gemm_operand_t, conv_geom_t, OPND_F32,
                                  OPND_BF16, OPND_PATCHES, opnd_get, edge_out, even_split,
                                  pack_b_panels, operand_col_sums)

cdef extern from "kernels/include/gemm_isa.h" nogil:
    enum: MAX_MR "CYDNNL_GEMM_MAX_MR"
    int MAX_NR "CYDNNL_GEMM_MAX_NR"


# -- P^T . B: rows of C are taps, k runs over pixels. A tile of C is
# up to MR taps along one tap index (kw, or the channel) whose elements lie a
# fixed stride apart in src, so the strided micro-kernel reads them where
# they are, pixel after pixel through a table of window origins.

# pixels per k block: each tile of C (the weight gradient) is loaded and
# stored once a block; with 256 the bf16 gradient of AlexNet conv1 took 1.03x
# as long (Zen 4; the f32 one the same)
DEF KCP = 512
# SSE: a block's source span expanded to vectors (patches.pxd's bands) when
# it holds at most this many floats (AlexNet conv1: 139K)
DEF BAND_CAP = 262144
# a pair of bf16 ones (0x3f80)
DEF BF16_ONE_PAIR = 0x3f803f80


cdef inline void tap_run_dim(const conv_geom_t *g, int64_t *count, int64_t *rstride,
                             int64_t *tstride) noexcept nogil:
    """The tap index a tile runs along: kw or the channel, the longer; its
    length, stride in src and stride in tap order."""
    cdef int64_t ksp = g.kd * g.kh * g.kw
    if g.kw >= g.icg:
        count[0], rstride[0] = g.kw, (g.dw + 1) * g.pix_stride
        tstride[0] = g.icg if g.cl else 1
    else:
        count[0], rstride[0] = g.icg, g.c_stride
        tstride[0] = 1 if g.cl else ksp


cdef bint patches_t_in_place(const gemm_kernel_t *uk, const gemm_operand_t *a,
                             int b_dt) noexcept nogil:
    """Whether gemm_patches_t takes this patch operand, with B of data type
    b_dt: every window inside src, tiles of at least 4 taps; f32, or bf16 with
    bf16 B on a level with bf16 dot products."""
    cdef const conv_geom_t *g = a.geom
    cdef int64_t count, rs, ts
    if a.kind != OPND_PATCHES or not windows_inside(g):
        return False
    if a.src_dt == dnnl_bf16:
        if uk.ukernel_bf16_strided == NULL or b_dt != dnnl_bf16:
            return False
    elif uk.ukernel_strided == NULL:
        return False
    tap_run_dim(g, &count, &rs, &ts)
    return count >= 4


cdef void next_block(const gemm_operand_t *a, const gemm_operand_t *b, int64_t n, int64_t p0,
                     int64_t p1, int64_t od, int64_t oh, int64_t ow,
                     prefetch_t *pf) noexcept nogil:
    """What gemm_patches_t's block of pixels p0 .. p1-1 (the first at od, oh,
    ow) reads from memory: B's rows of them, and the span of src their windows
    cover (per channel where channels come first); nothing past 1 MiB. Only
    for bf16 patches, whose pair packing stalls on the source (bf16 weight
    gradient of 32x3x227x227, 11x11/4: 12.2 -> 9.9 ms); f32 ones are read in
    place by the micro-kernel, and gained nothing."""
    cdef const conv_geom_t *g = a.geom
    cdef int64_t es = 2 if a.src_dt == dnnl_bf16 else 4, bs = 2 if b.kind == OPND_BF16 else 4
    cdef int64_t first, last, q = p1 - 1, span
    prefetch_init(pf)
    if p0 >= p1 or b.kind == OPND_PATCHES or a.src_dt != dnnl_bf16:
        return
    if b.trans == b'N':     # pixels are rows of B
        prefetch_add(pf, <const char *>b.ptr + p0 * b.ld * bs, n * bs, p1 - p0, b.ld * bs)
    else:
        prefetch_add(pf, <const char *>b.ptr + p0 * bs, (p1 - p0) * bs, n, b.ld * bs)
    first = ((od * g.sd * g.ih + oh * g.sh) * g.iw + ow * g.sw) * g.pix_stride
    last = (((q // (g.ow * g.oh)) * g.sd * g.ih + (q // g.ow) % g.oh * g.sh) * g.iw
            + q % g.ow * g.sw) * g.pix_stride
    span = last - first + (((g.kd - 1) * (g.dd + 1) * g.ih + (g.kh - 1) * (g.dh + 1)) * g.iw
                           + (g.kw - 1) * (g.dw + 1)) * g.pix_stride
    if g.cl:
        prefetch_add(pf, <const char *>a.ptr + first * es, (span + g.icg) * es, 1, 0)
    else:
        prefetch_add(pf, <const char *>a.ptr + first * es, (span + 1) * es, g.icg,
                     g.c_stride * es)
    if pf.left > 16384:
        prefetch_init(pf)


cdef void gemm_patches_t(const gemm_kernel_t *uk, const gemm_operand_t *a,
                         const gemm_operand_t *b, int64_t n, float beta, float *c,
                         int64_t ldc, float *b_sums, const void *a_next,
                         const void *b_next) noexcept nogil:
    """C (taps x n) = P^T . op(B) + beta * C on the calling thread, P the
    patches of `a` (patches_t_in_place), op(B) pixels x n. bf16 patches go in
    pairs of pixels (two loads each: windows are not adjacent), B in pair
    panels. b_sums (if not NULL) += op(B)'s column sums, taken block by block
    while the block is in cache (a pass over dY after the product read it
    from memory again: 4% of the f32 weight gradient of conv1); with pairs,
    by the product itself where a tile has a spare row (the pass was 2.5% of
    the bf16 weight gradient of AlexNet conv1 on a Zen 5 core). The last
    block asks for the next call's first (a_next, b_next): the first block
    of each image packed from memory, 5% of the bf16 weight gradient."""
    cdef const conv_geom_t *g = a.geom
    cdef bint pairs = a.src_dt == dnnl_bf16
    cdef int64_t npix = g.od * g.oh * g.ow, ntaps = g.icg * g.kd * g.kh * g.kw
    cdef int64_t NR = uk.nr, MR = uk.mr, npan = (n + NR - 1) // NR
    cdef int64_t count, rs, ts, kcb = even_split(npix, KCP, 2 if pairs else 1), pc, kc, p, t, c0, kd, kh, kw
    cdef int64_t kpb = (kcb + 1) // 2, kp, bstep
    cdef int64_t q, rows, ntiles, tj, jr, cols, od, oh, ow, i, j, ri
    cdef int64_t toff[1]
    cdef int64_t quota, steps, run
    cdef int64_t ro[MAX_MR]
    cdef prefetch_t pf
    cdef gemm_operand_t a2, b2
    cdef bint b_in_place, sums_left, ones = False, packing = False
    cdef const float *bf = NULL
    cdef float bt
    cdef float *dst
    cdef int64_t ld
    # SSE: the block's span of src (per channel channels-first, sl floats
    # each) expanded to vectors in `band`, after the rest; borg the windows'
    # origins there
    cdef bint wide = uk.ukernel_wide != NULL and uk.a_lanes == BAND_LANES and not pairs
    cdef size_t rest = (((kcb + kpb) * npan * NR + MAX_MR * MAX_NR + kpb * MAX_MR)
                        * sizeof(float) + (kcb + 1) * sizeof(int64_t) + 127) // 64 * 64
    cdef float *bp = <float *>cydnnl_thread_scratch(
        rest + (BAND_CAP * sizeof(float) + (kcb + 1) * sizeof(int64_t) if wide else 0))
    cdef float *bp2
    cdef uint32_t *apair
    cdef float *edge
    cdef int64_t *org
    cdef bint in_band = False
    cdef int64_t ext, sl = 0, nspan = 1 if g.cl else g.icg, brs = 0, boff
    cdef float *band = NULL
    cdef int64_t *borg = NULL
    if wide and bp != NULL:
        band = <float *>(<char *>bp + rest)
        borg = <int64_t *>(band + BAND_CAP)
    ext = (((g.kd - 1) * (g.dd + 1) * g.ih + (g.kh - 1) * (g.dh + 1)) * g.iw
           + (g.kw - 1) * (g.dw + 1)) * g.pix_stride + (g.icg - 1) * g.c_stride * g.cl + 1
    if bp == NULL:
        for t in range(ntaps):
            for j in range(n):
                bt = 0
                for p in range(npix):
                    bt = bt + opnd_get(a, p, t) * opnd_get(b, p, j)
                c[t * ldc + j] = bt + (0 if beta == 0 else beta * c[t * ldc + j])
        if b_sums != NULL:
            operand_col_sums(uk, b, 0, npix, n, b_sums)
        return
    bp2 = bp + kcb * npan * NR
    edge = bp2 + kpb * npan * NR
    apair = <uint32_t *>(edge + MAX_MR * MAX_NR)
    org = <int64_t *>(apair + kpb * MAX_MR)
    tap_run_dim(g, &count, &rs, &ts)
    # f32 tiles of MR taps across the runs where the level has the kernel
    # for it and the taps' rows of C are consecutive (a run's tiles of 6 and
    # 5 taps, AlexNet conv1's 11 along kw at avx2, were all 6 but a few)
    cdef bint across = (uk.ukernel_strided_rows != NULL and not pairs and band == NULL
                        and ts == 1)
    # f32 B with whole panels' columns side by side in its rows (a
    # channels-last dY) is read in place: packing it was a copy of dY
    b_in_place = not pairs and b.kind == OPND_F32 and b.trans == b'N' and n % NR == 0
    pc = 0
    od = oh = ow = 0
    while pc < npix:
        kc = npix - pc if npix - pc < kcb else kcb
        for p in range(kc):     # window origins of pixels pc ...
            org[p] = ((od * g.sd * g.ih + oh * g.sh) * g.iw + ow * g.sw) * g.pix_stride
            next_pixels(g, 1, &od, &oh, &ow)
        kp = (kc + 1) // 2
        if b_in_place:
            bf = <const float *>b.ptr + pc * b.ld
        else:
            pack_b_panels(uk, b, pc, kc, 0, n, pairs, bp, bp2)
        if pairs:
            org[kc] = -1        # an odd last pixel's zero half
        if band != NULL:
            sl = org[kc - 1] - org[0] + ext
            in_band = nspan * sl * BAND_LANES <= BAND_CAP
            if in_band:
                for i in range(nspan):
                    cydnnl_spread4(<const float *>a.ptr + org[0] + i * g.c_stride, 0, 1, sl,
                                   band + i * sl * BAND_LANES)
                for p in range(kc):
                    borg[p] = (org[p] - org[0]) * BAND_LANES
                # rows along channels-first channels lie in spans sl apart
                brs = (sl if count != g.kw and not g.cl else rs) * BAND_LANES
        bstep = kp * NR if pairs else kc * NR
        bt = beta if pc == 0 else 1.0
        sums_left = b_sums != NULL
        if pc + kc < npix or a_next == NULL or b_next == NULL:
            next_block(a, b, n, pc + kc, min(pc + kc + kcb, npix), od, oh, ow, &pf)
        else:
            a2, b2 = a[0], b[0]
            a2.ptr, b2.ptr = a_next, b_next
            next_block(&a2, &b2, n, 0, kcb, 0, 0, 0, &pf)
        # the next block asked for a run (across: a tile) at a time
        steps = (ntaps + MR - 1) // MR if across else ntaps // count
        quota = (pf.left + steps - 1) // steps
        for ri in range(1 if across else ntaps // count):     # the runs' first taps
            if across:
                t = 0
            elif count == g.kw:
                t = ri // g.icg * g.kw * g.icg + ri % g.icg if g.cl else ri * g.kw
            else:
                t = ri * g.icg if g.cl else ri
            tap_of(g, t, &c0, &kd, &kh, &kw)
            if not across:
                prefetch_step(&pf, quota)
            tap_offsets(g, t, 1, toff)
            boff = (toff[0] + c0 * (sl - g.c_stride) * (not g.cl)) * BAND_LANES
            q = 0
            run = ntaps if across else count
            ntiles = (run + MR - 1) // MR
            while q < run:
                rows = (run - q) // ntiles
                ntiles -= 1
                if across:      # rows: taps q .. q + rows - 1, of any runs
                    prefetch_step(&pf, quota)
                    tap_offsets(g, q, rows, ro)
                if pairs:       # the tile's pairs once for all panels of B
                    # B's column sums as one more row of the block's first
                    # tile with a spare one: a row of ones (bf16 1.0 pairs)
                    ones = sums_left and rows < MR
                    sums_left = sums_left and not ones
                    # taps side by side: packed by the first panel's product
                    packing = rs == 1 and uk.ukernel_bf16_packing != NULL
                    if not packing:
                        uk.pack_pair_rows(<const uint16_t *>a.ptr + toff[0] + q * rs, rs, org,
                                          kp, rows, apair, MR)
                        if ones:
                            for p in range(kp):
                                apair[p * MR + rows] = BF16_ONE_PAIR
                for tj in range(npan):
                    jr = tj * NR
                    cols = n - jr if n - jr < NR else NR
                    if cols == NR and not ones:
                        dst, ld = c + (t + q * ts) * ldc + jr, ts * ldc
                    else:
                        dst, ld = edge, NR
                    if pairs and packing and tj == 0:
                        uk.ukernel_bf16_packing(kp, <const uint16_t *>a.ptr + toff[0] + q * rs,
                                                org, rows, ones, apair, <const uint32_t *>bp2,
                                                dst, ld, 1.0, bt if dst != edge else 0.0)
                    elif pairs:
                        uk.ukernel_bf16(kp, apair, <const uint32_t *>bp2 + tj * bstep, dst, ld,
                                        1.0, bt if dst != edge else 0.0, rows + ones)
                    elif across:
                        uk.ukernel_strided_rows(kc, <const float *>a.ptr, ro, org,
                                                bf + jr if b_in_place else bp + tj * bstep,
                                                b.ld if b_in_place else NR, dst, ld, 1.0,
                                                bt if dst != edge else 0.0, rows, NULL)
                    elif in_band:
                        uk.ukernel_wide(kc, band + boff + q * brs, brs, borg,
                                        bf + jr if b_in_place else bp + tj * bstep,
                                        b.ld if b_in_place else NR, dst, ld, 1.0,
                                        bt if dst != edge else 0.0, rows, NULL)
                    elif b_in_place:
                        uk.ukernel_strided(kc, <const float *>a.ptr + toff[0] + q * rs, rs, org,
                                           bf + jr, b.ld, dst, ld, 1.0, bt, rows, NULL)
                    else:
                        uk.ukernel_strided(kc, <const float *>a.ptr + toff[0] + q * rs, rs, org,
                                           bp + tj * bstep, NR, dst, ld, 1.0,
                                           bt if dst != edge else 0.0, rows, NULL)
                    if dst == edge:
                        edge_out(edge, NR, rows, cols, bt, c + (t + q * ts) * ldc + jr,
                                 ts * ldc)
                        if ones:
                            for j in range(cols):
                                b_sums[jr + j] += edge[rows * NR + j]
                q += rows
        if sums_left:   # no tile had a spare row, or f32: a pass over the block
            operand_col_sums(uk, b, pc, pc + kc, n, b_sums)
        pc += kc
    cydnnl_thread_scratch_done(bp)
