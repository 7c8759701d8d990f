"""LSTM forward and backward through dnnl_c against a small NumPy LSTM
written from oneDNN's equations (doc/primitives/rnn.md: gates i, f, c~, o;
peephole i, f on c_{t-1}, o on c_t; projection of h), in float64. Backward
is checked against central differences of that NumPy forward, so the
reference shares nothing with the library's backward."""

import numpy as np
import pytest

import dnnl_c as c
from helpers import check, level_impls, make_md, make_memory

L2R, R2L = c.dnnl_unidirectional_left2right, c.dnnl_unidirectional_right2left
CONCAT, SUM = c.dnnl_bidirectional_concat, c.dnnl_bidirectional_sum
FWD_NAMES = ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter",
             "weights_peephole", "weights_projection", "bias", "dst_layer", "dst_iter",
             "dst_iter_c"]
ARG = {n: getattr(c, "DNNL_ARG_" + n.upper()) for n in FWD_NAMES}
ARG.update({"diff_" + n: getattr(c, "DNNL_ARG_DIFF_" + n.upper()) for n in FWD_NAMES})
TAGS = {3: c.dnnl_abc, 4: c.dnnl_abcd, 5: c.dnnl_abcde}
INPUTS = FWD_NAMES[:8]

# ------------------------------------------------------------ NumPy reference


def sig(x):
    return 1 / (1 + np.exp(-x))


def np_lstm(a, direction):
    """dst_layer, dst_iter, dst_iter_c of an LSTM stack; a: the inputs by name
    (src_iter, src_iter_c, peephole, projection, bias may be None)."""
    wl, wi = a["weights_layer"], a["weights_iter"]
    nl, nd, _, _, dhc = wl.shape
    sic = wi.shape[2]
    x = a["src_layer"]
    t_len, n = x.shape[:2]
    wp, pp, b = a.get("weights_projection"), a.get("weights_peephole"), a.get("bias")
    dic = wp.shape[3] if wp is not None else dhc
    h_last = np.zeros((nl, nd, n, dic))
    c_last = np.zeros((nl, nd, n, dhc))
    inp = [x] * nd      # each direction's stack reads its own layer below
    for li in range(nl):
        outs: list = []
        for d in range(nd):
            l2r = direction == L2R or (direction in (CONCAT, SUM) and d == 0)
            h = a["src_iter"][li, d] if a.get("src_iter") is not None else np.zeros((n, sic))
            cs = a["src_iter_c"][li, d] if a.get("src_iter_c") is not None \
                else np.zeros((n, dhc))
            hs: list = [None] * t_len
            for t in (range(t_len) if l2r else reversed(range(t_len))):
                g = inp[d][t] @ wl[li, d].reshape(-1, 4 * dhc) + h @ wi[li, d].reshape(-1, 4 * dhc)
                if b is not None:
                    g = g + b[li, d].reshape(-1)
                gi, gf, gc, go = (g[:, k * dhc:(k + 1) * dhc] for k in range(4))
                if pp is not None:
                    gi = gi + pp[li, d, 0] * cs
                    gf = gf + pp[li, d, 1] * cs
                cs = sig(gf) * cs + sig(gi) * np.tanh(gc)
                if pp is not None:
                    go = go + pp[li, d, 2] * cs
                h = sig(go) * np.tanh(cs)
                if wp is not None:
                    h = h @ wp[li, d]
                hs[t] = h
            h_last[li, d], c_last[li, d] = h, cs
            outs.append(np.stack(hs))
        inp = outs
    if nd == 1:
        return outs[0], h_last, c_last
    if direction == CONCAT:
        return np.concatenate(outs, axis=-1), h_last, c_last
    return outs[0] + outs[1], h_last, c_last


