"""The object layer's Pythonic surface: keyword arguments with dnnl.hpp's
parameter names, reprs, memory.desc as a value (equality, hash, copy,
pickle, blobs), NumPy and DLPack exchange without copies (NumPy and
PyTorch), and docstrings."""

import copy
import gc
import inspect
import pickle
import sys
import threading
from typing import Any, cast

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from dnnl import (algorithm, convolution_backward_data, convolution_backward_weights,
                  convolution_forward, eltwise_backward, eltwise_forward, engine, lrn_backward,
                  lrn_forward, lstm_backward, lstm_forward, memory, pooling_backward,
                  pooling_forward, primitive_attr, prop_kind, reorder, stream)
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
FT, BWD = prop_kind.forward_training, prop_kind.backward


def _same_pd(a, b):
    assert a.impl_info_str() == b.impl_info_str()
    for q in ("src_desc", "weights_desc", "dst_desc", "diff_src_desc", "diff_weights_desc",
              "diff_dst_desc", "workspace_desc"):
        assert getattr(a, q)() == getattr(b, q)(), q


# ------------------------------------------------------------ keyword arguments


def test_keywords_give_the_same_primitive_descriptors(eng):
    src = memory.desc([2, 8, 9, 9], dt.f32, tag.any)
    wei = memory.desc([16, 8, 3, 3], dt.f32, tag.any)
    bias = memory.desc([16], dt.f32, tag.x)
    dst = memory.desc([2, 16, 9, 9], dt.f32, tag.any)
    pos = convolution_forward.primitive_desc(eng, FT, algorithm.convolution_direct, src, wei,
                                             bias, dst, [1, 1], [1, 1], [1, 1])
    kw = convolution_forward.primitive_desc(
        aengine=eng, aprop_kind=FT, aalgorithm=algorithm.convolution_direct, src_desc=src,
        weights_desc=wei, bias_desc=bias, dst_desc=dst, strides=[1, 1], padding_l=[1, 1],
        padding_r=[1, 1])
    _same_pd(pos, kw)
    assert kw.bias_desc() == bias
    mixed = convolution_forward.primitive_desc(eng, FT, algorithm.convolution_direct, src, wei,
                                               dst_desc=dst, strides=[1, 1], dilates=[0, 0],
                                               padding_l=[1, 1], padding_r=[1, 1])
    assert mixed.bias_desc().is_zero() and mixed.get_dilations() == [0, 0]
    bwd_d = convolution_backward_data.primitive_desc(
        aengine=eng, aalgorithm=algorithm.convolution_direct, diff_src_desc=src,
        weights_desc=wei, diff_dst_desc=dst, strides=[1, 1], padding_l=[1, 1],
        padding_r=[1, 1], hint_fwd_pd=pos)
    _same_pd(bwd_d, convolution_backward_data.primitive_desc(
        eng, algorithm.convolution_direct, src, wei, dst, [1, 1], [1, 1], [1, 1], pos))
    bwd_w = convolution_backward_weights.primitive_desc(
        eng, algorithm.convolution_direct, src_desc=src, diff_weights_desc=wei,
        diff_bias_desc=bias, diff_dst_desc=dst, strides=[1, 1], padding_l=[1, 1],
        padding_r=[1, 1], hint_fwd_pd=pos)
    assert bwd_w.diff_bias_desc() == bias

    md = memory.desc([2, 8, 9, 9], dt.f32, tag.nChw8c)
    e = eltwise_forward.primitive_desc(aengine=eng, aprop_kind=FT,
                                       aalgorithm=algorithm.eltwise_elu, src_desc=md,
                                       dst_desc=md, alpha=0.5)
    assert (e.get_alpha(), e.get_beta()) == (0.5, 0.0)
    eb = eltwise_backward.primitive_desc(eng, algorithm.eltwise_elu, md, md, md, alpha=0.5,
                                         hint_fwd_pd=e)
    assert eb.get_alpha() == 0.5
    lf = lrn_forward.primitive_desc(eng, FT, algorithm.lrn_across_channels, md, md,
                                    local_size=5, alpha=1e-4, beta=0.75, k=1.0)
    assert lf.get_local_size() == 5
    lb = lrn_backward.primitive_desc(eng, algorithm.lrn_across_channels, diff_src_desc=md,
                                     diff_dst_desc=md, src_desc=md, local_size=5, alpha=1e-4,
                                     beta=0.75, k=1.0, hint_fwd_pd=lf)
    assert lb.get_k() == 1.0
    out = memory.desc([2, 8, 4, 4], dt.f32, tag.nChw8c)
    pf = pooling_forward.primitive_desc(eng, FT, algorithm.pooling_max, src_desc=md,
                                        dst_desc=out, strides=[2, 2], kernel=[3, 3],
                                        dilation=[0, 0], padding_l=[0, 0], padding_r=[0, 0])
    pb = pooling_backward.primitive_desc(eng, algorithm.pooling_max, md, out, [2, 2], [3, 3],
                                         [0, 0], [0, 0], [0, 0], hint_fwd_pd=pf,
                                         attr=primitive_attr())
    assert pb.get_kernel() == [3, 3]
    empty = pooling_forward.primitive_desc(eng, FT, algorithm.pooling_max, md, md, [2, 2],
                                           [3, 3], [0, 0], [0, 0], [0, 0], None, True)
    assert not empty                              # C++'s allow_empty, positionally


