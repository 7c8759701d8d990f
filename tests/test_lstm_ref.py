"""The LSTM primitives (dnnl_c and dnnl) against dnnl/benchdnn/ref_rnn.py, the
float64 reference written apart from the library: forward outputs and every
backward diff, diff weights accumulated into the buffers' initial contents,
over every direction, 1..3 layers, with and without initial states,
peephole, projection, batch 1 and 3, T 1..4, sizes not multiples of 8, and
every implementation the primitive descriptor lists (next_impl). f32 to
1e-5 of each tensor's scale; bf16 against the reference on bf16-rounded
inputs to a bf16 tolerance.

Each test loops over its sub-cases and reports every one that disagrees,
so one failure does not hide the others."""

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from dnnl.benchdnn import ref_rnn as rnn_ref
from harness import Layout
from helpers import bf16_bits, bf16_to_f32, check, make_md, make_memory, to_layout
from test_lstm import ARG, FWD_NAMES, TAGS, bwd_pd, fwd_pd, query_md, walk_to, ws_bytes

DIRECTION = {"unidirectional_left2right": c.dnnl_unidirectional_left2right,
             "unidirectional_right2left": c.dnnl_unidirectional_right2left,
             "bidirectional_concat": c.dnnl_bidirectional_concat,
             "bidirectional_sum": c.dnnl_bidirectional_sum}
VARIANTS = {"plain": (False, False), "peephole": (True, False), "projection": (False, True),
            "peephole+projection": (True, True)}
# What a bf16 LSTM keeps in bf16 (the rest, diffs included, is f32).
BF16 = set(rnn_ref.BF16_ARGS) | {"dst_layer", "dst_iter"}
DIFF_W = ["weights_layer", "weights_iter", "weights_peephole", "weights_projection", "bias"]
SLC, DHC, DIC_PROJ = 7, 5, 3
TOL_F32, TOL_BF16 = 1e-5, 2e-2


def impl_names(eng, direction, mds):
    """Every implementation a forward-training pd lists for this problem."""
    st, pd = fwd_pd(eng, c.dnnl_forward_training, direction, mds)
    check(st, "forward pd")
    seen, info = [], [None]
    while True:
        check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, info))
        seen.append(info[0])
        if c.dnnl_primitive_desc_next_impl(pd) != c.dnnl_success:
            return seen


def to_buf(a, bf16):
    return bf16_bits(a) if bf16 else np.ascontiguousarray(a, np.float32)


def from_buf(b):
    return bf16_to_f32(b).astype(np.float64) if b.dtype == np.uint16 else b.astype(np.float64)


def run(eng, strm, pd, mds, bufs, ws):
    """Executes pd over bufs (name -> plain array laid out as mds[name])."""
    prim = c.dnnl_primitive_t()
    check(c.dnnl_primitive_create(prim, pd), "primitive_create")
    args = [c.dnnl_exec_arg_t(ARG[k], make_memory(mds[k], eng, v)) for k, v in bufs.items()]
    args.append(c.dnnl_exec_arg_t(c.DNNL_ARG_WORKSPACE, make_memory(
        query_md(pd, c.DNNL_ARG_WORKSPACE), eng, ws)))
    check(c.dnnl_primitive_execute(prim, strm, len(args), args), "execute")
    check(c.dnnl_stream_wait(strm))


def problem(rng, dname, L, T, N, peephole, projection, states, dst_iter):
    """rnn_ref inputs, the diff_dst tensors and the shapes of every tensor."""
    dic = DIC_PROJ if projection else DHC
    slc = SLC if L == 1 else dic            # layers > 0 read DIC channels
    a = rnn_ref.make_args(rng, T, N, slc, DHC, L, dname, DIC=dic, peephole=peephole,
                          projection=projection, states=states)
    dims = rnn_ref.lstm_dims(a, dname)
    D = dims["D"]
    shapes = {k: v.shape for k, v in a.items()}
    shapes["dst_layer"] = (T, N, dims["DLC"])
    which = ["diff_dst_layer"]
    if dst_iter:
        shapes.update(dst_iter=(L, D, N, dic), dst_iter_c=(L, D, N, DHC))
        which += ["diff_dst_iter", "diff_dst_iter_c"]
    dd = rnn_ref.make_diff_dst(rng, a, dname, which)
    return f32(a), f32(dd), shapes


