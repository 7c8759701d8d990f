/* Small C helpers of the core: atomics for reference counts, a monotonic
   clock for verbose timings, the threading runtime oneDNN's version reports,
   and the per-thread state of error reporting (included by verbose.pyx only,
   so there is exactly one copy of it). */
#ifndef CYDNNL_CORE_H
#define CYDNNL_CORE_H
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
#endif
