"""Consistent problems for each primitive family: tensor shapes, data types,
layouts and parameters that mostly fit together, so that fuzzed sequences
get past descriptor creation to primitives and execute. The parameters still
come from edge ranges (zero and negative padding, dilation, stride 0, sizes
1, an output size off by one), where a descriptor's checks and a kernel's
bounds meet.

A problem is a `Problem`: `tensors` maps a role (src, dst, weights, ...) to
(dims, data type, tag) and `params` holds the rest; the machine creates the
memory descriptors and keeps them in `mds`.
"""

from hypothesis import strategies as st

import dnnl_c as c
from dnnl_c._constants import ENUMS

from fuzz.values import tags_for

ALGS = ENUMS["dnnl_alg_kind_t"]
ELTWISE_ALGS = sorted(v for k, v in ALGS.items() if k.startswith("dnnl_eltwise_"))
POOL_ALGS = [c.dnnl_pooling_max, c.dnnl_pooling_avg_include_padding,
             c.dnnl_pooling_avg_exclude_padding]
LRN_ALGS = [c.dnnl_lrn_across_channels, c.dnnl_lrn_within_channel]
COMPUTE_DTS = [c.dnnl_f32, c.dnnl_f32, c.dnnl_f32, c.dnnl_bf16]
REORDER_DTS = [c.dnnl_f32, c.dnnl_bf16, c.dnnl_s8, c.dnnl_u8, c.dnnl_s32]


# shapes whose sizes overflow int64 (or come close), in place of small ones
# now and then: where a size computation wraps, a buffer comes out too small
BIG_SHAPES = [[2**32, 2**32], [2**31, 2**31, 4], [2**21, 2**21, 2**21], [3, 2**62],
              [2**61, 4], [2**62 + 1, 2], [1, 2**31, 2**32 + 1], [2**63 - 1, 1],
              [5, 3, 2**60], [2, 2**31 - 1, 2**31 - 1, 3]]
BIG_SPATIAL = [2**31, 2**32 + 1, 2**62, 2**40]


def _shape(draw, nd, hi):
    if draw(st.sampled_from(range(10))) == 0:
        return list(draw(st.sampled_from(BIG_SHAPES)))
    return draw(st.lists(st.integers(1, hi), min_size=nd, max_size=nd))


class Problem:
    def __init__(self, family, tensors, params):
        self.family = family
        self.tensors = tensors      # role -> (dims, dt, tag)
        self.params = params
        self.mds = {}               # role -> md handle (set by the machine)
        self.fwd_pd = None          # the forward pd, once one was created

    def __repr__(self):
        return "Problem(%s, %s, %s)" % (self.family, {k: v[0] for k, v in
                                                      self.tensors.items()}, self.params)


def _tag(draw, nd, same_as=None):
    """A tag for nd dims; `any` only for tensors other than the first."""
    tags = tags_for(nd)
    if same_as is None:
        return draw(st.sampled_from(tags[:-1] or tags))
    if draw(st.booleans()):
        return same_as
    return draw(st.sampled_from(tags))


def _jitter(draw, v):
    """v, or now and then one off (either way) or zero."""
    k = draw(st.sampled_from(range(24)))
    return {0: v + 1, 1: v - 1, 2: 0}.get(k, v)


@st.composite
def eltwise(draw):
    dims = _shape(draw, draw(st.integers(1, 5)), 9)
    nd = len(dims)
    dt = draw(st.sampled_from(COMPUTE_DTS))
    stag = _tag(draw, nd)
    t = {"src": (dims, dt, stag), "dst": (dims, dt, _tag(draw, nd, stag)),
         "diff_src": (dims, dt, _tag(draw, nd, stag)), "diff_dst": (dims, dt, _tag(draw, nd, stag))}
    return Problem("eltwise", t, {
        "alg": draw(st.sampled_from(ELTWISE_ALGS)),
        "alpha": draw(st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0])),
        "beta": draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]))})


@st.composite
def lrn(draw):
    dims = _shape(draw, draw(st.integers(2, 5)), 7)
    nd = len(dims)
    dt = draw(st.sampled_from(COMPUTE_DTS))
    stag = _tag(draw, nd)
    t = {"src": (dims, dt, stag), "dst": (dims, dt, _tag(draw, nd, stag)),
         "diff_src": (dims, dt, _tag(draw, nd, stag)), "diff_dst": (dims, dt, _tag(draw, nd, stag))}
    return Problem("lrn", t, {
        "alg": draw(st.sampled_from(LRN_ALGS)),
        "local_size": draw(st.sampled_from([1, 2, 3, 5, 7, 0, -1, 9, 2**31])),
        "alpha": 1e-4, "beta": 0.75, "k": draw(st.sampled_from([1.0, 2.0, 0.0]))})