def f32(d):
    """The values an f32 buffer can hold, so the reference sees what the
    primitive reads."""
    return {k: v.astype(np.float32).astype(np.float64) for k, v in d.items()}


def laid_out(x, md):
    """x (f32) in md's buffer, placed by the NumPy layout model."""
    lay = Layout(md)
    buf = np.full(lay.nelems, np.nan, np.float32)
    buf[lay.offsets.reshape(-1)] = x.reshape(-1)
    return buf


def train(eng, strm, dname, impl, a, dd, shapes, prior, bf16=False, weights=None,
          bwd_weights="any"):
    """Forward training then backward (diff weights accumulate) with impl:
    the outputs and diffs as float64 arrays by name. weights (a dict) asks
    for `any` weights_layer / weights_iter, laid out as the pds resolve
    them (recorded in it by (pass, name)); backward is given forward's
    layouts instead with bwd_weights="forward's"."""
    direction = DIRECTION[dname]
    mds = {k: make_md(list(v), c.dnnl_bf16 if bf16 and k in BF16 else c.dnnl_f32,
                      TAGS[len(v)]) for k, v in shapes.items()}
    wnames = ("weights_layer", "weights_iter") if weights is not None else ()
    for k in wnames:
        mds[k] = make_md(list(shapes[k]), c.dnnl_f32, c.dnnl_format_tag_any)
    st, fpd = fwd_pd(eng, c.dnnl_forward_training, direction, mds)
    check(st, "forward pd")
    walk_to(fpd, impl)
    for k in wnames:
        mds[k] = weights["fwd", k] = query_md(fpd, ARG[k])
    bufs = {k: to_buf(a[k], bf16 and k in BF16) for k in shapes if k in a}
    for k in wnames:
        bufs[k] = laid_out(a[k], mds[k])
    for k in shapes:
        if k.startswith("dst"):
            bufs[k] = np.zeros(shapes[k], np.uint16 if bf16 and k in BF16 else np.float32)
    ws = ws_bytes(fpd)
    run(eng, strm, fpd, mds, bufs, ws)
    dmds = {"diff_" + k: make_md(list(v), c.dnnl_f32, TAGS[len(v)]) for k, v in shapes.items()}
    if bwd_weights == "any":
        for k in wnames:
            mds[k] = make_md(list(shapes[k]), c.dnnl_f32, c.dnnl_format_tag_any)
    st, bpd = bwd_pd(eng, direction, mds, dmds, fpd)
    check(st, "backward pd")
    walk_to(bpd, impl)
    for k in wnames:
        mds[k] = weights["bwd", k] = query_md(bpd, ARG[k])
        bufs[k] = laid_out(a[k], mds[k])
    allm = {**mds, **dmds}
    for k, v in shapes.items():
        if "diff_" + k in dd:
            bufs["diff_" + k] = to_buf(dd["diff_" + k], False)
        elif "diff_" + k in prior:
            bufs["diff_" + k] = to_buf(prior["diff_" + k], False)
        else:                               # written by backward: start as NaN
            bufs["diff_" + k] = np.full(v, np.nan, np.float32)
    run(eng, strm, bpd, allm, bufs, ws)
    return {k: from_buf(v) for k, v in bufs.items()}


def compare(got, a, dd, prior, dname, tol, where, bad):
    """Appends to `bad` each tensor off the reference by more than tol times
    the reference tensor's largest magnitude (the gradient's alone for the
    diff weights, not that plus the buffer's initial contents)."""
    want = dict(rnn_ref.lstm_forward(a, dname))
    scales = {k: np.abs(v).max() for k, v in want.items()}
    for k, g in rnn_ref.lstm_backward({**a, **dd}, dname).items():
        want[k] = g + prior.get(k, 0.0)
        scales[k] = np.abs(g).max()
    for k, w in want.items():
        if k not in got:
            continue
        err = np.abs(got[k] - w).max()
        scale = max(scales[k], 1e-3)
        # plus one f32 ulp of the stored value: prior + gradient is rounded
        if not err <= tol * scale + 2.0 ** -23 * np.abs(w).max():   # NaN fails too
            bad.append("%s %s: max err %.3g, scale %.3g" % (where, k, err, scale))


