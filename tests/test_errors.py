"""Bad input through the C-style API gives oneDNN's status codes (never an
exception, never a crash); through the object layer, dnnl.error with that
status and a message naming the problem."""

import gc

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from helpers import check, make_md, make_memory

OK, INVALID, UNIMPL = c.dnnl_success, c.dnnl_invalid_arguments, c.dnnl_unimplemented


def test_destroy_accepts_null():
    for fn in (c.dnnl_engine_destroy, c.dnnl_stream_destroy, c.dnnl_memory_desc_destroy,
               c.dnnl_memory_destroy, c.dnnl_primitive_desc_destroy, c.dnnl_primitive_destroy,
               c.dnnl_primitive_attr_destroy):
        assert fn(None) == OK
    for cls, fn in ((c.dnnl_engine_t, c.dnnl_engine_destroy),
                    (c.dnnl_memory_t, c.dnnl_memory_destroy),
                    (c.dnnl_primitive_t, c.dnnl_primitive_destroy)):
        assert fn(cls()) == OK      # an empty handle is NULL


def test_engine_and_stream_errors(eng):
    e = c.dnnl_engine_t()
    assert c.dnnl_engine_create(e, c.dnnl_gpu, 0) == INVALID
    assert "gpu" in c.cydnnl_last_error()
    assert c.dnnl_engine_create(e, c.dnnl_any_engine, 0) == INVALID
    assert c.dnnl_engine_create(e, c.dnnl_cpu, 1) == INVALID
    assert c.dnnl_engine_create(e, c.dnnl_cpu, -1) == INVALID
    assert c.dnnl_engine_create(None, c.dnnl_cpu, 0) == INVALID
    assert c.dnnl_engine_create("engine", c.dnnl_cpu, 0) == INVALID
    assert (c.dnnl_engine_get_count(c.dnnl_cpu), c.dnnl_engine_get_count(c.dnnl_gpu),
            c.dnnl_engine_get_count(c.dnnl_any_engine)) == (1, 0, 0)
    kind = [None]
    check(c.dnnl_engine_get_kind(eng, kind))
    assert kind[0] == c.dnnl_cpu
    assert c.dnnl_engine_get_kind(eng, None) == INVALID
    s = c.dnnl_stream_t()
    assert c.dnnl_stream_create(s, None, c.dnnl_stream_default_flags) == INVALID
    assert c.dnnl_stream_create(s, eng, 0x40) == INVALID
    assert c.dnnl_stream_wait(None) == INVALID
    assert c.dnnl_stream_wait(eng) == INVALID          # wrong handle type
    own = c.dnnl_engine_t()
    check(c.dnnl_engine_create(own, c.dnnl_cpu, 0))
    check(c.dnnl_stream_create(s, own, c.dnnl_stream_default_flags))
    check(c.dnnl_engine_destroy(own))
    assert c.dnnl_engine_destroy(own) == INVALID        # twice
    assert c.dnnl_engine_get_kind(own, kind) == INVALID
    got = c.dnnl_engine_t()
    check(c.dnnl_stream_get_engine(s, got))             # the stream keeps its engine
    assert c.dnnl_engine_get_kind(got, kind) == INVALID  # ... which the user destroyed
    check(c.dnnl_stream_wait(s))
    check(c.dnnl_stream_destroy(s))
    assert c.dnnl_stream_wait(s) == INVALID


@pytest.mark.parametrize("ndims,dims,dt,tag,status", [
    (13, [1] * 13, c.dnnl_f32, c.dnnl_a, INVALID),
    (-1, [1], c.dnnl_f32, c.dnnl_a, INVALID),
    (2, [2, -3], c.dnnl_f32, c.dnnl_ab, INVALID),
    (3, [2, 3, 4], c.dnnl_f32, c.dnnl_nchw, INVALID),
    (4, [2, 3, 4, 5], c.dnnl_f32, c.dnnl_abc, INVALID),
    (2, [2, 3], c.dnnl_data_type_undef, c.dnnl_ab, INVALID),
    (2, [2, 3], c.dnnl_f32, 12345, INVALID),
    (2, [2, 3], c.dnnl_f32, c.dnnl_format_tag_last, INVALID),
    (3, [2, 3], c.dnnl_f32, c.dnnl_abc, INVALID),          # dims shorter than ndims
    (2, [2, c.DNNL_RUNTIME_DIM_VAL], c.dnnl_f32, c.dnnl_ab, UNIMPL),
    (2, [2, 2.5], c.dnnl_f32, c.dnnl_ab, INVALID),
    (2, "ab", c.dnnl_f32, c.dnnl_ab, INVALID),
    (2, None, c.dnnl_f32, c.dnnl_ab, INVALID),
    (0, None, c.dnnl_f32, c.dnnl_ab, OK),                  # the zero md
])
def test_memory_desc_create_errors(ndims, dims, dt, tag, status):
    md = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(md, ndims, dims, dt, tag) == status
    if status != OK:
        assert c.cydnnl_last_error()
        assert not md


