"""The RNN training example's LSTM step (rnn_training_f32.cpp): forward_training
and backward of its two primitives, timed for cydnnl, the real oneDNN 3.2
(ctypes, see onednn_ref.py) and PyTorch's nn.LSTM in one run, with GFLOP/s and
the share of the f32 FMA peak this script measures on the machine.

    ONEDNN_PREFIX=/tmp/onednn32 PYTHONPATH=. /tmp/lstmbench-venv/bin/python \\
        benchmarks/bench_lstm.py [--isa avx2] [--repeat 7] [--warmup 2]

OMP_NUM_THREADS sets the thread count of all three (one libgomp serves them).
"""

import json
import os
import re
import statistics
import sys
import time

import numpy as np

import common
import onednn_ref
from common import measure_peak, table

# The example's constants: glibc's unseeded rand() gives N0=11, N1=6, T0=35,
# T1=8. The leftmost primitive runs N0+N1=17 sequences for T1=8 steps and
# passes its states on; the rightmost runs the N0=11 longer ones for the
# remaining T0-T1=27 steps. One layer, left to right, 1024 features, 4 gates.
N0, N1, T0, T1 = 11, 6, 35, 8
C, G = 1024, 4
BATCH = N0 + N1
LEFT, RIGHT = (T1, BATCH), (T0 - T1, N0)          # (steps, batch) of each primitive
ARG = dict(SRC_LAYER=1, SRC_ITER=2, SRC_ITER_C=3, DST_LAYER=17, DST_ITER=18, DST_ITER_C=19,
           WEIGHTS_LAYER=33, WEIGHTS_ITER=34, BIAS=41, WORKSPACE=64, DIFF_SRC_LAYER=129,
           DIFF_SRC_ITER=130, DIFF_SRC_ITER_C=131, DIFF_DST_LAYER=145, DIFF_DST_ITER=146,
           DIFF_DST_ITER_C=147, DIFF_WEIGHTS_LAYER=161, DIFF_WEIGHTS_ITER=162,
           DIFF_BIAS=169)
LEFT2RIGHT, FORWARD_TRAINING = 1, 64


def example_flops():
    """(forward, backward) FLOPs of one step of the example, matrix products
    only (the element-wise cell is O(T*N*C), under 0.1%; no projection):

    each cell (one step t, batch N) has a gate pre-activation of N x 4C:
      forward:  layer GEMM  x_t (N x C) . W_layer (C x 4C)   2*N*C*4C
                iter GEMM   h_t-1 (N x C) . W_iter (C x 4C)  2*N*C*4C
      backward: diff_src_layer = dG . W_layer^T              2*N*4C*C
                diff_h_t-1     = dG . W_iter^T               2*N*4C*C
                diff_W_layer  += x_t^T . dG                  2*C*N*4C
                diff_W_iter   += h_t-1^T . dG                2*C*N*4C
    so forward = 16*C^2 * sum(T*N), backward = 32*C^2 * sum(T*N) with
    sum(T*N) = 8*17 + 27*11 = 433 (the first step's iteration products count
    too, as every library computes them): 7.26 + 14.53 = 21.79 GFLOP."""
    steps_x_batch = LEFT[0] * LEFT[1] + RIGHT[0] * RIGHT[1]
    return 16 * C * C * steps_x_batch, 32 * C * C * steps_x_batch


def make_data():
    """The user's buffers, shared by every library: tnc src and diff_dst of
    the padded batch (T0 x 17 x C), ldigo weights, ldgo bias. Values of the
    usual initialisation scale rather than the example's 1.0 (which saturates
    every gate); the time does not depend on them."""
    rng = np.random.default_rng(0)
    k = 1 / np.sqrt(C)
    u = lambda shape, s: rng.uniform(-s, s, shape).astype(np.float32)
    return dict(src=u((T0, BATCH, C), 1), diff_dst=u((T0, BATCH, C), 1),
                w_layer=u((1, 1, C, G, C), k), w_iter=u((1, 1, C, G, C), k),
                bias=u((1, 1, G, C), k))


