"""The harness itself: its layout model agrees with helpers' independent one,
and tests built on it fail when they should (a wrong reference, one wrong
element, a bf16 result one ulp off, unzeroed padding, an unwritten output, a
wrong expected status), naming the implementation that failed."""

import numpy as np
import pytest

import dnnl_c as c
import harness as H
import test_eltwise_table as E
from helpers import from_layout, make_md, to_layout

# ------------------------------------------------------------ layouts and tables

TAGS = [([2, 13, 3, 5], "abcd"), ([2, 13, 3, 5], "acdb"), ([2, 13, 3, 5], "aBcd8b"),
        ([2, 13, 3, 5], "aBcd16b"), ([19, 13, 3, 3], "ABcd8b8a"), ([19, 13, 3, 3], "Acdb8a"),
        ([2, 9, 13, 3, 3], "aBCde8c8b"), ([3, 17, 4], "aBc16b"), ([5, 7], "ba"),
        ([17, 19, 3], "BAc16a16b"), ([17, 19, 3, 3], "ABcd4b16a4b")]


@pytest.mark.parametrize("dims,name", TAGS, ids=[t[1] for t in TAGS])
@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_layout_model_matches_helpers(dims, name, dt):
    md = make_md(dims, H.DT[dt], getattr(c, "dnnl_" + name))
    lay = H.Layout(md)
    x = H.round_to(np.random.default_rng(0).standard_normal(dims), H.DT[dt])
    buf = lay.pack(x)
    assert buf.nbytes == c.dnnl_memory_desc_get_size(md)
    expected = to_layout(lay.encode(x), name)
    np.testing.assert_array_equal(buf[:expected.size], expected)
    np.testing.assert_array_equal(lay.unpack(buf), x)
    assert lay.dense and lay.padding.sum() == lay.nelems - x.size


def test_layout_model_of_a_sub_memory():
    parent_dims = [2, 24, 5, 6]
    x = np.random.default_rng(1).standard_normal(parent_dims).astype(np.float32)
    parent = make_md(parent_dims, c.dnnl_f32, c.dnnl_aBcd8b)
    sub = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_submemory(sub, parent, [2, 16, 3, 6], [0, 8, 1, 0]) == 0
    buf = to_layout(x, "aBcd8b").copy()
    np.testing.assert_array_equal(H.Layout(sub).unpack(buf), x[:, 8:24, 1:4])
    np.testing.assert_array_equal(from_layout(buf, "aBcd8b", parent_dims), x)


def test_layout_names():
    assert H.tag_of("plain", 4) == c.dnnl_abcd and H.tag_of("cl", 3) == c.dnnl_acb
    assert H.tag_of("b16", 5) == c.dnnl_aBcde16b and H.tag_of("nChw8c", 4) == c.dnnl_aBcd8b
    assert H.tag_of("any", 2) == c.dnnl_format_tag_any
    assert H.tag_of("b8", 2) is None and H.tag_of("nChw8c", 3) is None
    op = E.FWD
    case = H.Case(layout="b16:any")
    assert (op.tensor_layout(case, "src"), op.tensor_layout(case, "dst")) == ("b16", "any")
    case = H.Case(layout="any")
    assert (op.tensor_layout(case, "src"), op.tensor_layout(case, "dst")) == ("plain", "any")


def test_tables_drop_missing_layouts_and_keep_ids_unique():
    rows = H.product(alg=["relu"], layout=["plain", "b8"], shape=[[2, 3, 4, 5], [3, 5]])
    assert [r.id for r in rows] == ["relu-plain-2x3x4x5", "relu-plain-3x5", "relu-b8-2x3x4x5"]
    both = H.unique(rows, rows[:1])
    assert len(both) == 3
    for table in (E.FWD_CASES, E.BWD_CASES, E.BWD_DST_CASES):
        ids = [case.id for case in table]
        assert len(ids) == len(set(ids))


# ------------------------------------------------------------ walking implementations

RELU = H.Case(alg="relu", dt="f32", layout="plain", shape=[2, 11, 3, 5])
GELU_BF16 = H.Case(alg="gelu_tanh", dt="bf16", layout="b16", shape=[2, 11, 3, 5])


def every_impl(op, case):
    """The implementation names, walked by hand through dnnl_c."""
    handles = H._Handles()
    _, values = H._c_values(op, case, handles)
    pd = c.dnnl_primitive_desc_t()
    assert op.c_create(pd, *values) == c.dnnl_success
    handles.close()
    names = []
    while True:
        out = [None]
        assert c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out) == 0
        names.append(out[0])
        st = c.dnnl_primitive_desc_next_impl(pd)
        if st == c.dnnl_last_impl_reached:
            break
        assert st == c.dnnl_success
    c.dnnl_primitive_desc_destroy(pd)
    return names


@pytest.mark.parametrize("op,case", [(E.FWD, RELU), (E.BWD, RELU), (E.FWD, GELU_BF16)])
def test_run_walks_every_implementation_through_both_apis(op, case):
    names = H.run(op, case, "both")
    assert names == every_impl(op, case)
    assert len(names) >= 1


def variant(op, reference):
    return H.Op(op.name, op.c_create, op.args, op.inputs, op.outputs, reference,
                obj_pd=op.obj_pd, obj_prim=op.obj_prim, hint=op.hint, dims=op.dims,
                generate=op.generate, tol=op.tol, concrete=op.concrete)