def np_grads(a, direction, dd):
    """Gradients of sum(dst * diff_dst) for every input, by central differences."""
    def loss(arrs):
        out = np_lstm(arrs, direction)
        return sum(float(np.sum(o * dd[k])) for o, k in zip(out, ["dst_layer", "dst_iter",
                                                                   "dst_iter_c"])
                   if dd.get(k) is not None)
    grads = {}
    eps = 1e-6
    for name in INPUTS:
        if a.get(name) is None:
            continue
        base: dict = {k: (None if v is None else v.astype(np.float64)) for k, v in a.items()}
        g = np.zeros_like(base[name])
        flat, gflat = base[name].reshape(-1), g.reshape(-1)
        for i in range(flat.size):
            keep = flat[i]
            flat[i] = keep + eps
            up = loss(base)
            flat[i] = keep - eps
            down = loss(base)
            flat[i] = keep
            gflat[i] = (up - down) / (2 * eps)
        grads[name] = g
    return grads

# ------------------------------------------------------------ running through dnnl_c


def shapes(L, D, T, N, SLC, DHC, DIC=None, peephole=False, projection=False, direction=L2R,
           iters=True):
    DIC = DIC or DHC
    DLC = 2 * DIC if direction == CONCAT else DIC
    SIC = DIC
    s = {"src_layer": (T, N, SLC), "weights_layer": (L, D, SLC, 4, DHC),
         "weights_iter": (L, D, SIC, 4, DHC), "bias": (L, D, 4, DHC),
         "dst_layer": (T, N, DLC)}
    if iters:
        s.update({"src_iter": (L, D, N, SIC), "src_iter_c": (L, D, N, DHC),
                  "dst_iter": (L, D, N, DIC), "dst_iter_c": (L, D, N, DHC)})
    if peephole:
        s["weights_peephole"] = (L, D, 3, DHC)
    if projection:
        s["weights_projection"] = (L, D, DHC, DIC)
    return s


def mds_for(s, dt=c.dnnl_f32, tag=None):
    return {k: make_md(list(v), dt, tag if tag is not None else TAGS[len(v)])
            for k, v in s.items()}


def fwd_pd(eng, prop, direction, mds, flags=0):
    pd = c.dnnl_primitive_desc_t()
    st = c.dnnl_lstm_forward_primitive_desc_create(
        pd, eng, prop, direction, *[mds.get(n) for n in FWD_NAMES], flags,  # type: ignore[call-arg]
        None)
    return st, pd


def bwd_pd(eng, direction, mds, dmds, hint, flags=0):
    pd = c.dnnl_primitive_desc_t()
    st = c.dnnl_lstm_backward_primitive_desc_create(
        pd, eng, c.dnnl_backward, direction, *[mds.get(n) for n in FWD_NAMES],
        *[dmds.get("diff_" + n) for n in FWD_NAMES], flags, hint,  # type: ignore[call-arg]
        None)
    return st, pd


def query_md(pd, arg):
    return c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_exec_arg_md, arg)


def execute(eng, strm, pd, arrays):
    """Runs pd with f32 plain arrays (name -> array); returns the outputs."""
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd), "primitive_create")
    args, keep = [], []
    for name, arr in arrays.items():
        buf = arr if arr.dtype == np.uint8 else np.ascontiguousarray(arr, dtype=np.float32)
        keep.append(buf)
        args.append(c.dnnl_exec_arg_t(ARG.get(name, name), make_memory(query_md(
            pd, ARG.get(name, name)), eng, buf)))
        arrays[name] = buf
    check(c.dnnl_primitive_execute(prim, strm, len(args), args), "execute")
    check(c.dnnl_stream_wait(strm))
    return arrays


def ws_bytes(pd):
    size = c.dnnl_memory_desc_get_size(query_md(pd, c.DNNL_ARG_WORKSPACE))
    return np.zeros(size, np.uint8)


def random_inputs(s, rng, scale=0.5):
    return {k: (rng.standard_normal(v) * scale) for k, v in s.items()
            if k in INPUTS}


