/* Channels-first backward data with bf16 dot products (vdpbf16ps), direct:
   no col, no col2im. Input row ih = q * sh + r - ph takes the kernel rows
   kh = r + sh * a (phase r of the stride) from output rows q - a, and
   likewise along w (col2im_phases.h's phases: position u of phase c lands
   on iw = u * sw + c - pw). So each phase (r, c) of diff_src is a stride-1
   convolution of dY with that phase's taps:
       phase[ic][q][u] = sum over oc, a, b of W[oc][ic][r + sh a][c + sw b]
                                               * dY[oc][q - a][u - b].
   dY is packed as pairs of channels (vdpbf16ps' operand) on a flat grid of
   rows xs = ow + (taps along w - 1) wide, zero above, right of and below
   the data: output (q, u) of every phase is flat position q * xs + u, tap
   (a, b) reads flat position - a * xs - b, and reads left of a row land on
   the zeros right of the row before. So a tile of 16-lane vectors along
   the flat grid runs K = oc * taps multiply-adds long (AlexNet conv1: 432
   pair steps; the GEMM's K was oc = 96, 48 pair steps, and col2im's adds
   took 12% of the time); the grid's rows and columns past dY's cost
   qn * xs / (oh * ow) - 1 of the products (AlexNet conv1: 7%). The sums
   go to a plane per phase and input channel, from which col2im's row pass
   (its phase rows a plane apart) makes diff_src's rows. */
#ifndef CYDNNL_BWD_DATA_DIRECT_H
#define CYDNNL_BWD_DATA_DIRECT_H
#include <stdint.h>
#include <string.h>
#include "cydnnl_common.h"

typedef struct {
    int64_t ic, oc, ih, iw, oh, ow, kh, kw, sh, sw, ph, pw;
    int64_t top;    /* zero rows above dY's: most taps of a phase along h, less one */
    int64_t left;   /* the same along w: zeros before dY's first row */
    int64_t xs;     /* the flat grid's row: ow + left */
    int64_t qn;     /* rows of a phase: (ih - 1 + ph) / sh + 1 */
    int64_t flat;   /* positions of a phase on the grid: qn * xs */
    int64_t rows;   /* dY's rows the phases read: min(oh, qn) */
    int64_t ocp;    /* channel pairs of dY */
    int64_t len;    /* packed dY: u32 an oc pair (multiple of 16) */
    int64_t plane;  /* floats of a phase and channel's sums: flat to whole vectors */
} cydnnl_bdd_t;

/* taps of phase r: k = r + s * a < taps */
static inline int64_t cydnnl_bdd_taps(int64_t taps, int64_t s, int64_t r) {
    return r < taps ? (taps - r + s - 1) / s : 0;
}

/* channels, sizes, taps, strides and left/top paddings (dense only) */
static inline void cydnnl_bdd_init(cydnnl_bdd_t *g, int64_t ic, int64_t oc, int64_t ih,
                                   int64_t iw, int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                                   int64_t sh, int64_t sw, int64_t ph, int64_t pw) {
    g->ic = ic; g->oc = oc; g->ih = ih; g->iw = iw; g->oh = oh; g->ow = ow;
    g->kh = kh; g->kw = kw; g->sh = sh; g->sw = sw; g->ph = ph; g->pw = pw;
    g->top = cydnnl_bdd_taps(kh, sh, 0) - 1;
    g->left = cydnnl_bdd_taps(kw, sw, 0) - 1;
    g->xs = ow + g->left;
    g->qn = (ih - 1 + ph) / sh + 1;
    g->flat = g->qn * g->xs;
    g->rows = oh < g->qn ? oh : g->qn;
    g->ocp = (oc + 1) / 2;
    /* reads reach left + (top + qn) * xs plus a vector past the last position */
    g->len = (g->left + (g->top + g->qn) * g->xs + 16 + 15) / 16 * 16;
    g->plane = (g->flat + 15) / 16 * 16;
}

/* floats of the sums: a plane per phase and input channel */
static inline int64_t cydnnl_bdd_out_len(const cydnnl_bdd_t *g) {
    return g->sh * g->sw * g->ic * g->plane;
}

/* u32 of packed weights: every tap once, an oc pair each */
static inline int64_t cydnnl_bdd_wei_len(const cydnnl_bdd_t *g) {
    return g->ocp * g->kh * g->kw * g->ic;
}

