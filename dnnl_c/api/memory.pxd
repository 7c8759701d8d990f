# The Python-level memory API, for execute.

cimport dnnl_c.core as c

# The user buffer a memory's handle points into (None if none): execute
# holds it while the primitive runs.
cdef object _kept_buffer(const c.dnnl_memory *memory)