def test_memory_desc_functions_on_bad_handles():
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    dead = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    check(c.dnnl_memory_desc_destroy(dead))
    out = c.dnnl_memory_desc_t()
    res = [None]
    for bad in (None, dead, c.dnnl_engine_t(), 3):
        assert c.dnnl_memory_desc_clone(out, bad) == INVALID
        assert c.dnnl_memory_desc_query(bad, c.dnnl_query_ndims_s32, res) == INVALID
        assert c.dnnl_memory_desc_reshape(out, bad, 1, [6]) == INVALID
        assert c.dnnl_memory_desc_permute_axes(out, bad, [1, 0]) == INVALID
        assert c.dnnl_memory_desc_create_submemory(out, bad, [1, 1], [0, 0]) == INVALID
        assert c.dnnl_memory_desc_equal(md, bad) == 0
        assert c.dnnl_memory_desc_get_size(bad) == 0
    assert c.dnnl_memory_desc_destroy(dead) == INVALID
    assert c.dnnl_memory_desc_clone(None, md) == INVALID
    assert c.dnnl_memory_desc_query(md, c.dnnl_query_ndims_s32, None) == INVALID
    assert c.dnnl_memory_desc_query(md, c.dnnl_query_ndims_s32, 5) == INVALID
    assert c.dnnl_memory_desc_create_with_strides(out, 2, [2, 3], c.dnnl_f32, [1]) == INVALID
    assert c.dnnl_memory_desc_permute_axes(out, md, [0]) == INVALID
    assert c.dnnl_memory_desc_reshape(out, md, 13, [1] * 13) == INVALID


def test_memory_errors(eng):
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    any_md = make_md([2, 3], c.dnnl_f32, c.dnnl_format_tag_any)
    m = c.dnnl_memory_t()
    assert c.dnnl_memory_create(m, any_md, eng, c.DNNL_MEMORY_ALLOCATE) == INVALID
    assert "format any" in c.cydnnl_last_error()
    assert c.dnnl_memory_create(m, md, None, c.DNNL_MEMORY_ALLOCATE) == INVALID
    assert c.dnnl_memory_create(m, md, eng, np.zeros(5, np.float32)) == INVALID  # too small
    assert "24" in c.cydnnl_last_error()
    assert c.dnnl_memory_create(m, md, eng, 0x1000) == INVALID                   # raw address
    assert c.dnnl_memory_create(m, md, eng, b"x" * 64) == INVALID                # read-only
    assert c.dnnl_memory_create(m, md, eng, np.zeros((6, 6), np.float32)[:, ::2]) == INVALID
    assert c.dnnl_memory_create(None, md, eng, None) == INVALID
    # the zero md and NULL md make a legal empty memory
    zero = make_md([], c.dnnl_data_type_undef, c.dnnl_format_tag_undef)
    for d in (zero, None):
        check(c.dnnl_memory_create(m, d, eng, c.DNNL_MEMORY_ALLOCATE))
        h = ["x"]
        check(c.dnnl_memory_get_data_handle(m, h))
        assert h[0] is None
        check(c.dnnl_memory_destroy(m))
    m = make_memory(md, eng)
    assert c.dnnl_memory_set_data_handle(m, np.zeros(2, np.float32)) == INVALID
    assert c.dnnl_memory_set_data_handle(m, c.DNNL_MEMORY_ALLOCATE) == INVALID
    assert c.dnnl_memory_get_data_handle_v2(m, [None], 1) == INVALID
    assert c.dnnl_memory_get_data_handle(m, None) == INVALID
    check(c.dnnl_memory_destroy(m))
    for fn, args in ((c.dnnl_memory_get_data_handle, ([None],)),
                     (c.dnnl_memory_set_data_handle, (None,)),
                     (c.dnnl_memory_get_engine, (c.dnnl_engine_t(),)),
                     (c.dnnl_memory_get_memory_desc, (c.dnnl_memory_desc_t(),)),
                     (c.dnnl_memory_destroy, ())):
        assert fn(m, *args) == INVALID, fn


