"""Sizes never overflow (issue 8): every memory descriptor constructor checks
its padded dims, strides, offsets, element count and byte size with checked
arithmetic and answers dnnl_invalid_arguments when one does not fit (a
descriptor's byte size and extent must fit in 63 bits); a memory whose buffer
cannot be allocated is dnnl_out_of_memory; an implementation that cannot size
its scratchpad is not chosen. What used to crash runs in a subprocess, so a
crash fails its test instead of killing pytest."""

import subprocess
import sys
import textwrap

import pytest

import dnnl
import dnnl_c as c
from dnnl import memory

tag, dt = memory.format_tag, memory.data_type
INVALID = c.dnnl_invalid_arguments
MAX_BYTES = 2**63 - 1


def create(dims, data_type, fmt=None, strides=None):
    md = c.dnnl_memory_desc_t()
    if strides is None:
        st = c.dnnl_memory_desc_create_with_tag(md, len(dims), dims, data_type, fmt)
    else:
        st = c.dnnl_memory_desc_create_with_strides(md, len(dims), dims, data_type, strides)
    return st, md


def make(dims, data_type, fmt=None, strides=None):
    st, md = create(dims, data_type, fmt, strides)
    assert st == c.dnnl_success, c.dnnl_status2str(st)
    return md


def q(md, what):
    out = [None]
    assert c.dnnl_memory_desc_query(md, what, out) == c.dnnl_success
    return out[0]


def derived(fn, *args):
    out = c.dnnl_memory_desc_t()
    return fn(out, *args), out


