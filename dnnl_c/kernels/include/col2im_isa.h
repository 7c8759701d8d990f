/* Backward data's col2im by phases, per level (see cydnnl_isa.h): what
   kernels/convolution.pyx sees of kernels/isa/convolution_isa.c. The
   functions are col2im_phases.h's, compiled at the level's vector width
   (the baseline's SSE2 ran the adds 4 lanes at a time), and where the
   level has bf16 dot products bwd_data_direct.h's, which need no col2im. */
#ifndef CYDNNL_COL2IM_ISA_H
#define CYDNNL_COL2IM_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"
#include "col2im_phases.h"
#include "bwd_data_direct.h"

typedef struct {
    void (*add_rows)(const cydnnl_col2im_w_t *g, float *phases, int64_t pstep, const float *col,
                     int64_t cstep, int64_t ldk, int64_t o0, int64_t n, int64_t nrows);
    void (*row)(const cydnnl_col2im_w_t *g, const float *phases, float *row);
    /* stride 4's into a bf16 row (0 for other strides; NULL below AVX-512) */
    int (*row4_bf16)(const cydnnl_col2im_w_t *g, const float *phases, uint16_t *row);
    /* backward data without col2im (bwd_data_direct.h): NULL at levels
       without vdpbf16ps */
    void (*direct_pack_wei)(const cydnnl_bdd_t *g, const uint16_t *w, uint32_t *wp);
    void (*direct_pack_dy)(const cydnnl_bdd_t *g, const uint16_t *dy, int64_t cs, int64_t ps,
                           uint32_t *dyp, int64_t y0, int64_t y1);
    void (*direct_span)(const cydnnl_bdd_t *g, const uint32_t *wp, const uint32_t *dyp,
                        float *out, int64_t p0, int64_t p1, const char *pf, int64_t pf_len);
} cydnnl_col2im_kernels_t;

CYDNNL_ISA_DECLARE(cydnnl_col2im_kernels_t, cydnnl_col2im_kernels)

static inline const cydnnl_col2im_kernels_t *cydnnl_col2im_kernels_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_col2im_kernels, level);
}
#endif
