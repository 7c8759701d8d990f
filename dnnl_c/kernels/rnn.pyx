# The RNN driver: per layer and direction, the layer product for all time
# steps at once, then per step the iteration product and the cell; backward
# the same grid in reverse, with the weight gradients as one product per
# layer and direction over all steps. See rnn.pxd for the layouts.

from libc.stdint cimport int64_t
from libc.string cimport memcpy, memset
from cython.parallel cimport prange

from dnnl_c.kernels.gemm cimport (gemm_kernel_t, gemm_operand_t, sgemm_parallel, matrix_operand,
                                  operand_col_sums)
from dnnl_c.kernels.gemm_packed cimport (gemm_packed_b_floats, gemm_pack_b, gemm_packed_b,
                                         gemm_packed_work_floats, gemm_packed_b_cols)
from dnnl_c.dnnl_types cimport (dnnl_f32, dnnl_unidirectional_left2right, dnnl_bidirectional_concat,
                                dnnl_bidirectional_sum)

cdef extern from "kernels/include/rnn_cell.h" nogil:
    void cydnnl_lstm_fwd_cell(int64_t n, int64_t dhc, int64_t j0, int64_t j1, float *gates,
                              int64_t ldg, const float *bias, const float *peep,
                              const float *c_prev, int64_t ldcp, float *c_out, int64_t ldc,
                              float *h_out, int64_t ldh, int threaded)
    void cydnnl_lstm_bwd_cell(int64_t n, int64_t dhc, int64_t j0, int64_t j1,
                              const float *gates, int64_t ldg, const float *peep,
                              const float *c_prev, int64_t ldcp, const float *c_t, int64_t ldc,
                              const float *dh, int64_t lddh, float *dc, int64_t lddc,
                              float *dg, int64_t lddg, float *dpeep, int threaded)

cdef extern from "kernels/include/rnn_isa.h" nogil:
    ctypedef struct cydnnl_rnn_cells_t:
        rnn_cell_fwd_fn lstm_fwd
        rnn_cell_bwd_fn lstm_bwd
    const cydnnl_rnn_cells_t *cydnnl_rnn_cells_for(int level)

cdef extern from "core/cydnnl_core.h" nogil:
    bint cydnnl_mul_overflow(int64_t a, int64_t b, int64_t *res)


cdef void lstm_fwd(int64_t n, int64_t dhc, int64_t j0, int64_t j1, float *gates, int64_t ldg,
                   const float *bias, const float *peep, const float *c_prev, int64_t ldcp,
                   float *c_out, int64_t ldc, float *h_out, int64_t ldh,
                   int threaded) noexcept nogil:
    cydnnl_lstm_fwd_cell(n, dhc, j0, j1, gates, ldg, bias, peep, c_prev, ldcp, c_out, ldc,
                         h_out, ldh, threaded)


cdef void lstm_bwd(int64_t n, int64_t dhc, int64_t j0, int64_t j1, const float *gates,
                   int64_t ldg, const float *peep, const float *c_prev, int64_t ldcp,
                   const float *c_t, int64_t ldc, const float *dh, int64_t lddh, float *dc,
                   int64_t lddc, float *dg, int64_t lddg, float *dpeep,
                   int threaded) noexcept nogil:
    cydnnl_lstm_bwd_cell(n, dhc, j0, j1, gates, ldg, peep, c_prev, ldcp, c_t, ldc, dh, lddh,
                         dc, lddc, dg, lddg, dpeep, threaded)


cdef void lstm_cell_for(int isa, rnn_cell_t *cell) noexcept nogil:
    cdef const cydnnl_rnn_cells_t *t = cydnnl_rnn_cells_for(isa) if isa != 0 else NULL
    cell.n_gates = 4
    cell.has_c_state = True
    cell.fwd = t.lstm_fwd if t != NULL else lstm_fwd
    cell.bwd = t.lstm_bwd if t != NULL else lstm_bwd

# ------------------------------------------------------------ products

cdef void mm(const gemm_kernel_t *uk, char ta, char tb, int64_t m, int64_t n, int64_t k,
             const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
             int64_t ldc) noexcept nogil:
    """C = op(A) op(B) + beta C, row-major; plain loops without a kernel."""
    cdef int64_t i, j, p
    cdef float acc, x, y
    if m <= 0 or n <= 0:
        return
    if uk != NULL and k > 0:
        sgemm_parallel(uk, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc)
        return
    for i in prange(m, schedule='static'):
        for j in range(n):
            acc = 0
            for p in range(k):
                x = a[p * lda + i] if ta == b'T' else a[i * lda + p]
                y = b[j * ldb + p] if tb == b'T' else b[p * ldb + j]
                acc = acc + x * y
            c[i * ldc + j] = acc + (beta * c[i * ldc + j] if beta != 0 else 0)

