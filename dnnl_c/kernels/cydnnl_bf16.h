/* bf16 <-> f32 as oneDNN converts (src/common/bfloat16.cpp): round to
   nearest even, subnormals to signed zero, inf kept, NaN kept and made
   quiet. Branch-free so loops over it vectorise. One copy, for the .pxd
   declarations and for the C kernels of the .pyx files. */
#ifndef CYDNNL_BF16_H
#define CYDNNL_BF16_H
#include <stdint.h>
#include <string.h>

static inline float cydnnl_bf16_to_f32(uint16_t v) {
    uint32_t u = (uint32_t)v << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static inline uint16_t cydnnl_f32_to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    uint32_t is_nan = (u & 0x7fffffffu) > 0x7f800000u;
    uint32_t is_tiny = (u & 0x7f800000u) == 0;
    uint32_t r = is_nan ? ((u >> 16) | 0x40u) : (is_tiny ? ((u >> 16) & 0x8000u) : rounded);
    return (uint16_t)r;
}
#endif