# ---------------------------------------------------------------- oneDNN 3.2

class OneDnnLstm:
    """The example through oneDNN's C API: sub-memory views of the padded
    src / diff_src / diff_dst buffers, `any` weights reordered once (not
    timed, as in the example), zeroed outputs."""

    def __init__(self, ref, data):
        self.ref = r = ref
        tnc = lambda a: r.memory(r.plain_md(a.shape), a)
        self.net_src_md = r.plain_md((T0, BATCH, C))
        self.src = r.memory(self.net_src_md, data["src"].copy())
        self.diff_dst = r.memory(self.net_src_md, data["diff_dst"].copy())
        self.diff_src_buf = np.zeros((T0, BATCH, C), np.float32)
        self.diff_src = r.memory(self.net_src_md, self.diff_src_buf)
        sub = lambda steps, batch, t0: r.submemory_md(self.net_src_md, (steps, batch, C),
                                                      (t0, 0, 0))
        l_src, r_src = sub(*LEFT, 0), sub(*RIGHT, T1)
        wdims, bdims = (1, 1, C, G, C), (1, 1, G, C)
        l_iter, r_iter = (1, 1, BATCH, C), (1, 1, N0, C)
        self.dst_bufs = [np.zeros((s, n, C), np.float32) for s, n in (LEFT, RIGHT)]
        l_dst, r_dst = (tnc(b) for b in self.dst_bufs)
        l_dst_md, r_dst_md = (r.plain_md(b.shape) for b in self.dst_bufs)
        a = r.any_md
        lf = r.lstm_forward_pd(FORWARD_TRAINING, LEFT2RIGHT, l_src, None, None, a(wdims),
                               a(wdims), a(bdims), l_dst_md, a(l_iter), a(l_iter))
        l_dst_iter_md, l_dst_iter_c_md = (r.arg_md(lf, ARG[k]) for k in
                                          ("DST_ITER", "DST_ITER_C"))
        l_dst_iter, l_dst_iter_c = r.zeros_memory(l_dst_iter_md), r.zeros_memory(
            l_dst_iter_c_md)
        r_src_iter_md = r.submemory_md(l_dst_iter_md, r_iter, (0, 0, 0, 0))
        r_src_iter_c_md = r.submemory_md(l_dst_iter_c_md, r_iter, (0, 0, 0, 0))
        rf = r.lstm_forward_pd(FORWARD_TRAINING, LEFT2RIGHT, r_src, r_src_iter_md,
                               r_src_iter_c_md, a(wdims), a(wdims), a(bdims), r_dst_md, None,
                               None)
        # weights and bias in what the forward pd chose, once
        w_layer = self._from_user(lf, "WEIGHTS_LAYER", data["w_layer"])
        w_iter = self._from_user(lf, "WEIGHTS_ITER", data["w_iter"])
        bias = self._from_user(lf, "BIAS", data["bias"])
        l_ws, r_ws = (r.zeros_memory(r.query_md(pd, onednn_ref.WORKSPACE_MD)) for pd in (lf, rf))
        self.impls = ["fwd " + r.impl(lf)]

        # backward, as the example builds it
        l_diff_src = r.submemory_md(self.net_src_md, (*LEFT, C), (0, 0, 0))
        r_diff_src = r.submemory_md(self.net_src_md, (*RIGHT, C), (T1, 0, 0))
        l_diff_dst = r.submemory_md(self.net_src_md, (*LEFT, C), (0, 0, 0))
        r_diff_dst = r.submemory_md(self.net_src_md, (*RIGHT, C), (T1, 0, 0))
        lb = r.lstm_backward_pd(LEFT2RIGHT, l_src, None, None, a(wdims), a(wdims), a(bdims),
                                l_dst_md, a(l_iter), a(l_iter), l_diff_src, None, None,
                                a(wdims), a(wdims), a(bdims), l_diff_dst, a(l_iter), a(l_iter),
                                lf)
        l_diff_dst_iter_md, l_diff_dst_iter_c_md = (r.arg_md(lb, ARG[k]) for k in
                                                    ("DIFF_DST_ITER", "DIFF_DST_ITER_C"))
        l_diff_dst_iter = r.zeros_memory(l_diff_dst_iter_md)
        l_diff_dst_iter_c = r.zeros_memory(l_diff_dst_iter_c_md)
        r_diff_src_iter_md = r.submemory_md(l_diff_dst_iter_md, r_iter, (0, 0, 0, 0))
        r_diff_src_iter_c_md = r.submemory_md(l_diff_dst_iter_c_md, r_iter, (0, 0, 0, 0))
        rb = r.lstm_backward_pd(LEFT2RIGHT, r_src, a(r_iter), a(r_iter), a(wdims), a(wdims),
                                a(bdims), r_dst_md, None, None, r_diff_src, r_diff_src_iter_md,
                                r_diff_src_iter_c_md, a(wdims), a(wdims), a(bdims),
                                r_diff_dst, None, None, rf)
        self.impls.append("bwd " + r.impl(lb))
        # backward weights: reordered from the forward's when the layouts differ
        bw_layer = self._from_fwd(lb, "WEIGHTS_LAYER", w_layer, lf)
        bw_iter = self._from_fwd(lb, "WEIGHTS_ITER", w_iter, lf)
        bbias = self._from_fwd(lb, "BIAS", bias, lf)
        dw_layer, dw_iter, dbias = (r.zeros_memory(r.arg_md(lb, ARG[k])) for k in
                                    ("DIFF_WEIGHTS_LAYER", "DIFF_WEIGHTS_ITER", "DIFF_BIAS"))
        # the example passes the parent memories of the sub-memory views
        self.fwd_runs = [
            r.runner(r.primitive(lf), {ARG["SRC_LAYER"]: self.src, ARG["WEIGHTS_LAYER"]: w_layer,
                                       ARG["WEIGHTS_ITER"]: w_iter, ARG["BIAS"]: bias,
                                       ARG["DST_LAYER"]: l_dst, ARG["DST_ITER"]: l_dst_iter,
                                       ARG["DST_ITER_C"]: l_dst_iter_c,
                                       ARG["WORKSPACE"]: l_ws}),
            r.runner(r.primitive(rf), {ARG["SRC_LAYER"]: self.src, ARG["SRC_ITER"]: l_dst_iter,
                                       ARG["SRC_ITER_C"]: l_dst_iter_c,
                                       ARG["WEIGHTS_LAYER"]: w_layer,
                                       ARG["WEIGHTS_ITER"]: w_iter, ARG["BIAS"]: bias,
                                       ARG["DST_LAYER"]: r_dst, ARG["WORKSPACE"]: r_ws})]
        common_bwd = {ARG["SRC_LAYER"]: self.src, ARG["WEIGHTS_LAYER"]: bw_layer,
                      ARG["WEIGHTS_ITER"]: bw_iter, ARG["BIAS"]: bbias,
                      ARG["DIFF_SRC_LAYER"]: self.diff_src,
                      ARG["DIFF_WEIGHTS_LAYER"]: dw_layer, ARG["DIFF_WEIGHTS_ITER"]: dw_iter,
                      ARG["DIFF_BIAS"]: dbias, ARG["DIFF_DST_LAYER"]: self.diff_dst}
        self.bwd_runs = [  # rightmost first, as in the example
            r.runner(r.primitive(rb), {**common_bwd, **{
                ARG["SRC_ITER"]: l_dst_iter, ARG["SRC_ITER_C"]: l_dst_iter_c,
                ARG["DST_LAYER"]: r_dst, ARG["DIFF_SRC_ITER"]: l_diff_dst_iter,
                ARG["DIFF_SRC_ITER_C"]: l_diff_dst_iter_c, ARG["WORKSPACE"]: r_ws}}),
            r.runner(r.primitive(lb), {**common_bwd, **{
                ARG["DST_LAYER"]: l_dst, ARG["DST_ITER"]: l_dst_iter,
                ARG["DST_ITER_C"]: l_dst_iter_c, ARG["DIFF_DST_ITER"]: l_diff_dst_iter,
                ARG["DIFF_DST_ITER_C"]: l_diff_dst_iter_c, ARG["WORKSPACE"]: l_ws}})]

    def _from_user(self, pd, name, array):
        r = self.ref
        user_md = r.plain_md(array.shape)
        user = r.memory(user_md, array.copy())
        md = r.arg_md(pd, ARG[name])
        if r.md_equal(md, user_md):
            return user
        mem = r.zeros_memory(md)
        r.reorder(user, user_md, mem, md)
        return mem

    def _from_fwd(self, bwd_pd, name, fwd_mem, fwd_pd):
        r = self.ref
        md, fwd_md = r.arg_md(bwd_pd, ARG[name]), r.arg_md(fwd_pd, ARG[name])
        if r.md_equal(md, fwd_md):
            return fwd_mem
        mem = r.zeros_memory(md)
        r.reorder(fwd_mem, fwd_md, mem, md)
        return mem

    def fwd(self):
        for run in self.fwd_runs:
            run()

    def bwd(self):
        for run in self.bwd_runs:
            run()

    def results(self):
        """(leftmost dst_layer, rightmost dst_layer, diff_src of the padded batch)."""
        return self.dst_bufs[0], self.dst_bufs[1], self.diff_src_buf


