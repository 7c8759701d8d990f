"""The NumPy LSTM reference (rnn_ref) checked on its own, before any test
trusts it: backward against central finite differences, forward against a
hand-written one-step cell, the time and layer recurrences against chained
one-step / one-layer runs, oneDNN's dimension rules, bf16 rounding, and
PyTorch's nn.LSTM where the two definitions agree (skipped without torch)."""

import itertools
import math
import zlib

import numpy as np
import pytest

from dnnl.benchdnn import ref_rnn as ref

# Forward input -> the backward output holding its gradient.
GRAD_OF = {"src_layer": "diff_src_layer", "src_iter": "diff_src_iter",
           "src_iter_c": "diff_src_iter_c", "weights_layer": "diff_weights_layer",
           "weights_iter": "diff_weights_iter", "bias": "diff_bias",
           "weights_peephole": "diff_weights_peephole",
           "weights_projection": "diff_weights_projection"}

VARIANTS = ("plain", "no_state", "peephole", "projection", "peephole_projection", "batch1")


def case_args(rng, direction, layers, variant, T=3):
    """Tiny problems, no size a multiple of 8: slc != dhc where oneDNN lets
    it (one layer), dic != dhc with projection."""
    proj = "projection" in variant
    dhc, dic = 5, (3 if proj else 5)
    slc = 7 if layers == 1 else dic       # L > 1 needs SLC == DIC
    n = 1 if variant == "batch1" else 2
    args = ref.make_args(rng, T, n, slc, dhc, L=layers, direction=direction, DIC=dic,
                         peephole="peephole" in variant, projection=proj,
                         states=variant != "no_state")
    return args, ref.make_diff_dst(rng, args, direction)


def loss(args, direction, diffs):
    """The scalar whose gradient lstm_backward returns."""
    out = ref.lstm_forward(args, direction)
    return sum(float((diffs["diff_" + k] * out[k]).sum()) for k in out)


def check_gradients(rng, args, direction, diffs, samples=4, eps=1e-6):
    grads = ref.lstm_backward({**args, **diffs}, direction)
    inputs = [k for k in GRAD_OF if args.get(k) is not None]
    assert set(grads) >= {GRAD_OF[k] for k in inputs}
    # All inputs at once along a random direction v: dL/de(x + e v) = <g, v>.
    v = {k: rng.standard_normal(args[k].shape) for k in inputs}
    plus = dict(args, **{k: args[k] + eps * v[k] for k in inputs})
    minus = dict(args, **{k: args[k] - eps * v[k] for k in inputs})
    fd = (loss(plus, direction, diffs) - loss(minus, direction, diffs)) / (2 * eps)
    an = sum(float((grads[GRAD_OF[k]] * v[k]).sum()) for k in inputs)
    assert fd == pytest.approx(an, rel=1e-6, abs=1e-8)
    # A few single elements of every tensor, to localise a failure.
    for k in inputs:
        flat = args[k].reshape(-1)
        for idx in rng.choice(flat.size, min(samples, flat.size), replace=False):
            vals = []
            for sign in (1, -1):
                p = flat.copy()
                p[idx] += sign * eps
                vals.append(loss(dict(args, **{k: p.reshape(args[k].shape)}), direction, diffs))
            fd = (vals[0] - vals[1]) / (2 * eps)
            assert fd == pytest.approx(grads[GRAD_OF[k]].reshape(-1)[idx], rel=1e-6, abs=1e-8), (k, idx)
    return grads


@pytest.mark.parametrize("direction,layers,variant",
                         list(itertools.product(ref.DIRECTIONS, (1, 2, 3), VARIANTS)))
def test_backward_matches_finite_differences(direction, layers, variant):
    rng = np.random.default_rng(zlib.crc32(f"{direction} {layers} {variant}".encode()))
    args, diffs = case_args(rng, direction, layers, variant)
    check_gradients(rng, args, direction, diffs)


