"""What a process runs at: the effective ISA, which kernel levels it may
use, and for each problem with per-level kernels the implementation it gets
and its error against NumPy; a reorder round trip too. Shared by
test_isa_levels.py (through isa_level_checks.py) and test_qemu_smoke.py,
which runs `python isa_probe.py` under QEMU and reads the JSON it prints.

    python isa_probe.py [--set-max LEVEL]

--set-max sets the ISA limit with dnnl_set_max_cpu_isa before anything
else, and reports what that call and a second one answered."""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dnnl  # noqa: E402
import dnnl_c as c  # noqa: E402
from dnnl.benchdnn import ref_rnn as rnn_ref  # noqa: E402
from dnnl.benchdnn.ref_conv import conv_fwd  # noqa: E402
from helpers import (bf16_round, from_layout, make_md, make_memory, memory_bytes,  # noqa: E402
                     reorder, to_layout)

# The levels our kernels are compiled for, lowest first: they are totally
# ordered, so the level an implementation family runs at under a limit is
# the highest of its kernel levels not above the limit.
LEVEL_ORDER = ("sse41", "avx2", "avx512_core", "avx512_core_bf16")

tag, dt = dnnl.memory.format_tag, dnnl.memory.data_type


def conv_problem(src_dt):
    """mb2 ic8 oc16 5x5 k3 forward inference: `src_dt` source and weights,
    f32 destination and bias, `any` layouts (the GEMM implementation's)."""
    def run(eng, strm):
        rng = np.random.default_rng(0)
        s = rng.uniform(-1, 1, (2, 8, 5, 5)).astype(np.float32)
        w = rng.uniform(-1, 1, (16, 8, 3, 3)).astype(np.float32)
        b = rng.uniform(-1, 1, (16,)).astype(np.float32)
        if src_dt == dt.bf16:
            s, w = bf16_round(s), bf16_round(w)
        md = lambda a, d: dnnl.memory.desc(list(a.shape), d, tag.any)  # noqa: E731
        pd = dnnl.convolution_forward.primitive_desc(
            eng, dnnl.prop_kind.forward_inference, dnnl.algorithm.convolution_direct,
            md(s, src_dt), md(w, src_dt), md(b, dt.f32),
            dnnl.memory.desc([2, 16, 3, 3], dt.f32, tag.any), [1, 1], [0, 0], [0, 0])
        args = {}
        for arg, desc, value in ((dnnl.DNNL_ARG_SRC, pd.src_desc(), s),
                                 (dnnl.DNNL_ARG_WEIGHTS, pd.weights_desc(), w),
                                 (dnnl.DNNL_ARG_BIAS, pd.bias_desc(), b)):
            args[arg] = dnnl.memory(desc, eng)
            args[arg].write(value)
        dst = args[dnnl.DNNL_ARG_DST] = dnnl.memory(pd.dst_desc(), eng)
        dnnl.convolution_forward(pd).execute(strm, args)
        strm.wait()
        err = np.max(np.abs(dst.read(np.float32) - conv_fwd(s, w, b, [1, 1], [0, 0], [0, 0],
                                                             [0, 0])))
        return pd.impl_info_str(), float(err)
    return run


def lstm_problem(eng, strm):
    """Forward training and backward of a one-layer LSTM (T3, N2, 32
    channels: whole panels of every level, so `any` weights are the
    kernel's packed panels), user weights in ldigo reordered to what each
    pd asks, as the example does; the largest error of dst_layer,
    diff_src_layer and diff_weights_layer against rnn_ref."""
    rng = np.random.default_rng(3)
    a = rnn_ref.make_args(rng, 3, 2, 32, 32)
    a = {k: v.astype(np.float32) for k, v in a.items()}
    dd = rnn_ref.make_diff_dst(rng, a, "unidirectional_left2right")
    names = ("src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter", "bias",
             "dst_layer", "dst_iter", "dst_iter_c")
    shape = {k: list(a[k].shape) for k in names if k in a}
    shape.update(dst_layer=shape["src_layer"], dst_iter=shape["src_iter"],
                 dst_iter_c=shape["src_iter_c"])
    anyd = [dnnl.memory.desc(shape[k], dt.f32, tag.any) for k in names]
    direction = dnnl.rnn_direction.unidirectional_left2right
    fpd = dnnl.lstm_forward.primitive_desc(eng, dnnl.prop_kind.forward_training, direction,
                                           *anyd)
    bpd = dnnl.lstm_backward.primitive_desc(eng, dnnl.prop_kind.backward, direction, *anyd,
                                            *anyd, fpd)

    def mem(desc, value=None):
        m = dnnl.memory(desc, eng)
        if desc.get_data_type() == dt.f32:      # zeros: diff weights accumulate
            m.write(np.zeros(desc.get_dims(), np.float32) if value is None else value)
        return m

    def weights(pd, k):
        plain = mem(dnnl.memory.desc(shape[k], dt.f32, tag.ldigo), a[k])
        m = mem(getattr(pd, k + "_desc")())
        dnnl.reorder(plain, m).execute(strm, plain, m)
        return m
    arg = lambda k: getattr(dnnl, "DNNL_ARG_" + k.upper())  # noqa: E731
    fm = {k: weights(fpd, k) if k.startswith("weights") else
          mem(getattr(fpd, k + "_desc")(), a.get(k)) for k in names}
    ws = mem(fpd.workspace_desc())
    dnnl.lstm_forward(fpd).execute(strm, {**{arg(k): m for k, m in fm.items()},
                                          dnnl.DNNL_ARG_WORKSPACE: ws})
    bm = {**fm, **{k: weights(bpd, k) for k in ("weights_layer", "weights_iter")}}
    dm = {"diff_" + k: mem(getattr(bpd, "diff_" + k + "_desc")(), dd.get("diff_" + k))
          for k in names}
    dnnl.lstm_backward(bpd).execute(strm, {**{arg(k): m for k, m in {**bm, **dm}.items()},
                                           dnnl.DNNL_ARG_WORKSPACE: ws})
    strm.wait()
    want = {**rnn_ref.lstm_forward(a), **rnn_ref.lstm_backward({**a, **dd})}
    got = {"dst_layer": fm["dst_layer"], "diff_src_layer": dm["diff_src_layer"],
           "diff_weights_layer": dm["diff_weights_layer"]}
    err = max(float(np.max(np.abs(m.read(np.float32).reshape(want[k].shape) - want[k])))
              for k, m in got.items())
    return fpd.impl_info_str(), err


