"""Arguments of the wrong type or out of range: dnnl_c answers
dnnl_invalid_arguments with a message (functions that return something
else, oneDNN's value for failure), never an exception and never a crash;
user buffers must match the memory; the object layer raises dnnl.error
naming the argument. Calls that crashed run in a subprocess."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from dnnl import algorithm, memory, prop_kind
from helpers import check, make_md, make_memory

INVALID = c.dnnl_invalid_arguments
HERE = os.path.dirname(os.path.abspath(__file__))
tag, dt = memory.format_tag, memory.data_type


def run_isolated(code):
    """Runs code in a fresh interpreter (a crash must not take pytest with
    it); returns what it printed, but the library's verbose lines (errors,
    such as an engine that does not exist, print by default as oneDNN's)."""
    r = subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, "exit code %d\n%s%s" % (r.returncode, r.stdout, r.stderr)
    return "".join(ln for ln in r.stdout.splitlines(True)
                   if not ln.startswith("onednn_verbose,"))


@pytest.fixture(scope="module")
def pd(eng):
    md = make_md([2, 3, 4, 4], c.dnnl_f32, c.dnnl_nchw)
    p = c.dnnl_primitive_desc_t()
    check(c.dnnl_eltwise_forward_primitive_desc_create(
        p, eng, c.dnnl_forward_training, c.dnnl_eltwise_relu, md, md, 0.0, 0.0, None))
    yield p
    c.dnnl_primitive_desc_destroy(p)


# ------------------------------------------------------------ outputs (item 3)

OUTPUT_CALLS = """
import dnnl_c as c, numpy as np, json
from helpers import make_md, make_memory
eng = c.dnnl_engine_t(); c.dnnl_engine_create(eng, c.dnnl_cpu, 0)
md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
mem = make_memory(md, eng)
attr = c.dnnl_primitive_attr_t(); c.dnnl_primitive_attr_create(attr)
pd = c.dnnl_primitive_desc_t()
c.dnnl_reorder_primitive_desc_create(pd, md, eng, md, eng, None)
calls = {
    "engine_get_kind": lambda out: c.dnnl_engine_get_kind(eng, out),
    "memory_desc_query": lambda out: c.dnnl_memory_desc_query(md, c.dnnl_query_ndims_s32, out),
    "memory_desc_query_dims": lambda out: c.dnnl_memory_desc_query(md, c.dnnl_query_dims, out),
    "memory_desc_query_v2": lambda out: c.dnnl_memory_desc_query_v2(
        md, c.dnnl_query_data_type, 0, out),
    "memory_get_data_handle": lambda out: c.dnnl_memory_get_data_handle(mem, out),
    "memory_get_data_handle_v2": lambda out: c.dnnl_memory_get_data_handle_v2(mem, out, 0),
    "memory_map_data": lambda out: c.dnnl_memory_map_data(mem, out),
    "primitive_desc_query": lambda out: c.dnnl_primitive_desc_query(
        pd, c.dnnl_query_impl_info_str, 0, out),
    "primitive_desc_query_s32": lambda out: c.dnnl_primitive_desc_query(
        pd, c.dnnl_query_num_of_inputs_s32, 0, out),
    "attr_get_scratchpad_mode": lambda out: c.dnnl_primitive_attr_get_scratchpad_mode(attr, out),
    "attr_get_fpmath_mode": lambda out: c.dnnl_primitive_attr_get_fpmath_mode(attr, out),
}
result = {}
for name, call in calls.items():
    for label, out in (("empty list", []), ("empty tuple", ()), ("tuple", (None,)),
                       ("None", None), ("array", np.zeros(1, object)), ("dict", {0: None})):
        result["%s/%s" % (name, label)] = (call(out), c.cydnnl_last_error())
    good = [None]
    result[name + "/ok"] = (call(good), repr(good[0]))
print(json.dumps(result))
"""


