"""The rest of oneDNN's common API this library added with the primitive
cache: host scalar memory descriptors and memories, memory descriptor blobs,
map_data_v2, cache blobs (which the CPU engine does not have), the JIT-code
settings, verbose_profiling_enabled, and the object layer's counterparts
(memory.desc.host_scalar, desc(blob), primitive_desc, rnn_primitive_desc_base)."""

import struct
import subprocess
import sys

import numpy as np
import pytest

import dnnl
import dnnl_c as c
import isa_probe
from dnnl import algorithm, memory, prop_kind
from helpers import check, make_md, make_memory
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
OK, INVALID, UNIMPL = c.dnnl_success, c.dnnl_invalid_arguments, c.dnnl_unimplemented


def scalar_md(data_type):
    md = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_host_scalar(md, data_type))
    return md


def test_host_scalar_descriptor():
    md = scalar_md(c.dnnl_f32)
    out = [None]
    check(c.dnnl_memory_desc_query(md, c.dnnl_query_ndims_s32, out))
    assert out[0] == 1
    check(c.dnnl_memory_desc_query(md, c.dnnl_query_dims, out))
    assert out[0] == (1,)
    check(c.dnnl_memory_desc_query(md, c.dnnl_query_format_kind, out))
    assert out[0] == c.dnnl_format_kind_host_scalar
    assert c.dnnl_memory_desc_get_size(md) == 4
    assert c.dnnl_memory_desc_get_size(scalar_md(c.dnnl_s64)) == 8
    assert c.dnnl_memory_desc_query(md, c.dnnl_query_strides, out) == INVALID   # not blocked
    assert c.dnnl_memory_desc_equal(md, scalar_md(c.dnnl_f32)) == 1
    assert c.dnnl_memory_desc_equal(md, scalar_md(c.dnnl_s32)) == 0
    # oneDNN's memory_desc_sanity_check types (no boolean)
    for bad in (c.dnnl_data_type_undef, c.dnnl_boolean):
        assert c.dnnl_memory_desc_create_host_scalar(c.dnnl_memory_desc_t(), bad) == INVALID
    r = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_reshape(r, md, 2, [1, 1]) == INVALID


@pytest.mark.parametrize("data_type,value,back", [
    (c.dnnl_f32, 1.5, 1.5), (c.dnnl_f64, -2.25, -2.25), (c.dnnl_s32, -7, -7),
    (c.dnnl_s64, 2 ** 40, 2 ** 40), (c.dnnl_s8, -3, -3), (c.dnnl_u8, 200, 200),
    (c.dnnl_f16, 0.5, 0.5), (c.dnnl_bf16, 1.00390625, 1.0)])
def test_host_scalar_memory(data_type, value, back):
    mem = c.dnnl_memory_t()
    check(c.dnnl_memory_create_host_scalar(mem, scalar_md(data_type), value))
    out = [None]
    check(c.dnnl_memory_get_host_scalar_value(mem, out))
    assert out[0] == back
    check(c.dnnl_memory_set_host_scalar_value(mem, 0))
    check(c.dnnl_memory_get_host_scalar_value(mem, out))
    assert out[0] == 0
    # a scalar has a value, not a data handle
    assert c.dnnl_memory_get_data_handle(mem, out) == INVALID
    assert c.dnnl_memory_set_data_handle(mem, np.zeros(4, np.float32)) == INVALID
    check(c.dnnl_memory_destroy(mem))


def test_host_scalar_refusals(eng):
    md = scalar_md(c.dnnl_s32)
    mem = c.dnnl_memory_t()
    assert c.dnnl_memory_create_host_scalar(mem, md, 2 ** 40) == INVALID        # too big for s32
    assert c.dnnl_memory_create_host_scalar(mem, md, b"\x01\x02") == INVALID    # 2 bytes, not 4
    check(c.dnnl_memory_create_host_scalar(mem, md, struct.pack("<i", 77)))
    out = [None]
    check(c.dnnl_memory_get_host_scalar_value(mem, out))
    assert out[0] == 77
    plain = make_md([3], c.dnnl_f32, c.dnnl_a)
    assert c.dnnl_memory_create_host_scalar(c.dnnl_memory_t(), plain, 1.0) == INVALID
    assert c.dnnl_memory_create(c.dnnl_memory_t(), md, eng.get(), c.DNNL_MEMORY_ALLOCATE) == \
        INVALID
    other = make_memory(plain, eng.get())
    assert c.dnnl_memory_get_host_scalar_value(other, out) == INVALID
    assert c.dnnl_memory_set_host_scalar_value(other, 1.0) == INVALID
    # not an argument a primitive takes
    pd = c.dnnl_primitive_desc_t()
    one = make_md([1], c.dnnl_f32, c.dnnl_a)
    mem = c.dnnl_memory_t()
    check(c.dnnl_memory_create_host_scalar(mem, scalar_md(c.dnnl_f32), 1.0))
    check(c.dnnl_eltwise_forward_primitive_desc_create(pd, eng.get(), c.dnnl_forward_inference,
                                                       c.dnnl_eltwise_relu, one, one, 0, 0,
                                                       None))
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd))
    strm = c.dnnl_stream_t()
    check(c.dnnl_stream_create(strm, eng.get(), c.dnnl_stream_default_flags))
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_SRC, mem),
                                                    (c.DNNL_ARG_DST, mem)]) == INVALID
    assert "host scalar" in c.cydnnl_last_error()


