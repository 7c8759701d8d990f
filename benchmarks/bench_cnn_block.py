"""The CNN examples' block - conv 11x11/4 -> ReLU -> LRN -> max pool 3x3/2
forward, then pool, LRN, ReLU backward and conv backward weights - timed
primitive by primitive, cydnnl against the real oneDNN (libdnnl via ctypes,
see onednn_ref.py), in f32 at batch 8 and bf16 at batch 32 (and f32 at
batch 32, the bf16 iteration's yardstick). Each library
runs in the layouts it picks for `any`, with the reorders the examples run
every iteration between those and the user's f32 nchw / oihw (src, weights,
pool dst, pool diff_dst, diff weights; "none" where the picked layout is the
user's). The two libraries' repeats take turns, step by step.

    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_cnn_block.py [--isa avx2]

--json FILE also writes the results (for bench_levels.py and `python -m benchmarks`).
"""

import ctypes
import json

import numpy as np

import common
import onednn_ref
from common import NO_REORDER, median_times, table
import dnnl
from dnnl import (algorithm, convolution_backward_weights, convolution_forward,
                  eltwise_backward, eltwise_forward, engine, lrn_backward, lrn_forward, memory,
                  pooling_backward, pooling_forward, prop_kind, stream)

tag, dt = memory.format_tag, memory.data_type
# in the order the examples run them
STEPS = ["reorder src", "reorder weights", "conv fwd", "relu fwd", "lrn fwd", "pool fwd",
         "reorder pool dst", "reorder diff_dst", "pool bwd", "lrn bwd", "relu bwd",
         "conv bwd weights", "reorder diff weights"]
# f32 at batch 32 too: the bf16 iteration's yardstick (issue 11: bf16 at most
# 0.6x our f32 time with bf16 dot products, 1.1x without). The cases of one
# group are timed together, their steps taking turns, so that a slow spell of
# the machine falls on the bf16 iteration and its yardstick alike (timed one
# after the other, a spell of legacy SSE running slowly read 1.31 for 1.03).
CASES = [[("f32", 8, dt.f32)], [("bf16", 32, dt.bf16), ("f32", 32, dt.f32)]]
# dnnl_query_*_md
Q_SRC, Q_DIFF_SRC, Q_WEI, Q_DIFF_WEI, Q_DST, Q_DIFF_DST, Q_WS = 129, 130, 131, 132, 133, 134, 135
LRN = (ctypes.c_int64(5), ctypes.c_float(1e-4), ctypes.c_float(0.75), ctypes.c_float(1.0))


def shapes(mb):
    """src, weights, bias, conv dst, pool dst."""
    return [mb, 3, 227, 227], [96, 3, 11, 11], [96], [mb, 96, 55, 55], [mb, 96, 27, 27]


def conv_flops(mb):
    """Multiply-adds of the convolution (forward, and backward weights
    without its bias sum): 2*mb*oc*oh*ow*ic*kh*kw."""
    src, wei, _, cdst, _ = shapes(mb)
    return 2 * mb * wei[0] * cdst[2] * cdst[3] * src[1] * wei[2] * wei[3]


def user_reorders(user, src, wei, pdst, conv, pool, pool_b, conv_b):
    """step -> (from, to) of the examples' reorders: `user(dims, tag)` is
    the user's f32 layout, the other arguments the pds' chosen ones."""
    return {"reorder src": (user(src, tag.nchw), conv[0]),
            "reorder weights": (user(wei, tag.oihw), conv[1]),
            "reorder pool dst": (pool, user(pdst, tag.nchw)),
            "reorder diff_dst": (user(pdst, tag.nchw), pool_b),
            "reorder diff weights": (conv_b, user(wei, tag.oihw))}


