"""NumPy (float64) LRN, written from oneDNN's definition (doc/primitives/
lrn.md, the windows of src/cpu/ref_lrn.cpp), sharing no code with the
library:

    dst = src * omega ** -beta,  omega = k + alpha / n * (sum of src^2 over the window)

Across channels the window is the channels c - h .. c + h, within channel
the spatial points (each spatial dim) within h, h = (local_size - 1) / 2,
clipped at the borders; n stays local_size (across) or
local_size ** spatial_dims (within) at the borders too. Backward is the
exact gradient of sum(diff_dst * dst)."""

import itertools

import numpy as np


def window_sum(v, across, ls):
    """Each point's sum of v over its (clipped) window."""
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


def n_summands(across, ls, ndims):
    return ls if across else ls ** (ndims - 2)


def omega(src, across, ls, alpha, k):
    x = np.asarray(src, dtype=np.float64)
    return k + alpha / n_summands(across, ls, x.ndim) * window_sum(x * x, across, ls)


def lrn_fwd(src, across, ls, alpha, beta, k):
    x = np.asarray(src, dtype=np.float64)
    return x * omega(x, across, ls, alpha, k) ** -beta


def lrn_bwd(src, diff_dst, across, ls, alpha, beta, k, magnitude=False):
    """d/dsrc_j of sum_i diff_dst_i dst_i: src_j enters dst_j directly and
    the omega of every point whose window holds j (the windows are
    symmetric: the points of j's own window). With magnitude, also the sum
    of the absolute values of the terms, the scale of the rounding error
    of any evaluation that cancels them."""
    x = np.asarray(src, dtype=np.float64)
    dd = np.asarray(diff_dst, dtype=np.float64)
    om = omega(x, across, ls, alpha, k)
    q = dd * x * om ** (-beta - 1)
    n = n_summands(across, ls, x.ndim)
    out = dd * om ** -beta - 2 * alpha * beta / n * x * window_sum(q, across, ls)
    if not magnitude:
        return out
    mag = np.abs(dd) * om ** -beta + 2 * alpha * beta / n * np.abs(x) * window_sum(
        np.abs(q), across, ls)
    return out, mag