@pytest.mark.parametrize("direction", ref.DIRECTIONS)
def test_backward_one_step_sic_ne_dic(direction):
    """T == 1 is the one case where oneDNN allows SIC != DIC."""
    rng = np.random.default_rng(3)
    args = ref.make_args(rng, 1, 2, 3, 5, L=2, direction=direction, DIC=3, SIC=4,
                         peephole=True, projection=True)
    check_gradients(rng, args, direction, ref.make_diff_dst(rng, args, direction))


@pytest.mark.parametrize("direction", ref.DIRECTIONS)
def test_absent_diffs_and_states_are_zeros(direction):
    rng = np.random.default_rng(4)
    args, diffs = case_args(rng, direction, 2, "no_state")
    dims = ref.lstm_dims(args, direction)
    zeros = dict(args, src_iter=np.zeros((2, dims["D"], 2, dims["SIC"])),
                 src_iter_c=np.zeros((2, dims["D"], 2, dims["DHC"])))
    for a, b in zip(ref.lstm_forward(args, direction).values(),
                    ref.lstm_forward(zeros, direction).values()):
        np.testing.assert_array_equal(a, b)
    only_layer = {"diff_dst_layer": diffs["diff_dst_layer"]}
    g1 = ref.lstm_backward({**args, **only_layer}, direction)
    g2 = ref.lstm_backward({**zeros, **only_layer, "diff_dst_iter": np.zeros_like(diffs["diff_dst_iter"]),
                            "diff_dst_iter_c": np.zeros_like(diffs["diff_dst_iter_c"])}, direction)
    for k in g1:
        np.testing.assert_array_equal(g1[k], g2[k])
    assert not ref.lstm_backward(args, direction)["diff_weights_layer"].any()


def hand_lstm_step(x, h, c, wl, wi, b, p=None, r=None):
    """One cell, one batch row at a time, written element by element from
    rnn.md's equations. Shapes: x [N, SLC], h [N, SIC], c [N, DHC],
    wl [SLC, 4, DHC], wi [SIC, 4, DHC], b [4, DHC], p [3, DHC], r [DHC, DIC]."""
    def sig(v):
        return 1.0 / (1.0 + math.exp(-v))

    n_, dhc = c.shape
    dic = dhc if r is None else r.shape[1]
    h_out, c_out = np.zeros((n_, dic)), np.zeros((n_, dhc))
    for n in range(n_):
        pre = [[b[g][j] + sum(x[n][k] * wl[k][g][j] for k in range(x.shape[1]))
                + sum(h[n][k] * wi[k][g][j] for k in range(h.shape[1])) for j in range(dhc)]
               for g in range(4)]
        m = []
        for j in range(dhc):
            pi = p[0][j] * c[n][j] if p is not None else 0.0
            pf = p[1][j] * c[n][j] if p is not None else 0.0
            i, f, ct = sig(pre[0][j] + pi), sig(pre[1][j] + pf), math.tanh(pre[2][j])
            c_out[n][j] = f * c[n][j] + i * ct
            po = p[2][j] * c_out[n][j] if p is not None else 0.0
            m.append(sig(pre[3][j] + po) * math.tanh(c_out[n][j]))
        for k in range(dic):
            h_out[n][k] = m[k] if r is None else sum(m[j] * r[j][k] for j in range(dhc))
    return h_out, c_out


@pytest.mark.parametrize("peephole,projection", [(False, False), (True, False), (False, True), (True, True)])
def test_forward_one_step_matches_hand_written_cell(peephole, projection):
    rng = np.random.default_rng(5)
    args = ref.make_args(rng, 1, 3, 7, 5, DIC=3 if projection else None, SIC=4 if projection else None,
                         peephole=peephole, projection=projection, scale=1.0)
    out = ref.lstm_forward(args)
    p = args["weights_peephole"][0, 0] if peephole else None
    r = args["weights_projection"][0, 0] if projection else None
    h, c = hand_lstm_step(args["src_layer"][0], args["src_iter"][0, 0], args["src_iter_c"][0, 0],
                          args["weights_layer"][0, 0], args["weights_iter"][0, 0], args["bias"][0, 0], p, r)
    np.testing.assert_allclose(out["dst_layer"][0], h, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["dst_iter"][0, 0], h, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["dst_iter_c"][0, 0], c, rtol=1e-12, atol=1e-14)


