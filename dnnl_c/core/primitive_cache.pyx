# The primitive cache (see primitive_cache.pxd). The key is everything the
# core stores for a primitive descriptor that an implementation's execute
# may read: the family, the implementation, the engine, the op descriptor,
# the arguments as described and as resolved, the attributes, the
# implementation's configuration and scratchpad size, the forward hint, and
# the number of threads, as oneDNN's primitive_hashing key. Two pds with
# equal keys run the same, so a primitive may run the other's copy.

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcmp

from dnnl_c.core.types cimport *
from dnnl_c.core.verbose cimport fail
from dnnl_c.core.objects cimport header_init, obj_retain, obj_release
from dnnl_c.core.memory_desc_wrapper cimport md_equal
from dnnl_c.core.attr cimport attr_equal
from dnnl_c.core.primitive_desc cimport pd_clone_raw, pd_dispose
from dnnl_c.kernels.openmp cimport omp_get_max_threads

cdef extern from "core/primitive_cache.h" nogil:
    void cydnnl_cache_lock()
    void cydnnl_cache_unlock()
    uint64_t cydnnl_hash_bytes(uint64_t h, const void *p, size_t n)
    uint64_t CYDNNL_HASH_SEED
    int cydnnl_cache_capacity_from_env(int dflt)

DEF DEFAULT_CAPACITY = 1024

# An entry: a key (the impl's own pd, the thread count, the hash) and one
# reference to the implementation. Entries are in a list, most recently
# used first, and in a hash table chained through `bucket_next`.
cdef struct entry_t:
    entry_t *prev
    entry_t *next
    entry_t *bucket_next
    uint64_t hash
    int nthr
    primitive_impl_t *impl

cdef entry_t *g_head = NULL          # most recently used
cdef entry_t *g_tail = NULL          # least recently used, evicted first
cdef entry_t **g_buckets = NULL
cdef int g_nbuckets = 0              # a power of 2, or 0 before the first insert
cdef int g_size = 0
cdef int g_capacity = -1             # -1: not read from the environment yet

# ------------------------------------------------------------ implementations


cdef void impl_free(obj_header *obj) noexcept nogil:
    pd_dispose((<primitive_impl_t *>obj).pd)
    free(obj)


cdef primitive_impl_t *impl_create(const dnnl_primitive_desc *pd) noexcept nogil:
    cdef primitive_impl_t *impl = <primitive_impl_t *>calloc(1, sizeof(primitive_impl_t))
    if impl == NULL:
        return NULL
    header_init(&impl.hdr, OBJ_PRIMITIVE_IMPL, NULL, impl_free)
    impl.pd = pd_clone_raw(pd)
    if impl.pd == NULL:
        free(impl)
        return NULL
    impl.pd.hdr.owner = &impl.hdr
    return impl


cdef void impl_release(primitive_impl_t *impl) noexcept nogil:
    if impl != NULL:
        obj_release(&impl.hdr)

# ------------------------------------------------------------ the key


cdef uint64_t key_hash(const dnnl_primitive_desc *pd, int nthr) noexcept nogil:
    """Of what key_equal compares bytewise (the op descriptor holds the mds)."""
    cdef uint64_t h = CYDNNL_HASH_SEED
    h = cydnnl_hash_bytes(h, &pd.kind, sizeof(pd.kind))
    h = cydnnl_hash_bytes(h, &pd.impl_index, sizeof(pd.impl_index))
    h = cydnnl_hash_bytes(h, &nthr, sizeof(nthr))
    return cydnnl_hash_bytes(h, pd.desc, pd.desc_size)


cdef bint same_args(int n, const pd_arg_t *a, const pd_arg_t *b) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i].arg != b[i].arg or a[i].usage != b[i].usage or \
                not md_equal(&a[i].md.md, &b[i].md.md):
            return False
    return True


cdef bint same_pd(const dnnl_primitive_desc *a, const dnnl_primitive_desc *b) noexcept nogil:
    """Whether an implementation made from a serves for b."""
    cdef int i
    if a == NULL or b == NULL:
        return a == b
    if (a.kind != b.kind or a.impl_index != b.impl_index
            or a.engine.kind != b.engine.kind or a.engine.index != b.engine.index
            or a.desc_size != b.desc_size or memcmp(a.desc, b.desc, a.desc_size) != 0
            or a.ndesc_args != b.ndesc_args or a.nargs != b.nargs
            or a.scratchpad_size != b.scratchpad_size or a.conf_size != b.conf_size
            or not attr_equal(&a.attr, &b.attr)):
        return False
    for i in range(a.ndesc_args):
        if a.desc_args[i].arg != b.desc_args[i].arg or \
                a.desc_args[i].usage != b.desc_args[i].usage or \
                not md_equal(&a.desc_args[i].md, &b.desc_args[i].md):
            return False
    if not same_args(a.nargs, a.args, b.args):
        return False
    if a.conf_size > 0 and memcmp(a.conf, b.conf, a.conf_size) != 0:
        return False
    return same_pd(a.hint, b.hint)

# ------------------------------------------------------------ bookkeeping
# Everything below runs under the cache's lock.


cdef void read_capacity() noexcept nogil:
    global g_capacity
    if g_capacity < 0:
        g_capacity = cydnnl_cache_capacity_from_env(DEFAULT_CAPACITY)


