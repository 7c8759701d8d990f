# The core's C helpers (cydnnl_core.h).

from libc.stdint cimport int64_t

cdef extern from "core/cydnnl_core.h" nogil:
    unsigned CYDNNL_RUNTIME
    int cydnnl_atomic_add(int *p, int v)
    double cydnnl_now_ms()
    # The largest byte size of a descriptor, buffer or scratchpad (PTRDIFF_MAX).
    size_t CYDNNL_MAX_BYTES
    # Checked arithmetic: true when the exact result does not fit.
    bint cydnnl_mul_overflow(int64_t a, int64_t b, int64_t *r)
    bint cydnnl_add_overflow(int64_t a, int64_t b, int64_t *r)
    bint cydnnl_size_mul_overflow(size_t a, size_t b, size_t *r)
    bint cydnnl_size_add_overflow(size_t a, size_t b, size_t *r)
    # total[0] += n * k for scratchpad sizes, unless the sum passes
    # CYDNNL_MAX_BYTES (true; a negative n converts to a huge size_t).
    bint cydnnl_bytes_add_overflow(size_t *total, size_t n, size_t k)
