/* The LSTM cell's per-level tables (see cydnnl_isa.h): what kernels/rnn.pyx
   sees of kernels/isa/rnn_isa.c. The functions are those of rnn_cell.h. */
#ifndef CYDNNL_RNN_ISA_H
#define CYDNNL_RNN_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"

typedef struct {
    void (*lstm_fwd)(int64_t n, int64_t dhc, int64_t j0, int64_t j1, float *gates,
                     int64_t ldg, const float *bias, const float *peep, const float *c_prev,
                     int64_t ldcp, float *c_out, int64_t ldc, float *h_out, int64_t ldh,
                     int threaded);
    void (*lstm_bwd)(int64_t n, int64_t dhc, int64_t j0, int64_t j1, const float *gates,
                     int64_t ldg, const float *peep, const float *c_prev, int64_t ldcp,
                     const float *c_t, int64_t ldc, const float *dh, int64_t lddh, float *dc,
                     int64_t lddc, float *dg, int64_t lddg, float *dpeep, int threaded);
} cydnnl_rnn_cells_t;

CYDNNL_ISA_DECLARE(cydnnl_rnn_cells_t, cydnnl_rnn_cells)

static inline const cydnnl_rnn_cells_t *cydnnl_rnn_cells_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_rnn_cells, level);
}
#endif
