# The C-level API of dnnl_c for Cython code:
#
#     from dnnl_c.dnnl cimport *
#
# oneDNN's C functions, types and constants (dnnl.h), taking and giving C
# handles; every function is `noexcept nogil`. C rules apply at this level:
# the library checks NULL and destroyed handles it can see, but a handle
# freed by its last destroy must not be used again.

from dnnl_c.dnnl_types cimport *

cdef extern from *:
    """
    #define DNNL_MEMORY_NONE ((void *)0)
    #define DNNL_MEMORY_ALLOCATE ((void *)(size_t)-1)
    """
    void *DNNL_MEMORY_NONE
    void *DNNL_MEMORY_ALLOCATE

from dnnl_c.core cimport (
    dnnl_dim_t,
    dnnl_dims_t,
    dnnl_exec_arg_t,
    dnnl_version_t,
    dnnl_engine_t,
    dnnl_stream_t,
    const_dnnl_stream_t,
    dnnl_memory_desc_t,
    const_dnnl_memory_desc_t,
    dnnl_memory_t,
    const_dnnl_memory_t,
    dnnl_primitive_attr_t,
    const_dnnl_primitive_attr_t,
    dnnl_primitive_desc_t,
    const_dnnl_primitive_desc_t,
    dnnl_primitive_t,
    const_dnnl_primitive_t,
    dnnl_engine_get_count,
    dnnl_engine_create,
    dnnl_engine_get_kind,
    dnnl_engine_destroy,
    dnnl_stream_create,
    dnnl_stream_get_engine,
    dnnl_stream_wait,
    dnnl_stream_destroy,
    dnnl_memory_desc_create_with_tag,
    dnnl_memory_desc_create_with_strides,
    dnnl_memory_desc_create_submemory,
    dnnl_memory_desc_reshape,
    dnnl_memory_desc_permute_axes,
    dnnl_memory_desc_clone,
    dnnl_memory_desc_destroy,
    dnnl_memory_desc_query,
    dnnl_memory_desc_query_v2,
    dnnl_memory_desc_equal,
    dnnl_memory_desc_get_size,
    dnnl_memory_desc_get_size_v2,
    dnnl_data_type_size,
    dnnl_memory_create,
    dnnl_memory_create_v2,
    dnnl_memory_get_memory_desc,
    dnnl_memory_get_engine,
    dnnl_memory_map_data,
    dnnl_memory_unmap_data,
    dnnl_memory_get_data_handle,
    dnnl_memory_set_data_handle,
    dnnl_memory_get_data_handle_v2,
    dnnl_memory_set_data_handle_v2,
    dnnl_memory_destroy,
    dnnl_primitive_attr_create,
    dnnl_primitive_attr_clone,
    dnnl_primitive_attr_destroy,
    dnnl_primitive_attr_get_scratchpad_mode,
    dnnl_primitive_attr_set_scratchpad_mode,
    dnnl_primitive_attr_get_fpmath_mode,
    dnnl_primitive_attr_set_fpmath_mode,
    dnnl_primitive_desc_next_impl,
    dnnl_primitive_desc_clone,
    dnnl_primitive_desc_get_attr,
    dnnl_primitive_desc_destroy,
    dnnl_primitive_desc_query,
    dnnl_primitive_desc_query_md,
    dnnl_primitive_desc_query_s32,
    dnnl_primitive_create,
    dnnl_primitive_execute,
    dnnl_primitive_get_primitive_desc,
    dnnl_primitive_destroy,
    dnnl_set_verbose,
    dnnl_version,
    dnnl_set_max_cpu_isa,
    dnnl_get_effective_cpu_isa,
    dnnl_set_cpu_isa_hints,
    dnnl_get_cpu_isa_hints,
    dnnl_status2str,
    dnnl_dt2str,
    dnnl_fmt_kind2str,
    dnnl_fmt_tag2str,
    dnnl_prop_kind2str,
    dnnl_prim_kind2str,
    dnnl_alg_kind2str,
    dnnl_engine_kind2str,
    dnnl_rnn_direction2str,
    dnnl_rnn_flags2str,
    dnnl_scratchpad_mode2str,
    dnnl_fpmath_mode2str,
    dnnl_query2str,
    dnnl_runtime2str,
    cydnnl_last_error,
    cydnnl_clear_error,
    cydnnl_memory_set_capacity,
    cydnnl_memory_desc_extent)
from dnnl_c.primitives.reorder.reorder cimport dnnl_reorder_primitive_desc_create
from dnnl_c.primitives.eltwise.eltwise cimport (dnnl_eltwise_forward_primitive_desc_create,
                             dnnl_eltwise_backward_primitive_desc_create)
from dnnl_c.primitives.convolution.convolution cimport (dnnl_convolution_forward_primitive_desc_create,
                                 dnnl_convolution_backward_data_primitive_desc_create,
                                 dnnl_convolution_backward_weights_primitive_desc_create)
from dnnl_c.primitives.lrn.lrn cimport (dnnl_lrn_forward_primitive_desc_create,
                         dnnl_lrn_backward_primitive_desc_create)
from dnnl_c.primitives.pooling.pooling cimport (dnnl_pooling_forward_primitive_desc_create,
                             dnnl_pooling_backward_primitive_desc_create)
from dnnl_c.primitives.rnn.rnn cimport (dnnl_lstm_forward_primitive_desc_create,
                         dnnl_lstm_backward_primitive_desc_create)
