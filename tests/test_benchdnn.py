"""python -m dnnl.benchdnn: the problem descriptors, tags and input files as
benchdnn reads them; the drivers over oneDNN's problem lists (the CI
subset: --mb=1 for the AlexNet and RNN training lists, --t=2 and no GNMT
decoder for the latter; the full lists are in the README); the verbose
converter's lines; performance mode; and that a wrong result, a wrong
reference or a non-zero padding does fail, and bad input stops with a
message naming it."""

import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import dnnl
from dnnl.benchdnn import driver as D
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import ref_conv
from dnnl.benchdnn.desc import ConvDesc, DimsDesc, LrnDesc, PoolDesc, RnnDesc
from dnnl.benchdnn.main import main
from dnnl.benchdnn.parser import read_batch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONVERTER_DATA = os.path.join(HERE, "data", "benchdnn_converter")
# the converter's inputs (.txt) and what it prints for them (.benchdnn)
LOGS = ["example_log_onednn32_cnn_training_f32", "synthetic_lstm_v1"]


def bench(*args):
    """Runs the driver in this process: (exit status, output, summary)."""
    out = io.StringIO()
    rc = main(list(args), out=out)
    text = out.getvalue()
    m = re.findall(r"^tests:(\d+) passed:(\d+) skipped:(\d+) mistrusted:(\d+) "
                   r"unimplemented:(\d+) invalid_arguments:(\d+) failed:(\d+) listed:(\d+)$",
                   text, re.M)
    keys = ("tests", "passed", "skipped", "mistrusted", "unimplemented", "invalid_arguments",
            "failed", "listed")
    return rc, text, dict(zip(keys, map(int, m[-1]))) if m else None


def assert_clean(rc, text, s, passed_at_least=1):
    assert s is not None, text[-3000:]
    assert s["failed"] == 0 and s["invalid_arguments"] == 0 and rc == 0, \
        "\n".join(ln for ln in text.splitlines() if "FAILED" in ln or "UNTESTED" in ln
                  or "INVALID" in ln or "[" in ln)[:5000]
    assert s["passed"] >= passed_at_least, text[-2000:]


# ------------------------------------------------------------ descriptors

def test_conv_desc_as_benchdnn_deduces():
    d = ConvDesc('g1mb256ic3ih227iw227oc96oh55ow55kh11kw11sh4sw4ph0pw0n"alexnet:conv1"')
    assert (d.has_groups, d.g, d.mb, d.ndims) == (True, 1, 256, 4)
    assert (d.o, d.k, d.s, d.p, d.pr, d.d) == ([55, 55], [11, 11], [4, 4], [0, 0], [0, 0],
                                                [0, 0])
    assert d.name == '"alexnet:conv1"' and d.wei_dims() == [1, 96, 3, 11, 11]
    d = ConvDesc('g2mb256ic96ih27oc256oh27kh5ph2n"alexnet:conv2"')
    assert (d.i, d.o, d.k, d.p, d.pr, d.wei_dims()) == (
        [27, 27], [27, 27], [5, 5], [2, 2], [2, 2], [2, 128, 48, 5, 5])
    d = ConvDesc("ic3oc16_ih5kh3")                  # no output: computed, padding 0
    assert (d.mb, d.o, d.p, d.has_groups, d.wei_dims()) == (2, [3, 3], [0, 0], False,
                                                            [16, 3, 3, 3])
    d = ConvDesc("ic3oc16ih5oh5kh3")                # output given: padding deduced
    assert (d.p, d.pr) == ([1, 1], [1, 1])
    d = ConvDesc('ic17oc17_iw8ow4kw1pw0sw2_n"x"')   # 1-D
    assert (d.ndims, d.i, d.o, d.pr) == (3, [8], [4], [-1])
    d = ConvDesc("g16ic16oc16_id5od5kd3pd1")        # cubic: d copied to h and w
    assert (d.ndims, d.i, d.o, d.k, d.p) == (5, [5, 5, 5], [5, 5, 5], [3, 3, 3], [1, 1, 1])
    d = ConvDesc("mb8_ic3oc96_ih227oh55kh11sh4dh0ph0_iw227ow55kw11sw4dw0pw0")  # verbose's
    assert (d.mb, d.o, d.pr) == (8, [55, 55], [0, 0])
    assert str(d) == "mb8ic3ih227oc96oh55kh11sh4ph0"
    d2 = ConvDesc(str(ConvDesc("mb3ic4id5ih6iw7oc8od3oh4ow5kd3kh3kw3sd2sh2sw2dd0dh1dw0")))
    assert (d2.i, d2.o, d2.k, d2.s, d2.d, d2.p, d2.pr) == (
        [5, 6, 7], [3, 4, 5], [3, 3, 3], [2, 2, 2], [0, 1, 0], [1, 2, 2], [1, 3, 2])


