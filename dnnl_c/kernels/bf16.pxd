# bf16 <-> f32 as oneDNN converts them (see kernels/include/cydnnl_common.h).

from libc.stdint cimport uint16_t

cdef extern from "kernels/include/cydnnl_common.h" nogil:
    float bf16_to_f32 "cydnnl_bf16_to_f32"(uint16_t v) noexcept
    uint16_t f32_to_bf16 "cydnnl_f32_to_bf16"(float f) noexcept