def priors(rng, shapes):
    return f32({"diff_" + k: rng.uniform(-1, 1, shapes[k]) for k in DIFF_W if k in shapes})


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("L", [1, 2, 3])
@pytest.mark.parametrize("dname", list(DIRECTION))
def test_f32_against_rnn_ref(eng, strm, dname, L, variant):
    peephole, projection = VARIANTS[variant]
    rng = np.random.default_rng([L, list(DIRECTION).index(dname), list(VARIANTS).index(variant)])
    bad, impls, runs = [], None, 0
    for states in (True, False):
        for N in (1, 3):
            for T in (1, 2, 3, 4):
                # without initial states, batch 1 also leaves out dst_iter
                dst_iter = states or N == 3
                a, dd, shapes = problem(rng, dname, L, T, N, peephole, projection, states,
                                        dst_iter)
                prior = priors(rng, shapes)
                if impls is None:
                    impls = impl_names(eng, DIRECTION[dname], {
                        k: make_md(list(v), c.dnnl_f32, TAGS[len(v)]) for k, v in shapes.items()})
                for impl in impls:
                    got = train(eng, strm, dname, impl, a, dd, shapes, prior)
                    where = "%s states=%s N=%d T=%d dst_iter=%s" % (impl, states, N, T, dst_iter)
                    compare(got, a, dd, prior, dname, TOL_F32, where, bad)
                    runs += 1
    assert runs == 16 * len(impls) and "ref:any" in impls
    assert not bad, "\n".join(bad)


# The panel width of each level's GEMM kernel (its NR).
PANEL = {"gemm:avx512_core": 32, "gemm:avx2": 16, "gemm:sse41": 8}


def expect_layout(md, dims, tag):
    """md places every element where layout `tag` (helpers.to_layout) does."""
    n = int(np.prod(dims))
    where = to_layout(np.arange(n).reshape(dims), tag)
    want = np.empty(n, np.int64)
    want[where] = np.arange(where.size)
    return np.array_equal(Layout(md).offsets.reshape(-1), want)


@pytest.mark.parametrize("bwd", ["any", "forward's"])
@pytest.mark.parametrize("dname", ["unidirectional_right2left", "bidirectional_concat"])
def test_any_weights_in_the_kernels_panels(eng, strm, dname, bwd):
    """Sizes in whole panels of every level (multiples of 32): `any`
    weights_layer / weights_iter resolve to the GEMM kernel's packed panels
    of its width nr, forward (l, d, g, o / nr, i, nr o) (ldgOi32o at
    AVX-512), backward (l, d, i / nr, g, o, nr i), read with no packing per
    call; ref:any's to ldigo / ldgoi. Backward given forward's layouts
    instead stages them. Data placed by the NumPy layout model; results
    against rnn_ref, every implementation."""
    rng = np.random.default_rng([7, list(DIRECTION).index(dname)])
    a = f32(rnn_ref.make_args(rng, 3, 5, 32, 32, L=2, direction=dname, peephole=True))
    dims = rnn_ref.lstm_dims(a, dname)
    shapes = {k: v.shape for k, v in a.items()}
    shapes.update(dst_layer=(3, 5, dims["DLC"]), dst_iter=a["src_iter"].shape,
                  dst_iter_c=a["src_iter_c"].shape)
    dd = f32(rnn_ref.make_diff_dst(rng, a, dname))
    prior = priors(rng, shapes)
    bad, impls = [], impl_names(eng, DIRECTION[dname], {
        k: make_md(list(v), c.dnnl_f32, TAGS[len(v)]) for k, v in shapes.items()})
    for impl in impls:
        weights = {}
        got = train(eng, strm, dname, impl, a, dd, shapes, prior, weights=weights,
                    bwd_weights=bwd)
        compare(got, a, dd, prior, dname, TOL_F32, impl, bad)
        nr = PANEL.get(impl)
        want = {"fwd": "abdEc%de" % nr if nr else "abcde",
                "bwd": "abCde%dc" % nr if nr else "abdec"}
        if bwd == "forward's":
            want["bwd"] = want["fwd"]
        for (pas, k), md in weights.items():
            if not expect_layout(md, shapes[k], want[pas]):
                bad.append("%s %s %s: %s, not %s" % (impl, pas, k, c.cydnnl_md2str(md),
                                                     want[pas]))
    assert "ref:any" in impls and len(impls) > 1
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("L", [1, 2])
@pytest.mark.parametrize("dname", list(DIRECTION))
def test_bf16_against_rnn_ref_on_rounded_inputs(eng, strm, dname, L):
    """bf16 data and weights, f32 c states, peephole, bias and diffs; the
    reference runs in float64 on the bf16-rounded inputs, so the tolerance
    covers the h and gates the primitive rounds between steps."""
    rng = np.random.default_rng([L, 100 + list(DIRECTION).index(dname)])
    bad = []
    for variant, (peephole, projection) in VARIANTS.items():
        for states, N, T in ((True, 3, 3), (False, 1, 2)):
            a, dd, shapes = problem(rng, dname, L, T, N, peephole, projection, states, True)
            a = rnn_ref.round_args_bf16(a)
            prior = priors(rng, shapes)
            mds = {k: make_md(list(v), c.dnnl_bf16 if k in BF16 else c.dnnl_f32,
                              TAGS[len(v)]) for k, v in shapes.items()}
            for impl in impl_names(eng, DIRECTION[dname], mds):
                got = train(eng, strm, dname, impl, a, dd, shapes, prior, bf16=True)
                where = "%s %s states=%s N=%d T=%d" % (impl, variant, states, N, T)
                compare(got, a, dd, prior, dname, TOL_BF16, where, bad)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("dname", list(DIRECTION))