@pytest.mark.parametrize("text,why", [
    ("ic3ih5kh3", "`oc`"), ("ic3oc4", "spatial"), ("ic3oc4ih5", "`kh`"),
    ("ic3oc4id5ih5kd3kh3", "`h` and `w`"), ("ic3oc4ih5kh3zz", "unrecognized"),
    ("ic3oc4ih5kh7", "`oh`"), ("ic3oc4ih5kh", "no value"), ("g0ic3oc4ih5kh3", "`g`"),
])
def test_conv_desc_refused(text, why):
    with pytest.raises(ValueError, match=why):
        ConvDesc(text)


def test_other_descs():
    p = PoolDesc('ic16_ih20oh9kh3sh2ph0n"pool_ci_2d:negative_ph_r"')
    assert (p.i, p.o, p.p, p.pr, p.mb) == ([20, 20], [9, 9], [0, 0], [-1, -1], 2)
    p = PoolDesc("mb1ic16_id32od16kd3sd2_ih16oh8kh3sh2_iw8ow4kw3sw2")
    assert (p.i, p.o, p.k) == ([32, 16, 8], [16, 8, 4], [3, 3, 3])
    n = LrnDesc('mb50ic96ih112_alpha0.0005_k2n"fastrcnn:norm1"')
    assert (n.mb, n.ic, n.i, n.ls, n.alpha, n.beta, n.k) == (50, 96, [112, 112], 5, 0.0005,
                                                             0.75, 2.0)
    assert LrnDesc('mb3ic128_n"lrn_ci_0d:0"').i == [] and LrnDesc("ic15_id2").i == [2, 2, 2]
    assert LrnDesc("ic16ih5").alpha == 1.0 / 8192
    r = RnnDesc('l1t1mb4_sic17_slc34_dhc68_n"x"')
    assert (r.n_layer, r.n_iter, r.mb, r.sic, r.slc, r.dhc, r.dic) == (1, 1, 4, 17, 34, 68, 68)
    r = RnnDesc("l8t3mb12_sic16")
    assert (r.slc, r.dhc, r.dic, r.format(1)) == (16, 16, 16, "l8t3mb1sic16slc16dhc16dic16")
    e = DimsDesc('16x16x2x1_n"eltwise_ci_2d:0"')
    assert (e.dims, e.name, e.with_mb(3)) == ([16, 16, 2, 1], '"eltwise_ci_2d:0"', [3, 16, 2, 1])
    with pytest.raises(ValueError):
        DimsDesc("16x")