def blob_of(md):
    size = [None]
    check(c.dnnl_memory_desc_get_blob(None, size, md))
    blob = bytearray(size[0])
    check(c.dnnl_memory_desc_get_blob(blob, size, md))
    return bytes(blob)


def test_blob_round_trips():
    parent = make_md([4, 16, 5, 5], c.dnnl_f32, c.dnnl_nChw8c)
    sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(sub, parent, [2, 8, 5, 5], [1, 8, 0, 0]))
    mds = [parent, sub, make_md([3, 7], c.dnnl_bf16, strides=[1, 5]),
           make_md([2, 3], c.dnnl_f32, c.dnnl_format_tag_any), scalar_md(c.dnnl_u8),
           make_md([6, 6, 3, 3], c.dnnl_f32, c.dnnl_OIhw16i16o)]
    zero = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_with_tag(zero, 0, [], c.dnnl_data_type_undef,
                                             c.dnnl_format_tag_undef))
    for md in mds + [zero]:
        blob = blob_of(md)
        back = c.dnnl_memory_desc_t()
        check(c.dnnl_memory_desc_create_with_blob(back, blob))
        assert c.dnnl_memory_desc_equal(back, md) == 1
        assert blob_of(back) == blob        # equal descriptors, equal blobs
    assert blob_of(mds[0]) != blob_of(mds[5])


def test_bad_blobs():
    blob = bytearray(blob_of(make_md([2, 3], c.dnnl_f32, c.dnnl_ab)))
    out = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_blob(out, bytes(len(blob))) == INVALID      # no magic
    assert c.dnnl_memory_desc_create_with_blob(out, bytes(blob[:20])) == INVALID      # short
    bad = bytearray(blob)
    bad[8] = 40                                                                       # ndims 40
    assert c.dnnl_memory_desc_create_with_blob(out, bytes(bad)) == INVALID
    bad = bytearray(blob)
    bad[12:20] = struct.pack("<q", -5)                                                # dims[0]
    assert c.dnnl_memory_desc_create_with_blob(out, bytes(bad)) == INVALID
    assert c.dnnl_memory_desc_get_blob(bytearray(8), [None], make_md([2], c.dnnl_f32,
                                                                     c.dnnl_a)) == INVALID
    assert c.dnnl_memory_desc_get_blob(np.zeros(200, object), [None],
                                       make_md([2], c.dnnl_f32, c.dnnl_a)) == INVALID


def test_map_data_v2(eng):
    mem = make_memory(make_md([4], c.dnnl_f32, c.dnnl_a), eng.get())
    ptr = [None]
    check(c.dnnl_memory_map_data_v2(mem, ptr, 0))
    np.frombuffer(ptr[0], np.float32)[:] = [1, 2, 3, 4]
    check(c.dnnl_memory_unmap_data_v2(mem, ptr[0], 0))
    h = [None]
    check(c.dnnl_memory_get_data_handle(mem, h))
    assert list(np.frombuffer(h[0], np.float32)) == [1, 2, 3, 4]
    assert c.dnnl_memory_map_data_v2(mem, ptr, 1) == INVALID
    assert c.dnnl_memory_unmap_data_v2(mem, ptr[0], 1) == INVALID
    other = make_memory(make_md([4], c.dnnl_f32, c.dnnl_a), eng.get())
    mapped = [None]
    check(c.dnnl_memory_map_data(other, mapped))
    assert c.dnnl_memory_unmap_data_v2(mem, mapped[0], 0) == INVALID   # another memory's


def test_cache_blobs_are_a_gpu_thing(eng):
    md = make_md([8], c.dnnl_f32, c.dnnl_a)
    pd = c.dnnl_primitive_desc_t()
    check(c.dnnl_eltwise_forward_primitive_desc_create(pd, eng.get(), c.dnnl_forward_inference,
                                                       c.dnnl_eltwise_relu, md, md, 0, 0, None))
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd))
    assert c.dnnl_primitive_get_cache_blob(prim, [None], None) == UNIMPL
    assert c.dnnl_primitive_create_from_cache_blob(c.dnnl_primitive_t(), pd, 4, b"abcd") == UNIMPL
    assert c.dnnl_primitive_create_from_cache_blob(c.dnnl_primitive_t(), pd, 0, b"") == INVALID
    out = [None]
    check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_cache_blob_id_size_s64, 0, out))
    assert out[0] == 0
    check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_cache_blob_id, 0, out))
    assert out[0] == b""
    opd = dnnl.eltwise_forward.primitive_desc(pd)
    assert opd.get_cache_blob_id() == b""
    with pytest.raises(dnnl.error) as e:
        dnnl.primitive(opd).get_cache_blob()
    assert e.value.status == dnnl.status.unimplemented
    with pytest.raises(dnnl.error) as e:
        dnnl.primitive(opd, b"blob")
    assert e.value.status == dnnl.status.unimplemented