# ------------------------------------------------------------ state areas

cdef struct ws_map_t:
    int64_t gates, c, h, hpre        # offsets in floats
    int64_t total


cdef bint ws_map(const rnn_shape_t *s, ws_map_t *m) noexcept nogil:
    """Per (layer, direction), in time order: the activated gates (T, N, G,
    DHC), c (T, N, DHC), h (T, N, DIC; the next layer's input in the same
    direction), h before the projection (T, N, DHC). False on overflow."""
    cdef int64_t ld, tn, a, b, c, h, hp
    if (cydnnl_mul_overflow(s.L, s.D, &ld) or cydnnl_mul_overflow(s.T, s.N, &tn)
            or cydnnl_mul_overflow(ld, tn, &a) or cydnnl_mul_overflow(a, s.G * s.DHC, &b)
            or cydnnl_mul_overflow(a, s.DHC, &c) or cydnnl_mul_overflow(a, s.DIC, &h)):
        return False
    hp = c if s.projection else 0
    m.gates = 0
    m.c = b
    m.h = m.c + c
    m.hpre = m.h + h
    m.total = m.hpre + hp
    return m.total >= 0 and m.total < (<int64_t>1 << 60)


cdef int64_t rnn_ws_floats(const rnn_shape_t *s) noexcept nogil:
    cdef ws_map_t m
    return m.total if ws_map(s, &m) else -1


cdef inline int64_t up16(int64_t n) noexcept nogil:
    return (n + 15) // 16 * 16       # keeps every area 64-byte aligned


cdef int64_t packing_floats(const rnn_shape_t *s, const gemm_kernel_t *uk, int nthr,
                            bint bwd) noexcept nogil:
    """The iteration weights packed once per layer and direction (for the
    product at every step; not when they come packed), and the threads'
    packing areas."""
    if uk == NULL:
        return 0
    return pack_area_floats(s, uk, bwd) + nthr * up16(gemm_packed_work_floats(uk))


cdef inline int64_t pack_area_floats(const rnn_shape_t *s, const gemm_kernel_t *uk,
                                     bint bwd) noexcept nogil:
    if uk == NULL or s.wnr != 0:
        return 0
    return up16(gemm_packed_b_floats(uk, s.G * s.DHC if bwd else s.SIC,
                                     s.SIC if bwd else s.G * s.DHC))


cdef int64_t rnn_fwd_work_floats(const rnn_shape_t *s, const gemm_kernel_t *uk,
                                 int nthr) noexcept nogil:
    return packing_floats(s, uk, nthr, False) + 16


cdef int64_t rnn_bwd_work_floats(const rnn_shape_t *s, const gemm_kernel_t *uk,
                                 int nthr) noexcept nogil:
    """dG of all steps, the per-direction gradients between layers (twice),
    per-step rows, h_{t-1} of all steps, the packed weights."""
    cdef int64_t tn = s.T * s.N
    cdef int64_t wide = s.SIC if s.SIC > s.DIC else s.DIC
    cdef int64_t total
    if s.T > 0 and tn // s.T != s.N:
        return -1
    total = up16(tn * s.G * s.DHC) + up16(2 * s.D * tn * s.SLC if s.L > 1 else 0) \
        + up16(s.N * wide) + up16(s.N * s.DIC) + 2 * up16(s.N * s.DHC) + up16(tn * s.SIC) \
        + packing_floats(s, uk, nthr, True) + 64
    return total if total > 0 else -1


cdef struct packed_t:
    const gemm_kernel_t *uk
    const float *b      # the iteration weights in packed panels
    float *area         # where iter_weights packs them (plain weights)
    float *work         # the threads' areas
    int nthr


cdef void iter_weights(packed_t *p, const rnn_shape_t *s, const float *w, char trans,
                       int64_t ld, int64_t k, int64_t n) noexcept nogil:
    """p.b: the weights as they are when they come packed, else packed
    into p.area; NULL without a kernel."""
    cdef gemm_operand_t b = matrix_operand(w, dnnl_f32, trans, ld)
    p.b = NULL
    if s.wnr != 0:
        p.b = w
    elif p.uk != NULL:
        gemm_pack_b(p.uk, &b, k, n, p.area)
        p.b = p.area


