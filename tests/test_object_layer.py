"""The object layer (dnnl): oneDNN's C++ API over dnnl_c, RAII handles and
the NumPy bridge."""

import gc

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from dnnl import engine, memory, reorder, stream
from helpers import bf16_bits, bf16_to_f32, to_layout
from object_fixtures import object_engine  # noqa: F401 (eng)

tag, dt = memory.format_tag, memory.data_type


@pytest.fixture(scope="module")
def s(eng):
    return stream(eng)


def test_enums_have_onednn_values():
    assert (tag.nchw, tag.nhwc, tag.nChw8c, tag.OIhw8i8o, tag.any, tag.undef) == (5, 22, 102, 107,
                                                                                  1, 0)
    assert tag.nchw is tag.abcd and tag.x is tag.a
    assert (dt.undef, dt.f16, dt.bf16, dt.f32, dt.s32, dt.s8, dt.u8) == (0, 1, 2, 3, 4, 5, 6)
    assert dnnl.prop_kind.forward == dnnl.prop_kind.forward_training == 64
    assert dnnl.prop_kind.backward_weights == 192
    assert dnnl.algorithm.eltwise_relu == 0x20 and dnnl.algorithm.pooling_max == 0x1ff
    assert dnnl.algorithm.lrn_across_channels == 0xaff and dnnl.algorithm.vanilla_lstm == 0x2fff
    assert dnnl.query.src_md == 129 and dnnl.query.exec_arg_md == 255
    assert dnnl.status.unimplemented == dnnl.dnnl_unimplemented == 3
    assert memory.format_kind.blocked == 2 and memory.format_kind.any == 1
    assert engine.kind.cpu == 1 and stream.flags.default_flags == 1
    assert dnnl.primitive.kind.reorder == 1 and dnnl.primitive.kind.pooling == 16
    assert dnnl.rnn_direction.unidirectional == dnnl.rnn_direction.unidirectional_left2right
    assert dnnl.DNNL_ARG_SRC == 1 and dnnl.DNNL_ARG_DIFF_WEIGHTS == 161


def test_engine_and_stream(eng, s):
    assert engine.get_count(engine.kind.cpu) == 1
    assert engine.get_count(engine.kind.gpu) == 0
    assert eng.get_kind() == engine.kind.cpu
    assert s.wait() is s
    assert s.get_engine() == eng
    assert engine() .get(allow_empty=True) is None


def test_desc_constructors_and_getters():
    d = memory.desc([2, 3, 5, 7], dt.f32, tag.nChw8c)
    assert d.get_ndims() == 4 and d.get_dims() == [2, 3, 5, 7]
    assert d.get_data_type() == dt.f32 and d.get_format_kind() == memory.format_kind.blocked
    assert d.get_padded_dims() == [2, 8, 5, 7] and d.get_padded_offsets() == [0] * 4
    assert d.get_strides() == [280, 280, 56, 8]
    assert (d.get_inner_nblks(), d.get_inner_blks(), d.get_inner_idxs()) == (1, [8], [1])
    assert d.get_size() == 2 * 8 * 5 * 7 * 4 and not d.is_zero()
    assert memory.desc().is_zero() and memory.desc().get_size() == 0
    s = memory.desc([2, 3], dt.bf16, [1, 2])
    assert s.get_strides() == [1, 2] and s == memory.desc([2, 3], dt.bf16, tag.ba)
    assert s != memory.desc([2, 3], dt.bf16, tag.ab)
    assert memory.desc([2, 1, 4, 4], dt.f32, tag.nchw) == memory.desc([2, 1, 4, 4], dt.f32,
                                                                       tag.nhwc)
    sub = memory.desc([4, 8, 6], dt.f32, tag.abc).submemory_desc([2, 8, 3], [2, 0, 3])
    assert sub.get_submemory_offset() == 2 * 48 + 3 and sub.get_dims() == [2, 8, 3]
    r = memory.desc([2, 3, 4], dt.f32, tag.abc).reshape([6, 4])
    assert r == memory.desc([6, 4], dt.f32, tag.ab)
    p = memory.desc([2, 3], dt.f32, tag.ab).permute_axes([1, 0])
    assert p == memory.desc([3, 2], dt.f32, tag.ba)
    assert repr(d) == "<dnnl.memory.desc f32 [2,3,5,7] nChw8c>"


def test_memory_on_numpy_buffer_is_zero_copy(eng):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    m = memory(memory.desc([2, 3, 4], dt.f32, tag.abc), eng, a)
    v = np.asarray(m)
    assert np.shares_memory(v, a) and v.shape == (2, 3, 4)
    a[1, 2, 3] = -1
    assert np.asarray(m)[1, 2, 3] == -1
    del a, v
    gc.collect()
    assert np.asarray(m)[1, 2, 3] == -1          # the memory keeps the array alive
    assert m.get_desc() == memory.desc([2, 3, 4], dt.f32, tag.abc)
    assert m.get_engine() == eng
    h = m.get_data_handle()
    assert h is not None and len(h) == 96 and np.frombuffer(h, np.float32)[23] == -1
    b = np.zeros(24, np.float32)
    m.set_data_handle(b)
    np.asarray(m)[0, 0, 0] = 7
    assert b[0] == 7
    m2 = memory(memory.desc([2, 3, 4], dt.f32, tag.abc), eng, None)
    assert m2.get_data_handle() is None
    m2.set_data_handle(h)                        # a handle from another memory
    assert np.asarray(m2)[1, 2, 3] == -1


