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

/* Large blocks ask for transparent huge pages (where the kernel gives them
   on request only, as most distributions set it): a tensor of tens of MiB
   in 4 KiB pages misses the TLB on every new page when streamed; NumPy asks
   the same for its arrays of 4 MiB and more. The advice covers the whole
   pages inside the block; its failure changes nothing. */
#define CYDNNL_HUGE_FROM ((size_t)4 << 20)
static inline void cydnnl_advise_huge(char *p, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)4095;
    if (size >= CYDNNL_HUGE_FROM && hi > lo)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

/* zero: calloc's block (libc's, or fresh mappings) rather than malloc's */
static inline void *cydnnl_alloc_(size_t size, size_t align, int zero) {
    if (align < 16)
        align = 16;
#if CYDNNL_HAVE_GUARD
    if (cydnnl_guard_pages())
        return cydnnl_guarded(size);    /* fresh mappings are zero already */
#endif
    if (size > SIZE_MAX - CYDNNL_HDR - align)
        return NULL;
    char *base = (char *)(zero ? calloc(1, size + CYDNNL_HDR + align)
                               : malloc(size + CYDNNL_HDR + align));
    if (base == NULL)
        return NULL;
    char *p = (char *)(((uintptr_t)base + CYDNNL_HDR + align - 1) & ~(uintptr_t)(align - 1));
    cydnnl_put_hdr(p, base, 0);
    cydnnl_advise_huge(p, size);
    return p;
}

static inline void *cydnnl_malloc(size_t size, size_t align) {
    return cydnnl_alloc_(size, align, 0);
}

/* Zeroed. libc's calloc takes large blocks as fresh mappings without writing
   them, so a memory's pages are only made resident as they are used, as
   oneDNN's (malloc'ed) memories are. */
static inline void *cydnnl_calloc(size_t size, size_t align) {
    return cydnnl_alloc_(size, align, 1);
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
/* ---- a per-thread scratch block that grows and is kept ----
   cydnnl_thread_scratch(size): a block of at least size bytes, 64-byte
   aligned, owned by the calling thread until its next call (contents not
   kept). For work asked for at every call of a hot function (the GEMM's
   panels): a fresh block of megabytes is a fresh mapping each time, and the
   kernel's zeroing of its pages cost 10% of a product. Freed when the thread
   exits; with CYDNNL_GUARD_PAGES every call is a fresh guarded block (the
   caller then frees it with cydnnl_thread_scratch_done). */
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define CYDNNL_HAVE_TLS_SCRATCH 1
typedef struct { void *p; size_t size; } cydnnl_scratch_t;
static pthread_key_t cydnnl_scratch_key;
static pthread_once_t cydnnl_scratch_once = PTHREAD_ONCE_INIT;
static int cydnnl_scratch_ok = 0;

static void cydnnl_scratch_release(void *v) {
    cydnnl_scratch_t *s = (cydnnl_scratch_t *)v;
    cydnnl_free(s->p);
    free(s);
}

static void cydnnl_scratch_key_init(void) {
    cydnnl_scratch_ok = pthread_key_create(&cydnnl_scratch_key, cydnnl_scratch_release) == 0;
}
#else
#define CYDNNL_HAVE_TLS_SCRATCH 0
#endif

static inline void *cydnnl_thread_scratch(size_t size) {
#if CYDNNL_HAVE_TLS_SCRATCH
    cydnnl_scratch_t *s;
    if (cydnnl_guard_pages())
        return cydnnl_malloc(size, 64);
    pthread_once(&cydnnl_scratch_once, cydnnl_scratch_key_init);
    if (!cydnnl_scratch_ok)
        return cydnnl_malloc(size, 64);
    s = (cydnnl_scratch_t *)pthread_getspecific(cydnnl_scratch_key);
    if (s == NULL) {
        s = (cydnnl_scratch_t *)calloc(1, sizeof *s);
        if (s == NULL || pthread_setspecific(cydnnl_scratch_key, s) != 0) {
            free(s);
            return cydnnl_malloc(size, 64);
        }
    }
    if (s->size < size) {
        cydnnl_free(s->p);
        s->p = cydnnl_malloc(size, 64);
        s->size = s->p != NULL ? size : 0;
    }
    return s->p;
#else
    return cydnnl_malloc(size, 64);
#endif
}

/* After use: frees the block where it was not the kept one. */
static inline void cydnnl_thread_scratch_done(void *p) {
#if CYDNNL_HAVE_TLS_SCRATCH
    cydnnl_scratch_t *s;
    if (cydnnl_guard_pages() || !cydnnl_scratch_ok) {
        cydnnl_free(p);
        return;
    }
    s = (cydnnl_scratch_t *)pthread_getspecific(cydnnl_scratch_key);
    if (s == NULL || s->p != p)
        cydnnl_free(p);
#else
    cydnnl_free(p);
#endif
}
#endif /* CYDNNL_ALLOC_H */
