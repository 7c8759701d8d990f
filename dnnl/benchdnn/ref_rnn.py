"""A NumPy (float64) LSTM written from oneDNN's equations (doc/primitives/
rnn.md, ONEDNN_NOTES.md 3.5), sharing no code with the library: forward and
backward through time, every direction, several layers, peephole and
projection. Tensors are NumPy arrays in oneDNN's logical dims, passed in
dicts keyed by oneDNN's argument names (DNNL_ARG_SRC_LAYER -> "src_layer").

Shapes (T steps, N batch, L layers, D directions, G = 4 gates):
    src_layer           [T, N, SLC]          tnc
    src_iter            [L, D, N, SIC]       ldnc   (absent: zeros)
    src_iter_c          [L, D, N, DHC]       ldnc   (absent: zeros)
    weights_layer       [L, D, SLC, 4, DHC]  ldigo
    weights_iter        [L, D, SIC, 4, DHC]  ldigo
    weights_peephole    [L, D, 3, DHC]       ldgo   (absent: no peephole)
    weights_projection  [L, D, DHC, DIC]     ldio   (absent: no projection)
    bias                [L, D, 4, DHC]       ldgo   (absent: zeros)
    dst_layer           [T, N, DLC]          tnc
    dst_iter            [L, D, N, DIC]       ldnc
    dst_iter_c          [L, D, N, DHC]       ldnc
DIC = DHC without projection. DLC = 2 * DIC for bidirectional_concat, DIC
otherwise.

Cell (gate order i, f, c~, o; peephole order i, f, o; `*` element-wise):
    i  = sigmoid(x W_i + h_{t-1} U_i + P_i * c_{t-1} + B_i)
    f  = sigmoid(x W_f + h_{t-1} U_f + P_f * c_{t-1} + B_f)
    c~ = tanh   (x W_c + h_{t-1} U_c + B_c)
    c_t = f * c_{t-1} + i * c~
    o  = sigmoid(x W_o + h_{t-1} U_o + P_o * c_t + B_o)
    h_t = o * tanh(c_t)              (with projection: h_t = (o * tanh(c_t)) R)

How oneDNN stacks layers and directions (src/cpu/rnn/ref_rnn.cpp, benchdnn's
ref_rnn_fwd.cpp): each direction runs its own stack of L layers; layer l > 0
of direction d reads the dst of layer l - 1 of the SAME direction (DIC
channels), not the concat or sum of both. Only the last layer's outputs are
combined into dst_layer (concat over channels: l2r first; or summed).
right2left walks t = T-1 .. 0 and writes h computed at step t to dst_layer[t].
Both directions read src_layer, so diff_src_layer is the sum of both.
This differs from PyTorch, whose bidirectional layer l > 0 reads the concat.

Dimension rules (src/common/rnn.cpp, check_dim_consistency), checked here:
    DLC == (2 if bidirectional_concat else 1) * DIC
    L > 1  =>  (2 if bidirectional_concat else 1) * SLC == DLC, i.e. SLC == DIC
    T > 1  =>  SIC == DIC
    every tensor has exactly the dims above (absent optional ones excepted);
    an LSTM has src_iter and src_iter_c both or neither (same for dst_iter
    and dst_iter_c, and for their diffs).
The backward primitive also pairs each optional tensor with its diff
(bias / diff_bias, src_iter / diff_src_iter, ...); this reference returns
every gradient and leaves that pairing to the caller.

Backward returns the gradients of sum(diff_dst_layer * dst_layer) +
sum(diff_dst_iter * dst_iter) + sum(diff_dst_iter_c * dst_iter_c) (absent
diffs are zeros). oneDNN ADDS the diff weights and bias to what the user's
buffers hold unless dnnl_rnn_flags_diff_weights_overwrite: add the returned
values to the initial contents to model that.
"""

import numpy as np

DIRECTIONS = ("unidirectional_left2right", "unidirectional_right2left",
              "bidirectional_concat", "bidirectional_sum")
_ALIASES = {"unidirectional": "unidirectional_left2right"}  # as in dnnl.hpp

# Tensors a bf16 LSTM holds in bf16 (rnn.md 'Data Types'; rnn.cpp
# check_data_type_consistency_fwd). The peephole is f32; bias may be bf16 or
# f32 and src_iter_c f32 or bf16 (add them to `keys` when bf16); every
# diff_* tensor is f32.
BF16_ARGS = ("src_layer", "src_iter", "weights_layer", "weights_iter",
             "weights_projection")


def _direction(direction):
    direction = _ALIASES.get(direction, direction)
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}")
    return direction


