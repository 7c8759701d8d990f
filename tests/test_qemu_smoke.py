"""Whole older CPUs under QEMU user mode: the library, as built (with its
AVX-512 kernels inside), runs on `qemu-x86_64 -cpu Nehalem` (SSE4.2, no AVX)
and `-cpu Haswell` (AVX2 + FMA, no AVX-512) with no ISA limit set: it
detects the level the model has, picks that level's kernels, computes right,
and never executes an instruction the model lacks (QEMU raises SIGILL for
those; a control program checks it does). Needs Debian's qemu-user, which
the test installs when it runs as root with apt-get; otherwise it skips.
QEMU is slow: tiny problems, and about a minute per model."""

import json
import os
import platform
import shutil
import signal
import subprocess
import sys

import pytest

import dnnl_c as c
import isa_probe

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "examples", "c_style", "cpu_cnn_training_f32.py")

# QEMU's model -> the level our detection must answer, the kernel levels
# it may run (QEMU 7.2's Haswell has AVX2 and FMA but no AVX2-VNNI, nor
# AVX-512: QEMU's TCG has none), and the OpenBLAS core to use.
MODELS = {
    "Nehalem": ("sse41", {"sse41"}, "Nehalem"),
    "Haswell": ("avx2", {"sse41", "avx", "avx2"}, "Haswell"),
}


def run_limited(cmd, **kw):
    """subprocess.run with no core dumps (the controls die by SIGILL)."""
    def no_core():
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return subprocess.run(cmd, capture_output=True, text=True, preexec_fn=no_core, **kw)


@pytest.fixture(scope="module")
def qemu():
    if platform.machine() != "x86_64" or not sys.platform.startswith("linux"):
        pytest.skip("QEMU user mode smoke: needs an x86-64 Linux host")
    path = shutil.which("qemu-x86_64")
    if path is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        cmd = ["apt-get", "install", "-y", "-q", "qemu-user"]
        if subprocess.run(cmd, capture_output=True, env=env, timeout=900).returncode != 0:
            # the package lists may be missing or old
            subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env,
                           timeout=900)
            subprocess.run(cmd, capture_output=True, env=env, timeout=900)
        path = shutil.which("qemu-x86_64")
    if path is None:
        reason = "qemu-x86_64 is missing (apt-get install qemu-user)"
        print(reason)
        pytest.skip(reason)
    return path


def under_qemu(qemu, model, args, **env):
    """Runs this Python under QEMU's `model`, importing this very library,
    with no ISA limit unless `env` sets one. NumPy's OpenBLAS is told its
    core: under `-cpu Nehalem` it picks its Haswell kernels by itself, and
    NumPy's import dies of SIGILL (OpenBLAS's doing, not the library's)."""
    env = isa_probe.child_env(OPENBLAS_CORETYPE=MODELS[model][2], **env)
    out = run_limited([qemu, "-cpu", model, sys.executable] + args, env=env, cwd=HERE,
                      timeout=600)
    assert out.returncode != -signal.SIGILL, \
        "SIGILL under -cpu %s: an instruction the model lacks ran\n%s" % (model, out.stderr[-3000:])
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.fixture(scope="module")
def control(tmp_path_factory):
    """The control program (tests/data/qemu/isa_control.c), or None without
    a C compiler."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None
    exe = str(tmp_path_factory.mktemp("qemu") / "isa_control")
    subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "data", "qemu", "isa_control.c")],
                   check=True, capture_output=True)
    return exe


@pytest.mark.parametrize("model", sorted(MODELS))
def test_qemu_refuses_what_the_model_lacks(qemu, control, model):
    """Without this, no SIGILL below would prove nothing."""
    if control is None:
        pytest.skip("no C compiler for the control program")
    has = MODELS[model][1]
    for level, needs in (("avx2", "avx2"), ("avx512", "avx512_core")):
        rc = run_limited([qemu, "-cpu", model, control, level], timeout=120).returncode
        assert rc == (0 if needs in has else -signal.SIGILL), (model, level, rc)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_probe(qemu, model):
    """Effective ISA, the levels allowed, a reorder, and the convolutions
    (f32, bf16) with their implementation names, against NumPy."""
    level, has, _ = MODELS[model]
    r = json.loads(under_qemu(qemu, model, ["isa_probe.py"]).strip().splitlines()[-1])
    assert r["dnnl_c"] == os.path.dirname(os.path.abspath(c.__file__))
    assert r["effective"] == r["effective_object"] == getattr(c, "dnnl_cpu_isa_" + level)
    assert {lv for lv, ok in r["has"].items() if ok} == has
    assert r["reorder_error"] == 0.0
    for problem, (_, _, _, tol) in isa_probe.PROBLEMS.items():
        assert r["impls"][problem] == isa_probe.expected_impl(problem, level)
        assert r["errors"][problem] <= tol, (problem, r["impls"][problem])


@pytest.mark.parametrize("model", sorted(MODELS))
def test_f32_example_one_iteration(qemu, model):
    """examples/c_style/cpu_cnn_training_f32.py (AlexNet's first block,
    batch 8, forward and backward), one iteration; ONEDNN_VERBOSE says which
    implementations ran."""
    level = MODELS[model][0]
    out = under_qemu(qemu, model, [EXAMPLE, "1"], ONEDNN_VERBOSE="1")
    assert out.strip().endswith("Example passed on CPU."), out[-2000:]
    # onednn_verbose,v1,primitive,exec,cpu,<kind>,<impl>,<prop>,...
    runs = [ln.split(",") for ln in out.splitlines() if ln.startswith("onednn_verbose,")
            and ",exec," in ln]
    convs = {f[6] for f in runs if f[5] == "convolution"}
    assert convs == {isa_probe.expected_impl("convolution_f32", level)}, convs