# ------------------------------------------------------------------- cydnnl

class CydnnlLstm:
    """The same example through cydnnl's object layer (dnnl.lstm_forward /
    dnnl.lstm_backward, the C++ API's 9-descriptor overloads)."""

    def __init__(self, dnnl, data):
        m = dnnl.memory
        tag, dt = m.format_tag, m.data_type
        eng = self.eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        s = self.s = dnnl.stream(eng)
        fmd = lambda dims, t: m.desc(list(dims), dt.f32, t)
        amd = lambda dims: fmd(dims, tag.any)
        net_md = fmd((T0, BATCH, C), tag.tnc)
        src = m(net_md, eng, data["src"].copy())
        diff_dst = m(net_md, eng, data["diff_dst"].copy())
        self.diff_src_buf = np.zeros((T0, BATCH, C), np.float32)
        diff_src = m(net_md, eng, self.diff_src_buf)
        l_src = net_md.submemory_desc([*LEFT, C], [0, 0, 0])
        r_src = net_md.submemory_desc([*RIGHT, C], [T1, 0, 0])
        wdims, bdims = (1, 1, C, G, C), (1, 1, G, C)
        l_iter, r_iter = (1, 1, BATCH, C), (1, 1, N0, C)
        self.dst_bufs = [np.zeros((st, n, C), np.float32) for st, n in (LEFT, RIGHT)]
        l_dst_md, r_dst_md = (fmd(b.shape, tag.tnc) for b in self.dst_bufs)
        l_dst, r_dst = (m(md, eng, b) for md, b in zip((l_dst_md, r_dst_md), self.dst_bufs))
        fwd_prop = dnnl.prop_kind.forward_training
        l2r = dnnl.rnn_direction.unidirectional_left2right
        lf = dnnl.lstm_forward.primitive_desc(eng, fwd_prop, l2r, l_src, m.desc(), m.desc(),
                                              amd(wdims), amd(wdims), amd(bdims), l_dst_md,
                                              amd(l_iter), amd(l_iter))
        l_dst_iter, l_dst_iter_c = m(lf.dst_iter_desc(), eng), m(lf.dst_iter_c_desc(), eng)
        r_src_iter_md = l_dst_iter.get_desc().submemory_desc(list(r_iter), [0, 0, 0, 0])
        r_src_iter_c_md = l_dst_iter_c.get_desc().submemory_desc(list(r_iter), [0, 0, 0, 0])
        rf = dnnl.lstm_forward.primitive_desc(eng, fwd_prop, l2r, r_src, r_src_iter_md,
                                              r_src_iter_c_md, amd(wdims), amd(wdims),
                                              amd(bdims), r_dst_md, m.desc(), m.desc())

        def prepared(md, user):   # reorder to what the pd chose, once
            if md == user.get_desc():
                return user
            mem = m(md, eng)
            dnnl.reorder(user, mem).execute(s, user, mem)
            return mem
        user = lambda a, t: m(fmd(a.shape, t), eng, a.copy())
        w_layer = prepared(lf.weights_layer_desc(), user(data["w_layer"], tag.ldigo))
        w_iter = prepared(lf.weights_iter_desc(), user(data["w_iter"], tag.ldigo))
        bias = prepared(lf.bias_desc(), user(data["bias"], tag.ldgo))
        l_ws, r_ws = m(lf.workspace_desc(), eng), m(rf.workspace_desc(), eng)

        bwd = dnnl.prop_kind.backward
        # diff_src and diff_dst share net_md's shape: views at the same offsets
        l_diff, r_diff = l_src, r_src
        lb = dnnl.lstm_backward.primitive_desc(
            eng, bwd, l2r, l_src, m.desc(), m.desc(), amd(wdims), amd(wdims), amd(bdims),
            l_dst_md, amd(l_iter), amd(l_iter), l_diff, m.desc(), m.desc(), amd(wdims),
            amd(wdims), amd(bdims), l_diff, amd(l_iter), amd(l_iter), lf)
        l_diff_dst_iter = m(lb.diff_dst_iter_desc(), eng)
        l_diff_dst_iter_c = m(lb.diff_dst_iter_c_desc(), eng)
        r_dsi = l_diff_dst_iter.get_desc().submemory_desc(list(r_iter), [0, 0, 0, 0])
        r_dsic = l_diff_dst_iter_c.get_desc().submemory_desc(list(r_iter), [0, 0, 0, 0])
        rb = dnnl.lstm_backward.primitive_desc(
            eng, bwd, l2r, r_src, amd(r_iter), amd(r_iter), amd(wdims), amd(wdims), amd(bdims),
            r_dst_md, m.desc(), m.desc(), r_diff, r_dsi, r_dsic, amd(wdims), amd(wdims),
            amd(bdims), r_diff, m.desc(), m.desc(), rf)
        bw_layer = prepared(lb.weights_layer_desc(), w_layer)
        bw_iter = prepared(lb.weights_iter_desc(), w_iter)
        bbias = prepared(lb.bias_desc(), bias)
        dw_layer, dw_iter = m(lb.diff_weights_layer_desc(), eng), m(lb.diff_weights_iter_desc(),
                                                                    eng)
        dbias = m(lb.diff_bias_desc(), eng)
        self.impls = ["fwd " + lf.impl_info_str(), "bwd " + lb.impl_info_str()]
        A = {k: getattr(dnnl, "DNNL_ARG_" + k) for k in ARG}
        self.fwd_runs = [
            (dnnl.lstm_forward(lf), {A["SRC_LAYER"]: src, A["WEIGHTS_LAYER"]: w_layer,
                                     A["WEIGHTS_ITER"]: w_iter, A["BIAS"]: bias,
                                     A["DST_LAYER"]: l_dst, A["DST_ITER"]: l_dst_iter,
                                     A["DST_ITER_C"]: l_dst_iter_c, A["WORKSPACE"]: l_ws}),
            (dnnl.lstm_forward(rf), {A["SRC_LAYER"]: src, A["SRC_ITER"]: l_dst_iter,
                                     A["SRC_ITER_C"]: l_dst_iter_c, A["WEIGHTS_LAYER"]: w_layer,
                                     A["WEIGHTS_ITER"]: w_iter, A["BIAS"]: bias,
                                     A["DST_LAYER"]: r_dst, A["WORKSPACE"]: r_ws})]
        common_bwd = {A["SRC_LAYER"]: src, A["WEIGHTS_LAYER"]: bw_layer,
                      A["WEIGHTS_ITER"]: bw_iter, A["BIAS"]: bbias,
                      A["DIFF_SRC_LAYER"]: diff_src, A["DIFF_WEIGHTS_LAYER"]: dw_layer,
                      A["DIFF_WEIGHTS_ITER"]: dw_iter, A["DIFF_BIAS"]: dbias,
                      A["DIFF_DST_LAYER"]: diff_dst}
        self.bwd_runs = [
            (dnnl.lstm_backward(rb), {**common_bwd, **{
                A["SRC_ITER"]: l_dst_iter, A["SRC_ITER_C"]: l_dst_iter_c,
                A["DST_LAYER"]: r_dst, A["DIFF_SRC_ITER"]: l_diff_dst_iter,
                A["DIFF_SRC_ITER_C"]: l_diff_dst_iter_c, A["WORKSPACE"]: r_ws}}),
            (dnnl.lstm_backward(lb), {**common_bwd, **{
                A["DST_LAYER"]: l_dst, A["DST_ITER"]: l_dst_iter,
                A["DST_ITER_C"]: l_dst_iter_c, A["DIFF_DST_ITER"]: l_diff_dst_iter,
                A["DIFF_DST_ITER_C"]: l_diff_dst_iter_c, A["WORKSPACE"]: l_ws}})]

    def fwd(self):
        for prim, args in self.fwd_runs:
            prim.execute(self.s, args)
        self.s.wait()

    def bwd(self):
        for prim, args in self.bwd_runs:
            prim.execute(self.s, args)
        self.s.wait()

    def results(self):
        return self.dst_bufs[0], self.dst_bufs[1], self.diff_src_buf


