"""The LSTM cell's gate loops vectorise at every ISA level the build
compiles: GCC's vectoriser report on kernels/isa/rnn_isa.c with setup.py's
own flags for each level. At SSE and AVX2 they need the rnn module's
-fno-trapping-math (setup.py's ISA_MODULE_FLAGS): without it GCC kept the
exp's clamps as branches and the cell ran scalar there, 10% of the LSTM
forward - a loss no result shows and no test of values can catch."""

import ast
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETUP = os.path.join(ROOT, "setup.py")
CELL = os.path.join(ROOT, "dnnl_c", "kernels", "include", "rnn_cell.h")
SOURCE = os.path.join(ROOT, "dnnl_c", "kernels", "isa", "rnn_isa.c")

pytestmark = pytest.mark.skipif(not os.path.exists(SETUP) or not os.path.exists(SOURCE),
                                reason="needs the source tree")


def setup_names():
    """setup.py's plain imports, constants and flag functions, without
    running setup() (its `from setuptools import ...` is left out)."""
    with open(SETUP) as f:
        tree = ast.parse(f.read())
    keep = [node for node in tree.body
            if isinstance(node, (ast.Import, ast.Assign))
            or isinstance(node, ast.FunctionDef) and node.name in ("compiler_accepts",
                                                                   "build_flags", "isa_args")]
    ns = {}
    exec(compile(ast.Module(body=keep, type_ignores=[]), SETUP, "exec"), ns)
    return ns


def gcc(ns):
    """The C compiler setup.py uses, if it is GCC (the report's format is
    GCC's)."""
    cc = (os.environ.get("CC") or ns["sysconfig"].get_config_var("CC") or "cc").split()
    try:
        out = subprocess.run(cc + ["--version"], capture_output=True, text=True)
    except OSError:
        return None
    return cc if out.returncode == 0 and "Free Software Foundation" in out.stdout else None


def gate_loop_lines():
    """The lines of the forward and backward rows' loops over a gate's columns."""
    with open(CELL) as f:
        lines = [i + 1 for i, line in enumerate(f)
                 if re.match(r"\s*for \(j = 0; j < len; j\+\+\) \{", line)]
    assert len(lines) == 2, "rnn_cell.h: expected the forward and the backward row loop"
    return lines


def test_lstm_cell_gate_loops_vectorise_at_every_level(tmp_path):
    ns = setup_names()
    cc = gcc(ns)
    if cc is None:
        pytest.skip("the compiler is not GCC")
    compile_args, _ = ns["build_flags"]()
    lines = gate_loop_lines()
    levels = [(name, flags) for name, flags in ns["ISA_LEVELS"]
              if ns["compiler_accepts"](flags)]
    assert levels, "the compiler builds no ISA level"
    for level, flags in levels:
        cmd = cc + ns["isa_args"](compile_args, "rnn", level, flags) + [
            "-I" + ROOT, "-I" + os.path.join(ROOT, "dnnl_c"), "-c", SOURCE,
            "-o", str(tmp_path / (level + ".o")), "-fopt-info-vec-optimized"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-2000:]
        done = {int(m.group(1)) for m in re.finditer(
            r"rnn_cell\.h:(\d+):\d+: optimized: loop vectorized", out.stderr)}
        missing = [n for n in lines if n not in done]
        assert not missing, "%s: rnn_cell.h's loops at lines %s run scalar" % (level, missing)