def test_tags():
    assert T.normalize_tag("abx", 4) == "abcd" and T.normalize_tag("axb", 5) == "acdeb"
    assert T.normalize_tag("aBx16b", 4) == "aBcd16b" and T.normalize_tag("abx", 2) == "ab"
    assert T.normalize_tag("axb", 3) == "acb" and T.normalize_tag("xba", 4) == "cdba"
    assert T.normalize_tag("ABx16a16b", 3) == "ABc16a16b"
    assert T.md([2, 3, 4, 5], "f32", "badc").get_strides() == [20, 40, 1, 4]  # not an enum
    assert T.md([2, 3], "bf16", "undef") is None
    with pytest.raises(T.TagError):
        T.md([30, 1], "f32", "aBx16b")
    with pytest.raises(ValueError, match="allow-enum-tags-only"):
        T.check_tag("badc", True)
    assert T.check_tag("badc", False) == "badc"


def test_batch_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner").write_text("# comment\n--dir=FWD_D,\\\nBWD_D  # trailing\n"
                                            "ic3ih5oc4kh3n\"a\"\n")
    (tmp_path / "outer").write_text("--reset --batch=sub/inner\n--dir=FWD_I ic3ih6oc2kh3\n")
    assert read_batch(tmp_path / "sub" / "inner") == ["--dir=FWD_D,BWD_D", 'ic3ih5oc4kh3n"a"']
    rc, text, s = bench("--conv", "--batch=%s" % (tmp_path / "outer"))
    assert_clean(rc, text, s, 3)
    assert s["tests"] == 3 and "--dir=BWD_D ic3ih5oc4oh3kh3ph0n\"a\"" in text
    # the nested file is found next to the including one, and from then on
    rc, text, s = bench("--conv", "--batch=%s" % (tmp_path / "sub" / "inner"), "--batch=inner")
    assert s["tests"] == 4


# ------------------------------------------------------------ oneDNN's problem lists

CI_RUNS = {
    "conv shapes_basic": ["--conv", "--dir=FWD_B,BWD_D,BWD_WB", "--batch=shapes_basic",
                          "--dt=bf16", "--dir=FWD_I,BWD_D,BWD_WB", "--batch=shapes_basic"],
    "conv shapes_alexnet mb1": ["--conv", "--mb=1", "--dir=FWD_B,BWD_D,BWD_WB",
                                "--batch=shapes_alexnet"],
    "pool shapes_basic": ["--pool", "--dir=FWD_D,FWD_I,BWD_D", "--alg=max,avg_np,avg_p",
                          "--dt=f32,bf16", "--tag=abx,axb,aBx16b", "--batch=shapes_basic"],
    "pool shapes_alexnet mb1": ["--pool", "--mb=1", "--dir=FWD_D,BWD_D",
                                "--alg=max,avg_np,avg_p", "--tag=abx,aBx16b",
                                "--batch=shapes_alexnet"],
    "lrn shapes": ["--lrn", "--dir=FWD_D,FWD_I,BWD_D", "--alg=ACROSS,WITHIN", "--dt=f32,bf16",
                   "--tag=abx,axb,aBx16b", "--batch=shapes_2d", "--tag=abx",
                   "--batch=shapes_0d", "--batch=shapes_3d", "--mb=1",
                   "--batch=shapes_topologies"],
    "eltwise shapes_eltwise": [
        "--eltwise", "--dir=FWD_D,BWD_D", "--dt=f32,bf16", "--tag=abx,axb,aBx16b",
        "--alg=abs,exp,exp_dst,gelu_erf,gelu_tanh,log,logistic,logistic_dst,mish,relu,"
        "relu_dst,round,sqrt,sqrt_dst,square,tanh,tanh_dst", "--batch=shapes_eltwise",
        "--alpha=-2", "--alg=elu,relu,swish", "--batch=shapes_eltwise",
        "--alpha=-1,2", "--alg=soft_relu", "--batch=shapes_eltwise",
        "--alpha=-2", "--beta=3", "--alg=clip,clip_v2,clip_v2_dst,linear,hardsigmoid,hardswish",
        "--batch=shapes_eltwise", "--alpha=1", "--beta=-1,0.5,1.5", "--alg=pow",
        "--batch=shapes_eltwise"],
    "eltwise test_eltwise_smoke": ["--eltwise", "--batch=test_eltwise_smoke"],
    "rnn shapes_small": ["--rnn", "--alg=VANILLA_LSTM", "--prop=FWD_I,FWD_D,BWD_DW",
                         "--trivial-strides=true,false", "--tag=tnc:any:tnc,ntc:any:ntc",
                         "--direction=left2right,right2left,concat,sum",
                         "--batch=shapes_small", "--cfg=bf16,bf16f32", "--trivial-strides=true",
                         "--tag=tnc:any:tnc", "--with-peephole=false,true",
                         "--batch=shapes_small"],
    "rnn harness_lstm_f32": ["--rnn", "--batch=harness_lstm_f32"],
    "rnn shapes_training mb1 t2": ["--rnn", "--alg=VANILLA_LSTM", "--trivial-strides=true",
                                   "--tag=tnc:any:tnc", "--prop=FWD_D,BWD_DW", "--mb=1",
                                   "--t=2", "--match=(?!.*GNMT_dec).*",
                                   "--batch=shapes_training"],
    "reorder": ["--reorder", "--sdt=f32,bf16,s8,u8,s32", "--ddt=f32,bf16,s8,u8,s32",
                "--stag=abx,axb,aBx16b", "--dtag=abx,aBx8b,xba", "2x17x5x3", "16x3x4x3x3",
                "--stag=abx", "--dtag=abx", "--strides=60x20x5x1:1x2x6x24", "2x3x4x5"],
}


