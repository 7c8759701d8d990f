# Eltwise kernels: one scalar formula per algorithm, applied over dense
# buffers in parallel (the reference, and the per-level implementations'
# transcendental algorithms: tanh, exp, logistic, elu, gelu, ... run libm per
# element, at any level). The cheap algorithms also have vector loops
# compiled once per ISA level (kernels/include/eltwise_kernels.h,
# kernels/isa/eltwise_isa.c), which the dense implementations call through
# a level's table in blocks of BLOCK elements.

from cython.parallel cimport prange
from libc.math cimport (expf, tanhf, logf, log1pf, sqrtf, fabsf, erff, powf, nearbyintf,
                        isnan)
from libc.stdint cimport int64_t

from dnnl_c.dnnl_types cimport *
from dnnl_c.kernels.types cimport bf16_t, data_t, get, put

cdef extern from "kernels/include/eltwise_isa.h" nogil:
    const eltwise_kernels_t *kernels_for "cydnnl_eltwise_kernels_for"(int level) noexcept
    enum:
        ELT_RELU "CYDNNL_ELT_RELU"
        ELT_LINEAR "CYDNNL_ELT_LINEAR"
        ELT_CLIP "CYDNNL_ELT_CLIP"
        ELT_CLIP_V2 "CYDNNL_ELT_CLIP_V2"
        ELT_ABS "CYDNNL_ELT_ABS"
        ELT_SQUARE "CYDNNL_ELT_SQUARE"
        ELT_SQRT "CYDNNL_ELT_SQRT"
        ELT_HARDSIGMOID "CYDNNL_ELT_HARDSIGMOID"
        ELT_HARDSWISH "CYDNNL_ELT_HARDSWISH"

# elements per call of a vector loop: 64 KiB of f32, a few microseconds
cdef enum:
    BLOCK = 16384

DEF SQRT_2_OVER_PI = 0.79788456080286535587989211986876
DEF GELU_TANH_C = 0.044715
DEF INV_SQRT_2 = 0.70710678118654752440084436210485
DEF INV_SQRT_2PI = 0.39894228040143267793994605993438
DEF EXP_OVERFLOW = 88.72283172607421875


cdef inline float logistic(float s) noexcept nogil:
    return 1.0 / (1.0 + expf(-s))


cdef inline float soft_relu(float s, float alpha) noexcept nogil:
    cdef float x = s * alpha
    return log1pf(expf(x)) / alpha if x < EXP_OVERFLOW else s


cdef float eltwise_fwd_one(int alg, float s, float alpha, float beta) noexcept nogil:
    cdef float t
    if alg == dnnl_eltwise_relu or alg == dnnl_eltwise_relu_use_dst_for_bwd:
        return s if s > 0 else alpha * s
    if alg == dnnl_eltwise_tanh or alg == dnnl_eltwise_tanh_use_dst_for_bwd:
        return tanhf(s)
    if alg == dnnl_eltwise_elu or alg == dnnl_eltwise_elu_use_dst_for_bwd:
        return s if s > 0 else alpha * (expf(s) - 1.0)
    if alg == dnnl_eltwise_square:
        return s * s
    if alg == dnnl_eltwise_abs:
        return fabsf(s)
    if alg == dnnl_eltwise_sqrt or alg == dnnl_eltwise_sqrt_use_dst_for_bwd:
        return sqrtf(s)
    if alg == dnnl_eltwise_linear:
        return alpha * s + beta
    if alg == dnnl_eltwise_soft_relu:
        return soft_relu(s, alpha)
    if alg == dnnl_eltwise_hardsigmoid:
        t = alpha * s + beta
        return 0.0 if t <= 0 else (1.0 if t >= 1 else t)
    if alg == dnnl_eltwise_logistic or alg == dnnl_eltwise_logistic_use_dst_for_bwd:
        return logistic(s)
    if alg == dnnl_eltwise_exp or alg == dnnl_eltwise_exp_use_dst_for_bwd:
        return expf(s)
    if alg == dnnl_eltwise_gelu_tanh:
        return 0.5 * s * (1.0 + tanhf(SQRT_2_OVER_PI * s * (1.0 + GELU_TANH_C * s * s)))
    if alg == dnnl_eltwise_swish:
        return s * logistic(alpha * s)
    if alg == dnnl_eltwise_log:
        return logf(s)
    if alg == dnnl_eltwise_clip:
        return beta if s > beta else (s if s > alpha else alpha)
    if alg == dnnl_eltwise_clip_v2 or alg == dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return beta if s > beta else (alpha if s < alpha else s)
    if alg == dnnl_eltwise_pow:
        return alpha * powf(s, beta)
    if alg == dnnl_eltwise_gelu_erf:
        return 0.5 * s * (1.0 + erff(s * INV_SQRT_2))
    if alg == dnnl_eltwise_round:
        return nearbyintf(s)
    if alg == dnnl_eltwise_mish:
        return s * tanhf(soft_relu(s, 1.0))
    if alg == dnnl_eltwise_hardswish:
        t = alpha * s + beta
        return 0.0 if t <= 0 else (s if t >= 1 else s * t)
    return 0.0


