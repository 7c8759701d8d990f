/* The eltwise vector loops for one ISA level (setup.py compiles this file
   once per level; see kernels/include/cydnnl_isa.h). */
#include "kernels/include/eltwise_kernels.h"

#define VW CYDNNL_ELT_VW

/* One loop per algorithm, direction and data type (ST: the store of dt):
   groups of 4 vectors, each group's loads before its stores, then single
   vectors, then the tail as one vector padded with zeros (the formulas do
   not trap). Element i is read before it is written, so the output may be
   the input. The groups: relu's vector is one load, two operations and a
   store, and the loop's own increment, compare and branch held it back
   (relu on 1M f32 in cache 2% slower than oneDNN's, then even); a load
   after each store (what GCC must emit when dst may alias src) ran relu
   forward on 2 Zen 5 threads at AVX2 (AlexNet's 8x96x55x55 f32) 0.164 ms
   against oneDNN's 0.146, loads first 0.146. */
#define CYDNNL_ELT_FWD_LOOP(T, dt, name, ST)                                         \
static void fwd_##ST##_##name(const T *src, T *dst, int64_t n, float alpha,          \
                              float beta) {                                          \
    const cydnnl_elt_vf va = cydnnl_elt_splat(alpha), vb = cydnnl_elt_splat(beta);   \
    int64_t i = 0;                                                                   \
    for (; i + 4 * VW <= n; i += 4 * VW) {                                           \
        cydnnl_elt_vf s[4];                                                          \
        for (int u = 0; u < 4; u++) s[u] = cydnnl_elt_ld_##dt(src + i + u * VW);     \
        for (int u = 0; u < 4; u++)                                                  \
            cydnnl_elt_st_##ST(dst + i + u * VW, cydnnl_elt_fwd_##name(s[u], va, vb)); \
    }                                                                                \
    for (; i + VW <= n; i += VW)                                                     \
        cydnnl_elt_st_##ST(dst + i, cydnnl_elt_fwd_##name(cydnnl_elt_ld_##dt(src + i), \
                                                          va, vb));                  \
    if (i < n) {                                                                     \
        T s[VW] = {0}, d[VW];                                                        \
        memcpy(s, src + i, (size_t)(n - i) * sizeof(T));                             \
        cydnnl_elt_st_##ST(d, cydnnl_elt_fwd_##name(cydnnl_elt_ld_##dt(s), va, vb));  \
        memcpy(dst + i, d, (size_t)(n - i) * sizeof(T));                             \
    }                                                                                \
}
#define CYDNNL_ELT_BWD_LOOP(T, dt, name, ST)                                         \
static void bwd_##ST##_##name(const T *x, const T *dd, T *ds, int64_t n, float alpha, \
                              float beta) {                                          \
    const cydnnl_elt_vf va = cydnnl_elt_splat(alpha), vb = cydnnl_elt_splat(beta);   \
    int64_t i = 0;                                                                   \
    for (; i + 4 * VW <= n; i += 4 * VW) {                                           \
        cydnnl_elt_vf g[4], v[4];                                                    \
        for (int u = 0; u < 4; u++) {                                                \
            g[u] = cydnnl_elt_ld_##dt(dd + i + u * VW);                              \
            v[u] = cydnnl_elt_ld_##dt(x + i + u * VW);                               \
        }                                                                            \
        for (int u = 0; u < 4; u++)                                                  \
            cydnnl_elt_st_##ST(ds + i + u * VW, cydnnl_elt_bwd_##name(g[u], v[u], va, vb)); \
    }                                                                                \
    for (; i + VW <= n; i += VW)                                                     \
        cydnnl_elt_st_##ST(ds + i, cydnnl_elt_bwd_##name(cydnnl_elt_ld_##dt(dd + i),   \
                                                         cydnnl_elt_ld_##dt(x + i),    \
                                                         va, vb));                   \
    if (i < n) {                                                                     \
        T xs[VW] = {0}, ds_[VW] = {0}, d[VW];                                        \
        memcpy(xs, x + i, (size_t)(n - i) * sizeof(T));                              \
        memcpy(ds_, dd + i, (size_t)(n - i) * sizeof(T));                            \
        cydnnl_elt_st_##ST(d, cydnnl_elt_bwd_##name(cydnnl_elt_ld_##dt(ds_),           \
                                                    cydnnl_elt_ld_##dt(xs), va, vb));  \
        memcpy(ds + i, d, (size_t)(n - i) * sizeof(T));                              \
    }                                                                                \
}
#define CYDNNL_ELT_LOOPS(NAME, name)                                                 \
    CYDNNL_ELT_FWD_LOOP(float, f32, name, f32)                                       \
    CYDNNL_ELT_FWD_LOOP(uint16_t, bf16, name, bf16)                                  \
    CYDNNL_ELT_BWD_LOOP(float, f32, name, f32)                                       \
    CYDNNL_ELT_BWD_LOOP(uint16_t, bf16, name, bf16)
