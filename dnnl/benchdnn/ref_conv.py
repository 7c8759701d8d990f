"""A NumPy convolution written from oneDNN's formulas (doc/primitives/
convolution.md), in float64, sharing no code with the library: forward,
backward data and backward weights; 1-D to 3-D, groups, strides, dilation
(0 = dense) and asymmetric (also negative right) padding.

    dst(n, g, oc, o...) = bias(g, oc)
        + sum_{ic, k...} src(n, g, ic, o * s + k * (d + 1) - pl) * wei(g, oc, ic, k...)

src taps outside the image read 0. The products go through BLAS as the
patch matrix (im2col) of a few images at a time: for integer-valued data,
as benchdnn fills, float64 sums are exact."""

import numpy as np

_CHUNK_BYTES = 128 << 20      # the patch matrix of one batch chunk


def _extent(k, d):
    return (k - 1) * (d + 1) + 1


def _grouped_wei(wei, g, src_ndim):
    return wei if wei.ndim == src_ndim + 1 else wei.reshape((g,) + (wei.shape[0] // g,)
                                                            + wei.shape[1:])


def _geometry(spatial, k, s, d, pl, pr):
    """Output sizes and the padded input sizes the taps read."""
    o = [(spatial[i] + pl[i] + pr[i] - _extent(k[i], d[i])) // s[i] + 1
         for i in range(len(k))]
    padded = [spatial[i] + pl[i] + max(pr[i], 0) for i in range(len(k))]
    return o, padded


def _tap_slices(k, s, d, o):
    """Per kernel tap (kd, kh, kw order): the slices of the padded input."""
    for kpos in np.ndindex(*k):
        yield tuple(slice(kpos[i] * (d[i] + 1), kpos[i] * (d[i] + 1) + (o[i] - 1) * s[i] + 1,
                          s[i]) for i in range(len(k)))


def _chunks(n, per_image):
    step = max(1, min(n, _CHUNK_BYTES // max(per_image * 8, 1)))
    return [(b, min(n, b + step)) for b in range(0, n, step)]


def _cols(xp, k, s, d, o):
    """The patch matrix of padded images xp [n, g, icg, P...]:
    [g, icg * taps, n * O], rows in (ic, kd, kh, kw) order."""
    n, g, icg = xp.shape[:3]
    taps = int(np.prod(k))
    cols = np.empty((g, icg, taps, n) + tuple(o))
    lead = (slice(None),) * 3
    for t, sl in enumerate(_tap_slices(k, s, d, o)):
        cols[:, :, t] = np.moveaxis(xp[lead + sl], 0, 2)
    return cols.reshape(g, icg * taps, -1)


def _pad(x, g, pl, padded):
    """[n, C, I...] -> zero-padded [n, g, C / g, P...]."""
    n, ch = x.shape[:2]
    xp = np.zeros((n, ch) + tuple(padded))
    xp[(slice(None), slice(None)) + tuple(slice(pl[i], pl[i] + x.shape[2 + i])
                                          for i in range(len(padded)))] = x
    return xp.reshape((n, g, ch // g) + tuple(padded))


def conv_fwd(src, wei, bias, s, d, pl, pr, g=1):
    src = np.asarray(src, dtype=np.float64)
    w = _grouped_wei(np.asarray(wei, dtype=np.float64), g, src.ndim)
    g, ocg, icg, k = w.shape[0], w.shape[1], w.shape[2], w.shape[3:]
    n = src.shape[0]
    o, padded = _geometry(src.shape[2:], k, s, d, pl, pr)
    wm = w.reshape(g, ocg, -1)
    out = np.empty((n, g, ocg) + tuple(o))
    per_image = icg * g * int(np.prod(k)) * int(np.prod(o))
    for b, e in _chunks(n, per_image):
        cols = _cols(_pad(src[b:e], g, pl, padded), k, s, d, o)
        res = np.matmul(wm, cols).reshape((g, ocg, e - b) + tuple(o))
        out[b:e] = np.moveaxis(res, 2, 0)
    out = out.reshape((n, g * ocg) + tuple(o))
    if bias is not None:
        out += np.asarray(bias, dtype=np.float64).reshape((1, -1) + (1,) * len(o))
    return out


def conv_bwd_data(diff_dst, wei, src_shape, s, d, pl, pr, g=1):
    dd = np.asarray(diff_dst, dtype=np.float64)
    w = _grouped_wei(np.asarray(wei, dtype=np.float64), g, dd.ndim)
    g, ocg, icg, k = w.shape[0], w.shape[1], w.shape[2], w.shape[3:]
    n, o = dd.shape[0], list(dd.shape[2:])
    _, padded = _geometry(src_shape[2:], k, s, d, pl, pr)
    wt = np.swapaxes(w.reshape(g, ocg, -1), 1, 2)              # [g, icg * taps, ocg]
    taps = int(np.prod(k))
    inner = tuple(slice(pl[i], pl[i] + src_shape[2 + i]) for i in range(len(k)))
    out = np.empty((n, g * icg) + tuple(src_shape[2:]))
    per_image = icg * g * taps * int(np.prod(o))
    for b, e in _chunks(n, per_image):
        ddg = np.moveaxis(dd[b:e].reshape((e - b, g, ocg) + tuple(o)), 0, 2)
        cols = np.matmul(wt, ddg.reshape(g, ocg, -1)).reshape((g, icg, taps, e - b) + tuple(o))
        xp = np.zeros((e - b, g, icg) + tuple(padded))
        for t, sl in enumerate(_tap_slices(k, s, d, o)):
            xp[(slice(None),) * 3 + sl] += np.moveaxis(cols[:, :, t], 2, 0)
        out[b:e] = xp.reshape((e - b, g * icg) + tuple(padded))[(slice(None),) * 2 + inner]
    return out


def conv_bwd_weights(src, diff_dst, wei_shape, s, d, pl, pr, g=1):
    src = np.asarray(src, dtype=np.float64)
    dd = np.asarray(diff_dst, dtype=np.float64)
    grouped = len(wei_shape) == src.ndim + 1
    gshape = tuple(wei_shape) if grouped else (g, wei_shape[0] // g) + tuple(wei_shape[1:])
    g, ocg, icg, k = gshape[0], gshape[1], gshape[2], gshape[3:]
    n, o = src.shape[0], list(dd.shape[2:])
    _, padded = _geometry(src.shape[2:], k, s, d, pl, pr)
    dw = np.zeros((g, ocg, icg * int(np.prod(k))))
    per_image = icg * g * int(np.prod(k)) * int(np.prod(o))
    for b, e in _chunks(n, per_image):
        cols = _cols(_pad(src[b:e], g, pl, padded), k, s, d, o)
        ddg = np.moveaxis(dd[b:e].reshape((e - b, g, ocg) + tuple(o)), 0, 2)
        dw += np.matmul(ddg.reshape(g, ocg, -1), np.swapaxes(cols, 1, 2))
    db = dd.sum(axis=tuple([0] + list(range(2, dd.ndim))))
    return dw.reshape(wei_shape), db
