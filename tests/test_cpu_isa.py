"""oneDNN's ISA controls: the ISA detected on this CPU, the limit
(ONEDNN_MAX_CPU_ISA, DNNL_MAX_CPU_ISA, dnnl_set_max_cpu_isa), the hints,
their set-once rule, and bf16 at every ISA level. A process fixes the limit
and the hints when it first reads them, so most cases run in a fresh
interpreter."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from helpers import bf16_round, make_md, make_memory, reorder

HERE = os.path.dirname(os.path.abspath(__file__))
SWITCHES = ("ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA", "ONEDNN_CPU_ISA_HINTS",
            "DNNL_CPU_ISA_HINTS", "CYDNNL_BF16_UNIMPLEMENTED")


def run(code, **env):
    """Runs `code` in a fresh interpreter (in tests/, with none of SWITCHES
    but those given) and returns what its last line printed, as JSON."""
    e = {k: v for k, v in os.environ.items() if k not in SWITCHES}
    e.update(env)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True, env=e, cwd=HERE, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------ a model of the CPU

# oneDNN's levels, highest first (the order its dispatcher tries them).
ORDER = ["avx10_2_amx_2", "avx10_2", "avx10_1_512_amx_fp16", "avx10_1_512_amx", "avx10_1_512",
         "avx512_core_bf16", "avx512_core_vnni", "avx512_core", "avx2_vnni_2", "avx2_vnni",
         "avx2", "avx", "sse41"]
# The partial order of dnnl.h (dnnl_set_max_cpu_isa): the levels right below
# each. AVX2_VNNI_2 < AVX10_2 is not in that list; oneDNN's ISA bits say so.
BELOW = {"sse41": [], "avx": ["sse41"], "avx2": ["avx"], "avx2_vnni": ["avx2"],
         "avx2_vnni_2": ["avx2_vnni"], "avx512_core": ["avx2"],
         "avx512_core_vnni": ["avx512_core"], "avx512_core_bf16": ["avx512_core_vnni"],
         "avx10_1_512": ["avx512_core_bf16", "avx2_vnni"],
         "avx10_1_512_amx": ["avx10_1_512"], "avx10_1_512_amx_fp16": ["avx10_1_512_amx"],
         "avx10_2": ["avx10_1_512", "avx2_vnni_2"],
         "avx10_2_amx_2": ["avx10_1_512_amx_fp16", "avx10_2"]}
# ONEDNN_MAX_CPU_ISA's names for the levels, with oneDNN's aliases.
ENV_NAME = {"AVX512_CORE_FP16": "avx10_1_512", "AVX512_CORE_AMX": "avx10_1_512_amx",
            "AVX512_CORE_AMX_FP16": "avx10_1_512_amx_fp16", "AVX10_2_512": "avx10_2",
            "AVX10_2_512_AMX_2": "avx10_2_amx_2"}
ENV_NAME.update({n.upper(): n for n in ORDER})


def allowed(limit):
    """The levels a limit allows: itself and every level below it."""
    out, todo = set(), [limit]
    while todo:
        level = todo.pop()
        if level not in out:
            out.add(level)
            todo += BELOW[level]
    return out


def cpu_levels():
    """The levels this CPU supports, from the flags Linux reports (which
    also require the OS to save the registers)."""
    try:
        text = open("/proc/cpuinfo").read()
    except OSError:
        pytest.skip("needs /proc/cpuinfo")
    line = next((ln for ln in text.splitlines() if ln.startswith("flags")), None)
    if line is None:
        pytest.skip("/proc/cpuinfo has no flags line (not x86)")
    f = set(line.split(":", 1)[1].split())
    if any(x.startswith(("avx10", "apx")) for x in f):
        pytest.skip("AVX10.2 detection is not modelled from /proc/cpuinfo")
    has = {"sse41": "sse4_1" in f, "avx": "avx" in f}
    has["avx2"] = has["avx"] and {"avx2", "fma"} <= f
    has["avx2_vnni"] = has["avx2"] and "avx_vnni" in f
    has["avx2_vnni_2"] = has["avx2_vnni"] and {"avx_vnni_int8", "avx_ne_convert"} <= f
    has["avx512_core"] = {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= f
    has["avx512_core_vnni"] = has["avx512_core"] and "avx512_vnni" in f
    has["avx512_core_bf16"] = has["avx512_core_vnni"] and "avx512_bf16" in f
    has["avx10_1_512"] = has["avx512_core_bf16"] and has["avx2_vnni"] and "avx512_fp16" in f
    has["avx10_1_512_amx"] = has["avx10_1_512"] and {"amx_tile", "amx_int8", "amx_bf16"} <= f
    has["avx10_1_512_amx_fp16"] = has["avx10_1_512_amx"] and "amx_fp16" in f
    has["avx10_2"] = has["avx10_2_amx_2"] = False
    return {level for level, ok in has.items() if ok}


def expected(limit=None):
    """The dnnl_cpu_isa_t value the library should run at under `limit`."""
    levels = cpu_levels()
    ok = allowed(limit) if limit else set(ORDER)
    return next((getattr(c, "dnnl_cpu_isa_" + n) for n in ORDER if n in levels and n in ok),
                c.dnnl_cpu_isa_default)


EFFECTIVE = "import json, dnnl_c as c; print(json.dumps(c.dnnl_get_effective_cpu_isa()))"


# ------------------------------------------------------------ enums

def test_enum_values_are_onednns():
    want = {"default": 0x0, "sse41": 0x1, "avx": 0x3, "avx2": 0x7, "avx2_vnni": 0xf,
            "avx2_vnni_2": 0x1f, "avx512_core": 0x27, "avx512_core_vnni": 0x67,
            "avx512_core_bf16": 0xe7, "avx10_1_512": 0x1ef, "avx512_core_fp16": 0x1ef,
            "avx10_1_512_amx": 0xfef, "avx512_core_amx": 0xfef,
            "avx10_1_512_amx_fp16": 0x1fef, "avx512_core_amx_fp16": 0x1fef,
            "avx10_2": 0x201ff, "avx10_2_512": 0x201ff, "avx10_2_amx_2": 0x22fff,
            "avx10_2_512_amx_2": 0x22fff}
    assert {n: getattr(c, "dnnl_cpu_isa_" + n) for n in want} == want
    assert set(c.ENUMS["dnnl_cpu_isa_t"]) == {"dnnl_cpu_isa_" + n for n in want}
    assert (c.dnnl_cpu_isa_no_hints, c.dnnl_cpu_isa_prefer_ymm) == (0, 1)
    # dnnl.hpp's names; aliases are the same member
    assert dnnl.cpu_isa.isa_default == 0 and dnnl.cpu_isa.avx512_core_bf16 == 0xe7
    for n, v in want.items():
        if n != "default":
            assert dnnl.cpu_isa[n] == v
    assert dnnl.cpu_isa.avx512_core_fp16 is dnnl.cpu_isa.avx10_1_512
    assert dnnl.cpu_isa.avx10_2_512_amx_2 is dnnl.cpu_isa.avx10_2_amx_2
    assert [(h.name, h.value) for h in dnnl.cpu_isa_hints] == [("no_hints", 0),
                                                                ("prefer_ymm", 1)]


# ------------------------------------------------------------ detection and the limit

@pytest.mark.parametrize("limit", [None, "SSE41", "AVX", "AVX2", "AVX2_VNNI", "AVX2_VNNI_2",
                                   "AVX512_CORE", "AVX512_CORE_VNNI", "AVX512_CORE_BF16",
                                   "AVX10_1_512", "AVX512_CORE_FP16", "AVX512_CORE_AMX",
                                   "AVX10_1_512_AMX_FP16", "AVX10_2_512", "AVX10_2_AMX_2"])
def test_effective_isa_is_the_highest_the_cpu_and_the_limit_allow(limit):
    env = {"ONEDNN_MAX_CPU_ISA": limit} if limit else {}
    assert run(EFFECTIVE, **env) == expected(ENV_NAME[limit] if limit else None)


def test_this_machine_runs_at_its_highest_level():
    # an AVX-512 bf16 CPU without AMX (the development machine) ends at
    # avx512_core_bf16; the limit then lowers it step by step
    levels = cpu_levels()
    if "avx512_core_bf16" not in levels or "avx10_1_512" in levels:
        pytest.skip("not an AVX-512 bf16 CPU without AVX512-FP16")
    assert run(EFFECTIVE) == c.dnnl_cpu_isa_avx512_core_bf16
    assert run(EFFECTIVE, ONEDNN_MAX_CPU_ISA="AVX2") == c.dnnl_cpu_isa_avx2


@pytest.mark.parametrize("env,limit", [
    ({"ONEDNN_MAX_CPU_ISA": "avx2"}, "avx2"),
    ({"ONEDNN_MAX_CPU_ISA": "Avx512_Core_Vnni"}, "avx512_core_vnni"),
    ({"DNNL_MAX_CPU_ISA": "AVX2"}, "avx2"),
    ({"DNNL_MAX_CPU_ISA": "sse41"}, "sse41"),
    # ONEDNN_ first; an empty one counts as unset
    ({"ONEDNN_MAX_CPU_ISA": "SSE41", "DNNL_MAX_CPU_ISA": "AVX2"}, "sse41"),
    ({"ONEDNN_MAX_CPU_ISA": "", "DNNL_MAX_CPU_ISA": "AVX"}, "avx"),
    # unknown values are ignored, as oneDNN ignores them
    ({"ONEDNN_MAX_CPU_ISA": "AVX3"}, None),
    ({"ONEDNN_MAX_CPU_ISA": "AVX2 "}, None),
    ({"ONEDNN_MAX_CPU_ISA": "AVX2" * 40}, None),
    ({"ONEDNN_MAX_CPU_ISA": "DEFAULT"}, None),
    ({"ONEDNN_MAX_CPU_ISA": "ALL"}, None),
])
def test_limit_from_the_environment(env, limit):
    assert run(EFFECTIVE, **env) == expected(limit)


SET_ONCE = """
    import json, dnnl_c as c
    r = {}
    r["first"] = c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_avx2)
    r["second"] = c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_sse41)
    r["why"] = c.cydnnl_last_error()
    r["effective"] = c.dnnl_get_effective_cpu_isa()
    print(json.dumps(r))
