/* The primitive cache's C helpers (core/primitive_cache.pyx): its lock, its
   key hash and its capacity setting. */
#ifndef CYDNNL_PRIMITIVE_CACHE_H
#define CYDNNL_PRIMITIVE_CACHE_H
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One lock for the cache's bookkeeping (the entry list and the table). */
static pthread_mutex_t cydnnl_cache_mutex = PTHREAD_MUTEX_INITIALIZER;
static inline void cydnnl_cache_lock(void) { pthread_mutex_lock(&cydnnl_cache_mutex); }
static inline void cydnnl_cache_unlock(void) { pthread_mutex_unlock(&cydnnl_cache_mutex); }

/* FNV-1a over n bytes, continuing from h. */
static inline uint64_t cydnnl_hash_bytes(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}
#define CYDNNL_HASH_SEED 14695981039346656037ull

/* oneDNN's getenv_int_user("PRIMITIVE_CACHE_CAPACITY", 1024): ONEDNN_..., else
   DNNL_...; a value that is not a whole non-negative number keeps the default. */
static int cydnnl_cache_capacity_from_env(int dflt) {
    static const char *names[2] = {"ONEDNN_PRIMITIVE_CACHE_CAPACITY",
                                   "DNNL_PRIMITIVE_CACHE_CAPACITY"};
    int i;
    for (i = 0; i < 2; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long n;
        if (v == NULL || v[0] == 0) continue;
        n = strtol(v, &end, 10);
        if (*end != 0 || n < 0 || n > 0x7fffffffL) return dflt;
        return (int)n;
    }
    return dflt;
}
#endif