def test_outputs_that_cannot_receive_the_result():
    result = json.loads(run_isolated(OUTPUT_CALLS))
    for key, (status, why) in result.items():
        if key.endswith("/ok"):
            assert status == c.dnnl_success and why != "None", (key, why)
        else:
            assert status == INVALID, (key, status, why)
            assert "must be a list of at least one element" in why, (key, why)


# ------------------------------------------------------------ every function (item 5)


def test_every_function_answers_odd_arguments_with_a_status():
    """bad_args_sweep.py calls every dnnl_c function with each argument made
    odd in turn (NaN, 2**70, arrays, strings, None, generators, wrong
    handles, ...)."""
    out = json.loads(run_isolated("import bad_args_sweep, json, sys\n"
                                  "p, n = bad_args_sweep.sweep()\n"
                                  "print(json.dumps({'calls': n, 'problems': p}))"))
    assert out["calls"] > 5000
    assert out["problems"] == []


def _unknown(name):
    return {"status": "unknown status", "dt": "unknown dt", "fmt_kind": "unknown fmt_kind",
            "fmt_tag": "unknown fmt_tag", "prop_kind": "unknown prop_kind",
            "prim_kind": "unknown prim_kind", "alg_kind": "unknown alg_kind",
            "engine_kind": "unknown engine_kind", "rnn_direction": "unknown rnn_direction",
            "rnn_flags": "unknown rnn_flags", "scratchpad_mode": "unknown scratchpad_mode",
            "fpmath_mode": "unknown fpmath_mode", "query": "unknown query"}[name]


TO_STR = ["status", "dt", "fmt_kind", "fmt_tag", "prop_kind", "prim_kind", "alg_kind",
          "engine_kind", "rnn_direction", "rnn_flags", "scratchpad_mode", "fpmath_mode",
          "query"]


@pytest.mark.parametrize("name", TO_STR)
def test_to_str_answers_unknown_values_as_onednn_does(name):
    fn = getattr(c, "dnnl_%s2str" % name)
    for v in (2 ** 70, -2 ** 70, 2 ** 40, 99999, float("nan"), 1.0, None, "x", np.zeros(2)):
        assert fn(v) == _unknown(name), v
    assert fn(0) != _unknown(name) or name == "rnn_flags"
    assert fn(np.int32(0)) == fn(0)
    assert c.dnnl_status2str(99) == "unknown status"
    assert c.dnnl_status2str(c.dnnl_invalid_arguments) == "invalid_arguments"


def test_nan_and_huge_values_where_enums_are_expected(eng, pd):
    md = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(md, 1, [3], float("nan"), c.dnnl_a) == INVALID
    assert "data_type must be an int, not float nan" in c.cydnnl_last_error()
    assert c.dnnl_memory_desc_create_with_tag(md, 1, [3], c.dnnl_f32, 2 ** 40) == INVALID
    assert "tag = 1099511627776 does not fit" in c.cydnnl_last_error()
    assert c.dnnl_primitive_desc_query_s32(pd, 2 ** 40, 0) == 0
    assert "what" in c.cydnnl_last_error()
    assert c.dnnl_primitive_desc_query_s32(pd, c.dnnl_query_num_of_inputs_s32, 2 ** 70) == 0
    assert c.dnnl_primitive_desc_query_md(pd, "src_md", 0) is None
    assert c.dnnl_data_type_size(2 ** 70) == 0 and c.dnnl_engine_get_count(None) == 0
    assert c.dnnl_set_verbose(2 ** 40) == INVALID and "level" in c.cydnnl_last_error()