def _get(args, key):
    """The array for `key`, or None when absent (missing, None or empty)."""
    a = args.get(key)
    if a is None:
        return None
    a = np.asarray(a, dtype=np.float64)
    return None if a.size == 0 else a


def _expect(args, key, dims, optional):
    a = _get(args, key)
    if a is None:
        if not optional:
            raise ValueError(f"{key} is required")
        return
    if tuple(a.shape) != tuple(dims):
        raise ValueError(f"{key} has dims {tuple(a.shape)}, oneDNN wants {tuple(dims)}")


def lstm_dims(args, direction):
    """Sizes of the problem as oneDNN derives them, after oneDNN's checks
    (ValueError where oneDNN answers invalid_arguments). Output and diff
    tensors present in `args` are checked too."""
    direction = _direction(direction)
    for key in ("src_layer", "weights_layer", "weights_iter"):
        if _get(args, key) is None:
            raise ValueError(f"{key} is required")
    wl, wi = _get(args, "weights_layer"), _get(args, "weights_iter")
    sl, proj = _get(args, "src_layer"), _get(args, "weights_projection")
    if sl.ndim != 3 or wl.ndim != 5 or wi.ndim != 5 or (proj is not None and proj.ndim != 4):
        raise ValueError("src_layer is tnc, weights are ldigo, projection is ldio")
    T, N, SLC = sl.shape
    L, DHC = wl.shape[0], wl.shape[4]
    SIC = wi.shape[2]
    DIC = proj.shape[3] if proj is not None else DHC
    D = 1 if direction.startswith("unidirectional") else 2
    mult = 2 if direction == "bidirectional_concat" else 1
    DLC = mult * DIC
    if L > 1 and SLC != DIC:
        raise ValueError(f"L > 1 needs channels(src_layer) {SLC} == DIC {DIC}")
    if T > 1 and SIC != DIC:
        raise ValueError(f"T > 1 needs SIC {SIC} == DIC {DIC}")
    dims = {"src_layer": (T, N, SLC), "src_iter": (L, D, N, SIC),
            "src_iter_c": (L, D, N, DHC), "weights_layer": (L, D, SLC, 4, DHC),
            "weights_iter": (L, D, SIC, 4, DHC), "weights_peephole": (L, D, 3, DHC),
            "weights_projection": (L, D, DHC, DIC), "bias": (L, D, 4, DHC),
            "dst_layer": (T, N, DLC), "dst_iter": (L, D, N, DIC),
            "dst_iter_c": (L, D, N, DHC)}
    for key, d in list(dims.items()):
        dims["diff_" + key] = d
    for key, d in dims.items():
        _expect(args, key, d, optional=key not in ("src_layer", "weights_layer", "weights_iter"))
    for key in ("src_iter", "dst_iter", "diff_src_iter", "diff_dst_iter"):
        if (_get(args, key) is None) != (_get(args, key + "_c") is None):
            raise ValueError(f"an LSTM takes {key} and {key}_c both or neither")
    return dict(T=T, N=N, L=L, D=D, SLC=SLC, SIC=SIC, DHC=DHC, DIC=DIC, DLC=DLC)


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # no overflow for large |x|


def _params(args, dims, layer, d):
    """The weights of one (layer, direction) cell as 2-D matrices."""
    G4 = 4 * dims["DHC"]
    wl = _get(args, "weights_layer")[layer, d].reshape(-1, G4)
    wi = _get(args, "weights_iter")[layer, d].reshape(-1, G4)
    b = _get(args, "bias")
    p = _get(args, "weights_peephole")
    r = _get(args, "weights_projection")
    return dict(wl=wl, wi=wi, b=np.zeros(G4) if b is None else b[layer, d].reshape(G4),
                p=None if p is None else p[layer, d], r=None if r is None else r[layer, d])


def _state(args, key, layer, d, n, c):
    a = _get(args, key)
    return np.zeros((n, c)) if a is None else a[layer, d].copy()


def _steps(direction, d, T):
    """Time steps in the order the cell walks them: direction index 0 of a
    bidirectional problem is left2right, index 1 right2left."""
    r2l = direction == "unidirectional_right2left" or d == 1
    return range(T - 1, -1, -1) if r2l else range(T)