def wrong_by(factor):
    def make(op):
        def reference(case, **inputs):
            return {k: v * factor for k, v in op.reference(case, **inputs).items()}
        return variant(op, reference)
    return make


def wrong_element(op):
    def reference(case, **inputs):
        out = {k: np.array(v, float) for k, v in op.reference(case, **inputs).items()}
        for v in out.values():
            flat = v.reshape(-1)
            flat[flat.size // 2] += np.copysign(0.05, flat[flat.size // 2])
        return out
    return variant(op, reference)


@pytest.mark.parametrize("wrong", [wrong_by(-1), wrong_by(1.001), wrong_element],
                         ids=["sign", "0.1%", "one-element"])
@pytest.mark.parametrize("api", ["c", "obj"])
@pytest.mark.parametrize("op", [E.FWD, E.BWD], ids=lambda op: op.name)
def test_a_wrong_reference_fails_naming_each_implementation(op, api, wrong):
    with pytest.raises(AssertionError) as e:
        H.run(wrong(op), RELU, api)
    message = str(e.value)
    for impl in every_impl(op, RELU):
        assert "implementation %r" % impl in message
    assert ("via dnnl_c" if api == "c" else "via dnnl,") in message
    assert "relu-f32-plain-2x11x3x5" in message


def test_bf16_one_ulp_off_fails():
    """The bf16 tolerance is half an ulp of the exact value, so a reference
    off by one bf16 ulp (2^-7 relative) is caught."""
    H.run(E.FWD, GELU_BF16)
    with pytest.raises(AssertionError, match="ref:any"):
        H.run(wrong_by(1 + 2 ** -7)(E.FWD), GELU_BF16)


def test_a_failing_creation_is_reported():
    case = H.Case(alg="clip", dt="f32", layout="plain", shape=[2, 3])
    bad = H.Op("clip", E.FWD.c_create,
               lambda case: [(n, (1.0 if n == "alpha" else 0.0) if n in ("alpha", "beta")
                              else v) for n, v in E.fwd_args(case)],
               E.FWD.inputs, E.FWD.outputs, E.ref_fwd, generate=E.gen_fwd,
               obj_pd=E.FWD.obj_pd, obj_prim=E.FWD.obj_prim, concrete=("src",))
    with pytest.raises(AssertionError, match="invalid_arguments"):
        H.run(bad, case)
    with pytest.raises(AssertionError, match="invalid_arguments"):
        H.run(bad, case, "obj")


# ------------------------------------------------------------ comparing outputs

def test_compare_catches_unwritten_outputs_and_unzeroed_padding():
    dims = [2, 13, 3, 5]
    lay = H.Layout(make_md(dims, c.dnnl_f32, c.dnnl_aBcd8b))
    want = np.random.default_rng(2).standard_normal(dims)
    good = lay.pack(want)
    assert H.compare("dst", lay, good, want, H.F32_TOL) == []
    assert H.compare("dst", lay, lay.garbage(), want, H.F32_TOL)      # never written
    dirty = good.copy()
    dirty[lay.padding] = 1.0
    problems = H.compare("dst", lay, dirty, want, H.F32_TOL)
    assert len(problems) == 1 and "padding" in problems[0]
    assert H.compare("dst", lay, dirty, want, H.F32_TOL, check_padding=False) == []
    one_off = good.copy()
    one_off[lay.offsets[1, 12, 2, 4]] += 1e-3
    assert "1 / 390" in H.compare("dst", lay, one_off, want, H.F32_TOL)[0]


def test_compare_integers_exactly():
    dims = [2, 5, 3, 3]
    lay = H.Layout(make_md(dims, c.dnnl_u8, c.dnnl_aBcd16b))
    want = np.random.default_rng(3).integers(0, 9, dims)
    buf = lay.pack(want)
    assert H.compare("workspace", lay, buf, want, H.F32_TOL) == []
    buf[lay.offsets[0, 0, 0, 0]] += 1
    assert H.compare("workspace", lay, buf, want, H.F32_TOL)


# ------------------------------------------------------------ bad input

def test_bad_input_checks_can_fail():
    strict = H.Op(E.FWD.name, E.FWD.c_create, E.fwd_args, E.FWD.inputs, E.FWD.outputs,
                  E.ref_fwd, obj_pd=E.FWD.obj_pd, obj_prim=E.FWD.obj_prim,
                  bad_status={"c-null-src_desc": c.dnnl_success,
                              "c-dims-dst_desc": c.dnnl_unimplemented,
                              "c-s8": c.dnnl_invalid_arguments,
                              "c-exec-missing-dst": c.dnnl_success,
                              "obj-dims-dst_desc": c.dnnl_unimplemented,
                              "obj-exec-missing-src": c.dnnl_unimplemented})
    for name in ("c-null-src_desc", "c-dims-dst_desc", "c-s8", "c-exec-missing-dst",
                 "obj-dims-dst_desc", "obj-exec-missing-src"):
        H.check_bad_input(E.FWD, RELU, name)
        with pytest.raises(AssertionError, match=name):
            H.check_bad_input(strict, RELU, name)


def test_bad_input_needs_a_valid_case():
    broken = RELU.replace(shape=[2, -3])
    with pytest.raises(AssertionError):
        H.check_bad_input(E.FWD, broken, "c-dims-dst_desc")
