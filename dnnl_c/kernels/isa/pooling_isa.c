/* The pooling row kernels for one ISA level (setup.py compiles this file
   once per level; see kernels/include/cydnnl_isa.h): the entries of
   pool_isa.h's table pick the kernel for the row's data type and lanes. */
#include "kernels/include/pool_kernels.h"
#include "kernels/include/pool_isa.h"

/* the DIR (fwd, bwd) kernel of data type DT for the row's lanes */
#define PICK(DIR, DT, r)                                                             \
    ((r)->lanes == 16 ? cydnnl_pool_##DIR##_row_##DT##_16                             \
     : (r)->lanes == 8 ? cydnnl_pool_##DIR##_row_##DT##_8 : cydnnl_pool_##DIR##_row_##DT##_n)

static void fwd_row(const cydnnl_pool_row_t *r, const void *src, int64_t ps, void *dst,
                    int64_t ds, void *ws, int64_t count) {
    /* nv vectors of the level's width, or (lanes 8 at AVX-512) of 8 */
    const int w8 = r->lanes < CYDNNL_POOL_W;
    if (r->nv > 0 && r->bf16)
        (w8 ? cydnnl_pool_fwd_vectors_bf16_w8 : cydnnl_pool_fwd_vectors_bf16_w)(
            r, (const uint16_t *)src, ps, (uint16_t *)dst, ds, ws, count);
    else if (r->nv > 0)
        (w8 ? cydnnl_pool_fwd_vectors_f32_w8 : cydnnl_pool_fwd_vectors_f32_w)(
            r, (const float *)src, ps, (float *)dst, ds, ws, count);
    else if (r->bf16)
        PICK(fwd, bf16, r)(r, (const uint16_t *)src, ps, (uint16_t *)dst, ds, ws, count);
    else
        PICK(fwd, f32, r)(r, (const float *)src, ps, (float *)dst, ds, ws, count);
}

static void bwd_row(const cydnnl_pool_row_t *r, float *acc, int64_t ps, const void *diff_dst,
                    int64_t ds, const void *ws, int64_t count) {
    if (r->bf16)
        PICK(bwd, bf16, r)(r, acc, ps, (const uint16_t *)diff_dst, ds, ws, count);
    else
        PICK(bwd, f32, r)(r, acc, ps, (const float *)diff_dst, ds, ws, count);
}

/* OP(W) on the vector of W lanes at i, widest first, while whole vectors fit
   in n lanes */
#if CYDNNL_POOL_W == 16
#define EACH_VECTOR(i, n, OP)                                                        \
    for (; i + 16 <= n; i += 16) OP(16);                                             \
    for (; i + 8 <= n; i += 8) OP(8);                                                \
    for (; i + 4 <= n; i += 4) OP(4)
#elif CYDNNL_POOL_W == 8
#define EACH_VECTOR(i, n, OP)                                                        \
    for (; i + 8 <= n; i += 8) OP(8);                                                \
    for (; i + 4 <= n; i += 4) OP(4)
#else
#define EACH_VECTOR(i, n, OP) for (; i + 4 <= n; i += 4) OP(4)
#endif
#define ZERO(W) cydnnl_pool_stf_##W(d + i, cydnnl_pool_setf_##W(0))
#define TO_BF16(W) cydnnl_pool_sth_##W(d + i, cydnnl_pool_ldf_##W(s + i))

/* lanes a constant where it is 8 or 16 (straight-line code per pixel; gcc
   makes a loop of zero stores over a variable count a memset call, which
   costs more than the stores) */
CYDNNL_PK void zero_lanes(float *d, const int64_t lanes) {
    int64_t i = 0;
    EACH_VECTOR(i, lanes, ZERO);
    for (; i < lanes; i++) d[i] = 0;
}

static void zero_row(float *dst, int64_t ds, int64_t lanes, int64_t count) {
    for (int64_t j = 0; j < count; j++) {
        if (lanes == 16)
            zero_lanes(dst + j * ds, 16);
        else if (lanes == 8)
            zero_lanes(dst + j * ds, 8);
        else
            zero_lanes(dst + j * ds, lanes);
    }
}

CYDNNL_PK void to_bf16_lanes(uint16_t *d, const float *s, const int64_t lanes) {
    int64_t i = 0;
    EACH_VECTOR(i, lanes, TO_BF16);
    for (; i < lanes; i++) d[i] = cydnnl_f32_to_bf16(s[i]);
}

static void to_bf16_row(uint16_t *dst, int64_t ds, const float *src, int64_t ss, int64_t lanes,
                        int64_t count) {
    if (ds == lanes && ss == lanes) {
        /* one contiguous span (channel-blocked rows): whole vectors */
        to_bf16_lanes(dst, src, lanes * count);
        return;
    }
    for (int64_t j = 0; j < count; j++) {
        if (lanes == 16)
            to_bf16_lanes(dst + j * ds, src + j * ss, 16);
        else if (lanes == 8)
            to_bf16_lanes(dst + j * ds, src + j * ss, 8);
        else
            to_bf16_lanes(dst + j * ds, src + j * ss, lanes);
    }
}

static void gather_row(const cydnnl_pool_gather_t *q, void *diff_src, int64_t ps,
                       const void *diff_dst, const void *ws, int64_t count) {
    if (q->bf16)
        cydnnl_pool_gather_row_bf16(q, (uint16_t *)diff_src, ps, (const uint16_t *)diff_dst, ws,
                                    count);
    else
        cydnnl_pool_gather_row_f32(q, (float *)diff_src, ps, (const float *)diff_dst, ws,
                                   count);
}

const cydnnl_pool_kernels_t CYDNNL_ISA_FN(cydnnl_pool_kernels) = {fwd_row, bwd_row, zero_row,
                                                                  to_bf16_row, gather_row,
                                                                  CYDNNL_POOL_W};
