# The Python-level memory API, for execute.

cimport dnnl_c.core as c

# The user buffer a memory's handle points into (None if none): execute
# holds it while the primitive runs.
cdef object _kept_buffer(const c.dnnl_memory *memory)

# What a buffer holds, as its buffer format says ("raw", (kind, itemsize),
# a NumPy dtype name, or None); formatted: the exporter was asked for a format.
cdef object _element(bint formatted, const char *fmt, Py_ssize_t itemsize, object obj)
cdef str _element_str(object e, const char *fmt)