# ------------------------------------------------------------------ PyTorch

class TorchLstm:
    """nn.LSTM on the same shapes and values: the leftmost call on the padded
    batch's first T1 steps, the rightmost on the N0 longer sequences from
    the leftmost's final states; backward through both by autograd, into
    the weights, the bias and the input (as the example's diff_src)."""

    def __init__(self, torch, data):
        self.torch = torch
        lstm = self.lstm = torch.nn.LSTM(C, C, 1)
        with torch.no_grad():
            # oneDNN ldigo W[i, g, o] -> PyTorch weight[g*C + o, i]; the gate
            # order (i, f, g, o) is the same. PyTorch has two biases: the
            # second is zero.
            lstm.weight_ih_l0.copy_(torch.from_numpy(data["w_layer"].reshape(C, G * C).T))
            lstm.weight_hh_l0.copy_(torch.from_numpy(data["w_iter"].reshape(C, G * C).T))
            lstm.bias_ih_l0.copy_(torch.from_numpy(data["bias"].reshape(G * C)))
            lstm.bias_hh_l0.zero_()
        self.x = torch.from_numpy(data["src"].copy()).requires_grad_()
        dd = data["diff_dst"]
        self.dyl = torch.from_numpy(dd[:T1].copy())
        self.dyr = torch.from_numpy(dd[T1:, :N0].copy())
        self.out = None

    def fwd(self):
        x = self.x
        yl, (h, c) = self.lstm(x[:T1])
        yr, _ = self.lstm(x[T1:, :N0], (h[:, :N0], c[:, :N0]))
        self.out = (yl, yr)

    def bwd(self):
        self.torch.autograd.backward(self.out, (self.dyl, self.dyr))

    def results(self):
        yl, yr = (y.detach().numpy() for y in self.out)
        return yl, yr, None if self.x.grad is None else self.x.grad.numpy()


