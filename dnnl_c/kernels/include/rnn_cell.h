/* The LSTM cell's element-wise part (oneDNN's ref_postgemm_lstm.cpp), fused
   over the four gates, for the RNN driver (kernels/rnn.pyx). Gate order
   i, f, c~, o; peephole order i, f, o. Rows are the batch; gates rows hold
   4 * dhc values. f32 throughout: the driver stages other data types. */
#ifndef CYDNNL_RNN_CELL_H
#define CYDNNL_RNN_CELL_H
#include <math.h>
#include <stdlib.h>
#include "cydnnl_common.h"

/* exp without branches or library calls, so the gate loops vectorise at
   the width the including file is compiled for (kernels/isa/rnn_isa.c per
   ISA level): Cephes' expf, 2^n * p(r) with r = x - n ln2, a few ulp. */
CYDNNL_INLINE float cydnnl_rnn_exp(float x) {
    float n, r, p, scale;
    int32_t e;
    /* selects, not fminf/fmaxf, and rounding by adding 1.5 * 2^23: GCC
       vectorises these without -ffast-math - at SSE and AVX2 only with
       -fno-trapping-math (setup.py's ISA_MODULE_FLAGS), else the selects
       stay branches */
    x = x < -87.0f ? -87.0f : x;
    x = x > 88.0f ? 88.0f : x;
    n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    r = x - n * 0.693359375f + n * 2.12194440e-4f;
    p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    e = ((int32_t)n + 127) << 23;
    memcpy(&scale, &e, sizeof(scale));
    return p * scale;
}

CYDNNL_INLINE float cydnnl_sigmoid(float x) { return 1.0f / (1.0f + cydnnl_rnn_exp(-x)); }

/* tanh(x) = (1 - e) / (1 + e), e = exp(-2|x|), with x's sign */
CYDNNL_INLINE float cydnnl_rnn_tanh(float x) {
    float e = cydnnl_rnn_exp(-2.0f * fabsf(x));
    return copysignf((1.0f - e) / (1.0f + e), x);
}

/* One row of the forward cell; every pointer valid (zeros stand for what is
   absent), so the loop has no branches and vectorises. */
CYDNNL_INLINE void cydnnl_lstm_fwd_row(int64_t len, int64_t dhc, float *CYDNNL_RESTRICT g,
                                       const float *CYDNNL_RESTRICT bias,
                                       const float *CYDNNL_RESTRICT peep,
                                       const float *CYDNNL_RESTRICT cp,
                                       float *CYDNNL_RESTRICT c, float *CYDNNL_RESTRICT h) {
    int64_t j;
    for (j = 0; j < len; j++) {
        float gi = g[j] + bias[j] + peep[j] * cp[j];
        float gf = g[dhc + j] + bias[dhc + j] + peep[dhc + j] * cp[j];
        float gc = cydnnl_rnn_tanh(g[2 * dhc + j] + bias[2 * dhc + j]);
        float ct, go;
        gi = cydnnl_sigmoid(gi);
        gf = cydnnl_sigmoid(gf);
        ct = gf * cp[j] + gi * gc;
        go = cydnnl_sigmoid(g[3 * dhc + j] + bias[3 * dhc + j] + peep[2 * dhc + j] * ct);
        g[j] = gi;
        g[dhc + j] = gf;
        g[2 * dhc + j] = gc;
        g[3 * dhc + j] = go;
        c[j] = ct;
        h[j] = go * cydnnl_rnn_tanh(ct);
    }
}

/* Zeros for the absent inputs of a cell (NULL: out of memory). */
static float *cydnnl_rnn_zeros(int64_t n) { return (float *)calloc((size_t)n + 16, sizeof(float)); }

/* Columns [j0, j1) of the cell for n rows; the rows split between threads
   when `threaded` (else the caller's thread does them: the driver calls it
   from its own threads, each for its columns).
   gates: the products' sums in, the activated gates out (what backward
   reads). bias (4 x dhc), peep (3 x dhc) and c_prev (NULL: zeros) may be
   NULL. c_out and h_out: n x dhc, rows ldc and ldh apart. */
