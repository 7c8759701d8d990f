"""The CNN examples' block - conv 11x11/4 -> ReLU -> LRN -> max pool 3x3/2
forward, then pool, LRN, ReLU backward and conv backward weights - timed
primitive by primitive, cydnnl against the real oneDNN (libdnnl via ctypes),
in f32 at batch 8 and bf16 at batch 32. Each library runs in the layouts it
picks for `any`; user-layout reorders are left out on both sides.

    ONEDNN_PREFIX=/tmp/onednn python benchmarks/bench_cnn_block.py
"""

import ctypes

import numpy as np

import onednn_ref
from common import median_time, table
import dnnl
from dnnl import (algorithm, convolution_backward_weights, convolution_forward,
                  eltwise_backward, eltwise_forward, engine, lrn_backward, lrn_forward, memory,
                  pooling_backward, pooling_forward, prop_kind, stream)

tag, dt = memory.format_tag, memory.data_type
A = dnnl
STEPS = ["conv fwd", "relu fwd", "lrn fwd", "pool fwd", "pool bwd", "lrn bwd", "relu bwd",
         "conv bwd weights"]


def ours(dtype, mb):
    eng = engine(engine.kind.cpu, 0)
    s = stream(eng)
    anyd = lambda dims, d=dtype: memory.desc(dims, d, tag.any)  # noqa: E731
    src, wei, bias, cdst = [mb, 3, 227, 227], [96, 3, 11, 11], [96], [mb, 96, 55, 55]
    pdst = [mb, 96, 27, 27]
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
    plan = [(convolution_forward, conv, {S: conv.src_desc(), W: conv.weights_desc(),
                                         B: conv.bias_desc(), D: conv.dst_desc()}),
            (eltwise_forward, relu, {S: relu.src_desc(), D: relu.dst_desc()}),
            (lrn_forward, lrn, {S: lrn.src_desc(), D: lrn.dst_desc(), WS: lrn.workspace_desc()}),
            (pooling_forward, pool, {S: pool.src_desc(), D: pool.dst_desc(),
                                     WS: pool.workspace_desc()}),
            (pooling_backward, pool_b, {DD: pool_b.diff_dst_desc(), DS: pool_b.diff_src_desc(),
                                        WS: pool.workspace_desc()}),
            (lrn_backward, lrn_b, {S: lrn.src_desc(), DD: lrn_b.diff_dst_desc(),
                                   DS: lrn_b.diff_src_desc(), WS: lrn.workspace_desc()}),
            (eltwise_backward, relu_b, {S: conv.dst_desc(), DD: relu_b.diff_dst_desc(),
                                        DS: relu_b.diff_src_desc()}),
            (convolution_backward_weights, conv_b,
             {S: conv_b.src_desc(), DD: conv_b.diff_dst_desc(),
              dnnl.DNNL_ARG_DIFF_WEIGHTS: conv_b.diff_weights_desc(),
              dnnl.DNNL_ARG_DIFF_BIAS: conv_b.diff_bias_desc()})]
    out = []
    for cls, pd, descs in plan:
        args = {k: mem(v) for k, v in descs.items()}
        p = cls(pd)
        out.append((median_time(lambda: p.execute(s, args), repeat=7), pd.impl_info_str()))
    return out


