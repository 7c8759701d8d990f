/* The LSTM cell's element-wise part (oneDNN's ref_postgemm_lstm.cpp), fused
   over the four gates, for the RNN driver (kernels/rnn.pyx). Gate order
   i, f, c~, o; peephole order i, f, o. Rows are the batch; gates rows hold
   4 * dhc values. f32 throughout: the driver stages other data types. */
#ifndef CYDNNL_RNN_CELL_H
#define CYDNNL_RNN_CELL_H
#include <math.h>
#include "cydnnl_common.h"

CYDNNL_INLINE float cydnnl_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* gates: the products' sums in, the activated gates out (what backward
   reads). bias (4 x dhc), peep (3 x dhc) and c_prev (NULL: zeros) may be
   NULL. c_out and h_out: n x dhc, rows ldc and ldh apart. */
static void cydnnl_lstm_fwd_cell(int64_t n, int64_t dhc, float *gates, int64_t ldg,
                                 const float *bias, const float *peep,
                                 const float *c_prev, int64_t ldcp, float *c_out,
                                 int64_t ldc, float *h_out, int64_t ldh) {
    int64_t r;
#pragma omp parallel for schedule(static) if (n * dhc > 4096)
    for (r = 0; r < n; r++) {
        float *CYDNNL_RESTRICT g = gates + r * ldg;
        const float *cp = c_prev ? c_prev + r * ldcp : NULL;
        float *CYDNNL_RESTRICT c = c_out + r * ldc;
        float *CYDNNL_RESTRICT h = h_out + r * ldh;
        int64_t j;
        for (j = 0; j < dhc; j++) {
            float cpj = cp ? cp[j] : 0.0f;
            float gi = g[j], gf = g[dhc + j], gc = g[2 * dhc + j], go = g[3 * dhc + j];
            float ct;
            if (bias) {
                gi += bias[j];
                gf += bias[dhc + j];
                gc += bias[2 * dhc + j];
                go += bias[3 * dhc + j];
            }
            if (peep) {
                gi += peep[j] * cpj;
                gf += peep[dhc + j] * cpj;
            }
            gi = cydnnl_sigmoid(gi);
            gf = cydnnl_sigmoid(gf);
            gc = tanhf(gc);
            ct = gf * cpj + gi * gc;
            if (peep)
                go += peep[2 * dhc + j] * ct;
            go = cydnnl_sigmoid(go);
            g[j] = gi;
            g[dhc + j] = gf;
            g[2 * dhc + j] = gc;
            g[3 * dhc + j] = go;
            c[j] = ct;
            h[j] = go * tanhf(ct);
        }
    }
}

/* One step back: dh (the gradient reaching h before any projection) and
   dc (the one reaching c_t, in; the one reaching c_{t-1}, out) give the
   gates' gradient dg (n x 4 dhc, rows ldg apart). gates are the activated
   gates forward stored; c_prev may be NULL (zeros). dpeep (3 x dhc, may be
   NULL) accumulates the peephole weights' gradient. */
static void cydnnl_lstm_bwd_cell(int64_t n, int64_t dhc, const float *gates, int64_t ldg,
                                 const float *peep, const float *c_prev, int64_t ldcp,
                                 const float *c_t, int64_t ldc, const float *dh,
                                 int64_t lddh, float *dc, int64_t lddc, float *dg,
                                 int64_t lddg, float *dpeep) {
    int64_t r;
#pragma omp parallel for schedule(static) if (n * dhc > 4096)
    for (r = 0; r < n; r++) {
        const float *CYDNNL_RESTRICT g = gates + r * ldg;
        const float *cp = c_prev ? c_prev + r * ldcp : NULL;
        const float *CYDNNL_RESTRICT c = c_t + r * ldc;
        const float *CYDNNL_RESTRICT h = dh + r * lddh;
        float *CYDNNL_RESTRICT dcr = dc + r * lddc;
        float *CYDNNL_RESTRICT d = dg + r * lddg;
        int64_t j;
        for (j = 0; j < dhc; j++) {
            float gi = g[j], gf = g[dhc + j], gc = g[2 * dhc + j], go = g[3 * dhc + j];
            float cpj = cp ? cp[j] : 0.0f;
            float tc = tanhf(c[j]);
            float dht = h[j];
            float dct = dcr[j] + (1.0f - tc * tc) * go * dht;
            float dgo = tc * dht * go * (1.0f - go);
            float dgf, dgi, dgc, dcp;
            if (peep)
                dct += dgo * peep[2 * dhc + j];
            dgf = cpj * dct * gf * (1.0f - gf);
            dgi = gc * dct * gi * (1.0f - gi);
            dgc = gi * dct * (1.0f - gc * gc);
            dcp = dct * gf;
            if (peep)
                dcp += dgf * peep[dhc + j] + dgi * peep[j];
            d[j] = dgi;
            d[dhc + j] = dgf;
            d[2 * dhc + j] = dgc;
            d[3 * dhc + j] = dgo;
            dcr[j] = dcp;
        }
    }
    if (dpeep) {
        /* i and f see c_{t-1}, o sees c_t; columns split between threads */
        int64_t j;
#pragma omp parallel for schedule(static) if (n * dhc > 4096)
        for (j = 0; j < dhc; j++) {
            float si = 0.0f, sf = 0.0f, so = 0.0f;
            int64_t rr;
            for (rr = 0; rr < n; rr++) {
                float cpj = c_prev ? c_prev[rr * ldcp + j] : 0.0f;
                si += dg[rr * lddg + j] * cpj;
                sf += dg[rr * lddg + dhc + j] * cpj;
                so += dg[rr * lddg + 3 * dhc + j] * c_t[rr * ldc + j];
            }
            dpeep[j] += si;
            dpeep[dhc + j] += sf;
            dpeep[2 * dhc + j] += so;
        }
    }
}
#endif /* CYDNNL_RNN_CELL_H */
