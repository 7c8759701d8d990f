# The library's allocator for data buffers (memory buffers, scratchpads,
# kernels' work buffers); CYDNNL_GUARD_PAGES=1 ends each at a PROT_NONE page.
# See kernels/include/cydnnl_alloc.h.

cdef extern from "kernels/include/cydnnl_alloc.h" nogil:
    void *cydnnl_malloc(size_t size, size_t align) noexcept
    void *cydnnl_calloc(size_t size, size_t align) noexcept
    void cydnnl_free(void *p) noexcept
    bint cydnnl_guard_pages() noexcept
    void *cydnnl_thread_scratch(size_t size) noexcept
    void cydnnl_thread_scratch_done(void *p) noexcept
