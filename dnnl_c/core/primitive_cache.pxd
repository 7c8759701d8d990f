# The primitive cache (oneDNN's primitive_cache.cpp): the implementations of
# the primitives created last, keyed by what their primitive descriptor
# holds, so that creating a primitive from an equal primitive descriptor
# again shares the implementation instead of making a new one. LRU, at most
# `capacity` entries (ONEDNN_PRIMITIVE_CACHE_CAPACITY, 1024; 0 turns it off).

from dnnl_c.core.types cimport *

cdef dnnl_status_t dnnl_get_primitive_cache_capacity(int *capacity) noexcept nogil
cdef dnnl_status_t dnnl_set_primitive_cache_capacity(int capacity) noexcept nogil
# How many implementations the cache holds now (oneDNN's internal
# get_primitive_cache_size, for tests).
cdef int cydnnl_primitive_cache_get_size() noexcept nogil

# ------------------------------------------- for primitive.pyx

# The implementation for pd, with a reference for the caller: the cached
# one when an equal pd made one before (hit[0] = True), else a new one,
# which the cache keeps (NULL when out of memory).
cdef primitive_impl_t *primitive_cache_get(const dnnl_primitive_desc *pd,
                                           bint *hit) noexcept nogil
# Drops a reference to an implementation (freed with the last).
cdef void impl_release(primitive_impl_t *impl) noexcept nogil