def ours(dtype, mb):
    """cydnnl's steps: step -> (runner, implementation name); the runner is
    None where no reorder is needed."""
    eng = engine(engine.kind.cpu, 0)
    s = stream(eng)
    anyd = lambda dims, d=dtype: memory.desc(dims, d, tag.any)  # noqa: E731
    src, wei, bias, cdst, pdst = shapes(mb)
    conv = convolution_forward.primitive_desc(eng, prop_kind.forward, algorithm.convolution_direct,
                                              anyd(src), anyd(wei), anyd(bias), anyd(cdst),
                                              [4, 4], [0, 0], [0, 0])
    relu = eltwise_forward.primitive_desc(eng, prop_kind.forward, algorithm.eltwise_relu,
                                          conv.dst_desc(), conv.dst_desc(), 0.0)
    lrn = lrn_forward.primitive_desc(eng, prop_kind.forward, algorithm.lrn_across_channels,
                                     relu.dst_desc(), relu.dst_desc(), 5, 1e-4, 0.75, 1.0)
    pool = pooling_forward.primitive_desc(eng, prop_kind.forward, algorithm.pooling_max,
                                          lrn.dst_desc(), anyd(pdst), [2, 2], [3, 3], [0, 0],
                                          [0, 0], [0, 0])
    pool_b = pooling_backward.primitive_desc(eng, algorithm.pooling_max, anyd(cdst), anyd(pdst),
                                             [2, 2], [3, 3], [0, 0], [0, 0], [0, 0], pool)
    lrn_b = lrn_backward.primitive_desc(eng, algorithm.lrn_across_channels, anyd(cdst),
                                        anyd(cdst), lrn.src_desc(), 5, 1e-4, 0.75, 1.0, lrn)
    relu_b = eltwise_backward.primitive_desc(eng, algorithm.eltwise_relu, anyd(cdst), anyd(cdst),
                                             conv.dst_desc(), 0.0, relu)
    conv_b = convolution_backward_weights.primitive_desc(
        eng, algorithm.convolution_direct, anyd(src), anyd(wei), anyd(bias, dt.f32), anyd(cdst),
        [4, 4], [0, 0], [0, 0], conv)
    rng = np.random.default_rng(0)

    def mem(d):
        m = memory(d, eng)
        if not d.is_zero():
            m.write(rng.uniform(0.1, 1, d.get_dims()).astype(np.float32))
        return m
    S, W, B, D = dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_WEIGHTS, dnnl.DNNL_ARG_BIAS, dnnl.DNNL_ARG_DST
    DS, DD, WS = dnnl.DNNL_ARG_DIFF_SRC, dnnl.DNNL_ARG_DIFF_DST, dnnl.DNNL_ARG_WORKSPACE
    lrn_ws, pool_ws = mem(lrn.workspace_desc()), mem(pool.workspace_desc())
    plan = [(convolution_forward, conv, {S: conv.src_desc(), W: conv.weights_desc(),
                                         B: conv.bias_desc(), D: conv.dst_desc()}),
            (eltwise_forward, relu, {S: relu.src_desc(), D: relu.dst_desc()}),
            (lrn_forward, lrn, {S: lrn.src_desc(), D: lrn.dst_desc(), WS: lrn_ws}),
            (pooling_forward, pool, {S: pool.src_desc(), D: pool.dst_desc(), WS: pool_ws}),
            (pooling_backward, pool_b, {DD: pool_b.diff_dst_desc(), DS: pool_b.diff_src_desc(),
                                        WS: pool_ws}),
            (lrn_backward, lrn_b, {S: lrn.src_desc(), DD: lrn_b.diff_dst_desc(),
                                   DS: lrn_b.diff_src_desc(), WS: lrn_ws}),
            (eltwise_backward, relu_b, {S: conv.dst_desc(), DD: relu_b.diff_dst_desc(),
                                        DS: relu_b.diff_src_desc()}),
            (convolution_backward_weights, conv_b,
             {S: conv_b.src_desc(), DD: conv_b.diff_dst_desc(),
              dnnl.DNNL_ARG_DIFF_WEIGHTS: conv_b.diff_weights_desc(),
              dnnl.DNNL_ARG_DIFF_BIAS: conv_b.diff_bias_desc()})]
    out = {}
    for step, (cls, pd, descs) in zip([st for st in STEPS if not st.startswith("reorder")],
                                      plan):
        args = {k: v if isinstance(v, memory) else mem(v) for k, v in descs.items()}
        p = cls(pd)
        out[step] = ((lambda p=p, args=args: p.execute(s, args)), pd.impl_info_str())
    user = lambda dims, t: memory.desc(dims, dt.f32, t)  # noqa: E731
    for step, (a, b) in user_reorders(user, src, wei, pdst, (conv.src_desc(),
                                      conv.weights_desc()), pool.dst_desc(),
                                      pool_b.diff_dst_desc(), conv_b.diff_weights_desc()).items():
        if a == b:
            out[step] = (None, NO_REORDER)
            continue
        ma, mb_ = mem(a), mem(b)
        pd = dnnl.reorder.primitive_desc(ma, mb_)
        p = dnnl.reorder(pd)
        out[step] = ((lambda p=p, ma=ma, mb_=mb_: p.execute(s, ma, mb_)), pd.impl_info_str())
    return out