def test_keywords_of_lstm_engine_stream_memory_and_reorder(eng):
    T, N, C, L = 3, 2, 8, 1
    d = lambda dims, t=tag.any: memory.desc(dims, dt.f32, t)  # noqa: E731
    names = dict(src_layer_desc=d([T, N, C]), src_iter_desc=memory.desc(),
                 src_iter_c_desc=memory.desc(), weights_layer_desc=d([L, 1, C, 4, C]),
                 weights_iter_desc=d([L, 1, C, 4, C]), bias_desc=d([L, 1, 4, C]),
                 dst_layer_desc=d([T, N, C]), dst_iter_desc=memory.desc(),
                 dst_iter_c_desc=memory.desc())
    fwd = lstm_forward.primitive_desc(aengine=eng, aprop_kind=FT,
                                      direction=dnnl.rnn_direction.unidirectional, **names)
    _same_pd(fwd, lstm_forward.primitive_desc(eng, FT, dnnl.rnn_direction.unidirectional,
                                              *names.values()))
    diffs = {"diff_" + k: v for k, v in names.items()}
    bwd = lstm_backward.primitive_desc(eng, BWD, dnnl.rnn_direction.unidirectional,
                                       hint_fwd_pd=fwd, **cast(Any, names), **cast(Any, diffs))
    assert bwd.diff_src_layer_desc().get_dims() == [T, N, C]

    e = engine(akind=engine.kind.cpu, index=0)
    s = stream(aengine=e, aflags=stream.flags.default_flags)
    assert s.get_engine() == e
    md = memory.desc(adims=[2, 3], adata_type=dt.f32, aformat_tag=tag.ab)
    assert md == memory.desc([2, 3], dt.f32, strides=[3, 1])
    assert md == memory.desc([2, 3], adata_type=dt.f32, strides=[3, 1])
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    src = memory(md=md, aengine=e, handle=a)
    dst = memory(memory.desc([2, 3], dt.f32, tag.ba), aengine=e)
    reorder(src=src, dst=dst).execute(astream=s, src=src, dst=dst)
    np.testing.assert_array_equal(dst.read(), a)
    pd = reorder.primitive_desc(src_engine=e, src_md=md, dst_engine=e, dst_md=dst.get_desc(),
                                attr=primitive_attr())
    reorder(pd=pd).execute(s, args={c.DNNL_ARG_FROM: src, c.DNNL_ARG_TO: dst})
    assert reorder.primitive_desc(src, dst, allow_empty=True).impl_info_str()


