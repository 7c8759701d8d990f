"""LRN on the shared harness: a table of cases and a float64 NumPy reference
written from oneDNN's definitions (doc/primitives/lrn.md, ref_lrn.cpp);
across and within channel, forward and backward, f32 and bf16, plain,
channels-last, blocked and `any` layouts, 0-D to 3-D spatial, odd shapes,
even and odd local sizes; then the generic bad-input cases."""

import pytest

import dnnl
import dnnl_c as c
import harness as H
from dnnl.benchdnn import ref_lrn as R
from harness import ATTR, ENGINE, HINT, Md

# ------------------------------------------------------------ reference
#   dst = src * omega^-beta,  omega = k + alpha / n * sum over the window of src^2
# n = local_size (across) or local_size^spatial dims (within); windows of
# (local_size - 1) / 2 either side, clipped at the borders (the divisor stays):
# dnnl.benchdnn's reference (dnnl/benchdnn/ref_lrn.py).


def lrn_params(case):
    return case.alg == "across", case.ls, case.get("alpha", 0.8), case.get("beta", 0.75), \
        case.get("k", 1.2)


def ref_fwd(case, src):
    across, ls, alpha, beta, k = lrn_params(case)
    return {"dst": R.lrn_fwd(src, across, ls, alpha, beta, k)}


def ref_bwd(case, src, diff_dst):
    across, ls, alpha, beta, k = lrn_params(case)
    return {"diff_src": R.lrn_bwd(src, diff_dst, across, ls, alpha, beta, k)}


def gen(case, rng):
    return {"src": rng.uniform(-2, 2, case.shape), "diff_dst": rng.uniform(-1, 1, case.shape)}


# ------------------------------------------------------------ the primitives


def alg_kind(case):
    return c.dnnl_lrn_across_channels if case.alg == "across" else c.dnnl_lrn_within_channel


def fwd_args(case):
    _, ls, alpha, beta, k = lrn_params(case)
    return [("engine", ENGINE), ("prop_kind", H.prop_kind(case)),
            ("alg_kind", alg_kind(case)), ("src_desc", Md("src")), ("dst_desc", Md("dst")),
            ("local_size", ls), ("alpha", alpha), ("beta", beta), ("k", k), ("attr", ATTR)]


def bwd_args(case):
    _, ls, alpha, beta, k = lrn_params(case)
    return [("engine", ENGINE), ("alg_kind", alg_kind(case)), ("diff_src_desc", Md("diff_src")),
            ("diff_dst_desc", Md("diff_dst")), ("src_desc", Md("src")), ("local_size", ls),
            ("alpha", alpha), ("beta", beta), ("k", k), ("hint_fwd_pd", HINT), ("attr", ATTR)]


FWD = H.Op("lrn_forward", c.dnnl_lrn_forward_primitive_desc_create, fwd_args,
           inputs={"src": c.DNNL_ARG_SRC}, outputs={"dst": c.DNNL_ARG_DST},
           reference=ref_fwd, generate=gen, concrete=("src",),
           obj_pd=dnnl.lrn_forward.primitive_desc, obj_prim=dnnl.lrn_forward,
           tol={"f32": (2e-6, 1e-6)})
BWD = H.Op("lrn_backward", c.dnnl_lrn_backward_primitive_desc_create, bwd_args,
           inputs={"src": c.DNNL_ARG_SRC, "diff_dst": c.DNNL_ARG_DIFF_DST},
           outputs={"diff_src": c.DNNL_ARG_DIFF_SRC}, reference=ref_bwd, generate=gen,
           hint=FWD, concrete=("src",), obj_pd=dnnl.lrn_backward.primitive_desc,
           obj_prim=dnnl.lrn_backward,
           tol={"f32": (1e-5, 1e-5), "bf16": (H.BF16_TOL[0], 1e-5)})

# ------------------------------------------------------------ the tables

DIMS = [2, 13, 5, 4]
LAYOUTS = ["plain", "cl", "b8", "b16", "any", "b16:any", "b8:cl"]
DTS = ["f32", "bf16"]
ALGS = ["across", "within"]
ODD = [[1, 3, 7, 2], [1, 17, 6, 6], [2, 13, 9], [2, 13, 3, 4, 5], [3, 11]]

CASES = H.unique(
    # every layout and data type
    H.product(alg=ALGS, ls=[5], dt=DTS, layout=LAYOUTS, shape=[DIMS]),
    # local sizes (even, 1, wider than the tensor) and betas
    H.product(alg=ALGS, ls=[1, 4, 7, 31], beta=[0.75, 0.6], dt=["f32"],
              layout=["plain", "b8"], shape=[DIMS]),
    H.product(alg=ALGS, ls=[3], beta=[1.0], k=[2.0, 14.2], dt=DTS, layout=["b16"],
              shape=[DIMS]),
    # odd shapes: batch 1, odd channels, non-square, 0-D/1-D/3-D spatial
    H.product(alg=ALGS, ls=[3, 5], dt=DTS, layout=["plain", "cl", "b16", "any", "cn"],
              shape=ODD),
    # the direct backward at AVX-512 (16-channel vectors, windows up to 16
    # either side): two whole vectors and a tail, windows of 15, 16 and 17
    # (past its limit: tiles), and more channels than it takes (tiles)
    H.product(alg=["across"], ls=[31, 33, 35], dt=DTS, layout=["cl", "b16"],
              shape=[[2, 35, 3, 2]]),
    H.product(alg=["across"], ls=[5], dt=["f32"], layout=["cl", "b16"], shape=[[1, 1030, 2, 1]]),
)
FWD_CASES = CASES + H.product(alg=ALGS, ls=[5], dt=DTS, layout=["b8"], shape=[DIMS],
                              prop=["forward_inference"])

def api(case):
    return "both" if case.get("layout") in ("b16:any", "cn") else "c"


@pytest.mark.parametrize("case", FWD_CASES, ids=H.case_id)
def test_forward(case):
    H.run(FWD, case, api(case))


@pytest.mark.parametrize("case", CASES, ids=H.case_id)
def test_backward(case):
    H.run(BWD, case, api(case))


# ------------------------------------------------------------ bad input

BASE = H.Case(alg="across", ls=5, dt="f32", layout="plain", shape=DIMS)


@pytest.mark.parametrize("op,case,name", H.bad_input_params([(FWD, BASE), (BWD, BASE)]))
def test_bad_input(op, case, name):
    H.check_bad_input(op, case, name)
