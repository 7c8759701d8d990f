/* The pooling row kernels' per-level tables (see cydnnl_isa.h): what
   kernels/pooling.pyx sees of kernels/isa/pooling_isa.c. A row is `count`
   output pixels along w whose windows lie wholly inside src; one indirect
   call does a row. */
#ifndef CYDNNL_POOL_ISA_H
#define CYDNNL_POOL_ISA_H
#include <stdint.h>
#include "cydnnl_isa.h"

/* What every row of one (n, channel block) shares. */
typedef struct {
    const int64_t *toff;    /* the taps' offsets from a window's origin (elements),
                               flat (kd, kh, kw) order */
    int64_t nt;             /* taps: the whole kernel (average divides by nt) */
    int64_t lanes;          /* contiguous channels per pixel, 1 to 64 */
    int bf16;               /* data bf16 (else f32) */
    int is_max;             /* max (else average) */
    int ws_u8;              /* the workspace, where there is one: u8 (else s32) */
    float lowest;           /* max's start value */
    /* nv > 0: each pixel is nv vectors of the level's width (lanes is that
       width), vs / vd elements apart in src / dst and the workspace (a
       pixel's adjacent channels, or whole channel blocks); else lanes alone */
    int64_t nv, vs, vd;
} cydnnl_pool_row_t;

/* Max backward by gathering (2D): one src row, each pixel's channels written
   once as the sum, over the outputs whose window holds it, of diff_dst where
   the workspace names its tap. Its candidates are every (row r, column c)
   pair: output rows at element offsets roff[r] (tap rtap[r] = kh * kw) and,
   for pixel j, output pixels coff[c] (tap ctap[c] = kw), c in
   [cbeg[j], cbeg[j + 1]); offsets index diff_dst and the workspace alike.
   Candidates come in output order, so the sums equal the scatter's. */
#define CYDNNL_POOL_MAXC 64
typedef struct {
    int64_t lanes;          /* channels per pixel, adjacent (per block where nb > 1) */
    int64_t nb;             /* blocks of the level's vector width (or of 8 at AVX-512)
                               done at once (lanes is that width), dsb / ddb elements
                               apart in diff_src / diff_dst and the workspace; else 1 */
    int64_t dsb, ddb;
    int ws_u8;              /* the workspace u8 (else s32) */
    int bf16;               /* data bf16 (else f32) */
    int nr;
    const int64_t *roff;
    const int32_t *rtap;
    const int64_t *cbeg;
    const int64_t *coff;
    const int32_t *ctap;
    /* w32: the window 3 wide, 2 apart, dense along w, pw >= 0 (the tables
       unused along w): src pixel j + pw = 2m under output pixels m - 1 (tap
       2) and m (tap 0), 2m + 1 under m (tap 1), the output pixels osw
       elements apart, ow of them */
    int w32;
    int64_t pw, ow, osw;
    /* diff_src elements from a row to the next (w32 asks for the next row's
       first lines during the row's last pass) */
    int64_t rsd;
} cydnnl_pool_gather_t;

typedef struct {
    /* forward: windows ps elements apart in src; dst and the workspace
       (may be NULL; dst's offsets) ds apart */
    void (*fwd_row)(const cydnnl_pool_row_t *r, const void *src, int64_t ps, void *dst,
                    int64_t ds, void *ws, int64_t count);
    /* backward: adds diff_dst (ds apart; ws has its offsets) into f32
       windows ps apart in acc */
    void (*bwd_row)(const cydnnl_pool_row_t *r, float *acc, int64_t ps,
                    const void *diff_dst, int64_t ds, const void *ws, int64_t count);
    /* zeroes count pixels of `lanes` f32, ds apart (a memset per pixel costs
       a third of channels-last backward) */
    void (*zero_row)(float *dst, int64_t ds, int64_t lanes, int64_t count);
    /* count pixels of `lanes` f32 (ss apart) to bf16 (ds apart) */
    void (*to_bf16_row)(uint16_t *dst, int64_t ds, const float *src, int64_t ss,
                        int64_t lanes, int64_t count);
    /* max backward by gathering: count src pixels ps apart (see above) */
    void (*gather_row)(const cydnnl_pool_gather_t *q, void *diff_src, int64_t ps,
                       const void *diff_dst, const void *ws, int64_t count);
    int64_t width;          /* f32 lanes in the level's vectors */
} cydnnl_pool_kernels_t;

CYDNNL_ISA_DECLARE(cydnnl_pool_kernels_t, cydnnl_pool_kernels)

static inline const cydnnl_pool_kernels_t *cydnnl_pool_kernels_for(int level) {
    return CYDNNL_ISA_SELECT(cydnnl_pool_kernels, level);
}
#endif