def reference(lib, dtype, mb):
    L, P, dims = lib.lib, onednn_ref.P, onednn_ref.dims_t
    F = ctypes.c_float
    anyd = lambda d, t=int(dtype): lib.md(d, t, 1)  # noqa: E731
    src, wei, bias, cdst = [mb, 3, 227, 227], [96, 3, 11, 11], [96], [mb, 96, 55, 55]
    pdst = [mb, 96, 27, 27]
    pds = [P() for _ in range(8)]
    conv, relu, lrn, pool, pool_b, lrn_b, relu_b, conv_b = pds
    ck = lib.check
    q = lib.query_md
    ck(L.dnnl_convolution_forward_primitive_desc_create(
        ctypes.byref(conv), lib.engine, 64, 1, anyd(src), anyd(wei), anyd(bias), anyd(cdst),
        dims(4, 4), None, dims(0, 0), dims(0, 0), None), "conv")
    cd = q(conv, 133)
    ck(L.dnnl_eltwise_forward_primitive_desc_create(ctypes.byref(relu), lib.engine, 64, 0x20,
                                                    cd, cd, F(0), F(0), None), "relu")
    ck(L.dnnl_lrn_forward_primitive_desc_create(ctypes.byref(lrn), lib.engine, 64, 0xaff, cd, cd,
                                                5, F(1e-4), F(0.75), F(1.0), None), "lrn")
    ck(L.dnnl_pooling_forward_primitive_desc_create(
        ctypes.byref(pool), lib.engine, 64, 0x1ff, cd, anyd(pdst), dims(2, 2), dims(3, 3),
        dims(0, 0), dims(0, 0), dims(0, 0), None), "pool")
    ck(L.dnnl_pooling_backward_primitive_desc_create(
        ctypes.byref(pool_b), lib.engine, 0x1ff, anyd(cdst), anyd(pdst), dims(2, 2), dims(3, 3),
        dims(0, 0), dims(0, 0), dims(0, 0), pool, None), "pool bwd")
    ck(L.dnnl_lrn_backward_primitive_desc_create(
        ctypes.byref(lrn_b), lib.engine, 0xaff, anyd(cdst), anyd(cdst), cd, 5, F(1e-4), F(0.75),
        F(1.0), lrn, None), "lrn bwd")
    ck(L.dnnl_eltwise_backward_primitive_desc_create(
        ctypes.byref(relu_b), lib.engine, 0x20, anyd(cdst), anyd(cdst), cd, F(0), F(0), relu,
        None), "relu bwd")
    ck(L.dnnl_convolution_backward_weights_primitive_desc_create(
        ctypes.byref(conv_b), lib.engine, 1, anyd(src), anyd(wei), anyd(bias, 3), anyd(cdst),
        dims(4, 4), None, dims(0, 0), dims(0, 0), conv, None), "conv bwd")
    lrn_ws, pool_ws = lib.memory(q(lrn, 135)), lib.memory(q(pool, 135))
    m = lambda pd, what, i=0: lib.memory(q(pd, what, i))  # noqa: E731
    plan = [(conv, {1: m(conv, 129), 33: m(conv, 131), 41: m(conv, 131, 1), 17: m(conv, 133)}),
            (relu, {1: m(relu, 129), 17: m(relu, 133)}),
            (lrn, {1: m(lrn, 129), 17: m(lrn, 133), 64: lrn_ws}),
            (pool, {1: m(pool, 129), 17: m(pool, 133), 64: pool_ws}),
            (pool_b, {145: m(pool_b, 134), 129: m(pool_b, 130), 64: pool_ws}),
            (lrn_b, {1: m(lrn, 129), 145: m(lrn_b, 134), 129: m(lrn_b, 130), 64: lrn_ws}),
            (relu_b, {1: m(conv, 133), 145: m(relu_b, 134), 129: m(relu_b, 130)}),
            (conv_b, {1: m(conv_b, 129), 145: m(conv_b, 134), 161: m(conv_b, 132),
                      169: m(conv_b, 132, 1)})]
    out = []
    for pd, args in plan:
        out.append((median_time(lib.runner(lib.primitive(pd), args), repeat=7), lib.impl(pd)))
    return out


def main():
    lib = onednn_ref.open_reference()
    for name, mb, dtype in (("f32", 8, dt.f32), ("bf16", 32, dt.bf16)):
        mine = ours(dtype, mb)
        ref = reference(lib, dtype, mb) if lib is not None else None
        rows = []
        for i, step in enumerate(STEPS):
            t, impl = mine[i]
            r = ref[i] if ref else None
            rows.append([step, impl, "%.2f" % (t * 1e3),
                         "%.2f (%s)" % (r[0] * 1e3, r[1]) if r else "-",
                         "%.2fx" % (r[0] / t) if r else "-"])
        total = sum(t for t, _ in mine)
        rtotal = sum(t for t, _ in ref) if ref else None
        rows.append(["iteration", "", "%.2f" % (total * 1e3),
                     "%.2f" % (rtotal * 1e3) if ref else "-",
                     "%.2fx" % (rtotal / total) if ref else "-"])
        print("%s, batch %d" % (name, mb))
        table(rows, ["step", "impl", "ms", "oneDNN ms (impl)", "vs oneDNN"])
        print()
    print("'vs oneDNN': how many times faster cydnnl is (>1 = faster); medians.")


if __name__ == "__main__":
    main()
