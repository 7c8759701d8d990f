/* Pooling shape checks in exact arithmetic. */
#ifndef CYDNNL_POOLING_SHAPE_H
#define CYDNNL_POOLING_SHAPE_H
#include <stdint.h>

/* oneDNN's output size rule, (in - ker_range + pad_l + pad_r) / str + 1
   with C's division, in exact arithmetic: 1 when it gives `out`, 0 when
   not, -1 when the extents leave the range the kernels compute in. */
static int cydnnl_pool_out_check(int64_t in, int64_t out, int64_t k, int64_t dil,
                                 int64_t s, int64_t pl, int64_t pr) {
#ifdef __SIZEOF_INT128__
    const __int128 lim = (__int128)1 << 61;
    __int128 kr = 1 + ((__int128)k - 1) * ((__int128)dil + 1);
    __int128 span = (__int128)in + pl + pr;
    if (kr > lim || kr < -lim || span > lim || s > lim) return -1;
    return (span - kr) / s + 1 == out;
#else
    const int64_t lim = (int64_t)1 << 30;
    if (k > lim || dil > lim || pl > lim || pr > lim || pr < -lim || s > lim
            || in > lim) return -1;
    return (in - (1 + (k - 1) * (dil + 1)) + pl + pr) / s + 1 == out;
#endif
}
#endif