# Calls mypy refuses too (hence the ignores): the stubs catch these mistakes
# before the library does.
@pytest.mark.parametrize("call,words", [
    (lambda e, md: eltwise_forward.primitive_desc(  # type: ignore[call-overload]
        e, FT, algorithm.eltwise_relu, md, md, alhpa=0.5), "has no parameter alhpa"),
    (lambda e, md: eltwise_forward.primitive_desc(  # type: ignore[call-overload]
        e, FT, algorithm.eltwise_relu, md, src_desc=md), "takes"),
    (lambda e, md: eltwise_forward.primitive_desc(  # type: ignore[call-overload]
        e, FT, algorithm.eltwise_relu, md, md, attr="fast"), "attr must be a primitive_attr"),
    (lambda e, md: convolution_forward.primitive_desc(
        e, FT, algorithm.convolution_direct, md, md, dst_desc=md, strides=md, padding_l=[0],
        padding_r=[0]), "strides must be a list of ints"),
    (lambda e, md: lrn_backward.primitive_desc(
        e, algorithm.lrn_across_channels, md, md, md, 5, 1e-4, 0.75, 1.0, hint_fwd_pd=e),
     "hint_fwd_pd, a lrn_forward.primitive_desc, not dnnl.engine"),
    (lambda e, md: memory.desc(  # type: ignore[call-overload]
        [2], dt.f32, aformat_tag=tag.a, strides=[1]), "one of"),
    (lambda e, md: memory.desc([2], dt.f32, tag.a, adims=[2]),  # type: ignore[call-overload]
     "given twice"),
    (lambda e, md: memory.desc([2], dt.f32, tag.a, layout=tag.a),  # type: ignore[call-overload]
     "keywords ['layout']"),
    (lambda e, md: reorder(src=md, dst=md), "src must be a memory"),
    (lambda e, md: pooling_forward.primitive_desc(  # type: ignore[call-overload]
        e, FT, algorithm.pooling_max, md, md, [1], [1], [0], [0], [0], allow_empty="yes"),
     "allow_empty must be a bool"),
])
def test_bad_keywords_are_dnnl_errors_naming_the_argument(eng, call, words):
    md = memory.desc([2, 8, 4], dt.f32, tag.abc)
    with pytest.raises(dnnl.error) as e:
        call(eng, md)
    assert e.value.status == dnnl.status.invalid_arguments
    assert words in e.value.message, e.value.message


# ------------------------------------------------------------ reprs


