# A user's Cython module: cimports dnnl_c's C-level API and runs a round
# trip of reorders (f32 nchw -> bf16 nChw8c -> f32 nhwc) without the GIL.

from dnnl_c.dnnl cimport *


def roundtrip(float[::1] src, float[::1] dst, long n, long ch, long h, long w):
    """Returns (status of the first failing call or 0, impl names)."""
    cdef dnnl_engine_t eng = NULL
    cdef dnnl_stream_t strm = NULL
    cdef dnnl_memory_desc_t src_md = NULL, mid_md = NULL, dst_md = NULL
    cdef dnnl_memory_t src_mem = NULL, mid_mem = NULL, dst_mem = NULL
    cdef dnnl_primitive_desc_t pd1 = NULL, pd2 = NULL
    cdef dnnl_primitive_t r1 = NULL, r2 = NULL
    cdef dnnl_exec_arg_t args[2]
    cdef dnnl_dims_t dims
    cdef const char *info1 = NULL
    cdef const char *info2 = NULL
    cdef dnnl_status_t st = dnnl_success
    cdef float *src_p = &src[0]
    cdef float *dst_p = &dst[0]
    dims[0] = n
    dims[1] = ch
    dims[2] = h
    dims[3] = w
    with nogil:
        st = dnnl_engine_create(&eng, dnnl_cpu, 0)
        if st == dnnl_success:
            st = dnnl_stream_create(&strm, eng, dnnl_stream_default_flags)
        if st == dnnl_success:
            st = dnnl_memory_desc_create_with_tag(&src_md, 4, dims, dnnl_f32, dnnl_nchw)
        if st == dnnl_success:
            st = dnnl_memory_desc_create_with_tag(&mid_md, 4, dims, dnnl_bf16, dnnl_nChw8c)
        if st == dnnl_success:
            st = dnnl_memory_desc_create_with_tag(&dst_md, 4, dims, dnnl_f32, dnnl_nhwc)
        if st == dnnl_success:
            st = dnnl_memory_create(&src_mem, src_md, eng, src_p)
        if st == dnnl_success:
            st = dnnl_memory_create(&mid_mem, mid_md, eng, DNNL_MEMORY_ALLOCATE)
        if st == dnnl_success:
            st = dnnl_memory_create(&dst_mem, dst_md, eng, dst_p)
        if st == dnnl_success:
            st = dnnl_reorder_primitive_desc_create(&pd1, src_md, eng, mid_md, eng, NULL)
        if st == dnnl_success:
            st = dnnl_reorder_primitive_desc_create(&pd2, mid_md, eng, dst_md, eng, NULL)
        if st == dnnl_success:
            st = dnnl_primitive_desc_query(pd1, dnnl_query_impl_info_str, 0, &info1)
        if st == dnnl_success:
            st = dnnl_primitive_desc_query(pd2, dnnl_query_impl_info_str, 0, &info2)
        if st == dnnl_success:
            st = dnnl_primitive_create(&r1, pd1)
        if st == dnnl_success:
            st = dnnl_primitive_create(&r2, pd2)
        if st == dnnl_success:
            args[0].arg = DNNL_ARG_FROM
            args[0].memory = src_mem
            args[1].arg = DNNL_ARG_TO
            args[1].memory = mid_mem
            st = dnnl_primitive_execute(r1, strm, 2, args)
        if st == dnnl_success:
            args[0].memory = mid_mem
            args[1].memory = dst_mem
            st = dnnl_primitive_execute(r2, strm, 2, args)
        if st == dnnl_success:
            st = dnnl_stream_wait(strm)
    names = ((<bytes>info1).decode() if info1 != NULL else "",
             (<bytes>info2).decode() if info2 != NULL else "")
    with nogil:
        dnnl_primitive_destroy(r1)
        dnnl_primitive_destroy(r2)
        dnnl_primitive_desc_destroy(pd1)
        dnnl_primitive_desc_destroy(pd2)
        dnnl_memory_destroy(src_mem)
        dnnl_memory_destroy(mid_mem)
        dnnl_memory_destroy(dst_mem)
        dnnl_memory_desc_destroy(src_md)
        dnnl_memory_desc_destroy(mid_md)
        dnnl_memory_desc_destroy(dst_md)
        dnnl_stream_destroy(strm)
        dnnl_engine_destroy(eng)
    return st, names


def bad_calls():
    """Statuses of C-level calls with bad arguments."""
    cdef dnnl_memory_desc_t md = NULL
    cdef dnnl_dims_t dims
    dims[0] = 2
    dims[1] = -1
    cdef int a, b, c2
    with nogil:
        a = dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab)
        b = dnnl_memory_desc_create_with_tag(NULL, 2, dims, dnnl_f32, dnnl_ab)
        c2 = dnnl_primitive_execute(NULL, NULL, 0, NULL)
    return a, b, c2