# --------------------------------------------------------------------- main

def aten_capability(isa):
    """ATEN_CPU_CAPABILITY for an ISA limit (ATen knows default, avx2, avx512)."""
    isa = isa.lower()
    return "avx512" if isa.startswith("avx512") else "avx2" if isa.startswith("avx2") \
        else "default"


def time_steps(libs, repeat, warmup):
    """Median (fwd, bwd, total) seconds of each library: every repeat runs
    one full step (fwd then bwd) of each library in turn, so load from
    other processes falls on all alike."""
    samples = {name: [] for name in libs}
    for i in range(warmup + repeat):
        for name, lib in libs.items():
            t0 = time.perf_counter()
            lib.fwd()
            t1 = time.perf_counter()
            lib.bwd()
            t2 = time.perf_counter()
            if i >= warmup:
                samples[name].append((t1 - t0, t2 - t1, t2 - t0))
    return {name: [statistics.median(col) for col in zip(*s)] for name, s in samples.items()}


def check_same_work(libs, reference):
    """Runs one step of each library and compares its dst layers and the
    written parts of diff_src with `reference`'s: proof that the libraries
    do the same work. Returns lines to print."""
    got = {}
    for name, lib in libs.items():
        lib.fwd()
        dst_l, dst_r = (a.copy() for a in lib.results()[:2])
        lib.bwd()
        diff_src = lib.results()[2].copy()
        got[name] = (dst_l, dst_r, diff_src[:T1], diff_src[T1:, :N0])
    out = []
    for name in libs:
        if name == reference:
            continue
        err = max(float(np.max(np.abs(g - w)) / (np.max(np.abs(w)) or 1))
                  for g, w in zip(got[name], got[reference]))
        out.append("  %s against %s: max difference %.1e of the largest value "
                   "(dst_layer, diff_src_layer)%s"
                   % (name, reference, err, "" if err < 1e-3 else "  <-- DIFFERENT WORK"))
    return out


