/* Small C helpers of the core: atomics for reference counts, a monotonic
   clock for verbose timings, the threading runtime oneDNN's version reports,
   and checked size arithmetic. */
#ifndef CYDNNL_CORE_H
#define CYDNNL_CORE_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef _OPENMP
#define CYDNNL_RUNTIME 2u  /* DNNL_RUNTIME_OMP */
#else
#define CYDNNL_RUNTIME 1u  /* DNNL_RUNTIME_SEQ */
#endif

static inline int cydnnl_atomic_add(int *p, int v) {
    return __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL);
}

static inline double cydnnl_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* The largest byte count of anything the library describes or allocates (a
   memory descriptor's size and extent, a scratchpad): what a pointer
   difference can hold, so every offset into such a buffer is representable. */
#define CYDNNL_MAX_BYTES ((size_t)PTRDIFF_MAX)

/* Checked arithmetic, the one place sizes are multiplied and added: nonzero
   when the exact result does not fit (*r is then not to be used). */
static inline int cydnnl_mul_overflow(int64_t a, int64_t b, int64_t *r) {
    return __builtin_mul_overflow(a, b, r);
}

static inline int cydnnl_add_overflow(int64_t a, int64_t b, int64_t *r) {
    return __builtin_add_overflow(a, b, r);
}

static inline int cydnnl_size_mul_overflow(size_t a, size_t b, size_t *r) {
    return __builtin_mul_overflow(a, b, r);
}

static inline int cydnnl_size_add_overflow(size_t a, size_t b, size_t *r) {
    return __builtin_add_overflow(a, b, r);
}

/* *total += n * k bytes, for scratchpad sizes; nonzero (and *total left as
   it was) when the sum would pass CYDNNL_MAX_BYTES. A count that overflowed
   (md_nelems' -1, SIZE_MAX) is huge as a size_t, so it fails too. */
static inline int cydnnl_bytes_add_overflow(size_t *total, size_t n, size_t k) {
    size_t b;
    if (__builtin_mul_overflow(n, k, &b) || __builtin_add_overflow(*total, b, &b)
            || b > CYDNNL_MAX_BYTES)
        return 1;
    *total = b;
    return 0;
}
#endif