def test_numpy_views_follow_strides_and_offsets(eng):
    m = memory(memory.desc([2, 3, 4, 5], dt.f32, tag.nhwc), eng)
    v = np.asarray(m)
    assert v.shape == (2, 3, 4, 5) and v.strides == (240, 4, 60, 12)
    v[...] = np.arange(120).reshape(2, 3, 4, 5)
    handle = m.get_data_handle()
    assert handle is not None
    raw = np.frombuffer(handle, np.float32)
    np.testing.assert_array_equal(raw, to_layout(v.copy(), "acdb"))
    parent = memory.desc([4, 6], dt.f32, tag.ab)
    big = np.arange(24, dtype=np.float32)
    sub = memory(parent.submemory_desc([2, 3], [1, 2]), eng, big)
    np.testing.assert_array_equal(np.asarray(sub), big.reshape(4, 6)[1:3, 2:5])


def test_bf16_views(eng, monkeypatch):
    m = memory(memory.desc([3, 4], dt.bf16, tag.ab), eng)
    m.write(np.full((3, 4), 1.5, np.float32))
    v = np.asarray(m)
    try:
        import ml_dtypes
        assert v.dtype == ml_dtypes.bfloat16
        assert np.all(v.astype(np.float32) == 1.5)
    except ImportError:
        assert v.dtype == np.uint16
    import dnnl._memory as dm
    monkeypatch.setattr(dm, "_bf16_dtype", None)
    v = np.asarray(m)
    assert v.dtype == np.uint16 and np.all(v == 0x3FC0)


@pytest.mark.parametrize("layout,data_type", [(tag.nChw8c, dt.f32), (tag.nChw16c, dt.bf16),
                                              (tag.nhwc, dt.bf16), (tag.chwn, dt.s8)])
def test_write_and_read_any_layout(eng, layout, data_type):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((2, 5, 3, 4)) * 20).astype(np.float32)
    m = memory(memory.desc([2, 5, 3, 4], data_type, layout), eng)
    m.write(a)
    if data_type == dt.f32:
        expected = a
    elif data_type == dt.bf16:
        expected = bf16_to_f32(bf16_bits(a))
    else:
        expected = np.clip(np.rint(a), -128, 127)
    np.testing.assert_array_equal(m.read(np.float32), expected)
    with pytest.raises(dnnl.error):
        m.write(np.zeros((2, 5, 3), np.float32))
    strided = np.asarray(a[:, :, ::-1, :])       # negative strides are copied
    m.write(strided)
    if data_type == dt.f32:
        np.testing.assert_array_equal(m.read(), a[:, :, ::-1, :])


def test_reorder_overloads(eng, s):
    a = np.random.default_rng(2).standard_normal((2, 9, 3, 3)).astype(np.float32)
    src = memory(memory.desc([2, 9, 3, 3], dt.f32, tag.nchw), eng, a)
    dst = memory(memory.desc([2, 9, 3, 3], dt.bf16, tag.nChw8c), eng)
    reorder(src, dst).execute(s, src, dst)
    pd = reorder.primitive_desc(eng, src.get_desc(), eng, dst.get_desc())
    assert pd.src_desc() == src.get_desc() and pd.dst_desc() == dst.get_desc()
    assert pd.get_src_engine() == eng and pd.get_dst_engine() == eng
    assert pd.impl_info_str() == "simple:blocked_c"
    assert pd.get_kind() == dnnl.primitive.kind.reorder
    assert pd.workspace_desc().is_zero() and pd.scratchpad_desc().is_zero()
    back = memory(memory.desc([2, 9, 3, 3], dt.f32, tag.nhwc), eng)
    r = reorder(reorder.primitive_desc(dst, back))
    r.execute(s, {dnnl.DNNL_ARG_FROM: dst, dnnl.DNNL_ARG_TO: back})
    np.testing.assert_array_equal(np.asarray(back), bf16_to_f32(bf16_bits(a)))
    assert r.get_kind() == dnnl.primitive.kind.reorder
    wrapped = reorder.primitive_desc(r.get_primitive_desc())
    assert wrapped.dst_desc() == back.get_desc()
    assert pd.next_impl() and pd.impl_info_str() == "ref:any"
    assert not pd.next_impl() and pd.impl_info_str() == "ref:any"


def test_handles_are_released_with_the_last_reference(eng):
    m = memory(memory.desc([4], dt.f32, tag.a), eng)
    h = m._h
    assert c.dnnl_memory_get_engine(h, c.dnnl_engine_t()) == c.dnnl_success
    del m
    gc.collect()
    assert c.dnnl_memory_get_engine(h, c.dnnl_engine_t()) == c.dnnl_invalid_arguments
    d = memory.desc([4], dt.f32, tag.a)
    h = d._h
    del d
    gc.collect()
    assert c.dnnl_memory_desc_get_size(h) == 0
    weak = memory(memory.desc([4], dt.f32, tag.a), eng).get_engine()
    del weak                                     # a weak handle does not destroy the engine
    gc.collect()
    assert eng.get_kind() == engine.kind.cpu


def test_primitive_attr(eng):
    attr = dnnl.primitive_attr()
    assert attr.get_scratchpad_mode() == dnnl.scratchpad_mode.library
    attr.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    assert attr.get_scratchpad_mode() == dnnl.scratchpad_mode.user
    attr.set_fpmath_mode(dnnl.fpmath_mode.bf16)
    assert attr.get_fpmath_mode() == dnnl.fpmath_mode.bf16
    md = memory.desc([4], dt.f32, tag.a)
    pd = reorder.primitive_desc(eng, md, eng, md, attr)
    assert pd.get_primitive_attr().get_scratchpad_mode() == dnnl.scratchpad_mode.user