CASES = [
    # L, D-direction, T, N, SLC, DHC, DIC, peephole, projection, iters
    (1, L2R, 3, 2, 3, 4, None, False, False, True),
    (1, R2L, 4, 1, 5, 3, None, False, False, False),
    (2, CONCAT, 3, 2, 4, 2, None, False, False, True),
    (2, SUM, 2, 3, 2, 2, None, True, False, True),
    (3, L2R, 3, 2, 3, 3, None, True, False, False),
    (1, L2R, 3, 2, 3, 5, 2, False, True, True),
    (2, CONCAT, 2, 2, 4, 3, 2, True, True, True),
]
IDS = ["l%d-%s-t%d-n%d-slc%d-dhc%d-dic%s%s%s%s" % (cs[0], {L2R: "l2r", R2L: "r2l", CONCAT: "concat",
                                                        SUM: "sum"}[cs[1]], *cs[2:7],
                                                "-peep" if cs[7] else "",
                                                "-proj" if cs[8] else "",
                                                "" if cs[9] else "-noiter") for cs in CASES]


def case_shapes(cs):
    L, direction, T, N, SLC, DHC, DIC, peep, proj, iters = cs
    D = 2 if direction in (CONCAT, SUM) else 1
    if L > 1:   # layers > 0 read the same direction's output below
        SLC = DIC or DHC
    return shapes(L, D, T, N, SLC, DHC, DIC, peep, proj, direction, iters), direction


@pytest.mark.parametrize("impl", level_impls("gemm") + ["ref:any"])
@pytest.mark.parametrize("cs", CASES, ids=IDS)
def test_forward(eng, strm, cs, impl):
    s, direction = case_shapes(cs)
    rng = np.random.default_rng(len(IDS[CASES.index(cs)]))
    a = random_inputs(s, rng)
    st, pd = fwd_pd(eng, c.dnnl_forward_inference, direction, mds_for(s))
    check(st, "forward pd")
    walk_to(pd, impl)
    out = {k: np.zeros(v, np.float32) for k, v in s.items() if k.startswith("dst")}
    res = execute(eng, strm, pd, {**a, **out})
    ref = np_lstm(a, direction)
    for k, r in zip(["dst_layer", "dst_iter", "dst_iter_c"], ref):
        if k in out:
            np.testing.assert_allclose(res[k], r, rtol=1e-4, atol=1e-5, err_msg=k)


def walk_to(pd, impl):
    info = [None]
    while True:
        check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, info))
        if info[0] == impl:
            return
        if c.dnnl_primitive_desc_next_impl(pd) != c.dnnl_success:
            pytest.skip("%s is not available here" % impl)


@pytest.mark.parametrize("impl", level_impls("gemm")[:1] + ["ref:any"])
@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("cs", CASES, ids=IDS)
def test_backward(eng, strm, cs, overwrite, impl):
    s, direction = case_shapes(cs)
    rng = np.random.default_rng(7 + len(IDS[CASES.index(cs)]))
    a = random_inputs(s, rng)
    mds = mds_for(s)
    st, fpd = fwd_pd(eng, c.dnnl_forward_training, direction, mds)
    check(st, "forward pd")
    out = {k: np.zeros(v, np.float32) for k, v in s.items() if k.startswith("dst")}
    ws = ws_bytes(fpd)
    fres = execute(eng, strm, fpd, {**a, **out, c.DNNL_ARG_WORKSPACE: ws})
    dmds = {"diff_" + k: v for k, v in mds.items()}
    st, bpd = bwd_pd(eng, direction, mds, dmds, fpd,
                     c.dnnl_rnn_flags_diff_weights_overwrite if overwrite else 0)
    check(st, "backward pd")
    walk_to(bpd, impl)
    dd = {k: rng.standard_normal(v) for k, v in s.items() if k.startswith("dst")}
    prior = {"diff_" + k: (np.zeros(s[k]) if overwrite else rng.standard_normal(s[k]))
             for k in ["weights_layer", "weights_iter", "weights_peephole",
                       "weights_projection", "bias"] if k in s}
    diff_out = {"diff_" + k: np.full(s[k], np.nan) for k in ["src_layer", "src_iter",
                                                               "src_iter_c"] if k in s}
    bargs = {**a, **{k: fres[k] for k in out}, c.DNNL_ARG_WORKSPACE: ws,
             **{"diff_" + k: v for k, v in dd.items()}, **diff_out,
             **{k: (np.full(v.shape, 7.0) if overwrite else v) for k, v in prior.items()}}
    res = execute(eng, strm, bpd, bargs)
    grads = np_grads(a, direction, {k: dd[k] for k in dd})
    for name, g in grads.items():
        expected = g + prior.get("diff_" + name, 0)
        np.testing.assert_allclose(res["diff_" + name], expected, rtol=2e-3, atol=2e-4,
                                   err_msg=name)