def test_jit_settings():
    # no JIT code here: the settings are checked and kept, as oneDNN checks them
    assert c.dnnl_set_jit_dump(1) == OK and c.dnnl_set_jit_dump(0) == OK
    assert c.dnnl_set_jit_profiling_flags(c.DNNL_JIT_PROFILE_VTUNE) == OK
    assert c.dnnl_set_jit_profiling_flags(c.DNNL_JIT_PROFILE_LINUX_PERF
                                          | c.DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC) == OK
    assert c.dnnl_set_jit_profiling_flags(0x100) == INVALID
    assert c.dnnl_set_jit_profiling_jitdumpdir("/tmp") == OK
    assert c.dnnl_set_jit_profiling_jitdumpdir(None) == INVALID
    assert dnnl.set_jit_dump(0) == dnnl.status.success
    assert dnnl.set_jit_profiling_flags(0) == dnnl.status.success
    assert dnnl.set_jit_profiling_jitdumpdir("/tmp") == dnnl.status.success
    assert dnnl.set_jit_profiling_flags(0x100) == dnnl.status.invalid_arguments


def test_verbose_profiling_enabled():
    probe = ("import dnnl, dnnl_c as c; out = [None]; c.dnnl_verbose_profiling_enabled(out); "
             "print(out[0], int(dnnl.verbose_profiling_enabled()))")
    for value, want in (("profile_exec", "1 1"), ("profile_create", "1 1"), ("2", "1 1"),
                        ("0", "0 0"), ("dispatch", "0 0")):
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=isa_probe.child_env(ONEDNN_VERBOSE=value), timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == want.split(), value
    assert c.dnnl_verbose_profiling_enabled(None) == INVALID


def test_object_layer_memory(eng):
    md = memory.desc.host_scalar(dt.f32)
    assert md.get_format_kind() == memory.format_kind.host_scalar and md.get_size() == 4
    m = memory(md, 2.5)
    assert m.get_host_scalar_value() == 2.5
    m.set_host_scalar_value(-1.0)
    assert m.get_host_scalar_value() == -1.0
    assert memory.data_type_size(dt.bf16) == 2 and memory.data_type_size(dt.s64) == 8
    d = memory.desc([2, 16, 3, 3], dt.bf16, tag.nChw16c)
    blob = d.get_blob()
    assert isinstance(blob, bytes) and memory.desc(blob) == d
    assert memory.desc(list(blob)) == d
    with pytest.raises(dnnl.error) as e:
        memory.desc(bytes(len(blob)))
    assert e.value.status == dnnl.status.invalid_arguments
    assert d.get_num_handles() == 1
    buf = memory(memory.desc([4], dt.f32, tag.a), eng)
    np.frombuffer(buf.map_data(), np.float32)[:] = 3
    buf.unmap_data()
    assert list(buf.read()) == [3.0] * 4
    with pytest.raises(dnnl.error):
        buf.map_data(1)


def test_object_layer_classes(eng):
    src = memory.desc([2, 4, 5, 5], dt.f32, tag.nchw)
    pd = dnnl.eltwise_forward.primitive_desc(eng, prop_kind.forward_inference,
                                             algorithm.eltwise_relu, src, src, 0.0, 0.0)
    assert isinstance(pd, dnnl.primitive_desc) and isinstance(pd, dnnl.primitive_desc_base)
    r = dnnl.reorder.primitive_desc(eng, src, eng, memory.desc([2, 4, 5, 5], dt.f32, tag.nhwc))
    assert isinstance(r, dnnl.primitive_desc_base) and not isinstance(r, dnnl.primitive_desc)
    assert issubclass(dnnl.lstm_forward.primitive_desc, dnnl.rnn_primitive_desc_base)
    assert issubclass(dnnl.rnn_primitive_desc_base, dnnl.primitive_desc)
    # queries of kinds not implemented here
    for q in (pd.get_epsilon, pd.get_axis, pd.get_p, pd.get_factors, pd.get_group_size):
        with pytest.raises(dnnl.error) as e:
            q()
        assert e.value.status == dnnl.status.unimplemented
    assert pd.query_s64(dnnl.query.memory_consumption_s64) == 0