def test_object_layer_against_rnn_ref(dname):
    """dnnl.lstm_forward / lstm_backward (the overloads with peephole and
    projection, `any` layouts) on a two-layer problem, default impl."""
    from dnnl import lstm_backward, lstm_forward, memory, prop_kind, rnn_direction
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    rng = np.random.default_rng(200 + list(DIRECTION).index(dname))
    a, dd, shapes = problem(rng, dname, 2, 3, 3, True, True, True, True)
    prior = priors(rng, shapes)
    md = {k: memory.desc(list(v), memory.data_type.f32, memory.format_tag.any)
          for k, v in shapes.items()}
    direction = getattr(rnn_direction, dname)
    fpd = lstm_forward.primitive_desc(eng, prop_kind.forward_training, direction,
                                      *[md[k] for k in FWD_NAMES])
    bpd = lstm_backward.primitive_desc(eng, prop_kind.backward, direction,
                                       *[md[k] for k in FWD_NAMES],
                                       *[md[k] for k in FWD_NAMES], fpd)
    mems, args = {}, {}
    for k in FWD_NAMES:
        mems[k] = memory(getattr(fpd, k + "_desc")(), eng)
        if k in a:
            mems[k].write(a[k])
        mems["diff_" + k] = memory(getattr(bpd, "diff_" + k + "_desc")(), eng)
        init = dd.get("diff_" + k, prior.get("diff_" + k))
        mems["diff_" + k].write(init if init is not None else np.full(shapes[k], np.nan))
    ws = memory(fpd.workspace_desc(), eng)
    arg = {k: getattr(dnnl, "DNNL_ARG_" + k.upper()) for k in mems}
    lstm_forward(fpd).execute(strm, {**{arg[k]: mems[k] for k in FWD_NAMES},
                                     dnnl.DNNL_ARG_WORKSPACE: ws})
    # backward may want the weights in another layout (ldgoi, as oneDNN's):
    # reordered as a oneDNN user does
    bwd_mems = dict(mems)
    for k in FWD_NAMES:
        if k in a and getattr(bpd, k + "_desc")() != mems[k].get_desc():
            bwd_mems[k] = memory(getattr(bpd, k + "_desc")(), eng)
            dnnl.reorder(mems[k], bwd_mems[k]).execute(strm, mems[k], bwd_mems[k])
    lstm_backward(bpd).execute(strm, {**{arg[k]: m for k, m in bwd_mems.items()},
                                      dnnl.DNNL_ARG_WORKSPACE: ws})
    strm.wait()
    bad = []
    compare({k: np.asarray(m, np.float64) for k, m in mems.items()}, a, dd, prior, dname,
            TOL_F32, "dnnl", bad)
    assert not bad, "\n".join(bad)
