"""Verbose output in oneDNN 3.13's format. The examples' logs go through
oneDNN's own scripts/verbose_converter (tests/verbose_converter/) and give the
same benchdnn problems as the real oneDNN 3.13's logs of the same programs
(tests/data/verbose/, made by make_reference_logs.sh); the header, the memory
descriptors, each family's problem string, the levels and variables, and
dnnl_set_verbose are checked line by line. Every case runs in a process of
its own: the settings are read once per process."""

import os
import re
import subprocess
import sys

import pytest

import dnnl_c as c

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONVERTER = os.path.join(HERE, "verbose_converter", "verbose_converter.py")
REFERENCE = os.path.join(HERE, "data", "verbose")
EXAMPLES = {
    "cpu_cnn_training_f32": ("c_style", []),        # 10 iterations, as the C program
    "cnn_training_bf16": ("cpp_style", []),
    "rnn_training_f32": ("cpp_style", []),
}
PREFIX = "onednn_verbose,v1,"
TEMPLATE = ("operation,engine,primitive,implementation,prop_kind,memory_descriptors,"
            "attributes,auxiliary,problem_desc,exec_time")
# benchdnn options that describe layouts: ours may differ (our `any` chooses its own)
LAYOUT_OPTIONS = ("--tag", "--stag", "--wtag", "--dtag", "--strides", "--trivial-strides")


def environment(**settings):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ONEDNN_", "DNNL_")) and k != "CYDNNL_BF16_UNIMPLEMENTED"}
    env["OMP_NUM_THREADS"] = "2"
    env.update({k: v for k, v in settings.items() if v is not None})
    return env


