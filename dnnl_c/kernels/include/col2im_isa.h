/* Backward data's col2im by phases, per level (see cydnnl_isa.h): what
   kernels/convolution.pyx sees of kernels/isa/convolution_isa.c. The
   functions are col2im_phases.h's, compiled at the level's vector width
   (the baseline's SSE2 ran the adds 4 lanes at a time). */
#ifndef CYDNNL_COL2IM_ISA_H
#define CYDNNL_COL2IM_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"
#include "col2im_phases.h"

typedef struct {
    void (*add_rows)(const cydnnl_col2im_w_t *g, float *phases, int64_t pstep, const float *col,
                     int64_t cstep, int64_t ldk, int64_t o0, int64_t n, int64_t nrows);
    void (*row)(const cydnnl_col2im_w_t *g, const float *phases, float *row);
} cydnnl_col2im_kernels_t;

CYDNNL_ISA_DECLARE(cydnnl_col2im_kernels_t, cydnnl_col2im_kernels)

static inline const cydnnl_col2im_kernels_t *cydnnl_col2im_kernels_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_col2im_kernels, level);
}
#endif
