"""The package ships: the sdist holds every source, the wheel built from that
sdist holds every compiled module, and the wheel installs into a fresh
virtual environment and runs."""

import glob
import os
import subprocess
import sys
import tarfile
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SMOKE = r"""
import numpy as np
import dnnl, dnnl_c
from dnnl import engine, memory, reorder, stream
tag, dt = memory.format_tag, memory.data_type
assert dnnl.__version__ == dnnl_c.__version__ != ""
v = dnnl.version()
assert (v.major, v.minor) == (3, 13), v
eng = engine(engine.kind.cpu, 0)
s = stream(eng)
a = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
src = memory(memory.desc([2, 3, 4, 5], dt.f32, tag.nchw), eng, a)
dst = memory(memory.desc([2, 3, 4, 5], dt.f32, tag.nChw8c), eng)
reorder(src, dst).execute(s, src, dst)
np.testing.assert_array_equal(dst.read(np.float32), a)
print("ok", dnnl.__version__)
"""


def _run(cmd, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert out.returncode == 0, "%s failed:\n%s\n%s" % (cmd, out.stdout[-3000:],
                                                       out.stderr[-3000:])
    return out


@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "setup.py")),
                    reason="needs the source tree")
def test_sdist_wheel_roundtrip_in_a_fresh_venv(tmp_path):
    pytest.importorskip("build")
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(dist),
          ROOT])
    sdist, = glob.glob(str(dist / "*.tar.gz"))
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
    sources = [p for p in names if p.endswith((".pyx", ".pxd", ".h"))]
    for kind in ("core", "api", "kernels", "primitives"):
        assert any("/dnnl_c/%s/" % kind in p and p.endswith(".pyx") for p in sources), kind
    assert any(p.endswith("/LICENSE") for p in names)
    assert any(p.endswith("codegen/enums.py") for p in names)
    assert any(p.endswith("dnnl/benchdnn/inputs/rnn/harness_lstm_f32") for p in names)
    # the per-ISA-level kernel files are C written by hand; Cython's output is not shipped
    isa_c = [p for p in names if "/dnnl_c/kernels/isa/" in p and p.endswith("_isa.c")]
    assert len(isa_c) == len(glob.glob(os.path.join(ROOT, "dnnl_c/kernels/isa/*_isa.c"))) > 0
    assert not any(p.endswith(".c") and "/dnnl_c/" in p and p not in isa_c
                   for p in names), "generated C shipped"
    n_pyx = sum(p.endswith(".pyx") and "/dnnl_c/" in p for p in names)

    # the wheel from the sdist, not from the tree
    unpacked = tmp_path / "src"
    with tarfile.open(sdist) as tf:
        tf.extractall(unpacked)
    src_dir, = glob.glob(str(unpacked / "*"))
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist),
          src_dir])
    wheel, = glob.glob(str(dist / "*.whl"))
    assert "none-any" not in os.path.basename(wheel)
    with zipfile.ZipFile(wheel) as zf:
        modules = [p for p in zf.namelist() if p.endswith(".so")]
        assert len(modules) == n_pyx, (len(modules), n_pyx)
        assert any(p.endswith("dnnl.pxd") for p in zf.namelist())
        assert "dnnl/benchdnn/inputs/conv/shapes_alexnet" in zf.namelist()
        # typed: the stubs and the markers ship
        for p in ("dnnl/py.typed", "dnnl_c/py.typed", "dnnl/__init__.pyi", "dnnl/_memory.pyi",
                  "dnnl/_enums.pyi", "dnnl_c/__init__.pyi"):
            assert p in zf.namelist(), p

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    py = str(venv / "bin" / "python")
    _run([py, "-m", "pip", "install", "-q", wheel])
    out = _run([py, "-c", SMOKE], cwd=str(tmp_path))
    assert out.stdout.startswith("ok")
    # benchdnn finds its input files in the installed package
    out = _run([py, "-m", "dnnl.benchdnn", "--pool", "--mb=1", "--batch=shapes_alexnet"],
               cwd=str(tmp_path))
    assert "tests:3 passed:3 " in out.stdout