def run(args, **settings):
    out = subprocess.run([sys.executable] + args, cwd=HERE, env=environment(**settings),
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def case(name, **settings):
    """The stdout of verbose_cases.py NAME under the settings."""
    return run([os.path.join(HERE, "verbose_cases.py"), name], **settings)


def lines(out, what=None):
    """The verbose lines but the header's (without the prefix); `what`: only
    those whose operation (the field after primitive/common) starts with it."""
    got = [ln[len(PREFIX):] for ln in out.splitlines() if ln.startswith(PREFIX)]
    got = [ln for ln in got if "info" not in ln.split(",")[:2]]
    if what is not None:
        got = [ln for ln in got if ln.split(",")[1].startswith(what)]
    return got


def convert(text, event, tmp_path):
    """oneDNN's converter on a log: the benchdnn lines of one event kind;
    fails on any warning (a line it could not parse) or error."""
    log = tmp_path / ("log_%s.txt" % event)
    log.write_text(text)
    out = subprocess.run([sys.executable, CONVERTER, "-i", str(log), "-e", event],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stderr == "", out.stderr[-3000:]
    return [ln for ln in out.stdout.splitlines() if ln.strip()]


def problem(line):
    """A benchdnn line without its layout options: driver, direction,
    algorithm, data types, the other options, the problem string."""
    words = line.split()
    return " ".join(w for w in words if not w.startswith(LAYOUT_OPTIONS))


def by_driver(benchdnn):
    ops = [problem(ln) for ln in benchdnn if not ln.startswith("--reorder")]
    reorders = [problem(ln) for ln in benchdnn if ln.startswith("--reorder")]
    return ops, reorders


# ------------------------------------------------------------ the examples


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_examples_give_the_real_onednn_problems(example, tmp_path):
    """Our log of each example and the real oneDNN 3.13's log of the same
    program convert without a warning into the same primitives, in the same
    order, for creation and for execution: same driver, direction,
    algorithm, data types and problem string. Layouts, and so the reorders
    between them, may differ; ours must convert too, and convert exact."""
    style, argv = EXAMPLES[example]
    ours = run([os.path.join(ROOT, "examples", style, example + ".py")] + argv,
               ONEDNN_VERBOSE="profile_create,profile_exec")
    with open(os.path.join(REFERENCE, "onednn313_%s.log" % example)) as f:
        theirs = f.read()
    for event in ("exec", "create"):
        our_ops, our_reorders = by_driver(convert(ours, event, tmp_path))
        ref_ops, _ = by_driver(convert(theirs, event, tmp_path))
        assert our_ops == ref_ops, (event, our_ops, ref_ops)
        assert len(lines(ours, event)) == len(our_ops) + len(our_reorders)
    # each create has its exec lines: the examples execute every primitive
    assert len(lines(ours, "create")) <= len(lines(ours, "exec"))
    # byte for byte, the lines agree but where implementations choose: the
    # engine, kind, prop kind, attributes, auxiliary field and problem, and
    # each md's name and data type (not its layout); reorders aside
    assert same_fields(ours) == same_fields(theirs)


def same_fields(log):
    out = []
    for ln in lines(log, "exec"):
        f = ln.split(",")
        if f[3] != "reorder":
            mds = " ".join(":".join(m.split(":")[:2]) for m in f[6].split())
            out.append((f[2], f[3], f[5], mds, f[7], f[8], f[9]))
    return out


def test_converter_reads_timestamps(tmp_path):
    """ONEDNN_VERBOSE_TIMESTAMP=1: the start time (ms since the epoch) after
    the version, and `timestamp,` in the template; the converter reads it."""
    out = case("eltwise", ONEDNN_VERBOSE="1", ONEDNN_VERBOSE_TIMESTAMP="1")
    assert "onednn_verbose,v1,primitive,info,template:timestamp," + TEMPLATE in out
    exec_line, = [ln for ln in out.splitlines() if ",primitive,exec," in ln]
    stamp = float(exec_line.split(",")[2])
    import time
    assert abs(stamp - time.time() * 1e3) < 600e3
    bench, = convert(out, "exec", tmp_path)
    assert bench.startswith("--eltwise") and bench.endswith(" 2x3x4x5"), bench


# ------------------------------------------------------------ the format


def test_header():
    """oneDNN's info header before the first line: version, CPU runtime and
    threads, the ISA it runs at, the GPU runtime, the template."""
    out = [ln for ln in case("eltwise", ONEDNN_VERBOSE="1", ONEDNN_MAX_CPU_ISA="sse41")
           .splitlines() if ln.startswith(PREFIX)]
    v = c.dnnl_version()
    runtime = {1: "sequential", 2: "OpenMP"}[v.cpu_runtime]
    assert out[:5] == [
        PREFIX + "info,oneDNN v%d.%d.%d (commit %s)" % (v.major, v.minor, v.patch, v.hash),
        PREFIX + "info,cpu,runtime:%s,nthr:%d" % (runtime, 2 if runtime == "OpenMP" else 1),
        PREFIX + "info,cpu,isa:Intel SSE4.1",
        PREFIX + "info,gpu,runtime:none",
        PREFIX + "primitive,info,template:" + TEMPLATE]
    assert v.major == 3 and v.minor == 13


def test_exec_and_create_lines():
    out = case("eltwise", ONEDNN_VERBOSE="2")
    impl = re.search(r"^IMPL (\S+)$", out, re.M).group(1)
    info = ("cpu,eltwise,%s,forward_training,data:f32::blocked:abcd::f0,,"
            "alg:eltwise_relu alpha:0.5 beta:0,2x3x4x5" % impl)
    create, = lines(out, "create")
    exec_, = lines(out, "exec")
    assert re.fullmatch(r"primitive,create:cache_(miss|hit),%s,[0-9.e+-]+" % re.escape(info),
                        create), create
    assert re.fullmatch(r"primitive,exec,%s,[0-9.e+-]+" % re.escape(info), exec_), exec_


def test_memory_descriptors():
    """md2fmt_str: p for padded dims, 0 for an offset, strides where the
    layout is not dense, the dims ordered by stride (ties by outer size)."""
    reorders = [ln.split(",") for ln in lines(case("mds", ONEDNN_VERBOSE="1"), "exec")]
    assert [(f[6], f[9]) for f in reorders] == [
        ("src:f32::blocked:abcd::f0 dst:f32:p:blocked:aBcd16b::f0", "2x3x4x5"),
        ("src:f32:0:blocked:abcd:160x20x5x1:f0 dst:f32::blocked:abcd::f0", "2x3x4x5"),
        ("src:bf16::blocked:abcd::f0 dst:f32::blocked:acdb::f0", "2x3x4x5"),
        ("src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0", "2x1x4x5")]
    assert all(f[5] == "undef" and f[7] == "" and f[8] == "" for f in reorders)


# kind, prop_kind, mds, attributes, auxiliary, problem (impl names vary by CPU)
PROBLEMS = [
    ("convolution", "forward_training", "src:f32::blocked:abcd::f0 wei:f32::blocked:abcde::f0 "
     "bia:f32::blocked:a::f0 dst:f32::blocked:abcd::f0", "", "alg:convolution_direct",
     "g2mb2_ic4oc6_ih9oh4kh3sh2dh1ph1_iw9ow4kw3sw2dw1pw1"),
    ("convolution", "forward_inference", "src:f32::blocked:abc::f0 wei:f32::blocked:abc::f0 "
     "bia:undef::undef::: dst:f32::blocked:abc::f0", "", "alg:convolution_direct",
     "mb1_ic2oc3_iw7ow5kw3sw1dw0pw0"),
    ("convolution", "backward_data", "src:f32::blocked:abcde::f0 wei:f32:a:blocked:abcde::f0 "
     "bia:undef::undef::: dst:f32::blocked:abcde::f0", "", "alg:convolution_direct",
     "mb1_ic2oc2_id4od4kd1sd1dd0pd0_ih4oh4kh1sh1dh0ph0_iw4ow4kw1sw1dw0pw0"),
    ("pooling", "forward_inference", "src:f32::blocked:abcde::f0 dst:f32::blocked:abcde::f0",
     "", "alg:pooling_avg_exclude_padding",
     "mb1ic2_id4od2kd2sd2dd0pd0_ih4oh2kh2sh2dh0ph0_iw4ow2kw2sw2dw0pw0"),
    ("pooling", "forward_training", "src:f32::blocked:abcd::f0 dst:f32::blocked:abcd::f0 "
     "ws:u8::blocked:abcd::f0", "", "alg:pooling_max", "mb1ic2_ih6oh3kh3sh2dh0ph1_iw6ow3kw3sw2dw0pw1"),
    ("lrn", "forward_training", "data:f32::blocked:abcd::f0", "", "alg:lrn_within_channel",
     "mb1ic3ih5iw5ls3beta0.75"),
    ("eltwise", "forward_inference", "data:f32::blocked:abcd::f0", "",
     "alg:eltwise_linear alpha:0.1 beta:-2.5", "2x3x4x5"),
    ("eltwise", "backward_data", "data:f32::blocked:abcd::f0 diff:f32::blocked:abcd::f0", "",
     "alg:eltwise_relu_use_dst_for_bwd alpha:0 beta:0", "2x3x4x5"),
    ("rnn", "forward_training", None, "",
     "alg:vanilla_lstm direction:unidirectional_left2right activation:undef flags:",
     "l1t3mb2sic5slc4dhc5dic5"),
    ("reorder", "undef", "src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0",
     "attr-scratchpad:user attr-fpmath:bf16", "", "2x3x4x5"),
]


def test_problem_strings(tmp_path):
    """Each family's line (its hook): the mds it shows, the auxiliary field
    and the problem string as benchdnn writes it; the converter reads them."""
    out = case("problems", ONEDNN_VERBOSE="profile_create")
    created = [ln.split(",") for ln in lines(out, "create")]
    assert len(created) == len(PROBLEMS)
    for f, (kind, prop, mds, attrs, aux, prb) in zip(created, PROBLEMS):
        assert f[2:4] == ["cpu", kind] and f[5] == prop, f
        assert f[7:10] == [attrs, aux, prb], f
        if mds is not None:
            assert f[6] == mds, f
    # the LSTM: layer, iter, weights (the user asked for `any`), bias; no *_iter_c
    names = [m.split(":")[0] for m in created[8][6].split()]
    assert names == ["src_layer", "src_iter", "wei_layer", "wei_iter", "bias", "dst_layer",
                     "dst_iter"]
    assert all(":a:blocked:" in m for m in created[8][6].split()[2:4])
    bench = convert(out, "create", tmp_path)
    assert [b.split()[0] for b in bench] == ["--conv"] * 3 + ["--pool"] * 2 + [
        "--lrn", "--eltwise", "--eltwise", "--rnn", "--reorder"]
    assert all(b.endswith(" " + p[5]) for b, p in zip(bench, PROBLEMS))
    assert "--dir=FWD_D" in bench[0] and "--bia-dt=f32" in bench[0]
    assert "--dir=FWD_I" in bench[1] and "--bia-dt=undef" in bench[1]
    assert "--dir=BWD_D" in bench[2] and "--alg=pooling_avg_exclude_padding" in bench[3]
    assert "--alg=WITHIN" in bench[5] and "--alpha=0.1 --beta=-2.5" in bench[6]
    assert "--prop=FWD_D" in bench[8] and bench[8].endswith(" l1t3mb2sic5slc4dhc5dic5")
    assert "--attr-scratchpad=user" in bench[9] and "--attr-fpmath=bf16" in bench[9]


def test_dispatch_lines():
    """ONEDNN_VERBOSE=dispatch: why each implementation before the chosen
    one declined, with the description it was given and who declined: the
    core for an ISA level above the limit, the family otherwise."""
    out = case("dispatch", ONEDNN_VERBOSE="dispatch", ONEDNN_MAX_CPU_ISA="sse41")
    got = lines(out)
    assert got and all(ln.startswith("primitive,create:dispatch,pooling,cpu,pooling,")
                       for ln in got)
    info = ("forward_inference,src:f32::blocked:abcd::f0 dst:f32::blocked:abcd::f0,,"
            "alg:pooling_max,mb1ic16_ih4oh2kh2sh2dh0ph0_iw4ow2kw2sw2dw0pw0,")
    for ln in got:
        impl = ln.split(",")[5]
        assert ln.split(",", 6)[6].startswith(info), ln
        if impl.endswith(":sse41"):
            assert ln.endswith(",dnnl_c/primitives/pooling"), ln
        else:
            assert "isa %s is not available" % impl.split(":")[1] in ln
            assert ln.endswith(",dnnl_c/core/primitive_desc.pyx"), ln
    assert {ln.split(",")[5] for ln in got} >= {"blocked:avx2", "blocked:sse41"}


def test_check_and_error_lines():
    """ONEDNN_VERBOSE=check: failed checks at creation (a primitive's, a
    memory descriptor's under `common`) and at execution; errors (an engine
    that does not exist) print even when ONEDNN_VERBOSE is not set."""
    got = lines(case("bad", ONEDNN_VERBOSE="check"))
    assert got == [
        "primitive,create:check,eltwise,eltwise: dst_desc differs in dim 1",
        "common,create:check,memory,memory desc: dim 1 is negative (-3)",
        "primitive,exec:check,primitive," + got[2].split(",", 3)[3]]
    assert "needs argument DNNL_ARG_DST (17)" in got[2]
    assert lines(case("bad")) == []
    err = "common,error,runtime,cpu engine index 3 out of range (1 engine)"
    assert lines(case("engine_error")) == [err]
    assert lines(case("engine_error", ONEDNN_VERBOSE="none")) == []


# ------------------------------------------------------------ levels and variables

def kinds(out):
    """Which kinds of lines a run printed."""
    return sorted({ln.split(",")[1].split(":")[0] + (":dispatch" if ":dispatch" in ln else "")
                   for ln in lines(out)})


@pytest.mark.parametrize("setting, expect", [
    (None, []), ("0", []), ("none", []),
    ("1", ["exec"]), ("2", ["create", "exec"]),
    ("profile_create", ["create"]), ("profile_exec", ["exec"]),
    ("profile", ["create", "exec"]), ("dispatch", ["create:dispatch"]),
    ("dispatch,profile_exec", ["create:dispatch", "exec"]),
    ("all", ["create", "create:dispatch", "exec"]),
    ("ALL", ["create", "create:dispatch", "exec"]),
    ("2,none", []),
])
def test_levels(setting, expect):
    out = case("eltwise", ONEDNN_VERBOSE=setting, ONEDNN_MAX_CPU_ISA="sse41")
    assert kinds(out) == expect
    assert (PREFIX + "info,oneDNN v3.13" in out) == bool(expect)


def test_dnnl_verbose_and_precedence():
    """DNNL_VERBOSE is read when ONEDNN_VERBOSE is not set; ONEDNN_ wins."""
    assert kinds(case("eltwise", DNNL_VERBOSE="1")) == ["exec"]
    assert kinds(case("eltwise", DNNL_VERBOSE="1", ONEDNN_VERBOSE="0")) == []
    assert kinds(case("eltwise", DNNL_VERBOSE="0", ONEDNN_VERBOSE="2")) == ["create", "exec"]
    assert "timestamp," in case("eltwise", DNNL_VERBOSE="1", DNNL_VERBOSE_TIMESTAMP="1")


def test_filter():
    """filter=REGEX keeps the components it names (searched, as oneDNN's
    std::regex_search) and says so in the header; a filter that names
    nothing is reported and not applied."""
    out = case("problems", ONEDNN_VERBOSE="profile_create,filter=conv")
    assert {ln.split(",")[3] for ln in lines(out, "create")} == {"convolution"}
    assert (PREFIX + "common,info,filter format is enabled, hit components: "
            "convolution,deconvolution") in out.splitlines()
    out = case("problems", ONEDNN_VERBOSE="profile_create,filter=pool|lrn")
    assert {ln.split(",")[3] for ln in lines(out, "create")} == {"pooling", "lrn"}
    out = case("problems", ONEDNN_VERBOSE="profile_create,filter=nothing_here")
    assert len(lines(out, "create")) == len(PROBLEMS)
    assert (PREFIX + "common,error,filter format is ill-formed and is not applied, error: "
            "component with name 'nothing_here' not found") in out.splitlines()


def test_set_verbose():
    """dnnl_set_verbose / dnnl.set_verbose replace the level at run time:
    2 creates and executes, 0 nothing, 1 executes; 3 is invalid and changes
    nothing."""
    out = case("set_verbose")
    sections = {}
    current = None
    for ln in out.splitlines():
        if ln.startswith("MARK "):
            current = ln[5:]
            sections[current] = []
        elif ln.startswith(PREFIX) and ",info," not in ln:
            sections[current].append(ln[len(PREFIX):].split(",")[1])
    assert sections == {"level 2": ["create:cache_miss", "exec"], "level 0": [],
                        "level 1": ["exec"], "level 3": ["exec"]}
