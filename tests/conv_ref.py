"""A NumPy convolution written from oneDNN's formulas (float64), and a
parser for benchdnn's problem descriptors."""

import re

import numpy as np


def parse_desc(text, mb=2):
    """benchdnn's conv descriptor ('g2mb4ic96ih27oc256oh27kh5ph2...') to a
    dict with 'g', 'mb', 'ic', 'oc' and per spatial dim lists i/o/k/s/d/p
    (pl) and pr, deducing what benchdnn deduces."""
    text = text.split("n\"")[0].split("_n")[0]
    vals = {k: int(v) for k, v in re.findall(r"([a-z]+?)(\d+)", text.replace("_", ""))}
    if "id" in vals or "od" in vals or "kd" in vals:
        sp = "dhw"
    elif "ih" in vals or "oh" in vals or "kh" in vals:
        sp = "hw"
    else:
        sp = "w"
    p = {"g": vals.get("g", 1), "mb": vals.get("mb", mb), "ic": vals["ic"], "oc": vals["oc"]}
    for key in "ioksdp":
        lst: list = []
        for i, ax in enumerate(sp):
            v = vals.get(key + ax)
            if v is None and i > 0:
                v = lst[0] if sp == "dhw" else lst[i - 1]
            lst.append(v)
        p[key] = lst
    p["s"] = [v or 1 for v in p["s"]]
    p["d"] = [v or 0 for v in p["d"]]
    p["p"] = [v or 0 for v in p["p"]]
    p["pr"] = []
    for i in range(len(sp)):
        ext = (p["k"][i] - 1) * (p["d"][i] + 1) + 1
        if p["o"][i] is None:
            p["o"][i] = (p["i"][i] - ext + 2 * p["p"][i]) // p["s"][i] + 1
        p["pr"].append((p["o"][i] - 1) * p["s"][i] - p["i"][i] + ext - p["p"][i])
    return p


def _windows(x_shape, k, s, d, o, pl):
    sp = len(k)
    for kpos in np.ndindex(*k):
        yield kpos, tuple(slice(kpos[i] * (d[i] + 1), kpos[i] * (d[i] + 1) + (o[i] - 1) * s[i] + 1,
                                s[i]) for i in range(sp))


def _padded(x, pl, pr):
    sp = x.ndim - 2
    return np.pad(x, [(0, 0), (0, 0)] + [(pl[i], max(pr[i], 0)) for i in range(sp)])


def _grouped_wei(wei, g, src_ndim):
    return wei if wei.ndim == src_ndim + 1 else wei.reshape((g,) + (wei.shape[0] // g,)
                                                            + wei.shape[1:])


def conv_fwd(src, wei, bias, s, d, pl, pr, g=1):
    src = src.astype(np.float64)
    w = _grouped_wei(wei.astype(np.float64), g, src.ndim)
    g, ocg, icg, k = w.shape[0], w.shape[1], w.shape[2], w.shape[3:]
    n, sp = src.shape[0], src.ndim - 2
    o = [(src.shape[2 + i] + pl[i] + pr[i] - ((k[i] - 1) * (d[i] + 1) + 1)) // s[i] + 1
         for i in range(sp)]
    x = _padded(src, pl, pr).reshape((n, g, icg) + tuple(np.array(src.shape[2:]) + pl
                                                          + np.maximum(pr, 0)))
    out = np.zeros((n, g, ocg) + tuple(o))
    for kpos, sl in _windows(x.shape, k, s, d, o, pl):
        patch = x[(slice(None),) * 3 + sl]
        out += np.einsum("ngi...,goi->ngo...", patch, w[(slice(None),) * 3 + kpos])
    out = out.reshape((n, g * ocg) + tuple(o))
    if bias is not None:
        out += bias.astype(np.float64).reshape((1, -1) + (1,) * sp)
    return out


def conv_bwd_data(diff_dst, wei, src_shape, s, d, pl, pr, g=1):
    dd = diff_dst.astype(np.float64)
    w = _grouped_wei(wei.astype(np.float64), g, dd.ndim)
    g, ocg, icg, k = w.shape[0], w.shape[1], w.shape[2], w.shape[3:]
    n, sp = dd.shape[0], dd.ndim - 2
    o = dd.shape[2:]
    padded = tuple(np.array(src_shape[2:]) + pl + np.maximum(pr, 0))
    x = np.zeros((n, g, icg) + padded)
    ddg = dd.reshape((n, g, ocg) + tuple(o))
    for kpos, sl in _windows(x.shape, k, s, d, o, pl):
        x[(slice(None),) * 3 + sl] += np.einsum("ngo...,goi->ngi...", ddg,
                                                 w[(slice(None),) * 3 + kpos])
    x = x.reshape((n, g * icg) + padded)
    return x[(slice(None), slice(None)) + tuple(slice(pl[i], pl[i] + src_shape[2 + i])
                                                for i in range(sp))]


def conv_bwd_weights(src, diff_dst, wei_shape, s, d, pl, pr, g=1):
    src = src.astype(np.float64)
    dd = diff_dst.astype(np.float64)
    grouped = len(wei_shape) == src.ndim + 1
    gshape = wei_shape if grouped else (g, wei_shape[0] // g) + tuple(wei_shape[1:])
    g, ocg, icg, k = gshape[0], gshape[1], gshape[2], gshape[3:]
    n, sp = src.shape[0], src.ndim - 2
    o = dd.shape[2:]
    x = _padded(src, pl, pr).reshape((n, g, icg) + tuple(np.array(src.shape[2:]) + pl
                                                          + np.maximum(pr, 0)))
    ddg = dd.reshape((n, g, ocg) + tuple(o))
    dw = np.zeros(gshape)
    axes = "".join("xyz"[:sp])
    for kpos, sl in _windows(x.shape, k, s, d, o, pl):
        dw[(slice(None),) * 3 + kpos] = np.einsum("ngi%s,ngo%s->goi" % (axes, axes),
                                                  x[(slice(None),) * 3 + sl], ddg)
    db = dd.sum(axis=tuple([0] + list(range(2, dd.ndim))))
    return dw.reshape(wei_shape), db