def _window(draw, nsp):
    """Per spatial dim: input, kernel, stride, dilation (0 = dense), pads."""
    i = draw(st.lists(st.integers(1, 8), min_size=nsp, max_size=nsp))
    if draw(st.sampled_from(range(12))) == 0:
        i[draw(st.integers(0, nsp - 1))] = draw(st.sampled_from(BIG_SPATIAL))
    k = draw(st.lists(st.integers(1, 4), min_size=nsp, max_size=nsp))
    # edge values (stride 0, negative dilation or padding, padding past the
    # kernel) one time in ten or so per entry
    s = draw(st.lists(st.sampled_from([1] * 10 + [2] * 4 + [3, 3, 0, -1]),
                      min_size=nsp, max_size=nsp))
    d = draw(st.lists(st.sampled_from([0] * 12 + [1, 1, 2, -1]), min_size=nsp, max_size=nsp))
    pl = draw(st.lists(st.sampled_from([0] * 8 + [1] * 4 + [2, 2, -1, 5]),
                       min_size=nsp, max_size=nsp))
    pr = draw(st.lists(st.sampled_from([0] * 8 + [1] * 4 + [2, 2, -1, 5]),
                       min_size=nsp, max_size=nsp))
    o = []
    for j in range(nsp):
        ext = (k[j] - 1) * (d[j] + 1) + 1
        out = (i[j] + pl[j] + pr[j] - ext) // s[j] + 1 if s[j] > 0 else 1
        o.append(_jitter(draw, out) if out > 0 else draw(st.integers(0, 2)))
    return i, k, s, d, pl, pr, o


@st.composite
def pooling(draw):
    nd = draw(st.integers(3, 5))
    mb, ch = draw(st.integers(1, 3)), draw(st.integers(1, 17))
    i, k, s, d, pl, pr, o = _window(draw, nd - 2)
    dt = draw(st.sampled_from(COMPUTE_DTS))
    stag = _tag(draw, nd)
    src, dst = [mb, ch] + i, [mb, ch] + o
    t = {"src": (src, dt, stag), "dst": (dst, dt, _tag(draw, nd, stag)),
         "diff_src": (src, dt, _tag(draw, nd, stag)), "diff_dst": (dst, dt, _tag(draw, nd, stag))}
    return Problem("pooling", t, {"alg": draw(st.sampled_from(POOL_ALGS)), "strides": s,
                                  "kernel": k, "dilation": d, "padding_l": pl, "padding_r": pr})


@st.composite
def convolution(draw):
    nd = draw(st.integers(3, 5))
    mb, g = draw(st.integers(1, 3)), draw(st.sampled_from([1, 1, 2, 3]))
    icg, ocg = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    i, k, s, d, pl, pr, o = _window(draw, nd - 2)
    dt = draw(st.sampled_from(COMPUTE_DTS))
    wdims = ([g, ocg, icg] if g > 1 else [ocg, icg]) + k
    stag = _tag(draw, nd)
    src, dst = [mb, g * icg] + i, [mb, g * ocg] + o
    t = {"src": (src, dt, stag), "dst": (dst, dt, _tag(draw, nd, stag)),
         "weights": (wdims, dt, draw(st.sampled_from(tags_for(len(wdims))))),
         "diff_src": (src, dt, _tag(draw, nd, stag)), "diff_dst": (dst, dt, _tag(draw, nd, stag)),
         "diff_weights": (wdims, dt, draw(st.sampled_from(tags_for(len(wdims)))))}
    if draw(st.booleans()):
        t["bias"] = ([g * ocg], c.dnnl_f32, c.dnnl_a)
        t["diff_bias"] = ([g * ocg], c.dnnl_f32, c.dnnl_a)
    alg = draw(st.sampled_from([c.dnnl_convolution_direct, c.dnnl_convolution_direct,
                                c.dnnl_convolution_auto]))
    return Problem("convolution", t, {"alg": alg, "strides": s, "dilates": d,
                                      "padding_l": pl, "padding_r": pr})


@st.composite
def reorder(draw):
    dims = _shape(draw, draw(st.integers(1, 5)), 19)
    nd = len(dims)
    t = {"src": (dims, draw(st.sampled_from(REORDER_DTS)), _tag(draw, nd)),
         "dst": (dims, draw(st.sampled_from(REORDER_DTS)), _tag(draw, nd))}
    return Problem("reorder", t, {})


problem = st.one_of(eltwise(), lrn(), pooling(), convolution(), reorder())
