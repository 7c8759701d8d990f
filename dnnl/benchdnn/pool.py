"""--pool (benchdnn's pool driver, doc/driver_pool.md): FWD_D (with the
workspace of max pooling), FWD_I, BWD_D; max, avg_np
(avg_exclude_padding), avg_p (avg_include_padding). Inputs are integers
(f32 in [-2048, 2048], bf16 in [-32, 32]; non-negative for the averages,
as benchdnn fills them); max must match exactly, the averages within 10
epsilons of the destination's data type."""

import numpy as np

import dnnl
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import parser as P
from dnnl.benchdnn import ref_pool as R
from dnnl.benchdnn.conv import cfg2dt
from dnnl.benchdnn.desc import PoolDesc
from dnnl.benchdnn.driver import Driver

ALGS = {"max": "max", "pooling_max": "max", "avg_np": "avg_np",
        "pooling_avg_exclude_padding": "avg_np", "avg_p": "avg_p",
        "pooling_avg_include_padding": "avg_p"}
_ALG_KIND = {"max": "pooling_max", "avg_np": "pooling_avg_exclude_padding",
             "avg_p": "pooling_avg_include_padding"}
RANGE = {"f32": 2048, "f64": 2048, "s32": 2048, "bf16": 32, "f16": 32, "s8": 127, "u8": 255}


class PoolDriver(Driver):
    name = "pool"
    desc_class = PoolDesc
    options = [
        P.dir_option(("FWD_D", "FWD_I", "BWD_D"), "FWD_D"),
        P.multi_dt_option(("f32",)),
        P.Option("cfg", cfg2dt, [None], show=lambda v: "".join(v or ())),
        P.tag_option("tag", "abx"),
        P.choice_option("alg", ALGS, "max"),
    ]

    def check_settings(self):
        for dts in self.values["dt"]:
            if len(dts) not in (1, 2):
                raise P.UsageError("ERROR: `dt` option expects either a single input or two "
                                   "inputs in SRC, DST order.")
        for tag in self.values["tag"]:
            try:
                T.check_tag(tag, self.ctx.allow_enum_tags_only)
            except ValueError as err:
                raise P.UsageError("ERROR: --tag: %s" % err) from None

    def finalize(self, prb):
        super().finalize(prb)
        dts = prb.cfg if prb.cfg else prb.dt
        prb.dts2 = list(dts) * 2 if len(dts) == 1 else list(dts)

    def dts(self, prb):
        return prb.dts2

    def desc_str(self, prb):
        return prb.desc.format(prb.mb_value)

    def fields(self, prb):
        return {"dir": prb.dir, "dt": ":".join(prb.dts2), "sdt": ":".join(prb.dts2),
                "cfg": ":".join(prb.dts2), "tag": prb.tag, "alg": prb.alg, "attr": ""}

    def csv_template(self):
        return ("perf,%engine%,%impl%,%name%,%dir%,%cfg%,%tag%,%alg%,%attr%,%desc%,"
                "%-time%,%0time%")

    def skip(self, prb):
        d = prb.desc
        if prb.alg == "avg_np" and any(p >= k or pr >= k for p, pr, k in zip(d.p, d.pr, d.k)):
            return "Invalid case"        # a window all in the padding divides 0 by 0
        if prb.dts2[0] != prb.dts2[1]:
            return "Case not supported"  # as benchdnn on CPU
        return None

    def run(self, prb, res):
        d, mb = prb.desc, prb.mb_value
        sdt, ddt = prb.dts2
        src_dims, dst_dims = d.src_dims(mb), d.dst_dims(mb)
        alg = getattr(dnnl.algorithm, _ALG_KIND[prb.alg])
        bwd = prb.dir == "BWD_D"
        prop = dnnl.prop_kind.forward_training if bwd else T.prop_kind(prb.dir)
        geo = (d.s, d.k, d.d, d.p, d.pr)
        fwd_args = (self.ctx.engine, prop, alg, T.md(src_dims, sdt, prb.tag),
                    T.md(dst_dims, ddt, "any")) + geo
        if bwd:
            fwd_pd = dnnl.pooling_forward.primitive_desc(*fwd_args)
            bwd_pd = self.create_pd(res, prb, dnnl.pooling_backward.primitive_desc,
                                    self.ctx.engine, alg, T.md(src_dims, sdt, "any"),
                                    T.md(dst_dims, ddt, "any"), *geo, fwd_pd)
        else:
            fwd_pd = self.create_pd(res, prb, dnnl.pooling_forward.primitive_desc, *fwd_args)
        if self.ctx.mode == "I":
            res.state = "INITIALIZED"
            return
        rng = self.rng(prb)
        lo = 0 if prb.alg != "max" else -RANGE.get(sdt, 32)
        src = rng.integers(lo, RANGE.get(sdt, 32) + 1, src_dims).astype(np.float64)
        src.flat[0] = max(src.flat[0], 1.0)
        src_mem = self.memory(fwd_pd.src_desc())
        self.fill(res, src_mem, src)
        dst_mem = self.memory(fwd_pd.dst_desc())
        args = {dnnl.DNNL_ARG_SRC: src_mem, dnnl.DNNL_ARG_DST: dst_mem}
        ws_md = fwd_pd.workspace_desc()
        if not ws_md.is_zero():
            args[dnnl.DNNL_ARG_WORKSPACE] = self.memory(ws_md)
        fwd = self.primitive(res, dnnl.pooling_forward, fwd_pd)
        self.execute(res, fwd, args)
        trh = 0.0 if prb.alg == "max" else 10 * T.epsilon(ddt)
        if not bwd:
            self.bytes_of(res, [src_mem], [m for k, m in args.items()
                                           if k != dnnl.DNNL_ARG_SRC])

            def check():
                exp, _ = self.timed(res, "compute_ref", R.pool_fwd, src, prb.alg, d.k, d.s,
                                    d.d, d.p, d.o, T.lowest(ddt))
                self.check(res, "DST", dst_mem, exp, ddt, trh, zero_trust=99.0)
            self.finish(res, prb, fwd, args, check)
            return
        dd = rng.integers(lo, RANGE.get(ddt, 32) + 1, dst_dims).astype(np.float64)
        dd_mem = self.memory(bwd_pd.diff_dst_desc())
        self.fill(res, dd_mem, dd)
        ds_mem = self.memory(bwd_pd.diff_src_desc())
        bargs = {dnnl.DNNL_ARG_DIFF_DST: dd_mem, dnnl.DNNL_ARG_DIFF_SRC: ds_mem}
        if dnnl.DNNL_ARG_WORKSPACE in args:
            bargs[dnnl.DNNL_ARG_WORKSPACE] = args[dnnl.DNNL_ARG_WORKSPACE]
        prim = self.primitive(res, dnnl.pooling_backward, bwd_pd)
        self.execute(res, prim, bargs)
        self.bytes_of(res, [m for k, m in bargs.items() if k != dnnl.DNNL_ARG_DIFF_SRC],
                      [ds_mem])

        def check_bwd():
            _, ws = R.pool_fwd(src, prb.alg, d.k, d.s, d.d, d.p, d.o)
            exp = self.timed(res, "compute_ref", R.pool_bwd, dd, src_dims, prb.alg, d.k, d.s,
                             d.d, d.p, ws)
            self.check(res, "DIFF_SRC", ds_mem, exp, sdt, trh, zero_trust=100.0)
        self.finish(res, prb, prim, bargs, check_bwd)