def test_floats_strings_and_arrays_where_ints_are_expected(eng):
    e = c.dnnl_engine_t()
    for index in (0.0, "0", np.array([0]), None, 2 ** 70):
        assert c.dnnl_engine_create(e, c.dnnl_cpu, index) == INVALID, index
        assert "index" in c.cydnnl_last_error()
    assert c.dnnl_engine_create(e, c.dnnl_cpu, -1) == INVALID
    check(c.dnnl_engine_create(e, np.int64(c.dnnl_cpu), np.uint8(0)))  # NumPy ints are ints
    c.dnnl_engine_destroy(e)
    s = c.dnnl_stream_t()
    assert c.dnnl_stream_create(s, eng, 1.0) == INVALID and "flags" in c.cydnnl_last_error()
    assert c.dnnl_stream_create(s, eng, -1) == INVALID
    md = c.dnnl_memory_desc_t()
    for dims, what in (([True, 3], "dims[0] must be an int, not bool"),
                       ([2.0, 3], "dims[0] must be an int, not float 2.0"),
                       (["2", 3], "dims[0] must be an int, not str '2'"),
                       ("23", "dims must be a sequence, not str"),
                       (np.zeros((2, 2), np.int64), "dims[0] must be an int, not numpy.ndarray"),
                       (3, "dims must be a sequence, not int 3"),
                       ([2 ** 63, 3], "dims[0] = 9223372036854775808 does not fit")):
        assert c.dnnl_memory_desc_create_with_tag(md, 2, dims, c.dnnl_f32, c.dnnl_ab) == INVALID
        assert what in c.cydnnl_last_error(), (dims, c.cydnnl_last_error())
    for ndims in (2.0, "2", None, np.array([2, 3])):
        assert c.dnnl_memory_desc_create_with_tag(md, ndims, [2, 3], c.dnnl_f32,
                                                  c.dnnl_ab) == INVALID
        assert "ndims must be an int" in c.cydnnl_last_error()
    check(c.dnnl_memory_desc_create_with_tag(md, np.int32(2), np.array([2, 3]), c.dnnl_f32,
                                             c.dnnl_ab))
    assert c.dnnl_memory_desc_get_size(md) == 24
    out = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_permute_axes(out, md, [0.0, 1]) == INVALID
    assert "permutation[0]" in c.cydnnl_last_error()
    assert c.dnnl_memory_desc_get_size_v2(md, 0.5) == 0
    c.dnnl_memory_desc_destroy(md)


def test_scalars_of_primitive_descriptors(eng):
    md = make_md([2, 3, 4, 4], c.dnnl_f32, c.dnnl_nchw)
    p = c.dnnl_primitive_desc_t()

    def eltwise(alpha, alg=c.dnnl_eltwise_relu):
        return c.dnnl_eltwise_forward_primitive_desc_create(
            p, eng, c.dnnl_forward_training, alg, md, md, alpha, 0.0, None)

    for alpha in ("0.5", None, np.zeros(2), [0.5], 1e300):
        assert eltwise(alpha) == INVALID, alpha
        assert "alpha" in c.cydnnl_last_error()
    assert eltwise(0.5, 2 ** 70) == INVALID and "alg_kind" in c.cydnnl_last_error()
    assert eltwise(0.5, float(c.dnnl_eltwise_relu)) == INVALID
    for alpha in (np.float32(0.5), 1, np.int8(1), float("nan")):
        check(eltwise(alpha))
        c.dnnl_primitive_desc_destroy(p)
    for local_size in (5.0, "5", None, 2 ** 64):
        assert c.dnnl_lrn_forward_primitive_desc_create(
            p, eng, c.dnnl_forward_training, c.dnnl_lrn_across_channels, md, md, local_size,
            1e-4, 0.75, 1.0, None) == INVALID
        assert "local_size" in c.cydnnl_last_error()
    for strides in ([1.0, 1], [True, 1], "11", np.ones((2, 2), np.int64)):
        assert c.dnnl_pooling_forward_primitive_desc_create(
            p, eng, c.dnnl_forward_training, c.dnnl_pooling_max, md, md, strides, [1, 1],
            [0, 0], [0, 0], [0, 0], None) == INVALID
        assert "strides" in c.cydnnl_last_error()