cdef inline const float *panels_of(const rnn_shape_t *s, const float *w) noexcept nogil:
    """Weights that come in the kernel's panels, else NULL."""
    return w if s.wnr != 0 else NULL


cdef void mm_weights(const packed_t *p, int64_t m, int64_t n, int64_t k, const float *a,
                     int64_t lda, const float *panels, const float *w, int64_t ldw, float beta,
                     float *c, int64_t ldc) noexcept nogil:
    """C = A W + beta C: from W's packed panels when there are some (and a
    kernel), else from W plain ('N', ldw)."""
    cdef gemm_operand_t oa = matrix_operand(a, dnnl_f32, b'N', lda)
    if panels != NULL and p.uk != NULL and k > 0:
        gemm_packed_b(p.uk, m, n, k, 1.0, &oa, panels, beta, c, ldc, p.nthr, p.work)
    else:
        mm(p.uk, b'N', b'N', m, n, k, a, lda, w, ldw, beta, c, ldc)


cdef inline bint left2right(const rnn_shape_t *s, int d) noexcept nogil:
    if s.direction == dnnl_bidirectional_concat or s.direction == dnnl_bidirectional_sum:
        return d == 0
    return s.direction == dnnl_unidirectional_left2right


cdef void layer_output(const rnn_shape_t *s, const float *h0, const float *h1,
                       float *out) noexcept nogil:
    """out (T, N, DLC) from the directions' h (T, N, DIC): one, concat or sum."""
    cdef int64_t r, j, rows = s.T * s.N, dic = s.DIC, dlc = s.DLC
    if s.D == 1:
        memcpy(out, h0, rows * dic * sizeof(float))
        return
    for r in prange(rows, schedule='static'):
        if s.direction == dnnl_bidirectional_concat:
            memcpy(out + r * dlc, h0 + r * dic, dic * sizeof(float))
            memcpy(out + r * dlc + dic, h1 + r * dic, dic * sizeof(float))
        else:
            for j in range(dic):
                out[r * dlc + j] = h0[r * dic + j] + h1[r * dic + j]

# ------------------------------------------------------------ one step, fused
# With a GEMM kernel and DHC a multiple of its panel width, each thread takes
# the same columns of every gate: its share of the iteration product, then
# the cell on those columns, with no barrier in between.