def test_borrowed_handles_cannot_be_destroyed(eng):
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    m = make_memory(md, eng)
    inner = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_get_memory_desc(m, inner))
    assert c.dnnl_memory_desc_destroy(inner) == INVALID
    check(c.dnnl_memory_destroy(m))
    # the memory's descriptor dies with the memory
    assert c.dnnl_memory_desc_query(inner, c.dnnl_query_ndims_s32, [None]) == INVALID
    assert c.dnnl_memory_desc_equal(inner, md) == 0


def reorder_pd(eng, src_md, dst_md):
    pd = c.dnnl_primitive_desc_t()
    st = c.dnnl_reorder_primitive_desc_create(pd, src_md, eng, dst_md, eng, None)
    return st, pd


def test_reorder_creation_errors(eng):
    a = make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nchw)
    assert reorder_pd(eng, a, make_md([2, 3, 4, 6], c.dnnl_f32, c.dnnl_nchw))[0] == INVALID
    assert "dim 3" in c.cydnnl_last_error()
    assert reorder_pd(eng, a, make_md([2, 3, 20], c.dnnl_f32, c.dnnl_abc))[0] == INVALID
    assert reorder_pd(eng, a, make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_format_tag_any))[0] \
        == INVALID
    assert reorder_pd(eng, a, make_md([], c.dnnl_data_type_undef,
                                      c.dnnl_format_tag_undef))[0] == INVALID
    assert reorder_pd(eng, a, None)[0] == INVALID
    assert reorder_pd(None, a, a)[0] == INVALID
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_reorder_primitive_desc_create(None, a, eng, a, eng, None) == INVALID
    assert c.dnnl_reorder_primitive_desc_create(pd, a, eng, a, eng, eng) == INVALID  # attr type
    dead_attr = c.dnnl_primitive_attr_t()
    check(c.dnnl_primitive_attr_create(dead_attr))
    check(c.dnnl_primitive_attr_destroy(dead_attr))
    assert c.dnnl_reorder_primitive_desc_create(pd, a, eng, a, eng, dead_attr) == INVALID


def test_execute_errors(eng, strm):
    a = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    b = make_md([2, 3], c.dnnl_f32, c.dnnl_ba)
    st, pd = reorder_pd(eng, a, b)
    check(st)
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd))
    src, dst = make_memory(a, eng), make_memory(b, eng)
    good = [(c.DNNL_ARG_FROM, src), (c.DNNL_ARG_TO, dst)]
    check(c.dnnl_primitive_execute(prim, strm, 2, good))
    assert c.dnnl_primitive_execute(prim, strm, 1, good) == INVALID        # missing TO
    assert "DNNL_ARG_DST" in c.cydnnl_last_error()
    assert c.dnnl_primitive_execute(prim, strm, 3, good) == INVALID        # nargs too big
    assert c.dnnl_primitive_execute(prim, strm, -1, good) == INVALID
    assert c.dnnl_primitive_execute(prim, None, 2, good) == INVALID
    assert c.dnnl_primitive_execute(None, strm, 2, good) == INVALID
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                    (c.DNNL_ARG_TO, src)]) == INVALID
    assert "layout" in c.cydnnl_last_error() or "strides" in c.cydnnl_last_error()
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                    (c.DNNL_ARG_FROM, src)]) == INVALID
    wrong_dt = make_memory(make_md([2, 3], c.dnnl_bf16, c.dnnl_ba), eng)
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                    (c.DNNL_ARG_TO, wrong_dt)]) == INVALID
    assert "data type" in c.cydnnl_last_error()
    small = make_memory(make_md([1, 3], c.dnnl_f32, c.dnnl_ba), eng)
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                    (c.DNNL_ARG_TO, small)]) == INVALID
    no_buffer = make_memory(b, eng, None)
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                    (c.DNNL_ARG_TO, no_buffer)]) == INVALID
    assert "data handle" in c.cydnnl_last_error()
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src), "x"]) == INVALID
    assert c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                    (c.DNNL_ARG_TO, eng)]) == INVALID
    # unknown arguments are ignored, NULL memories skipped, as in oneDNN
    check(c.dnnl_primitive_execute(prim, strm, 4, good + [(c.DNNL_ARG_BIAS, src),
                                                          (c.DNNL_ARG_TO, None)]))
    # more arguments than dnnl_c holds on its stack (16): allocated, and freed
    # when one of them is bad
    many = good + [(c.DNNL_ARG_BIAS + i, src) for i in range(18)]
    check(c.dnnl_primitive_execute(prim, strm, 20, many))
    assert c.dnnl_primitive_execute(prim, strm, 20, many[:19] + [(c.DNNL_ARG_BIAS + 18, eng)]) \
        == INVALID
    assert "args[19].memory" in c.cydnnl_last_error()
    assert c.dnnl_primitive_execute(prim, strm, 20, many[:19] + ["x"]) == INVALID
    check(c.dnnl_memory_destroy(dst))
    assert c.dnnl_primitive_execute(prim, strm, 2, good) == INVALID
    assert "not a live memory" in c.cydnnl_last_error()
    # the primitive owns a copy of its descriptor
    check(c.dnnl_primitive_desc_destroy(pd))
    check(c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                   (c.DNNL_ARG_TO, make_memory(b, eng))]))
    own_pd = c.dnnl_primitive_desc_t()
    check(c.dnnl_primitive_get_primitive_desc(prim, own_pd))
    assert c.dnnl_primitive_desc_destroy(own_pd) == INVALID
    check(c.dnnl_primitive_destroy(prim))
    assert c.dnnl_primitive_execute(prim, strm, 2, good) == INVALID
    assert c.dnnl_primitive_desc_query(own_pd, c.dnnl_query_impl_info_str, 0, [None]) == INVALID
    assert c.dnnl_primitive_create(prim, pd) == INVALID       # pd was destroyed


