# Software prefetch of a next block's operands a slice at a time while the
# current block computes (kernels/include/cydnnl_prefetch.h).

from libc.stdint cimport int64_t

cdef extern from "kernels/include/cydnnl_prefetch.h" nogil:
    ctypedef struct prefetch_t "cydnnl_prefetch_t":
        int64_t left        # lines not yet asked for
    void prefetch_init "cydnnl_prefetch_init"(prefetch_t *pf) noexcept
    # rows rows of `bytes` bytes, the first at p, `stride` bytes apart
    void prefetch_add "cydnnl_prefetch_add"(prefetch_t *pf, const void *p, int64_t bytes,
                                            int64_t rows, int64_t stride) noexcept
    # the next `lines` lines (all left when lines < 0), into L1
    void prefetch_step "cydnnl_prefetch_step"(prefetch_t *pf, int64_t lines) noexcept
    # rows rows of `bytes` bytes from p, ld bytes apart, into L1 for writing
    void prefetch_rows_w "cydnnl_prefetch_rows_w"(void *p, int64_t rows, int64_t bytes,
                                                  int64_t ld) noexcept