# ------------------------------------------------------------ layouts, data types


def test_any_resolves_to_plain_layouts_and_queries(eng, strm):
    s, direction = case_shapes((2, CONCAT, 3, 2, 3, 3, 2, True, True, True))
    st, pd = fwd_pd(eng, c.dnnl_forward_training, direction,
                    mds_for(s, tag=c.dnnl_format_tag_any))
    check(st, "forward pd with any")
    for name, dims in s.items():
        want = make_md(list(dims), c.dnnl_f32, TAGS[len(dims)])
        assert c.dnnl_memory_desc_equal(query_md(pd, ARG[name]), want), name
    # oneDNN's md indexing: weights layer, iter, peephole, projection, bias
    for i, name in enumerate(["weights_layer", "weights_iter", "weights_peephole",
                              "weights_projection", "bias"]):
        got = c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_weights_md, i)
        assert c.dnnl_memory_desc_equal(got, query_md(pd, ARG[name])), name
    for i, name in enumerate(["src_layer", "src_iter", "src_iter_c"]):
        got = c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_src_md, i)
        assert c.dnnl_memory_desc_equal(got, query_md(pd, ARG[name])), name
    out = [None]
    check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_cell_kind, 0, out))
    assert out[0] == c.dnnl_vanilla_lstm
    check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_direction, 0, out))
    assert out[0] == CONCAT
    assert c.dnnl_memory_desc_get_size(query_md(pd, c.DNNL_ARG_WORKSPACE)) > 0
    st, ipd = fwd_pd(eng, c.dnnl_forward_inference, direction, mds_for(s))
    check(st)
    assert c.dnnl_memory_desc_get_size(query_md(ipd, c.DNNL_ARG_WORKSPACE)) == 0


def test_ntc_and_sub_memories_match_a_dense_run(eng, strm):
    """src_layer in ntc, dst_layer a sub-memory of a bigger buffer, src_iter
    a sub-memory with an offset: the same numbers as all dense."""
    T, N, C = 4, 3, 5
    s = shapes(1, 1, T, N, C, C)
    rng = np.random.default_rng(3)
    a = random_inputs(s, rng)
    ref = np_lstm(a, L2R)
    mds = mds_for(s)
    mds["src_layer"] = make_md([T, N, C], c.dnnl_f32, c.dnnl_bac)     # ntc
    big_dst = make_md([T + 2, N + 1, C], c.dnnl_f32, c.dnnl_abc)
    mds["dst_layer"] = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(mds["dst_layer"], big_dst, [T, N, C], [1, 1, 0]))
    big_iter = make_md([1, 1, N + 2, C], c.dnnl_f32, c.dnnl_abcd)
    mds["src_iter"] = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(mds["src_iter"], big_iter, [1, 1, N, C],
                                              [0, 0, 2, 0]))
    st, pd = fwd_pd(eng, c.dnnl_forward_inference, L2R, mds)
    check(st)
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd))
    bufs = {"src_layer": np.ascontiguousarray(a["src_layer"].transpose(1, 0, 2), np.float32),
            "dst_layer": np.full((T + 2, N + 1, C), -5.0, np.float32),
            "src_iter": np.zeros((1, 1, N + 2, C), np.float32)}
    bufs["src_iter"][0, 0, 2:] = a["src_iter"][0, 0]
    for k in ("src_iter_c", "weights_layer", "weights_iter", "bias"):
        bufs[k] = np.ascontiguousarray(a[k], np.float32)
    for k in ("dst_iter", "dst_iter_c"):
        bufs[k] = np.zeros(s[k], np.float32)
    args = [c.dnnl_exec_arg_t(ARG[k], make_memory(mds[k] if k in ("src_layer",) else (
        big_dst if k == "dst_layer" else big_iter if k == "src_iter" else mds[k]), eng, v))
        for k, v in bufs.items()]
    # sub-memories run with the parent's memory, as the RNN example does
    check(c.dnnl_primitive_execute(prim, strm, len(args), args))
    np.testing.assert_allclose(bufs["dst_layer"][1:T + 1, 1:], ref[0], rtol=1e-4, atol=1e-5)
    assert (bufs["dst_layer"][0] == -5).all() and (bufs["dst_layer"][:, 0] == -5).all()
    np.testing.assert_allclose(bufs["dst_iter"], ref[1], rtol=1e-4, atol=1e-5)


