"""The cases run on guarded user buffers (tests/guard.py) by
tests/guard_runner.py: every kernel's border, padding and tail handling,
with each tensor's data ending right before (or starting right after) a
PROT_NONE page, every implementation walked with next_impl, and results
checked against the NumPy references.

`FAMILIES[name]()` gives the family's entries: (key, run) pairs where
run(alloc) raises AssertionError on a wrong result. Keys are stable, so
the test can hand a subprocess a family and a slice of it.
"""

import ctypes

import numpy as np

import dnnl_c as c
import harness as H
import test_eltwise_table as ELT
import test_lrn_table as LRN
import test_pooling_table as POOL
from dnnl.benchdnn.ref_conv import conv_bwd_data, conv_bwd_weights, conv_fwd
from guard import guard_address
from guarded_views import view_entries
from harness import ATTR, ENGINE, HINT, Md

# ------------------------------------------------------------ convolution


class Conv:
    """A convolution problem; dilation 0 is dense, as in oneDNN."""

    def __init__(self, mb, g, ic, oc, i, k, s=None, d=None, pl=None, pr=None, bias=True):
        sp = len(i)
        self.mb, self.g, self.ic, self.oc = mb, g, ic, oc
        self.i, self.k = list(i), list(k)
        self.s = list(s) if s is not None else [1] * sp
        self.d = list(d) if d is not None else [0] * sp
        self.pl = list(pl) if pl is not None else [0] * sp
        self.pr = list(pr) if pr is not None else list(self.pl)
        self.bias = bias
        ext = [(k - 1) * (d + 1) + 1 for k, d in zip(self.k, self.d)]
        self.o = [(i - e + pl + pr) // s + 1
                  for i, e, s, pl, pr in zip(self.i, ext, self.s, self.pl, self.pr)]
        assert all(o > 0 for o in self.o), self.o
        self.name = "mb%dg%dic%doc%d_i%s_k%s_s%s_d%s_p%s_%s%s" % (
            mb, g, ic, oc, *("x".join(map(str, v)) for v in (
                self.i, self.k, self.s, self.d, self.pl, self.pr)), "" if bias else "_nobias")

    def __str__(self):
        return self.name

    def dims(self):
        src, dst = [self.mb, self.ic] + self.i, [self.mb, self.oc] + self.o
        wei = ([self.g, self.oc // self.g, self.ic // self.g] if self.g > 1
               else [self.oc, self.ic]) + self.k
        return {"src": src, "weights": wei, "bias": [self.oc], "dst": dst, "diff_src": src,
                "diff_weights": wei, "diff_bias": [self.oc], "diff_dst": dst}

    def geometry(self):
        return [("strides", self.s), ("dilates", self.d), ("padding_l", self.pl),
                ("padding_r", self.pr)]


def conv_ref_fwd(case, src, weights, bias=None):
    p = case.p
    return {"dst": conv_fwd(src, weights, bias, p.s, p.d, p.pl, p.pr, g=p.g)}


def conv_ref_bwd_data(case, weights, diff_dst):
    p = case.p
    return {"diff_src": conv_bwd_data(diff_dst, weights, [p.mb, p.ic] + p.i, p.s, p.d, p.pl,
                                      p.pr, g=p.g)}


def conv_ref_bwd_weights(case, src, diff_dst):
    p = case.p
    dw, db = conv_bwd_weights(src, diff_dst, p.dims()["weights"], p.s, p.d, p.pl, p.pr, g=p.g)
    return {"diff_weights": dw, **({"diff_bias": db} if p.bias else {})}


def conv_gen(case, rng):
    return {t: rng.uniform(-1, 1, dims) for t, dims in case.p.dims().items()}


def conv_fwd_args(case):
    return [("engine", ENGINE), ("prop_kind", c.dnnl_forward_training),
            ("alg_kind", c.dnnl_convolution_direct), ("src_desc", Md("src")),
            ("weights_desc", Md("weights")),
            ("bias_desc", Md("bias") if case.p.bias else None),
            ("dst_desc", Md("dst"))] + case.p.geometry() + [("attr", ATTR)]


def conv_bwd_data_args(case):
    return [("engine", ENGINE), ("alg_kind", c.dnnl_convolution_direct),
            ("diff_src_desc", Md("diff_src")), ("weights_desc", Md("weights")),
            ("diff_dst_desc", Md("diff_dst"))] + case.p.geometry() + [
        ("hint_fwd_pd", HINT), ("attr", ATTR)]


def conv_bwd_weights_args(case):
    return [("engine", ENGINE), ("alg_kind", c.dnnl_convolution_direct),
            ("src_desc", Md("src")), ("diff_weights_desc", Md("diff_weights")),
            ("diff_bias_desc", Md("diff_bias") if case.p.bias else None),
            ("diff_dst_desc", Md("diff_dst"))] + case.p.geometry() + [
        ("hint_fwd_pd", HINT), ("attr", ATTR)]


# sums of up to a few hundred products in f32
CONV_TOL = {"f32": (1e-4, 1e-4), "bf16": (H.BF16_TOL[0] + 1e-4, 1e-3)}
CONV_FWD = H.Op("convolution_forward", c.dnnl_convolution_forward_primitive_desc_create,
                conv_fwd_args, inputs={"src": c.DNNL_ARG_SRC, "weights": c.DNNL_ARG_WEIGHTS,
                                       "bias": c.DNNL_ARG_BIAS},
                outputs={"dst": c.DNNL_ARG_DST}, reference=conv_ref_fwd, generate=conv_gen,
                dims=lambda case: case.p.dims(), tol=CONV_TOL)
CONV_BWD_DATA = H.Op(
    "convolution_backward_data", c.dnnl_convolution_backward_data_primitive_desc_create,
    conv_bwd_data_args, inputs={"weights": c.DNNL_ARG_WEIGHTS,
                                "diff_dst": c.DNNL_ARG_DIFF_DST},
    outputs={"diff_src": c.DNNL_ARG_DIFF_SRC}, reference=conv_ref_bwd_data, generate=conv_gen,
    dims=lambda case: case.p.dims(), hint=CONV_FWD, tol=CONV_TOL)
CONV_BWD_WEIGHTS = H.Op(
    "convolution_backward_weights", c.dnnl_convolution_backward_weights_primitive_desc_create,
    conv_bwd_weights_args, inputs={"src": c.DNNL_ARG_SRC, "diff_dst": c.DNNL_ARG_DIFF_DST},
    outputs={"diff_weights": c.DNNL_ARG_DIFF_WEIGHTS, "diff_bias": c.DNNL_ARG_DIFF_BIAS},
    reference=conv_ref_bwd_weights, generate=conv_gen, dims=lambda case: case.p.dims(),
    hint=CONV_FWD, tol=CONV_TOL)

C = Conv
CONV_PROBLEMS = [
    # kernel 1, stride 1, no left padding, right padding: the 1x1 shortcut's trap
    C(1, 1, 1, 1, [4], [1], pr=[1]),
    C(2, 1, 3, 5, [6], [1], pr=[2]),
    C(2, 1, 9, 4, [3, 4], [1, 1], pr=[1, 0]),
    C(1, 1, 9, 4, [3, 4], [1, 1], pr=[0, 1]),
    C(2, 1, 4, 9, [3, 4], [1, 1], pr=[2, 3], bias=False),
    C(1, 1, 8, 8, [2, 3, 2], [1, 1, 1], pr=[1, 0, 0]),
    C(1, 1, 8, 8, [2, 3, 2], [1, 1, 1], pr=[0, 0, 1]),
    C(2, 2, 8, 12, [3, 3], [1, 1], pr=[1, 1]),
    # kernel 1 with left padding, stride, negative right padding
    C(1, 1, 3, 2, [4], [1], pl=[1], pr=[0]),
    C(2, 1, 9, 3, [5, 5], [1, 1], s=[2, 2], pr=[-1, -1]),
    C(1, 1, 2, 3, [7], [1], s=[3], pr=[-2]),
    C(1, 1, 8, 8, [3, 3], [1, 1]),                          # the true 1x1 shortcut
    C(2, 2, 16, 8, [4, 5], [1, 1], bias=False),
    # strides, dilation, asymmetric and negative right padding
    C(2, 1, 3, 4, [9, 8], [3, 2], s=[2, 3], d=[1, 0], pl=[2, 0], pr=[1, 1]),
    C(1, 1, 10, 6, [7], [3], s=[2], pl=[0], pr=[-1]),
    C(2, 1, 4, 5, [6, 7], [2, 3], s=[3, 2], d=[0, 1], pl=[1, 2], pr=[-2, 0]),
    C(1, 1, 3, 3, [5, 4, 6], [2, 2, 3], s=[2, 1, 2], d=[1, 0, 0], pl=[1, 0, 2], pr=[0, 1, -1]),
    # kernel larger than the input, 1-pixel inputs, outputs larger than inputs,
    # windows wholly in the padding
    C(1, 1, 2, 3, [3], [5], pl=[2], pr=[2]),
    C(2, 1, 9, 4, [1, 1], [3, 3], pl=[1, 1], pr=[1, 1]),
    C(1, 1, 3, 2, [1, 1, 1], [1, 1, 1]),
    C(1, 1, 2, 2, [2, 2], [1, 1], pl=[2, 1], pr=[2, 3]),
    C(1, 1, 9, 2, [2], [2], pl=[3], pr=[4]),
    C(2, 1, 3, 10, [2, 3], [4, 5], d=[1, 0], pl=[3, 2], pr=[3, 2], bias=False),
    # groups, depthwise, channels past the GEMM's register tiles
    C(2, 3, 6, 9, [5, 6], [3, 3], pl=[1, 1], pr=[1, 1]),
    C(1, 8, 8, 8, [5, 5], [3, 3], s=[2, 2], pl=[1, 1], pr=[0, 0]),
    C(2, 1, 19, 40, [5, 7], [3, 3], pl=[1, 1], pr=[1, 1]),
    C(1, 1, 33, 17, [13], [1], pr=[3]),
    C(3, 2, 4, 34, [2, 3, 4], [2, 1, 3], s=[1, 2, 1], pl=[1, 0, 1], pr=[0, 1, 2]),
    # past the GEMM's blocks (K > 256, P > 96)
    C(1, 1, 32, 20, [12, 12], [3, 3], pl=[1, 1], pr=[2, 0]),
]


def conv_layout(name, p):
    """{tensor: layout} for a problem: plain; channels-last data with the
    weights to match (o, spatial, i); channel-blocked data (staged through
    the reorder); everything `any`."""
    sp, grouped = len(p.i), p.g > 1
    if name == "any":
        return {"*": "any"}
    if name == "plain":
        return {"*": "plain"}
    if name == "cl":
        letters = "abcdef"[:sp + 2 + grouped]
        wei = (letters[:2] + letters[3:] + letters[2]) if grouped else \
            (letters[0] + letters[2:] + letters[1])
        return {"bias": "a", "diff_bias": "a", "weights": wei, "diff_weights": wei, "*": "cl"}
    assert name == "b8"
    return {"bias": "a", "diff_bias": "a", "weights": "plain", "diff_weights": "plain",
            "*": "b8"}


CONV_DTS = {"f32": "f32", "bf16": "bf16",
            "bf16f32": {"*": "bf16", "dst": "f32", "bias": "f32", "diff_src": "f32",
                        "diff_weights": "f32", "diff_bias": "f32"}}


def conv_cases():
    cases = []
    for p in CONV_PROBLEMS:
        for lay in ("plain", "cl", "any", "b8"):
            for dt in ("f32", "bf16", "bf16f32"):
                # every layout in f32; bf16 in the layouts the GEMM reads in place
                if dt != "f32" and lay == "b8":
                    continue
                cases.append(H.Case(p=p, dt=CONV_DTS[dt], layout=conv_layout(lay, p),
                                    id="%s-%s-%s" % (p.name, lay, dt)))
    return cases


def harness_entries(ops, cases):
    """(key, run) for every op and case; run(alloc) checks every
    implementation on buffers from alloc."""
    return [("%s/%s" % (op.name, case.id),
             (lambda alloc, op=op, case=case: H.run(op, case, "c", alloc=alloc)))
            for case in cases for op in ops]


def conv_entries():
    return harness_entries([CONV_FWD, CONV_BWD_DATA, CONV_BWD_WEIGHTS], conv_cases())


# ------------------------------------------------------------ pooling

# channel blocks other than 8 and 16, in every rank (a table keeps the ones
# of its shapes' rank)
ODD_BLOCKS = ["aBc4b", "aBcd4b", "aBcde4b", "aBc32b", "aBcd32b", "aBcde32b"]

P = POOL.Pool
POOL_PROBLEMS = POOL.PROBLEMS + [
    P(1, 16, [4], [1], [1], pl=[0], pr=[1]),              # kernel 1, right padding
    P(2, 8, [5, 5], [1, 1], [2, 2], pl=[0, 0], pr=[-2, -2]),   # negative pad_r = -stride
    P(1, 19, [3, 2], [5, 4], [1, 1], pl=[2, 1], pr=[2, 2]),    # kernel larger than input
    P(2, 16, [1, 1], [3, 3], [1, 1], pl=[1, 1], pr=[1, 1]),    # 1-pixel input
    P(1, 8, [1], [1], [1], pl=[2], pr=[3]),               # output larger than input
    P(1, 24, [9, 10], [3, 2], [1, 1], [0, 1], [1, 0], [1, 2]),  # long inner runs
    P(2, 16, [12], [2], [1], pl=[0], pr=[0]),             # every window inside
    P(1, 8, [2, 3, 4], [3, 3, 3], [2, 2, 2], [0, 0, 0], [2, 2, 2], [2, 2, 2]),
    P(1, 16, [8, 8, 6], [8, 8, 4], [1, 1, 1]),      # 256 taps: an s32 workspace
    P(1, 8, [9, 8, 8], [9, 8, 8], [1, 1, 1]),       # past the tap table's 512
]


def pool_valid(case):
    """The layout exists, and avg_exclude_padding has no window without
    elements (its creation refuses those)."""
    p = case.p
    return POOL.exists(case) and (case.alg != "avg_exclude_padding" or all(
        pl < p.extent(j) and pr < p.extent(j) and d < i
        for j, (pl, pr, d, i) in enumerate(zip(p.pl, p.pr, p.d, p.i))))


def pool_cases():
    extra = POOL_PROBLEMS[len(POOL.PROBLEMS):-2]
    big = POOL_PROBLEMS[-2:]
    return H.unique(
        POOL.CASES,
        H.product(alg=POOL.ALGS, p=big, dt=["f32", "bf16"], layout=["plain", "cl", "b16"]),
        H.product(alg=POOL.ALGS, p=extra, dt=["f32", "bf16"], layout=POOL.LAYOUTS,
                  filter=pool_valid),
        H.product(alg=POOL.ALGS, p=[POOL.PROBLEMS[1], POOL.PROBLEMS[3], POOL.PROBLEMS[4],
                                    POOL_PROBLEMS[len(POOL.PROBLEMS) + 2]],
                  dt=["f32", "bf16"], layout=ODD_BLOCKS, filter=pool_valid),
        H.product(alg=["max"], p=POOL_PROBLEMS[:1], dt=["f32"], layout=["b16"],
                  prop=["forward_inference"]))


def pool_entries():
    cases = pool_cases()
    fwd = harness_entries([POOL.FWD], cases)
    bwd = harness_entries([POOL.BWD], [k for k in cases if "prop" not in k])
    return fwd + bwd


# ------------------------------------------------------------ LRN and eltwise

def lrn_cases():
    return H.unique(
        LRN.CASES,
        # channels fewer than, equal to and past a block; one position; C = 1
        H.product(alg=["across"], ls=[3, 5, 9], dt=["f32", "bf16"],
                  layout=["plain", "cl", "b8", "b16"],
                  shape=[[1, 1, 1, 1], [2, 8, 1, 1], [1, 16, 2, 1], [1, 7, 3], [2, 24, 1],
                         [1, 3, 1, 1, 2]]),
        H.product(alg=["within"], ls=[3, 7], dt=["f32"], layout=["plain", "b8"],
                  shape=[[1, 2, 1, 1], [1, 3, 2, 5]]),
        H.product(alg=["across"], ls=[3, 5], dt=["f32", "bf16"], layout=ODD_BLOCKS,
                  shape=[[2, 13, 5, 4], [1, 16, 1, 1], [2, 40, 3], [1, 3, 2, 1, 2]]))


def lrn_entries():
    cases = lrn_cases()
    return harness_entries([LRN.FWD], cases) + harness_entries(
        [LRN.BWD], [k for k in cases if "prop" not in k])


def eltwise_entries():
    shapes = ELT.ODD + [ELT.DIMS, [1], [7], [1, 16, 1, 1]]
    cases = H.product(alg=["relu", "gelu_erf"], dt=["f32", "bf16"],
                      layout=ELT.ODD_LAYOUTS + ["b8", "b8:cl"] + ODD_BLOCKS, shape=shapes)
    dst_cases = H.product(alg=["logistic_use_dst_for_bwd"], dt=["f32", "bf16"],
                          layout=["plain", "cl", "b16"], shape=shapes)
    return (harness_entries([ELT.FWD, ELT.BWD], cases)
            + harness_entries([ELT.BWD_USE_DST], dst_cases))


# ------------------------------------------------------------ reorder

def ref_reorder(case, src):
    return {"dst": src}


REORDER = H.Op("reorder", c.dnnl_reorder_primitive_desc_create,
               lambda case: [("src_desc", Md("src")), ("src_engine", ENGINE),
                             ("dst_desc", Md("dst")), ("dst_engine", ENGINE), ("attr", ATTR)],
               inputs={"src": c.DNNL_ARG_FROM}, outputs={"dst": c.DNNL_ARG_TO},
               reference=ref_reorder, concrete=("src", "dst"))
REORDER_PAIRS = [("plain", "b8"), ("b8", "plain"), ("plain", "b16"), ("b16", "plain"),
                 ("cl", "b8"), ("b8", "cl"), ("b8", "b16"), ("plain", "plain"),
                 ("cl", "plain"), ("b16", "b16"), ("plain", "aBcd4b"), ("aBcd32b", "plain"),
                 ("aBcd4b", "aBcd32b"), ("aBc32b", "cl")]
REORDER_DTS = [("f32", "f32"), ("f32", "bf16"), ("bf16", "f32"), ("bf16", "bf16"),
               ("s8", "s8")]


def reorder_cases():
    shapes = [[2, 13, 3, 4], [1, 5, 7], [2, 3, 2, 3, 2], [1, 16, 1, 1], [3, 17, 2],
              [1, 1, 1, 1], [4, 6]]
    return [H.Case(dt={"src": sdt, "dst": ddt}, layout={"src": sl, "dst": dl}, shape=shape)
            for shape in shapes for sl, dl in REORDER_PAIRS for sdt, ddt in REORDER_DTS
            if H.layout_exists(sl, len(shape)) and H.layout_exists(dl, len(shape))
            and (sdt, ddt) in (REORDER_DTS if shape[1] == 13 else REORDER_DTS[:2])]


# ------------------------------------------------------------ sub-memories

def channel_view(dims, extra, offset, layout):
    """A view of dims in a parent of `extra` more channels, from channel `offset`."""
    parent = list(dims)
    parent[1] += extra
    return parent, layout, [0, offset] + [0] * (len(dims) - 2)


def batch_view(dims, extra, layout):
    """A view of dims at the end of a parent of `extra` more images."""
    parent = list(dims)
    parent[0] += extra
    return parent, layout, [extra] + [0] * (len(dims) - 1)


# (extra channels, channel offset, layout): the view at the parent's end;
# at its start; a last block the view only partly owns (the parent's next
# channels are not the view's padding); the view's blocks at the parent's
# padded end
CHANNEL_VIEWS = [(3, 3, "plain"), (5, 0, "cl"), (4, 0, "b8"), (8, 8, "b8"), (16, 16, "b16")]
VIEWS = [("c",) + v for v in CHANNEL_VIEWS] + [("n", 2, "plain"), ("n", 1, "b16")]


def view_exists(view, dims):
    """oneDNN's sub-memory rule: blocked channels start on a block and span
    whole blocks, less than one, or up to the parent's end."""
    if not H.layout_exists(view[-1], len(dims)):
        return False
    if view[0] != "c" or view[-1] not in ("b8", "b16"):
        return True
    extra, offset, blk = view[1], view[2], int(view[-1][1:])
    ch = dims[1]
    return offset % blk == 0 and (ch % blk == 0 or ch < blk or offset + ch == ch + extra)


def view_cases(base_cases, dims_of, tensors):
    """The base cases with each view that exists applied to the tensors."""
    cases = []
    for case in base_cases:
        dims = dims_of(case)
        for view in VIEWS:
            if not all(view_exists(view, dims[t]) for t in tensors):
                continue
            parents = {t: (channel_view(dims[t], *view[1:]) if view[0] == "c"
                           else batch_view(dims[t], *view[1:])) for t in tensors}
            cases.append(H.Case(dict(case, views=parents), id="%s-view%s" % (
                case.id, "".join(map(str, view)))))
    return cases


def reorder_view_entries():
    base = [H.Case(dt={"src": s, "dst": d}, layout={"src": sl, "dst": dl}, shape=shape)
            for shape in ([2, 4, 3, 2], [1, 13, 5], [2, 3, 2, 2, 3])
            for sl, dl in [("plain", "b8"), ("b8", "plain"), ("cl", "b16"), ("b8", "b8")]
            for s, d in [("f32", "f32"), ("f32", "bf16")]]
    dims = lambda case: {"src": case.shape, "dst": case.shape}    # noqa: E731
    return (view_entries([REORDER], view_cases(base, dims, ["src"]))
            + view_entries([REORDER], view_cases(base, dims, ["dst"])))


def shape_dims(case):
    return {t: case.shape for t in ("src", "dst", "diff_src", "diff_dst")}


def eltwise_view_entries():
    base = H.product(alg=["relu", "gelu_erf"], dt=["f32", "bf16"], layout=["plain"],
                     shape=[[2, 4, 3, 2], [1, 11, 5]])
    cases = view_cases(base, shape_dims, ["src", "dst", "diff_src", "diff_dst"])
    return view_entries([ELT.FWD, ELT.BWD], cases)


def lrn_view_entries():
    base = H.product(alg=["across", "within"], ls=[3, 5], dt=["f32", "bf16"],
                     layout=["plain"], shape=[[2, 4, 3, 2], [1, 11, 5]])
    cases = view_cases(base, shape_dims, ["src", "dst", "diff_src", "diff_dst"])
    return view_entries([LRN.FWD, LRN.BWD], cases)


def pool_view_entries():
    base = H.product(alg=["avg_include_padding", "max"], p=[
        P(2, 4, [5, 4], [3, 2], [2, 1], pl=[1, 0], pr=[1, 1]),
        P(1, 11, [6], [3], [2], pl=[2], pr=[0])], dt=["f32", "bf16"], layout=["plain"])
    cases = view_cases(base, lambda case: case.p.dims(), ["src", "dst"])
    # max's workspace follows diff_dst's blocking and must match the hint's (plain)
    bwd = [k for k in view_cases(base, lambda case: case.p.dims(), ["diff_src", "diff_dst"])
           if k.alg != "max" or k.views["diff_dst"][1] == "plain"]
    return view_entries([POOL.FWD], cases) + view_entries([POOL.BWD], bwd)


def conv_view_entries():
    base = [H.Case(p=p, dt=CONV_DTS[dt], layout=conv_layout("plain", p),
                   id="%s-%s" % (p.name, dt))
            for p in (C(2, 1, 4, 4, [4, 3], [1, 1], pr=[1, 0]), C(1, 1, 5, 3, [6], [3], pl=[1]))
            for dt in ("f32", "bf16")]
    dims = lambda case: case.p.dims()                            # noqa: E731
    return (view_entries([CONV_FWD, CONV_BWD_WEIGHTS], view_cases(base, dims, ["src"]))
            + view_entries([CONV_FWD], view_cases(base, dims, ["dst"]))
            + view_entries([CONV_BWD_DATA], view_cases(base, dims, ["diff_src", "diff_dst"])))


def reorder_entries():
    return harness_entries([REORDER], reorder_cases()) + reorder_view_entries()


# ------------------------------------------------------------ the guard's own checks

def _touch(alloc, offset, write=False):
    """A kernel's mistake: one float32 at `offset` elements from a guarded
    3-float buffer's start (3 is past the end, -1 before the start)."""
    buf = alloc(12, np.float32)
    cell = ctypes.c_float.from_address(guard_address(buf) + 4 * offset)
    if write:
        cell.value = 1.0
    return cell.value


def _wrong(alloc):
    buf = alloc(12, np.float32)
    buf[...] = 1
    assert buf.sum() == 4, "a wrong result"


SELFTEST = [("read-past-end", lambda alloc: _touch(alloc, 3)),
            ("write-before-start", lambda alloc: _touch(alloc, -1, True)),
            ("in-bounds", lambda alloc: (_touch(alloc, 0), _touch(alloc, 2, True))),
            ("wrong-result", _wrong)]

# ------------------------------------------------------------ rnn (LSTM)
# Every tensor a guarded user buffer: batch 1, one step, odd feature sizes,
# panel-wide cells (the column-split step) with projection and peephole.

RNN_CASES = [
    # L, direction, T, N, SLC, DHC, DIC, peephole, projection, iters
    (1, c.dnnl_unidirectional_left2right, 1, 1, 3, 5, None, False, False, True),
    (2, c.dnnl_bidirectional_concat, 3, 1, 7, 7, None, True, False, True),
    (1, c.dnnl_unidirectional_right2left, 2, 3, 5, 3, 2, False, True, False),
    (1, c.dnnl_bidirectional_sum, 2, 2, 3, 32, 5, True, True, True),
]


def rnn_run(cs, alloc):
    import test_lstm as LSTM
    s, direction = LSTM.case_shapes(cs)
    rng = np.random.default_rng(21)
    a = LSTM.random_inputs(s, rng)
    dd = {k: rng.standard_normal(v) for k, v in s.items() if k.startswith("dst")}
    ref = dict(zip(["dst_layer", "dst_iter", "dst_iter_c"], LSTM.np_lstm(a, direction)))
    grads = LSTM.np_grads(a, direction, dd)
    eng, strm = H.engines()[:2]
    mds = LSTM.mds_for(s)

    def buffers(pd, feed):
        bufs, args = {}, []
        for name, arg in list(LSTM.ARG.items()) + [("ws", c.DNNL_ARG_WORKSPACE)]:
            md = LSTM.query_md(pd, arg)
            size = c.dnnl_memory_desc_get_size(md)
            if size == 0:
                continue
            if name == "ws":
                buf = alloc(size, np.uint8)
            else:
                buf = alloc(size, np.float32)
                buf[...] = np.asarray(feed[name], np.float32).reshape(-1) if name in feed \
                    else np.nan
            bufs[name] = buf
            m = c.dnnl_memory_t()
            H._check(c.dnnl_memory_create(m, md, eng, buf), "memory_create")
            args.append(c.dnnl_exec_arg_t(arg, m))
        return bufs, args

    st, fpd = LSTM.fwd_pd(eng, c.dnnl_forward_training, direction, mds)
    H._check(st, "lstm forward pd")
    failures = []
    while True:
        impl = H._impl_name_c(fpd)
        prim = c.dnnl_primitive_t()
        H._check(c.dnnl_primitive_create(prim, fpd), "primitive_create")
        fb, fargs = buffers(fpd, a)
        H._check(c.dnnl_primitive_execute(prim, strm, len(fargs), fargs), "execute " + impl)
        for k, r in ref.items():
            if k in fb and not np.allclose(fb[k].reshape(r.shape), r, rtol=1e-4, atol=1e-5):
                failures.append("forward %s: %s differs" % (impl, k))
        st, bpd = LSTM.bwd_pd(eng, direction, mds, {"diff_" + k: v for k, v in mds.items()},
                              fpd, c.dnnl_rnn_flags_diff_weights_overwrite)
        H._check(st, "lstm backward pd")
        bprim = c.dnnl_primitive_t()
        H._check(c.dnnl_primitive_create(bprim, bpd), "primitive_create")
        feed = dict(a, **{k: fb[k] for k in fb if k.startswith("dst")},
                    **{"diff_" + k: v for k, v in dd.items()})
        bb, bargs = buffers(bpd, feed)
        bb["ws"][...] = fb["ws"]
        H._check(c.dnnl_primitive_execute(bprim, strm, len(bargs), bargs),
                 "execute backward " + impl)
        for k, g in grads.items():
            if not np.allclose(bb["diff_" + k].reshape(g.shape), g, rtol=2e-3, atol=2e-4):
                failures.append("backward %s: diff_%s differs" % (impl, k))
        if c.dnnl_primitive_desc_next_impl(fpd) != c.dnnl_success:
            break
    if failures:
        raise AssertionError("\n".join(failures))


def rnn_entries():
    return [("lstm%d" % i, (lambda alloc, cs=cs: rnn_run(cs, alloc)))
            for i, cs in enumerate(RNN_CASES)]


FAMILIES = {
    "rnn": rnn_entries,
    "convolution": conv_entries,
    "pooling": pool_entries,
    "lrn": lrn_entries,
    "eltwise": eltwise_entries,
    "reorder": reorder_entries,
    "views": lambda: (eltwise_view_entries() + lrn_view_entries() + pool_view_entries()
                      + conv_view_entries()),
    "selftest": lambda: SELFTEST,
}
