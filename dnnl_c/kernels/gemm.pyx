# SGEMM after Goto and van de Geijn: B is packed in kc x NR panels, A in
# MR x kc panels, and an MR x NR tile of C stays in registers while the
# micro-kernel walks k. The micro-kernel is a small C function with GCC vector
# extensions (plain C loops elsewhere), in kernels/include/gemm_kernels.h,
# compiled once per ISA level (kernels/isa/gemm_isa.c; its tile size depends
# on the level); blocking, packing and threading are Cython.

from cython.parallel cimport prange
from libc.stdint cimport int64_t, int32_t, uint16_t, uint32_t
from dnnl_c.kernels.alloc cimport cydnnl_thread_scratch, cydnnl_thread_scratch_done

from dnnl_c.dnnl_types cimport dnnl_f32, dnnl_bf16
from dnnl_c.kernels.bf16 cimport bf16_to_f32, f32_to_bf16

from dnnl_c.kernels.prefetch cimport prefetch_rows_w
from dnnl_c.kernels.openmp cimport omp_get_max_threads
from dnnl_c.kernels.patches cimport (patch_row, patch_col, tap_offsets, run_inside, pixel_runs,
                                     windows_inside,
                                     pixels_by_taps, inside_len, BAND_LANES, band_line_floats,
                                     band_floats, band_offsets, expand_band)

cdef extern from "kernels/include/gemm_isa.h" nogil:
    enum: MAX_MR "CYDNNL_GEMM_MAX_MR"
    int MAX_NR "CYDNNL_GEMM_MAX_NR"
    const gemm_kernel_t *kernel_for "cydnnl_gemm_kernel_for"(int level)

# The largest blocks; a product takes equal blocks up to these (even_split).
DEF KC = 256
DEF MC = 96          # a multiple of every level's MR (6 and 12)
DEF NC = 4096        # a multiple of every level's NR (8, 16, 32)
DEF KMAX = 1024      # the largest k block of patches read in place
DEF MAX_A_LANES = 4  # the most floats a level's packed A takes an element (SSE)


cdef const gemm_kernel_t *gemm_kernel_for(int isa) noexcept nogil:
    return kernel_for(isa)


cdef gemm_operand_t matrix_operand(const void *ptr, int dt, char trans, int64_t ld) noexcept nogil:
    cdef gemm_operand_t o
    o.kind = OPND_BF16 if dt == dnnl_bf16 else OPND_F32
    o.ptr = ptr
    o.ld = ld
    o.trans = trans
    o.src_dt = dt
    o.geom = NULL
    return o


cdef gemm_operand_t patches_operand(const void *src, int dt, const conv_geom_t *geom,
                                   char trans) noexcept nogil:
    cdef gemm_operand_t o
    o.kind = OPND_PATCHES
    o.ptr = src
    o.ld = 0
    o.trans = trans
    o.src_dt = dt
    o.geom = geom
    return o


# -- reading operands

cdef inline float mat_get(const gemm_operand_t *o, int64_t r, int64_t c) noexcept nogil:
    """op(X)[r, c] of a matrix operand."""
    cdef int64_t i = r * o.ld + c if o.trans == b'N' else c * o.ld + r
    if o.kind == OPND_BF16:
        return bf16_to_f32((<const uint16_t *>o.ptr)[i])
    return (<const float *>o.ptr)[i]


ctypedef fused elem_t:
    float
    uint16_t        # bf16


cdef inline void copy2d(const elem_t *src, int64_t s_outer, int64_t s_inner, float *dst,
                        int64_t d_outer, int64_t d_inner, int64_t n_outer,
                        int64_t n_inner) noexcept nogil:
    """dst[o * d_outer + i * d_inner] = src[o * s_outer + i * s_inner], as f32."""
    cdef int64_t o, i
    for o in range(n_outer):
        if s_inner == 1 and d_inner == 1:   # unit strides vectorize
            for i in range(n_inner):
                if elem_t is float:
                    dst[o * d_outer + i] = src[o * s_outer + i]
                else:
                    dst[o * d_outer + i] = bf16_to_f32(src[o * s_outer + i])
        else:
            for i in range(n_inner):
                if elem_t is float:
                    dst[o * d_outer + i * d_inner] = src[o * s_outer + i * s_inner]
                else:
                    dst[o * d_outer + i * d_inner] = bf16_to_f32(src[o * s_outer + i * s_inner])


cdef inline void copy_mat(const gemm_operand_t *x, int64_t start, int64_t s_outer, float *dst,
                          int64_t d_outer, int64_t d_inner, int64_t n_outer,
                          int64_t n_inner) noexcept nogil:
    """copy2d from a matrix operand, element `start` on, inner stride 1."""
    if x.kind == OPND_BF16:
        copy2d(<const uint16_t *>x.ptr + start, s_outer, 1, dst, d_outer, d_inner, n_outer,
               n_inner)
    else:
        copy2d(<const float *>x.ptr + start, s_outer, 1, dst, d_outer, d_inner, n_outer,
               n_inner)


