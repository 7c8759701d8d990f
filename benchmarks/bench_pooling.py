"""Max pooling (AlexNet pool1: 96 x 55 x 55 -> 27 x 27, kernel 3, stride 2)
forward_training and backward on channel-blocked layouts: cydnnl against the
real oneDNN (libdnnl through ctypes, see onednn_ref.py), measured in one run.

    ONEDNN_PREFIX=/tmp/onednn32 python benchmarks/bench_pooling.py [--isa avx2]
"""

import ctypes

import numpy as np

import onednn_ref
import common
from common import median_time, table
from dnnl import (DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_DST, DNNL_ARG_SRC,
                  DNNL_ARG_WORKSPACE, algorithm, engine, memory, pooling_backward,
                  pooling_forward, prop_kind, stream)

tag, dt = memory.format_tag, memory.data_type
CASES = [("alexnet pool1 mb8", 8, dt.f32), ("alexnet pool1 mb32", 32, dt.bf16)]
LAYOUTS = [tag.nChw8c, tag.nChw16c]
KERNEL, STRIDES, ZERO = [3, 3], [2, 2], [0, 0]
Q_SRC, Q_DST, Q_DIFF_SRC, Q_DIFF_DST, Q_WS = 129, 133, 130, 134, 135


def raw(mem):
    return np.frombuffer(mem.get_data_handle(), np.uint8).copy()


def ref_pds(lib, src_dims, dst_dims, data_type, layout):
    """oneDNN's forward_training and backward max pooling pds for the problem."""
    dims = onednn_ref.dims_t
    fwd, bwd = onednn_ref.P(), onednn_ref.P()
    any_tag = int(tag.any)
    lib.check(lib.lib.dnnl_pooling_forward_primitive_desc_create(
        ctypes.byref(fwd), lib.engine, int(prop_kind.forward_training),
        int(algorithm.pooling_max), lib.md(src_dims, int(data_type), int(layout)),
        lib.md(dst_dims, int(data_type), any_tag), dims(*STRIDES), dims(*KERNEL), dims(*ZERO),
        dims(*ZERO), dims(*ZERO), None), "pooling forward pd")
    lib.check(lib.lib.dnnl_pooling_backward_primitive_desc_create(
        ctypes.byref(bwd), lib.engine, int(algorithm.pooling_max),
        lib.md(src_dims, int(data_type), any_tag), lib.md(dst_dims, int(data_type), any_tag),
        dims(*STRIDES), dims(*KERNEL), dims(*ZERO), dims(*ZERO), dims(*ZERO), fwd, None),
        "pooling backward pd")
    return fwd, bwd


def main():
    args, ref_lib = common.start(__doc__.split("\n\n")[0])
    times = dict(repeat=args.repeat, warmup=args.warmup, min_time=args.min_time)
    eng = engine(engine.kind.cpu, 0)
    s = stream(eng)
    rng = np.random.default_rng(0)
    rows = []
    for name, mb, data_type in CASES:
        src_dims, dst_dims = [mb, 96, 55, 55], [mb, 96, 27, 27]
        x = rng.standard_normal(src_dims).astype(np.float32)
        g = rng.standard_normal(dst_dims).astype(np.float32)
        for layout in LAYOUTS:
            fpd = pooling_forward.primitive_desc(
                eng, prop_kind.forward_training, algorithm.pooling_max,
                memory.desc(src_dims, data_type, layout),
                memory.desc(dst_dims, data_type, tag.any), STRIDES, KERNEL, ZERO, ZERO, ZERO)
            bpd = pooling_backward.primitive_desc(
                eng, algorithm.pooling_max, memory.desc(src_dims, data_type, tag.any),
                memory.desc(dst_dims, data_type, tag.any), STRIDES, KERNEL, ZERO, ZERO, ZERO,
                fpd)
            src, dst = memory(fpd.src_desc(), eng), memory(fpd.dst_desc(), eng)
            ws = memory(fpd.workspace_desc(), eng)
            diff_dst, diff_src = memory(bpd.diff_dst_desc(), eng), memory(bpd.diff_src_desc(), eng)
            src.write(x)
            diff_dst.write(g)
            fwd, bwd = pooling_forward(fpd), pooling_backward(bpd)
            fargs = {DNNL_ARG_SRC: src, DNNL_ARG_DST: dst, DNNL_ARG_WORKSPACE: ws}
            bargs = {DNNL_ARG_DIFF_DST: diff_dst, DNNL_ARG_DIFF_SRC: diff_src,
                     DNNL_ARG_WORKSPACE: ws}
            ours = [median_time(lambda: fwd.execute(s, fargs), **times),
                    median_time(lambda: bwd.execute(s, bargs), **times)]
            refs, impls = [None, None], ["-", "-"]
            try:
                r_fwd, r_bwd = ref_pds(ref_lib, src_dims, dst_dims, data_type, layout) \
                    if ref_lib is not None else (None, None)
            except onednn_ref.Unimplemented:
                r_fwd, impls = None, ["unimpl", "unimpl"]
            if r_fwd is not None:
                impls = [ref_lib.impl(r_fwd), ref_lib.impl(r_bwd)]
                r_ws = ref_lib.memory(ref_lib.query_md(r_fwd, Q_WS))
                run_f = ref_lib.runner(ref_lib.primitive(r_fwd), {
                    1: ref_lib.memory(ref_lib.query_md(r_fwd, Q_SRC), raw(src)),
                    17: ref_lib.memory(ref_lib.query_md(r_fwd, Q_DST)), 64: r_ws})
                run_b = ref_lib.runner(ref_lib.primitive(r_bwd), {
                    145: ref_lib.memory(ref_lib.query_md(r_bwd, Q_DIFF_DST), raw(diff_dst)),
                    129: ref_lib.memory(ref_lib.query_md(r_bwd, Q_DIFF_SRC)), 64: r_ws})
                run_f()
                refs = [median_time(run_f, **times), median_time(run_b, **times)]
            for i, direction in enumerate(("forward_training", "backward")):
                pd = fpd if i == 0 else bpd
                rows.append([name, data_type.name, layout.name, direction, pd.impl_info_str(),
                             "%.3f" % (ours[i] * 1e3),
                             "%.3f (%s)" % (refs[i] * 1e3, impls[i]) if refs[i] else impls[i],
                             "%.2fx" % (refs[i] / ours[i]) if refs[i] else "-"])
    table(rows, ["shape", "dt", "layout", "direction", "impl", "ms", "oneDNN ms", "vs oneDNN"])
    print("\n'vs oneDNN': how many times faster cydnnl is (>1 = faster); medians of repeated "
          "runs on warm buffers.")


if __name__ == "__main__":
    main()