def extra_args(parser):
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--peak", type=float,
                        help="the f32 peak in GFLOP/s, measured by the caller (default: "
                             "measured here before and after the timing)")


def write_json(path, args, ref, isa, threads, names, times, impls, peak):
    """The results as one case of fwd and bwd records, in the form
    bench_cnn_block.py writes (ms None where a library is missing)."""
    fwd_flops, bwd_flops = example_flops()
    records = []
    for i, (step, flops) in enumerate((("fwd", fwd_flops), ("bwd", bwd_flops))):
        rec = {"step": step, "dtype": "f32", "flops": flops}
        for role in ("ours", "onednn", "torch"):
            t = times.get(names.get(role))
            rec[role + "_ms"] = t[i] * 1e3 if t else None
            rec[role + "_impl"] = impls.get(role, [None, None])[i]
        records.append(rec)
    with open(path, "w") as f:
        json.dump({"isa_limit": args.isa, "ours_isa": isa, "threads": threads,
                   "onednn_version": ref.version() if ref else None,
                   "onednn_isa": common.isa_name(ref.effective_isa()) if ref else None,
                   "torch_version": names.get("torch"), "peak_gflops": peak,
                   "cases": {"lstm f32": records}}, f, indent=1)


def main():
    args, ref = common.start(__doc__.split("\n\n")[0], extra=extra_args)
    import dnnl
    threads = int(os.environ.get("OMP_NUM_THREADS") or os.cpu_count())
    isa = dnnl.get_effective_cpu_isa().name
    fwd_flops, bwd_flops = example_flops()
    print("workload: LSTM 1 layer l2r, C=%d; leftmost batch %d x %d steps, rightmost batch %d "
          "x %d steps; %.2f GFLOP fwd + %.2f bwd = %.2f per step; %d thread(s)"
          % (C, LEFT[1], LEFT[0], RIGHT[1], RIGHT[0], fwd_flops / 1e9, bwd_flops / 1e9,
             (fwd_flops + bwd_flops) / 1e9, threads))
    data = make_data()
    # names: role (ours, onednn, torch) -> the library's row name;
    # impls: role -> (fwd, bwd) implementation names
    libs, missing, names, impls = {}, {}, {}, {}
    if hasattr(dnnl, "lstm_forward"):
        names["ours"] = "cydnnl"
        libs["cydnnl"] = CydnnlLstm(dnnl, data)
        impls["ours"] = libs["cydnnl"].impls
    else:
        missing["cydnnl"] = "not yet"
    if ref is not None:
        try:
            names["onednn"] = "oneDNN " + ref.version()
            libs[names["onednn"]] = lib = OneDnnLstm(ref, data)
            impls["onednn"] = lib.impls
        except onednn_ref.Unimplemented as e:
            missing[names.pop("onednn")] = "unimpl (%s)" % e
    else:
        missing["oneDNN"] = "no ONEDNN_PREFIX"
    if args.isa:
        # PyTorch's bundled oneDNN (which runs nn.LSTM) reads ONEDNN_MAX_CPU_ISA
        # as set by start(); ATen's own kernels (autograd's element-wise
        # work) read this one. MKL ignores both.
        os.environ.setdefault("ATEN_CPU_CAPABILITY", aten_capability(args.isa))
    try:
        import torch   # after start(): its libgomp.so.1 resolves to the one loaded
    except ImportError:
        missing["PyTorch"] = "not installed (see README)"
    else:
        torch.set_num_threads(threads)
        name = names["torch"] = "PyTorch %s" % torch.__version__
        libs[name] = TorchLstm(torch, data)
        inside = re.search(r"MKL-DNN (v[\d.]+)|oneDNN (v[\d.]+)", torch.__config__.show())
        what = "nn.LSTM: mkldnn.enabled=%s (oneDNN %s inside), ATen %s" % (
            torch.backends.mkldnn.enabled, inside and (inside.group(1) or inside.group(2)),
            torch.backends.cpu.get_cpu_capability())
        impls["torch"] = (what, what)
    for role, pair in impls.items():
        for what in dict.fromkeys(pair):   # PyTorch's is one line for both
            print("  %s %s" % (names[role], what))
    if len(libs) > 1:
        reference = names.get("onednn", next(iter(libs)))
        for line in check_same_work(libs, reference):
            print(line)
    peak_isa = args.isa and isa.lower()
    peak, peak_what = (args.peak, "given by the caller") if args.peak else \
        measure_peak(threads, peak_isa)
    print("load average before: %.2f" % os.getloadavg()[0])
    sys.stdout.flush()

    times = time_steps(libs, args.repeat, args.warmup)
    # the peak again after the timing: the better of the two, so that load
    # while one was measured does not flatter the percentages
    if peak and not args.peak:
        peak = max(peak, measure_peak(threads, peak_isa)[0])
    print("load average after: %.2f" % os.getloadavg()[0])
    print("peak: %s\n" % ("%.1f GFLOP/s (%s; best run before or after the timing)"
                          % (peak, peak_what) if peak else peak_what))
    base = {k: times[k][2] for k in times if k != "cydnnl"}
    rows = []
    for name in list(libs) + list(missing):
        if name in missing:
            rows.append([name, missing[name]] + [""] * (6 + len(base)))
            continue
        f, b, t = times[name]
        rows.append([name, "%.1f" % (f * 1e3), "%.1f" % (b * 1e3), "%.1f" % (t * 1e3),
                     "%.0f" % (fwd_flops / f / 1e9), "%.0f" % (bwd_flops / b / 1e9),
                     "%.0f" % ((fwd_flops + bwd_flops) / t / 1e9),
                     "%.0f%%" % (100 * (fwd_flops + bwd_flops) / t / 1e9 / peak) if peak
                     else "-"] + ["%.2fx" % (base[k] / t) for k in base])
    table(rows, ["library", "fwd ms", "bwd ms", "total ms", "fwd GF/s", "bwd GF/s",
                 "total GF/s", "% peak"] + ["%s/this" % k.split(" (")[0] for k in base])
    print("\nmedians of %d interleaved steps (after %d warm-up); x/this above 1 = this row "
          "faster than x" % (args.repeat, args.warmup))
    if args.json:
        write_json(args.json, args, ref, isa, threads, names, times, impls, peak)


if __name__ == "__main__":
    main()
