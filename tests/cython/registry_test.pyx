# A primitive kind registered from outside the package, as a new family
# would register itself: the core must create, walk, query and execute it
# without knowing it. The kind adds its sources (any number of them) into dst.

from libc.string cimport memset
from libc.stdint cimport int64_t

from dnnl_c.core cimport *

cdef dnnl_primitive_kind_t KIND = <dnnl_primitive_kind_t>63   # no oneDNN kind uses it
cdef enum:
    REJECTING = 11      # implementations that decline, ahead of the two that accept
    EXTRA_ARGS = 40     # what the second accepting one adds: more than any fixed room

cdef struct adder_desc_t:
    op_desc_t hdr
    int nsrc
    float scale

cdef struct adder_conf_t:
    int64_t n


cdef dnnl_status_t reject_init(dnnl_primitive_desc *pd) noexcept nogil:
    return fail(dnnl_unimplemented, "declines")


cdef dnnl_status_t add_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef adder_conf_t *conf = <adder_conf_t *>pd_conf(pd, sizeof(adder_conf_t))
    if conf == NULL:
        return dnnl_out_of_memory
    conf.n = md_nelems(pd_md(pd, DNNL_ARG_DST), False)
    return dnnl_success


cdef dnnl_status_t add_more_init(dnnl_primitive_desc *pd) noexcept nogil:
    cdef int i
    cdef dnnl_dim_t one[1]
    one[0] = 1
    for i in range(EXTRA_ARGS):
        if pd_add_arg(pd, DNNL_ARG_MULTIPLE_DST + i, ARG_OUTPUT) == NULL:
            return dnnl_out_of_memory
        md_init_by_tag(pd_md(pd, DNNL_ARG_MULTIPLE_DST + i), 1, one, dnnl_f32, dnnl_a)
    return add_init(pd)


cdef dnnl_status_t add_execute(const dnnl_primitive_desc *pd,
                               const exec_ctx_t *ctx) noexcept nogil:
    cdef const adder_desc_t *d = <const adder_desc_t *>pd.desc
    cdef int64_t n = (<const adder_conf_t *>pd.conf).n, j
    cdef float *dst = <float *>ctx_data(ctx, DNNL_ARG_DST)
    cdef const float *src
    cdef int i
    for j in range(n):
        dst[j] = 0
    for i in range(d.nsrc):
        src = <const float *>ctx_data(ctx, DNNL_ARG_MULTIPLE_SRC + i)
        for j in range(n):
            dst[j] += d.scale * src[j]
    for i in range(pd.nargs):
        if pd.args[i].arg >= DNNL_ARG_MULTIPLE_DST:
            (<float *>ctx_data(ctx, pd.args[i].arg))[0] = 7
    return dnnl_success


cdef dnnl_status_t adder_query(const dnnl_primitive_desc *pd, dnnl_query_t what,
                               int index, void *result) noexcept nogil:
    if what == dnnl_query_alpha_f32:
        (<float *>result)[0] = (<const adder_desc_t *>pd.desc).scale
        return dnnl_success
    return dnnl_unimplemented


cdef primitive_kind_t adder_kind
cdef bint registered = False


def register():
    global registered
    cdef int i
    if registered:
        return adder_kind.impls.n
    adder_kind.kind = KIND
    adder_kind.query = adder_query
    for i in range(REJECTING):
        impl_list_add(&adder_kind.impls, "test:declines", reject_init, add_execute)
    impl_list_add(&adder_kind.impls, "test:add", add_init, add_execute)
    impl_list_add(&adder_kind.impls, "test:add_more", add_more_init, add_execute)
    register_kind(&adder_kind)
    registered = True
    return adder_kind.impls.n