# 2 as a float: square, sqrt and hardswish gradients in float arithmetic as
# oneDNN's math_utils computes them (and the vector loops), not in double
cdef float F2 = 2


cdef float eltwise_bwd_one(int alg, float dd, float x, float alpha, float beta) noexcept nogil:
    cdef float t, g, w
    if alg == dnnl_eltwise_relu or alg == dnnl_eltwise_relu_use_dst_for_bwd:
        return dd if x > 0 else alpha * dd
    if alg == dnnl_eltwise_tanh:
        t = tanhf(x)
        return dd * (1.0 - t * t)
    if alg == dnnl_eltwise_tanh_use_dst_for_bwd:
        return dd * (1.0 - x * x)
    if alg == dnnl_eltwise_elu:
        return dd if x > 0 else dd * alpha * expf(x)
    if alg == dnnl_eltwise_elu_use_dst_for_bwd:
        return dd if x > 0 else dd * (x + alpha)
    if alg == dnnl_eltwise_square:
        return dd * F2 * x
    if alg == dnnl_eltwise_abs:
        return dd if x > 0 else (-dd if x < 0 else 0.0)
    if alg == dnnl_eltwise_sqrt:
        return dd / (F2 * sqrtf(x))
    if alg == dnnl_eltwise_sqrt_use_dst_for_bwd:
        return dd / (2.0 * x)
    if alg == dnnl_eltwise_linear:
        return dd * alpha
    if alg == dnnl_eltwise_soft_relu:
        return dd * logistic(alpha * x)
    if alg == dnnl_eltwise_hardsigmoid:
        t = alpha * x + beta
        return dd * alpha if (t > 0 and t < 1) else 0.0
    if alg == dnnl_eltwise_logistic:
        t = logistic(x)
        return dd * t * (1.0 - t)
    if alg == dnnl_eltwise_logistic_use_dst_for_bwd:
        return dd * x * (1.0 - x)
    if alg == dnnl_eltwise_exp:
        return dd * expf(x)
    if alg == dnnl_eltwise_exp_use_dst_for_bwd:
        return dd * x
    if alg == dnnl_eltwise_gelu_tanh:
        g = SQRT_2_OVER_PI * x * (1.0 + GELU_TANH_C * x * x)
        t = tanhf(g)
        return dd * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * SQRT_2_OVER_PI
                     * (1.0 + 3.0 * GELU_TANH_C * x * x))
    if alg == dnnl_eltwise_swish:
        w = logistic(alpha * x)
        return dd * (w + alpha * x * w * (1.0 - w))
    if alg == dnnl_eltwise_log:
        return dd / x
    if alg == dnnl_eltwise_clip:
        return dd if (x > alpha and x <= beta) else 0.0
    if alg == dnnl_eltwise_clip_v2 or alg == dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return dd if (x > alpha and x < beta) else 0.0
    if alg == dnnl_eltwise_pow:
        if beta == 0:
            return 0.0
        return dd * alpha * beta * powf(x, beta - 1.0)
    if alg == dnnl_eltwise_gelu_erf:
        return dd * (0.5 * (1.0 + erff(x * INV_SQRT_2)) + x * INV_SQRT_2PI * expf(-0.5 * x * x))
    if alg == dnnl_eltwise_mish:
        t = tanhf(soft_relu(x, 1.0))
        return dd * (t + x * (1.0 - t * t) * logistic(x))
    if alg == dnnl_eltwise_hardswish:
        t = alpha * x + beta
        return 0.0 if t <= 0 else (dd if t >= 1 else dd * (F2 * alpha * x + beta))
    return 0.0


cdef const eltwise_kernels_t *eltwise_kernels_for(int isa) noexcept nogil:
    return kernels_for(isa)


cdef int vector_op(int alg, bint fwd) noexcept nogil:
    """The vector loop of an algorithm (CYDNNL_ELT_*), -1 for the scalar
    formulas. A use_dst_for_bwd variant's gradient shares its algorithm's
    formula for relu and clip_v2 only."""
    if alg == dnnl_eltwise_relu or alg == dnnl_eltwise_relu_use_dst_for_bwd:
        return ELT_RELU
    if alg == dnnl_eltwise_linear:
        return ELT_LINEAR
    if alg == dnnl_eltwise_clip:
        return ELT_CLIP
    if alg == dnnl_eltwise_clip_v2 or alg == dnnl_eltwise_clip_v2_use_dst_for_bwd:
        return ELT_CLIP_V2
    if alg == dnnl_eltwise_abs:
        return ELT_ABS
    if alg == dnnl_eltwise_square:
        return ELT_SQUARE
    if alg == dnnl_eltwise_sqrt or (fwd and alg == dnnl_eltwise_sqrt_use_dst_for_bwd):
        return ELT_SQRT
    if alg == dnnl_eltwise_hardsigmoid:
        return ELT_HARDSIGMOID
    if alg == dnnl_eltwise_hardswish:
        return ELT_HARDSWISH
    return -1


