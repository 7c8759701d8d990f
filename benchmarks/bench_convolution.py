"""Convolution on the examples' layer (AlexNet conv1: 3x227x227 -> 96x55x55,
11x11 stride 4): forward, backward data and backward weights, f32 at batch 8
and bf16 at batch 32 - cydnnl against the real oneDNN (libdnnl via ctypes,
see onednn_ref.py) in the same run. Each library uses the layouts it picks
for `any`; only the primitives are timed.

    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_convolution.py [--isa avx2]

The two libraries' repeats take turns. --directions picks some of forward,
backward data, backward weights (`python -m benchmarks` runs backward data
only: the CNN block times the other two); --json FILE also writes the
results (cases "conv1 f32 mb8" and "conv1 bf16 mb32").
"""

import ctypes
import json

import numpy as np

import onednn_ref
import common
from common import median_times, table
import dnnl
from dnnl import (algorithm, convolution_backward_data, convolution_backward_weights,
                  convolution_forward, engine, memory, prop_kind, stream)

tag, dt = memory.format_tag, memory.data_type
CASES = [("f32", 8, dt.f32), ("bf16", 32, dt.bf16)]
DIRECTIONS = ("forward", "backward data", "backward weights")
IC, OC, IH, KH, S, OH = 3, 96, 227, 11, 4, 55


def ours(dtype, mb):
    """direction -> (runner, implementation name)."""
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
    out["forward"] = (lambda: p.execute(s, f), fpd.impl_info_str())
    b = {dnnl.DNNL_ARG_DIFF_SRC: mem(bpd.diff_src_desc()),
         dnnl.DNNL_ARG_WEIGHTS: mem(bpd.weights_desc()),
         dnnl.DNNL_ARG_DIFF_DST: mem(bpd.diff_dst_desc())}
    pb = convolution_backward_data(bpd)
    out["backward data"] = (lambda: pb.execute(s, b), bpd.impl_info_str())
    w = {dnnl.DNNL_ARG_SRC: mem(wpd.src_desc()), dnnl.DNNL_ARG_DIFF_DST: mem(wpd.diff_dst_desc()),
         dnnl.DNNL_ARG_DIFF_WEIGHTS: mem(wpd.diff_weights_desc()),
         dnnl.DNNL_ARG_DIFF_BIAS: mem(wpd.diff_bias_desc())}
    pw = convolution_backward_weights(wpd)
    out["backward weights"] = (lambda: pw.execute(s, w), wpd.impl_info_str())
    return out


def reference(lib, dtype, mb):
    """direction -> (runner, implementation name), where oneDNN has one."""
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
        out[name] = (lib.runner(lib.primitive(pd), mems), lib.impl(pd))
    return out


def measure(lib, name, mb, dtype, directions, repeat, warmup, min_time):
    """One record per direction (as bench_cnn_block.py's steps): our and
    oneDNN's median ms (None where oneDNN has no implementation), names and
    FLOPs."""
    mine = ours(dtype, mb)
    ref = reference(lib, dtype, mb) if lib is not None else {}
    records = []
    for direction in directions:
        sides = [mine[direction], ref.get(direction)]
        times = iter(median_times([side[0] for side in sides if side], repeat, warmup,
                                  min_time))
        ms = [next(times) * 1e3 if side else None for side in sides]
        records.append({"step": direction, "dtype": name,
                        "flops": 2 * OC * OH * OH * IC * KH * KH * mb,
                        "ours_ms": ms[0], "ours_impl": sides[0][1], "onednn_ms": ms[1],
                        "onednn_impl": sides[1] and sides[1][1],
                        "torch_ms": None, "torch_impl": None})
    return records


def main():
    def extra(p):
        p.add_argument("--json", help="also write the results to this file")
        p.add_argument("--directions", default=",".join(DIRECTIONS),
                       help="comma-separated, of: %s" % ", ".join(DIRECTIONS))
    args, lib = common.start(__doc__.split("\n\n")[0], extra=extra)
    directions = [d.strip() for d in args.directions.split(",")]
    bad = [d for d in directions if d not in DIRECTIONS]
    if bad:
        raise SystemExit("--directions: unknown %s" % ", ".join(bad))
    results = {"isa_limit": args.isa, "ours_isa": dnnl.get_effective_cpu_isa().name,
               "onednn_version": lib.version() if lib else None,
               "onednn_isa": common.isa_name(lib.effective_isa()) if lib else None,
               "cases": {}}
    rows = []
    for name, mb, dtype in CASES:
        records = measure(lib, name, mb, dtype, directions, args.repeat, args.warmup,
                          args.min_time)
        results["cases"]["conv1 %s mb%d" % (name, mb)] = records
        for r in records:
            rows.append(["%s mb%d" % (name, mb), r["step"], r["ours_impl"],
                         "%.2f" % r["ours_ms"], "%.1f" % (r["flops"] / r["ours_ms"] / 1e6),
                         "%.2f (%s)" % (r["onednn_ms"], r["onednn_impl"])
                         if r["onednn_ms"] is not None else
                         "unimpl" if lib is not None else "-",
                         "%.2fx" % (r["onednn_ms"] / r["ours_ms"])
                         if r["onednn_ms"] is not None else "-"])
    table(rows, ["case", "direction", "impl", "ms", "GFLOP/s", "oneDNN ms", "vs oneDNN"])
    print("\n'vs oneDNN': oneDNN's time / ours (>1 = cydnnl faster); medians of %d or more "
          "interleaved repeats (%.2f s of each step at least) after %d warm-up runs or more."
          % (args.repeat, args.min_time, args.warmup))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
