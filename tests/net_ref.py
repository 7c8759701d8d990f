"""NumPy (float64) LRN and max pooling written from oneDNN's formulas, and
the AlexNet block of the CNN examples built from them and dnnl.benchdnn.ref_conv."""

import numpy as np

from dnnl.benchdnn.ref_conv import conv_bwd_weights, conv_fwd


def lrn_across_fwd(x, n, alpha, beta, k):
    c = x.shape[1]
    half = (n - 1) // 2
    sq = x * x
    omega = np.full_like(x, 0.0)
    for ci in range(c):
        lo, hi = max(0, ci - half), min(c, ci + half + 1)
        omega[:, ci] = sq[:, lo:hi].sum(axis=1)
    omega = k + alpha / n * omega
    return x * omega ** -beta, omega


def lrn_across_bwd(x, dd, n, alpha, beta, k):
    """dx_i = dd_i O_i^-b - 2ab/n x_i sum_{j: i in win(j)} dd_j x_j O_j^(-b-1)."""
    c = x.shape[1]
    half = (n - 1) // 2
    _, omega = lrn_across_fwd(x, n, alpha, beta, k)
    t = dd * x * omega ** (-beta - 1)
    acc = np.zeros_like(x)
    for ci in range(c):
        lo, hi = max(0, ci - half), min(c, ci + half + 1)
        acc[:, ci] = t[:, lo:hi].sum(axis=1)
    return dd * omega ** -beta - 2 * alpha * beta / n * x * acc


def maxpool_fwd(x, kernel, stride):
    n, c, h, w = x.shape
    oh, ow = (h - kernel) // stride + 1, (w - kernel) // stride + 1
    out = np.full((n, c, oh, ow), -np.inf)
    arg = np.zeros((n, c, oh, ow), dtype=np.int64)
    for kh in range(kernel):
        for kw in range(kernel):
            v = x[:, :, kh:kh + (oh - 1) * stride + 1:stride, kw:kw + (ow - 1) * stride + 1:stride]
            better = v > out           # strict: the first maximum wins
            out = np.where(better, v, out)
            arg = np.where(better, kh * kernel + kw, arg)
    return out, arg


def maxpool_bwd(dd, arg, src_shape, kernel, stride):
    dx = np.zeros(src_shape)
    n, c, oh, ow = dd.shape
    for kh in range(kernel):
        for kw in range(kernel):
            sel = np.where(arg == kh * kernel + kw, dd, 0.0)
            dx[:, :, kh:kh + (oh - 1) * stride + 1:stride,
               kw:kw + (ow - 1) * stride + 1:stride] += sel
    return dx


def alexnet_block(src, wei, bias, diff_dst, round_fn=None):
    """conv 11x11/4 -> relu -> lrn(5, 1e-4, 0.75, 1) -> max pool 3x3/2, then
    back to the conv's diff weights and diff bias. round_fn, when given, is
    applied to every tensor a primitive stores (bf16 emulation)."""
    r = round_fn or (lambda a: a)
    conv = r(conv_fwd(src, wei, bias, [4, 4], [0, 0], [0, 0], [0, 0]))
    relu = r(np.maximum(conv, 0))
    lrn, _ = lrn_across_fwd(relu, 5, 1e-4, 0.75, 1.0)
    lrn = r(lrn)
    _, arg = maxpool_fwd(lrn, 3, 2)
    d_pool = r(maxpool_bwd(r(diff_dst), arg, lrn.shape, 3, 2))
    d_lrn = r(lrn_across_bwd(relu, d_pool, 5, 1e-4, 0.75, 1.0))
    d_relu = r(np.where(conv > 0, d_lrn, 0.0))
    return conv_bwd_weights(src, d_relu, wei.shape, [4, 4], [0, 0], [0, 0], [0, 0])