/* Phase (r, c)'s packed weights: taps of the phases before it in (r, c)
   order */
static inline int64_t cydnnl_bdd_wei_at(const cydnnl_bdd_t *g, int64_t r, int64_t c) {
    int64_t rows = 0, cols = 0;
    for (int64_t i = 0; i < r; i++)
        rows += cydnnl_bdd_taps(g->kh, g->sh, i);
    for (int64_t i = 0; i < c; i++)
        cols += cydnnl_bdd_taps(g->kw, g->sw, i);
    return g->ocp * g->ic * (rows * g->kw + cydnnl_bdd_taps(g->kh, g->sh, r) * cols);
}

static inline uint32_t cydnnl_bdd_pair(uint16_t lo, uint16_t hi) {
    return (uint32_t)lo | (uint32_t)hi << 16;
}

/* W (oc, ic, kh, kw), bf16, as phase (r, c), oc pair j, tap (a, b), ic:
   the pair's two channels in one u32 (the odd oc's partner zero) */
static inline void cydnnl_bdd_pack_wei(const cydnnl_bdd_t *g, const uint16_t *w, uint32_t *wp) {
    const int64_t ksz = g->kh * g->kw, osz = g->ic * ksz;
    for (int64_t r = 0; r < g->sh; r++)
        for (int64_t c = 0; c < g->sw; c++) {
            const int64_t na_ = cydnnl_bdd_taps(g->kh, g->sh, r);
            const int64_t nb = cydnnl_bdd_taps(g->kw, g->sw, c);
            uint32_t *o = wp + cydnnl_bdd_wei_at(g, r, c);
            for (int64_t j = 0; j < g->ocp; j++)
                for (int64_t a = 0; a < na_; a++)
                    for (int64_t b = 0; b < nb; b++)
                        for (int64_t i = 0; i < g->ic; i++) {
                            const int64_t t = i * ksz + (r + g->sh * a) * g->kw + c + g->sw * b;
                            const uint16_t hi = 2 * j + 1 < g->oc ? w[(2 * j + 1) * osz + t] : 0;
                            *o++ = cydnnl_bdd_pair(w[2 * j * osz + t], hi);
                        }
        }
}

#if defined(__AVX512BF16__)
#define CYDNNL_BDD 1

/* Channels-last: pixels x0 .. x0 + n - 1 (n <= 16) of a row (pixel x at
   row + x * ps), every pair, 16 pairs at a time transposed (a gather a
   pair took 3x as long on Zen 5); the odd channel's partner read as
   zero, nothing read past the last channel. o: pair 0's u32 of pixel x0,
   len apart. */
static inline void cydnnl_bdd_pack_nhwc(const uint16_t *row, int64_t ps, int64_t oc,
                                        int64_t x0, int n, uint32_t *o, int64_t len) {
    const __mmask16 lanes = (__mmask16)((1u << n) - 1);
    for (int64_t j0 = 0; 2 * j0 < oc; j0 += 16) {
        const int64_t ch = oc - 2 * j0 < 32 ? oc - 2 * j0 : 32;
        const __mmask32 k = (__mmask32)(ch == 32 ? 0xffffffffu : (1u << ch) - 1);
        __m512i r[16];
        for (int i = 0; i < 16; i++)
            r[i] = i < n ? _mm512_maskz_loadu_epi16(k, row + (x0 + i) * ps + 2 * j0)
                         : _mm512_setzero_si512();
        cydnnl_transpose16_epi32(r);
        const int np = (int)((ch + 1) / 2);
        for (int t = 0; t < np; t++)
            _mm512_mask_storeu_epi32(o + (j0 + t) * len, lanes, r[t]);
    }
}

/* Channels-first: one row of ow pixels of a channel pair (lo's partner cs
   further; none: odd), the two rows widened and merged. */
static inline void cydnnl_bdd_pack_row(const uint16_t *lo, int64_t cs, int odd, int64_t ow,
                                       uint32_t *o) {
    for (int64_t x = 0; x < ow; x += 16) {
        const __mmask16 k = (__mmask16)(ow - x >= 16 ? 0xffffu : (1u << (ow - x)) - 1);
        const __m512i l = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(k, lo + x));
        const __m512i h = odd ? _mm512_setzero_si512()
                              : _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(k, lo + cs + x));
        _mm512_mask_storeu_epi32(o + x, k, _mm512_or_si512(l, _mm512_slli_epi32(h, 16)));
    }
}