cdef inline int64_t col_chunk(const packed_t *p, int64_t dhc) noexcept nogil:
    """Columns per thread (whole panels); 0 when the step cannot be split so."""
    cdef int64_t nr = p.uk.nr if p.uk != NULL else 0
    if nr == 0 or dhc % nr != 0:
        return 0
    return ((dhc + p.nthr - 1) // p.nthr + nr - 1) // nr * nr


cdef void fwd_step(const rnn_cell_t *cell, const packed_t *p, const rnn_shape_t *s,
                   const float *hprev, int64_t ldh, const float *w_iter, float *g,
                   const float *bias,
                   const float *peep, const float *cprev, float *c, float *hout) noexcept nogil:
    """g (N x G DHC) holds the layer product: adds hprev W_iter (p.b: packed)
    and runs the cell."""
    cdef int64_t N = s.N, DHC = s.DHC, GD = s.G * s.DHC, SIC = s.SIC
    cdef int64_t chunk = col_chunk(p, DHC), nch, t, q, j0, j1
    cdef gemm_operand_t oa = matrix_operand(hprev, dnnl_f32, b'N', ldh)
    if chunk == 0:
        if hprev != NULL:
            mm_weights(p, N, GD, SIC, hprev, ldh, p.b, w_iter, GD, 1.0, g, GD)
        cell.fwd(N, DHC, 0, DHC, g, GD, bias, peep, cprev, DHC, c, DHC, hout, DHC, 1)
        return
    nch = (DHC + chunk - 1) // chunk
    for t in prange(nch, schedule='static', num_threads=p.nthr):
        j0 = t * chunk
        j1 = j0 + chunk if j0 + chunk < DHC else DHC
        if hprev != NULL:
            for q in range(s.G):
                gemm_packed_b_cols(p.uk, N, q * DHC + j0, q * DHC + j1, GD, SIC, 1.0, &oa, p.b,
                                   1.0, g, GD, p.work + t * up16(gemm_packed_work_floats(p.uk)))
        cell.fwd(N, DHC, j0, j1, g, GD, bias, peep, cprev, DHC, c, DHC, hout, DHC, 0)


cdef void bwd_cell_step(const rnn_cell_t *cell, const packed_t *p, const rnn_shape_t *s,
                        const float *g, const float *peep, const float *cprev,
                        const float *c, const float *dcell, int64_t lddcell, float *dc,
                        float *dg, float *dpeep) noexcept nogil:
    cdef int64_t N = s.N, DHC = s.DHC, GD = s.G * s.DHC
    cdef int64_t chunk = col_chunk(p, DHC), nch, t, j0, j1
    if chunk == 0:
        cell.bwd(N, DHC, 0, DHC, g, GD, peep, cprev, DHC, c, DHC, dcell, lddcell, dc, DHC,
                 dg, GD, dpeep, 1)
        return
    nch = (DHC + chunk - 1) // chunk
    for t in prange(nch, schedule='static', num_threads=p.nthr):
        j0 = t * chunk
        j1 = j0 + chunk if j0 + chunk < DHC else DHC
        cell.bwd(N, DHC, j0, j1, g, GD, peep, cprev, DHC, c, DHC, dcell, lddcell, dc, DHC,
                 dg, GD, dpeep, 0)

# ------------------------------------------------------------ forward

cdef void rnn_fwd(const rnn_cell_t *cell, const gemm_kernel_t *uk, const rnn_shape_t *s,
                  const rnn_fwd_args_t *a) noexcept nogil:
    cdef ws_map_t m
    cdef int64_t T = s.T, N = s.N, GD = s.G * s.DHC, DHC = s.DHC, DIC = s.DIC, SIC = s.SIC
    cdef int64_t l, d, ld, st, t, tp, ldh
    cdef const float *x
    cdef const float *w
    cdef const float *hprev
    cdef const float *cprev
    cdef float *g
    cdef float *c
    cdef float *h
    cdef float *hp
    cdef float *hout
    cdef packed_t pk
    if not ws_map(s, &m) or T * N == 0:
        return
    pk.uk, pk.nthr = uk, a.nthr
    pk.b = pk.area = a.work
    pk.work = a.work + pack_area_floats(s, uk, False)
    for l in range(s.L):
        for d in range(s.D):
            ld = l * s.D + d
            # layers above the first read the same direction's h below
            x = a.src_layer if l == 0 else a.ws + m.h + (ld - s.D) * T * N * DIC
            g = a.ws + m.gates + ld * T * N * GD
            c = a.ws + m.c + ld * T * N * DHC
            h = a.ws + m.h + ld * T * N * DIC
            hp = a.ws + m.hpre + ld * T * N * DHC
            # all time steps' layer products at once
            w = a.weights_layer + ld * s.SLC * GD
            mm_weights(&pk, T * N, GD, s.SLC, x, s.SLC, panels_of(s, w), w, GD, 0.0, g, GD)
            if a.src_iter != NULL or T > 1:
                iter_weights(&pk, s, a.weights_iter + ld * SIC * GD, b'N', GD, SIC, GD)
            for st in range(T):
                t = st if left2right(s, d) else T - 1 - st
                tp = t - 1 if left2right(s, d) else t + 1
                if st == 0:
                    hprev = a.src_iter + ld * N * SIC if a.src_iter != NULL else NULL
                    cprev = a.src_iter_c + ld * N * DHC if a.src_iter_c != NULL else NULL
                    ldh = SIC
                else:
                    hprev = h + tp * N * DIC
                    cprev = c + tp * N * DHC
                    ldh = DIC
                hout = hp + t * N * DHC if s.projection else h + t * N * DIC
                fwd_step(cell, &pk, s, hprev, ldh, a.weights_iter + ld * SIC * GD, g + t * N * GD,
                         a.bias + ld * GD if a.bias != NULL else NULL,
                         a.weights_peephole + ld * 3 * DHC if s.peephole else NULL,
                         cprev, c + t * N * DHC, hout)
                if s.projection:
                    mm(uk, b'N', b'N', N, DIC, DHC, hout, DHC,
                       a.weights_projection + ld * DHC * DIC, DIC, 0.0, h + t * N * DIC, DIC)
            t = T - 1 if left2right(s, d) else 0        # the last step
            if a.dst_iter != NULL:
                memcpy(a.dst_iter + ld * N * DIC, h + t * N * DIC, N * DIC * sizeof(float))
            if a.dst_iter_c != NULL:
                memcpy(a.dst_iter_c + ld * N * DHC, c + t * N * DHC, N * DHC * sizeof(float))
    # the last layer's directions: one, concatenated or summed
    layer_output(s, a.ws + m.h + (s.L - 1) * s.D * T * N * DIC,
                 a.ws + m.h + ((s.L - 1) * s.D + 1) * T * N * DIC, a.dst_layer)

# ------------------------------------------------------------ backward

cdef void column_sums(const gemm_kernel_t *uk, int64_t rows, int64_t cols, const float *x,
                      float *acc) noexcept nogil:
    """acc[j] += sum of column j: threads take blocks of columns, each summed
    over the rows in order (the rows are 4 * DHC floats: a column walk would
    miss the cache at every element)."""
    cdef int64_t b, j0, nb = (cols + 255) // 256
    cdef gemm_operand_t xo
    for b in prange(nb, schedule='static'):
        j0 = b * 256
        xo = matrix_operand(x + j0, dnnl_f32, b'N', cols)
        operand_col_sums(uk, &xo, 0, rows, min(<int64_t>256, cols - j0), acc + j0)


cdef void rnn_bwd(const rnn_cell_t *cell, const gemm_kernel_t *uk, const rnn_shape_t *s,
                  const rnn_bwd_args_t *a) noexcept nogil:
    cdef ws_map_t m
    cdef int64_t T = s.T, N = s.N, GD = s.G * s.DHC, DHC = s.DHC, DIC = s.DIC, SIC = s.SIC
    cdef int64_t SLC = s.SLC, TN = s.T * s.N
    cdef int64_t l, d, ld, st, t, tp, r, j, off, ldy, ldx
    cdef float *dg_all = a.work
    cdef float *grads          # per direction, two layers' worth: (2, D, T, N, SLC)
    cdef float *dh
    cdef float *dht
    cdef float *dhpre
    cdef float *dc
    cdef float *dcell
    cdef float *hcat           # h_{t-1} of every step t, with h0: (T, N, SIC)
    cdef const float *dy
    cdef float *dx
    cdef float dx_beta
    cdef const float *x
    cdef const float *w
    cdef const float *g
    cdef const float *c
    cdef const float *h
    cdef const float *hp
    cdef const float *cprev
    cdef const float *h0
    cdef packed_t pk
    if not ws_map(s, &m) or TN == 0:
        return
    grads = dg_all + up16(TN * GD)
    dh = grads + up16(2 * s.D * TN * SLC if s.L > 1 else 0)
    dht = dh + up16((SIC if SIC > DIC else DIC) * N)
    dhpre = dht + up16(N * DIC)
    dc = dhpre + up16(N * DHC)
    hcat = dc + up16(N * DHC)
    pk.uk, pk.nthr = uk, a.nthr
    pk.b = pk.area = hcat + up16(TN * SIC)
    pk.work = pk.area + pack_area_floats(s, uk, True)
    l = s.L - 1
    while l >= 0:
        for d in range(s.D):
            ld = l * s.D + d
            g = a.ws + m.gates + ld * TN * GD
            c = a.ws + m.c + ld * TN * DHC
            h = a.ws + m.h + ld * TN * DIC
            hp = a.ws + m.hpre + ld * TN * DHC
            x = a.src_layer if l == 0 else a.ws + m.h + (ld - s.D) * TN * DIC
            # the gradient reaching this layer's output in this direction
            if l == s.L - 1:
                dy, ldy = a.diff_dst_layer, s.DLC
                off = d * DIC if s.direction == dnnl_bidirectional_concat else 0
            else:
                dy, ldy, off = grads + (((l + 1) % 2) * s.D + d) * TN * SLC, SLC, 0
            # the one reaching its input: diff_src_layer (directions summed)
            # or the layer below's, same direction
            if l == 0:
                dx, ldx, dx_beta = a.diff_src_layer, SLC, 0.0 if d == 0 else 1.0
            else:
                dx, ldx, dx_beta = grads + ((l % 2) * s.D + d) * TN * SLC, SLC, 0.0
            # W_iter^T (ldgoi: GD x SIC rows), packed once for the step
            # products dh = dG W_iter^T
            iter_weights(&pk, s, a.weights_iter + ld * GD * SIC, b'N', SIC, GD, SIC)
            if a.diff_dst_iter != NULL:
                memcpy(dh, a.diff_dst_iter + ld * N * DIC, N * DIC * sizeof(float))
            else:
                memset(dh, 0, N * DIC * sizeof(float))
            if a.diff_dst_iter_c != NULL:
                memcpy(dc, a.diff_dst_iter_c + ld * N * DHC, N * DHC * sizeof(float))
            else:
                memset(dc, 0, N * DHC * sizeof(float))
            for st in range(T):
                # steps in reverse: the last forward step first
                t = T - 1 - st if left2right(s, d) else st
                tp = t - 1 if left2right(s, d) else t + 1
                for r in range(N):
                    for j in range(DIC):
                        dht[r * DIC + j] = dh[r * DIC + j] + dy[(t * N + r) * ldy + off + j]
                dcell = dht
                if s.projection:
                    mm(uk, b'T', b'N', DHC, DIC, N, hp + t * N * DHC, DHC, dht, DIC, 1.0,
                       a.diff_weights_projection + ld * DHC * DIC, DIC)
                    mm(uk, b'N', b'T', N, DHC, DIC, dht, DIC,
                       a.weights_projection + ld * DHC * DIC, DIC, 0.0, dhpre, DHC)
                    dcell = dhpre
                if st == T - 1:
                    cprev = a.src_iter_c + ld * N * DHC if a.src_iter_c != NULL else NULL
                else:
                    cprev = c + tp * N * DHC
                bwd_cell_step(cell, &pk, s, g + t * N * GD,
                              a.weights_peephole + ld * 3 * DHC if s.peephole else NULL,
                              cprev, c + t * N * DHC, dcell, DHC if s.projection else DIC,
                              dc, dg_all + t * N * GD,
                              a.diff_weights_peephole + ld * 3 * DHC if s.peephole else NULL)
                # the gradient reaching h_{t-1}: N x SIC; the first step's is
                # diff_src_iter's alone
                if st < T - 1 or a.diff_src_iter != NULL:
                    mm_weights(&pk, N, SIC, GD, dg_all + t * N * GD, GD, pk.b,
                               a.weights_iter + ld * GD * SIC, SIC, 0.0, dh, SIC)
            if a.diff_src_iter != NULL:
                memcpy(a.diff_src_iter + ld * N * SIC, dh, N * SIC * sizeof(float))
            if a.diff_src_iter_c != NULL:
                memcpy(a.diff_src_iter_c + ld * N * DHC, dc, N * DHC * sizeof(float))
            # over all steps: the layer input's gradient and the weights'
            w = a.weights_layer + ld * GD * SLC
            mm_weights(&pk, TN, SLC, GD, dg_all, GD, panels_of(s, w), w, SLC, dx_beta, dx, ldx)
            mm(uk, b'T', b'N', SLC, GD, TN, x, SLC, dg_all, GD, 1.0,
               a.diff_weights_layer + ld * SLC * GD, GD)
            # diff W_iter += sum over t of h_{t-1}^T dG_t. h_{t-1} of the steps
            # after the first is h of the step before (rows of h); the first
            # step's is h0. With h0 the rows are copied in step order beside
            # it, for one product over all steps (a second product for h0
            # alone would read and write all of diff W_iter again).
            h0 = a.src_iter + ld * N * SIC if a.src_iter != NULL else NULL
            if h0 != NULL:
                if left2right(s, d):
                    memcpy(hcat, h0, N * SIC * sizeof(float))
                    memcpy(hcat + N * SIC, h, (T - 1) * N * SIC * sizeof(float))
                else:
                    memcpy(hcat, h + N * DIC, (T - 1) * N * SIC * sizeof(float))
                    memcpy(hcat + (T - 1) * N * SIC, h0, N * SIC * sizeof(float))
                mm(uk, b'T', b'N', SIC, GD, TN, hcat, SIC, dg_all, GD, 1.0,
                   a.diff_weights_iter + ld * SIC * GD, GD)
            elif left2right(s, d):
                # without h0 the first step adds nothing
                mm(uk, b'T', b'N', SIC, GD, (T - 1) * N, h, DIC, dg_all + N * GD, GD, 1.0,
                   a.diff_weights_iter + ld * SIC * GD, GD)
            else:
                mm(uk, b'T', b'N', SIC, GD, (T - 1) * N, h + N * DIC, DIC, dg_all, GD, 1.0,
                   a.diff_weights_iter + ld * SIC * GD, GD)
            if a.diff_bias != NULL:
                column_sums(uk, TN, GD, dg_all, a.diff_bias + ld * GD)
        l -= 1
