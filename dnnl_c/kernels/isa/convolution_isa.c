/* The convolution's per-level kernels (setup.py compiles this file once per
   level; see kernels/include/cydnnl_isa.h): backward data's col2im by
   phases of the stride (col2im_phases.h) at the level's vector width, and
   with bf16 dot products backward data without col2im (bwd_data_direct.h). */
#include "kernels/include/col2im_isa.h"

static void add_rows(const cydnnl_col2im_w_t *g, float *phases, int64_t pstep,
                     const float *col, int64_t cstep, int64_t ldk, int64_t o0, int64_t n,
                     int64_t nrows) {
    cydnnl_col2im_add_rows(g, phases, pstep, col, cstep, ldk, o0, n, nrows);
}

static void row(const cydnnl_col2im_w_t *g, const float *phases, float *out) {
    cydnnl_col2im_row(g, phases, out);
}

#if defined(__AVX512BW__) && defined(__AVX512VL__)
static int row4_bf16(const cydnnl_col2im_w_t *g, const float *phases, uint16_t *out) {
    return cydnnl_col2im_row4_bf16(g, phases, out);
}
#define ROW4_BF16 row4_bf16
#else
#define ROW4_BF16 NULL
#endif

#ifdef CYDNNL_BDD
static void direct_pack_wei(const cydnnl_bdd_t *g, const uint16_t *w, uint32_t *wp) {
    cydnnl_bdd_pack_wei(g, w, wp);
}

static void direct_pack_dy(const cydnnl_bdd_t *g, const uint16_t *dy, int64_t cs, int64_t ps,
                           uint32_t *dyp, int64_t y0, int64_t y1) {
    cydnnl_bdd_pack_dy(g, dy, cs, ps, dyp, y0, y1);
}

static void direct_span(const cydnnl_bdd_t *g, const uint32_t *wp, const uint32_t *dyp,
                        float *out, int64_t p0, int64_t p1, const char *pf, int64_t pf_len) {
    cydnnl_bdd_span(g, wp, dyp, out, p0, p1, pf, pf_len);
}

const cydnnl_col2im_kernels_t CYDNNL_ISA_FN(cydnnl_col2im_kernels) = {
    add_rows, row, ROW4_BF16, direct_pack_wei, direct_pack_dy, direct_span};
#else
const cydnnl_col2im_kernels_t CYDNNL_ISA_FN(cydnnl_col2im_kernels) = {
    add_rows, row, ROW4_BF16, NULL, NULL, NULL};
#endif