# name -> (implementation prefix, the levels it has kernels for, the problem:
# run(engine, stream) -> (implementation name, max abs error vs NumPy), and
# the largest error allowed). A family converted to per-level kernels adds
# its problems here (e.g. pooling's "blocked:<level>" with an nChw16c source).
PROBLEMS = {
    "convolution_f32": ("gemm", ("sse41", "avx2", "avx512_core"), conv_problem(dt.f32), 1e-5),
    "convolution_bf16": ("gemm", ("sse41", "avx2", "avx512_core", "avx512_core_bf16"),
                         conv_problem(dt.bf16), 1e-5),
    "lstm_f32": ("gemm", ("sse41", "avx2", "avx512_core"), lstm_problem, 1e-4),
}


def expected_impl(problem, limit):
    """The implementation `problem` should get when `limit` (one of
    LEVEL_ORDER, or None for no limit) and the CPU allow every level up to
    the limit."""
    prefix, levels = PROBLEMS[problem][:2]
    rank = LEVEL_ORDER.index
    top = max(levels, key=rank) if limit is None else \
        max((lv for lv in levels if rank(lv) <= rank(limit)), key=rank)
    return "%s:%s" % (prefix, top)


def reorder_error(eng, strm):
    """nchw -> nChw16c -> nchw, f32, C-style: both results exactly as the
    layouts say (0.0 when they are)."""
    dims = [2, 19, 3, 4]
    x = np.random.default_rng(1).standard_normal(dims).astype(np.float32)
    plain = make_md(dims, c.dnnl_f32, c.dnnl_nchw)
    blocked = make_md(dims, c.dnnl_f32, c.dnnl_nChw16c)
    bmem = make_memory(blocked, eng)
    back = np.zeros_like(x)
    reorder(eng, strm, plain, make_memory(plain, eng, x), blocked, bmem)
    phys = memory_bytes(bmem).view(np.float32)
    reorder(eng, strm, blocked, bmem, plain, make_memory(plain, eng, back))
    want = to_layout(x, "aBcd16b")
    return float(max(np.max(np.abs(phys[:want.size] - want)),
                     np.max(np.abs(from_layout(phys, "aBcd16b", dims) - x)),
                     np.max(np.abs(back - x))))


# Switches a child process must not inherit: it sets the ones it needs.
SWITCHES = ("ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA", "ONEDNN_CPU_ISA_HINTS",
            "DNNL_CPU_ISA_HINTS", "CYDNNL_BF16_UNIMPLEMENTED", "ONEDNN_VERBOSE", "DNNL_VERBOSE",
            "ONEDNN_PRIMITIVE_CACHE_CAPACITY", "DNNL_PRIMITIVE_CACHE_CAPACITY",
            "ONEDNN_DEFAULT_FPMATH_MODE", "DNNL_DEFAULT_FPMATH_MODE")


def child_env(**extra):
    """The environment of a child Python process: none of SWITCHES but
    those in `extra`, and this process's import path first, so that it
    imports this very dnnl_c (an in-place build or the installed one)."""
    env = {k: v for k, v in os.environ.items() if k not in SWITCHES}
    root = os.path.dirname(os.path.dirname(os.path.abspath(c.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in sys.path if p])
    env.update(extra)
    return env


def probe(set_max=None):
    out = {"dnnl_c": os.path.dirname(os.path.abspath(c.__file__))}
    if set_max is not None:
        level = getattr(c, "dnnl_cpu_isa_" + set_max)
        out["set_max"] = c.dnnl_set_max_cpu_isa(level)
        # oneDNN: the limit is set once
        out["set_max_again"] = c.dnnl_set_max_cpu_isa(level)
    out["effective"] = c.dnnl_get_effective_cpu_isa()
    out["effective_object"] = int(dnnl.get_effective_cpu_isa())
    # reading the effective ISA fixed the limit: no later change
    out["set_max_after_read"] = c.dnnl_set_max_cpu_isa(c.dnnl_cpu_isa_sse41)
    out["effective_after"] = c.dnnl_get_effective_cpu_isa()
    out["has"] = {name[len("dnnl_cpu_isa_"):]: c.cydnnl_cpu_isa_has(v)
                  for name, v in c.ENUMS["dnnl_cpu_isa_t"].items() if v}
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    out["impls"], out["errors"] = {}, {}
    for name, (_, _, run, _) in PROBLEMS.items():
        out["impls"][name], out["errors"][name] = run(eng, strm)
    out["reorder_error"] = reorder_error(eng.get(), strm.get())
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    set_max = args[args.index("--set-max") + 1] if "--set-max" in args else None
    print(json.dumps(probe(set_max)))
