"""--eltwise (benchdnn's eltwise driver, doc/driver_eltwise.md): FWD_D,
FWD_I, BWD_D; every algorithm by benchdnn's names (relu, relu_dst, ...,
or the library's: eltwise_relu, eltwise_relu_use_dst_for_bwd, ...).

Inputs mix benchdnn's ranges: integers up to 10 and 100, fractions below
0.1 and 1, values near log(FLT_MAX), and alpha and beta themselves.
Backward runs the forward first (its dst is the input of the *_dst
algorithms). Thresholds are benchdnn's: 4e-6 in f32 (4e-5 for the
algorithms with harder math), one bf16 epsilon in bf16, and an absolute
check where the formula cancels catastrophically."""

import numpy as np

import dnnl
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import parser as P
from dnnl.benchdnn import ref_eltwise as R
from dnnl.benchdnn.desc import DimsDesc
from dnnl.benchdnn.driver import Driver

_SHORT = {"relu": "relu", "tanh": "tanh", "elu": "elu", "square": "square", "abs": "abs",
          "sqrt": "sqrt", "linear": "linear", "soft_relu": "soft_relu", "srelu": "soft_relu",
          "hardsigmoid": "hardsigmoid", "logistic": "logistic", "exp": "exp",
          "gelu_tanh": "gelu_tanh", "swish": "swish", "log": "log", "clip": "clip",
          "clip_v2": "clip_v2", "pow": "pow", "gelu_erf": "gelu_erf", "round": "round",
          "mish": "mish", "hardswish": "hardswish"}
ALGS = dict(_SHORT)
ALGS.update({"eltwise_" + lib: lib for lib in set(_SHORT.values())})
for _b in R.DERIV_DST:
    ALGS[_b + "_dst"] = _b + R.USE_DST_SUFFIX
    ALGS["eltwise_" + _b + R.USE_DST_SUFFIX] = _b + R.USE_DST_SUFFIX

_HARDER = ("gelu_tanh", "elu", "swish", "tanh", "soft_relu", "mish", "log")
_NANS = ("exp", "exp" + R.USE_DST_SUFFIX, "log", "pow", "sqrt", "sqrt" + R.USE_DST_SUFFIX,
         "square")


def short_name(alg):
    return alg.replace(R.USE_DST_SUFFIX, "_dst")


def threshold(dt, alg, fwd):
    if dt not in ("f32", "f64"):
        return T.epsilon(dt)
    harder = alg in _HARDER or (fwd and alg in ("elu" + R.USE_DST_SUFFIX,
                                                "tanh" + R.USE_DST_SUFFIX))
    return 4e-5 if harder else 4e-6


def cancels(alg, fwd, s, alpha, trh):
    """Where benchdnn compares absolutely: the points whose formula loses
    its relative accuracy to cancellation (eltwise.cpp's check_abs_err)."""
    err = 2 * T.epsilon("f32") / trh
    b = R.base(alg)
    dst = alg.endswith(R.USE_DST_SUFFIX)
    with np.errstate(all="ignore"):
        if b == "elu":
            return fwd & (s < 0) & (np.abs(np.expm1(s)) <= err) if not dst else \
                np.zeros_like(s, bool)
        if b == "gelu_tanh":
            v = np.tanh(np.sqrt(2 / np.pi) * s * (1 + 0.044715 * s * s))
            dg = np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * s * s)
            return (np.abs(1 + v) <= err) | ((not fwd) & (s < 0)
                                              & (np.abs(1 + s * (1 - v) * dg) <= 4 * err))
        if b == "gelu_erf":
            v = s / np.sqrt(2)
            if fwd:
                return np.abs(1 + R.erf(v)) <= err
            return np.abs(1 + R.erf(v) + v * 2 / np.sqrt(np.pi) * np.exp(-v * v)) <= 2 * err
        if b == "tanh" and not fwd:
            return (1 - s * s <= err) if dst else (1 - np.tanh(np.abs(s)) <= err)
        if b == "soft_relu" and fwd:
            return (alpha * s < 0) & (np.log1p(np.exp(alpha * s)) <= 10 * err)
        if b == "mish" and fwd:
            return (s < 0) & (s * np.tanh(R.softplus(s)) <= 10 * err)
        if b == "logistic" and not fwd:
            return ((1 - s <= err) | (s <= err)) if dst else \
                (s >= 0) & (1 / (1 + np.exp(s)) <= err)
        if b == "swish" and not fwd:
            return alpha * s * (1 - R.sigmoid(alpha * s)) <= err
    return np.zeros_like(s, bool)