def _slice_dir(args, d):
    """A one-direction problem holding direction d's weights and states."""
    return {k: (v[:, d:d + 1] if k != "src_layer" else v) for k, v in args.items()}


def _slice_layer(args, layer):
    return {k: (v[layer:layer + 1] if k != "src_layer" else v) for k, v in args.items()}


@pytest.mark.parametrize("variant", ("plain", "peephole_projection"))
def test_time_recurrence_is_chained_steps(variant):
    """left2right over T steps == T one-step runs passing dst_iter(_c) on;
    right2left == the same walking t = T-1 .. 0."""
    rng = np.random.default_rng(6)
    for direction in ref.DIRECTIONS[:2]:
        args, _ = case_args(rng, direction, 2, variant, T=4)
        out = ref.lstm_forward(args, direction)
        state = {"src_iter": args["src_iter"], "src_iter_c": args["src_iter_c"]}
        order = range(4) if direction == ref.DIRECTIONS[0] else range(3, -1, -1)
        for t in order:
            step = ref.lstm_forward(dict(args, src_layer=args["src_layer"][t:t + 1], **state), direction)
            np.testing.assert_allclose(step["dst_layer"][0], out["dst_layer"][t], rtol=1e-13)
            state = {"src_iter": step["dst_iter"], "src_iter_c": step["dst_iter_c"]}
        np.testing.assert_allclose(state["src_iter"], out["dst_iter"], rtol=1e-13)
        np.testing.assert_allclose(state["src_iter_c"], out["dst_iter_c"], rtol=1e-13)


@pytest.mark.parametrize("direction", ref.DIRECTIONS[2:])
def test_layers_stack_per_direction(direction):
    """oneDNN's stacking: each direction runs its own L-layer stack (layer
    l > 0 reads the same direction's layer l - 1), and only the last
    layer's outputs are concatenated or summed."""
    rng = np.random.default_rng(7)
    args, _ = case_args(rng, direction, 3, "peephole_projection")
    out = ref.lstm_forward(args, direction)
    tops = []
    for d, one_dir in enumerate(ref.DIRECTIONS[:2]):
        a = _slice_dir(args, d)
        x = a["src_layer"]
        for layer in range(3):
            o = ref.lstm_forward(dict(_slice_layer(a, layer), src_layer=x), one_dir)
            np.testing.assert_allclose(o["dst_iter"][0, 0], out["dst_iter"][layer, d], rtol=1e-13)
            np.testing.assert_allclose(o["dst_iter_c"][0, 0], out["dst_iter_c"][layer, d], rtol=1e-13)
            x = o["dst_layer"]
        tops.append(x)
    want = np.concatenate(tops, 2) if direction == "bidirectional_concat" else tops[0] + tops[1]
    np.testing.assert_allclose(out["dst_layer"], want, rtol=1e-13)


