"""LRN throughput on AlexNet norm1 (local size 5, alpha 1e-4, beta 0.75, k 1):
cydnnl against the real oneDNN (libdnnl through ctypes, see onednn_ref.py),
forward_training and backward, on nChw8c and nChw16c, measured in one run.

    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_lrn.py [--isa avx2]
"""

import ctypes

import numpy as np

import onednn_ref
import common
from common import median_time, table
from dnnl import (DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_DST, DNNL_ARG_SRC,
                  DNNL_ARG_WORKSPACE, algorithm, engine, lrn_backward, lrn_forward, memory,
                  prop_kind, stream)

tag, dt = memory.format_tag, memory.data_type
P = ctypes.c_void_p
LS, ALPHA, BETA, K = 5, 1e-4, 0.75, 1.0
CASES = [("alexnet norm1 mb8", [8, 96, 55, 55], dt.f32),
         ("alexnet norm1 mb32", [32, 96, 55, 55], dt.bf16)]
WORKSPACE_MD = 135   # dnnl_query_workspace_md


def onednn_lrn(ref, dims, data_type, layout, src_bytes, dd_bytes):
    """oneDNN's forward_training and backward primitives on copies of our
    inputs; returns (forward runner, backward runner, impl names)."""
    lib = ref.lib
    lib.dnnl_lrn_forward_primitive_desc_create.argtypes = [
        ctypes.POINTER(P), P, ctypes.c_int, ctypes.c_int, P, P, ctypes.c_int64, ctypes.c_float,
        ctypes.c_float, ctypes.c_float, P]
    lib.dnnl_lrn_backward_primitive_desc_create.argtypes = [
        ctypes.POINTER(P), P, ctypes.c_int, P, P, P, ctypes.c_int64, ctypes.c_float,
        ctypes.c_float, ctypes.c_float, P, P]
    md = ref.md(dims, int(data_type), int(layout))
    fwd_pd, bwd_pd = P(), P()
    ref.check(lib.dnnl_lrn_forward_primitive_desc_create(
        ctypes.byref(fwd_pd), ref.engine, int(prop_kind.forward_training),
        int(algorithm.lrn_across_channels), md, md, LS, ALPHA, BETA, K, None), "lrn fwd pd")
    ref.check(lib.dnnl_lrn_backward_primitive_desc_create(
        ctypes.byref(bwd_pd), ref.engine, int(algorithm.lrn_across_channels), md, md, md, LS,
        ALPHA, BETA, K, fwd_pd, None), "lrn bwd pd")
    ws = ref.memory(ref.query_md(fwd_pd, WORKSPACE_MD))
    src, dst = ref.memory(md, src_bytes.copy()), ref.memory(md)
    diff_dst, diff_src = ref.memory(md, dd_bytes.copy()), ref.memory(md)
    fwd = ref.runner(ref.primitive(fwd_pd), {DNNL_ARG_SRC: src, DNNL_ARG_DST: dst,
                                             DNNL_ARG_WORKSPACE: ws})
    bwd = ref.runner(ref.primitive(bwd_pd), {DNNL_ARG_SRC: src, DNNL_ARG_DIFF_DST: diff_dst,
                                             DNNL_ARG_DIFF_SRC: diff_src,
                                             DNNL_ARG_WORKSPACE: ws})
    fwd()   # the backward reads the forward's workspace
    return fwd, bwd, (ref.impl(fwd_pd), ref.impl(bwd_pd))


def main():
    args, ref = common.start(__doc__.split("\n\n")[0])
    times = dict(repeat=args.repeat, warmup=args.warmup, min_time=args.min_time)
    eng = engine(engine.kind.cpu, 0)
    s = stream(eng)
    rows = []
    for name, dims, data_type in CASES:
        rng = np.random.default_rng(0)
        x = rng.standard_normal(dims, dtype=np.float32)
        dd = rng.standard_normal(dims, dtype=np.float32)
        for layout in (tag.nChw8c, tag.nChw16c):
            md = memory.desc(dims, data_type, layout)
            src, dst, diff_dst, diff_src = (memory(md, eng) for _ in range(4))
            src.write(x)
            diff_dst.write(dd)
            fpd = lrn_forward.primitive_desc(eng, prop_kind.forward_training,
                                             algorithm.lrn_across_channels, md, md, LS, ALPHA,
                                             BETA, K)
            bpd = lrn_backward.primitive_desc(eng, algorithm.lrn_across_channels, md, md, md,
                                              LS, ALPHA, BETA, K, fpd)
            fwd, bwd = lrn_forward(fpd), lrn_backward(bpd)
            ours_f = median_time(lambda: fwd.execute(s, {DNNL_ARG_SRC: src, DNNL_ARG_DST: dst}),
                                 **times)
            ours_b = median_time(lambda: bwd.execute(s, {DNNL_ARG_SRC: src,
                                                         DNNL_ARG_DIFF_DST: diff_dst,
                                                         DNNL_ARG_DIFF_SRC: diff_src}),
                                 **times)
            ref_f = ref_b = None
            impls = ("-", "-")
            if ref is not None:
                try:
                    rf, rb, impls = onednn_lrn(
                        ref, dims, data_type, layout,
                        np.frombuffer(src.get_data_handle(), np.uint8),
                        np.frombuffer(diff_dst.get_data_handle(), np.uint8))
                    ref_f, ref_b = median_time(rf, **times), median_time(rb, **times)
                except onednn_ref.Unimplemented:
                    impls = ("unimpl", "unimpl")
            for direction, ours, theirs, impl, their_impl in [
                    ("forward", ours_f, ref_f, fpd.impl_info_str(), impls[0]),
                    ("backward", ours_b, ref_b, bpd.impl_info_str(), impls[1])]:
                gbs = (md.get_size() * (2 if direction == "forward" else 3)) / ours / 1e9
                rows.append([name, "%s %s" % (layout.name, data_type.name), direction, impl,
                             "%.2f" % (ours * 1e3), "%.1f" % gbs,
                             "%.2f (%s)" % (theirs * 1e3, their_impl) if theirs else their_impl,
                             "%.2fx" % (theirs / ours) if theirs else "-"])
    table(rows, ["shape", "layout", "direction", "impl", "ms", "GB/s", "oneDNN ms",
                 "vs oneDNN"])
    print("\n'vs oneDNN': how many times faster cydnnl is (>1 = faster); medians of repeated "
          "runs on warm buffers. oneDNN runs forward_training with its workspace.")


if __name__ == "__main__":
    main()