def fill(rng, shape, alg, alpha, beta, dt, kind):
    """benchdnn's eltwise filling: every point one of 13 kinds of value (15
    for log, which adds the infinities)."""
    n = int(np.prod(shape))
    is_log = R.base(alg) == "log"
    variant = np.arange(n) % (15 if is_log else 13)
    ints = rng.integers(0, 11, n).astype(np.float64)
    fr = rng.uniform(0.0, 0.09, n)
    table = [ints, -ints, fr, -fr, 10 * ints, -10 * ints, 10 * fr, -10 * fr, 88 + 10 * fr,
             22 + 10 * fr, 44 + 10 * fr, np.full(n, alpha), np.full(n, beta),
             np.full(n, np.inf), np.full(n, -np.inf)]
    v = np.choose(variant, table[:15 if is_log else 13])
    v = T.round_to(v, dt)
    v[v == 0] = 0.0                             # no -0: reorders make it +0
    if kind == "diff_dst":
        v = rng.permutation(v)
    return v.reshape(shape)


class EltwiseDriver(Driver):
    name = "eltwise"
    desc_class = DimsDesc
    inplace = True
    options = [
        P.dir_option(("FWD_D", "FWD_I", "BWD_D"), "FWD_D"),
        P.dt_option("f32"),
        P.tag_option("tag", "abx"),
        P.choice_option("alg", ALGS, "relu", show=short_name),
        P.float_option("alpha", [0.0]),
        P.float_option("beta", [0.0]),
    ]
    always_shown = ("alg", "alpha", "beta")

    def check_settings(self):
        for tag in self.values["tag"]:
            try:
                T.check_tag(tag, self.ctx.allow_enum_tags_only)
            except ValueError as err:
                raise P.UsageError("ERROR: --tag: %s" % err) from None

    def dts(self, prb):
        return [prb.dt]

    def desc_str(self, prb):
        return prb.desc.format(prb.mb_value)

    def fields(self, prb):
        return {"dir": prb.dir, "dt": prb.dt, "tag": prb.tag, "alg": short_name(prb.alg),
                "attr": ""}

    def csv_template(self):
        return ("perf,%engine%,%impl%,%name%,%dir%,%dt%,%tag%,%alg%,%attr%,%desc%,"
                "%-time%,%0time%")

    def skip(self, prb):
        b, bwd = R.base(prb.alg), prb.dir == "BWD_D"
        if b in ("clip", "clip_v2") and prb.beta < prb.alpha:
            return "Invalid case"
        if prb.alg in ("elu" + R.USE_DST_SUFFIX, "relu" + R.USE_DST_SUFFIX) and prb.alpha < 0:
            return "Invalid case"
        if b == "round" and (prb.dt != "f32" or bwd):
            return "Invalid case"
        if bwd and prb.inplace and not prb.alg.endswith(R.USE_DST_SUFFIX):
            return "Invalid case"
        return None

    def run(self, prb, res):
        dims = prb.desc.with_mb(prb.mb)
        data_md = T.md(dims, prb.dt, prb.tag)
        alg = getattr(dnnl.algorithm, "eltwise_" + prb.alg)
        any_md = T.md(dims, prb.dt, "any")
        bwd = prb.dir == "BWD_D"
        prop = dnnl.prop_kind.forward_training if bwd else T.prop_kind(prb.dir)
        fwd_args = (self.ctx.engine, prop, alg, data_md, any_md, prb.alpha, prb.beta)
        if not bwd:
            fwd_pd = self.create_pd(res, prb, dnnl.eltwise_forward.primitive_desc, *fwd_args)
        else:
            fwd_pd = dnnl.eltwise_forward.primitive_desc(*fwd_args)
            data = fwd_pd.dst_desc() if prb.alg.endswith(R.USE_DST_SUFFIX) else data_md
            bwd_pd = self.create_pd(res, prb, dnnl.eltwise_backward.primitive_desc,
                                    self.ctx.engine, alg, any_md, data_md, data, prb.alpha,
                                    prb.beta, fwd_pd)
        if self.ctx.mode == "I":
            res.state = "INITIALIZED"
            return
        rng = self.rng(prb)
        src = fill(rng, dims, prb.alg, prb.alpha, prb.beta, prb.dt, "src")
        src_mem = self.memory(fwd_pd.src_desc())
        self.fill(res, src_mem, src)
        dst_mem = src_mem if prb.inplace else self.memory(fwd_pd.dst_desc())
        fwd = self.primitive(res, dnnl.eltwise_forward, fwd_pd)
        fwd_args = {dnnl.DNNL_ARG_SRC: src_mem, dnnl.DNNL_ARG_DST: dst_mem}
        self.execute(res, fwd, fwd_args)
        if not bwd:
            self.bytes_of(res, [src_mem], [dst_mem])

            def check():
                exp = self.timed(res, "compute_ref", R.fwd, prb.alg, src, prb.alpha, prb.beta)
                self._check(res, prb, dst_mem, exp, src, True)
            self.finish(res, prb, fwd, fwd_args, check)
            return
        use_dst = prb.alg.endswith(R.USE_DST_SUFFIX)
        data = self.read(dst_mem) if use_dst else src
        data_mem = dst_mem if use_dst else src_mem
        diff_dst = fill(rng, dims, prb.alg, prb.alpha, prb.beta, prb.dt, "diff_dst")
        dd_mem = self.memory(bwd_pd.diff_dst_desc())
        self.fill(res, dd_mem, diff_dst)
        ds_mem = dd_mem if prb.inplace else self.memory(bwd_pd.diff_src_desc())
        prim = self.primitive(res, dnnl.eltwise_backward, bwd_pd)
        args = {dnnl.DNNL_ARG_DIFF_DST: dd_mem, dnnl.DNNL_ARG_DIFF_SRC: ds_mem,
                (dnnl.DNNL_ARG_DST if use_dst else dnnl.DNNL_ARG_SRC): data_mem}
        self.execute(res, prim, args)
        self.bytes_of(res, [dd_mem, data_mem], [ds_mem])

        def check_bwd():
            exp = self.timed(res, "compute_ref", R.bwd, prb.alg, data, diff_dst, prb.alpha,
                             prb.beta, True)
            self._check(res, prb, ds_mem, exp, data, False, np.abs(diff_dst))
        self.finish(res, prb, prim, args, check_bwd)

    def _check(self, res, prb, mem, exp, source, fwd, scale=None):
        """`scale`: |diff_dst| on backward, whose absolute error is the
        derivative's times |diff_dst|."""
        trh = threshold(prb.dt, prb.alg, fwd)
        b = R.base(prb.alg)
        ztp = 65.0
        if (b == "linear" and prb.alpha == 0) or \
                (b in ("clip", "clip_v2") and ((prb.alpha == 0 and prb.beta == 0) or not fwd)) \
                or (b == "pow" and (prb.alpha == 0 or (not fwd and prb.beta == 0))) \
                or prb.dt in T.INT_RANGE:
            ztp = 100.0
        flat = np.asarray(source, dtype=np.float64).reshape(-1)
        bound = trh if scale is None else trh * np.maximum(1.0, scale.reshape(-1))

        def extra(e, got, diff, rel):
            return cancels(prb.alg, fwd, flat, prb.alpha, trh) & (diff <= bound)
        self.check(res, "DST" if fwd else "DIFF_SRC", mem, exp, prb.dt, trh,
                   zero_trust=ztp, has_nans=prb.alg in _NANS or prb.dt == "f16",
                   extra_ok=extra)