def _forward(args, direction):
    """Runs every cell; returns the outputs and what backward needs."""
    direction = _direction(direction)
    dims = lstm_dims(args, direction)
    T, N, L, D, DHC, DIC = (dims[k] for k in ("T", "N", "L", "D", "DHC", "DIC"))
    src = _get(args, "src_layer")
    top = []                                  # last layer's [T, N, DIC] per direction
    dst_iter = np.zeros((L, D, N, DIC))
    dst_iter_c = np.zeros((L, D, N, DHC))
    cache = {}
    for d in range(D):
        x_seq = src
        for layer in range(L):
            w = _params(args, dims, layer, d)
            h = _state(args, "src_iter", layer, d, N, dims["SIC"])
            c = _state(args, "src_iter_c", layer, d, N, DHC)
            out = np.zeros((T, N, DIC))
            for t in _steps(direction, d, T):
                x = x_seq[t]
                a = (x @ w["wl"] + h @ w["wi"] + w["b"]).reshape(N, 4, DHC)
                ai, af, ac, ao = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
                if w["p"] is not None:
                    ai = ai + w["p"][0] * c
                    af = af + w["p"][1] * c
                i, f, g = _sigmoid(ai), _sigmoid(af), np.tanh(ac)
                c_new = f * c + i * g
                if w["p"] is not None:
                    ao = ao + w["p"][2] * c_new
                o = _sigmoid(ao)
                m = o * np.tanh(c_new)
                h_new = m @ w["r"] if w["r"] is not None else m
                cache[layer, d, t] = dict(x=x, h=h, c=c, i=i, f=f, g=g, o=o, c_new=c_new, m=m)
                out[t] = h_new
                h, c = h_new, c_new
            dst_iter[layer, d], dst_iter_c[layer, d] = h, c
            x_seq = out
        top.append(x_seq)
    if direction == "bidirectional_concat":
        dst_layer = np.concatenate(top, axis=2)
    elif direction == "bidirectional_sum":
        dst_layer = top[0] + top[1]
    else:
        dst_layer = top[0]
    outs = {"dst_layer": dst_layer, "dst_iter": dst_iter, "dst_iter_c": dst_iter_c}
    return outs, cache, dims


def lstm_forward(args, direction="unidirectional_left2right"):
    """dst_layer, dst_iter and dst_iter_c of an LSTM (see the module doc)."""
    return _forward(args, direction)[0]


def lstm_backward(args, direction="unidirectional_left2right"):
    """Gradients of the module doc's scalar for every input: diff_src_layer,
    diff_src_iter, diff_src_iter_c, diff_weights_layer, diff_weights_iter,
    diff_bias, and diff_weights_peephole / diff_weights_projection when the
    LSTM has them. `args` holds the forward inputs and diff_dst_layer,
    diff_dst_iter, diff_dst_iter_c (absent ones are zeros). The forward pass
    is recomputed here (oneDNN reads it from the workspace)."""
    direction = _direction(direction)
    _, cache, dims = _forward(args, direction)
    T, N, L, D, DHC, DIC, SLC = (dims[k] for k in ("T", "N", "L", "D", "DHC", "DIC", "SLC"))
    ddl = _get(args, "diff_dst_layer")
    ddl = np.zeros((T, N, dims["DLC"])) if ddl is None else ddl
    wl_all = _get(args, "weights_layer")
    has_p = _get(args, "weights_peephole") is not None
    has_r = _get(args, "weights_projection") is not None
    res = {"diff_src_layer": np.zeros((T, N, SLC)),
           "diff_src_iter": np.zeros((L, D, N, dims["SIC"])),
           "diff_src_iter_c": np.zeros((L, D, N, DHC)),
           "diff_weights_layer": np.zeros(wl_all.shape),
           "diff_weights_iter": np.zeros(_get(args, "weights_iter").shape),
           "diff_bias": np.zeros((L, D, 4, DHC))}
    if has_p:
        res["diff_weights_peephole"] = np.zeros((L, D, 3, DHC))
    if has_r:
        res["diff_weights_projection"] = np.zeros((L, D, DHC, DIC))
    for d in range(D):
        # The gradient reaching the last layer's h from dst_layer.
        if direction == "bidirectional_concat":
            dout = ddl[:, :, d * DIC:(d + 1) * DIC].copy()
        else:
            dout = ddl.copy()             # sum: both directions get all of it
        for layer in range(L - 1, -1, -1):
            w = _params(args, dims, layer, d)
            dh_next = _state(args, "diff_dst_iter", layer, d, N, DIC)
            dc_next = _state(args, "diff_dst_iter_c", layer, d, N, DHC)
            dwl = res["diff_weights_layer"][layer, d].reshape(w["wl"].shape)
            dwi = res["diff_weights_iter"][layer, d].reshape(w["wi"].shape)
            db = res["diff_bias"][layer, d].reshape(4 * DHC)
            dx_seq = np.zeros((T, N, w["wl"].shape[0]))
            for t in reversed(list(_steps(direction, d, T))):
                s = cache[layer, d, t]
                dh = dout[t] + dh_next
                if has_r:
                    res["diff_weights_projection"][layer, d] += s["m"].T @ dh
                    dm = dh @ w["r"].T
                else:
                    dm = dh
                tc = np.tanh(s["c_new"])
                dao = dm * tc * s["o"] * (1 - s["o"])
                dc = dc_next + dm * s["o"] * (1 - tc * tc)
                if has_p:
                    dc = dc + dao * w["p"][2]
                dai = dc * s["g"] * s["i"] * (1 - s["i"])
                daf = dc * s["c"] * s["f"] * (1 - s["f"])
                dac = dc * s["i"] * (1 - s["g"] * s["g"])
                dc_prev = dc * s["f"]
                if has_p:
                    dp = res["diff_weights_peephole"][layer, d]
                    dp[0] += (dai * s["c"]).sum(0)
                    dp[1] += (daf * s["c"]).sum(0)
                    dp[2] += (dao * s["c_new"]).sum(0)
                    dc_prev = dc_prev + dai * w["p"][0] + daf * w["p"][1]
                da = np.stack([dai, daf, dac, dao], axis=1).reshape(N, 4 * DHC)
                dwl += s["x"].T @ da
                dwi += s["h"].T @ da
                db += da.sum(0)
                dx_seq[t] = da @ w["wl"].T
                dh_next = da @ w["wi"].T
                dc_next = dc_prev
            res["diff_src_iter"][layer, d] = dh_next
            res["diff_src_iter_c"][layer, d] = dc_next
            dout = dx_seq                 # to the layer below, same direction
        res["diff_src_layer"] += dout
    return res