def test_execute_with_odd_arguments(eng, strm):
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    src, dst = make_memory(md, eng), make_memory(md, eng)
    p, prim = c.dnnl_primitive_desc_t(), c.dnnl_primitive_t()
    check(c.dnnl_reorder_primitive_desc_create(p, md, eng, md, eng, None))
    check(c.dnnl_primitive_create(prim, p))
    good = [(c.DNNL_ARG_FROM, src), (c.DNNL_ARG_TO, dst)]
    cases = [
        (2, np.array([c.DNNL_ARG_FROM, c.DNNL_ARG_TO]), "args[0] must be a dnnl_exec_arg_t"),
        (2, {c.DNNL_ARG_FROM: src, c.DNNL_ARG_TO: dst}, "args must be a sequence, not dict"),
        (2, [(c.DNNL_ARG_FROM, src, 0), (c.DNNL_ARG_TO, dst)], "args[0] must be"),
        (2, [(c.DNNL_ARG_FROM,), (c.DNNL_ARG_TO, dst)], "args[0] must be"),
        (2, [("from", src), (c.DNNL_ARG_TO, dst)], "args[0].arg must be an int"),
        (2, [(2 ** 40, src), (c.DNNL_ARG_TO, dst)], "args[0].arg = "),
        (2, [(c.DNNL_ARG_FROM, np.zeros(6, np.float32)), (c.DNNL_ARG_TO, dst)],
         "args[0].memory must be a dnnl_memory_t"),
        (2, [src, dst], "args[0] must be a dnnl_exec_arg_t"),
        (2, None, "args must be a sequence"),
        (2, 5, "args must be a sequence"),
        (3, good, "nargs is 3 but 2 arguments"),
        (-1, good, "nargs is -1"),
        (2.0, good, "nargs must be an int"),
        (2 ** 40, good, "nargs = "),
        (np.array([2]), good, "nargs must be an int"),
    ]
    for nargs, args, why in cases:
        assert c.dnnl_primitive_execute(prim, strm, nargs, args) == INVALID, (nargs, args)
        assert why in c.cydnnl_last_error(), (args, c.cydnnl_last_error())
    # any sequence or iterable of well-formed pairs is fine
    check(c.dnnl_primitive_execute(prim, strm, 2, (a for a in good)))
    check(c.dnnl_primitive_execute(prim, strm, np.int64(2), tuple(good)))
    check(c.dnnl_primitive_execute(prim, strm, 2, [c.dnnl_exec_arg_t(a, m) for a, m in good]))
    for h in (prim, p, src, dst, md):
        {c.dnnl_primitive_t: c.dnnl_primitive_destroy,
         c.dnnl_primitive_desc_t: c.dnnl_primitive_desc_destroy,
         c.dnnl_memory_t: c.dnnl_memory_destroy,
         c.dnnl_memory_desc_t: c.dnnl_memory_desc_destroy}[type(h)](h)


def test_arrays_where_handles_are_expected(eng):
    a = np.zeros(4)
    assert c.dnnl_stream_wait(a) == INVALID
    assert "stream must be a dnnl_stream_t, not numpy.ndarray" in c.cydnnl_last_error()
    assert c.dnnl_memory_desc_get_size(a) == 0
    assert c.dnnl_memory_desc_equal(a, a) == 0
    assert c.cydnnl_md2str(a) == "" and c.cydnnl_memory_desc_extent(a) == 0
    assert c.dnnl_primitive_desc_query_md(a, c.dnnl_query_src_md, 0) is None
    assert c.dnnl_engine_create(a, c.dnnl_cpu, 0) == INVALID
    assert "engine must be a dnnl_engine_t to fill in, not numpy.ndarray" in \
        c.cydnnl_last_error()


# ------------------------------------------------------------ user buffers (item 4)

F32, BF16, S32, S8, U8, F16, F64 = (c.dnnl_f32, c.dnnl_bf16, c.dnnl_s32, c.dnnl_s8, c.dnnl_u8,
                                    c.dnnl_f16, c.dnnl_f64)
MATCHING = [(F32, np.float32), (BF16, np.uint16), (S32, np.int32), (S8, np.int8),
            (U8, np.uint8), (F16, np.float16), (F64, np.float64)]