CYDNNL_ELT_OPS(CYDNNL_ELT_LOOPS)
/* relu with alpha 0 on bf16: x, a zero or a quiet NaN, bf16 numbers stored
   without rounding (Zen 4, AVX-512 without AVX512_BF16, 32x96x55x55 on 2
   threads: forward 0.90 ms against oneDNN's 0.58) */
CYDNNL_ELT_FWD_LOOP(uint16_t, bf16, relu, bf16_exact)
CYDNNL_ELT_BWD_LOOP(uint16_t, bf16, relu, bf16_exact)

/* The table's entries: the algorithm's loop (an unknown op does nothing;
   kernels/eltwise.pyx passes only CYDNNL_ELT_* values). */
#define CYDNNL_ELT_CASE_FWD_f32(NAME, name)                                          \
    case CYDNNL_ELT_##NAME: fwd_f32_##name(src, dst, n, alpha, beta); break;
#define CYDNNL_ELT_CASE_FWD_bf16_rounded(NAME, name)                                 \
    case CYDNNL_ELT_##NAME: fwd_bf16_##name(src, dst, n, alpha, beta); break;
#define CYDNNL_ELT_CASE_BWD_f32(NAME, name)                                          \
    case CYDNNL_ELT_##NAME: bwd_f32_##name(x, dd, ds, n, alpha, beta); break;
#define CYDNNL_ELT_CASE_BWD_bf16_rounded(NAME, name)                                 \
    case CYDNNL_ELT_##NAME: bwd_bf16_##name(x, dd, ds, n, alpha, beta); break;
#define CYDNNL_ELT_ENTRIES(T, dt)                                                    \
static void fwd_##dt(int op, float alpha, float beta, const T *src, T *dst, int64_t n) { \
    switch (op) { CYDNNL_ELT_OPS(CYDNNL_ELT_CASE_FWD_##dt) }                         \
}                                                                                    \
static void bwd_##dt(int op, float alpha, float beta, const T *x, const T *dd, T *ds, \
                     int64_t n) {                                                    \
    switch (op) { CYDNNL_ELT_OPS(CYDNNL_ELT_CASE_BWD_##dt) }                         \
}
CYDNNL_ELT_ENTRIES(float, f32)
CYDNNL_ELT_ENTRIES(uint16_t, bf16_rounded)

static void fwd_bf16(int op, float alpha, float beta, const uint16_t *src, uint16_t *dst,
                     int64_t n) {
    if (op == CYDNNL_ELT_RELU && alpha == 0.f)
        fwd_bf16_exact_relu(src, dst, n, alpha, beta);
    else
        fwd_bf16_rounded(op, alpha, beta, src, dst, n);
}

static void bwd_bf16(int op, float alpha, float beta, const uint16_t *x, const uint16_t *dd,
                     uint16_t *ds, int64_t n) {
    if (op == CYDNNL_ELT_RELU && alpha == 0.f)
        bwd_bf16_exact_relu(x, dd, ds, n, alpha, beta);
    else
        bwd_bf16_rounded(op, alpha, beta, x, dd, ds, n);
}

const cydnnl_eltwise_kernels_t CYDNNL_ISA_FN(cydnnl_eltwise_kernels) = {
    fwd_f32, fwd_bf16, bwd_f32, bwd_bf16,
};
