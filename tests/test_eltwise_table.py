"""Eltwise on the shared harness: a table of cases and a float64 NumPy
reference written from oneDNN's formulas (doc/primitives/eltwise.md,
dnnl/benchdnn/ref_eltwise.py); every
algorithm forward and backward (src- and dst-based), f32 and bf16, plain,
channels-last, blocked and `any` layouts, odd shapes; then the generic
bad-input cases."""

import numpy as np
import pytest

import dnnl
import dnnl_c as c
import harness as H
from dnnl.benchdnn import ref_eltwise as R
from harness import ATTR, ENGINE, HINT, Md

# ------------------------------------------------------------ reference
# The formulas are dnnl.benchdnn's references (float64 NumPy written from
# doc/primitives/eltwise.md): ref_eltwise.FWD, DERIV and DERIV_DST.

# name: (domain of src, alpha, beta, kinks(a, b) to keep src away from)
CASES = {
    "relu": ("any", 0.2, 0.0, [0]), "tanh": ("any", 0, 0, []), "elu": ("any", 0.7, 0, [0]),
    "square": ("any", 0, 0, []), "abs": ("any", 0, 0, [0]), "sqrt": ("pos", 0, 0, []),
    "linear": ("any", 1.5, -0.5, []), "soft_relu": ("any", 1.5, 0, []),
    "hardsigmoid": ("any", 0.25, 0.5, [-2, 2]), "logistic": ("any", 0, 0, []),
    "exp": ("any", 0, 0, []), "gelu_tanh": ("any", 0, 0, []), "swish": ("any", 1.3, 0, []),
    "log": ("pos", 0, 0, []), "clip": ("any", -0.5, 0.8, [-0.5, 0.8]),
    "clip_v2": ("any", -0.5, 0.8, [-0.5, 0.8]), "pow": ("pos", 1.5, 2.5, []),
    "gelu_erf": ("any", 0, 0, []), "round": ("any", 0, 0, []), "mish": ("any", 0, 0, []),
    "hardswish": ("any", 1 / 6, 0.5, [-3, 3]),
}
# name: (forward(s, a, b), d forward / ds (s, a, b), domain, alpha, beta, kinks)
ALGS = {name: (R.FWD[name], R.DERIV.get(name)) + CASES[name] for name in CASES}
# backward written with dst, for the *_use_dst_for_bwd algorithms
USE_DST = R.DERIV_DST
FWD_ALGS = sorted(ALGS) + sorted(n + "_use_dst_for_bwd" for n in USE_DST)
BWD_ALGS = sorted(n for n in ALGS if ALGS[n][1] is not None)
BWD_DST_ALGS = sorted(n + "_use_dst_for_bwd" for n in USE_DST)


def base(alg):
    return alg.replace("_use_dst_for_bwd", "")


def alpha_beta(case):
    _, _, _, a, b, _ = ALGS[base(case.alg)]
    return a, b


def ref_fwd(case, src):
    a, b = alpha_beta(case)
    return {"dst": ALGS[base(case.alg)][0](src, a, b)}


def ref_bwd(case, src, diff_dst):
    a, b = alpha_beta(case)
    return {"diff_src": diff_dst * ALGS[case.alg][1](src, a, b)}


def ref_bwd_use_dst(case, dst, diff_dst):
    a, b = alpha_beta(case)
    return {"diff_src": diff_dst * USE_DST[base(case.alg)](dst, a, b)}


def source(case, rng):
    """src in the algorithm's domain, away from its kinks (where rounding
    decides the branch)."""
    _, _, domain, a, b, kinks = ALGS[base(case.alg)]
    x = rng.uniform(-3, 3, case.shape)
    if domain == "pos":
        x = np.abs(x) + 0.1
    for k in kinks + [0]:
        near = np.abs(x - k) < 0.02
        x[near] = k + np.copysign(0.02 + rng.uniform(0, 0.5, near.sum()), x[near] - k)
    return x


def gen_fwd(case, rng):
    return {"src": source(case, rng)}


def gen_bwd(case, rng):
    return {"src": source(case, rng), "diff_dst": rng.uniform(-1, 1, case.shape)}


def gen_bwd_use_dst(case, rng):
    a, b = alpha_beta(case)
    return {"dst": ALGS[base(case.alg)][0](source(case, rng), a, b),
            "diff_dst": rng.uniform(-1, 1, case.shape)}


# ------------------------------------------------------------ the primitives


def alg_kind(case):
    return getattr(c, "dnnl_eltwise_" + case.alg)


def fwd_args(case):
    a, b = alpha_beta(case)
    return [("engine", ENGINE), ("prop_kind", H.prop_kind(case)),
            ("alg_kind", alg_kind(case)), ("src_desc", Md("src")), ("dst_desc", Md("dst")),
            ("alpha", a), ("beta", b), ("attr", ATTR)]