static void cydnnl_lstm_fwd_cell(int64_t n, int64_t dhc, int64_t j0, int64_t j1,
                                 float *gates, int64_t ldg, const float *bias,
                                 const float *peep, const float *c_prev, int64_t ldcp,
                                 float *c_out, int64_t ldc, float *h_out, int64_t ldh,
                                 int threaded) {
    float *zeros = NULL;
    int64_t r;
    if (!bias || !peep || !c_prev) {
        zeros = cydnnl_rnn_zeros(dhc * 4);
        if (!zeros) return;
        if (!bias) bias = zeros;
        if (!peep) peep = zeros;
        if (!c_prev) { c_prev = zeros; ldcp = 0; }
    }
#pragma omp parallel for schedule(static) if (threaded && n * dhc > 4096)
    for (r = 0; r < n; r++)
        cydnnl_lstm_fwd_row(j1 - j0, dhc, gates + r * ldg + j0, bias + j0, peep + j0,
                            c_prev + r * ldcp + j0, c_out + r * ldc + j0,
                            h_out + r * ldh + j0);
    free(zeros);
}

CYDNNL_INLINE void cydnnl_lstm_bwd_row(int64_t len, int64_t dhc, const float *CYDNNL_RESTRICT g,
                                       const float *CYDNNL_RESTRICT peep,
                                       const float *CYDNNL_RESTRICT cp,
                                       const float *CYDNNL_RESTRICT c,
                                       const float *CYDNNL_RESTRICT dh,
                                       float *CYDNNL_RESTRICT dc, float *CYDNNL_RESTRICT d) {
    int64_t j;
    for (j = 0; j < len; j++) {
        float gi = g[j], gf = g[dhc + j], gc = g[2 * dhc + j], go = g[3 * dhc + j];
        float tc = cydnnl_rnn_tanh(c[j]);
        float dht = dh[j];
        float dgo = tc * dht * go * (1.0f - go);
        float dct = dc[j] + (1.0f - tc * tc) * go * dht + dgo * peep[2 * dhc + j];
        float dgf = cp[j] * dct * gf * (1.0f - gf);
        float dgi = gc * dct * gi * (1.0f - gi);
        float dgc = gi * dct * (1.0f - gc * gc);
        d[j] = dgi;
        d[dhc + j] = dgf;
        d[2 * dhc + j] = dgc;
        d[3 * dhc + j] = dgo;
        dc[j] = dct * gf + dgf * peep[dhc + j] + dgi * peep[j];
    }
}

/* One step back, columns [j0, j1) as forward: dh (the gradient reaching h before any projection) and
   dc (the one reaching c_t, in; the one reaching c_{t-1}, out) give the
   gates' gradient dg (n x 4 dhc, rows ldg apart). gates are the activated
   gates forward stored; c_prev may be NULL (zeros). dpeep (3 x dhc, may be
   NULL) accumulates the peephole weights' gradient. */
static void cydnnl_lstm_bwd_cell(int64_t n, int64_t dhc, int64_t j0, int64_t j1,
                                 const float *gates, int64_t ldg, const float *peep,
                                 const float *c_prev, int64_t ldcp, const float *c_t,
                                 int64_t ldc, const float *dh, int64_t lddh, float *dc,
                                 int64_t lddc, float *dg, int64_t lddg, float *dpeep,
                                 int threaded) {
    float *zeros = NULL;
    int64_t r;
    if (!peep || !c_prev) {
        zeros = cydnnl_rnn_zeros(dhc * 3);
        if (!zeros) return;
        if (!peep) peep = zeros;
        if (!c_prev) { c_prev = zeros; ldcp = 0; }
    }
#pragma omp parallel for schedule(static) if (threaded && n * dhc > 4096)
    for (r = 0; r < n; r++)
        cydnnl_lstm_bwd_row(j1 - j0, dhc, gates + r * ldg + j0, peep + j0,
                            c_prev + r * ldcp + j0, c_t + r * ldc + j0, dh + r * lddh + j0,
                            dc + r * lddc + j0, dg + r * lddg + j0);
    if (dpeep) {
        /* i and f see c_{t-1}, o sees c_t; columns split between threads */
        int64_t j;
#pragma omp parallel for schedule(static) if (threaded && n * dhc > 4096)
        for (j = j0; j < j1; j++) {
            float si = 0.0f, sf = 0.0f, so = 0.0f;
            int64_t rr;
            for (rr = 0; rr < n; rr++) {
                si += dg[rr * lddg + j] * c_prev[rr * ldcp + j];
                sf += dg[rr * lddg + dhc + j] * c_prev[rr * ldcp + j];
                so += dg[rr * lddg + 3 * dhc + j] * c_t[rr * ldc + j];
            }
            dpeep[j] += si;
            dpeep[dhc + j] += sf;
            dpeep[2 * dhc + j] += so;
        }
    }
    free(zeros);
}
#endif /* CYDNNL_RNN_CELL_H */
