"""The ports of oneDNN's examples (getting_started, memory_format_propagation,
primitives/convolution, eltwise, lrn, pooling, reorder, lstm) run, print
oneDNN's verdict, and compute what NumPy computes from the formulas."""

import importlib.util
import os
import sys

import numpy as np
import pytest

import dnnl
from dnnl.benchdnn.ref_conv import conv_fwd
from net_ref import lrn_across_fwd
from dnnl.benchdnn.ref_rnn import lstm_forward

CPP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "cpp_style")
CPU = dnnl.engine.kind.cpu


def load(name):
    path = os.path.join(CPP, name + ".py")
    sys.modules.pop("example_utils", None)
    spec = importlib.util.spec_from_file_location("port_" + name.replace("/", "_"), path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nchw(flat, n, c, h, w):
    """A buffer written in NHWC order, as NCHW."""
    return flat.reshape(n, h, w, c).transpose(0, 3, 1, 2).astype(np.float64)


def close(got, want, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ["getting_started", "memory_format_propagation",
                                  "primitives/convolution", "primitives/eltwise",
                                  "primitives/lrn", "primitives/pooling",
                                  "primitives/reorder", "primitives/lstm"])
def test_each_port_passes(name, capsys):
    ex = load(name)
    assert ex.main([name + ".py"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines and all(ln == "Example passed on CPU." for ln in lines[-2:]), lines
    assert ex.main([name + ".py", "cpu"]) == 0


def test_getting_started_is_relu():
    image, relu = load("getting_started").getting_started_tutorial(CPU)
    assert image.size == 13 * 13 * 3 and (image < 0).any()
    np.testing.assert_array_equal(relu, np.maximum(image, 0))


def _max_pool(x, k, s, dil, pl, pr):
    """Max pooling from the definition: padding never wins, dilation d
    leaves d elements between taps (oneDNN's convention)."""
    n, c, h, w = x.shape
    xp = np.pad(x, [(0, 0), (0, 0), (pl[0], pr[0]), (pl[1], pr[1])], constant_values=-np.inf)
    oh = (h + pl[0] + pr[0] - ((k[0] - 1) * (dil[0] + 1) + 1)) // s[0] + 1
    ow = (w + pl[1] + pr[1] - ((k[1] - 1) * (dil[1] + 1) + 1)) // s[1] + 1
    out = np.full((n, c, oh, ow), -np.inf)
    for i in range(k[0]):
        for j in range(k[1]):
            y0, x0 = i * (dil[0] + 1), j * (dil[1] + 1)
            out = np.maximum(out, xp[:, :, y0:y0 + (oh - 1) * s[0] + 1:s[0],
                                     x0:x0 + (ow - 1) * s[1] + 1:s[1]])
    return out


def test_memory_format_propagation_computes_conv_then_pool():
    ex = load("memory_format_propagation")
    rng = np.random.default_rng(7)
    src = rng.standard_normal((1, 128, 14, 14)).astype(np.float32)
    wei = (rng.standard_normal((256, 128, 3, 3)) * 0.05).astype(np.float32)
    out = ex.memory_format_propagation_tutorial(CPU, src, wei)
    conv = conv_fwd(src, wei, None, [1, 1], [0, 0], [1, 1], [1, 1])
    close(out["dst"], _max_pool(conv, [3, 3], [1, 1], [0, 0], [1, 1], [1, 1]), 1e-4, 1e-4)
    assert isinstance(out["reordered"], tuple)
    zeros = ex.memory_format_propagation_tutorial(CPU)     # oneDNN's run: no data
    assert not zeros["dst"].any()


@pytest.mark.parametrize("which", ["convolution_example", "depthwise_convolution_example"])
def test_convolution_ports(which):
    out = getattr(load("primitives/convolution"), which)(CPU)
    N, IC, H, OC = 3, 32, 13, (64 if which == "convolution_example" else 32)
    src = nchw(out["src"], N, IC, H, H)
    if which == "convolution_example":
        wei, g = out["weights"].reshape(OC, IC, 3, 3), 1
    else:
        wei, g = out["weights"].reshape(32, 1, 1, 3, 3), 32
    ref = np.maximum(conv_fwd(src, wei, out["bias"], [4, 4], [0, 0], [1, 1], [1, 1], g=g), 0)
    assert ref.shape == (N, OC, 4, 4)
    close(nchw(out["dst"], N, OC, 4, 4), ref, 1e-4, 1e-4)


def test_eltwise_port():
    out = load("primitives/eltwise").eltwise_example(CPU)
    assert out["src"].size == 3 * 3 * 227 * 227
    np.testing.assert_array_equal(out["dst"], np.maximum(out["src"], 0))


def test_lrn_port():
    out = load("primitives/lrn").lrn_example(CPU)
    ref, _ = lrn_across_fwd(nchw(out["src"], 3, 3, 227, 227), 5, 1e-4, 0.75, 1.0)
    close(nchw(out["dst"], 3, 3, 227, 227), ref)


def test_pooling_port():
    out = load("primitives/pooling").pooling_example(CPU)
    assert out["dst_dims"] == [3, 3, 2, 2]
    ref = _max_pool(nchw(out["src"], 3, 3, 27, 27), [11, 11], [4, 4], [1, 1], [0, 0], [0, 0])
    np.testing.assert_array_equal(nchw(out["dst"], 3, 3, 2, 2), ref)


@pytest.mark.parametrize("base,step", [(64.0, 5.0), (1 / 64, 0.01)])
def test_reorder_port(base, step):
    out = load("primitives/reorder").reorder_example(CPU, base, step)
    src = out["src"].reshape(3, 227, 227, 3).astype(np.float32)
    ref = np.clip(np.rint(src / out["scales"]), -128, 127).astype(np.int8).reshape(-1)
    np.testing.assert_array_equal(out["dst"], ref)
    if base < 1:
        assert out["dst"].min() == -64 and out["dst"].max() == 64   # rounding matters here


def test_lstm_port():
    out = load("primitives/lstm").lstm_example(CPU)
    ref = lstm_forward({k: out[k] for k in ("src_layer", "weights_layer", "weights_iter",
                                            "bias")})
    close(out["dst_layer"], ref["dst_layer"], 1e-4, 1e-5)