"""


def test_set_max_cpu_isa_works_once_before_dispatch():
    r = run(SET_ONCE)
    assert (r["first"], r["second"]) == (c.dnnl_success, c.dnnl_invalid_arguments)
    assert "already set" in r["why"]
    assert r["effective"] == expected("avx2")


def test_set_max_cpu_isa_overrides_the_environment():
    assert run(SET_ONCE, ONEDNN_MAX_CPU_ISA="SSE41")["effective"] == expected("avx2")
    r = run("""
        import json, dnnl_c as c
        st = c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_default)
        print(json.dumps([st, c.dnnl_get_effective_cpu_isa()]))
    """, ONEDNN_MAX_CPU_ISA="SSE41")
    assert r == [c.dnnl_success, expected()]


def test_engines_and_memories_leave_the_limit_settable():
    r = run("""
        import json, dnnl_c as c
        from helpers import make_md, make_memory
        eng = c.dnnl_engine_t()
        c.dnnl_engine_create(eng, c.dnnl_cpu, 0)
        make_memory(make_md([2, 3], c.dnnl_bf16, c.dnnl_ab), eng)
        print(json.dumps([c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_avx),
                          c.dnnl_get_effective_cpu_isa()]))
    """)
    assert r == [c.dnnl_success, expected("avx")]


PD_THEN_SET = """
    import json, dnnl_c as c
    from helpers import make_md
    eng = c.dnnl_engine_t()
    c.dnnl_engine_create(eng, c.dnnl_cpu, 0)
    md = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    pd = c.dnnl_primitive_desc_t()
    st = c.dnnl_eltwise_forward_primitive_desc_create(
        pd, eng, c.dnnl_forward_training, c.dnnl_eltwise_relu, md, md, 0.0, 0.0, None)
    r = [st, c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_sse41), c.cydnnl_last_error(),
         c.dnnl_set_cpu_isa_hints(c.dnnl_cpu_isa_prefer_ymm), c.dnnl_get_effective_cpu_isa(),
         c.dnnl_get_cpu_isa_hints()]
    print(json.dumps(r))
