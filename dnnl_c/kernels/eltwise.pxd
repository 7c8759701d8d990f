# Eltwise kernels (oneDNN's math_utils.hpp formulas). `alg` is a
# dnnl_alg_kind_t; tensors are dense, n elements, f32 or bf16 (dt).

from libc.stdint cimport int64_t

cdef float eltwise_fwd_one(int alg, float s, float alpha, float beta) noexcept nogil
# The gradient for one element: `x` is src, or dst for the *_use_dst_for_bwd
# algorithms.
cdef float eltwise_bwd_one(int alg, float dd, float x, float alpha, float beta) noexcept nogil

cdef void eltwise_fwd(int alg, float alpha, float beta, const char *src, char *dst, int dt,
                      int64_t n) noexcept nogil
cdef void eltwise_bwd(int alg, float alpha, float beta, const char *data,
                      const char *diff_dst, char *diff_src, int dt, int64_t n) noexcept nogil