def run_isolated(code):
    """Runs code in a fresh interpreter; a crash is a failed assertion here."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, "exit %d\n%s\n%s" % (r.returncode, r.stdout, r.stderr)
    assert r.stdout.strip().endswith("ok"), r.stdout


TOO_BIG_BY_TAG = [
    ([2**62], c.dnnl_f32, c.dnnl_a),                    # 2^64 bytes: was size 0
    ([2**61], c.dnnl_f32, c.dnnl_a),                    # 2^63 bytes, one past
    ([2**32, 2**32], c.dnnl_f32, c.dnnl_ab),            # 2^64 elements: was empty
    ([2**32, 2**32], c.dnnl_u8, c.dnnl_ab),
    ([2**21] * 3, c.dnnl_f32, c.dnnl_abc),              # 2^63 elements: wrapped to 0
    ([2**62], c.dnnl_f32, c.dnnl_format_tag_any),       # no layout could hold it
    ([2**40] * 3 + [0], c.dnnl_f32, c.dnnl_abcd),       # empty, but a's stride overflows
    ([1, 2**61 - 1, 1, 1], c.dnnl_f32, c.dnnl_nChw16c),  # padding to 16 passes 2^63 bytes
    ([1, 2**63 - 9, 1, 1], c.dnnl_u8, c.dnnl_nChw16c),  # rounding up overflows int64
    ([2**63 - 9, 3], c.dnnl_u8, c.dnnl_AB16a16b),       # the same, outermost dim
]


@pytest.mark.parametrize("dims,data_type,fmt", TOO_BIG_BY_TAG)
def test_too_big_by_tag(dims, data_type, fmt):
    st, md = create(dims, data_type, fmt)
    assert st == INVALID
    assert not md
    assert "too big" in c.cydnnl_last_error()


@pytest.mark.parametrize("dims,data_type,fmt,size", [
    ([2**63 - 1], c.dnnl_u8, c.dnnl_a, 2**63 - 1),       # the largest byte size
    ([2**63 - 1], c.dnnl_s4, c.dnnl_a, 2**62),
    ([2**61 - 1], c.dnnl_f32, c.dnnl_a, 2**63 - 4),
    ([2**31, 2**31], c.dnnl_u8, c.dnnl_ba, 2**62),
    ([1, 2**61 - 1, 1, 1], c.dnnl_f32, c.dnnl_abcd, 2**63 - 4),  # unpadded it fits
    ([1, 2**62 - 1, 1, 1], c.dnnl_u8, c.dnnl_nChw16c, 2**62),
    ([2**40, 2**40, 0], c.dnnl_f32, c.dnnl_abc, 0),      # empty: nothing to overflow
    ([1, 2**61 - 1, 1, 1], c.dnnl_f32, c.dnnl_format_tag_any, 0),
])
def test_largest_sizes_are_exact(dims, data_type, fmt, size):
    md = make(dims, data_type, fmt)
    assert c.dnnl_memory_desc_get_size(md) == size
    if fmt != c.dnnl_format_tag_any:
        assert c.cydnnl_memory_desc_extent(md) == size


def test_blocked_padding_is_counted():
    md = make([1, 2**62 - 1, 1, 1], c.dnnl_u8, c.dnnl_nChw16c)
    assert q(md, c.dnnl_query_padded_dims) == (1, 2**62, 1, 1)
    assert q(md, c.dnnl_query_strides) == (2**62, 16, 16, 16)


@pytest.mark.parametrize("dims,data_type,strides", [
    ([2**32, 2**32], c.dnnl_f32, [2**32, 1]),     # 2^64 elements
    ([2, 2], c.dnnl_f32, [2**62, 1]),             # extent (2^62 + 2) * 4 bytes
    ([3], c.dnnl_u8, [2**62]),                    # extent 2^63 + 1 bytes
    ([2], c.dnnl_u8, [2**62]),                    # oneDNN's size, 2 * stride: 2^63 bytes
    ([4, 4], c.dnnl_u8, [1, 2**62]),              # the overlap check's product overflows
    ([2**62], c.dnnl_f32, [0]),                   # broadcast: 2^62 elements still count
])
def test_strides_overflow(dims, data_type, strides):
    st, md = create(dims, data_type, strides=strides)
    assert st == INVALID
    assert not md


def test_large_strides_that_fit():
    md = make([2, 2], c.dnnl_u8, strides=[2**61, 1])
    assert c.dnnl_memory_desc_get_size(md) == 2**62
    assert c.cydnnl_memory_desc_extent(md) == 2**61 + 2
    md = make([2], c.dnnl_u8, strides=[2**62 - 1])
    assert c.dnnl_memory_desc_get_size(md) == 2**63 - 2
    assert c.cydnnl_memory_desc_extent(md) == 2**62


def test_submemory_offset_plus_dim_overflow():
    parent = make([10], c.dnnl_f32, c.dnnl_a)
    # offset + dim wraps negative in int64: it used to pass "<= 10"
    for dims, offsets in (([2**63 - 3], [5]), ([5], [2**63 - 1]), ([2**63 - 1], [2**63 - 1])):
        st, sub = derived(c.dnnl_memory_desc_create_submemory, parent, dims, offsets)
        assert st == INVALID and not sub


def test_submemory_of_a_large_parent():
    parent = make([2**31, 2**31], c.dnnl_u8, c.dnnl_ab)
    st, sub = derived(c.dnnl_memory_desc_create_submemory, parent, [1, 2**31], [2**31 - 1, 0])
    assert st == c.dnnl_success
    assert q(sub, c.dnnl_query_submemory_offset_s64) == (2**31 - 1) * 2**31
    assert c.dnnl_memory_desc_get_size(sub) == 2**31
    assert c.cydnnl_memory_desc_extent(sub) == 2**62


def test_reshape_overflow():
    # (the strides reshape computes are at most a dim's stride * dim, which the
    # size check bounds; the volumes are not bounded by it)
    # volumes of 2^64 (zeros count as 1) wrapped to 0 and compared equal
    empty = make([2**32, 0, 2**32], c.dnnl_u8, c.dnnl_abc)
    st, out = derived(c.dnnl_memory_desc_reshape, empty, 3, [2**32, 0, 2**32])
    assert st == INVALID and not out
    big = make([2**31, 2**31], c.dnnl_u8, c.dnnl_ab)
    st, out = derived(c.dnnl_memory_desc_reshape, big, 2, [2**62, 2])
    assert st == INVALID and not out


def test_reshape_and_permute_of_large_descriptors():
    big = make([2**31, 2**31], c.dnnl_u8, c.dnnl_ab)
    st, out = derived(c.dnnl_memory_desc_reshape, big, 3, [2**31, 2**30, 2])
    assert st == c.dnnl_success
    assert q(out, c.dnnl_query_strides) == (2**31, 2, 1)
    assert c.dnnl_memory_desc_get_size(out) == 2**62
    st, out = derived(c.dnnl_memory_desc_reshape, big, 1, [2**62])
    assert st == c.dnnl_success and c.dnnl_memory_desc_get_size(out) == 2**62
    md = make([2**31, 2**31 - 1], c.dnnl_u8, c.dnnl_ab)
    st, out = derived(c.dnnl_memory_desc_permute_axes, md, [1, 0])
    assert st == c.dnnl_success
    assert q(out, c.dnnl_query_dims) == (2**31 - 1, 2**31)
    assert q(out, c.dnnl_query_strides) == (1, 2**31 - 1)
    assert c.dnnl_memory_desc_get_size(out) == 2**31 * (2**31 - 1)
    any_md = make([2**61 - 1, 1], c.dnnl_f32, c.dnnl_format_tag_any)
    st, out = derived(c.dnnl_memory_desc_permute_axes, any_md, [1, 0])
    assert st == c.dnnl_success and q(out, c.dnnl_query_dims) == (1, 2**61 - 1)


def test_memory_that_cannot_be_allocated(eng):
    md = make([2**62], c.dnnl_u8, c.dnnl_a)
    mem = c.dnnl_memory_t()
    assert c.dnnl_memory_create(mem, md, eng, c.DNNL_MEMORY_ALLOCATE) == c.dnnl_out_of_memory
    assert not mem
    # a user buffer may describe it (oneDNN does not check user buffers' sizes)
    assert c.dnnl_memory_create(mem, md, eng, None) == c.dnnl_success
    c.dnnl_memory_destroy(mem)


def test_former_crash_is_refused_in_a_subprocess():
    # these descriptors were accepted with size 0, memories on them got no
    # buffer, and a reorder between two of them (2^62 floats) segfaulted
    run_isolated("""
        import dnnl_c as c
        e = c.dnnl_engine_t()
        assert c.dnnl_engine_create(e, c.dnnl_cpu, 0) == c.dnnl_success
        s = c.dnnl_stream_t()
        assert c.dnnl_stream_create(s, e, c.dnnl_stream_default_flags) == c.dnnl_success
        for dims in ([2**62], [2**32, 2**32], [2**21] * 3):
            md = c.dnnl_memory_desc_t()
            tag = c.dnnl_a + len(dims) - 1
            st = c.dnnl_memory_desc_create_with_tag(md, len(dims), dims, c.dnnl_f32, tag)
            if st == c.dnnl_success:    # what used to happen: go on as a user would
                a, b = c.dnnl_memory_t(), c.dnnl_memory_t()
                c.dnnl_memory_create(a, md, e, c.DNNL_MEMORY_ALLOCATE)
                c.dnnl_memory_create(b, md, e, c.DNNL_MEMORY_ALLOCATE)
                pd = c.dnnl_primitive_desc_t()
                c.dnnl_reorder_primitive_desc_create(pd, md, e, md, e, None)
                prim = c.dnnl_primitive_t()
                c.dnnl_primitive_create(prim, pd)
                c.dnnl_primitive_execute(prim, s, 2, [(c.DNNL_ARG_FROM, a),
                                                      (c.DNNL_ARG_TO, b)])
                c.dnnl_stream_wait(s)
            assert st == c.dnnl_invalid_arguments, (dims, st)
        print("ok")
    """)


def test_object_layer_former_crash_in_a_subprocess():
    run_isolated("""
        import dnnl_c as c
        import dnnl
        from dnnl import engine, memory, reorder, stream
        eng = engine(engine.kind.cpu, 0)
        s = stream(eng)
        try:
            md = memory.desc([2**62], memory.data_type.f32, memory.format_tag.a)
        except dnnl.error as e:
            assert e.status == c.dnnl_invalid_arguments, e.status
        else:    # what used to happen
            src, dst = memory(md, eng), memory(md, eng)
            reorder(src, dst).execute(s, src, dst)
            s.wait()
            raise AssertionError("accepted a 2^64-byte descriptor")
        print("ok")
    """)


@pytest.mark.parametrize("args", [
    ([2**62], dt.f32, tag.a),
    ([2**32, 2**32], dt.f32, tag.ab),
    ([2**21] * 3, dt.f32, tag.abc),
    ([1, 2**61 - 1, 1, 1], dt.f32, tag.nChw16c),
    ([2, 2], dt.f32, [2**62, 1]),
])
def test_object_layer_desc_raises(args):
    with pytest.raises(dnnl.error) as e:
        memory.desc(*args)
    assert e.value.status == INVALID


def test_object_layer_derived_descs():
    with pytest.raises(dnnl.error) as e:
        memory.desc([10], dt.f32, tag.a).submemory_desc([2**63 - 3], [5])
    assert e.value.status == INVALID
    big = memory.desc([2**31, 2**31], dt.u8, tag.ab)
    with pytest.raises(dnnl.error) as e:
        big.reshape([2**62, 2])
    assert e.value.status == INVALID
    assert big.reshape([2**62, 2], allow_empty=True).get(allow_empty=True) is None
    assert big.reshape([2**62]).get_size() == 2**62
    p = memory.desc([2**31, 2**31 - 1], dt.u8, tag.ab).permute_axes([1, 0])
    assert p.get_dims() == [2**31 - 1, 2**31] and p.get_size() == 2**31 * (2**31 - 1)
    assert memory.desc([2**63 - 1], dt.u8, tag.a).get_size() == MAX_BYTES


def test_object_layer_memory_out_of_memory():
    with pytest.raises(dnnl.error) as e:
        memory(memory.desc([2**62], dt.u8, tag.a), dnnl.engine(dnnl.engine.kind.cpu, 0))
    assert e.value.status == c.dnnl_out_of_memory


# -- primitives: layouts they choose and scratchpads they size

def impl_name(pd):
    out = [None]
    assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out) == 0
    return out[0]


def test_eltwise_scratchpad_that_cannot_be_sized(eng):
    # ref:any copies to f32: (2^62 - 2) * 4 bytes; dense:<level> needs one layout
    src = make([2, 2**61 - 1], c.dnnl_bf16, c.dnnl_ab)
    dst = make([2, 2**61 - 1], c.dnnl_bf16, c.dnnl_ba)
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_eltwise_forward_primitive_desc_create(
        pd, eng, c.dnnl_forward_inference, c.dnnl_eltwise_relu, src, dst, 0.0, 0.0,
        None) == c.dnnl_unimplemented
    assert "do not fit" in c.cydnnl_last_error()


def test_lrn_scratchpad_that_cannot_be_sized(eng):
    # the tiled kernel's nthr * ~2C floats used to wrap to a small size_t
    md = make([1, 2**61, 1, 1], c.dnnl_bf16, c.dnnl_abcd)
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_lrn_forward_primitive_desc_create(
        pd, eng, c.dnnl_forward_inference, c.dnnl_lrn_across_channels, md, md, 5, 1e-4,
        0.75, 1.0, None) == c.dnnl_unimplemented


def test_convolution_gemm_buffer_that_cannot_be_sized(eng):
    # backward data's column buffer is 2^40 x 2^42 floats per thread: it wrapped
    diff_src = make([1, 1, 3 * 2**20 - 1, 3 * 2**20 - 1], c.dnnl_f32, c.dnnl_abcd)
    wei = make([1, 1, 2**20, 2**20], c.dnnl_f32, c.dnnl_abcd)
    diff_dst = make([1, 1, 2**21, 2**21], c.dnnl_f32, c.dnnl_abcd)
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_convolution_backward_data_primitive_desc_create(
        pd, eng, c.dnnl_convolution_direct, diff_src, wei, diff_dst, [1, 1], [0, 0],
        [0, 0], [0, 0], None, None) == c.dnnl_success
    assert not impl_name(pd).startswith("gemm")
    c.dnnl_primitive_desc_destroy(pd)


def test_pooling_blocking_that_does_not_fit(eng):
    # diff_src `any` follows the hint's nChw16c on its own dims: padding
    # 2^61 - 1 channels to 2^61 passes 2^63 bytes
    pd_fwd = c.dnnl_primitive_desc_t()
    src = make([1, 32, 4, 4], c.dnnl_f32, c.dnnl_nChw16c)
    dst = make([1, 32, 4, 4], c.dnnl_f32, c.dnnl_format_tag_any)
    assert c.dnnl_pooling_forward_primitive_desc_create(
        pd_fwd, eng, c.dnnl_forward_training, c.dnnl_pooling_avg_include_padding, src, dst,
        [1, 1], [1, 1], [0, 0], [0, 0], [0, 0], None) == c.dnnl_success
    diff_src = make([1, 2**61 - 1, 1, 1], c.dnnl_f32, c.dnnl_format_tag_any)
    diff_dst = make([1, 2**61 - 1, 1, 1], c.dnnl_f32, c.dnnl_abcd)
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_pooling_backward_primitive_desc_create(
        pd, eng, c.dnnl_pooling_avg_include_padding, diff_src, diff_dst, [1, 1], [1, 1],
        [0, 0], [0, 0], [0, 0], pd_fwd, None) == c.dnnl_unimplemented
    assert not pd
    c.dnnl_primitive_desc_destroy(pd_fwd)


def test_pooling_slab_that_cannot_be_sized(eng):
    # bf16 backward on channels-last: a slab of 2^61 pixels x 16 lanes of
    # floats per thread wrapped to 0 bytes
    md = make([1, 1, 2**31, 2**30], c.dnnl_bf16, c.dnnl_acdb)
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_pooling_backward_primitive_desc_create(
        pd, eng, c.dnnl_pooling_avg_include_padding, md, md, [1, 1], [1, 1], [0, 0],
        [0, 0], [0, 0], None, None) == c.dnnl_unimplemented
