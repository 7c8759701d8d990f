/* The one allocator for the data buffers the library makes itself: memory
   buffers (DNNL_MEMORY_ALLOCATE), scratchpads, kernels' packing and work
   buffers. Declared to Cython in dnnl_c/kernels/alloc.pxd.

   cydnnl_malloc(size, align) / cydnnl_calloc(size, align) / cydnnl_free(p).

   Normally a malloc'ed block with the pointer aligned to `align` (a power of
   two). With CYDNNL_GUARD_PAGES=1 in the environment (a debug switch, read
   once per module) every block is its own mmap whose last page is PROT_NONE
   and the block ends exactly where that page starts, so a read or write one
   byte past the end faults at once. The pointer is then aligned only to the
   largest power of two dividing `size` (capped at `align`): ending exactly
   at the guard page wins over alignment. Kernels load through memcpy and
   user buffers are not 64-byte aligned either, so nothing relies on more.

   Both kinds keep a small header just before the pointer, so cydnnl_free
   frees either kind whatever the switch says now. */
#ifndef CYDNNL_ALLOC_H
#define CYDNNL_ALLOC_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define CYDNNL_HAVE_GUARD 1
#else
#define CYDNNL_HAVE_GUARD 0
#endif

/* what sits just before every pointer: the start of the malloc'ed block or
   of the mapping, and the mapping's length (0: malloc'ed) */
typedef struct { void *base; size_t map_len; } cydnnl_alloc_hdr;
#define CYDNNL_HDR sizeof(cydnnl_alloc_hdr)

/* -1 unknown, 0 off, 1 on; a benign race: every thread computes the same value */
static int cydnnl_guard_flag = -1;

static inline int cydnnl_guard_pages(void) {
    int f = __atomic_load_n(&cydnnl_guard_flag, __ATOMIC_RELAXED);
    if (f < 0) {
        const char *e = getenv("CYDNNL_GUARD_PAGES");
        f = CYDNNL_HAVE_GUARD && e != NULL && e[0] != '\0' && strcmp(e, "0") != 0;
        __atomic_store_n(&cydnnl_guard_flag, f, __ATOMIC_RELAXED);
    }
    return f;
}

static inline void cydnnl_put_hdr(char *p, void *base, size_t map_len) {
    cydnnl_alloc_hdr h;
    h.base = base;
    h.map_len = map_len;
    memcpy(p - CYDNNL_HDR, &h, CYDNNL_HDR);   /* p may be unaligned */
}

#if CYDNNL_HAVE_GUARD
static inline void *cydnnl_guarded(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (size > SIZE_MAX - CYDNNL_HDR - 2 * page)
        return NULL;
    size_t body = (size + CYDNNL_HDR + page - 1) / page * page;
    size_t len = body + page;
    char *base = (char *)mmap(NULL, len, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == (char *)MAP_FAILED)
        return NULL;
    if (mprotect(base + body, page, PROT_NONE) != 0) {
        munmap(base, len);
        return NULL;
    }
    /* ends at the guard page; aligned to the lowest set bit of size */
    char *p = base + body - size;
    cydnnl_put_hdr(p, base, len);
    return p;   /* mmap'ed pages are zero: calloc for free */
}
#endif

static inline void *cydnnl_malloc(size_t size, size_t align) {
    if (align < 16)
        align = 16;
#if CYDNNL_HAVE_GUARD
    if (cydnnl_guard_pages())
        return cydnnl_guarded(size);
#endif
    if (size > SIZE_MAX - CYDNNL_HDR - align)
        return NULL;
    char *base = (char *)malloc(size + CYDNNL_HDR + align);
    if (base == NULL)
        return NULL;
    char *p = (char *)(((uintptr_t)base + CYDNNL_HDR + align - 1) & ~(uintptr_t)(align - 1));
    cydnnl_put_hdr(p, base, 0);
    return p;
}

static inline void *cydnnl_calloc(size_t size, size_t align) {
    void *p = cydnnl_malloc(size, align);
    cydnnl_alloc_hdr h;
    if (p == NULL)
        return NULL;
    memcpy(&h, (char *)p - CYDNNL_HDR, CYDNNL_HDR);
    if (h.map_len == 0)   /* fresh mappings are zero already */
        memset(p, 0, size);
    return p;
}

static inline void cydnnl_free(void *p) {
    cydnnl_alloc_hdr h;
    if (p == NULL)
        return;
    memcpy(&h, (char *)p - CYDNNL_HDR, CYDNNL_HDR);
#if CYDNNL_HAVE_GUARD
    if (h.map_len != 0) {
        munmap(h.base, h.map_len);
        return;
    }
#endif
    free(h.base);
}
#endif /* CYDNNL_ALLOC_H */