def test_bf16_against_f32(eng, strm):
    from helpers import bf16_bits, bf16_round
    s = shapes(2, 1, 3, 2, 4, 4)
    rng = np.random.default_rng(5)
    a = random_inputs(s, rng)
    bf = {"src_layer", "src_iter", "weights_layer", "weights_iter", "dst_layer", "dst_iter"}
    mds = {k: make_md(list(v), c.dnnl_bf16 if k in bf else c.dnnl_f32, TAGS[len(v)])
           for k, v in s.items()}
    st, pd = fwd_pd(eng, c.dnnl_forward_inference, L2R, mds)
    check(st, "bf16 forward")
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd))
    bufs = {}
    for k, v in s.items():
        if k in a:
            bufs[k] = bf16_bits(a[k]) if k in bf else np.ascontiguousarray(a[k], np.float32)
        else:
            bufs[k] = np.zeros(v, np.uint16 if k in bf else np.float32)
    args = [c.dnnl_exec_arg_t(ARG[k], make_memory(mds[k], eng, v)) for k, v in bufs.items()]
    check(c.dnnl_primitive_execute(prim, strm, len(args), args))
    ref = np_lstm({k: (bf16_round(v) if k in bf else v) for k, v in a.items()}, L2R)
    got = (bufs["dst_layer"].astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_allclose(got, ref[0], rtol=2e-2, atol=2e-2)

# ------------------------------------------------------------ bad input


def test_bad_input_status_codes(eng, strm):
    s = shapes(1, 1, 3, 2, 3, 4)
    mds = mds_for(s)
    assert fwd_pd(eng, c.dnnl_backward, L2R, mds)[0] == c.dnnl_invalid_arguments
    assert fwd_pd(eng, c.dnnl_forward_training, 0, mds)[0] == c.dnnl_invalid_arguments
    bad = dict(mds, dst_layer=make_md([3, 2, 5], c.dnnl_f32, c.dnnl_abc))
    assert fwd_pd(eng, c.dnnl_forward_training, L2R, bad)[0] == c.dnnl_invalid_arguments
    bad = dict(mds, weights_layer=make_md([1, 1, 3, 3, 4], c.dnnl_f32, c.dnnl_abcde))
    assert fwd_pd(eng, c.dnnl_forward_training, L2R, bad)[0] == c.dnnl_invalid_arguments
    bad = dict(mds, src_iter_c=None)
    assert fwd_pd(eng, c.dnnl_forward_training, L2R, bad)[0] == c.dnnl_invalid_arguments
    bad = dict(mds, weights_iter=make_md(list(s["weights_iter"]), c.dnnl_bf16, c.dnnl_abcde))
    assert fwd_pd(eng, c.dnnl_forward_training, L2R, bad)[0] == c.dnnl_unimplemented
    bad = dict(mds, bias=make_md(list(s["bias"]), c.dnnl_s8, c.dnnl_abcd))
    assert fwd_pd(eng, c.dnnl_forward_training, L2R, bad)[0] == c.dnnl_unimplemented
    # backward: bf16 diffs, a hint of another problem, an inference hint
    st, fpd = fwd_pd(eng, c.dnnl_forward_training, L2R, mds)
    check(st)
    dmds = {"diff_" + k: v for k, v in mds.items()}
    assert bwd_pd(eng, L2R, mds, dmds, fpd)[0] == c.dnnl_success
    bad = dict(dmds, diff_src_layer=make_md([3, 2, 3], c.dnnl_bf16, c.dnnl_abc))
    assert bwd_pd(eng, L2R, mds, bad, fpd)[0] == c.dnnl_unimplemented
    other = shapes(1, 1, 4, 2, 3, 4)
    st, opd = fwd_pd(eng, c.dnnl_forward_training, L2R, mds_for(other))
    check(st)
    assert bwd_pd(eng, L2R, mds, dmds, opd)[0] == c.dnnl_unimplemented
    st, ipd = fwd_pd(eng, c.dnnl_forward_inference, L2R, mds)
    assert bwd_pd(eng, L2R, mds, dmds, ipd)[0] == c.dnnl_unimplemented
    assert bwd_pd(eng, L2R, mds, dmds, None)[0] == c.dnnl_unimplemented
    bad = dict(dmds, diff_src_iter=None)
    assert bwd_pd(eng, L2R, mds, bad, fpd)[0] == c.dnnl_invalid_arguments
    # execute without the workspace
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, fpd))
    args = [c.dnnl_exec_arg_t(ARG[k], make_memory(mds[k], eng)) for k in s]
    assert c.dnnl_primitive_execute(prim, strm, len(args), args) == c.dnnl_invalid_arguments


