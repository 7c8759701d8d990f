/* Backward data's col2im for a channels-first diff_src, by phases of the
   stride (kernels/col2im.pxd declares it to Cython). Along w, tap kw of
   output column ow lands on iw + pw = ow * sw + kw * (dw + 1): writing
   that as a * sw + r, phase r = kw * (dw + 1) mod sw and
   a = ow + kw * (dw + 1) / sw. So each input row keeps sw phase rows of
   `na` sums, where one tap's row of col adds contiguously (vectors, where
   the input row itself takes them sw apart: the scalar scatter was a third
   of AlexNet conv1's backward data); the phases are interleaved into the
   row once, at the end. */
#ifndef CYDNNL_COL2IM_PHASES_H
#define CYDNNL_COL2IM_PHASES_H
#include <stdint.h>
#include <string.h>
#include "cydnnl_common.h"
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#define CYDNNL_C2I_MAXT 32  /* taps summed in registers per pass over a phase row */

typedef struct {
    int64_t ow, iw;         /* output and input widths */
    int64_t kw, sw, dw, pw; /* taps, stride, dilation (oneDNN's: 0 = dense), left padding */
    int64_t na;             /* sums per phase row: ow + (kw - 1) * (dw + 1) / sw + 1 */
    int64_t pst;            /* the row pass's: floats from a phase row to the next (na,
                               or bwd_data_direct.h's phase planes) */
    /* the taps in runs of one phase (at most CYDNNL_C2I_MAXT a run; kw <=
       CYDNNL_C2I_MAXT taps, else nruns = 0 and each tap is its own run):
       run u holds taps tap[run[u]] .. tap[run[u + 1] - 1], in phase
       phase[u], tap t landing from position shift[t] on */
    int nruns;
    int run[CYDNNL_C2I_MAXT + 1];
    int64_t phase[CYDNNL_C2I_MAXT], tap[CYDNNL_C2I_MAXT], shift[CYDNNL_C2I_MAXT];
} cydnnl_col2im_w_t;

static inline void cydnnl_col2im_w_init(cydnnl_col2im_w_t *g, int64_t ow, int64_t iw,
                                        int64_t kw, int64_t sw, int64_t dw, int64_t pw) {
    g->ow = ow;
    g->iw = iw;
    g->kw = kw;
    g->sw = sw;
    g->dw = dw;
    g->pw = pw;
    g->na = ow + (kw - 1) * (dw + 1) / sw + 1;
    g->pst = g->na;
    g->nruns = 0;
    if (kw > CYDNNL_C2I_MAXT)
        return;
    /* taps by phase (a stable insertion sort: the stride's divisions once,
       not per output row) */
    int64_t ph[CYDNNL_C2I_MAXT];
    for (int t = 0; t < (int)kw; t++) {
        const int64_t off = t * (dw + 1), p = off % sw;
        int i = t;
        for (; i > 0 && ph[i - 1] > p; i--) {
            ph[i] = ph[i - 1];
            g->tap[i] = g->tap[i - 1];
            g->shift[i] = g->shift[i - 1];
        }
        ph[i] = p;
        g->tap[i] = t;
        g->shift[i] = off / sw;
    }
    for (int t = 0; t < (int)kw; t++)
        if (t == 0 || ph[t] != ph[t - 1]) {
            g->run[g->nruns] = t;
            g->phase[g->nruns++] = ph[t];
        }
    g->run[g->nruns] = (int)kw;
}

#if defined(__AVX512F__)
#include <immintrin.h>
#define CYDNNL_C2I_VW 16
#elif defined(__AVX__)
#define CYDNNL_C2I_VW 8
#elif defined(__SSE2__)
#define CYDNNL_C2I_VW 4
#else
#define CYDNNL_C2I_VW 1
#endif

/* The adds' vectors: masked loads and stores where the level has them
   (AVX-512's, AVX's vmaskmov: AlexNet conv1's adds 250 -> 150 us an image at
   avx2 on Zen 4, from vectors along each row with scalar edges); SSE's edge
   vectors go lane by lane. cydnnl_c2i_lanes: lanes j of a vector from col
   index lo on with 0 <= lo + j < n; lanes outside are never touched. */
/* lanes l0 .. l1 - 1 of a vector from col index lo on: 0 <= lo + j < n */
static inline void cydnnl_c2i_span(int64_t lo, int64_t n, int64_t *l0, int64_t *l1) {
    const int64_t a = lo < 0 ? -lo : 0, b = n - lo;
    *l0 = a > CYDNNL_C2I_VW ? CYDNNL_C2I_VW : a;
    *l1 = b > CYDNNL_C2I_VW ? CYDNNL_C2I_VW : b < 0 ? 0 : b;
}