def test_every_object_layer_class_shows_what_it_is(eng, strm):
    assert repr(eng) == "<dnnl.engine cpu>" and repr(engine()) == "<dnnl.engine empty>"
    assert repr(strm) == "<dnnl.stream on cpu>"
    assert repr(memory.desc([8, 96, 55, 55], dt.f32, tag.nChw8c)) == \
        "<dnnl.memory.desc f32 [8,96,55,55] nChw8c>"
    assert repr(memory.desc([2, 3, 4, 5], dt.bf16, tag.nhwc)) == \
        "<dnnl.memory.desc bf16 [2,3,4,5] nhwc>"
    assert repr(memory.desc()) == "<dnnl.memory.desc zero>"
    assert repr(memory.desc([4], dt.f32, tag.any)) == "<dnnl.memory.desc f32 [4] any>"
    assert repr(memory.desc([2, 3], dt.s8, [1, 4])) == "<dnnl.memory.desc s8 [2,3] strides=[1,4]>"
    sub = memory.desc([4, 16, 6], dt.f32, tag.aBc8b).submemory_desc([2, 8, 3], [2, 8, 3])
    assert repr(sub).startswith("<dnnl.memory.desc f32 [2,8,3] strides=[96,48,8] blocks=8b")
    assert "offset0=" in repr(sub)
    assert repr(memory.desc([2], dt.f32, tag.a, allow_empty=True)) == \
        "<dnnl.memory.desc f32 [2] x>"
    assert repr(memory.desc([-2], dt.f32, tag.a, allow_empty=True)) == "<dnnl.memory.desc empty>"
    m = memory(memory.desc([2, 3], dt.f32, tag.ab), eng)
    assert repr(m) == "<dnnl.memory f32 [2,3] nc cpu>"
    assert repr(memory(memory.desc([2], dt.f32, tag.a), eng, None)) == \
        "<dnnl.memory f32 [2] x cpu no data>"
    assert repr(primitive_attr()) == \
        "<dnnl.primitive_attr scratchpad_mode=library fpmath_mode=strict post_ops=0>"
    ops = dnnl.post_ops()
    ops.append_eltwise(algorithm.eltwise_relu, 0.0, 0.0)
    ops.append_sum()
    assert repr(ops) == "<dnnl.post_ops [eltwise, sum]>"
    assert repr(dnnl.gru_forward()) == "<dnnl.gru_forward empty>"
    scalar = memory(memory.desc.host_scalar(dt.f32), 2.5)
    assert repr(scalar) == "<dnnl.memory host_scalar f32 2.5>"
    assert repr(scalar.get_desc()) == "<dnnl.memory.desc f32 host_scalar>"
    src = memory.desc([8, 3, 227, 227], dt.f32, tag.any)
    wei = memory.desc([96, 3, 11, 11], dt.f32, tag.any)
    dst = memory.desc([8, 96, 55, 55], dt.f32, tag.any)
    pd = convolution_forward.primitive_desc(eng, FT, algorithm.convolution_direct, src, wei,
                                            dst, [4, 4], [0, 0], [0, 0])
    r = repr(pd)
    assert r.startswith("<dnnl.convolution_forward.primitive_desc %s forward_training "
                        "convolution_direct src f32 [8,3,227,227] " % pd.impl_info_str()), r
    assert " weights f32 [96,3,11,11] " in r and " dst f32 [8,96,55,55] " in r
    assert repr(convolution_forward(pd)) == r.replace(".primitive_desc", "")
    assert repr(convolution_forward()) == "<dnnl.convolution_forward empty>"
    assert repr(dnnl.primitive()) == "<dnnl.primitive empty>"
    relu = eltwise_forward.primitive_desc(eng, FT, algorithm.eltwise_relu, pd.dst_desc(),
                                          pd.dst_desc())
    assert repr(relu).startswith("<dnnl.eltwise_forward.primitive_desc ")
    assert "eltwise_relu" in repr(relu)
    err = dnnl.error(dnnl.status.invalid_arguments, "bad dims")
    assert repr(err) == "dnnl.error(invalid_arguments, 'bad dims')"
    assert repr(dnnl.memory.format_tag.nchw) == "<format_tag.abcd: 5>"


# ------------------------------------------------------------ memory.desc as a value


def _descs(eng):
    """One of each kind of descriptor the library makes."""
    out = [memory.desc(), memory.desc([2, 3, 5, 7], dt.f32, tag.nChw8c),
           memory.desc([2, 3, 5, 7], dt.bf16, tag.nhwc), memory.desc([6], dt.s8, tag.a),
           memory.desc([3, 4], dt.f32, [1, 3]), memory.desc([3, 4], dt.f32, [8, 2]),
           memory.desc([2, 9, 4], dt.u8, tag.any), memory.desc([16, 16, 3, 3], dt.f32,
                                                               tag.OIhw16i16o),
           memory.desc([4, 8, 6], dt.f32, tag.abc).submemory_desc([2, 8, 3], [2, 0, 3]),
           memory.desc([4, 16, 6], dt.f32, tag.aBc8b).submemory_desc([2, 8, 6], [1, 8, 0]),
           memory.desc([2, 3, 4], dt.f32, tag.abc).reshape([6, 4]),
           memory.desc([2, 3, 4], dt.f32, tag.acb).permute_axes([2, 0, 1])]
    # a layout no tag names: the LSTM's packed weights, where the machine has them
    d = lambda dims, t=tag.any: memory.desc(dims, dt.f32, t)  # noqa: E731
    fwd = lstm_forward.primitive_desc(eng, FT, dnnl.rnn_direction.unidirectional,
                                      d([3, 2, 64]), memory.desc(), memory.desc(),
                                      d([1, 1, 64, 4, 64]), d([1, 1, 64, 4, 64]),
                                      d([1, 1, 4, 64]), d([3, 2, 64]), memory.desc(),
                                      memory.desc())
    out += [fwd.weights_layer_desc(), fwd.workspace_desc()]
    return out