def test_dims_follow_onednn_rules():
    rng = np.random.default_rng(8)
    a = ref.make_args(rng, 3, 2, 7, 5, L=1, direction="bidirectional_concat", DIC=3, projection=True)
    dims = ref.lstm_dims(a, "bidirectional_concat")
    assert (dims["DLC"], dims["DIC"], dims["D"]) == (6, 3, 2)
    assert ref.lstm_dims(a, "bidirectional_sum")["DLC"] == 3
    l2r, bi = "unidirectional_left2right", "bidirectional_concat"
    bad = [
        # L > 1 needs SLC == DIC: the per-direction stack feeds DIC channels up.
        (ref.make_args(rng, 3, 2, 7, 5, L=2), l2r),
        # T > 1 needs SIC == DIC.
        (ref.make_args(rng, 3, 2, 7, 5, SIC=4), l2r),
        (dict(a, bias=np.zeros((1, 2, 3, 5))), bi),
        (dict(a, weights_peephole=np.zeros((1, 2, 4, 5))), bi),
        (dict(a, src_iter_c=np.zeros((1, 2, 2, 3))), bi),    # c has DHC channels
        (dict(a, dst_layer=np.zeros((3, 2, 3))), bi),        # concat: DLC = 2 * DIC
        (dict(a, dst_iter=np.zeros((1, 2, 2, 5))), bi),      # dst_iter has DIC
        (dict(a, diff_weights_projection=np.zeros((1, 2, 3, 5))), bi),
        ({k: v for k, v in a.items() if k != "weights_iter"}, bi),
        ({k: v for k, v in a.items() if k != "src_iter_c"}, bi),   # h and c go together
        (dict(a, diff_dst_iter=np.zeros((1, 2, 2, 3))), bi),
    ]
    for case, direction in bad:
        with pytest.raises(ValueError):
            ref.lstm_dims(case, direction)
    # One step lets SIC differ from DIC; "unidirectional" is left2right.
    ref.lstm_dims(ref.make_args(rng, 1, 2, 7, 5, SIC=4), "unidirectional")
    with pytest.raises(ValueError):
        ref.lstm_forward(a, "bidirectional")


def test_round_bf16():
    x = np.array([1 + 2**-8, 1 + 3 * 2**-8, -(1 + 2**-8 + 2**-20), 1e-40, -1e-40,
                  np.inf, -np.inf, np.nan, 3.0, np.finfo(np.float32).max])
    want = np.array([1.0, 1 + 2**-6, -(1 + 2**-7), 0.0, -0.0, np.inf, -np.inf, np.nan, 3.0, np.inf])
    got = ref.round_bf16(x)
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[4]) and got.dtype == np.float64
    rng = np.random.default_rng(9)
    args = ref.make_args(rng, 2, 2, 3, 5, peephole=True)
    r = ref.round_args_bf16(args)
    for k, v in args.items():
        if k in ref.BF16_ARGS:
            np.testing.assert_array_equal(r[k], ref.round_bf16(v))
            assert (np.abs(r[k] - v) <= 2**-8 * np.abs(v)).all()   # half an ulp
        else:
            assert r[k] is v                  # bias, c and peephole stay f32


# ---- PyTorch's nn.LSTM, where the two definitions agree ----------------------
# torch keeps weight_ih_l{k}{_reverse} [4H, in], weight_hh [4H, H or P] (gate
# order i, f, g, o like oneDNN's i, f, c~, o), TWO biases bias_ih + bias_hh
# (only their sum matters: oneDNN has one), weight_hr [P, H] for proj_size,
# h_0 / c_0 [L * D, N, .] at index l * D + d. It has no peephole, no
# right2left-only mode (feed it the reversed sequence) and no sum of
# directions (sum its two halves). Its bidirectional layer l > 0 reads the
# concat of both directions (weight_ih [4H, 2H]), oneDNN's reads one
# direction: multi-layer bidirectional stacks are different networks, so
# they are compared for one layer only.

def _torch_case(torch, rng, direction, layers, projection, states):
    args = case_args(rng, direction, layers, "projection" if projection else
                     ("plain" if states else "no_state"), T=4)[0]
    diffs = ref.make_diff_dst(rng, args, direction)
    dims = ref.lstm_dims(args, direction)
    L, D, H, P = dims["L"], dims["D"], dims["DHC"], dims["DIC"]
    m = torch.nn.LSTM(dims["SLC"], H, num_layers=L, bidirectional=D == 2,
                      proj_size=P if projection else 0).double()
    bias_split = rng.uniform(-1, 1, size=(L, D, 4 * H))
    with torch.no_grad():
        for l_, d in itertools.product(range(L), range(D)):
            sfx = f"_l{l_}" + ("_reverse" if d else "")
            t = {"weight_ih": args["weights_layer"][l_, d].reshape(-1, 4 * H).T,
                 "weight_hh": args["weights_iter"][l_, d].reshape(-1, 4 * H).T,
                 "bias_ih": args["bias"][l_, d].reshape(4 * H) - bias_split[l_, d],
                 "bias_hh": bias_split[l_, d]}
            if projection:
                t["weight_hr"] = args["weights_projection"][l_, d].T
            for name, val in t.items():
                getattr(m, name + sfx).copy_(torch.from_numpy(np.ascontiguousarray(val)))
    return m, args, diffs, dims


