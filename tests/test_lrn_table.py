"""LRN on the shared harness: a table of cases and a float64 NumPy reference
written from oneDNN's definitions (doc/primitives/lrn.md, ref_lrn.cpp);
across and within channel, forward and backward, f32 and bf16, plain,
channels-last, blocked and `any` layouts, 0-D to 3-D spatial, odd shapes,
even and odd local sizes; then the generic bad-input cases."""

import itertools

import numpy as np
import pytest

import dnnl
import dnnl_c as c
import harness as H
from harness import ATTR, ENGINE, HINT, Md

# ------------------------------------------------------------ reference
#   dst = src * omega^-beta,  omega = k + alpha / n * sum over the window of src^2
# n = local_size (across) or local_size^spatial dims (within); windows of
# (local_size - 1) / 2 either side, clipped at the borders (the divisor stays).


def window_sum(v, across, ls):
    half = (ls - 1) // 2
    axes = [1] if across else list(range(2, v.ndim))
    out = np.zeros_like(v)
    for offsets in itertools.product(*[range(-half, half + 1) for _ in axes]):
        src, dst = [slice(None)] * v.ndim, [slice(None)] * v.ndim
        for a, o in zip(axes, offsets):
            n = v.shape[a]
            if abs(o) >= n:
                break
            src[a] = slice(max(o, 0), n + min(o, 0))
            dst[a] = slice(max(-o, 0), n + min(-o, 0))
        else:
            out[tuple(dst)] += v[tuple(src)]
    return out


def lrn_params(case):
    return case.alg == "across", case.ls, case.get("alpha", 0.8), case.get("beta", 0.75), \
        case.get("k", 1.2)


def omega(case, x):
    across, ls, alpha, _, k = lrn_params(case)
    n = ls if across else ls ** (x.ndim - 2)
    return k + alpha / n * window_sum(x * x, across, ls)


def ref_fwd(case, src):
    beta = lrn_params(case)[3]
    return {"dst": src * omega(case, src) ** -beta}


def ref_bwd(case, src, diff_dst):
    """d/dsrc_j of sum_i diff_dst_i dst_i: src_j enters dst_j directly and
    omega_i of every i whose window holds j (windows are symmetric, so the i
    in j's own window)."""
    across, ls, alpha, beta, _ = lrn_params(case)
    n = ls if across else ls ** (src.ndim - 2)
    om = omega(case, src)
    q = diff_dst * src * om ** (-beta - 1)
    return {"diff_src": diff_dst * om ** -beta
            - 2 * alpha * beta / n * src * window_sum(q, across, ls)}


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
