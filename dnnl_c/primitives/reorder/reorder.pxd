from dnnl_c.core cimport *

cdef dnnl_status_t dnnl_reorder_primitive_desc_create(
        dnnl_primitive_desc_t *reorder_primitive_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_engine_t src_engine,
        const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
        const_dnnl_primitive_attr_t attr) noexcept nogil

# Internal, for primitives that work on other layouts: copies the tensor at
# src (first element, offset0 applied) described by src_md to dst in dst_md.
cdef dnnl_status_t reorder_md(const char *src, const md_t *src_md, char *dst,
                              const md_t *dst_md) noexcept nogil
