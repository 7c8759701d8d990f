/* The convolution's per-level kernels (setup.py compiles this file once per
   level; see kernels/include/cydnnl_isa.h): backward data's col2im by
   phases of the stride (col2im_phases.h) at the level's vector width. */
#include "kernels/include/col2im_isa.h"

static void add_rows(const cydnnl_col2im_w_t *g, float *phases, int64_t pstep,
                     const float *col, int64_t cstep, int64_t ldk, int64_t o0, int64_t n,
                     int64_t nrows) {
    cydnnl_col2im_add_rows(g, phases, pstep, col, cstep, ldk, o0, n, nrows);
}

static void row(const cydnnl_col2im_w_t *g, const float *phases, float *out) {
    cydnnl_col2im_row(g, phases, out);
}

const cydnnl_col2im_kernels_t CYDNNL_ISA_FN(cydnnl_col2im_kernels) = {add_rows, row};
