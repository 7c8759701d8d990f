"""--conv (benchdnn's conv driver, doc/driver_conv.md): forward (FWD_B with
bias, FWD_D, FWD_I), backward data (BWD_D) and backward weights (BWD_W,
BWD_WB with bias).

Filling follows benchdnn's idea: small integers (src and weights in
[-32, 32] for f32, [-4, 4] for bf16; dst and diff_dst in [-8, 8] or
[-4, 4]), the input that is summed over made sparse enough that every sum
stays exact in the output's data type. The float64 reference is then exact
and the result must match it exactly (threshold 0)."""

import re

import numpy as np

import dnnl
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import parser as P
from dnnl.benchdnn import ref_conv
from dnnl.benchdnn.desc import ConvDesc
from dnnl.benchdnn.driver import Driver

ALGS = {"direct": "direct", "convolution_direct": "direct", "auto": "auto",
        "convolution_auto": "auto", "wino": "wino", "convolution_wino": "wino",
        "convolution_winograd": "wino"}
_ALG_KIND = {"direct": "convolution_direct", "auto": "convolution_auto",
             "wino": "convolution_winograd"}
# benchdnn's filling ranges (conv/cfg.cpp), per data type
SRC_RANGE = {"f32": 32, "f64": 32, "bf16": 4, "f16": 4, "s8": 4, "u8": 8}
WEI_RANGE = {"f32": 32, "f64": 32, "bf16": 4, "f16": 2, "s8": 4, "u8": 8}
DST_RANGE = {"f32": 8, "f64": 8, "bf16": 4, "f16": 4, "s8": 4, "u8": 160, "s32": 128}
BIA_RANGE = 8

_DT_RE = re.compile("|".join(sorted((d for d in T.DT_NAMES if d != "undef"), key=len,
                                    reverse=True)))


def cfg2dt(cfg):
    """The older --cfg names (f32, bf16bf16f32, u8s8s8, f32_wino, ...) as
    the data types they stand for."""
    names = _DT_RE.findall(cfg.replace("_wino", ""))
    if not names or "".join(names) != cfg.replace("_wino", ""):
        raise ValueError("unknown configuration '%s'" % cfg)
    return names


def fill_ints(rng, shape, bound, density=1.0, nonneg=False):
    """Integers in [-bound, bound] ([0, bound] when nonneg), each kept with
    probability `density` (the rest are zeros)."""
    v = rng.integers(0 if nonneg else -bound, bound + 1, size=shape).astype(np.float64)
    if density < 1.0:
        v *= rng.random(shape) < density
    return v


