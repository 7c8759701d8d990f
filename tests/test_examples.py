"""The two CNN examples run (fewer iterations / a smaller batch) and their
diff weights and diff bias match a NumPy computation of the same network."""

import importlib.util
import os
import sys

import numpy as np
import pytest

from helpers import bf16_round
from net_ref import alexnet_block

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")


def load(style, name):
    path = os.path.join(EXAMPLES, style, name + ".py")
    sys.modules.pop("example_utils", None)     # each style has its own
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location("example_" + name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    return module


def relative_error(got, want):
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


def test_c_style_cnn_training_f32(capsys):
    ex = load("c_style", "cpu_cnn_training_f32")
    diff_weights, diff_bias = ex.simple_net(n_iter=2)
    assert "per iteration" in capsys.readouterr().out
    src = (np.arange(8 * 3 * 227 * 227) % 1637).reshape(8, 3, 227, 227).astype(np.float64)
    wei = (np.arange(96 * 3 * 11 * 11) % 1637).reshape(96, 3, 11, 11).astype(np.float64)
    bias = (np.arange(96) % 1637).astype(np.float64)
    diff_dst = (np.arange(8 * 96 * 27 * 27) % 1637).reshape(8, 96, 27, 27).astype(np.float64)
    dw, db = alexnet_block(src, wei, bias, diff_dst)
    assert relative_error(diff_weights.reshape(dw.shape), dw) < 1e-4
    assert relative_error(diff_bias, db) < 1e-4


def test_c_style_main_prints_passed(capsys):
    ex = load("c_style", "cpu_cnn_training_f32")
    assert ex.main(["cpu_cnn_training_f32.py", "1"]) == 0
    assert capsys.readouterr().out.strip().endswith("Example passed on CPU.")


@pytest.mark.parametrize("batch", [2])
def test_cpp_style_cnn_training_bf16(batch):
    ex = load("cpp_style", "cnn_training_bf16")
    import dnnl
    results: dict = {}
    ex.simple_net(dnnl.engine.kind.cpu, batch=batch, n_iter=1, results=results)
    n = np.arange
    src = bf16_round(np.sin(n(batch * 3 * 227 * 227, dtype=np.float32))).reshape(
        batch, 3, 227, 227).astype(np.float64)
    wei = bf16_round(np.sin(n(96 * 3 * 11 * 11, dtype=np.float32))).reshape(
        96, 3, 11, 11).astype(np.float64)
    bias = bf16_round(np.sin(n(96, dtype=np.float32))).astype(np.float64)
    diff_dst = np.sin(n(batch * 96 * 27 * 27, dtype=np.float32)).reshape(
        batch, 96, 27, 27).astype(np.float64)
    rnd = lambda a: bf16_round(a.astype(np.float32)).astype(np.float64)  # noqa: E731
    dw, db = alexnet_block(src, wei, bias, diff_dst, round_fn=rnd)
    # diff weights end as bf16 then f32; diff bias is computed straight into f32
    assert relative_error(results["diff_weights"], dw) < 1e-2
    assert relative_error(results["diff_bias"], db) < 1e-2


def test_cpp_style_unimplemented_branch_exits_0(monkeypatch, capsys):
    """With bf16 disabled (CYDNNL_BF16_UNIMPLEMENTED, as oneDNN is on a CPU
    without bf16 support) the example reports that no implementation is
    available and still passes."""
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "1")
    ex = load("cpp_style", "cnn_training_bf16")
    assert ex.main(["cnn_training_bf16.py"]) == 0
    out = capsys.readouterr().out
    assert "No bf16 convolution implementation is available" in out
    assert out.strip().endswith("Example passed on CPU.")


def test_cpp_style_errors_exit_1(monkeypatch, capsys):
    ex = load("cpp_style", "cnn_training_bf16")
    import dnnl

    def broken(engine_kind):
        dnnl.memory.desc([2, -1], dnnl.memory.data_type.f32, dnnl.memory.format_tag.ab)
    assert ex.handle_example_errors(broken, dnnl.engine.kind.cpu) == 1
    out = capsys.readouterr().out
    assert "Status: invalid_arguments" in out and "Example failed on CPU." in out
