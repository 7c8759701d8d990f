# Element types of the compute kernels: f32, and bf16 stored as its 16-bit
# word. Kernels read through get() and write through put(), computing in f32
# and rounding once when storing.

from libc.stdint cimport int64_t, uint16_t
from dnnl_c.kernels.bf16 cimport bf16_to_f32, f32_to_bf16

ctypedef uint16_t bf16_t

ctypedef fused data_t:
    float
    bf16_t


cdef inline float get(const data_t *p, int64_t i) noexcept nogil:
    if data_t is float:
        return p[i]
    else:
        return bf16_to_f32(p[i])


cdef inline void put(data_t *p, int64_t i, float v) noexcept nogil:
    if data_t is float:
        p[i] = v
    else:
        p[i] = f32_to_bf16(v)
