"""examples/cpp_style/rnn_training_f32.py: runs, its forward matches a NumPy
LSTM of the same network, and its backward (two primitives over one padded
buffer through sub-memories, diff weights accumulated by both) matches
unsplit runs of the same sequences."""

import numpy as np
import pytest

import dnnl
from dnnl.benchdnn import ref_rnn as rnn_ref
from helpers import level_impls
from test_examples import load
from test_lstm import np_lstm, run_training, shapes, L2R

C = 1024


def ones(*dims):
    return np.ones(dims)


def test_rnn_training_f32_against_numpy_and_unsplit_runs(eng, strm, capsys):
    ex = load("cpp_style", "rnn_training_f32")
    res: dict = {}
    ex.simple_net(dnnl.engine.kind.cpu, 1, res)
    assert "per iteration" in capsys.readouterr().out
    assert all(i.startswith("gemm:") for i in res["impls"]), res["impls"]
    T0, T1, N0, N1 = ex.T0, ex.T1, ex.N0, ex.N1
    assert (T0, T1, N0, N1) == (35, 8, 11, 6)     # glibc's unseeded rand()
    w = {"weights_layer": ones(1, 1, C, 4, C), "weights_iter": ones(1, 1, C, 4, C),
         "bias": ones(1, 1, 4, C)}
    # forward: the leftmost over T1 steps of all N0 + N1 sequences, the
    # rightmost over the rest of the first N0 from the leftmost's states
    left = np_lstm({**w, "src_layer": ones(T1, N0 + N1, C)}, L2R)
    right = np_lstm({**w, "src_layer": ones(T0 - T1, N0, C),
                     "src_iter": left[1][:, :, :N0], "src_iter_c": left[2][:, :, :N0]}, L2R)
    np.testing.assert_allclose(res["leftmost_dst_layer"], left[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(res["rightmost_dst_layer"], right[0], rtol=1e-4, atol=1e-5)
    # backward: the N0 long sequences and the N1 short ones as two unsplit runs
    runs = []
    for T, N in ((T0, N0), (T1, N1)):
        s = shapes(1, 1, T, N, C, C, iters=False)
        a = {**{k: v.astype(np.float32) for k, v in w.items()},
             "src_layer": np.ones((T, N, C), np.float32)}
        runs.append(run_training(eng, strm, s, L2R, a, {"dst_layer": ones(T, N, C)},
                                 _best()))
    long_run, short_run = runs
    for name, start in (("weights_layer", 1.0), ("weights_iter", 0.0), ("bias", 1.0)):
        want = start + long_run["diff_" + name] + short_run["diff_" + name]
        np.testing.assert_allclose(res["diff_" + name], want, rtol=1e-3, atol=1e-3,
                                   err_msg=name)
    want_src = np.ones((T0, N0 + N1, C))        # rows no primitive writes keep their 1.0
    want_src[:, :N0] = long_run["diff_src_layer"]
    want_src[:T1, N0:] = short_run["diff_src_layer"]
    np.testing.assert_allclose(res["diff_src_layer"], want_src, rtol=1e-3, atol=1e-4)


def _best():
    return (level_impls("gemm") + ["ref:any"])[0]


class _RandomFull:
    """numpy for the example module, with np.full giving random values (the
    C++ program fills everything with 1.0, which saturates every gate and
    makes every gradient 0): the arrays it made, in order, are kept."""

    def __init__(self, seed, scale=0.5):
        self.rng = np.random.default_rng(seed)
        self.scale = scale
        self.made = []

    def __getattr__(self, name):
        return getattr(np, name)

    def full(self, n, value, dtype):
        a = self.rng.uniform(-self.scale, self.scale, n).astype(dtype)
        self.made.append(a.copy())
        return a


def _run_on_random_data(monkeypatch, Cs, seed=4, scale=0.5):
    """The example with random data in [-scale, scale] and feature size Cs:
    its results, the sizes, the inputs and the initial diff buffers."""
    ex = load("cpp_style", "rnn_training_f32")
    fake = _RandomFull(seed, scale)
    monkeypatch.setattr(ex, "np", fake)
    monkeypatch.setattr(ex, "common_feature_size", Cs)
    res: dict = {}
    ex.simple_net(dnnl.engine.kind.cpu, 1, res)
    T0, T1, N0, N1 = ex.T0, ex.T1, ex.N0, ex.N1
    (src, wl, _wi, bias, _ldst, _rdst, diff_src0, dwl0, db0, diff_dst) = fake.made
    w = {"weights_layer": wl.reshape(1, 1, Cs, 4, Cs),
         "weights_iter": wl.reshape(1, 1, Cs, 4, Cs),     # the C++ program writes the layer's
         "bias": bias.reshape(1, 1, 4, Cs)}
    return (res, (T0, T1, N0, N1), src.reshape(T0, N0 + N1, Cs), w,
            diff_dst.reshape(T0, N0 + N1, Cs), diff_src0, dwl0, db0)


def test_rnn_example_split_matches_unsplit_runs_on_random_data(eng, strm, monkeypatch):
    Cs = 16
    res, (T0, T1, N0, N1), src, w, diff_dst, diff_src0, dwl0, db0 = \
        _run_on_random_data(monkeypatch, Cs)
    long_run = run_training(eng, strm, shapes(1, 1, T0, N0, Cs, Cs, iters=False), L2R,
                            {**w, "src_layer": np.ascontiguousarray(src[:, :N0])},
                            {"dst_layer": diff_dst[:, :N0]}, _best())
    short_run = run_training(eng, strm, shapes(1, 1, T1, N1, Cs, Cs, iters=False), L2R,
                             {**w, "src_layer": np.ascontiguousarray(src[:T1, N0:])},
                             {"dst_layer": diff_dst[:T1, N0:]}, _best())
    ref = np_lstm({**w, "src_layer": src[:, :N0]}, L2R)[0]
    np.testing.assert_allclose(res["rightmost_dst_layer"], ref[T1:], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(res["leftmost_dst_layer"][:, :N0], ref[:T1], rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(res["leftmost_dst_layer"][:, N0:], short_run["dst_layer"],
                               rtol=1e-5, atol=1e-6)
    for name, start in (("weights_layer", dwl0), ("weights_iter", 0.0), ("bias", db0)):
        want = np.reshape(start, -1) + (long_run["diff_" + name] +
                                        short_run["diff_" + name]).reshape(-1)
        assert np.abs(want).max() > 1e-2
        np.testing.assert_allclose(res["diff_" + name].reshape(-1), want, rtol=1e-4, atol=1e-5,
                                   err_msg=name)
    want_src = diff_src0.reshape(T0, N0 + N1, Cs).copy()   # rows no primitive writes
    want_src[:, :N0] = long_run["diff_src_layer"]
    want_src[:T1, N0:] = short_run["diff_src_layer"]
    np.testing.assert_allclose(res["diff_src_layer"], want_src, rtol=1e-4, atol=1e-5)


# At the example's own size (1024) data in [-0.5, 0.5] make a chaotic
# network: the step-to-step map amplifies rounding about 1.5 times a step,
# so after the 35 steps even a float32 NumPy LSTM is 1.4 off the float64
# reference. There the data are scaled by 4 / sqrt(1024), the gain of the
# 16-channel case.
@pytest.mark.parametrize("Cs,scale", [(16, 0.5), (1024, 0.0625)])
def test_rnn_example_on_random_data_against_rnn_ref(monkeypatch, Cs, scale):
    """The example's two primitives are one left-to-right layer over one set
    of sequences split in time (the rightmost batch a prefix of the
    leftmost): N0 sequences of T0 steps and N1 of T1, no initial states.
    Its outputs, diff_src_layer and accumulated diff weights and bias
    against rnn_ref, the float64 reference that shares no code with the
    library. Cs = 1024 is the example's own feature size."""
    res, (T0, T1, N0, N1), src, w, diff_dst, diff_src0, dwl0, db0 = \
        _run_on_random_data(monkeypatch, Cs, seed=5, scale=scale)
    w = {k: v.astype(np.float64) for k, v in w.items()}
    runs = []
    for T, rows in ((T0, slice(0, N0)), (T1, slice(N0, N0 + N1))):
        args = {**w, "src_layer": src[:T, rows].astype(np.float64)}
        runs.append((rnn_ref.lstm_forward(args),
                     rnn_ref.lstm_backward({**args, "diff_dst_layer": diff_dst[:T, rows]})))
    (long_fwd, long_bwd), (short_fwd, short_bwd) = runs

    def close(got, want, name):
        err = np.abs(got - want).max()
        scale = max(np.abs(want).max(), 1e-3)
        assert err <= 1e-5 * scale, "%s: max err %.3g of %.3g" % (name, err, scale)

    close(res["leftmost_dst_layer"][:, :N0], long_fwd["dst_layer"][:T1], "leftmost dst, long")
    close(res["leftmost_dst_layer"][:, N0:], short_fwd["dst_layer"], "leftmost dst, short")
    close(res["rightmost_dst_layer"], long_fwd["dst_layer"][T1:], "rightmost dst")
    for name, start in (("weights_layer", dwl0), ("weights_iter", 0.0), ("bias", db0)):
        grad = long_bwd["diff_" + name] + short_bwd["diff_" + name]
        assert np.abs(grad).max() > 1e-2
        # the example accumulates into its buffers' initial contents
        close(res["diff_" + name].reshape(-1) - np.reshape(start, -1), grad.reshape(-1),
              "diff_" + name)
    want_src = diff_src0.reshape(T0, N0 + N1, Cs).astype(np.float64)  # rows nobody writes
    want_src[:, :N0] = long_bwd["diff_src_layer"]
    want_src[:T1, N0:] = short_bwd["diff_src_layer"]
    close(res["diff_src_layer"], want_src, "diff_src_layer")
