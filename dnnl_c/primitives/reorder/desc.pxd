# The reorder's op descriptor (oneDNN's reorder_desc_t).

from dnnl_c.core.types cimport *

cdef struct reorder_desc_t:
    op_desc_t hdr               # refs[0], refs[1]: the src and dst engines
    md_t src_desc
    md_t dst_desc

cdef inline const reorder_desc_t *reorder_desc(const dnnl_primitive_desc *pd) noexcept nogil:
    return <const reorder_desc_t *>pd.desc