MISMATCHING = [(F32, np.float64, "float64"), (F32, np.int32, "int32"),
               (F32, np.float16, "float16"), (BF16, np.float16, "float16"),
               (BF16, np.float32, "float32"), (BF16, np.int16, "int16"),
               (S32, np.float32, "float32"), (S32, np.int64, "int64"),
               (S32, np.uint32, "uint32"), (S8, np.int16, "int16"), (U8, np.int8, "int8"),
               (F16, np.uint16, "uint16"), (F64, np.float32, "float32"),
               (F64, np.int64, "int64"), (F32, ">f4", "format '>f'"),
               (F32, np.complex64, "format 'Zf'")]


def _id(v):
    """Test ids: data types by name ('f32'), dtypes by NumPy's name."""
    if isinstance(v, str):
        return v.replace(" ", "_").replace("'", "")
    return c.dnnl_dt2str(v) if isinstance(v, int) else np.dtype(v).name


def _md_of(data_type, n=8):
    return make_md([n], data_type, c.dnnl_a)


@pytest.mark.parametrize("data_type,dtype", MATCHING, ids=_id)
def test_buffer_of_the_memory_data_type_is_used_in_place(eng, data_type, dtype):
    md = _md_of(data_type)
    buf = np.zeros(8, dtype)
    for create in (lambda m: c.dnnl_memory_create(m, md, eng, buf),
                   lambda m: c.dnnl_memory_create_v2(m, md, eng, 1, [buf])):
        m = c.dnnl_memory_t()
        check(create(m))
        h = [None]
        check(c.dnnl_memory_get_data_handle(m, h))
        assert h[0].address == buf.ctypes.data
        other = np.zeros(8, dtype)
        check(c.dnnl_memory_set_data_handle(m, other))
        for raw in (bytearray(8 * buf.itemsize), np.zeros(8 * buf.itemsize, np.uint8), h[0]):
            check(c.dnnl_memory_set_data_handle(m, raw))   # raw bytes fit any type
        check(c.dnnl_memory_destroy(m))
    c.dnnl_memory_desc_destroy(md)


def test_bf16_buffer_of_ml_dtypes(eng):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    md = _md_of(BF16)
    m = make_memory(md, eng, np.zeros(8, ml_dtypes.bfloat16))
    assert c.dnnl_memory_set_data_handle(m, np.zeros(16, ml_dtypes.bfloat16)[::2]) == INVALID
    assert "C-contiguous" in c.cydnnl_last_error()
    assert c.dnnl_memory_set_data_handle(m, np.zeros(8, ml_dtypes.float8_e5m2)) == INVALID
    c.dnnl_memory_destroy(m)
    c.dnnl_memory_desc_destroy(md)


@pytest.mark.parametrize("data_type,dtype,named", MISMATCHING, ids=_id)
def test_buffer_of_another_data_type_is_refused(eng, data_type, dtype, named):
    md = _md_of(data_type)
    buf = np.zeros(16, dtype)                     # large enough either way
    m = c.dnnl_memory_t()
    assert c.dnnl_memory_create(m, md, eng, buf) == INVALID
    why = c.cydnnl_last_error()
    assert named in why and c.dnnl_dt2str(data_type) + " memory" in why, why
    assert c.dnnl_memory_create_v2(m, md, eng, 1, [buf]) == INVALID
    mem = make_memory(md, eng)
    assert c.dnnl_memory_set_data_handle(mem, buf) == INVALID
    assert named in c.cydnnl_last_error()
    assert c.dnnl_memory_set_data_handle_v2(mem, buf, 0) == INVALID
    c.dnnl_memory_destroy(mem)
    c.dnnl_memory_desc_destroy(md)