cdef void list_unlink(entry_t *e) noexcept nogil:
    global g_head, g_tail
    if e.prev != NULL:
        e.prev.next = e.next
    else:
        g_head = e.next
    if e.next != NULL:
        e.next.prev = e.prev
    else:
        g_tail = e.prev
    e.prev = e.next = NULL


cdef void list_push_front(entry_t *e) noexcept nogil:
    global g_head, g_tail
    e.prev = NULL
    e.next = g_head
    if g_head != NULL:
        g_head.prev = e
    g_head = e
    if g_tail == NULL:
        g_tail = e


cdef entry_t **bucket_of(uint64_t hash) noexcept nogil:
    return &g_buckets[hash & <uint64_t>(g_nbuckets - 1)]


cdef bint grow_table() noexcept nogil:
    """Keeps at most one entry per bucket on average; False if out of memory
    (the table stays as it was)."""
    global g_buckets, g_nbuckets
    cdef int n = g_nbuckets if g_nbuckets > 0 else 64
    cdef entry_t **fresh
    cdef entry_t *e
    cdef entry_t **b
    while n < g_size + 1:
        n *= 2
    if n == g_nbuckets:
        return True
    fresh = <entry_t **>calloc(n, sizeof(entry_t *))
    if fresh == NULL:
        return g_nbuckets > 0
    free(g_buckets)
    g_buckets = fresh
    g_nbuckets = n
    e = g_head
    while e != NULL:
        b = bucket_of(e.hash)
        e.bucket_next = b[0]
        b[0] = e
        e = e.next
    return True


cdef entry_t *find(const dnnl_primitive_desc *pd, int nthr, uint64_t hash) noexcept nogil:
    cdef entry_t *e
    if g_nbuckets == 0:
        return NULL
    e = bucket_of(hash)[0]
    while e != NULL:
        if e.hash == hash and e.nthr == nthr and same_pd(e.impl.pd, pd):
            return e
        e = e.bucket_next
    return NULL


cdef void evict(entry_t *e) noexcept nogil:
    """Removes an entry; the implementation lives on in the primitives that use it."""
    global g_size
    cdef entry_t **p = bucket_of(e.hash)
    while p[0] != e:
        p = &p[0].bucket_next
    p[0] = e.bucket_next
    list_unlink(e)
    g_size -= 1
    impl_release(e.impl)
    free(e)


cdef void shrink_to(int capacity) noexcept nogil:
    while g_size > capacity and g_tail != NULL:
        evict(g_tail)


cdef void insert(primitive_impl_t *impl, int nthr, uint64_t hash) noexcept nogil:
    """Adds impl, with a reference of the cache's own; without memory for
    the entry the implementation is simply not cached."""
    global g_size
    cdef entry_t *e
    cdef entry_t **b
    if g_capacity == 0 or not grow_table():
        return
    e = <entry_t *>calloc(1, sizeof(entry_t))
    if e == NULL:
        return
    obj_retain(&impl.hdr)
    e.impl = impl
    e.nthr = nthr
    e.hash = hash
    b = bucket_of(hash)
    e.bucket_next = b[0]
    b[0] = e
    list_push_front(e)
    g_size += 1
    shrink_to(g_capacity)

# ------------------------------------------------------------ the API


cdef primitive_impl_t *primitive_cache_get(const dnnl_primitive_desc *pd,
                                           bint *hit) noexcept nogil:
    cdef int nthr = omp_get_max_threads()
    cdef uint64_t hash = key_hash(pd, nthr)
    cdef entry_t *e
    cdef primitive_impl_t *impl
    hit[0] = False
    cydnnl_cache_lock()
    read_capacity()
    e = find(pd, nthr, hash)
    if e != NULL:
        list_unlink(e)
        list_push_front(e)
        obj_retain(&e.impl.hdr)
        impl = e.impl
        cydnnl_cache_unlock()
        hit[0] = True
        return impl
    cydnnl_cache_unlock()
    # made outside the lock, as oneDNN does: other threads' lookups need not
    # wait for it
    impl = impl_create(pd)
    if impl == NULL:
        return NULL
    cydnnl_cache_lock()
    e = find(pd, nthr, hash)
    if e == NULL:
        insert(impl, nthr, hash)
    else:
        # another thread made the same meanwhile: share that one
        obj_retain(&e.impl.hdr)
        impl_release(impl)
        impl = e.impl
    cydnnl_cache_unlock()
    return impl


cdef dnnl_status_t dnnl_get_primitive_cache_capacity(int *capacity) noexcept nogil:
    if capacity == NULL:
        return fail(dnnl_invalid_arguments, "primitive cache: NULL capacity pointer")
    cydnnl_cache_lock()
    read_capacity()
    capacity[0] = g_capacity
    cydnnl_cache_unlock()
    return dnnl_success


cdef dnnl_status_t dnnl_set_primitive_cache_capacity(int capacity) noexcept nogil:
    global g_capacity
    if capacity < 0:
        return fail(dnnl_invalid_arguments, "primitive cache: capacity must be >= 0")
    cydnnl_cache_lock()
    g_capacity = capacity
    shrink_to(capacity)
    cydnnl_cache_unlock()
    return dnnl_success


cdef int cydnnl_primitive_cache_get_size() noexcept nogil:
    cdef int n
    cydnnl_cache_lock()
    n = g_size
    cydnnl_cache_unlock()
    return n