def test_pd_query_errors(eng):
    a = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    st, pd = reorder_pd(eng, a, a)
    res = [None]
    assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_strides, 0, res) == UNIMPL
    assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_alpha_f32, 0, res) == UNIMPL
    assert c.dnnl_primitive_desc_query(pd, 9999, 0, res) == UNIMPL
    assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_src_md, 0, None) == INVALID
    assert c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_prop_kind, 0) is None
    assert c.dnnl_primitive_desc_query_md(None, c.dnnl_query_src_md, 0) is None
    zero = c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_workspace_md, 0)
    assert c.dnnl_memory_desc_get_size(zero) == 0
    assert c.dnnl_primitive_desc_query_s32(pd, c.dnnl_query_num_of_inputs_s32, 0) == 1
    assert c.dnnl_primitive_desc_query_s32(pd, c.dnnl_query_num_of_outputs_s32, 0) == 1
    assert c.dnnl_primitive_desc_query_s32(None, c.dnnl_query_num_of_inputs_s32, 0) == 0
    check(c.dnnl_primitive_desc_destroy(pd))
    assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_src_md, 0, res) == INVALID
    assert c.dnnl_primitive_desc_next_impl(pd) == INVALID
    assert c.dnnl_primitive_desc_clone(c.dnnl_primitive_desc_t(), pd) == INVALID


def test_attr_errors():
    attr = c.dnnl_primitive_attr_t()
    check(c.dnnl_primitive_attr_create(attr))
    mode = [None]
    check(c.dnnl_primitive_attr_get_scratchpad_mode(attr, mode))
    assert mode[0] == c.dnnl_scratchpad_mode_library
    assert c.dnnl_primitive_attr_set_scratchpad_mode(attr, 7) == INVALID
    check(c.dnnl_primitive_attr_set_scratchpad_mode(attr, c.dnnl_scratchpad_mode_user))
    clone = c.dnnl_primitive_attr_t()
    check(c.dnnl_primitive_attr_clone(clone, attr))
    check(c.dnnl_primitive_attr_get_scratchpad_mode(clone, mode))
    assert mode[0] == c.dnnl_scratchpad_mode_user
    assert c.dnnl_primitive_attr_set_fpmath_mode(attr, 99) == INVALID
    check(c.dnnl_primitive_attr_set_fpmath_mode(attr, c.dnnl_fpmath_mode_bf16))
    check(c.dnnl_primitive_attr_get_fpmath_mode(attr, mode))
    assert mode[0] == c.dnnl_fpmath_mode_bf16
    check(c.dnnl_primitive_attr_destroy(attr))
    assert c.dnnl_primitive_attr_get_scratchpad_mode(attr, mode) == INVALID
    assert c.dnnl_primitive_attr_clone(clone, attr) == INVALID


