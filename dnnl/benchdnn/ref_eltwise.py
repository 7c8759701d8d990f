"""NumPy (float64) eltwise, written from oneDNN's definitions
(doc/primitives/eltwise.md), sharing no code with the library.

FWD[alg](s, alpha, beta) is the forward function; DERIV[alg](s, alpha,
beta) its derivative in s, so that backward is diff_src = diff_dst *
DERIV(src); DERIV_DST[alg](d, alpha, beta) the same derivative written with
dst, for the *_use_dst_for_bwd algorithms. `round` has no backward."""

import math

import numpy as np


def erf(x):
    return np.vectorize(math.erf, otypes=[float])(x)


def sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))        # no overflow for large |x|


def softplus(x, a=1.0):
    return np.logaddexp(0.0, a * x) / a


def _gelu_tanh_inner(s):
    return np.sqrt(2 / np.pi) * (s + 0.044715 * s ** 3)


def _hardswish_deriv(s, a, b):
    t = a * s + b
    return np.where(t <= 0, 0.0, np.where(t >= 1, 1.0, 2 * a * s + b))


FWD = {
    "relu": lambda s, a, b: np.where(s > 0, s, a * s),
    "tanh": lambda s, a, b: np.tanh(s),
    "elu": lambda s, a, b: np.where(s > 0, s, a * np.expm1(np.minimum(s, 0))),
    "square": lambda s, a, b: s * s,
    "abs": lambda s, a, b: np.abs(s),
    "sqrt": lambda s, a, b: np.sqrt(s),
    "linear": lambda s, a, b: a * s + b,
    "soft_relu": lambda s, a, b: softplus(s, a),
    "hardsigmoid": lambda s, a, b: np.clip(a * s + b, 0, 1),
    "logistic": lambda s, a, b: sigmoid(s),
    "exp": lambda s, a, b: np.exp(s),
    "gelu_tanh": lambda s, a, b: 0.5 * s * (1 + np.tanh(_gelu_tanh_inner(s))),
    "swish": lambda s, a, b: s * sigmoid(a * s),
    "log": lambda s, a, b: np.log(s),
    "clip": lambda s, a, b: np.where(s > b, b, np.where(s > a, s, a)),
    "clip_v2": lambda s, a, b: np.clip(s, a, b),
    "pow": lambda s, a, b: a * np.power(s, b),
    "gelu_erf": lambda s, a, b: 0.5 * s * (1 + erf(s / np.sqrt(2))),
    "round": lambda s, a, b: np.round(s),        # half to even
    "mish": lambda s, a, b: s * np.tanh(softplus(s)),
    "hardswish": lambda s, a, b: s * np.clip(a * s + b, 0, 1),
}

DERIV = {
    "relu": lambda s, a, b: np.where(s > 0, 1.0, a),
    "tanh": lambda s, a, b: 1 - np.tanh(s) ** 2,
    "elu": lambda s, a, b: np.where(s > 0, 1.0, a * np.exp(np.minimum(s, 0))),
    "square": lambda s, a, b: 2 * s,
    "abs": lambda s, a, b: np.sign(s),
    "sqrt": lambda s, a, b: 0.5 / np.sqrt(s),
    "linear": lambda s, a, b: a + 0 * s,
    "soft_relu": lambda s, a, b: sigmoid(a * s),
    "hardsigmoid": lambda s, a, b: np.where((a * s + b > 0) & (a * s + b < 1), a, 0.0),
    "logistic": lambda s, a, b: sigmoid(s) * (1 - sigmoid(s)),
    "exp": lambda s, a, b: np.exp(s),
    "gelu_tanh": lambda s, a, b: 0.5 * (1 + np.tanh(_gelu_tanh_inner(s)))
    + 0.5 * s * (1 - np.tanh(_gelu_tanh_inner(s)) ** 2) * np.sqrt(2 / np.pi)
    * (1 + 3 * 0.044715 * s ** 2),
    "swish": lambda s, a, b: sigmoid(a * s) + a * s * sigmoid(a * s) * (1 - sigmoid(a * s)),
    "log": lambda s, a, b: 1 / s,
    "clip": lambda s, a, b: np.where((s > a) & (s <= b), 1.0, 0.0),
    "clip_v2": lambda s, a, b: np.where((s > a) & (s < b), 1.0, 0.0),
    "pow": lambda s, a, b: a * b * np.power(s, b - 1),
    "gelu_erf": lambda s, a, b: 0.5 * (1 + erf(s / np.sqrt(2)))
    + s * np.exp(-s * s / 2) / np.sqrt(2 * np.pi),
    "mish": lambda s, a, b: np.tanh(softplus(s))
    + s * (1 - np.tanh(softplus(s)) ** 2) * sigmoid(s),
    "hardswish": _hardswish_deriv,
}

DERIV_DST = {
    "relu": lambda d, a, b: np.where(d > 0, 1.0, a),
    "tanh": lambda d, a, b: 1 - d * d,
    "elu": lambda d, a, b: np.where(d > 0, 1.0, d + a),
    "sqrt": lambda d, a, b: 0.5 / d,
    "logistic": lambda d, a, b: d * (1 - d),
    "exp": lambda d, a, b: d,
    "clip_v2": lambda d, a, b: np.where((d > a) & (d < b), 1.0, 0.0),
}

USE_DST_SUFFIX = "_use_dst_for_bwd"


def base(alg):
    return alg[:-len(USE_DST_SUFFIX)] if alg.endswith(USE_DST_SUFFIX) else alg


def fwd(alg, src, alpha, beta):
    with np.errstate(all="ignore"):
        return FWD[base(alg)](np.asarray(src, dtype=np.float64), alpha, beta)


def bwd(alg, data, diff_dst, alpha, beta, f32_deriv=False):
    """diff_src from src (or dst, for the use_dst algorithms). f32_deriv
    rounds the derivative to f32 first, as a library computing in f32 holds
    it (exp(s) past 88.7 is inf there, and 0 * inf is NaN)."""
    data = np.asarray(data, dtype=np.float64)
    with np.errstate(all="ignore"):
        if alg.endswith(USE_DST_SUFFIX):
            deriv = DERIV_DST[base(alg)](data, alpha, beta)
        else:
            deriv = DERIV[alg](data, alpha, beta)
        if f32_deriv:
            deriv = np.asarray(deriv, dtype=np.float64).astype(np.float32).astype(np.float64)
        return np.asarray(diff_dst, dtype=np.float64) * deriv