cdef void fwd_impl(int alg, float alpha, float beta, const data_t *src, data_t *dst,
                   int64_t n) noexcept nogil:
    cdef int64_t i
    cdef float s
    if alg == dnnl_eltwise_relu or alg == dnnl_eltwise_relu_use_dst_for_bwd:
        for i in prange(n, schedule='static'):
            s = get(src, i)
            put(dst, i, s if s > 0 else alpha * s)
    else:
        for i in prange(n, schedule='static'):
            put(dst, i, eltwise_fwd_one(alg, get(src, i), alpha, beta))


cdef void bwd_impl(int alg, float alpha, float beta, const data_t *data, const data_t *diff_dst,
                   data_t *diff_src, int64_t n) noexcept nogil:
    cdef int64_t i
    cdef float dd
    if alg == dnnl_eltwise_relu or alg == dnnl_eltwise_relu_use_dst_for_bwd:
        for i in prange(n, schedule='static'):
            dd = get(diff_dst, i)
            put(diff_src, i, dd if get(data, i) > 0 else alpha * dd)
    else:
        for i in prange(n, schedule='static'):
            put(diff_src, i, eltwise_bwd_one(alg, get(diff_dst, i), get(data, i), alpha, beta))


cdef void vec_fwd(const eltwise_kernels_t *uk, int op, float alpha, float beta,
                  const data_t *src, data_t *dst, int64_t n) noexcept nogil:
    cdef int64_t b, i
    for b in prange((n + BLOCK - 1) // BLOCK, schedule='static'):
        i = b * BLOCK
        if data_t is float:
            uk.fwd_f32(op, alpha, beta, src + i, dst + i, min(<int64_t>BLOCK, n - i))
        else:
            uk.fwd_bf16(op, alpha, beta, src + i, dst + i, min(<int64_t>BLOCK, n - i))


cdef void vec_bwd(const eltwise_kernels_t *uk, int op, float alpha, float beta,
                  const data_t *data, const data_t *diff_dst, data_t *diff_src,
                  int64_t n) noexcept nogil:
    cdef int64_t b, i
    for b in prange((n + BLOCK - 1) // BLOCK, schedule='static'):
        i = b * BLOCK
        if data_t is float:
            uk.bwd_f32(op, alpha, beta, data + i, diff_dst + i, diff_src + i,
                       min(<int64_t>BLOCK, n - i))
        else:
            uk.bwd_bf16(op, alpha, beta, data + i, diff_dst + i, diff_src + i,
                        min(<int64_t>BLOCK, n - i))


cdef void eltwise_fwd(const eltwise_kernels_t *uk, int alg, float alpha, float beta,
                      const char *src, char *dst, int dt, int64_t n) noexcept nogil:
    cdef int op = vector_op(alg, True) if uk != NULL else -1
    if op >= 0 and dt == dnnl_bf16:
        vec_fwd(uk, op, alpha, beta, <const bf16_t *>src, <bf16_t *>dst, n)
    elif op >= 0:
        vec_fwd(uk, op, alpha, beta, <const float *>src, <float *>dst, n)
    elif dt == dnnl_bf16:
        fwd_impl(alg, alpha, beta, <const bf16_t *>src, <bf16_t *>dst, n)
    else:
        fwd_impl(alg, alpha, beta, <const float *>src, <float *>dst, n)


cdef void eltwise_bwd(const eltwise_kernels_t *uk, int alg, float alpha, float beta,
                      const char *data, const char *diff_dst, char *diff_src, int dt,
                      int64_t n) noexcept nogil:
    cdef int op = vector_op(alg, False) if uk != NULL else -1
    if op >= 0 and dt == dnnl_bf16:
        vec_bwd(uk, op, alpha, beta, <const bf16_t *>data, <const bf16_t *>diff_dst,
                <bf16_t *>diff_src, n)
    elif op >= 0:
        vec_bwd(uk, op, alpha, beta, <const float *>data, <const float *>diff_dst,
                <float *>diff_src, n)
    elif dt == dnnl_bf16:
        bwd_impl(alg, alpha, beta, <const bf16_t *>data, <const bf16_t *>diff_dst,
                 <bf16_t *>diff_src, n)
    else:
        bwd_impl(alg, alpha, beta, <const float *>data, <const float *>diff_dst,
                 <float *>diff_src, n)