def test_impl_walk(eng):
    s = shapes(1, 1, 2, 2, 3, 4)
    st, pd = fwd_pd(eng, c.dnnl_forward_inference, L2R, mds_for(s))
    check(st)
    seen: list = []
    info: list = [None]
    while True:
        check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, info))
        seen.append(info[0])
        if c.dnnl_primitive_desc_next_impl(pd) != c.dnnl_success:
            break
    assert seen == level_impls("gemm") + ["ref:any"]


def test_bf16_backward_against_f32(eng, strm):
    """bf16 data and weights, f32 diffs (the RNN data-type table): the same
    gradients as f32 on the bf16-rounded inputs, to bf16 accuracy."""
    from helpers import bf16_bits, bf16_round
    s = shapes(1, 1, 3, 2, 4, 4)
    rng = np.random.default_rng(9)
    a = random_inputs(s, rng)
    bf = {"src_layer", "src_iter", "weights_layer", "weights_iter", "dst_layer", "dst_iter"}
    mds = {k: make_md(list(v), c.dnnl_bf16 if k in bf else c.dnnl_f32, TAGS[len(v)])
           for k, v in s.items()}
    dmds = {"diff_" + k: make_md(list(v), c.dnnl_f32, TAGS[len(v)]) for k, v in s.items()}
    st, fpd = fwd_pd(eng, c.dnnl_forward_training, L2R, mds)
    check(st, "bf16 forward")
    st, bpd = bwd_pd(eng, L2R, mds, dmds, fpd, c.dnnl_rnn_flags_diff_weights_overwrite)
    check(st, "bf16 backward")
    bufs = {k: (bf16_bits(a[k]) if k in bf else np.ascontiguousarray(a[k], np.float32))
            if k in a else np.zeros(v, np.uint16 if k in bf else np.float32)
            for k, v in s.items()}
    ws = ws_bytes(fpd)
    mems = {ARG[k]: make_memory(mds[k], eng, v) for k, v in bufs.items()}
    mems[c.DNNL_ARG_WORKSPACE] = make_memory(query_md(fpd, c.DNNL_ARG_WORKSPACE), eng, ws)
    for pd, extra in ((fpd, {}), (bpd, None)):
        prim = c.dnnl_primitive_t()
        check(c.dnnl_primitive_create(prim, pd))
        if extra is None:
            dd = {k: rng.standard_normal(s[k]) for k in ("dst_layer", "dst_iter", "dst_iter_c")}
            dbufs = {"diff_" + k: np.ascontiguousarray(dd.get(k, np.zeros(v)), np.float32)
                     for k, v in s.items()}
            mems.update({ARG[k]: make_memory(dmds[k], eng, v) for k, v in dbufs.items()})
        args = [c.dnnl_exec_arg_t(k, m) for k, m in mems.items()]
        check(c.dnnl_primitive_execute(prim, strm, len(args), args))
    rounded = {k: (bf16_round(v) if k in bf else v) for k, v in a.items()}
    grads = np_grads(rounded, L2R, dd)
    for name, g in grads.items():
        np.testing.assert_allclose(dbufs["diff_" + name], g, rtol=3e-2, atol=3e-2, err_msg=name)


