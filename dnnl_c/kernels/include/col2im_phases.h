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
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

typedef struct {
    int64_t ow, iw;         /* output and input widths */
    int64_t kw, sw, dw, pw; /* taps, stride, dilation (oneDNN's: 0 = dense), left padding */
    int64_t na;             /* sums per phase row: ow + (kw - 1) * (dw + 1) / sw + 1 */
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
}

/* The kw taps' rows of col (ldk apart, ow sums each) of one output row
   into the phase rows of one input row (sw rows of na, contiguous). */
static inline void cydnnl_col2im_add(const cydnnl_col2im_w_t *g, float *__restrict phases,
                                     const float *__restrict col, int64_t ldk) {
    for (int64_t kw = 0; kw < g->kw; kw++) {
        const int64_t off = kw * (g->dw + 1);
        float *__restrict a = phases + (off % g->sw) * g->na + off / g->sw;
        const float *__restrict c = col + kw * ldk;
        for (int64_t o = 0; o < g->ow; o++)
            a[o] += c[o];
    }
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
        row[j] = phases[r * g->na + a];
        *i = j + 1;
    }
    return 0;
}

/* One input row from its phase rows: row[i] = sum at i + pw. */
static inline void cydnnl_col2im_row(const cydnnl_col2im_w_t *g, const float *__restrict phases,
                                     float *__restrict row) {
    const int64_t sw = g->sw, na = g->na, pw = g->pw, iw = g->iw;
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
                __m128 p0 = _mm_loadu_ps(phases + a), p1 = _mm_loadu_ps(phases + na + a);
                __m128 p2 = _mm_loadu_ps(phases + 2 * na + a);
                __m128 p3 = _mm_loadu_ps(phases + 3 * na + a);
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
                __m128 p0 = _mm_loadu_ps(phases + a), p1 = _mm_loadu_ps(phases + na + a);
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
#endif /* CYDNNL_COL2IM_PHASES_H */