/* Rows y0 .. y1 - 1 (of g->rows) of dY (oc channels cs apart, pixels ps
   apart: nchw, ps 1, or nhwc, cs 1), bf16, onto the flat grid as oc
   pairs, len u32 each; the zeros around them with the first and last
   rows. */
static inline void cydnnl_bdd_pack_dy(const cydnnl_bdd_t *g, const uint16_t *dy, int64_t cs,
                                      int64_t ps, uint32_t *dyp, int64_t y0, int64_t y1) {
    const int64_t head = g->left + g->top * g->xs, body = head + g->rows * g->xs;
    for (int64_t j = 0; j < g->ocp; j++) {
        uint32_t *o = dyp + j * g->len;
        if (y0 == 0)
            memset(o, 0, head * sizeof(uint32_t));
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = g->ow; x < g->xs; x++)
                o[head + y * g->xs + x] = 0;
        if (y1 == g->rows)
            memset(o + body, 0, (g->len - body) * sizeof(uint32_t));
    }
    for (int64_t y = y0; y < y1; y++) {
        uint32_t *o = dyp + head + y * g->xs;
        const uint16_t *row = dy + y * g->ow * ps;
        if (cs == 1)
            for (int64_t x = 0; x < g->ow; x += 16)
                cydnnl_bdd_pack_nhwc(row, ps, g->oc, x, g->ow - x < 16 ? (int)(g->ow - x) : 16,
                                     o + x, g->len);
        else
            for (int64_t j = 0; j < g->ocp; j++)
                cydnnl_bdd_pack_row(row + 2 * j * cs, cs, 2 * j + 1 >= g->oc, g->ow,
                                    o + j * g->len);
    }
}

/* bytes yet to ask for into cache, from at on */
typedef struct {
    const char *at;
    int64_t left;
} cydnnl_bdd_pf_t;

/* MT input channels x NV vectors of flat positions (the tile's first at
   d's position) of one phase: its na x nb taps, every oc pair; w: the
   phase's packed weights at the tile's first channel. */
__attribute__((always_inline)) static inline void cydnnl_bdd_micro(
        const int MT, const int NV, const cydnnl_bdd_t *g,
        const uint32_t *w, const uint32_t *d, int64_t na_, int64_t nb, __m512 acc[3][8],
        cydnnl_bdd_pf_t *pf) {
    #pragma GCC unroll 3
    for (int m = 0; m < MT; m++)
        #pragma GCC unroll 8
        for (int v = 0; v < NV; v++)
            acc[m][v] = _mm512_setzero_ps();
    const int64_t ic = g->ic, xs = g->xs;
    /* the window of the taps' reads: a pair's is in L1 after its first
       taps; the next pair's is asked for meanwhile (else the loads waited on
       L2: 5% of the time) */
    const int64_t reach = (na_ - 1) * xs + nb - 1, span = (reach + 16 * NV) * 4;
    for (int64_t j = 0; j < g->ocp; j++, d += g->len) {
        const char *next = (const char *)(d + g->len - reach);
        for (int64_t o = 0; o < span + 63; o += 64)
            _mm_prefetch(next + o, _MM_HINT_T0);
        if (pf->left > 0) {
            _mm_prefetch(pf->at, _MM_HINT_T1);
            pf->at += 64;
            pf->left -= 64;
        }
        /* the tap counts as constants measured slower: GCC kept the
           unrolled taps' offsets on the stack */
        for (int64_t a = 0; a < na_; a++)
            for (int64_t b = 0; b < nb; b++, w += ic) {
                const uint32_t *x = d - a * xs - b;
                __m512bh wv[3];
                #pragma GCC unroll 3
                for (int m = 0; m < MT; m++)
                    wv[m] = (__m512bh)_mm512_set1_epi32((int)w[m]);
                #pragma GCC unroll 8
                for (int v = 0; v < NV; v++) {
                    const __m512bh xv = (__m512bh)_mm512_loadu_si512(x + 16 * v);
                    #pragma GCC unroll 3
                    for (int m = 0; m < MT; m++)
                        acc[m][v] = _mm512_dpbf16_ps(acc[m][v], wv[m], xv);
                }
            }
    }
}