@pytest.mark.parametrize("direction,layers,projection,states", [
    *[(d, l_, p, s) for d in ref.DIRECTIONS[:2] for l_ in (1, 2, 3) for p in (False, True)
      for s in (True, False) if not (p and not s)],
    *[(d, 1, p, True) for d in ref.DIRECTIONS[2:] for p in (False, True)]])
def test_matches_torch_lstm(direction, layers, projection, states):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(10 + layers)
    m, args, diffs, dims = _torch_case(torch, rng, direction, layers, projection, states)
    L, D, N = dims["L"], dims["D"], dims["N"]
    r2l = direction == "unidirectional_right2left"
    x = torch.from_numpy(args["src_layer"][::-1].copy() if r2l else args["src_layer"]).requires_grad_()
    hx = None
    if states:
        h0 = torch.from_numpy(args["src_iter"].reshape(L * D, N, -1)).requires_grad_()
        c0 = torch.from_numpy(args["src_iter_c"].reshape(L * D, N, -1)).requires_grad_()
        hx = (h0, c0)
    out, (hn, cn) = m(x, hx)
    if r2l:
        out = out.flip(0)
    if direction == "bidirectional_sum":
        out = out[..., :dims["DIC"]] + out[..., dims["DIC"]:]
    mine = ref.lstm_forward(args, direction)
    np.testing.assert_allclose(out.detach().numpy(), mine["dst_layer"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hn.detach().numpy().reshape(mine["dst_iter"].shape), mine["dst_iter"],
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cn.detach().numpy().reshape(mine["dst_iter_c"].shape), mine["dst_iter_c"],
                               rtol=1e-10, atol=1e-12)

    t_loss = ((out * torch.from_numpy(diffs["diff_dst_layer"])).sum()
              + (hn * torch.from_numpy(diffs["diff_dst_iter"].reshape(hn.shape))).sum()
              + (cn * torch.from_numpy(diffs["diff_dst_iter_c"].reshape(cn.shape))).sum())
    t_loss.backward()
    g = ref.lstm_backward({**args, **diffs}, direction)

    def close(a, b):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)

    dx = x.grad.numpy()
    close(dx[::-1] if r2l else dx, g["diff_src_layer"])
    if states:
        close(h0.grad.numpy().reshape(g["diff_src_iter"].shape), g["diff_src_iter"])
        close(c0.grad.numpy().reshape(g["diff_src_iter_c"].shape), g["diff_src_iter_c"])
    H = dims["DHC"]
    for l_, d in itertools.product(range(L), range(D)):
        sfx = f"_l{l_}" + ("_reverse" if d else "")
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh") + (("weight_hr",) if projection else ())
        grad = {n: getattr(m, n + sfx).grad.numpy() for n in names}
        close(grad["weight_ih"].T.reshape(-1, 4, H), g["diff_weights_layer"][l_, d])
        close(grad["weight_hh"].T.reshape(-1, 4, H), g["diff_weights_iter"][l_, d])
        close(grad["bias_ih"].reshape(4, H), g["diff_bias"][l_, d])
        close(grad["bias_hh"].reshape(4, H), g["diff_bias"][l_, d])
        if projection:
            close(grad["weight_hr"].T, g["diff_weights_projection"][l_, d])