def test_desc_equality_hash_copy_and_pickle_by_value(eng):
    descs = _descs(eng)
    for d in descs:
        for twin in (copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d)),
                     memory.desc(d.get_blob()), memory.desc(list(d.get_blob())),
                     memory.desc(blob=d.get_blob())):
            assert twin == d and hash(twin) == hash(d) and repr(twin) == repr(d)
            assert twin.get_dims() == d.get_dims() and twin.get_size() == d.get_size()
            assert twin._h != d._h                # a descriptor of its own
        others = [o for o in descs if o is not d]
        assert all(o != d for o in others if repr(o) != repr(d)), repr(d)
    assert len(set(descs + [copy.copy(d) for d in descs])) == len(descs)
    # equal by oneDNN's rules though built differently: equal hashes
    a = memory.desc([2, 1, 4, 4], dt.f32, tag.nchw)
    b = memory.desc([2, 1, 4, 4], dt.f32, tag.nhwc)
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert memory.desc() == pickle.loads(pickle.dumps(memory.desc()))
    assert memory.desc([2], dt.f32, tag.a) != "x" and memory.desc() != None  # noqa: E711
    cache = {d: i for i, d in enumerate(descs)}
    assert [cache[copy.deepcopy(d)] for d in descs] == list(range(len(descs)))


def test_blobs_are_checked(eng):
    d = memory.desc([2, 3, 5, 7], dt.f32, tag.nChw8c)
    blob = d.get_blob()
    size = [None]
    assert c.dnnl_memory_desc_get_blob(None, size, d.get()) == c.dnnl_success
    assert size[0] == len(blob)
    for bad, why in ((blob[:100], "bytes"), (b"x" * len(blob), "not a blob"),
                     ("text", "buffer"), ([300] * len(blob), "bytes")):
        with pytest.raises(dnnl.error) as e:
            memory.desc(bad)
        assert e.value.status == dnnl.status.invalid_arguments
    # every field corrupted in turn: an error or a descriptor the library can
    # size, never a crash
    rng = np.random.default_rng(0)
    arr = np.frombuffer(blob, np.int64).copy()
    for i in range(2, arr.size):
        for v in (-1, 13, 2**40, int(rng.integers(0, 64))):
            t = arr.copy()
            t[i] = v
            try:
                got = memory.desc(t.tobytes())
            except dnnl.error as e:
                assert e.status == dnnl.status.invalid_arguments, e.message
            else:
                assert got.get_size() >= 0 and isinstance(repr(got), str)
    with pytest.raises(dnnl.error):
        c_small = bytearray(10)
        dnnl.error.wrap_c_api(c.dnnl_memory_desc_get_blob(c_small, [10], d.get()), "blob")


# ------------------------------------------------------------ NumPy


def test_numpy_views_share_the_buffer_and_check_dtypes(eng):
    m = memory(memory.desc([3, 4], dt.s32, tag.ab), eng)
    v = np.asarray(m)
    assert v.dtype == np.int32 and v.shape == (3, 4)
    v[1, 2] = 7
    assert np.asarray(m)[1, 2] == 7 and np.shares_memory(v, np.asarray(m))
    f = np.asarray(m, dtype=np.float64)           # another dtype: a copy
    assert f.dtype == np.float64 and not np.shares_memory(f, v)
    with pytest.raises(ValueError, match="needs a copy"):
        np.array(m, dtype=np.float64, copy=False)
    assert not np.shares_memory(np.array(m, copy=True), v)
    for data_type, np_type in ((dt.f32, np.float32), (dt.s8, np.int8), (dt.u8, np.uint8),
                               (dt.f16, np.float16), (dt.f64, np.float64)):
        a = np.zeros((2, 2), np_type)
        assert np.shares_memory(np.asarray(memory(memory.desc([2, 2], data_type, tag.ab), eng,
                                                  a)), a)
        with pytest.raises(dnnl.error) as e:      # a buffer of another type is refused
            memory(memory.desc([2, 2], data_type, tag.ab), eng, a.astype(np.int64))
        assert "int64" in e.value.message
    blocked = memory(memory.desc([2, 16, 3, 3], dt.f32, tag.nChw8c), eng)
    with pytest.raises(dnnl.error, match="plain layout"):
        np.asarray(blocked)