"""


def test_the_first_primitive_descriptor_fixes_the_limit_and_the_hints():
    st, set_isa, why, set_hints, effective, hints = run(PD_THEN_SET)
    assert st == c.dnnl_success
    # oneDNN: invalid_arguments for the limit, runtime_error for the hints
    assert set_isa == c.dnnl_invalid_arguments and "primitive descriptor" in why
    assert set_hints == c.dnnl_runtime_error
    assert (effective, hints) == (expected(), c.dnnl_cpu_isa_no_hints)
    # the environment's limit stays
    assert run(PD_THEN_SET, ONEDNN_MAX_CPU_ISA="AVX2")[4] == expected("avx2")


def test_reading_the_effective_isa_fixes_the_limit():
    r = run("""
        import json, dnnl_c as c
        first = c.dnnl_get_effective_cpu_isa()
        print(json.dumps([first, c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_sse41),
                          c.dnnl_get_effective_cpu_isa()]))
    """)
    assert r == [expected(), c.dnnl_invalid_arguments, expected()]


def test_invalid_values_are_refused_and_leave_the_limit_settable():
    r = run("""
        import json, dnnl_c as c
        bad = [2, 0x5, 0xe6, 0xe7 | 0x100, 0x201fe, 0x3fff, -1, 2 ** 31 - 1, 2 ** 40,
               "avx2", None, 1.5]
        r = [c.dnnl_set_max_cpu_isa(v) for v in bad]
        r.append(c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_avx512_core))
        r.append(c.dnnl_get_effective_cpu_isa())
        print(json.dumps(r))
    """)
    assert r[:-2] == [c.dnnl_invalid_arguments] * 12
    assert r[-2:] == [c.dnnl_success, expected("avx512_core")]


def test_every_level_and_alias_is_accepted():
    for name in sorted(c.ENUMS["dnnl_cpu_isa_t"]):
        code = ("import json, dnnl_c as c; print(json.dumps([c.dnnl_set_max_cpu_isa(c.%s), "
                "c.dnnl_get_effective_cpu_isa()]))" % name)
        level = name[len("dnnl_cpu_isa_"):]
        want = expected(ENV_NAME.get(level.upper()) if level != "default" else None)
        assert run(code) == [c.dnnl_success, want], name


# ------------------------------------------------------------ hints

def test_hints_set_once_before_they_are_read():
    r = run("""
        import json, dnnl_c as c
        print(json.dumps([c.dnnl_set_cpu_isa_hints(2), c.dnnl_set_cpu_isa_hints(-1),
                          c.dnnl_set_cpu_isa_hints("prefer_ymm"),
                          c.dnnl_set_cpu_isa_hints(c.dnnl_cpu_isa_prefer_ymm),
                          c.dnnl_set_cpu_isa_hints(c.dnnl_cpu_isa_no_hints),
                          c.dnnl_get_cpu_isa_hints()]))
    """)
    assert r == [c.dnnl_invalid_arguments] * 3 + [c.dnnl_success, c.dnnl_runtime_error,
                                                   c.dnnl_cpu_isa_prefer_ymm]
    r = run("""
        import json, dnnl_c as c
        print(json.dumps([c.dnnl_get_cpu_isa_hints(),
                          c.dnnl_set_cpu_isa_hints(c.dnnl_cpu_isa_prefer_ymm),
                          c.dnnl_get_cpu_isa_hints()]))
    """)
    assert r == [c.dnnl_cpu_isa_no_hints, c.dnnl_runtime_error, c.dnnl_cpu_isa_no_hints]


@pytest.mark.parametrize("env,want", [
    ({"ONEDNN_CPU_ISA_HINTS": "PREFER_YMM"}, c.dnnl_cpu_isa_prefer_ymm),
    ({"DNNL_CPU_ISA_HINTS": "prefer_ymm"}, c.dnnl_cpu_isa_prefer_ymm),
    ({"ONEDNN_CPU_ISA_HINTS": "NO_HINTS", "DNNL_CPU_ISA_HINTS": "PREFER_YMM"},
     c.dnnl_cpu_isa_no_hints),
    ({"ONEDNN_CPU_ISA_HINTS": "prefer_zmm"}, c.dnnl_cpu_isa_no_hints),
])
def test_hints_from_the_environment(env, want):
    assert run("import json, dnnl_c as c; print(json.dumps(c.dnnl_get_cpu_isa_hints()))",
               **env) == want


# ------------------------------------------------------------ the object layer

def test_object_layer():
    r = run("""
        import json, dnnl
        out = {}
        dnnl.set_cpu_isa_hints(dnnl.cpu_isa_hints.prefer_ymm)
        dnnl.set_max_cpu_isa(dnnl.cpu_isa.avx2)
        eff, hints = dnnl.get_effective_cpu_isa(), dnnl.get_cpu_isa_hints()
        out["types"] = [type(eff).__name__, type(hints).__name__]
        out["values"] = [int(eff), int(hints)]
        for name, call in [("isa", lambda: dnnl.set_max_cpu_isa(dnnl.cpu_isa.sse41)),
                           ("hints", lambda: dnnl.set_cpu_isa_hints(0)),
                           ("bad", lambda: dnnl.set_max_cpu_isa(5))]:
            try:
                call()
                out[name] = None
            except dnnl.error as e:
                out[name] = [e.status, e.message]
        print(json.dumps(out))
    """)
    assert r["types"] == ["cpu_isa", "cpu_isa_hints"]
    assert r["values"] == [expected("avx2"), c.dnnl_cpu_isa_prefer_ymm]
    assert r["isa"][0] == c.dnnl_invalid_arguments and "could not set max cpu isa" in r["isa"][1]
    assert r["hints"][0] == c.dnnl_runtime_error
    assert r["bad"][0] == c.dnnl_invalid_arguments and "not a dnnl_cpu_isa_t" in r["bad"][1]


def test_isa_descriptions():
    assert c.cydnnl_cpu_isa_info(c.dnnl_cpu_isa_avx2) == "Intel AVX2"
    assert c.cydnnl_cpu_isa_info(c.dnnl_cpu_isa_avx512_core_bf16) == \
        "Intel AVX-512 with Intel DL Boost and bfloat16 support"
    assert c.cydnnl_cpu_isa_info(c.dnnl_cpu_isa_default) == "Intel 64"


# ------------------------------------------------------------ for implementations

@pytest.fixture(scope="module")
def isa_module(tmp_path_factory):
    from cython_build import build
    return build("cpu_isa_test", str(tmp_path_factory.mktemp("cython")))


@pytest.mark.parametrize("limit", [None, "AVX2", "AVX512_CORE"])
def test_cpu_isa_has_is_onednns_mayiuse(isa_module, limit):
    """What an implementation's init sees through dnnl_c.core: cpu_isa_has
    answers per level (levels are only partially ordered), cpu_isa_detected
    ignores the limit."""
    code = """
        import json, sys
        sys.path.insert(0, %r)
        import dnnl_c as c, cpu_isa_test as t
        levels = sorted(v for k, v in c.ENUMS["dnnl_cpu_isa_t"].items())
        print(json.dumps([t.detected(), t.effective(), c.dnnl_get_effective_cpu_isa(),
                          {str(v): t.has(v) for v in levels}]))
    """ % os.path.dirname(isa_module.__file__)
    detected, effective, c_effective, has = run(code, **(
        {"ONEDNN_MAX_CPU_ISA": limit} if limit else {}))
    assert detected == expected()
    assert effective == c_effective == expected(ENV_NAME[limit] if limit else None)
    ok = allowed(ENV_NAME[limit]) if limit else set(ORDER)
    want = {str(getattr(c, "dnnl_cpu_isa_" + n)): n in cpu_levels() and n in ok for n in ORDER}
    want["0"] = True
    assert has == want


# ------------------------------------------------------------ bf16 at every level

BF16_WORK = """
    import json, numpy as np, dnnl
    from dnnl import memory, prop_kind
    from dnnl.benchdnn.ref_conv import conv_fwd
    from helpers import bf16_round
    dt, tag = memory.data_type, memory.format_tag
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    rng = np.random.default_rng(0)
    out = {"effective": dnnl.get_effective_cpu_isa()}

    x = bf16_round(rng.uniform(-2, 2, (2, 19, 5, 3)).astype(np.float32))
    src = memory(memory.desc(list(x.shape), dt.bf16, tag.nchw), eng)
    src.write(x)
    pd = dnnl.eltwise_forward.primitive_desc(
        eng, prop_kind.forward_inference, dnnl.algorithm.eltwise_tanh, src.get_desc(),
        src.get_desc(), 0.0, 0.0)
    dst = memory(pd.dst_desc(), eng)
    dnnl.eltwise_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    want = bf16_round(np.tanh(x.astype(np.float64)).astype(np.float32))
    out["eltwise_ulps"] = float(np.max(np.abs(dst.read(np.float32) - want)
                                       / np.maximum(np.abs(want), 2.0 ** -126)) * 2 ** 8)

    s = bf16_round(rng.uniform(-1, 1, (2, 5, 7, 6)).astype(np.float32))
    w = bf16_round(rng.uniform(-1, 1, (4, 5, 3, 3)).astype(np.float32))
    md = lambda shape, d: memory.desc(list(shape), d, tag.any)
    cpd = dnnl.convolution_forward.primitive_desc(
        eng, prop_kind.forward_inference, dnnl.algorithm.convolution_direct,
        md(s.shape, dt.bf16), md(w.shape, dt.bf16), md((2, 4, 5, 4), dt.f32),
        [1, 1], [0, 0], [0, 0])
    sm, wm, dm = memory(cpd.src_desc(), eng), memory(cpd.weights_desc(), eng), \\
        memory(cpd.dst_desc(), eng)
    sm.write(s)
    wm.write(w)
    dnnl.convolution_forward(cpd).execute(strm, {dnnl.DNNL_ARG_SRC: sm,
                                                 dnnl.DNNL_ARG_WEIGHTS: wm,
                                                 dnnl.DNNL_ARG_DST: dm})
    ref = conv_fwd(s, w, None, [1, 1], [0, 0], [0, 0], [0, 0])
    out["conv_error"] = float(np.max(np.abs(dm.read(np.float32) - ref)))
    out["conv_impl"] = cpd.impl_info_str()
    print(json.dumps(out))
