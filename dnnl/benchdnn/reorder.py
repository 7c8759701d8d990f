"""--reorder (benchdnn's reorder driver, doc/driver_reorder.md): any layout
to any layout (--stag/--dtag, or --strides=SRC:DST), with a conversion
between data types (--sdt/--ddt). The reference is the data itself,
converted as oneDNN converts: to bf16 rounding to nearest even, to
integers rounding to nearest even and saturating. Inputs hold fractions
where both sides are floating point, integers (past the destination's
range, to see it saturate) otherwise; the result must match exactly."""

import numpy as np

import dnnl
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import parser as P
from dnnl.benchdnn.desc import DimsDesc
from dnnl.benchdnn.driver import Driver

_FLOATS = ("f32", "bf16", "f16", "f64")


class ReorderDriver(Driver):
    name = "reorder"
    desc_class = DimsDesc
    mb_option = False
    unsupported = ("oflag", "iflag", "cross-engine", "runtime-dim-mask", "runtime_dim_mask")
    options = [
        P.dt_option("f32", "sdt"), P.dt_option("f32", "ddt"),
        P.tag_option("stag", "abx"), P.tag_option("dtag", "abx"),
        P.Option("strides", lambda v: T.parse_strides(v, 2), [[[], []]],
                 show=lambda v: ":".join("x".join(map(str, s)) for s in v)),
    ]

    def check_settings(self):
        for name in ("stag", "dtag"):
            for tag in self.values[name]:
                try:
                    T.check_tag(tag, self.ctx.allow_enum_tags_only)
                except ValueError as err:
                    raise P.UsageError("ERROR: --%s: %s" % (name, err)) from None

    def finalize(self, prb):
        prb.mb = 0
        super().finalize(prb)

    def dts(self, prb):
        return [prb.sdt, prb.ddt]

    def expected_implemented(self, prb):
        # reorders convert between f32, bf16 and the integer types
        ok = ("f32", "bf16", "s32", "s8", "u8")
        return prb.sdt in ok and prb.ddt in ok

    def fields(self, prb):
        return {"sdt": prb.sdt, "ddt": prb.ddt, "stag": prb.stag, "dtag": prb.dtag,
                "attr": "", "flags": ""}

    def csv_template(self):
        return ("perf,%engine%,%impl%,%name%,%sdt%,%ddt%,%stag%,%dtag%,%flags%,%attr%,"
                "%desc%,%-time%,%0time%")

    def data(self, prb, rng, dims):
        if prb.sdt in _FLOATS and prb.ddt in _FLOATS:
            v = rng.uniform(-16, 16, dims)
        else:
            lo, hi = T.INT_RANGE.get(prb.ddt, (-1024, 1024))
            slo, shi = T.INT_RANGE.get(prb.sdt, (-4096, 4096))
            v = rng.integers(max(lo - 64, slo, -4096), min(hi + 64, shi, 4096) + 1,
                             dims).astype(np.float64)
        return T.round_to(v, prb.sdt)

    def run(self, prb, res):
        dims = prb.desc.dims
        st = prb.strides
        src_md = T.md(dims, prb.sdt, prb.stag, st[0])
        dst_md = T.md(dims, prb.ddt, prb.dtag, st[1])
        eng = self.ctx.engine
        pd = self.create_pd(res, prb, dnnl.reorder.primitive_desc, eng, src_md, eng, dst_md)
        if self.ctx.mode == "I":
            res.state = "INITIALIZED"
            return
        src = self.data(prb, self.rng(prb), dims)
        src_mem, dst_mem = self.memory(src_md), self.memory(dst_md)
        self.fill(res, src_mem, src)
        prim = self.primitive(res, dnnl.reorder, pd)
        args = {dnnl.DNNL_ARG_FROM: src_mem, dnnl.DNNL_ARG_TO: dst_mem}
        self.execute(res, prim, args)
        self.bytes_of(res, [src_mem], [dst_mem])

        def check():
            self.check(res, "DST", dst_mem, src, prb.ddt, 0.0, zero_trust=100.0)
        self.finish(res, prb, prim, args, check)