def create(dims, int nsrc, float scale):
    """Creates a pd of the test kind over nsrc f32 sources of `dims` (plain);
    returns (status, pd address or 0)."""
    cdef dnnl_engine_t eng = NULL
    cdef dnnl_primitive_desc_t pd = NULL
    cdef md_t md
    cdef dnnl_dim_t cdims[12]
    cdef arg_spec_t args[200]
    cdef adder_desc_t desc
    cdef int i, nd = len(dims)
    for i in range(nd):
        cdims[i] = dims[i]
    md_init_by_tag(&md, nd, cdims, dnnl_f32, <dnnl_format_tag_t>(dnnl_a + nd - 1))
    memset(&desc, 0, sizeof(desc))
    desc.hdr.primitive_kind = KIND
    desc.hdr.prop_kind = dnnl_forward_inference
    desc.nsrc = nsrc
    desc.scale = scale
    for i in range(nsrc):
        args[i] = arg_spec_t(DNNL_ARG_MULTIPLE_SRC + i, ARG_INPUT, &md)
    args[nsrc] = arg_spec_t(DNNL_ARG_DST, ARG_OUTPUT, &md)
    dnnl_engine_create(&eng, dnnl_cpu, 0)
    st = pd_create(&pd, eng, &desc.hdr, sizeof(desc), nsrc + 1, args, NULL, NULL)
    dnnl_engine_destroy(eng)
    return st, <size_t>pd


def info(size_t pd):
    cdef const char *name = NULL
    dnnl_primitive_desc_query(<dnnl_primitive_desc_t>pd, dnnl_query_impl_info_str, 0, &name)
    return (<bytes>name).decode()


def alpha(size_t pd):
    cdef float a = 0
    st = dnnl_primitive_desc_query(<dnnl_primitive_desc_t>pd, dnnl_query_alpha_f32, 0, &a)
    return st, a


def inputs(size_t pd):
    return dnnl_primitive_desc_query_s32(<dnnl_primitive_desc_t>pd,
                                         dnnl_query_num_of_inputs_s32, 0)


def dst_md_ndims(size_t md):
    return (<const dnnl_memory_desc *>md).md.ndims


def dst_md(size_t pd):
    return <size_t>dnnl_primitive_desc_query_md(<dnnl_primitive_desc_t>pd,
                                                dnnl_query_dst_md, 0)


def next_impl(size_t pd):
    return dnnl_primitive_desc_next_impl(<dnnl_primitive_desc_t>pd)


def destroy(size_t pd):
    return dnnl_primitive_desc_destroy(<dnnl_primitive_desc_t>pd)


def execute(size_t pd, float[:, ::1] srcs, float[::1] dst, float[::1] extra):
    """Runs the pd on srcs (one row per source) into dst; extra receives the
    EXTRA_ARGS one-element outputs the second implementation declares."""
    cdef dnnl_engine_t eng = NULL
    cdef dnnl_stream_t strm = NULL
    cdef dnnl_primitive_t prim = NULL
    cdef dnnl_memory_desc_t md = NULL
    cdef dnnl_memory_t mems[300]
    cdef dnnl_exec_arg_t args[300]
    cdef dnnl_dim_t n[1]
    cdef int i, k = 0
    n[0] = dst.shape[0]
    dnnl_engine_create(&eng, dnnl_cpu, 0)
    dnnl_stream_create(&strm, eng, dnnl_stream_default_flags)
    dnnl_memory_desc_create_with_tag(&md, 1, n, dnnl_f32, dnnl_a)
    for i in range(srcs.shape[0]):
        dnnl_memory_create(&mems[k], md, eng, &srcs[i, 0])
        args[k] = dnnl_exec_arg_t(DNNL_ARG_MULTIPLE_SRC + i, mems[k])
        k += 1
    dnnl_memory_create(&mems[k], md, eng, &dst[0])
    args[k] = dnnl_exec_arg_t(DNNL_ARG_DST, mems[k])
    k += 1
    n[0] = 1
    dnnl_memory_desc_destroy(md)
    dnnl_memory_desc_create_with_tag(&md, 1, n, dnnl_f32, dnnl_a)
    for i in range(extra.shape[0]):
        dnnl_memory_create(&mems[k], md, eng, &extra[i])
        args[k] = dnnl_exec_arg_t(DNNL_ARG_MULTIPLE_DST + i, mems[k])
        k += 1
    st = dnnl_primitive_create(&prim, <dnnl_primitive_desc_t>pd)
    if st == dnnl_success:
        st = dnnl_primitive_execute(prim, strm, k, args)
    dnnl_primitive_destroy(prim)
    for i in range(k):
        dnnl_memory_destroy(mems[i])
    dnnl_memory_desc_destroy(md)
    dnnl_stream_destroy(strm)
    dnnl_engine_destroy(eng)
    return st