def bwd_args(data):
    def args(case):
        a, b = alpha_beta(case)
        return [("engine", ENGINE), ("alg_kind", alg_kind(case)),
                ("diff_src_desc", Md("diff_src")), ("diff_dst_desc", Md("diff_dst")),
                ("data_desc", Md(data)), ("alpha", a), ("beta", b), ("hint_fwd_pd", HINT),
                ("attr", ATTR)]
    return args


FWD = H.Op("eltwise_forward", c.dnnl_eltwise_forward_primitive_desc_create, fwd_args,
           inputs={"src": c.DNNL_ARG_SRC}, outputs={"dst": c.DNNL_ARG_DST},
           reference=ref_fwd, generate=gen_fwd, concrete=("src",),
           obj_pd=dnnl.eltwise_forward.primitive_desc, obj_prim=dnnl.eltwise_forward,
           tol={"f32": (2e-6, 2e-6), "bf16": (H.BF16_TOL[0], 2e-6)})
BWD = H.Op("eltwise_backward", c.dnnl_eltwise_backward_primitive_desc_create, bwd_args("src"),
           inputs={"src": c.DNNL_ARG_SRC, "diff_dst": c.DNNL_ARG_DIFF_DST},
           outputs={"diff_src": c.DNNL_ARG_DIFF_SRC}, reference=ref_bwd, generate=gen_bwd,
           hint=FWD, concrete=("src",), obj_pd=dnnl.eltwise_backward.primitive_desc,
           obj_prim=dnnl.eltwise_backward,
           tol={"f32": (1e-5, 1e-5), "bf16": (H.BF16_TOL[0], 1e-5)})
BWD_USE_DST = H.Op("eltwise_backward_use_dst", c.dnnl_eltwise_backward_primitive_desc_create,
                   bwd_args("dst"), inputs={"dst": c.DNNL_ARG_DST,
                                            "diff_dst": c.DNNL_ARG_DIFF_DST},
                   outputs={"diff_src": c.DNNL_ARG_DIFF_SRC}, reference=ref_bwd_use_dst,
                   generate=gen_bwd_use_dst, hint=FWD, concrete=("src", "dst"),
                   obj_pd=dnnl.eltwise_backward.primitive_desc, obj_prim=dnnl.eltwise_backward,
                   tol={"f32": (1e-5, 1e-5), "bf16": (H.BF16_TOL[0], 1e-5)})

# ------------------------------------------------------------ the tables

DIMS = [2, 11, 3, 5]
LAYOUTS = ["plain", "cl", "b8", "b16", "any", "b16:any", "b8:cl"]
ODD = [[1, 3, 7, 2], [1, 17, 5], [3, 5], [2, 5, 3, 2, 4], [1, 1, 1, 1]]
ODD_LAYOUTS = ["plain", "cl", "b16", "any", "ba"]
ODD_ALGS = ["relu", "gelu_erf", "clip_v2", "hardswish", "logistic_use_dst_for_bwd"]
DTS = ["f32", "bf16"]


def table(algs):
    return H.unique(
        H.product(alg=algs, dt=DTS, layout=LAYOUTS, shape=[DIMS]),
        H.product(alg=[a for a in ODD_ALGS if a in algs], dt=DTS, layout=ODD_LAYOUTS,
                  shape=ODD))


FWD_CASES = table(FWD_ALGS) + H.product(alg=["relu", "exp"], dt=DTS, layout=["b16"],
                                        shape=[DIMS], prop=["forward_inference"])
BWD_CASES = table(BWD_ALGS)
BWD_DST_CASES = table(BWD_DST_ALGS)
# the object layer walks the same implementations on a slice of the tables
OBJ = {("f32", "b16:any"), ("bf16", "plain")}


def api(case):
    return "both" if (case.dt, case.layout) in OBJ else "c"


@pytest.mark.parametrize("case", FWD_CASES, ids=H.case_id)
def test_forward(case):
    H.run(FWD, case, api(case))


@pytest.mark.parametrize("case", BWD_CASES, ids=H.case_id)
def test_backward(case):
    H.run(BWD, case, api(case))


@pytest.mark.parametrize("case", BWD_DST_CASES, ids=H.case_id)
def test_backward_use_dst(case):
    H.run(BWD_USE_DST, case, api(case))


# ------------------------------------------------------------ bad input

BASE = H.Case(alg="relu", dt="f32", layout="plain", shape=DIMS)
BASE_DST = BASE.replace(alg="relu_use_dst_for_bwd")


@pytest.mark.parametrize("op,case,name", H.bad_input_params(
    [(FWD, BASE), (BWD, BASE), (BWD_USE_DST, BASE_DST)]))
def test_bad_input(op, case, name):
    H.check_bad_input(op, case, name)
