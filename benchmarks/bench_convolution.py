"""Convolution on the examples' layer (AlexNet conv1: 3x227x227 -> 96x55x55,
11x11 stride 4): forward, backward data and backward weights, f32 at batch 8
and bf16 at batch 32 - cydnnl against the real oneDNN (libdnnl via ctypes,
see onednn_ref.py) in the same run. Each library uses the layouts it picks
for `any`; only the primitives are timed.

    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_convolution.py [--isa avx2]
"""

import ctypes

import numpy as np

import onednn_ref
import common
from common import median_time, table
import dnnl
from dnnl import (algorithm, convolution_backward_data, convolution_backward_weights,
                  convolution_forward, engine, memory, prop_kind, stream)

tag, dt = memory.format_tag, memory.data_type
CASES = [("f32", 8, dt.f32), ("bf16", 32, dt.bf16)]
IC, OC, IH, KH, S, OH = 3, 96, 227, 11, 4, 55


def ours(dtype, mb, times):
    eng = engine(engine.kind.cpu, 0)
    s = stream(eng)
    any_ = lambda dims: memory.desc(dims, dtype, tag.any)  # noqa: E731
    src, wei, bias, dst = [mb, IC, IH, IH], [OC, IC, KH, KH], [OC], [mb, OC, OH, OH]
    conv_args = ([S, S], [0, 0], [0, 0])
    fpd = convolution_forward.primitive_desc(eng, prop_kind.forward_training,
                                             algorithm.convolution_direct, any_(src), any_(wei),
                                             any_(bias), any_(dst), *conv_args)
    bpd = convolution_backward_data.primitive_desc(eng, algorithm.convolution_direct, any_(src),
                                                   any_(wei), any_(dst), *conv_args, fpd)
    wpd = convolution_backward_weights.primitive_desc(eng, algorithm.convolution_direct,
                                                      any_(src), any_(wei), any_(bias),
                                                      any_(dst), *conv_args, fpd)
    rng = np.random.default_rng(0)

    def mem(d):
        m = memory(d, eng)
        if not d.is_zero():
            m.write(rng.uniform(-1, 1, d.get_dims()).astype(np.float32))
        return m
    out = {}
    f = {dnnl.DNNL_ARG_SRC: mem(fpd.src_desc()), dnnl.DNNL_ARG_WEIGHTS: mem(fpd.weights_desc()),
         dnnl.DNNL_ARG_BIAS: mem(fpd.bias_desc()), dnnl.DNNL_ARG_DST: mem(fpd.dst_desc())}
    p = convolution_forward(fpd)
    out["forward"] = (median_time(lambda: p.execute(s, f), **times), fpd.impl_info_str())
    b = {dnnl.DNNL_ARG_DIFF_SRC: mem(bpd.diff_src_desc()),
         dnnl.DNNL_ARG_WEIGHTS: mem(bpd.weights_desc()),
         dnnl.DNNL_ARG_DIFF_DST: mem(bpd.diff_dst_desc())}
    pb = convolution_backward_data(bpd)
    out["backward data"] = (median_time(lambda: pb.execute(s, b), **times), bpd.impl_info_str())
    w = {dnnl.DNNL_ARG_SRC: mem(wpd.src_desc()), dnnl.DNNL_ARG_DIFF_DST: mem(wpd.diff_dst_desc()),
         dnnl.DNNL_ARG_DIFF_WEIGHTS: mem(wpd.diff_weights_desc()),
         dnnl.DNNL_ARG_DIFF_BIAS: mem(wpd.diff_bias_desc())}
    pw = convolution_backward_weights(wpd)
    out["backward weights"] = (median_time(lambda: pw.execute(s, w), **times),
                               wpd.impl_info_str())
    return out


def reference(lib, dtype, mb, times):
    L, P = lib.lib, onednn_ref.P
    d = onednn_ref.dims_t
    md = lambda dims: lib.md(dims, int(dtype), 1)  # noqa: E731
    src, wei, bias, dst = md([mb, IC, IH, IH]), md([OC, IC, KH, KH]), md([OC]), md([mb, OC, OH, OH])
    st, pl = d(S, S), d(0, 0)

    def create(fn, *needs):
        """The pd fn creates; None where oneDNN has no implementation."""
        pd = P()
        try:
            if all(n is not None for n in needs):
                lib.check(fn(ctypes.byref(pd)), "convolution pd")
                return pd
        except onednn_ref.Unimplemented:
            pass
        return None
    fpd = create(lambda r: L.dnnl_convolution_forward_primitive_desc_create(
        r, lib.engine, 64, 1, src, wei, bias, dst, st, None, pl, pl, None))
    bpd = create(lambda r: L.dnnl_convolution_backward_data_primitive_desc_create(
        r, lib.engine, 1, src, wei, dst, st, None, pl, pl, fpd, None), fpd)
    wpd = create(lambda r: L.dnnl_convolution_backward_weights_primitive_desc_create(
        r, lib.engine, 1, src, wei, bias, dst, st, None, pl, pl, fpd, None), fpd)
    out = {}
    for name, pd, args in (("forward", fpd, {1: 129, 33: 131, 41: (131, 1), 17: 133}),
                           ("backward data", bpd, {129: 130, 33: 131, 145: 134}),
                           ("backward weights", wpd, {1: 129, 145: 134, 161: 132,
                                                      169: (132, 1)})):
        if pd is None:
            continue
        mems = {}
        for arg, q in args.items():
            q, idx = q if isinstance(q, tuple) else (q, 0)
            mems[arg] = lib.memory(lib.query_md(pd, q, idx))
        run = lib.runner(lib.primitive(pd), mems)
        out[name] = (median_time(run, **times), lib.impl(pd))
    return out


def main():
    args, lib = common.start(__doc__.split("\n\n")[0])
    times = dict(repeat=args.repeat, warmup=args.warmup)
    rows = []
    flops_per_image = 2 * OC * OH * OH * IC * KH * KH
    for name, mb, dtype in CASES:
        mine = ours(dtype, mb, times)
        ref = reference(lib, dtype, mb, times) if lib is not None else {}
        for direction, (t, impl) in mine.items():
            gflops = flops_per_image * mb / t / 1e9
            r = ref.get(direction)
            rows.append(["%s mb%d" % (name, mb), direction, impl, "%.2f" % (t * 1e3),
                         "%.1f" % gflops, "%.2f (%s)" % (r[0] * 1e3, r[1]) if r else
                         "unimpl" if lib is not None else "-",
                         "%.2fx" % (r[0] / t) if r else "-"])
    table(rows, ["case", "direction", "impl", "ms", "GFLOP/s", "oneDNN ms", "vs oneDNN"])
    print("\n'vs oneDNN': how many times faster cydnnl is (>1 = faster); medians.")


if __name__ == "__main__":
    main()
