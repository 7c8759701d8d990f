"""NumPy (float64) pooling, written from oneDNN's definitions
(doc/primitives/pooling.md), sharing no code with the library.

Output point o reads src at o * s + k * (d + 1) - pl for each kernel tap k
(dilation 0 = dense); taps in the padding are left out. max: the largest
value, the first (in kd, kh, kw order) when several tie, which is what
backward routes diff_dst to; avg_include_padding divides the sum by the
kernel size, avg_exclude_padding by the number of taps inside the image."""

import itertools

import numpy as np


def _taps(i, o, k, s, d, pl):
    """Per kernel tap: the slices of the zero-padded src the outputs read
    and the mask of outputs whose tap lies inside the image, plus the
    padded size and the slices of the image in it."""
    size = [max(p + n, (on - 1) * st + (kn - 1) * (dn + 1) + 1)
            for n, on, kn, st, dn, p in zip(i, o, k, s, d, pl)]
    inner = tuple(slice(p, p + n) for p, n in zip(pl, i))
    inside = np.zeros(size, bool)
    inside[inner] = True
    taps = []
    for ks in itertools.product(*[range(kn) for kn in k]):
        sl = tuple(slice(kk * (dn + 1), kk * (dn + 1) + (on - 1) * st + 1, st)
                   for kk, dn, on, st in zip(ks, d, o, s))
        taps.append((sl, inside[sl]))
    return taps, size, inner


def pool_fwd(src, alg, k, s, d, pl, o, lowest=-float(np.finfo(np.float32).max)):
    """dst, and for max the flat kernel index of the chosen tap per output
    (oneDNN's workspace values). A max window entirely in the padding is
    `lowest`, the lowest value of the destination's data type."""
    x = np.asarray(src, dtype=np.float64)
    lead = x.shape[:2]
    taps, size, inner = _taps(x.shape[2:], o, k, s, d, pl)
    xp = np.zeros(lead + tuple(size))
    xp[(slice(None),) * 2 + inner] = x
    shape = lead + tuple(o)
    best = np.full(shape, -np.inf)
    where = np.zeros(shape)
    total, count = np.zeros(shape), np.zeros(tuple(o))
    for t, (sl, m) in enumerate(taps):
        v = xp[(slice(None),) * 2 + sl]
        better = m & (v > best)                   # strict: the first maximum stays
        best, where = np.where(better, v, best), np.where(better, t, where)
        total += np.where(m, v, 0.0)
        count += m
    if alg == "max":
        return np.where(np.isinf(best), lowest, best), where
    div = float(np.prod(k)) if alg == "avg_p" else np.maximum(count, 1)
    return total / div, None


def pool_bwd(diff_dst, src_shape, alg, k, s, d, pl, ws=None):
    """diff_src: max routes each diff_dst to the tap `ws` names, avg spreads
    it over the window's taps with the forward's divisor."""
    dd = np.asarray(diff_dst, dtype=np.float64)
    o = list(dd.shape[2:])
    taps, size, inner = _taps(src_shape[2:], o, k, s, d, pl)
    count = sum(m.astype(np.float64) for _, m in taps)
    div = float(np.prod(k)) if alg == "avg_p" else np.maximum(count, 1)
    grad = np.zeros(tuple(src_shape[:2]) + tuple(size))
    for t, (sl, m) in enumerate(taps):
        if alg == "max":
            grad[(slice(None),) * 2 + sl] += np.where(m & (ws == t), dd, 0.0)
        else:
            grad[(slice(None),) * 2 + sl] += np.where(m, dd / div, 0.0)
    return grad[(slice(None),) * 2 + inner]
