# The core's C helpers (cydnnl_core.h).

cdef extern from "core/cydnnl_core.h" nogil:
    unsigned CYDNNL_RUNTIME
    int cydnnl_atomic_add(int *p, int v)
    double cydnnl_now_ms()
