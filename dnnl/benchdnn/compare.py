"""How a result is judged (benchdnn's utils/compare.cpp, in our words).

Point by point: the expected value is the float64 reference rounded to the
output's data type; a point passes when it equals the result, or when its
relative difference (absolute, for |expected| <= 1e-5) is within the
driver's threshold, or when both are tiny (|exp| <= 1e-5 and the
difference below f32's epsilon), or when both are the same NaN or infinity
in an output that may hold them, or when the driver's own check accepts it.
A driver may fall back to a norm check: the relative L2 norm of the
differences within the threshold. An output that is mostly zeros (more
than the zero-trust percentage of at least 10 points) is MISTRUSTED: the
check says little about it."""

import numpy as np

from dnnl.benchdnn import dnn_types as T

FLT_MIN = float(np.finfo(np.float32).tiny)
F32_EPS = T.epsilon("f32")
DEFAULT_ZERO_TRUST = 30.0


class Verdict:
    """The outcome of one output's comparison."""

    def __init__(self, name, errors, total, mistrusted, detail):
        self.name, self.errors, self.total = name, errors, total
        self.mistrusted, self.detail = mistrusted, detail


def compare(name, exp, got, dt, trh, zero_trust=DEFAULT_ZERO_TRUST, has_nans=False,
            extra_ok=None, norm_check=False):
    """Compares the reference `exp` with the library's `got` (both in
    logical order); `extra_ok(exp, got, diff, rel)` may accept more points."""
    exp = np.asarray(exp, dtype=np.float64).reshape(-1)
    got = np.asarray(got, dtype=np.float64).reshape(-1)
    n = exp.size
    if n == 0:
        return Verdict(name, 0, 0, False, "")
    e = T.round_to(exp, dt)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(e - got)
        mag = np.abs(e)
        rel = np.where(mag > FLT_MIN, diff / np.where(mag > FLT_MIN, mag, 1.0), diff)
        ok = e == got
        ok |= (mag <= 1e-5) & (diff < F32_EPS)
        ok |= np.where(mag > 1e-5, rel, diff) <= trh
        if has_nans:
            ok |= (np.isnan(e) & np.isnan(got)) | (np.isinf(e) & (e == got))
        if dt in T.INT_RANGE:
            ok |= np.isnan(exp)
        if extra_ok is not None and not ok.all():
            ok |= extra_ok(e, got, diff, rel)
    errors = int(n - np.count_nonzero(ok))
    detail = ""
    if errors and norm_check:
        finite = np.isfinite(e) & np.isfinite(got)
        num = np.sqrt(np.sum((e[finite] - got[finite]) ** 2))
        den = np.sqrt(np.sum(e[finite] ** 2))
        l2 = num / den if den > 0 else num
        if l2 <= trh:
            errors = 0
        detail = "[%s] L2 rel_diff %g (trh %g)" % (name, l2, trh)
    if errors:
        bad = np.flatnonzero(~ok)[:10]
        detail = "\n".join(["[%s] %d of %d points differ (trh %g)%s" % (
            name, errors, n, trh, "; " + detail if detail else "")] + [
            "[%s][%d] exp_f32:%g exp:%g got:%g diff:%g rdiff:%g"
            % (name, i, exp[i], e[i], got[i], diff[i], rel[i]) for i in bad])
    zeros = 100.0 * np.count_nonzero(got == 0) / n
    mistrusted = n >= 10 and zeros > zero_trust
    return Verdict(name, errors, n, mistrusted, detail)
