# OpenMP where the build has it; one thread where it has not (see
# kernels/include/cydnnl_common.h).

cdef extern from "kernels/include/cydnnl_common.h" nogil:
    bint CYDNNL_OPENMP
    int omp_get_max_threads() noexcept
    int omp_get_thread_num() noexcept
    int omp_get_num_threads() noexcept