def test_buffer_shape_writability_and_size(eng):
    md = make_md([4, 6], F32, c.dnnl_ab)
    m = c.dnnl_memory_t()
    readonly = np.zeros(24, np.float32)
    readonly.flags.writeable = False
    cases = [
        (np.zeros((6, 4), np.float32).T, "C-contiguous"),
        (np.zeros(48, np.float32)[::2], "C-contiguous"),
        (np.zeros(24, np.float32)[::-1], "C-contiguous"),
        (np.zeros((4, 12), np.float32)[:, :6], "C-contiguous"),
        (readonly, "writable"),
        (bytes(96), "writable"),
        (np.zeros(23, np.float32), "the buffer holds 92 bytes; the memory descriptor needs 96"),
        (bytearray(95), "holds 95 bytes"),
        ("abc", "must be a buffer"),
        (12345, "raw addresses"),
        (3.5, "must be a buffer"),
        ([0.0] * 24, "must be a buffer"),
    ]
    for buf, why in cases:
        assert c.dnnl_memory_create(m, md, eng, buf) == INVALID, why
        assert why in c.cydnnl_last_error(), (why, c.cydnnl_last_error())
    check(c.dnnl_memory_create(m, md, eng, np.zeros((4, 6), np.float32)))
    check(c.dnnl_memory_create(m, md, eng, np.zeros((2, 24), np.float32)[:1]))  # C-contiguous
    c.dnnl_memory_destroy(m)
    c.dnnl_memory_desc_destroy(md)


def test_object_arrays_are_refused_not_crashing():
    out = run_isolated("""
import numpy as np, dnnl_c as c
from helpers import make_md
eng = c.dnnl_engine_t(); c.dnnl_engine_create(eng, c.dnnl_cpu, 0)
md = make_md([8], c.dnnl_f32, c.dnnl_a)
m = c.dnnl_memory_t()
arr = np.array([object()] * 8)
print(c.dnnl_memory_create(m, md, eng, arr), c.cydnnl_last_error())
c.dnnl_memory_create(m, md, eng, c.DNNL_MEMORY_ALLOCATE)
print(c.dnnl_memory_set_data_handle(m, arr), c.cydnnl_last_error())
""")
    lines = out.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert line.startswith("%d " % INVALID) and "format 'O'" in line, line


def test_object_layer_buffers():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = memory.desc([2, 3], dt.f32, tag.ab)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    m = memory(md, eng, a)
    assert np.array_equal(np.asarray(m), a)
    for buf, why in ((np.zeros((2, 3)), "float64"), (np.zeros((2, 3), object), "'O'"),
                     (np.zeros((3, 2), np.float32).T, "C-contiguous")):
        with pytest.raises(dnnl.error) as e:
            memory(md, eng, buf)
        assert e.value.status == INVALID and why in e.value.message, e.value.message
        with pytest.raises(dnnl.error) as e:
            m.set_data_handle(buf)
        assert e.value.status == INVALID and why in e.value.message, e.value.message
    m.write(np.ones((2, 3)))               # write() converts: float64 in is fine
    assert np.array_equal(m.read(), np.ones((2, 3), np.float32))


# ------------------------------------------------------------ object layer (item 6)


def _raises(fn, *words):
    with pytest.raises(dnnl.error) as e:
        fn()
    assert e.value.status == INVALID, e.value.message
    for w in words:
        assert w in e.value.message, e.value.message
    return e.value


