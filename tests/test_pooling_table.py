"""Pooling on the shared harness: a table of cases and a float64 NumPy
reference written from oneDNN's definitions (doc/primitives/pooling.md,
ref_pooling.cpp): max (the workspace holds the flat kernel index of the
first maximum), average including and excluding padding; forward and
backward, f32 and bf16, plain, channels-last, blocked and `any` layouts,
1-D to 3-D, strides, dilation, asymmetric and negative padding; then the
generic bad-input cases."""

import itertools

import numpy as np
import pytest

import dnnl
import dnnl_c as c
import harness as H
from harness import ATTR, ENGINE, HINT, Md

F32_LOWEST = -float(np.finfo(np.float32).max)


class Pool:
    """A pooling problem; dilation 0 is dense, as in oneDNN."""

    def __init__(self, mb, ic, i, k, s, d=None, pl=None, pr=None):
        sp = len(i)
        self.mb, self.ic, self.i, self.k, self.s = mb, ic, list(i), list(k), list(s)
        self.d = list(d) if d is not None else [0] * sp
        self.pl = list(pl) if pl is not None else [0] * sp
        self.pr = list(pr) if pr is not None else list(self.pl)
        self.o = [(i - self.extent(j) + pl + pr) // s + 1
                  for j, (i, s, pl, pr) in enumerate(zip(self.i, self.s, self.pl, self.pr))]
        self.name = "mb%dic%d_i%s_k%s_s%s_d%s_p%s_%s" % (
            mb, ic, *("x".join(map(str, v)) for v in (self.i, self.k, self.s, self.d,
                                                      self.pl, self.pr)))

    def extent(self, j):
        return (self.k[j] - 1) * (self.d[j] + 1) + 1

    def dims(self):
        src, dst = [self.mb, self.ic] + self.i, [self.mb, self.ic] + self.o
        return {"src": src, "dst": dst, "diff_src": src, "diff_dst": dst, "workspace": dst}


PROBLEMS = [
    Pool(1, 3, [7, 9], [3, 2], [2, 3], [0, 0], [1, 0], [0, 1]),        # batch 1, non-square
    Pool(2, 13, [11, 8], [3, 3], [1, 2], [1, 0], [2, 1], [1, 2]),      # dilation, asym. pad
    Pool(2, 17, [10, 10], [2, 2], [2, 2], [2, 1], [0, 1], [0, 0]),     # dilated taps
    Pool(1, 17, [9], [4], [3], [0], [3], [-2]),                        # 1-D, negative pad_r
    Pool(2, 5, [5, 6, 7], [2, 3, 2], [2, 1, 3], [1, 0, 0], [1, 1, 0], [0, 1, 1]),  # 3-D
    Pool(1, 16, [6, 6], [6, 6], [1, 1]),                               # global
]

# ------------------------------------------------------------ reference


def taps(p):
    """For each kernel tap (flat index, kd-kh-kw order): the slices of the
    zero-padded src every output reads at that tap, and which are inside."""
    size = [max(pl + i, (o - 1) * s + p.extent(j))
            for j, (pl, i, o, s) in enumerate(zip(p.pl, p.i, p.o, p.s))]
    inner = tuple(slice(pl, pl + i) for pl, i in zip(p.pl, p.i))
    inside = np.zeros(size, bool)
    inside[inner] = True
    out = []
    for t, ks in enumerate(itertools.product(*[range(k) for k in p.k])):
        sl = tuple(slice(kk * (d + 1), kk * (d + 1) + (o - 1) * s + 1, s)
                   for kk, d, o, s in zip(ks, p.d, p.o, p.s))
        out.append((t, (slice(None), slice(None)) + sl, inside[sl]))
    return out, size, (slice(None), slice(None)) + inner


def pool_fwd(p, alg, x):
    t_list, size, inner = taps(p)
    xp = np.zeros([p.mb, p.ic] + size)
    xp[inner] = x
    shape = [p.mb, p.ic] + p.o
    best, ws = np.full(shape, F32_LOWEST), np.zeros(shape)
    total, count = np.zeros(shape), np.zeros(p.o)
    for t, sl, m in t_list:
        v = xp[sl]
        better = m & (v > best)                 # strict: the first maximum wins
        best, ws = np.where(better, v, best), np.where(better, t, ws)
        total += np.where(m, v, 0)
        count += m
    if alg == "max":
        return best, ws
    return total / (np.prod(p.k) if alg == "avg_include_padding" else count), None