"""


@pytest.mark.parametrize("limit", ["SSE41", "AVX2", None])
def test_bf16_computes_under_every_limit(limit):
    r = run(BF16_WORK, **({"ONEDNN_MAX_CPU_ISA": limit} if limit else {}))
    assert r["effective"] == expected(ENV_NAME[limit] if limit else None)
    # tanh: one rounding to bf16 (at most one ulp at a tie); the convolution
    # accumulates exact bf16 products in f32
    assert r["eltwise_ulps"] <= 1.0
    assert r["conv_error"] < 1e-5, r["conv_impl"]


# ------------------------------------------------------------ the project switch

def test_bf16_switch_makes_bf16_compute_unimplemented(eng, strm, monkeypatch):
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "1")
    bmd = make_md([2, 16, 4, 4], c.dnnl_bf16, c.dnnl_nchw)
    fmd = make_md([2, 16, 4, 4], c.dnnl_f32, c.dnnl_nchw)
    pd = c.dnnl_primitive_desc_t()
    for data in (bmd, fmd):
        st = c.dnnl_eltwise_forward_primitive_desc_create(
            pd, eng, c.dnnl_forward_training, c.dnnl_eltwise_relu, data, data, 0.0, 0.0, None)
        if data is fmd:
            assert st == c.dnnl_success
            c.dnnl_primitive_desc_destroy(pd)
        else:
            assert st == c.dnnl_unimplemented
            assert "CYDNNL_BF16_UNIMPLEMENTED" in c.cydnnl_last_error()
    assert c.dnnl_lrn_forward_primitive_desc_create(
        pd, eng, c.dnnl_forward_training, c.dnnl_lrn_across_channels, bmd, bmd, 5, 1e-4,
        0.75, 1.0, None) == c.dnnl_unimplemented
    assert c.dnnl_pooling_forward_primitive_desc_create(
        pd, eng, c.dnnl_forward_training, c.dnnl_pooling_max, bmd,
        make_md([2, 16, 2, 2], c.dnnl_bf16, c.dnnl_nchw), [2, 2], [2, 2], [0, 0], [0, 0],
        [0, 0], None) == c.dnnl_unimplemented
    # reorders still convert, rounding as oneDNN does
    x = np.random.default_rng(1).standard_normal((2, 16, 4, 4)).astype(np.float32)
    dst = make_memory(make_md([2, 16, 4, 4], c.dnnl_bf16, c.dnnl_nChw16c), eng)
    src = make_memory(fmd, eng, x)
    back = np.zeros_like(x)
    out = make_memory(fmd, eng, back)
    bblk = make_md([2, 16, 4, 4], c.dnnl_bf16, c.dnnl_nChw16c)
    reorder(eng, strm, fmd, src, bblk, dst)
    reorder(eng, strm, bblk, dst, fmd, out)
    np.testing.assert_array_equal(back, bf16_round(x))
    # the switch is read at each creation: off again, bf16 works
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "0")
    assert c.dnnl_eltwise_forward_primitive_desc_create(
        pd, eng, c.dnnl_forward_training, c.dnnl_eltwise_relu, bmd, bmd, 0.0, 0.0,
        None) == c.dnnl_success
    c.dnnl_primitive_desc_destroy(pd)