def safe_density(out_dt, range_a, range_b, n_acc):
    """The density that keeps n_acc products of values up to range_a and
    range_b exactly representable in out_dt (and f32), as benchdnn's
    get_safe_n_acc; and the two ranges, halved until one product fits."""
    digits = min(T.digits(out_dt), 24)
    while (1 << digits) // (range_a * range_b) < 1:
        if range_a >= range_b:
            range_a = max(1, range_a // 2)
        else:
            range_b = max(1, range_b // 2)
    safe = (1 << digits) // (range_a * range_b)
    return min(1.0, safe / max(n_acc, 1)), range_a, range_b


class ConvDriver(Driver):
    name = "conv"
    desc_class = ConvDesc
    options = [
        P.dir_option(("FWD_B", "FWD_D", "FWD_I", "BWD_D", "BWD_W", "BWD_WB"), "FWD_B"),
        P.multi_dt_option(("f32",)),
        P.Option("cfg", cfg2dt, [None], show=lambda v: "".join(v or ())),
        P.dt_option("undef", "bia-dt"),
        P.tag_option("stag", "any"), P.tag_option("wtag", "any"), P.tag_option("dtag", "any"),
        P.Option("strides", lambda v: T.parse_strides(v, 3), [[[], [], []]],
                 show=lambda v: ":".join("x".join(map(str, s)) for s in v)),
        P.choice_option("alg", ALGS, "direct"),
    ]

    def check_settings(self):
        for dts in self.values["dt"]:
            if len(dts) not in (1, 3):
                raise P.UsageError("ERROR: `dt` option expects either a single input or "
                                   "three inputs in SRC, WEI, DST order.")
        for name in ("stag", "wtag", "dtag"):
            for tag in self.values[name]:
                try:
                    T.check_tag(tag, self.ctx.allow_enum_tags_only)
                except ValueError as err:
                    raise P.UsageError("ERROR: --%s: %s" % (name, err)) from None

    def finalize(self, prb):
        super().finalize(prb)
        dts = prb.cfg if prb.cfg else prb.dt
        prb.dts3 = list(dts) * 3 if len(dts) == 1 else list(dts)
        prb.bias = prb.dir in ("FWD_B", "BWD_WB") or prb.bia_dt != "undef"
        prb.bias_dt = "f32" if prb.dir in ("FWD_B", "BWD_WB") else prb.bia_dt

    def dts(self, prb):
        return prb.dts3 + ([prb.bias_dt] if prb.bias else [])

    def expected_implemented(self, prb):
        # one data type for src, weights and dst, bias f32 or that one
        dt = prb.dts3[0]
        return prb.alg != "wino" and dt in T.COMPUTE_DTS and prb.dts3 == [dt] * 3 and \
            (not prb.bias or prb.bias_dt in ("f32", dt))

    def desc_str(self, prb):
        return prb.desc.format(prb.mb_value)

    def fields(self, prb):
        return {"dir": prb.dir, "dt": ":".join(prb.dts3), "sdt": ":".join(prb.dts3),
                "cfg": ":".join(prb.dts3), "bia_dt": prb.bias_dt if prb.bias else "undef",
                "stag": prb.stag, "wtag": prb.wtag, "dtag": prb.dtag, "alg": prb.alg,
                "attr": ""}

    def csv_template(self):
        return ("perf,%engine%,%impl%,%name%,%dir%,%sdt%,%bia_dt%,%stag%,%wtag%,%dtag%,"
                "%alg%,%attr%,%desc%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%")

    def ops(self, prb):
        d = prb.desc
        sp = 1
        for i, o, k, s, p, dil in zip(d.i, d.o, d.k, d.s, d.p, d.d):
            pos = np.arange(o)[:, None] * s - p + np.arange(k)[None, :] * (dil + 1)
            sp *= int(np.count_nonzero((pos >= 0) & (pos < i)))
        return 2.0 * prb.mb_value * d.oc * d.ic / d.g * sp

    # ---------------------------------------------------------------- run

    def _mds(self, prb):
        d, mb = prb.desc, prb.mb_value
        sdt, wdt, ddt = prb.dts3
        st = prb.strides
        src = T.md(d.src_dims(mb), sdt, prb.stag, st[0])
        wei = T.md(d.wei_dims(), wdt, prb.wtag, st[1])
        dst = T.md(d.dst_dims(mb), ddt, prb.dtag, st[2])
        bias = T.md([d.oc], prb.bias_dt, "any") if prb.bias else None
        return src, wei, bias, dst

    def _geometry(self, prb):
        d = prb.desc
        return (d.s, d.d, d.p, d.pr)

    def _fwd_pd(self, prb, src, wei, bias, dst, prop):
        s, dil, pl, pr = self._geometry(prb)
        alg = getattr(dnnl.algorithm, _ALG_KIND[prb.alg])
        mds = [src, wei] + ([bias] if bias is not None else []) + [dst]
        return dnnl.convolution_forward.primitive_desc(self.ctx.engine, prop, alg, *mds,
                                                        s, dil, pl, pr)

    def run(self, prb, res):
        src_md, wei_md, bias_md, dst_md = self._mds(prb)
        fwd = T.is_fwd(prb.dir)
        prop = T.prop_kind(prb.dir) if fwd else dnnl.prop_kind.forward_training
        s, dil, pl, pr = self._geometry(prb)
        alg = getattr(dnnl.algorithm, _ALG_KIND[prb.alg])
        if fwd:
            pd = self.create_pd(res, prb, self._fwd_pd, prb, src_md, wei_md, bias_md, dst_md,
                                prop)
        else:
            hint = self._fwd_pd(prb, src_md, wei_md, bias_md if prb.dir == "BWD_WB" else None,
                                dst_md, prop)
            if prb.dir == "BWD_D":
                pd = self.create_pd(res, prb, dnnl.convolution_backward_data.primitive_desc,
                                    self.ctx.engine, alg, src_md, wei_md, dst_md, s, dil, pl,
                                    pr, hint)
            else:
                mds = [src_md, wei_md] + ([bias_md] if bias_md is not None else []) + [dst_md]
                pd = self.create_pd(res, prb, dnnl.convolution_backward_weights.primitive_desc,
                                    self.ctx.engine, alg, *mds, s, dil, pl, pr, hint)
        if self.ctx.mode == "I":
            res.state = "INITIALIZED"
            return
        getattr(self, "_run_" + ("fwd" if fwd else prb.dir.lower()[:5]))(prb, res, pd)

    def _run_fwd(self, prb, res, pd):
        d, mb = prb.desc, prb.mb_value
        sdt, wdt, ddt = prb.dts3
        rng = self.rng(prb)
        n_acc = d.ic // d.g * int(np.prod(d.k))
        dens, rs, rw = safe_density(ddt, SRC_RANGE.get(sdt, 4), WEI_RANGE.get(wdt, 4), n_acc)
        src = fill_ints(rng, d.src_dims(mb), rs, dens, sdt == "u8")
        wei = fill_ints(rng, d.wei_dims(), rw, 1.0, wdt == "u8")
        bias = fill_ints(rng, [d.oc], BIA_RANGE) if prb.bias else None
        mems = {dnnl.DNNL_ARG_SRC: self.memory(pd.src_desc()),
                dnnl.DNNL_ARG_WEIGHTS: self.memory(pd.weights_desc()),
                dnnl.DNNL_ARG_DST: self.memory(pd.dst_desc())}
        self.fill(res, mems[dnnl.DNNL_ARG_SRC], src)
        self.fill(res, mems[dnnl.DNNL_ARG_WEIGHTS], wei)
        if prb.bias:
            mems[dnnl.DNNL_ARG_BIAS] = self.memory(pd.bias_desc())
            self.fill(res, mems[dnnl.DNNL_ARG_BIAS], bias)
        prim = self.primitive(res, dnnl.convolution_forward, pd)
        self.execute(res, prim, mems)
        self.bytes_of(res, [m for k, m in mems.items() if k != dnnl.DNNL_ARG_DST],
                      [mems[dnnl.DNNL_ARG_DST]])

        def check():
            exp = self.timed(res, "compute_ref", ref_conv.conv_fwd, src, wei, bias, d.s, d.d,
                             d.p, d.pr, d.g)
            self.check(res, "DST", mems[dnnl.DNNL_ARG_DST], exp, ddt, 0.0,
                       zero_trust=85.0 if any(o > i for o, i in zip(d.o, d.i)) else 70.0)
        self.finish(res, prb, prim, mems, check)

    def _run_bwd_d(self, prb, res, pd):
        d, mb = prb.desc, prb.mb_value
        sdt, wdt, ddt = prb.dts3
        rng = self.rng(prb)
        n_acc = d.oc // d.g * int(np.prod(d.k))
        dens, rd, rw = safe_density(sdt, DST_RANGE.get(ddt, 4), WEI_RANGE.get(wdt, 4), n_acc)
        ddst = fill_ints(rng, d.dst_dims(mb), rd, dens)
        wei = fill_ints(rng, d.wei_dims(), rw)
        mems = {dnnl.DNNL_ARG_DIFF_SRC: self.memory(pd.diff_src_desc()),
                dnnl.DNNL_ARG_WEIGHTS: self.memory(pd.weights_desc()),
                dnnl.DNNL_ARG_DIFF_DST: self.memory(pd.diff_dst_desc())}
        self.fill(res, mems[dnnl.DNNL_ARG_DIFF_DST], ddst)
        self.fill(res, mems[dnnl.DNNL_ARG_WEIGHTS], wei)
        prim = self.primitive(res, dnnl.convolution_backward_data, pd)
        self.execute(res, prim, mems)
        self.bytes_of(res, [mems[dnnl.DNNL_ARG_WEIGHTS], mems[dnnl.DNNL_ARG_DIFF_DST]],
                      [mems[dnnl.DNNL_ARG_DIFF_SRC]])

        def check():
            exp = self.timed(res, "compute_ref", ref_conv.conv_bwd_data, ddst, wei,
                             d.src_dims(mb), d.s, d.d, d.p, d.pr, d.g)
            trust = 0.3 / int(np.prod(d.s))
            self.check(res, "DIFF_SRC", mems[dnnl.DNNL_ARG_DIFF_SRC], exp, sdt, 0.0,
                       zero_trust=100.0 * (1 - trust))
        self.finish(res, prb, prim, mems, check)

    def _run_bwd_w(self, prb, res, pd):
        d, mb = prb.desc, prb.mb_value
        sdt, wdt, ddt = prb.dts3
        rng = self.rng(prb)
        n_acc = mb * int(np.prod(d.o))
        dens, rs, rd = safe_density(wdt, SRC_RANGE.get(sdt, 4), DST_RANGE.get(ddt, 4), n_acc)
        src = fill_ints(rng, d.src_dims(mb), rs)
        ddst = fill_ints(rng, d.dst_dims(mb), rd, dens)
        mems = {dnnl.DNNL_ARG_SRC: self.memory(pd.src_desc()),
                dnnl.DNNL_ARG_DIFF_WEIGHTS: self.memory(pd.diff_weights_desc()),
                dnnl.DNNL_ARG_DIFF_DST: self.memory(pd.diff_dst_desc())}
        if prb.bias:
            mems[dnnl.DNNL_ARG_DIFF_BIAS] = self.memory(pd.diff_bias_desc())
        self.fill(res, mems[dnnl.DNNL_ARG_SRC], src)
        self.fill(res, mems[dnnl.DNNL_ARG_DIFF_DST], ddst)
        prim = self.primitive(res, dnnl.convolution_backward_weights, pd)
        self.execute(res, prim, mems)
        outs = [dnnl.DNNL_ARG_DIFF_WEIGHTS, dnnl.DNNL_ARG_DIFF_BIAS]
        self.bytes_of(res, [m for k, m in mems.items() if k not in outs],
                      [m for k, m in mems.items() if k in outs])

        def check():
            dw, db = self.timed(res, "compute_ref", ref_conv.conv_bwd_weights, src, ddst,
                                d.wei_dims(), d.s, d.d, d.p, d.pr, d.g)
            k, i, o = int(np.prod(d.k)), int(np.prod(d.i)), int(np.prod(d.o))
            trust = 0.3 / (k / min(k, i, o))
            self.check(res, "DIFF_WEI", mems[dnnl.DNNL_ARG_DIFF_WEIGHTS], dw, wdt, 0.0,
                       zero_trust=100.0 * (1 - trust))
            if prb.bias:
                self.check(res, "DIFF_BIA", mems[dnnl.DNNL_ARG_DIFF_BIAS], db, prb.bias_dt,
                           0.0, zero_trust=20.0)
        self.finish(res, prb, prim, mems, check)
