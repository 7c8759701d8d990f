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

# Staging for primitives whose kernels want dense f32 in one layout: a copy
# of the tensor md describes, as f32 in `tag`, carved from the scratchpad at
# *scratch (which moves past it; the size init reserved: nelems floats + 64
# bytes). Loaded from data when `load` (a failed reorder lands in st), else
# left for the kernel to write.
cdef float *stage_f32(const char *data, const md_t *md, dnnl_format_tag_t tag, char **scratch,
                      bint load, dnnl_status_t *st) noexcept nogil
# The same into `layout`, an f32 md of md's dims (a layout no tag names);
# the scratch reserved is the same when layout has no padding.
cdef float *stage_f32_as(const char *data, const md_t *md, const md_t *layout, char **scratch,
                         bint load, dnnl_status_t *st) noexcept nogil
# ...and the way back: the staged f32 copy (in `tag`) into dst, described by md.
cdef dnnl_status_t unstage_f32(const float *data, dnnl_format_tag_t tag, char *dst,
                               const md_t *md) noexcept nogil