/* the same lanes as bits (vectors of up to 16 lanes) */
static inline unsigned cydnnl_c2i_bits(int64_t lo, int64_t n) {
    int64_t l0, l1;
    cydnnl_c2i_span(lo, n, &l0, &l1);
    return ((1u << l1) - 1) & ~((1u << l0) - 1);
}

#if CYDNNL_C2I_VW == 16
#define CYDNNL_C2I_RUNS 1
typedef __m512 cydnnl_c2i_v;
typedef __mmask16 cydnnl_c2i_m;
#define cydnnl_c2i_lanes(lo, n) ((__mmask16)cydnnl_c2i_bits(lo, n))
#define cydnnl_c2i_full(m) ((m) == 0xffff)
#define cydnnl_c2i_ld(p) _mm512_loadu_ps(p)
#define cydnnl_c2i_st(p, v) _mm512_storeu_ps(p, v)
#define cydnnl_c2i_ldm(m, p) _mm512_maskz_loadu_ps(m, p)
#define cydnnl_c2i_stm(m, p, v) _mm512_mask_storeu_ps(p, m, v)
#define cydnnl_c2i_add(a, b) _mm512_add_ps(a, b)
#elif CYDNNL_C2I_VW == 8
#include <immintrin.h>
#define CYDNNL_C2I_RUNS 1
typedef __m256 cydnnl_c2i_v;
typedef __m256i cydnnl_c2i_m;
static inline cydnnl_c2i_m cydnnl_c2i_lanes(int64_t lo, int64_t n) {
    /* lanes from l0 on, and lanes below l1, out of a window of a table */
    static const int32_t from[16] = {0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1};
    static const int32_t below[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    int64_t l0, l1;
    cydnnl_c2i_span(lo, n, &l0, &l1);
    return _mm256_castps_si256(_mm256_and_ps(
        _mm256_loadu_ps((const float *)(from + 8 - l0)),
        _mm256_loadu_ps((const float *)(below + 8 - l1))));
}
#define cydnnl_c2i_full(m) (_mm256_movemask_ps(_mm256_castsi256_ps(m)) == 0xff)
#define cydnnl_c2i_ld(p) _mm256_loadu_ps(p)
#define cydnnl_c2i_st(p, v) _mm256_storeu_ps(p, v)
#define cydnnl_c2i_ldm(m, p) _mm256_maskload_ps(p, m)
#define cydnnl_c2i_stm(m, p, v) _mm256_maskstore_ps(p, m, v)
#define cydnnl_c2i_add(a, b) _mm256_add_ps(a, b)
#elif CYDNNL_C2I_VW == 4
#define CYDNNL_C2I_RUNS 1
typedef __m128 cydnnl_c2i_v;
typedef unsigned cydnnl_c2i_m;
#define cydnnl_c2i_lanes cydnnl_c2i_bits
#define cydnnl_c2i_full(m) ((m) == 0xf)
#define cydnnl_c2i_ld(p) _mm_loadu_ps(p)
#define cydnnl_c2i_st(p, v) _mm_storeu_ps(p, v)
#define cydnnl_c2i_add(a, b) _mm_add_ps(a, b)
#endif

#ifdef CYDNNL_C2I_RUNS
/* One phase's nt taps (rows c[t] of n sums, landing from position s[t] on)
   of nrows rows (row j: phase row p0 + j * pstep, taps c[t] + j * cstep),
   a vector position at a time for all the rows, its masks worked out once.
   Each sum gets its terms in tap order. */
__attribute__((always_inline)) static inline void cydnnl_c2i_run(
        const int nt, float *__restrict p0, int64_t pstep, const float *const *c0,
        const int64_t *s, int64_t n, int64_t cstep, int64_t nrows) {
    const float *c[CYDNNL_C2I_MAXT];
    cydnnl_c2i_m mt[CYDNNL_C2I_MAXT];
    int64_t smin = s[0], smax = s[0];
    for (int t = 0; t < nt; t++) {
        smin = s[t] < smin ? s[t] : smin;
        smax = s[t] > smax ? s[t] : smax;
    }
    const int64_t end = smax + n;
    for (int64_t a0 = smin; a0 < end; a0 += CYDNNL_C2I_VW) {
        const cydnnl_c2i_m m = cydnnl_c2i_lanes(a0, end);
        int full = cydnnl_c2i_full(m);
        for (int t = 0; t < nt; t++) {
            mt[t] = cydnnl_c2i_lanes(a0 - s[t], n);
            full &= cydnnl_c2i_full(mt[t]);
            /* as an integer: masked lanes before the row are never read, and
               no pointer is formed before it */
            c[t] = (const float *)((uintptr_t)c0[t] + (uintptr_t)((a0 - s[t]) * 4));
        }
        float *p = p0 + a0;
        if (full) {
            for (int64_t j = 0; j < nrows; j++, p += pstep) {
                cydnnl_c2i_v acc = cydnnl_c2i_ld(p);
                for (int t = 0; t < nt; t++)
                    acc = cydnnl_c2i_add(acc, cydnnl_c2i_ld(
                        (const float *)((uintptr_t)c[t] + (uintptr_t)(j * cstep * 4))));
                cydnnl_c2i_st(p, acc);
            }
            continue;
        }
#if CYDNNL_C2I_VW == 4
        /* no masked loads: such a vector's lanes one at a time, each sum
           with the taps that reach it */
        for (int l = 0; l < 4 && a0 + l < end; l++) {
            unsigned reach = 0;
            for (int t = 0; t < nt; t++)
                reach |= (mt[t] >> l & 1u) << t;
            float *q = p + l;
            for (int64_t j = 0; j < nrows; j++, q += pstep) {
                float v = *q;
                for (int t = 0; t < nt; t++)
                    if (reach >> t & 1u)
                        v += *(const float *)((uintptr_t)c[t] + (uintptr_t)((j * cstep + l) * 4));
                *q = v;
            }
        }
#else
        for (int64_t j = 0; j < nrows; j++, p += pstep) {
            cydnnl_c2i_v acc = cydnnl_c2i_ldm(m, p);
            for (int t = 0; t < nt; t++)
                acc = cydnnl_c2i_add(acc, cydnnl_c2i_ldm(
                    mt[t], (const float *)((uintptr_t)c[t] + (uintptr_t)(j * cstep * 4))));
            cydnnl_c2i_stm(m, p, acc);
        }
#endif
    }
}
#endif

/* Taps t < nt (rows c[t] of n sums, landing from position s[t] on) into
   one phase row p: every vector of p loaded and stored once, the taps'
   sums added in registers. Tap by tap, each one's loads overlapped the
   previous one's stores a position off (store forwarding fails): the adds
   ran at a quarter of their speed. */
static inline void cydnnl_col2im_add_phase(float *__restrict p, int64_t n,
                                           const float *const *c, const int64_t *s, int nt) {
#ifdef CYDNNL_C2I_RUNS
    cydnnl_c2i_run(nt, p, 0, c, s, n, 0, 1);
#else   /* no SSE2: one sum at a time */
    int64_t smin = s[0], smax = s[0];
    for (int t = 1; t < nt; t++) {
        smin = s[t] < smin ? s[t] : smin;
        smax = s[t] > smax ? s[t] : smax;
    }
    for (int64_t a = smin; a < smax + n; a++) {
        float v = p[a];
        for (int t = 0; t < nt; t++)
            if (a - s[t] >= 0 && a - s[t] < n)
                v += c[t][a - s[t]];
        p[a] = v;
    }
#endif
}

/* The kw taps' rows of col (ldk apart) of one output row, its columns o0
   .. o0 + n - 1 (col points at o0: a block of pixels may cut the row),
   into the phase rows of one input row (sw rows of na, contiguous). */
static inline void cydnnl_col2im_add(const cydnnl_col2im_w_t *g, float *__restrict phases,
                                     const float *__restrict col, int64_t ldk, int64_t o0,
                                     int64_t n) {
    const float *c[CYDNNL_C2I_MAXT];
    phases += o0;   /* column o of tap t at o + shift[t]: from o0 on, a row of n */
    if (g->nruns == 0) {    /* more taps than the tables hold: one at a time */
        for (int64_t t = 0; t < g->kw; t++) {
            const int64_t off = t * (g->dw + 1), sh = off / g->sw;
            c[0] = col + t * ldk;
            cydnnl_col2im_add_phase(phases + (off % g->sw) * g->na, n, c, &sh, 1);
        }
        return;
    }
    for (int u = 0; u < g->nruns; u++) {
        const int t0 = g->run[u], nt = g->run[u + 1] - t0;
        for (int t = 0; t < nt; t++)
            c[t] = col + g->tap[t0 + t] * ldk;
        cydnnl_col2im_add_phase(phases + g->phase[u] * g->na, n, c, g->shift + t0, nt);
    }
}

/* nrows rows that share a column range: columns o0 .. o0 + n - 1 of each
   (row j's taps at col + j * cstep, ldk apart; col at o0) into the phase
   rows of their input rows, pstep floats apart - whole output rows of a
   block (cstep = ow), or the kernel rows of one output row the block cuts
   (cstep = kw * ldk). Every row has the same masks: cydnnl_c2i_run (row by
   row, the mask arithmetic and the branches took most of the adds' time).
   Each sum gets its terms in the order cydnnl_col2im_add gives them. */
static inline void cydnnl_col2im_add_rows(const cydnnl_col2im_w_t *g, float *__restrict phases,
                                          int64_t pstep, const float *__restrict col,
                                          int64_t cstep, int64_t ldk, int64_t o0, int64_t n,
                                          int64_t nrows) {
#ifdef CYDNNL_C2I_RUNS
    if (g->nruns > 0) {
        for (int u = 0; u < g->nruns; u++) {
            const int t0 = g->run[u], nt = g->run[u + 1] - t0;
            const float *c[CYDNNL_C2I_MAXT];    /* tap t's row (row 0 of the block's rows) */
            for (int t = 0; t < nt; t++)
                c[t] = col + g->tap[t0 + t] * ldk;
            float *p0 = phases + o0 + g->phase[u] * g->na;
            /* a constant count of taps: their rows, shifts and masks in registers
               (a count known only at run time: AlexNet conv1's adds 1.35x as long) */
            switch (nt) {
            case 1: cydnnl_c2i_run(1, p0, pstep, c, g->shift + t0, n, cstep, nrows); break;
            case 2: cydnnl_c2i_run(2, p0, pstep, c, g->shift + t0, n, cstep, nrows); break;
            case 3: cydnnl_c2i_run(3, p0, pstep, c, g->shift + t0, n, cstep, nrows); break;
            case 4: cydnnl_c2i_run(4, p0, pstep, c, g->shift + t0, n, cstep, nrows); break;
            default: cydnnl_c2i_run(nt, p0, pstep, c, g->shift + t0, n, cstep, nrows); break;
            }
        }
        return;
    }
#endif
    for (int64_t j = 0; j < nrows; j++)
        cydnnl_col2im_add(g, phases + j * pstep, col + j * cstep, ldk, o0, n);
}

/* The sums of phase position a into row (those at 0 <= j < iw); the row's
   end from `*i` on when the row is complete. Returns 1 when it is. */
static inline int cydnnl_col2im_put(const cydnnl_col2im_w_t *g, const float *__restrict phases,
                                    float *__restrict row, int64_t a, int64_t *i) {
    for (int64_t r = 0; r < g->sw; r++) {
        const int64_t j = a * g->sw + r - g->pw;
        if (j < 0)
            continue;
        if (j >= g->iw)
            return 1;
        row[j] = phases[r * g->pst + a];
        *i = j + 1;
    }
    return 0;
}

/* One input row from its phase rows: row[i] = sum at i + pw. */
static inline void cydnnl_col2im_row(const cydnnl_col2im_w_t *g, const float *__restrict phases,
                                     float *__restrict row) {
    const int64_t sw = g->sw, na = g->na, pw = g->pw, iw = g->iw, pst = g->pst;
    int64_t i = 0;
    if (sw == 1) {
        /* sums at positions past na are none */
        const int64_t n = na - pw < iw ? na - pw : iw;
        if (n > 0) {
            memcpy(row, phases + pw, n * sizeof(float));
            i = n;
        }
    } else {
        int64_t a = pw / sw;
        /* from the first position whose phase 0 lands in the row, vectors */
        for (; a < na && a * sw < pw; a++)
            if (cydnnl_col2im_put(g, phases, row, a, &i))
                return;
#if defined(__SSE2__)
        if (sw == 4)    /* AlexNet conv1's stride: 4 positions of each phase, transposed */
            for (; a + 4 <= na && 4 * a + 16 - pw <= iw; a += 4) {
                float *o = row + 4 * a - pw;
                __m128 p0 = _mm_loadu_ps(phases + a), p1 = _mm_loadu_ps(phases + pst + a);
                __m128 p2 = _mm_loadu_ps(phases + 2 * pst + a);
                __m128 p3 = _mm_loadu_ps(phases + 3 * pst + a);
                _MM_TRANSPOSE4_PS(p0, p1, p2, p3);
                _mm_storeu_ps(o, p0);
                _mm_storeu_ps(o + 4, p1);
                _mm_storeu_ps(o + 8, p2);
                _mm_storeu_ps(o + 12, p3);
                i = 4 * a + 16 - pw;
            }
        else if (sw == 2)
            for (; a + 4 <= na && 2 * a + 8 - pw <= iw; a += 4) {
                float *o = row + 2 * a - pw;
                __m128 p0 = _mm_loadu_ps(phases + a), p1 = _mm_loadu_ps(phases + pst + a);
                _mm_storeu_ps(o, _mm_unpacklo_ps(p0, p1));
                _mm_storeu_ps(o + 4, _mm_unpackhi_ps(p0, p1));
                i = 2 * a + 8 - pw;
            }
#endif
        for (; a < na; a++)
            if (cydnnl_col2im_put(g, phases, row, a, &i))
                return;
    }
    for (; i < iw; i++)     /* right of every tap's reach */
        row[i] = 0.f;
}
#if defined(__AVX512BW__) && defined(__AVX512VL__)
/* Stride 4's row pass into a bf16 row, rounded as cydnnl_f32_to_bf16: 16
   positions of the 4 phases a step, zipped into 64 outputs, the row's end
   by masks (AlexNet conv1's bf16 backward data: the f32 row's 4x4
   transposes, then rounding it, took 7% of the time; its end position by
   position, 5%). Returns 0 (row untouched) for other strides. */
static inline int cydnnl_col2im_row4_bf16(const cydnnl_col2im_w_t *g,
                                          const float *__restrict phases,
                                          uint16_t *__restrict row) {
    const int64_t na = g->na, pw = g->pw, iw = g->iw, pst = g->pst;
    int64_t i = 0, a = 0;
    if (g->sw != 4)
        return 0;
    for (; a < na && a * 4 < pw; a++)   /* positions landing left of the row too */
        for (int64_t r = 0; r < 4; r++) {
            const int64_t j = a * 4 + r - pw;
            if (j >= iw)
                return 1;
            if (j >= 0)
                row[i = j] = cydnnl_f32_to_bf16(phases[r * pst + a]), i++;
        }
    if (a * 4 < pw) {       /* every position's outputs placed */
        for (; i < iw; i++)
            row[i] = 0;
        return 1;
    }
    /* outputs from 4 a - pw on: positions past na read as zeros */
    for (; 4 * a - pw < iw; a += 16) {
        const int64_t np = na - a, j0 = 4 * a - pw;
        const __mmask16 k = (__mmask16)(np >= 16 ? 0xffffu : np <= 0 ? 0u : (1u << np) - 1);
        const __m512 p0 = _mm512_maskz_loadu_ps(k, phases + a);
        const __m512 p1 = _mm512_maskz_loadu_ps(k, phases + pst + a);
        const __m512 p2 = _mm512_maskz_loadu_ps(k, phases + 2 * pst + a);
        const __m512 p3 = _mm512_maskz_loadu_ps(k, phases + 3 * pst + a);
        /* u_m's lane l: positions 4 l + m of the 4 phases, in phase order */
        const __m512d t0 = _mm512_castps_pd(_mm512_unpacklo_ps(p0, p1));
        const __m512d t1 = _mm512_castps_pd(_mm512_unpackhi_ps(p0, p1));
        const __m512d t2 = _mm512_castps_pd(_mm512_unpacklo_ps(p2, p3));
        const __m512d t3 = _mm512_castps_pd(_mm512_unpackhi_ps(p2, p3));
        const __m512 u0 = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
        const __m512 u1 = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
        const __m512 u2 = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
        const __m512 u3 = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
        /* output vector q: lane q of u0 .. u3 */
        const __m512 l01 = _mm512_shuffle_f32x4(u0, u1, 0x44);
        const __m512 l23 = _mm512_shuffle_f32x4(u2, u3, 0x44);
        const __m512 h01 = _mm512_shuffle_f32x4(u0, u1, 0xee);
        const __m512 h23 = _mm512_shuffle_f32x4(u2, u3, 0xee);
        const __m512 v[4] = {_mm512_shuffle_f32x4(l01, l23, 0x88),
                             _mm512_shuffle_f32x4(l01, l23, 0xdd),
                             _mm512_shuffle_f32x4(h01, h23, 0x88),
                             _mm512_shuffle_f32x4(h01, h23, 0xdd)};
        for (int q = 0; q < 4 && j0 + 16 * q < iw; q++) {
            const int64_t n = iw - j0 - 16 * q;
            _mm256_mask_storeu_epi16(row + j0 + 16 * q,
                                     (__mmask16)(n >= 16 ? 0xffffu : (1u << n) - 1),
                                     cydnnl_f32_to_bf16_16(v[q]));
        }
    }
    return 1;
}
#endif
#endif /* CYDNNL_COL2IM_PHASES_H */