#define CYDNNL_BDD_MICRO(MT, NV) \
    cydnnl_bdd_micro(MT, NV, g, w, d, na_, nb, acc, pf)

/* Positions p0 .. p0 + 16 nv - 1 (nv 1, 2, 4 or 8) of every phase and
   channel, into out's planes (64-byte aligned). */
static inline void cydnnl_bdd_tile(const cydnnl_bdd_t *g, const uint32_t *wp,
                                   const uint32_t *dyp, float *out, int64_t p0, int nv,
                                   cydnnl_bdd_pf_t *pf) {
    __m512 acc[3][8] = {{{0}}};     /* set by the micro-kernel; zeroed for GCC's warning */
    /* flat position p0 of tap (0, 0): row top, after the guard */
    const uint32_t *d = dyp + g->left + g->top * g->xs + p0;
    for (int64_t r = 0; r < g->sh; r++)
        for (int64_t c = 0; c < g->sw; c++) {
            const int64_t na_ = cydnnl_bdd_taps(g->kh, g->sh, r);
            const int64_t nb = cydnnl_bdd_taps(g->kw, g->sw, c);
            const uint32_t *wph = wp + cydnnl_bdd_wei_at(g, r, c);
            for (int64_t ic0 = 0; ic0 < g->ic; ic0 += 3) {
                const int mt = g->ic - ic0 < 3 ? (int)(g->ic - ic0) : 3;
                const uint32_t *w = wph + ic0;
                /* a constant tile: its accumulators in registers */
                switch (mt * 16 + nv) {
                case 0x38: CYDNNL_BDD_MICRO(3, 8); break;
                case 0x34: CYDNNL_BDD_MICRO(3, 4); break;
                case 0x32: CYDNNL_BDD_MICRO(3, 2); break;
                case 0x31: CYDNNL_BDD_MICRO(3, 1); break;
                case 0x28: CYDNNL_BDD_MICRO(2, 8); break;
                case 0x24: CYDNNL_BDD_MICRO(2, 4); break;
                case 0x22: CYDNNL_BDD_MICRO(2, 2); break;
                case 0x21: CYDNNL_BDD_MICRO(2, 1); break;
                case 0x18: CYDNNL_BDD_MICRO(1, 8); break;
                case 0x14: CYDNNL_BDD_MICRO(1, 4); break;
                case 0x12: CYDNNL_BDD_MICRO(1, 2); break;
                default: CYDNNL_BDD_MICRO(1, 1); break;
                }
                float *o = out + ((r * g->sw + c) * g->ic + ic0) * g->plane + p0;
                #pragma GCC unroll 3
                for (int m = 0; m < mt; m++)
                    #pragma GCC unroll 8
                    for (int v = 0; v < nv; v++)
                        _mm512_store_ps(o + m * g->plane + 16 * v, acc[m][v]);
            }
        }
}

/* Positions [p0, p1) of every phase (p0 a multiple of 16) into out:
   tiles of 8 vectors, the rest in tiles of 4, 2, 1. Meanwhile the bytes
   [pf, pf + pf_len) are asked for into cache, a line an oc pair's taps
   (the next rows of dY: their packing waited on memory, 13% of AlexNet
   conv1's time; asked for a slice a tile, they were mostly dropped; pf
   NULL: none). */
static inline void cydnnl_bdd_span(const cydnnl_bdd_t *g, const uint32_t *wp,
                                   const uint32_t *dyp, float *out, int64_t p0, int64_t p1,
                                   const char *pf, int64_t pf_len) {
    cydnnl_bdd_pf_t ask = {pf, pf == NULL ? 0 : pf_len};
    int64_t vecs = (p1 - p0 + 15) / 16;
    for (; vecs >= 8; vecs -= 8, p0 += 128)
        cydnnl_bdd_tile(g, wp, dyp, out, p0, 8, &ask);
    for (int nv = 4; nv >= 1; nv /= 2)
        if (vecs >= nv) {
            cydnnl_bdd_tile(g, wp, dyp, out, p0, nv, &ask);
            vecs -= nv;
            p0 += 16 * nv;
        }
}
#endif /* __AVX512BF16__ */
#endif /* CYDNNL_BWD_DATA_DIRECT_H */
