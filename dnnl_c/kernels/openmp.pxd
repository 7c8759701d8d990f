# OpenMP where the build has it; one thread where it has not.

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    #define CYDNNL_OPENMP 1
    #else
    #define CYDNNL_OPENMP 0
    static inline int omp_get_max_threads(void) { return 1; }
    static inline int omp_get_thread_num(void) { return 0; }
    static inline int omp_get_num_threads(void) { return 1; }
    #endif
    """
    bint CYDNNL_OPENMP
    int omp_get_max_threads() noexcept nogil
    int omp_get_thread_num() noexcept nogil
    int omp_get_num_threads() noexcept nogil
