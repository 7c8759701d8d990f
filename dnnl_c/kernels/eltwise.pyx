# Eltwise kernels: one scalar formula per algorithm, applied over dense
# buffers in parallel. ReLU, the hot one, has its own loop so it vectorises.

from cython.parallel cimport prange
from libc.math cimport (expf, tanhf, logf, log1pf, sqrtf, fabsf, erff, powf, nearbyintf,
                        isnan)
from libc.stdint cimport int64_t

from dnnl_c.dnnl_types cimport *
from dnnl_c.kernels.types cimport bf16_t, data_t, get, put

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
        return dd * 2.0 * x
    if alg == dnnl_eltwise_abs:
        return dd if x > 0 else (-dd if x < 0 else 0.0)
    if alg == dnnl_eltwise_sqrt:
        return dd / (2.0 * sqrtf(x))
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
        return 0.0 if t <= 0 else (dd if t >= 1 else dd * (2.0 * alpha * x + beta))
    return 0.0


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


cdef void eltwise_fwd(int alg, float alpha, float beta, const char *src, char *dst, int dt,
                      int64_t n) noexcept nogil:
    if dt == dnnl_bf16:
        fwd_impl(alg, alpha, beta, <const bf16_t *>src, <bf16_t *>dst, n)
    else:
        fwd_impl(alg, alpha, beta, <const float *>src, <float *>dst, n)


cdef void eltwise_bwd(int alg, float alpha, float beta, const char *data,
                      const char *diff_dst, char *diff_src, int dt, int64_t n) noexcept nogil:
    if dt == dnnl_bf16:
        bwd_impl(alg, alpha, beta, <const bf16_t *>data, <const bf16_t *>diff_dst,
                 <bf16_t *>diff_src, n)
    else:
        bwd_impl(alg, alpha, beta, <const float *>data, <const float *>diff_dst,
                 <float *>diff_src, n)