def reference(lib, dtype, mb):
    """oneDNN's steps: step -> (runner, implementation name), the runner
    None where no reorder is needed; None where oneDNN answers
    unimplemented (or a step it needs does)."""
    L, P, dims = lib.lib, onednn_ref.P, onednn_ref.dims_t
    zero = ctypes.c_float(0)
    anyd = lambda d, t=int(dtype): lib.md(d, t, int(tag.any))  # noqa: E731
    src, wei, bias, cdst, pdst = shapes(mb)
    pds = {}

    def create(name, needs, fn):
        """pds[name]: the pd fn creates, None if unimplemented or a pd it
        needs is missing."""
        pd = None
        if all(pds.get(n) is not None for n in needs):
            pd = P()
            try:
                lib.check(fn(ctypes.byref(pd)), name)
            except onednn_ref.Unimplemented:
                pd = None
        pds[name] = pd
        return pd
    conv = create("conv fwd", [], lambda r: L.dnnl_convolution_forward_primitive_desc_create(
        r, lib.engine, int(prop_kind.forward), int(algorithm.convolution_direct), anyd(src),
        anyd(wei), anyd(bias), anyd(cdst), dims(4, 4), None, dims(0, 0), dims(0, 0), None))
    if conv is not None:
        cd = lib.query_md(conv, Q_DST)
    else:
        # Without a convolution the chain runs on the blocked layout oneDNN's
        # convolution would have chosen at this level.
        blocked = tag.nChw16c if lib.effective_isa() >= int(dnnl.cpu_isa.avx512_core) \
            else tag.nChw8c
        cd = lib.md(cdst, int(dtype), int(blocked))
    relu = create("relu fwd", [], lambda r: L.dnnl_eltwise_forward_primitive_desc_create(
        r, lib.engine, int(prop_kind.forward), int(algorithm.eltwise_relu), cd, cd, zero, zero,
        None))
    lrn = create("lrn fwd", [], lambda r: L.dnnl_lrn_forward_primitive_desc_create(
        r, lib.engine, int(prop_kind.forward), int(algorithm.lrn_across_channels), cd, cd, *LRN,
        None))
    pool = create("pool fwd", [], lambda r: L.dnnl_pooling_forward_primitive_desc_create(
        r, lib.engine, int(prop_kind.forward), int(algorithm.pooling_max), cd, anyd(pdst),
        dims(2, 2), dims(3, 3), dims(0, 0), dims(0, 0), dims(0, 0), None))
    create("pool bwd", ["pool fwd"], lambda r: L.dnnl_pooling_backward_primitive_desc_create(
        r, lib.engine, int(algorithm.pooling_max), anyd(cdst), anyd(pdst), dims(2, 2),
        dims(3, 3), dims(0, 0), dims(0, 0), dims(0, 0), pool, None))
    create("lrn bwd", ["lrn fwd"], lambda r: L.dnnl_lrn_backward_primitive_desc_create(
        r, lib.engine, int(algorithm.lrn_across_channels), anyd(cdst), anyd(cdst), cd, *LRN,
        lrn, None))
    create("relu bwd", ["relu fwd"], lambda r: L.dnnl_eltwise_backward_primitive_desc_create(
        r, lib.engine, int(algorithm.eltwise_relu), anyd(cdst), anyd(cdst), cd, zero, zero,
        relu, None))
    create("conv bwd weights", ["conv fwd"],
           lambda r: L.dnnl_convolution_backward_weights_primitive_desc_create(
               r, lib.engine, int(algorithm.convolution_direct), anyd(src), anyd(wei),
               anyd(bias, int(dt.f32)), anyd(cdst), dims(4, 4), None, dims(0, 0), dims(0, 0),
               conv, None))
    m = lambda pd, what, i=0: lib.memory(lib.query_md(pd, what, i))  # noqa: E731
    rng = np.random.default_rng(0)
    # inputs hold data, as ours do (outputs and workspaces are written first)
    data = lambda md: lib.filled_memory(md, int(dtype), rng)  # noqa: E731
    x = lambda pd, what, i=0: data(lib.query_md(pd, what, i))  # noqa: E731
    ws = {n: m(pds[n], Q_WS) for n in ("lrn fwd", "pool fwd") if pds[n] is not None}
    S, D, W, B, DS, DD, WS = 1, 17, 33, 41, 129, 145, 64
    args = {
        "conv fwd": lambda pd: {S: x(pd, Q_SRC), W: x(pd, Q_WEI), B: x(pd, Q_WEI, 1),
                                D: m(pd, Q_DST)},
        "relu fwd": lambda pd: {S: x(pd, Q_SRC), D: m(pd, Q_DST)},
        "lrn fwd": lambda pd: {S: x(pd, Q_SRC), D: m(pd, Q_DST), WS: ws["lrn fwd"]},
        "pool fwd": lambda pd: {S: x(pd, Q_SRC), D: m(pd, Q_DST), WS: ws["pool fwd"]},
        "pool bwd": lambda pd: {DD: x(pd, Q_DIFF_DST), DS: m(pd, Q_DIFF_SRC),
                                WS: ws["pool fwd"]},
        "lrn bwd": lambda pd: {S: data(cd), DD: x(pd, Q_DIFF_DST), DS: m(pd, Q_DIFF_SRC),
                               WS: ws["lrn fwd"]},
        "relu bwd": lambda pd: {S: data(cd), DD: x(pd, Q_DIFF_DST), DS: m(pd, Q_DIFF_SRC)},
        "conv bwd weights": lambda pd: {S: x(pd, Q_SRC), DD: x(pd, Q_DIFF_DST),
                                        161: m(pd, Q_DIFF_WEI), 169: m(pd, Q_DIFF_WEI, 1)},
    }
    out = {}
    for step, pd in pds.items():
        out[step] = None if pd is None else (lib.runner(lib.primitive(pd), args[step](pd)),
                                             lib.impl(pd))
    f32 = int(dt.f32)
    user = lambda dims, t: (lib.md(dims, f32, int(t)), f32)  # noqa: E731
    chosen = lambda name, what: (pds[name] and lib.query_md(pds[name], what),  # noqa: E731
                                 int(dtype))
    for step, ((a, a_dt), (b, _)) in user_reorders(
            user, src, wei, pdst, (chosen("conv fwd", Q_SRC), chosen("conv fwd", Q_WEI)),
            chosen("pool fwd", Q_DST), chosen("pool bwd", Q_DIFF_DST),
            chosen("conv bwd weights", Q_DIFF_WEI)).items():
        out[step] = None   # the primitive that chose the layout is unimplemented
        if a and b and lib.md_equal(a, b):
            out[step] = (None, NO_REORDER)
        elif a and b:
            try:
                pd = lib.reorder_pd(a, b)
            except onednn_ref.Unimplemented:
                continue
            out[step] = (lib.runner(lib.primitive(pd), {1: lib.filled_memory(a, a_dt, rng),
                                                        17: lib.memory(b)}), lib.impl(pd))
    return out