def run_training(eng, strm, s, direction, a, dd, impl):
    """Forward training then backward with implementation impl; the outputs."""
    mds = mds_for(s)
    st, fpd = fwd_pd(eng, c.dnnl_forward_training, direction, mds)
    check(st)
    walk_to(fpd, impl)
    out = {k: np.zeros(v, np.float32) for k, v in s.items() if k.startswith("dst")}
    ws = ws_bytes(fpd)
    fres = execute(eng, strm, fpd, {**a, **out, c.DNNL_ARG_WORKSPACE: ws})
    st, bpd = bwd_pd(eng, direction, mds, {"diff_" + k: v for k, v in mds.items()}, fpd)
    check(st)
    walk_to(bpd, impl)
    diffs = {"diff_" + k: np.zeros(v) for k, v in s.items()}
    diffs.update({"diff_" + k: v for k, v in dd.items()})
    res = execute(eng, strm, bpd, {**a, **{k: fres[k] for k in out},
                                   c.DNNL_ARG_WORKSPACE: ws, **diffs})
    return {**{k: fres[k] for k in out}, **res}


@pytest.mark.parametrize("impl", level_impls("gemm"))
@pytest.mark.parametrize("direction", [L2R, CONCAT])
def test_panel_wide_cells_match_the_reference(eng, strm, impl, direction):
    """DHC a multiple of every kernel's panel width: the threads split each
    step by columns of every gate (the fused path), against ref:any."""
    D = 2 if direction == CONCAT else 1
    s = shapes(2, D, 4, 3, 64, 64, peephole=True, direction=direction)
    rng = np.random.default_rng(11)
    a = random_inputs(s, rng, 0.2)
    dd = {k: rng.standard_normal(s[k]) for k in ("dst_layer", "dst_iter", "dst_iter_c")}
    ref = run_training(eng, strm, s, direction, dict(a), dd, "ref:any")
    got = run_training(eng, strm, s, direction, dict(a), dd, impl)
    for k in ref:
        if isinstance(k, str) and (k.startswith("dst") or k.startswith("diff_")):
            np.testing.assert_allclose(got[k], ref[k], rtol=1e-4, atol=1e-5, err_msg=k)


@pytest.mark.parametrize("impl", level_impls("gemm")[:1] + ["ref:any"])
def test_one_step_with_a_state_size_of_its_own(eng, strm, impl):
    """T = 1 lets src_iter's channels (SIC) differ from the hidden size."""
    s = shapes(1, 1, 1, 2, 3, 4)
    s.update({"src_iter": (1, 1, 2, 6), "weights_iter": (1, 1, 6, 4, 4)})
    rng = np.random.default_rng(13)
    a = random_inputs(s, rng)
    dd = {k: rng.standard_normal(s[k]) for k in ("dst_layer", "dst_iter", "dst_iter_c")}
    res = run_training(eng, strm, s, L2R, dict(a), dd, impl)
    ref = np_lstm(a, L2R)
    np.testing.assert_allclose(res["dst_layer"], ref[0], rtol=1e-4, atol=1e-5)
    for name, g in np_grads(a, L2R, dd).items():
        np.testing.assert_allclose(res["diff_" + name], g, rtol=2e-3, atol=2e-4, err_msg=name)