def test_handles_outlive_their_python_objects(eng, strm):
    """Dropping every Python reference to a memory's buffer is safe: the
    memory keeps it alive."""
    md = make_md([64], c.dnnl_f32, c.dnnl_a)
    m = make_memory(md, eng, np.arange(64, dtype=np.float32))
    gc.collect()
    out = np.zeros(64, np.float32)
    from helpers import reorder
    reorder(eng, strm, md, m, md, make_memory(md, eng, out))
    np.testing.assert_array_equal(out, np.arange(64))
    h = [None]
    check(c.dnnl_memory_get_data_handle(m, h))
    check(c.dnnl_memory_destroy(m))
    assert np.frombuffer(h[0], np.float32)[5] == 5.0   # the handle keeps the buffer


def test_status2str():
    assert [c.dnnl_status2str(s) for s in range(11)] == [
        "success", "out_of_memory", "invalid_arguments", "unimplemented", "last_impl_reached",
        "runtime_error", "not_required", "invalid_graph", "invalid_graph_op", "invalid_shape",
        "invalid_data_type"]
    assert c.dnnl_dt2str(c.dnnl_bf16) == "bf16"
    assert c.dnnl_prop_kind2str(c.dnnl_forward) == "forward_training"
    assert c.dnnl_alg_kind2str(c.dnnl_eltwise_relu) == "eltwise_relu"
    assert c.dnnl_fmt_kind2str(c.dnnl_blocked) == "blocked"
    assert c.dnnl_engine_kind2str(c.dnnl_cpu) == "cpu"
    assert c.dnnl_query2str(c.dnnl_query_src_md) == "src_md"


# -- the object layer

def test_object_layer_raises_dnnl_error():
    mem, tag, dt = dnnl.memory, dnnl.memory.format_tag, dnnl.memory.data_type
    with pytest.raises(dnnl.error) as e:
        mem.desc([2, -1], dt.f32, tag.ab)
    assert e.value.status == dnnl.dnnl_invalid_arguments
    assert "negative" in e.value.message and "memory descriptor" in str(e.value)
    with pytest.raises(dnnl.error) as e:
        mem.desc([2, 3, 4], dt.f32, tag.nchw)
    assert e.value.status == dnnl.status.invalid_arguments and "tag" in e.value.message
    with pytest.raises(dnnl.error) as e:
        dnnl.engine(dnnl.engine.kind.gpu, 0)
    assert e.value.status == dnnl.dnnl_invalid_arguments
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    with pytest.raises(dnnl.error) as e:
        mem(mem.desc([2, 3], dt.f32, tag.any), eng)
    assert "format any" in e.value.message
    a = mem(mem.desc([2, 3], dt.f32, tag.ab), eng)
    b = mem(mem.desc([2, 4], dt.f32, tag.ab), eng)
    with pytest.raises(dnnl.error) as e:
        dnnl.reorder(a, b)
    assert e.value.status == dnnl.dnnl_invalid_arguments and "dim 1" in e.value.message
    with pytest.raises(dnnl.error) as e:
        dnnl.reorder.primitive_desc(eng, mem.desc([4], dt.f16, tag.a), eng,
                                    mem.desc([4], dt.f32, tag.a))
    assert e.value.status == dnnl.dnnl_unimplemented
    assert dnnl.reorder.primitive_desc(eng, mem.desc([4], dt.f16, tag.a), eng,
                                       mem.desc([4], dt.f32, tag.a), allow_empty=True).get(
        allow_empty=True) is None
    s = dnnl.stream(eng)
    r = dnnl.reorder(a, a)
    with pytest.raises(dnnl.error) as e:
        r.execute(s, {dnnl.DNNL_ARG_FROM: a})
    assert "DNNL_ARG_DST" in e.value.message
    with pytest.raises(dnnl.error) as e:
        r.execute(s, [a, a])
    assert e.value.status == dnnl.dnnl_invalid_arguments
    with pytest.raises(dnnl.error) as e:
        dnnl.memory().get_desc()
    assert "not initialized" in e.value.message
    with pytest.raises(dnnl.error) as e:
        np.asarray(mem(mem.desc([2, 3, 4, 5], dt.f32, tag.nChw8c), eng))
    assert "aBcd8b" in e.value.message
    with pytest.raises(dnnl.error):
        mem.desc([2, 3], dt.f32, tag.ab).submemory_desc([3, 3], [0, 0])
    assert not mem.desc([2, 3], dt.f32, tag.ab).submemory_desc([3, 3], [0, 0],
                                                               allow_empty=True).get(True)
