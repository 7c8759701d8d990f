# Eltwise kernels (oneDNN's math_utils.hpp formulas). `alg` is a
# dnnl_alg_kind_t; tensors are dense, n elements, f32 or bf16 (dt).

from libc.stdint cimport int64_t, uint16_t

# The vector loops of one ISA level (kernels/include/eltwise_isa.h).
cdef extern from "kernels/include/eltwise_isa.h" nogil:
    ctypedef struct eltwise_kernels_t "cydnnl_eltwise_kernels_t":
        void (*fwd_f32)(int op, float alpha, float beta, const float *src, float *dst,
                        int64_t n) noexcept nogil
        void (*fwd_bf16)(int op, float alpha, float beta, const uint16_t *src,
                         uint16_t *dst, int64_t n) noexcept nogil
        void (*bwd_f32)(int op, float alpha, float beta, const float *x, const float *dd,
                        float *diff_src, int64_t n) noexcept nogil
        void (*bwd_bf16)(int op, float alpha, float beta, const uint16_t *x,
                         const uint16_t *dd, uint16_t *diff_src, int64_t n) noexcept nogil

# The vector loops compiled for a dnnl_cpu_isa_t level; NULL for a level
# this build lacks. The caller checks that the CPU has the level.
cdef const eltwise_kernels_t *eltwise_kernels_for(int isa) noexcept nogil

cdef float eltwise_fwd_one(int alg, float s, float alpha, float beta) noexcept nogil
# The gradient for one element: `x` is src, or dst for the *_use_dst_for_bwd
# algorithms.
cdef float eltwise_bwd_one(int alg, float dd, float x, float alpha, float beta) noexcept nogil

# Over n dense elements, in parallel: with a level's vector loops uk where
# the algorithm has them, the scalar formulas otherwise or when uk is NULL.
# The output may be an input.
cdef void eltwise_fwd(const eltwise_kernels_t *uk, int alg, float alpha, float beta,
                      const char *src, char *dst, int dt, int64_t n) noexcept nogil
cdef void eltwise_bwd(const eltwise_kernels_t *uk, int alg, float alpha, float beta,
                      const char *data, const char *diff_dst, char *diff_src, int dt,
                      int64_t n) noexcept nogil