cdef float opnd_get(const gemm_operand_t *o, int64_t r, int64_t c) noexcept nogil:
    cdef float v
    if o.kind != OPND_PATCHES:
        return mat_get(o, r, c)
    if o.trans == b'N':
        patch_row(o, r, c, 1, &v, 1)
    else:
        patch_col(o, r, c, 1, &v, 1)
    return v


cdef inline void expand_lanes(float *x, int64_t n, int lanes) noexcept nogil:
    """x[:n] -> each element `lanes` times over x[:n * lanes], in place (from
    the end: element i is read before anything lands on it)."""
    cdef int64_t i
    cdef int l
    cdef float v
    if lanes <= 1:
        return
    i = n - 1
    while i >= 0:
        v = x[i]
        for l in range(lanes):
            x[i * lanes + l] = v
        i -= 1


cdef void pack_a(const gemm_kernel_t *uk, const gemm_operand_t *a, int64_t i0, int64_t mc,
                 int64_t p0, int64_t kc, float *ap) noexcept nogil:
    """op(A)[i0:i0+mc, p0:p0+kc] into MR-row panels, zero rows past mc, each
    element uk.a_lanes times (ap holds that many times the panels)."""
    pack_a_plain(uk, a, i0, mc, p0, kc, ap)
    expand_lanes(ap, (mc + uk.mr - 1) // uk.mr * uk.mr * kc, uk.a_lanes)


cdef void pack_a_plain(const gemm_kernel_t *uk, const gemm_operand_t *a, int64_t i0, int64_t mc,
                       int64_t p0, int64_t kc, float *ap) noexcept nogil:
    """op(A)[i0:i0+mc, p0:p0+kc] into MR-row panels, zero rows past mc."""
    cdef int64_t t, r0, i, p, rows, MR = uk.mr
    cdef int64_t toff[KMAX]
    if a.kind == OPND_F32 and a.trans == b'T':     # op(A)'s columns are contiguous
        uk.pack_cols(<const float *>a.ptr + p0 * a.ld + i0, a.ld, kc, mc, ap, MR)
        return
    if a.kind == OPND_PATCHES and a.trans == b'N':
        tap_offsets(a.geom, p0, kc, toff)
    for t in range((mc + MR - 1) // MR):
        r0 = i0 + t * MR
        rows = i0 + mc - r0 if i0 + mc - r0 < MR else MR
        if a.kind == OPND_PATCHES:
            if a.trans == b'N':
                pixel_runs(a, r0, rows, p0, kc, toff, ap, MR)
            else:       # rows are taps r0 ..., k runs over pixels p0 ...
                tap_offsets(a.geom, r0, rows, toff)
                pixels_by_taps(a, p0, r0, toff, rows, kc, ap, MR)
        elif a.trans == b'N' and a.kind == OPND_F32:   # rows of A are contiguous
            uk.pack_rows(<const float *>a.ptr + r0 * a.ld + p0, a.ld, rows, kc, ap, MR)
            ap += kc * MR
            continue
        elif a.trans == b'N':
            copy_mat(a, r0 * a.ld + p0, a.ld, ap, 1, MR, rows, kc)
        else:
            copy_mat(a, p0 * a.ld + r0, a.ld, ap, MR, 1, kc, rows)
        if rows < MR:
            for p in range(kc):
                for i in range(rows, MR):
                    ap[p * MR + i] = 0
        ap += kc * MR


cdef void pack_b(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t p0, int64_t kc,
                 int64_t j0, int64_t nc, float *bp) noexcept nogil:
    """op(B)[p0:p0+kc, j0:j0+nc] into NR-column panels, zero columns past nc."""
    cdef int64_t t, c0, j, p, cols, NR = uk.nr
    cdef int64_t toff[KMAX]
    if b.kind == OPND_F32 and b.trans == b'N':
        uk.pack_cols(<const float *>b.ptr + p0 * b.ld + j0, b.ld, kc, nc, bp, NR)
        return
    if b.kind == OPND_PATCHES and b.trans == b'T':
        tap_offsets(b.geom, p0, kc, toff)
    for t in range((nc + NR - 1) // NR):
        c0 = j0 + t * NR
        cols = j0 + nc - c0 if j0 + nc - c0 < NR else NR
        if b.kind == OPND_PATCHES:
            if b.trans == b'N':     # columns are taps c0 ..., k runs over pixels p0 ...
                tap_offsets(b.geom, c0, cols, toff)
                pixels_by_taps(b, p0, c0, toff, cols, kc, bp, NR)
            else:
                pixel_runs(b, c0, cols, p0, kc, toff, bp, NR)
        elif b.trans == b'N':
            copy_mat(b, p0 * b.ld + c0, b.ld, bp, NR, 1, kc, cols)
        elif b.kind == OPND_F32:    # columns of op(B) are contiguous rows
            uk.pack_rows(<const float *>b.ptr + c0 * b.ld + p0, b.ld, cols, kc, bp, NR)
            bp += kc * NR
            continue
        else:
            copy_mat(b, c0 * b.ld + p0, b.ld, bp, 1, NR, cols, kc)
        if cols < NR:
            for p in range(kc):
                for j in range(cols, NR):
                    bp[p * NR + j] = 0
        bp += kc * NR


# -- the blocked product

cdef void edge_out(const float *edge, int64_t NR, int64_t rows, int64_t cols, float beta,
                   float *c, int64_t ldc) noexcept nogil:
    """A tile short of columns, computed into the scratch tile, into C."""
    cdef int64_t i, j
    for i in range(rows):
        for j in range(cols):
            if beta == 0:
                c[i * ldc + j] = edge[i * NR + j]
            else:
                c[i * ldc + j] = edge[i * NR + j] + beta * c[i * ldc + j]


cdef inline void add_bias(float *c, int64_t ldc, int64_t rows, int64_t cols,
                          const float *bias) noexcept nogil:
    """c[i, j] += bias[j] over a block of C still in cache."""
    cdef int64_t i, j
    for i in range(rows):
        for j in range(cols):
            c[i * ldc + j] += bias[j]


cdef void macro_kernel(const gemm_kernel_t *uk, int64_t mc, int64_t nc, int64_t kc,
                       float alpha, const float *ap, const float *bp, float beta, float *c,
                       int64_t ldc, float *edge, bint pairs, int64_t bps) noexcept nogil:
    """C[mc x nc] from packed panels: f32 panels, or (pairs) bf16 pair panels
    of kp = ceil(kc / 2) rows (uk.ukernel_bf16); B's panels start bps
    elements apart."""
    cdef int64_t tj, ti, ir, jr, rows, cols, i, j
    cdef int64_t MR = uk.mr, NR = uk.nr, kp = (kc + 1) // 2
    cdef float *dst
    cdef int64_t ld
    for tj in range((nc + NR - 1) // NR):
        jr = tj * NR
        cols = nc - jr if nc - jr < NR else NR
        for ti in range((mc + MR - 1) // MR):
            ir = ti * MR
            rows = mc - ir if mc - ir < MR else MR
            # the kernel writes the first `rows` rows; a tile short of columns
            # goes through a scratch tile
            if cols == NR:
                dst, ld = c + ir * ldc + jr, ldc
            else:
                dst, ld = edge, NR
            if pairs:
                uk.ukernel_bf16(kp, <const uint32_t *>ap + ir * kp,
                                <const uint32_t *>bp + tj * bps, dst, ld, alpha,
                                beta if dst != edge else 0.0, rows)
            else:
                uk.ukernel(kc, ap + ir * kc * uk.a_lanes, bp + tj * bps, dst, ld, alpha,
                           beta if dst != edge else 0.0, rows)
            if dst == edge:
                edge_out(edge, NR, rows, cols, beta, c + ir * ldc + jr, ldc)


cdef int64_t pair_runs(int64_t *toff, int64_t kc, int32_t *runs) noexcept nogil:
    """The runs of ukernel_bf16_strided for taps toff[:kc] taken in pairs
    (toff[kc] becomes -1 when kc is odd: the last pair's zero half)."""
    cdef int64_t q, nruns = 0
    cdef int32_t step
    if kc % 2:
        toff[kc] = -1
    for q in range((kc + 1) // 2):
        step = 1 if 2 * q + 1 < kc and toff[2 * q + 1] == toff[2 * q] + 1 else -1
        if nruns > 0 and (runs[nruns - 1] > 0) == (step > 0):
            runs[nruns - 1] += step
        else:
            runs[nruns] = step
            nruns += 1
    return nruns


cdef void macro_kernel_patches(const gemm_kernel_t *uk, const gemm_operand_t *a, int64_t i0,
                               int64_t mc, int64_t p0, int64_t kc, const int64_t *toff,
                               int64_t nc, float alpha, const float *bp, float beta, float *c,
                               int64_t ldc, float *ap, float *edge, bint pairs,
                               const int32_t *runs, int64_t nruns, float *ap2,
                               const float *bias, uint16_t *cb) noexcept nogil:
    """C[i0 : i0+mc, :nc] (c at row i0) with patches as A: tiles cut at
    output-row ends into near-equal heights (55 pixels as 5 x 11, not
    4 x 12 + 7), or, where every window lies inside src and the level has
    ukernel_strided_rows, across them (all of mr rows but a few); a tile
    whose windows lie inside src is read there in place
    (ukernel_strided; with pairs, bf16 patches by ukernel_bf16_strided over
    `runs`, B in pair panels), any other is packed into ap (and ap2) first.
    bias (if not NULL, nc long) is added as the kernel (f32 or bf16) stores
    a tile read in place (a pass over the image's dst cost 2% of f32 conv1),
    after any other. cb (not NULL: beta 0, c unused): C is bf16, each tile
    computed into the scratch tile and rounded there."""
    cdef const conv_geom_t *g = a.geom
    cdef int64_t MR = uk.mr, NR = uk.nr, rs = g.sw * g.pix_stride
    cdef int64_t kp = (kc + 1) // 2
    cdef int64_t bstep = kp * NR if pairs else kc * NR
    cdef int64_t i = 0, seg, ntiles, q, rows, org, tj, jr, cols, r, j
    cdef int64_t ro[MAX_MR]
    cdef bint inside, in_band, across
    cdef float *dst
    cdef const float *kb
    cdef float b_beta
    cdef int64_t ld
    # SSE: tiles read from bands (patches.pxd) of up to band_pix pixels,
    # after the tile panel in ap; band_p0 .. band_p1 the current band's
    cdef int64_t band_pix = 0, band_rs = 0, band_p0 = 0, band_p1 = 0
    cdef int64_t boff[KMAX]
    cdef float *band = ap + MAX_MR * kc * uk.a_lanes
    if uk.ukernel_wide != NULL and uk.a_lanes == BAND_LANES and not pairs:
        band_pix = g.ow
        while band_pix > 0 and band_floats(g, band_pix, p0, kc) > (MC - MAX_MR) * kc * uk.a_lanes:
            band_pix //= 2
        if band_pix > 0:
            band_rs = band_offsets(g, band_pix, p0, kc, boff)
    # tiles across output rows: f32 read in place, every window inside
    cdef bint rows_ok = (uk.ukernel_strided_rows != NULL and band_pix == 0 and not pairs
                         and a.src_dt != dnnl_bf16 and windows_inside(g))
    while i < mc:
        seg = g.ow - (i0 + i) % g.ow
        if seg > mc - i or rows_ok:
            seg = mc - i
        ntiles = (seg + MR - 1) // MR
        q = 0
        while q < seg:
            rows = (seg - q) // ntiles
            ntiles -= 1
            inside = run_inside(g, i0 + i + q, rows, &org)
            across = rows_ok and not inside
            if across:      # every window is inside: each row's origin
                for r in range(rows):
                    run_inside(g, i0 + i + q + r, 1, &ro[r])
                inside = True
            in_band = False
            if inside and band_pix > 0:
                if i0 + i + q < band_p0 or i0 + i + q + rows > band_p1:
                    band_p0 = i0 + i + q        # a band from this tile on
                    band_p1 = band_p0 + min(band_pix, seg - q, inside_len(g, band_p0))
                    if band_p1 - band_p0 >= rows:
                        expand_band(a, org, band_p1 - band_p0, band_line_floats(g, band_pix),
                                    p0, kc, band)
                    else:
                        band_p1 = band_p0       # none
                in_band = band_p0 <= i0 + i + q and i0 + i + q + rows <= band_p1
            if a.src_dt == dnnl_bf16 and not pairs:     # in place only from a band
                inside = in_band
            if not inside:
                pixel_runs(a, i0 + i + q, rows, p0, kc, toff, ap, MR)
                for r in range(kc):
                    for j in range(rows, MR):
                        ap[r * MR + j] = 0
                expand_lanes(ap, kc * MR, uk.a_lanes)
                if pairs:
                    uk.pack_pairs(ap, kc, MR, <uint32_t *>ap2)
            for tj in range((nc + NR - 1) // NR):
                jr = tj * NR
                cols = nc - jr if nc - jr < NR else NR
                if cols == NR and cb == NULL:
                    dst, ld, b_beta = c + (i + q) * ldc + jr, ldc, beta
                else:
                    dst, ld, b_beta = edge, NR, 0.0
                # the bias by the kernel over whole tiles (NR of it to read)
                kb = bias + jr if bias != NULL and cols == NR else NULL
                if cb != NULL:      # written at the tile's end, mostly lines in no cache
                    prefetch_rows_w(cb + (i + q) * ldc + jr, rows, cols * 2, ldc * 2)
                if inside and pairs:
                    uk.ukernel_bf16_strided(nruns, runs, <const uint16_t *>a.ptr + org, rs,
                                            toff, <const uint32_t *>bp + tj * bstep, dst, ld,
                                            alpha, b_beta, rows, kb)
                elif in_band:
                    uk.ukernel_wide(kc, band + (i0 + i + q - band_p0) * band_rs, band_rs, boff,
                                    bp + tj * bstep, NR, dst, ld, alpha, b_beta, rows, kb)
                elif across:
                    uk.ukernel_strided_rows(kc, <const float *>a.ptr, ro, toff, bp + tj * bstep,
                                            NR, dst, ld, alpha, b_beta, rows, kb)
                elif inside:
                    uk.ukernel_strided(kc, <const float *>a.ptr + org, rs, toff,
                                       bp + tj * bstep, NR, dst, ld, alpha, b_beta, rows, kb)
                elif pairs:
                    uk.ukernel_bf16(kp, <const uint32_t *>ap2, <const uint32_t *>bp + tj * bstep,
                                    dst, ld, alpha, b_beta, rows)
                else:
                    uk.ukernel(kc, ap, bp + tj * bstep, dst, ld, alpha, b_beta, rows)
                if bias != NULL and (kb == NULL or not inside):
                    add_bias(dst, ld, rows, cols, bias + jr)
                if cb != NULL:
                    uk.tile_to_bf16(edge, NR, rows, cols, cb + (i + q) * ldc + jr, ldc)
                elif dst == edge:
                    edge_out(edge, NR, rows, cols, beta, c + (i + q) * ldc + jr, ldc)
            q += rows
        i += seg


cdef void to_pairs(const gemm_kernel_t *uk, const float *panels, int64_t n, int64_t w,
                   int64_t kc, float *out) noexcept nogil:
    """Packed f32 panels (kc x w each) covering n rows or columns into pair panels."""
    cdef int64_t t, kp = (kc + 1) // 2
    for t in range((n + w - 1) // w):
        uk.pack_pairs(panels + t * kc * w, kc, w, <uint32_t *>out + t * kp * w)


cdef void pack_pairs_bf16(const gemm_kernel_t *uk, const gemm_operand_t *x, bint k_inner,
                          int64_t p0, int64_t kc, int64_t j0, int64_t n, int64_t w,
                          uint32_t *out) noexcept nogil:
    """Rows p0 .. of k and n lines from j0 (rows of A, columns of B) of a bf16
    matrix straight into w-wide pair panels; k_inner: k is the matrix's
    contiguous dimension."""
    cdef const uint16_t *base = <const uint16_t *>x.ptr
    cdef int64_t t, kp = (kc + 1) // 2
    if not k_inner:
        uk.pack_cols_bf16(base + p0 * x.ld + j0, x.ld, kc, n, out, w)
        return
    for t in range((n + w - 1) // w):
        uk.pack_rows_bf16(base + (j0 + t * w) * x.ld + p0, x.ld, min(n - t * w, w), kc,
                          out + t * kp * w, w)


cdef inline void pack_a_panels(const gemm_kernel_t *uk, const gemm_operand_t *a, int64_t i0,
                               int64_t mc, int64_t p0, int64_t kc, bint pairs, float *ap,
                               float *ap2) noexcept nogil:
    """op(A)'s block into the kernel's panels: f32 ones in ap, and with pairs
    their pair panels in ap2 (a bf16 matrix straight into ap2)."""
    if pairs and a.kind == OPND_BF16:
        pack_pairs_bf16(uk, a, a.trans == b'N', p0, kc, i0, mc, uk.mr, <uint32_t *>ap2)
        return
    pack_a(uk, a, i0, mc, p0, kc, ap)
    if pairs:
        to_pairs(uk, ap, mc, uk.mr, kc, ap2)


cdef void pack_b_panels(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t p0,
                        int64_t kc, int64_t j0, int64_t nc, bint pairs, float *bp,
                        float *bp2) noexcept nogil:
    """op(B)'s block, as pack_a_panels."""
    if pairs and b.kind == OPND_BF16:
        pack_pairs_bf16(uk, b, b.trans == b'T', p0, kc, j0, nc, uk.nr, <uint32_t *>bp2)
        return
    pack_b(uk, b, p0, kc, j0, nc, bp)
    if pairs:
        to_pairs(uk, bp, nc, uk.nr, kc, bp2)


cdef inline bint bf16_valued(const gemm_operand_t *o) noexcept nogil:
    """Whether every element of the operand is a bf16 number."""
    return o.kind == OPND_BF16 or (o.kind == OPND_PATCHES and o.src_dt == dnnl_bf16)


cdef inline bint patches_in_place(const gemm_kernel_t *uk, const gemm_operand_t *a,
                                  const gemm_operand_t *b) noexcept nogil:
    """Whether gemm_block reads patches as A in place (no im2col panels): f32
    ones by the f32 kernel, bf16 ones in pairs by the bf16 one, or at SSE
    both from bands (converted to f32 there)."""
    return (a.kind == OPND_PATCHES and a.trans == b'N'
            and (a.src_dt != dnnl_bf16 or uk.ukernel_wide != NULL
                 or (uk.ukernel_bf16 != NULL and bf16_valued(b))))


cdef int64_t even_split(int64_t total, int64_t most, int64_t unit) noexcept nogil:
    """A block size of at most `most` (a multiple of unit) that cuts total into
    equal blocks: no thin last block (k = 297 runs as 152 + 145, not 256 + 41)."""
    cdef int64_t nb = (total + most - 1) // most if total > 0 else 1
    cdef int64_t size = (total + nb - 1) // nb
    return (size + unit - 1) // unit * unit


cdef inline size_t work_floats(const gemm_kernel_t *uk, int64_t kcb, int64_t ncb) noexcept nogil:
    """gemm_block's work for blocks kcb x ncb: f32 panels (A's a_lanes
    floats an element), the edge tile, and the pair panels (ceil(kcb / 2)
    rows)."""
    cdef int64_t kp = (kcb + 1) // 2
    return MC * kcb * uk.a_lanes + kcb * ncb + MAX_MR * MAX_NR + kp * (MC + ncb) + 16


cdef inline bint packed_pairs(const gemm_kernel_t *uk, const gemm_operand_t *a,
                              const gemm_operand_t *b) noexcept nogil:
    """Whether A packed once (gemm_pack_a) is in pair panels: a bf16 matrix
    for a bf16-valued B where the level has bf16 dot products."""
    return uk.ukernel_bf16 != NULL and a.kind == OPND_BF16 and bf16_valued(b)


cdef void gemm_block(const gemm_kernel_t *uk, int64_t m0, int64_t m1, int64_t n0, int64_t n1,
                     int64_t k, int64_t kcb, int64_t ncb, float alpha, const gemm_operand_t *a,
                     const float *apk, int64_t apk_ld, const gemm_operand_t *b, float beta,
                     float *c, int64_t ldc, float *work, const float *bias,
                     uint16_t *cb) noexcept nogil:
    """Rows [m0, m1) x columns [n0, n1) of C in blocks of kcb x ncb; work holds
    work_floats(uk, kcb, ncb). bias (if not NULL) is added to C's rows after the
    last k block, a block of C at a time while it is in cache. apk: A's
    panels packed once (gemm_pack_a; k blocks apk_ld rows apart), else NULL.
    cb: a bf16 C instead of c (gemm_writes_bf16)."""
    cdef float *ap = work
    cdef float *bp = work + MC * kcb * uk.a_lanes
    cdef float *edge = bp + kcb * ncb
    # bf16 dot products where the level has them and both operands are bf16
    # numbers: the f32 panels are repacked in pairs of k.
    cdef bint pairs = uk.ukernel_bf16 != NULL and bf16_valued(a) and bf16_valued(b)
    cdef float *ap2 = edge + MAX_MR * MAX_NR
    cdef float *bp2 = ap2 + MC * ((kcb + 1) // 2)
    cdef const float *a_use
    cdef int64_t jc, pc, ic, nc, kc, mc, i, j
    cdef float b_beta
    cdef bint strided = apk == NULL and patches_in_place(uk, a, b)
    if apk != NULL:
        pairs = packed_pairs(uk, a, b)
    cdef int64_t toff[KMAX + 1]
    cdef int32_t runs[KMAX]
    cdef int64_t nruns = 0
    cdef const float *bias_k
    jc = n0
    while jc < n1:
        nc = n1 - jc if n1 - jc < ncb else ncb
        if k == 0:      # C = beta * C
            for i in range(m0, m1):
                for j in range(jc, jc + nc):
                    c[i * ldc + j] = 0 if beta == 0 else beta * c[i * ldc + j]
            if bias != NULL:
                add_bias(c + m0 * ldc + jc, ldc, m1 - m0, nc, bias + jc)
        pc = 0
        while pc < k:
            kc = k - pc if k - pc < kcb else kcb
            pack_b_panels(uk, b, pc, kc, jc, nc, pairs, bp, bp2)
            b_beta = beta if pc == 0 else 1.0
            bias_k = bias + jc if bias != NULL and pc + kc == k else NULL
            if strided:     # nothing packed to keep in cache: all rows at once
                tap_offsets(a.geom, pc, kc, toff)
                if pairs:
                    nruns = pair_runs(toff, kc, runs)
                macro_kernel_patches(uk, a, m0, m1 - m0, pc, kc, toff, nc, alpha,
                                     bp2 if pairs else bp, b_beta,
                                     NULL if c == NULL else c + m0 * ldc + jc, ldc, ap,
                                     edge, pairs, runs, nruns, ap2, bias_k,
                                     NULL if cb == NULL else cb + m0 * ldc + jc)
                pc += kc
                continue
            for ic in range(m0, m1, MC):
                mc = m1 - ic if m1 - ic < MC else MC
                if apk != NULL:     # row ic's panel in its k block
                    a_use = apk + (pc * apk_ld
                                   + ic * ((kc + 1) // 2 if pairs else kc)) * uk.a_lanes
                else:
                    pack_a_panels(uk, a, ic, mc, pc, kc, pairs, ap, ap2)
                    a_use = ap2 if pairs else ap
                if pairs:
                    macro_kernel(uk, mc, nc, kc, alpha, a_use, bp2, b_beta, c + ic * ldc + jc,
                                 ldc, edge, True, (kc + 1) // 2 * uk.nr)
                else:
                    macro_kernel(uk, mc, nc, kc, alpha, a_use, bp, b_beta, c + ic * ldc + jc,
                                 ldc, edge, False, kc * uk.nr)
                if bias_k != NULL:
                    add_bias(c + ic * ldc + jc, ldc, mc, nc, bias_k)
            pc += kc
        jc += nc


cdef void naive(int64_t m0, int64_t m1, int64_t n0, int64_t n1, int64_t k, float alpha,
                const gemm_operand_t *a, const gemm_operand_t *b, float beta, float *c,
                int64_t ldc, const float *bias, uint16_t *cb) noexcept nogil:
    """Without memory for packing: one element at a time (into the bf16 cb
    instead of c where that is not NULL)."""
    cdef int64_t i, j, p
    cdef float acc
    for i in range(m0, m1):
        for j in range(n0, n1):
            acc = 0
            for p in range(k):
                acc = acc + opnd_get(a, i, p) * opnd_get(b, p, j)
            acc = alpha * acc + (0 if bias == NULL else bias[j])
            if cb != NULL:
                cb[i * ldc + j] = f32_to_bf16(acc)
            else:
                c[i * ldc + j] = acc + (0 if beta == 0 else beta * c[i * ldc + j])


cdef void gemm_ex(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                  const gemm_operand_t *a, const gemm_operand_t *b, float beta, float *c,
                  int64_t ldc, bint threaded, const float *bias) noexcept nogil:
    gemm_run(uk, m, n, k, alpha, a, NULL, b, beta, c, ldc, threaded, bias, NULL)


cdef bint gemm_writes_bf16(const gemm_kernel_t *uk, int64_t k, const gemm_operand_t *a,
                           const gemm_operand_t *b) noexcept nogil:
    # AVX-512's tiles (12 x 32) only: AVX2's 6 x 16 ran AlexNet conv1's bf16
    # forward 1.02x as long as rounding an f32 image in a pass
    return uk.nr >= 32 and uk.a_lanes == 1 and 0 < k <= KMAX and patches_in_place(uk, a, b)


cdef void gemm_ex_bf16(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k,
                       const gemm_operand_t *a, const gemm_operand_t *b, uint16_t *c,
                       int64_t ldc, bint threaded, const float *bias) noexcept nogil:
    if gemm_writes_bf16(uk, k, a, b):
        gemm_run(uk, m, n, k, 1.0, a, NULL, b, 0.0, NULL, ldc, threaded, bias, c)


cdef void gemm_run(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                   const gemm_operand_t *a, const float *apk, const gemm_operand_t *b,
                   float beta, float *c, int64_t ldc, bint threaded,
                   const float *bias, uint16_t *cb) noexcept nogil:
    """gemm_ex, with A's panels from apk where not NULL (gemm_pack_a); into
    the bf16 cb instead of c where that is not NULL (gemm_ex_bf16)."""
    cdef int64_t nthr = 1, chunk, t, lo, hi, nchunks, kcb, ncb, stride
    cdef int64_t apk_ld = (m + uk.mr - 1) // uk.mr * uk.mr
    cdef int64_t MR = uk.mr, NR = uk.nr
    cdef bint by_cols
    cdef float *work
    if threaded:
        nthr = omp_get_max_threads()
    if m <= 0 or n <= 0:
        return
    # Threads take whole NR panels of columns, at least 2 each; when C is too
    # narrow for that, whole MR panels of rows (each then packs all of B).
    chunk = (n + nthr - 1) // nthr
    chunk = (chunk + NR - 1) // NR * NR
    by_cols = chunk >= 2 * NR and n > chunk
    if not by_cols:
        chunk = (m + nthr - 1) // nthr
        chunk = (chunk + MR - 1) // MR * MR
        if chunk < 4 * MR or m <= chunk:
            nthr = 1
    if nthr == 1:
        by_cols, chunk = True, n
    nchunks = ((n if by_cols else m) + chunk - 1) // chunk
    # every thread's panels in one block, the calling thread's kept scratch:
    # a block per thread inside the parallel region, or a fresh one per
    # call, cost 10-20% of a product (page faults, placement)
    # patches read in place pack nothing that must stay in cache: all of k
    # in one block, each tile of C stored once (f32 conv1 2% faster); but
    # SSE's band holds 4 floats an element: a tile's lines of it and B's
    # panel over all of k overflow L1 (AlexNet conv1 forward at sse41 on
    # Zen 4: 79% of the peak, 89% in blocks of KC)
    kcb = even_split(k, KMAX if apk == NULL and patches_in_place(uk, a, b) and uk.a_lanes == 1
                     else KC, 4)
    ncb = even_split(chunk if by_cols else n, NC, NR)
    stride = (work_floats(uk, kcb, ncb) + 15) // 16 * 16
    work = <float *>cydnnl_thread_scratch(nchunks * stride * sizeof(float))
    if work == NULL:
        naive(0, m, 0, n, k, alpha, a, b, beta, c, ldc, bias, cb)
        return
    if nchunks == 1:
        gemm_block(uk, 0, m, 0, n, k, kcb, ncb, alpha, a, apk, apk_ld, b, beta, c, ldc, work,
                   bias, cb)
    else:
        for t in prange(nchunks, schedule='static', num_threads=nthr):
            lo = t * chunk
            if by_cols:
                hi = lo + chunk if lo + chunk < n else n
                gemm_block(uk, 0, m, lo, hi, k, kcb, ncb, alpha, a, apk, apk_ld, b, beta, c,
                           ldc, work + t * stride, bias, cb)
            else:
                hi = lo + chunk if lo + chunk < m else m
                gemm_block(uk, lo, hi, 0, n, k, kcb, ncb, alpha, a, apk, apk_ld, b, beta, c,
                           ldc, work + t * stride, bias, cb)
    cydnnl_thread_scratch_done(work)


# -- A packed once, for products that reuse it over blocks of columns
# (backward data's W^T, for every block of an image's output pixels): per k
# block (at pc * m_pad, m_pad = m rounded up to MR), the MR-row panels of
# all m rows as gemm_block packs them, in pairs where the product runs in
# pairs (packed_pairs).

cdef int64_t gemm_packed_a_floats(int64_t m, int64_t k) noexcept nogil:
    # any level's: a_lanes floats an element at most
    return k * ((m + MAX_MR - 1) // MAX_MR * MAX_MR) * MAX_A_LANES + 16


cdef void gemm_pack_a(const gemm_kernel_t *uk, const gemm_operand_t *a,
                      const gemm_operand_t *b, int64_t m, int64_t k, float *out) noexcept nogil:
    cdef int64_t kcb = even_split(k, KC, 4), m_pad = (m + uk.mr - 1) // uk.mr * uk.mr
    cdef bint pairs = packed_pairs(uk, a, b)
    cdef int64_t pc = 0, kc, ic, mc
    cdef float *dst
    while pc < k:
        kc = k - pc if k - pc < kcb else kcb
        for ic in range(0, m, MC):
            mc = m - ic if m - ic < MC else MC
            dst = out + (pc * m_pad + ic * ((kc + 1) // 2 if pairs else kc)) * uk.a_lanes
            if pairs:       # a bf16 matrix: straight into pairs, no f32 panel
                pack_pairs_bf16(uk, a, a.trans == b'N', pc, kc, ic, mc, uk.mr,
                                <uint32_t *>dst)
            else:
                pack_a(uk, a, ic, mc, pc, kc, dst)
        pc += kc


cdef void gemm_packed_a(const gemm_kernel_t *uk, int64_t m, int64_t n, int64_t k, float alpha,
                        const gemm_operand_t *a, const float *ap, const gemm_operand_t *b,
                        float beta, float *c, int64_t ldc, bint threaded) noexcept nogil:
    gemm_run(uk, m, n, k, alpha, a, ap, b, beta, c, ldc, threaded, NULL, NULL)


# -- column sums of an operand (a weight gradient's bias)

cdef inline const void *at_elem(const void *x, bint bf16, int64_t i) noexcept nogil:
    return <const void *>(<const char *>x + i * (2 if bf16 else 4))


cdef void operand_col_sums(const gemm_kernel_t *uk, const gemm_operand_t *b, int64_t p0,
                           int64_t p1, int64_t n, float *sums) noexcept nogil:
    """Rows of op(B) are contiguous ('N'): the level's kernel, vectors of
    columns; else (or without a kernel: reference implementations) column
    by column."""
    cdef int64_t j, p
    cdef float t
    cdef bint bf16 = b.kind == OPND_BF16
    if b.trans == b'N' and uk != NULL:
        uk.col_sums(at_elem(b.ptr, bf16, p0 * b.ld), bf16, b.ld, p1 - p0, n, sums)
        return
    for j in range(n):
        t = 0
        for p in range(p0, p1):
            t = t + mat_get(b, p, j)
        sums[j] += t


cdef void sgemm(const gemm_kernel_t *uk, char transa, char transb, int64_t m, int64_t n,
                int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                int64_t ldb, float beta, float *c, int64_t ldc) noexcept nogil:
    cdef gemm_operand_t oa = matrix_operand(a, dnnl_f32, transa, lda)
    cdef gemm_operand_t ob = matrix_operand(b, dnnl_f32, transb, ldb)
    gemm_ex(uk, m, n, k, alpha, &oa, &ob, beta, c, ldc, False, NULL)


cdef void sgemm_parallel(const gemm_kernel_t *uk, char transa, char transb, int64_t m,
                         int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float beta, float *c,
                         int64_t ldc) noexcept nogil:
    cdef gemm_operand_t oa = matrix_operand(a, dnnl_f32, transa, lda)
    cdef gemm_operand_t ob = matrix_operand(b, dnnl_f32, transb, ldb)
    gemm_ex(uk, m, n, k, alpha, &oa, &ob, beta, c, ldc, True, NULL)