def measure(lib, cases, repeat, warmup, min_time):
    """Per case (dtype, mb), one record per step: our and oneDNN's median ms
    (0 where no reorder is needed; None where oneDNN has no implementation
    or is not configured), implementation names and FLOPs (convolutions
    only). Each step of every case is timed in one interleaving."""
    sets = [(dtype, mb, ours(dtype, mb), reference(lib, dtype, mb) if lib is not None else {})
            for dtype, mb in cases]
    out = [[] for _ in cases]
    for step in STEPS:
        sides = [[mine[step], ref.get(step)] for _, _, mine, ref in sets]
        runs = [side[0] for pair in sides for side in pair if side and side[0]]
        times = iter(median_times(runs, repeat, warmup, min_time))
        for records, (dtype, mb, _, _), pair in zip(out, sets, sides):
            ms = [None if not side else next(times) * 1e3 if side[0] else 0.0 for side in pair]
            records.append({"step": step, "dtype": dtype.name,
                            "flops": conv_flops(mb) if step.startswith("conv") else None,
                            "ours_ms": ms[0], "ours_impl": pair[0][1], "onednn_ms": ms[1],
                            "onednn_impl": pair[1] and pair[1][1],
                            "torch_ms": None, "torch_impl": None})
    return out


def fmt(ms, impl):
    """A time as printed: "none" where no reorder ran."""
    return "none" if impl == NO_REORDER else "%.2f" % ms


