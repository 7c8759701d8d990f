"""--lrn (benchdnn's lrn driver, doc/driver_lrn.md): FWD_D, FWD_I, BWD_D,
across (ACROSS) and within (WITHIN) channel. src takes --tag, the other
tensors `any`; backward runs forward training first (for its workspace).
Inputs are integers in [-8, 7] as benchdnn fills; the threshold is
benchdnn's: 3 epsilons of the data type per summand of the window."""

import numpy as np

import dnnl
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import parser as P
from dnnl.benchdnn import ref_lrn as R
from dnnl.benchdnn.desc import LrnDesc
from dnnl.benchdnn.driver import Driver

ALGS = {"across": "across", "within": "within", "lrn_across_channels": "across",
        "lrn_within_channel": "within", "across_channels": "across",
        "within_channel": "within"}


class LrnDriver(Driver):
    name = "lrn"
    desc_class = LrnDesc
    options = [
        P.dir_option(("FWD_D", "FWD_I", "BWD_D"), "FWD_D"),
        P.dt_option("f32"),
        P.tag_option("tag", "abx"),
        P.choice_option("alg", ALGS, "across", show=lambda v: v.upper()),
    ]

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
        return {"dir": prb.dir, "dt": prb.dt, "tag": prb.tag, "alg": prb.alg.upper(),
                "attr": ""}

    def csv_template(self):
        return ("perf,%engine%,%impl%,%name%,%dir%,%dt%,%tag%,%alg%,%attr%,%desc%,"
                "%-time%,%0time%")

    def run(self, prb, res):
        d = prb.desc
        dims = d.src_dims(prb.mb_value)
        src_md = T.md(dims, prb.dt, prb.tag)
        any_md = T.md(dims, prb.dt, "any")
        alg = dnnl.algorithm.lrn_across_channels if prb.alg == "across" else \
            dnnl.algorithm.lrn_within_channel
        bwd = prb.dir == "BWD_D"
        prop = dnnl.prop_kind.forward_training if bwd else T.prop_kind(prb.dir)
        fwd_args = (self.ctx.engine, prop, alg, src_md, any_md, d.ls, d.alpha, d.beta, d.k)
        if bwd:
            fwd_pd = dnnl.lrn_forward.primitive_desc(*fwd_args)
            bwd_pd = self.create_pd(res, prb, dnnl.lrn_backward.primitive_desc,
                                    self.ctx.engine, alg, any_md, any_md, src_md, d.ls, d.alpha,
                                    d.beta, d.k, fwd_pd)
        else:
            fwd_pd = self.create_pd(res, prb, dnnl.lrn_forward.primitive_desc, *fwd_args)
        if self.ctx.mode == "I":
            res.state = "INITIALIZED"
            return
        rng = self.rng(prb)
        src = rng.integers(-8, 8, dims).astype(np.float64)
        src_mem = self.memory(fwd_pd.src_desc())
        self.fill(res, src_mem, src)
        dst_mem = self.memory(fwd_pd.dst_desc())
        args = {dnnl.DNNL_ARG_SRC: src_mem, dnnl.DNNL_ARG_DST: dst_mem}
        ws_md = fwd_pd.workspace_desc()
        if not ws_md.is_zero():
            args[dnnl.DNNL_ARG_WORKSPACE] = self.memory(ws_md)
        fwd = self.primitive(res, dnnl.lrn_forward, fwd_pd)
        self.execute(res, fwd, args)
        across = prb.alg == "across"
        trh = R.n_summands(across, d.ls, len(dims)) * 3 * T.epsilon(prb.dt)
        if not bwd:
            self.bytes_of(res, [src_mem], [dst_mem])

            def check():
                exp = self.timed(res, "compute_ref", R.lrn_fwd, src, across, d.ls, d.alpha,
                                 d.beta, d.k)
                self.check(res, "DST", dst_mem, exp, prb.dt, trh)
            self.finish(res, prb, fwd, args, check)
            return
        diff_dst = rng.integers(-8, 8, dims).astype(np.float64)
        dd_mem = self.memory(bwd_pd.diff_dst_desc())
        self.fill(res, dd_mem, diff_dst)
        ds_mem = self.memory(bwd_pd.diff_src_desc())
        bargs = {dnnl.DNNL_ARG_SRC: src_mem, dnnl.DNNL_ARG_DIFF_DST: dd_mem,
                 dnnl.DNNL_ARG_DIFF_SRC: ds_mem}
        if dnnl.DNNL_ARG_WORKSPACE in args:
            bargs[dnnl.DNNL_ARG_WORKSPACE] = args[dnnl.DNNL_ARG_WORKSPACE]
        prim = self.primitive(res, dnnl.lrn_backward, bwd_pd)
        self.execute(res, prim, bargs)
        self.bytes_of(res, [src_mem, dd_mem], [ds_mem])

        def check_bwd():
            exp, mag = self.timed(res, "compute_ref", R.lrn_bwd, src, diff_dst, across, d.ls,
                                  d.alpha, d.beta, d.k, True)
            bound = trh * mag.reshape(-1)

            # the terms cancel where diff_dst is small: their size bounds
            # the rounding error, not the result's
            def extra(e, got, diff, rel):
                return diff <= bound
            self.check(res, "DIFF_SRC", ds_mem, exp, prb.dt, trh, extra_ok=extra)
        self.finish(res, prb, prim, bargs, check_bwd)