@pytest.mark.parametrize("name", list(CI_RUNS))
def test_problem_lists(name):
    rc, text, s = bench(*CI_RUNS[name])
    assert_clean(rc, text, s, 10)
    if name == "conv shapes_basic":
        assert s["tests"] == s["passed"] == 54 * 6
    if name == "rnn harness_lstm_f32":
        assert (s["passed"], s["tests"]) == (1728, 2688)    # the rest: invalid or skipped


def test_unimplemented_data_types_are_not_failures():
    rc, text, s = bench("--conv", "--dt=f16,s8,f32:bf16:f32", "ic3ih5oc4kh3",
                        "--eltwise", "--dt=f16,u8", "--dir=FWD_I", "2x3x4",
                        "--rnn", "--alg=VANILLA_GRU", "--trivial-strides=true", "l1t1sic8")
    assert rc == 0 and s["unimplemented"] == s["tests"] == 6 and s["failed"] == 0, text


def test_unexpected_unimplemented_is_a_failure():
    env = dict(os.environ, CYDNNL_BF16_UNIMPLEMENTED="1")
    r = subprocess.run([sys.executable, "-m", "dnnl.benchdnn", "--conv", "--dt=bf16",
                        "ic3ih5oc4kh3"], capture_output=True, text=True, env=env, cwd=HERE,
                       timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "0:UNIMPLEMENTED (cydnnl implements these data types)" in r.stdout
    assert "unimplemented:1 invalid_arguments:0 failed:1" in r.stdout


# ------------------------------------------------------------ the verbose converter

def converter_lines(log=None):
    lines = []
    for name in [log] if log else LOGS:
        path = os.path.join(CONVERTER_DATA, name + ".benchdnn")
        lines += [ln.split() for ln in open(path) if ln.strip()]
    return lines


@pytest.mark.parametrize("line", converter_lines(), ids=lambda ln: " ".join(ln)[:70])
def test_verbose_converter_lines_run_as_they_are(line):
    rc, text, s = bench(*line)
    assert_clean(rc, text, s, 1)
    assert s["tests"] == 1


def _converter():
    for path in [os.environ.get("CYDNNL_VERBOSE_CONVERTER", ""),
                 os.path.join(ROOT, "..", "shared", "tools", "onednn_verbose_converter"),
                 os.path.join(ROOT, "..", "..", "shared", "tools", "onednn_verbose_converter")]:
        if path and os.path.isfile(os.path.join(path, "verbose_converter.py")):
            return os.path.join(path, "verbose_converter.py")
    return None


@pytest.mark.skipif(_converter() is None, reason="oneDNN's verbose converter is not here "
                    "(set CYDNNL_VERBOSE_CONVERTER to its directory)")
@pytest.mark.parametrize("log", LOGS)
def test_verbose_converter_still_prints_these_lines(log):
    r = subprocess.run([sys.executable, _converter(), "-i",
                        os.path.join(CONVERTER_DATA, log + ".txt")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "WARNING" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert [ln.split() for ln in r.stdout.splitlines() if ln.strip()] == converter_lines(log)


# ------------------------------------------------------------ performance mode

def test_performance_mode():
    rc, text, s = bench("--mode=P", "--fix-times-per-prb=3", "--conv", "--mb=1",
                        'ic3ih27oc8oh13kh3sh2n"small"')
    assert rc == 0 and s["passed"] == 1, text
    lines = text.splitlines()
    assert lines[0] == "Template entries: perf,%engine%,%impl%,%name%,%prb%,%Gops%," \
        "%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%"
    assert lines[1] == "perf,engine,impl,name,prb,Gops,max_ctime,min_time,min_Gflops," \
        "avg_time,avg_Gflops"
    f = lines[2].split(",")
    assert f[:4] == ["perf", "cpu", f[2], '"small"'] and f[2]
    assert f[4] == '--mode=P --conv mb1ic3ih27oc8oh13kh3sh2ph0n"small"'
    gops = 2 * 1 * 8 * 3 * 13 * 13 * 9 / 1e9
    assert float(f[5]) == pytest.approx(gops, rel=1e-6)
    t_min, gflops_min, t_avg = float(f[7]), float(f[8]), float(f[9])
    assert 0 < t_min <= t_avg and gflops_min == pytest.approx(gops / (t_min / 1e3), rel=1e-3)
    assert re.search(r"^total perf: min\(ms\):[0-9.e-]+ avg\(ms\):[0-9.e-]+$", text, re.M)
    rc, text, s = bench("--mode=P", "--fix-times-per-prb=2",
                        "--perf-template=%prb%,%-time%,%iobytes%,%dir%,%alg%", "--pool",
                        "--alg=avg_p", "mb1ic8ih13kh3")
    row = text.splitlines()[2].split(",")
    assert row[0] == "--mode=P --pool --alg=avg_p mb1ic8_ih13oh11kh3ph0" and row[3:] == [
        "FWD_D", "avg_p"]
    assert int(float(row[2])) == (8 * 13 * 13 + 8 * 11 * 11) * 4
    rc, text, s = bench("--mode=P", "--perf-template=%nonsense%", "--lrn", "ic8ih5")
    assert rc == 2 and "perf report option \"nonsense\" is not supported" in text


def test_other_modes():
    rc, text, s = bench("--mode=L", "--conv", "--dir=FWD_B,BWD_D", "ic3ih5oc4kh3")
    assert (s["listed"], s["passed"], rc) == (2, 0, 0)
    rc, text, s = bench("--mode=I", "--pool", "--alg=max,avg_p", "ic3ih5kh3")
    assert "0:INITIALIZED" in text and s["passed"] == 2
    rc, text, s = bench("--mode=R", "--lrn", "ic3ih5")
    assert "0:EXECUTED" in text and s["passed"] == 1


# ------------------------------------------------------------ checks that fail

def test_a_wrong_result_fails(monkeypatch):
    real = D.read

    def off_by_one(mem):
        got = real(mem)
        got.flat[got.size // 2] += 1
        return got
    monkeypatch.setattr(D, "read", off_by_one)
    rc, text, s = bench("--conv", "--dir=FWD_B,BWD_D,BWD_WB", "ic3ih5oc4kh3",
                        "--eltwise", "--alg=tanh", "2x8x3",
                        "--rnn", "--alg=VANILLA_LSTM", "--trivial-strides=true", "l1t2sic8")
    assert rc == 1 and s["failed"] == s["tests"] == 5, text
    assert "Failed cases summary" in text and "(errors:1 total:" in text


def test_a_wrong_reference_fails(monkeypatch):
    real = ref_conv.conv_fwd
    monkeypatch.setattr(ref_conv, "conv_fwd", lambda *a, **k: real(*a, **k) * 2)
    rc, text, s = bench("--conv", "ic3ih5oc4kh3")
    assert rc == 1 and s["failed"] == 1, text


def test_padding_must_stay_zero():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = dnnl.memory.desc([2, 3, 4], dnnl.memory.data_type.f32, dnnl.memory.format_tag.aBc8b)
    mem = dnnl.memory(md, eng)
    D.write(mem, np.ones((2, 3, 4)))
    assert not D.check_padding(mem)
    raw = np.frombuffer(mem.get_data_handle(), dtype=np.float32)
    raw[raw.size - 1] = 5.0                        # channel 7 of the last block
    assert D.check_padding(mem)


def test_mistrusted_when_mostly_zeros():
    rc, text, s = bench("--eltwise", "--alg=linear", "--alpha=0", "--beta=0", "4x64")
    assert s["passed"] == 1                        # linear with alpha 0: zeros are trusted
    rc, text, s = bench("--eltwise", "--dir=BWD_D", "--alg=hardsigmoid", "--alpha=-2",
                        "--beta=3", "16x16x2x1")
    assert s["mistrusted"] == 1 and rc == 0, text


# ------------------------------------------------------------ bad input

@pytest.mark.parametrize("args,message", [
    (["--conv", "--attr-post-ops=relu", "ic3ih5oc4kh3"], "'--attr-post-ops' is not supported"),
    (["--reorder", "--oflag=s8s8_comp:1", "2x3"], "'--oflag' is not supported"),
    (["--conv", "--nonsense=1", "ic3ih5oc4kh3"], "unknown option '--nonsense=1'"),
    (["--conv", "--dir=BWD_DW", "ic3ih5oc4kh3"], "--dir=BWD_DW"),
    (["--conv", "--dt=f32:f32", "ic3ih5oc4kh3"], "three inputs"),
    (["--conv", "ic3ih5kh3"], "`oc`"),
    (["--mode=B", "--conv", "ic3ih5oc4kh3"], "--mode=B is not supported"),
    (["--engine=gpu", "--conv", "ic3ih5oc4kh3"], "only cpu engines"),
    (["--conv", "--batch=no_such_file"], "cannot open file no_such_file"),
    (["--conv", "--stag=badc", "ic3ih5oc4kh3"], "allow-enum-tags-only"),
    (["--rnn", "--flags=X", "l1t1sic8"], "--flags option doesn't support value 'X'"),
    (["ic3ih5oc4kh3"], "can't parse the driver name"),
])
def test_bad_input_stops_with_a_message(args, message):
    rc, text, s = bench(*args)
    assert rc == 2 and message in text and s is None, text


def test_python_dash_m():
    # the installed package (or PYTHONPATH's), not the source tree's uncompiled one
    r = subprocess.run([sys.executable, "-m", "dnnl.benchdnn", "--pool", "--alg=max",
                        "mb1ic4ih6kh2sh2"], capture_output=True, text=True, cwd=HERE,
                       timeout=300)
    assert r.returncode == 0 and "tests:1 passed:1 skipped:0" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "dnnl.benchdnn"], capture_output=True, text=True,
                       cwd=HERE, timeout=300)
    assert r.returncode == 1 and "no arguments" in r.stdout


def test_help():
    rc, text, s = bench("--help")
    assert rc == 0 and text.startswith("usage: python -m dnnl.benchdnn") and "--rnn" in text