def test_object_layer_names_the_wrong_argument(eng, strm):
    from dnnl import eltwise_forward, pooling_forward, reorder
    obj_eng, obj_strm = dnnl.engine(dnnl.engine.kind.cpu, 0), dnnl.stream(
        dnnl.engine(dnnl.engine.kind.cpu, 0))
    md = memory.desc([2, 3, 4, 4], dt.f32, tag.nchw)
    FT, RELU = prop_kind.forward_training, algorithm.eltwise_relu
    _raises(lambda: eltwise_forward.primitive_desc(obj_eng, FT, RELU, None, None, 0.0),
            "src_desc")
    _raises(lambda: eltwise_forward.primitive_desc(np.zeros(2), FT, RELU, md, md),
            "engine must be an engine, not numpy.ndarray")
    _raises(lambda: eltwise_forward.primitive_desc(obj_eng, FT, RELU, md, np.zeros(2)),
            "dst_desc must be a memory.desc, not numpy.ndarray")
    _raises(lambda: eltwise_forward.primitive_desc(obj_eng, "forward", RELU, md, md),
            "prop_kind must be an int, not str")
    _raises(lambda: eltwise_forward.primitive_desc(obj_eng, FT, RELU, md, md, "0.5"),
            "unexpected arguments: str")
    _raises(lambda: pooling_forward.primitive_desc(
        obj_eng, FT, algorithm.pooling_max, md, md, [1.5, 1], [1, 1], [0, 0], [0, 0], [0, 0]),
        "strides[0] must be an int, not float 1.5")
    pd = eltwise_forward.primitive_desc(obj_eng, FT, RELU, md, md, np.float32(0.0))
    prim = eltwise_forward(pd)
    src, dst = memory(md, obj_eng), memory(md, obj_eng)
    data = np.zeros((2, 3, 4, 4), np.float32)
    _raises(lambda: prim.execute(obj_strm, {c.DNNL_ARG_SRC: data, c.DNNL_ARG_DST: dst}),
            "must be a memory, not numpy.ndarray")
    _raises(lambda: prim.execute(obj_strm, [src, dst]), "must be a dict")
    _raises(lambda: prim.execute(np.zeros(1), {c.DNNL_ARG_SRC: src, c.DNNL_ARG_DST: dst}),
            "astream must be a stream")
    _raises(lambda: prim.execute(obj_strm, {"src": src, c.DNNL_ARG_DST: dst}),
            "arg must be an int")
    prim.execute(obj_strm, {np.int64(c.DNNL_ARG_SRC): src, c.DNNL_ARG_DST: dst})
    _raises(lambda: dnnl.primitive(np.zeros(2)), "pd must be a primitive_desc_base")
    _raises(lambda: memory(np.zeros(3), obj_eng), "md must be a memory.desc, not numpy.ndarray")
    _raises(lambda: memory(md, np.zeros(3)), "aengine must be an engine")
    _raises(lambda: dnnl.stream(np.zeros(3)), "aengine must be an engine")
    _raises(lambda: reorder(src, np.zeros(3)), "dst must be a memory, not numpy.ndarray")
    _raises(lambda: reorder.primitive_desc(obj_eng, md, obj_eng, "md"),
            "dst_md must be a memory.desc, not str")
    _raises(lambda: dnnl.engine(dnnl.engine.kind.cpu, 0.0), "index")
    _raises(lambda: dnnl.primitive_attr().set_scratchpad_mode("user"), "mode")


def test_memory_desc_constructor_arguments():
    _raises(lambda: memory.desc([2, 3], dt.f32, [3, 1, 1]), "3 strides for 2 dims")
    _raises(lambda: memory.desc([2, 3], dt.f32, [1]), "1 strides for 2 dims")
    _raises(lambda: memory.desc([2, 3], dt.f32, "ab"),
            "a memory.format_tag or a list of strides, not str")
    _raises(lambda: memory.desc([2, 3], dt.f32, None), "not NoneType")
    _raises(lambda: memory.desc([2, "3"], dt.f32, tag.ab), "dims[1] must be an int, not str")
    _raises(lambda: memory.desc([2, True], dt.f32, tag.ab), "dims[1] must be an int, not bool")
    _raises(lambda: memory.desc(6, dt.f32, tag.a), "dims must be a sequence of ints, not int")
    _raises(lambda: memory.desc([2, 3], "f32", tag.ab), "data_type must be an int, not str")
    _raises(lambda: memory.desc([2, 3], dt.f32, [3.0, 1]), "strides[0] must be an int")
    # NumPy integers are ints: as dims, as the tag, as strides
    a = memory.desc(np.array([2, 3]), dt.f32, np.int64(tag.ab))
    b = memory.desc([np.int32(2), 3], np.int8(dt.f32), np.array([3, 1]))
    assert a == b == memory.desc([2, 3], dt.f32, tag.ab)