def make_args(rng, T, N, SLC, DHC, L=1, direction="unidirectional_left2right",
              DIC=None, SIC=None, peephole=False, projection=False,
              states=True, scale=0.5):
    """Random inputs in oneDNN's shapes, uniform in [-scale, scale]; DIC
    defaults to DHC (another value needs projection) and SIC to DIC;
    states=False leaves src_iter and src_iter_c out."""
    direction = _direction(direction)
    D = 1 if direction.startswith("unidirectional") else 2
    DIC = DHC if DIC is None else DIC
    if DIC != DHC and not projection:
        raise ValueError("DIC != DHC needs projection")
    SIC = DIC if SIC is None else SIC

    def rnd(*shape):
        return rng.uniform(-scale, scale, size=shape)

    args = {"src_layer": rnd(T, N, SLC), "weights_layer": rnd(L, D, SLC, 4, DHC),
            "weights_iter": rnd(L, D, SIC, 4, DHC), "bias": rnd(L, D, 4, DHC)}
    if states:
        args["src_iter"] = rnd(L, D, N, SIC)
        args["src_iter_c"] = rnd(L, D, N, DHC)
    if peephole:
        args["weights_peephole"] = rnd(L, D, 3, DHC)
    if projection:
        args["weights_projection"] = rnd(L, D, DHC, DIC)
    return args


def make_diff_dst(rng, args, direction, which=("diff_dst_layer", "diff_dst_iter", "diff_dst_iter_c")):
    """Random diff_dst_* tensors (those named in `which`) for `args`."""
    dims = lstm_dims(args, direction)
    T, N, L, D = dims["T"], dims["N"], dims["L"], dims["D"]
    shapes = {"diff_dst_layer": (T, N, dims["DLC"]), "diff_dst_iter": (L, D, N, dims["DIC"]),
              "diff_dst_iter_c": (L, D, N, dims["DHC"])}
    return {k: rng.uniform(-1, 1, size=shapes[k]) for k in which}


def round_bf16(x):
    """oneDNN's f32 -> bf16 -> f32 (src/common/bfloat16.cpp): round to
    nearest even; subnormals flush to signed zero; inf stays; NaN stays
    NaN. float64 input goes through float32 first. Returns float64."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    top = bits >> 16
    out = (bits + 0x7FFF + (top & 1)) >> 16               # RNE on the low half
    special = (bits & 0x7F800000) == 0x7F800000           # inf, NaN: truncate
    out = np.where(special, top | np.where(bits & 0x7FFFFF, np.uint64(0x40), np.uint64(0)), out)
    out = np.where((bits & 0x7F800000) == 0, top & np.uint64(0x8000), out)  # zero, subnormal
    return (out.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def round_args_bf16(args, keys=BF16_ARGS):
    """A copy of `args` whose `keys` (by default the tensors a bf16 LSTM
    keeps in bf16) are rounded to bf16 values; the others are kept. The
    reference run on these still computes in float64, while a bf16
    primitive also rounds what it stores between steps (h, gates), so
    compare with a bf16 tolerance."""
    return {k: (round_bf16(v) if k in keys and v is not None else v) for k, v in args.items()}
