/* The pooling row kernels for one ISA level (setup.py compiles this file
   once per level; see kernels/include/cydnnl_isa.h): the entries of
   pool_isa.h's table pick the kernel for the row's data type and lanes. */
#include "kernels/include/pool_kernels.h"
#include "kernels/include/pool_isa.h"

static void fwd_row(const cydnnl_pool_row_t *r, const void *src, int64_t ps, void *dst,
                    int64_t ds, void *ws, int64_t count) {
    if (r->bf16) {
        const uint16_t *s = src;
        uint16_t *d = dst;
        if (r->lanes == 16)
            cydnnl_pool_fwd_row_bf16_16(r, s, ps, d, ds, ws, count);
        else if (r->lanes == 8)
            cydnnl_pool_fwd_row_bf16_8(r, s, ps, d, ds, ws, count);
        else
            cydnnl_pool_fwd_row_bf16_n(r, s, ps, d, ds, ws, count);
    } else {
        const float *s = src;
        float *d = dst;
        if (r->lanes == 16)
            cydnnl_pool_fwd_row_f32_16(r, s, ps, d, ds, ws, count);
        else if (r->lanes == 8)
            cydnnl_pool_fwd_row_f32_8(r, s, ps, d, ds, ws, count);
        else
            cydnnl_pool_fwd_row_f32_n(r, s, ps, d, ds, ws, count);
    }
}

static void bwd_row(const cydnnl_pool_row_t *r, float *acc, int64_t ps, const void *diff_dst,
                    int64_t ds, const void *ws, int64_t count) {
    if (r->bf16) {
        const uint16_t *dd = diff_dst;
        if (r->lanes == 16)
            cydnnl_pool_bwd_row_bf16_16(r, acc, ps, dd, ds, ws, count);
        else if (r->lanes == 8)
            cydnnl_pool_bwd_row_bf16_8(r, acc, ps, dd, ds, ws, count);
        else
            cydnnl_pool_bwd_row_bf16_n(r, acc, ps, dd, ds, ws, count);
    } else {
        const float *dd = diff_dst;
        if (r->lanes == 16)
            cydnnl_pool_bwd_row_f32_16(r, acc, ps, dd, ds, ws, count);
        else if (r->lanes == 8)
            cydnnl_pool_bwd_row_f32_8(r, acc, ps, dd, ds, ws, count);
        else
            cydnnl_pool_bwd_row_f32_n(r, acc, ps, dd, ds, ws, count);
    }
}

static void to_bf16_row(uint16_t *dst, int64_t ds, const float *src, int64_t ss, int64_t lanes,
                        int64_t count) {
    for (int64_t j = 0; j < count; j++) {
        uint16_t *d = dst + j * ds;
        const float *s = src + j * ss;
        int64_t i = 0;
#if CYDNNL_POOL_W == 16
        for (; i + 16 <= lanes; i += 16) cydnnl_pool_sth_16(d + i, cydnnl_pool_ldf_16(s + i));
#endif
#if CYDNNL_POOL_W >= 8
        for (; i + 8 <= lanes; i += 8) cydnnl_pool_sth_8(d + i, cydnnl_pool_ldf_8(s + i));
#endif
        for (; i + 4 <= lanes; i += 4) cydnnl_pool_sth_4(d + i, cydnnl_pool_ldf_4(s + i));
        for (; i < lanes; i++) d[i] = cydnnl_f32_to_bf16(s[i]);
    }
}

const cydnnl_pool_kernels_t CYDNNL_ISA_FN(cydnnl_pool_kernels) = {fwd_row, bwd_row,
                                                                  to_bf16_row};