def pool_bwd(p, alg, diff_dst, ws):
    t_list, size, inner = taps(p)
    count = sum(m.astype(float) for _, _, m in t_list)
    div = np.prod(p.k) if alg == "avg_include_padding" else count
    grad = np.zeros([p.mb, p.ic] + size)
    for t, sl, m in t_list:
        if alg == "max":
            grad[sl] += np.where(m & (ws == t), diff_dst, 0)
        else:
            grad[sl] += np.where(m, diff_dst / div, 0)
    return grad[inner]


def ref_fwd(case, src):
    dst, ws = pool_fwd(case.p, case.alg, src)
    training = case.get("prop", "forward_training") == "forward_training"
    return {"dst": dst, **({"workspace": ws} if ws is not None and training else {})}


def ref_bwd(case, diff_dst, workspace=None):
    return {"diff_src": pool_bwd(case.p, case.alg, diff_dst, workspace)}


def gen_fwd(case, rng):
    return {"src": rng.standard_normal(case.p.dims()["src"]) * 3}


def gen_bwd(case, rng):
    """diff_dst, and the workspace a forward pass on random (bf16) src gives."""
    src = H.round_to(rng.standard_normal(case.p.dims()["src"]) * 3, H.dt_of(case.dt))
    return {"diff_dst": rng.standard_normal(case.p.dims()["dst"]) * 3,
            "workspace": pool_fwd(case.p, "max", src)[1]}


# ------------------------------------------------------------ the primitives


def geometry(case):
    p = case.p
    return [("strides", p.s), ("kernel", p.k), ("dilation", p.d), ("padding_l", p.pl),
            ("padding_r", p.pr)]


def fwd_args(case):
    return [("engine", ENGINE), ("prop_kind", H.prop_kind(case)),
            ("alg_kind", getattr(c, "dnnl_pooling_" + case.alg)), ("src_desc", Md("src")),
            ("dst_desc", Md("dst"))] + geometry(case) + [("attr", ATTR)]


def bwd_args(case):
    return [("engine", ENGINE), ("alg_kind", getattr(c, "dnnl_pooling_" + case.alg)),
            ("diff_src_desc", Md("diff_src")), ("diff_dst_desc", Md("diff_dst"))] \
        + geometry(case) + [("hint_fwd_pd", HINT), ("attr", ATTR)]


FWD = H.Op("pooling_forward", c.dnnl_pooling_forward_primitive_desc_create, fwd_args,
           inputs={"src": c.DNNL_ARG_SRC},
           outputs={"dst": c.DNNL_ARG_DST, "workspace": c.DNNL_ARG_WORKSPACE},
           reference=ref_fwd, generate=gen_fwd, dims=lambda case: case.p.dims(),
           concrete=("src",), obj_pd=dnnl.pooling_forward.primitive_desc,
           obj_prim=dnnl.pooling_forward, tol={"f32": (2e-6, 2e-6)})
BWD = H.Op("pooling_backward", c.dnnl_pooling_backward_primitive_desc_create, bwd_args,
           inputs={"diff_dst": c.DNNL_ARG_DIFF_DST, "workspace": c.DNNL_ARG_WORKSPACE},
           outputs={"diff_src": c.DNNL_ARG_DIFF_SRC}, reference=ref_bwd, generate=gen_bwd,
           dims=lambda case: case.p.dims(), hint=FWD,
           obj_pd=dnnl.pooling_backward.primitive_desc, obj_prim=dnnl.pooling_backward,
           tol={"f32": (1e-5, 3e-5), "bf16": (H.BF16_TOL[0], 3e-5)})

# ------------------------------------------------------------ the tables

ALGS = ["max", "avg_include_padding", "avg_exclude_padding"]
LAYOUTS = ["plain", "cl", "b8", "b16", "any", "b16:any", "b8:cl"]


def exists(case):
    return H.layout_exists(case.layout, 2 + len(case.p.i))


CASES = H.product(alg=ALGS, p=PROBLEMS, dt=["f32", "bf16"], layout=LAYOUTS, filter=exists)
FWD_CASES = CASES + H.product(alg=["max"], p=PROBLEMS[:1], dt=["f32", "bf16"],
                              layout=["b16"], prop=["forward_inference"])


def api(case):
    return "both" if case.layout == "b16:any" else "c"


@pytest.mark.parametrize("case", FWD_CASES, ids=H.case_id)
def test_forward(case):
    H.run(FWD, case, api(case))


@pytest.mark.parametrize("case", CASES, ids=H.case_id)
def test_backward(case):
    H.run(BWD, case, api(case))


# ------------------------------------------------------------ bad input

BASE = H.Case(alg="max", p=PROBLEMS[1], dt="f32", layout="plain")


@pytest.mark.parametrize("op,case,name", H.bad_input_params([(FWD, BASE), (BWD, BASE)]))
def test_bad_input(op, case, name):
    H.check_bad_input(op, case, name)