def print_case(name, mb, records, configured):
    rows = []
    for rec in records:
        ours, ref = rec["ours_ms"], rec["onednn_ms"]
        rows.append([rec["step"], rec["ours_impl"], fmt(ours, rec["ours_impl"]),
                     ("unimpl" if configured else "-") if ref is None else
                     "none" if rec["onednn_impl"] == NO_REORDER else
                     "%.2f (%s)" % (ref, rec["onednn_impl"]),
                     "%.2fx" % (ref / ours) if ref and ours else "-"])
    total = sum(r["ours_ms"] for r in records)
    refs = [r["onednn_ms"] for r in records]
    complete = all(t is not None for t in refs)
    rows.append(["iteration", "", "%.2f" % total, "%.2f" % sum(refs) if complete else "-",
                 "%.2fx" % (sum(refs) / total) if complete else "-"])
    print("%s, batch %d" % (name, mb))
    table(rows, ["step", "impl", "ms", "oneDNN ms (impl)", "vs oneDNN"])
    print()


def main():
    args, lib = common.start(
        __doc__.split("\n\n")[0],
        extra=lambda p: p.add_argument("--json", help="also write the results to this file"))
    results = {"isa_limit": args.isa, "ours_isa": dnnl.get_effective_cpu_isa().name,
               "onednn_version": lib.version() if lib else None,
               "onednn_isa": common.isa_name(lib.effective_isa()) if lib else None,
               "cases": {}}
    for group in CASES:
        measured = measure(lib, [(dtype, mb) for _, mb, dtype in group], args.repeat,
                           args.warmup, args.min_time)
        for (name, mb, _), records in zip(group, measured):
            results["cases"]["%s mb%d" % (name, mb)] = records
            print_case(name, mb, records, lib is not None)
    print("'vs oneDNN': oneDNN's time / ours (>1 = cydnnl faster); medians of %d or more "
          "interleaved repeats (%.2f s of each step at least) after %d warm-up runs or more."
          % (args.repeat, args.min_time, args.warmup))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