def test_bf16_is_ml_dtypes_bfloat16(eng):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = np.array([[1.5, -2.0], [0.25, 3.0]], dtype=ml_dtypes.bfloat16)
    m = memory(memory.desc([2, 2], dt.bf16, tag.ab), eng, a)
    v = np.asarray(m)
    assert v.dtype == ml_dtypes.bfloat16 and np.shares_memory(v, a)
    np.testing.assert_array_equal(m.read(np.float32), a.astype(np.float32))
    assert dnnl.numpy_dtype(dt.bf16) == ml_dtypes.bfloat16
    assert dnnl.data_type_of(ml_dtypes.bfloat16) == dt.bf16


def test_numpy_dlpack_both_ways(eng):
    m = memory(memory.desc([3, 5], dt.f32, tag.ba), eng)
    m.write(np.arange(15, dtype=np.float32).reshape(3, 5))
    a = np.from_dlpack(m)
    assert a.shape == (3, 5) and a.strides == (4, 12)
    np.testing.assert_array_equal(a, np.arange(15).reshape(3, 5))
    a[2, 4] = -1
    assert m.read()[2, 4] == -1
    # and back: arrays of any strides, sub-arrays with an offset
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    for x in (base, base.T, base[1:5, 2:9:3], base[::2]):
        mx = memory.from_dlpack(x)
        md = mx.get_desc()
        assert md.get_dims() == list(x.shape)
        assert md.get_strides() == [s // 4 for s in x.strides]
        np.testing.assert_array_equal(mx.read(), x)
        np.asarray(mx)[0, 0] = 1000 + x.shape[0]
        assert x[0, 0] == 1000 + x.shape[0]       # the same buffer
    scalar = memory.from_dlpack(np.array(3.5, np.float32))
    assert scalar.get_desc().get_dims() == [1] and scalar.read()[0] == 3.5
    ints = memory.from_dlpack(np.arange(4, dtype=np.int8))
    assert ints.get_desc().get_data_type() == dt.s8
    with pytest.raises(dnnl.error, match="read-only"):
        ro = np.zeros(3, np.float32)
        ro.flags.writeable = False
        memory.from_dlpack(ro)
    with pytest.raises(dnnl.error) as e:
        memory.from_dlpack(np.arange(4, dtype=np.complex64))
    assert e.value.status == dnnl.status.unimplemented
    with pytest.raises(dnnl.error, match="negative strides"):
        memory.from_dlpack(base[::-1])
    with pytest.raises(dnnl.error, match="DLPack capsule"):
        memory.from_dlpack([1, 2, 3])


def test_dlpack_export_rules(eng):
    m = memory(memory.desc([2, 3], dt.f32, tag.ab), eng)
    assert m.__dlpack_device__() == (1, 0)
    assert "dltensor_versioned" in repr(m.__dlpack__(max_version=(1, 0)))
    assert "dltensor_versioned" not in repr(m.__dlpack__())
    with pytest.raises(dnnl.error, match="stream"):
        m.__dlpack__(stream=5)
    with pytest.raises(dnnl.error, match="host"):
        m.__dlpack__(dl_device=(2, 0))
    copied = np.from_dlpack(_Wrap(m.__dlpack__(copy=True, max_version=(1, 0))))
    copied[0, 0] = 9
    assert m.read()[0, 0] == 0
    with pytest.raises(dnnl.error, match="blocked layout"):
        memory(memory.desc([2, 16, 3], dt.f32, tag.aBc16b), eng).__dlpack__()
    with pytest.raises(dnnl.error, match="no data handle"):
        memory(memory.desc([2], dt.f32, tag.a), eng, None).__dlpack__()
    with pytest.raises(dnnl.error) as e:
        memory(memory.desc([2], dt.f8_e5m2, tag.a), eng).__dlpack__()
    assert e.value.status == dnnl.status.unimplemented
    capsule = m.__dlpack__()
    memory.from_dlpack(capsule)
    with pytest.raises(dnnl.error, match="consumed"):
        memory.from_dlpack(capsule)


class _Wrap:
    """An object whose __dlpack__ hands out a given capsule."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_lifetimes(eng):
    # the exported tensor keeps the memory's own buffer alive
    m = memory(memory.desc([1000], dt.f32, tag.a), eng)
    m.write(np.arange(1000, dtype=np.float32))
    a = np.from_dlpack(m)
    del m
    gc.collect()
    _churn()
    np.testing.assert_array_equal(a, np.arange(1000))
    # ... and a user's buffer
    user = np.arange(10, dtype=np.float32)
    m = memory(memory.desc([10], dt.f32, tag.a), eng, user)
    b = np.from_dlpack(m)
    del m, user
    gc.collect()
    np.testing.assert_array_equal(b, np.arange(10))
    # each capsule holds the memory's storage; one nobody consumes frees its
    # tensor and lets go
    m = memory(memory.desc([8], dt.f32, tag.a), eng)
    storage = m.get()                 # what the library's buffer lives in
    before = sys.getrefcount(storage)
    caps = [m.__dlpack__() for _ in range(5)]
    held = sys.getrefcount(storage)
    assert held == before + 5
    del caps
    for _ in range(50):
        m.__dlpack__()
        m.__dlpack__(max_version=(1, 0))
    gc.collect()
    after = sys.getrefcount(storage)
    assert after == before
    a = np.from_dlpack(m)
    held = sys.getrefcount(storage)
    assert held == before + 1
    del a
    gc.collect()
    after = sys.getrefcount(storage)
    assert after == before
    # an imported tensor lives as long as the memory, which releases it
    x = np.arange(12, dtype=np.float32)
    before = sys.getrefcount(x)
    mx = memory.from_dlpack(x)
    held = sys.getrefcount(x)
    assert held > before
    h = mx.get_data_handle()
    del mx
    gc.collect()
    held = sys.getrefcount(x)
    assert held > before                          # the data handle still points into it
    del h
    gc.collect()
    after = sys.getrefcount(x)
    assert after == before

def _churn():
    """Allocations that would reuse a freed buffer."""
    for _ in range(20):
        np.full(1000, -5.0, np.float32).sum()
        memory(memory.desc([1000], dt.f32, tag.a), engine(engine.kind.cpu, 0))


# ------------------------------------------------------------ PyTorch


def _torch():
    return pytest.importorskip("torch")


@pytest.mark.parametrize("data_type,torch_name", [
    (dt.f32, "float32"), (dt.bf16, "bfloat16"), (dt.s32, "int32"), (dt.s8, "int8"),
    (dt.u8, "uint8"), (dt.f16, "float16"), (dt.f64, "float64")])
def test_torch_round_trip_shares_the_buffer(eng, data_type, torch_name):
    torch = _torch()
    m = memory(memory.desc([4, 6], data_type, tag.ab), eng)
    np.asarray(m)[...] = (np.arange(24).reshape(4, 6) % 7).astype(np.float32)
    t = torch.from_dlpack(m)
    assert t.dtype == getattr(torch, torch_name) and tuple(t.shape) == (4, 6)
    np.testing.assert_array_equal(t.float().numpy(), np.arange(24).reshape(4, 6) % 7)
    t[1, 2] = 5
    assert np.asarray(m).astype(np.float32)[1, 2] == 5
    back = memory.from_dlpack(t)
    assert back.get_desc() == m.get_desc()
    h_back, h_m = back.get_data_handle(), m.get_data_handle()
    assert h_back is not None and h_m is not None and int(h_back) == int(h_m)
    # torch tensors of any strides and offsets
    base = torch.arange(48, dtype=getattr(torch, torch_name)).reshape(6, 8)
    for x in (base.t(), base[2:5, 1::2], base[:, 3]):
        mx = memory.from_dlpack(x)
        assert mx.get_desc().get_strides() == list(x.stride())
        np.testing.assert_array_equal(np.asarray(mx).astype(np.float32), x.float().numpy())
        torch.from_dlpack(mx).fill_(1)
        assert bool((x == 1).all())


def test_torch_lifetimes_and_threads(eng):
    torch = _torch()
    m = memory(memory.desc([256, 256], dt.f32, tag.ab), eng)
    m.write(np.ones((256, 256)))
    t = torch.from_dlpack(m)
    del m
    gc.collect()
    _churn()
    assert float(t.sum()) == 256 * 256
    x = torch.full((64,), 3.0)
    mx = memory.from_dlpack(x)
    del x
    gc.collect()
    _churn()
    assert np.all(mx.read() == 3.0)
    # tensors released from other threads (torch may call the deleter there)
    tensors = [torch.from_dlpack(memory(memory.desc([8], dt.f32, tag.a), eng))
               for _ in range(20)]
    threads = [threading.Thread(target=tensors.pop) for _ in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not tensors
    # a primitive computes into a torch tensor's memory
    src = torch.linspace(-2, 2, 24).reshape(2, 3, 4)
    dst = torch.empty_like(src)
    s = stream(eng)
    msrc, mdst = memory.from_dlpack(src), memory.from_dlpack(dst)
    relu = eltwise_forward(eltwise_forward.primitive_desc(
        eng, prop_kind.forward_inference, algorithm.eltwise_relu, msrc.get_desc(),
        mdst.get_desc()))
    relu.execute(s, {c.DNNL_ARG_SRC: msrc, c.DNNL_ARG_DST: mdst})
    np.testing.assert_array_equal(dst.numpy(), np.maximum(src.numpy(), 0))


# ------------------------------------------------------------ docstrings


def _public_classes():
    seen, out = set(), []
    todo = [v for k, v in vars(dnnl).items() if isinstance(v, type) and not k.startswith("_")
            and v.__module__.startswith("dnnl") and not issubclass(v, int)]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        out.append(cls)
        todo += [v for k, v in vars(cls).items() if isinstance(v, type) and not k.startswith("_")
                 and v.__module__.startswith("dnnl") and not issubclass(v, int)]
    return out


def test_every_public_class_and_method_has_a_docstring():
    classes = _public_classes()
    assert {"engine", "stream", "memory", "memory.desc", "primitive_attr",
            "convolution_forward.primitive_desc", "lstm_backward", "error",
            "handle", "primitive_desc_base"} <= {cls.__qualname__ for cls in classes}
    missing = []
    for cls in classes:
        if not (cls.__doc__ or "").strip():
            missing.append(cls.__qualname__)
        for name, fn in vars(cls).items():
            if name.startswith("_") and name not in ("__init__", "__array__", "__dlpack__",
                                                     "__dlpack_device__"):
                continue
            fn = fn.__func__ if isinstance(fn, (staticmethod, classmethod)) else fn
            if not inspect.isfunction(fn):
                continue
            if name == "__init__" and (cls.__doc__ or "").strip():
                continue                           # the class says how to make one
            if not (fn.__doc__ or "").strip():
                missing.append("%s.%s" % (cls.__qualname__, name))
    functions = [v for k, v in vars(dnnl).items() if inspect.isfunction(v)
                 and not k.startswith("_") and v.__module__.startswith("dnnl.")]
    missing += [f.__name__ for f in functions if not (f.__doc__ or "").strip()]
    assert not missing, missing
