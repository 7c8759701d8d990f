"""The primitive cache (oneDNN's ONEDNN_PRIMITIVE_CACHE_CAPACITY,
dnnl_set/get_primitive_cache_capacity): creating a primitive from a primitive
descriptor equal to one a cached primitive was made from is a hit and shares
that implementation; anything that changes what runs is a miss; LRU
eviction; capacity 0; the environment variable; verbose's create:cache_hit;
results stay right; the bookkeeping holds under many threads."""

import subprocess
import sys
import threading

import numpy as np
import pytest

import dnnl
import dnnl_c as c
import isa_probe
from dnnl import algorithm, memory, prop_kind
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache of the default capacity."""
    assert c.dnnl_set_primitive_cache_capacity(0) == c.dnnl_success
    assert c.dnnl_set_primitive_cache_capacity(1024) == c.dnnl_success
    yield
    c.dnnl_set_primitive_cache_capacity(0)
    c.dnnl_set_primitive_cache_capacity(1024)


def size():
    return c.cydnnl_primitive_cache_get_size()


def relu_pd(eng, n, alg=algorithm.eltwise_relu, alpha=0.0, data_type=dt.f32, layout=tag.a,
            attr=None):
    md = memory.desc([n], data_type, layout)
    args = [eng, prop_kind.forward_inference, alg, md, md, alpha, 0.0]
    return dnnl.eltwise_forward.primitive_desc(*args, *([attr] if attr else []))


def family_pds(eng, k=0):
    """A forward primitive descriptor of each family we implement; k varies
    the problem (different k, different problems)."""
    f32 = dt.f32
    src = memory.desc([2, 3 + k, 7, 7], f32, tag.nchw)
    pds = {"eltwise": relu_pd(eng, 10 + k)}
    wei = memory.desc([4, 3 + k, 3, 3], f32, tag.oihw)
    dst = memory.desc([2, 4, 5, 5], f32, tag.nchw)
    pds["convolution"] = dnnl.convolution_forward.primitive_desc(
        eng, prop_kind.forward_inference, algorithm.convolution_direct, src, wei, dst,
        [1, 1], [0, 0], [0, 0])
    pds["lrn"] = dnnl.lrn_forward.primitive_desc(eng, prop_kind.forward_inference,
                                                 algorithm.lrn_across_channels, src, src,
                                                 5, 1e-4, 0.75, 1.0)
    pds["pooling"] = dnnl.pooling_forward.primitive_desc(
        eng, prop_kind.forward_inference, algorithm.pooling_max, src,
        memory.desc([2, 3 + k, 3, 3], f32, tag.nchw), [2, 2], [3, 3], [0, 0], [0, 0], [0, 0])
    pds["reorder"] = dnnl.reorder.primitive_desc(eng, src, eng,
                                                 memory.desc([2, 3 + k, 7, 7], f32, tag.nhwc))
    l, d, t, n, ch = 1, 1, 2, 2, 3 + k
    anyd = [memory.desc(s, f32, tag.any) for s in
            ([t, n, ch], [l, d, n, ch], [l, d, n, ch], [l, d, ch, 4, ch], [l, d, ch, 4, ch],
             [l, d, 4, ch], [t, n, ch], [l, d, n, ch], [l, d, n, ch])]
    pds["lstm"] = dnnl.lstm_forward.primitive_desc(eng, prop_kind.forward_inference,
                                                   dnnl.rnn_direction.unidirectional_left2right,
                                                   *anyd)
    return pds


def test_capacity_get_set():
    out = [None]
    assert c.dnnl_get_primitive_cache_capacity(out) == c.dnnl_success and out[0] == 1024
    assert c.dnnl_set_primitive_cache_capacity(7) == c.dnnl_success
    assert dnnl.get_primitive_cache_capacity() == 7
    dnnl.set_primitive_cache_capacity(9)
    assert c.dnnl_get_primitive_cache_capacity(out) == c.dnnl_success and out[0] == 9
    assert c.dnnl_set_primitive_cache_capacity(-1) == c.dnnl_invalid_arguments
    assert "capacity" in c.cydnnl_last_error()
    assert c.dnnl_set_primitive_cache_capacity(2 ** 40) == c.dnnl_invalid_arguments
    with pytest.raises(dnnl.error) as e:
        dnnl.set_primitive_cache_capacity(-3)
    assert e.value.status == dnnl.status.invalid_arguments
    assert dnnl.get_primitive_cache_capacity() == 9       # unchanged by the failures


def test_equal_descriptors_hit(eng):
    for name, pd in family_pds(eng).items():
        before = size()
        p1 = dnnl.primitive(pd)
        assert size() == before + 1, name
        # the same pd, and an equal one made anew: no new implementation
        p2 = dnnl.primitive(pd)
        p3 = dnnl.primitive(family_pds(eng)[name])
        assert size() == before + 1, name
        del p1, p2, p3
        # the cache keeps the implementation after its primitives go
        assert size() == before + 1, name


def test_what_changes_what_runs_misses(eng):
    base = relu_pd(eng, 16)
    dnnl.primitive(base)
    assert size() == 1
    attr = dnnl.primitive_attr()
    attr.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    others = [relu_pd(eng, 17),                                      # dims
              relu_pd(eng, 16, algorithm.eltwise_tanh),               # algorithm
              relu_pd(eng, 16, alpha=0.5),                            # parameter
              relu_pd(eng, 16, data_type=dt.bf16),                    # data type
              relu_pd(eng, 16, attr=attr)]                            # attributes
    strided = memory.desc([4, 4], dt.f32, tag.ab)
    others += [dnnl.eltwise_forward.primitive_desc(eng, prop_kind.forward_inference,
                                                   algorithm.eltwise_relu, strided, strided,
                                                   0.0, 0.0),
               dnnl.eltwise_forward.primitive_desc(eng, prop_kind.forward_inference,
                                                   algorithm.eltwise_relu,
                                                   memory.desc([4, 4], dt.f32, tag.ba),
                                                   memory.desc([4, 4], dt.f32, tag.ba),
                                                   0.0, 0.0)]                 # layout
    # another implementation of the same problem
    walked = relu_pd(eng, 16)
    if walked.next_impl():
        others.append(walked)
    keep = [dnnl.primitive(pd) for pd in others]
    assert size() == 1 + len(others)
    # and each is then a hit
    keep += [dnnl.primitive(pd) for pd in others]
    assert size() == 1 + len(others)


def test_lowering_the_capacity_evicts_and_primitives_keep_working(eng, strm):
    prims = [(n, dnnl.primitive(relu_pd(eng, n))) for n in range(3, 9)]
    assert size() == 6
    dnnl.set_primitive_cache_capacity(2)
    assert size() == 2
    for n, prim in prims:       # their implementations live on in them
        x = np.linspace(-1, 1, n, dtype=np.float32)
        mem = memory(memory.desc([n], dt.f32, tag.a), eng, x)
        prim.execute(strm, {dnnl.DNNL_ARG_SRC: mem, dnnl.DNNL_ARG_DST: mem})
        np.testing.assert_array_equal(x, np.maximum(np.linspace(-1, 1, n, dtype=np.float32), 0))


def test_capacity_zero_caches_nothing(eng, strm):
    dnnl.set_primitive_cache_capacity(0)
    pd = relu_pd(eng, 12)
    prims = [dnnl.primitive(pd) for _ in range(3)]
    assert size() == 0
    x = np.arange(-6, 6, dtype=np.float32)
    mem = memory(memory.desc([12], dt.f32, tag.a), eng, x)
    prims[2].execute(strm, {dnnl.DNNL_ARG_SRC: mem, dnnl.DNNL_ARG_DST: mem})
    np.testing.assert_array_equal(x, np.maximum(np.arange(-6, 6, dtype=np.float32), 0))


ARGS = ("SRC", "WEIGHTS", "BIAS", "DST", "SRC_ITER", "SRC_ITER_C", "WEIGHTS_ITER", "DST_ITER",
        "DST_ITER_C", "WORKSPACE", "FROM", "TO")
OUTPUTS = ("DST", "DST_ITER", "DST_ITER_C", "WORKSPACE", "TO")


def test_hits_compute_what_misses_compute(eng, strm):
    """Every family: the primitive made on a hit gives bitwise the output of
    the one made on the miss (and both the right one for eltwise)."""
    for name, pd in family_pds(eng, 1).items():
        outs = []
        for _ in range(2):
            prim = dnnl.primitive(pd)
            args = {}
            for a in ARGS:
                md = pd.query_md(dnnl.query.exec_arg_md, getattr(dnnl, "DNNL_ARG_" + a))
                if md.is_zero():
                    continue
                mem = args[getattr(dnnl, "DNNL_ARG_" + a)] = memory(md, eng)
                if a not in OUTPUTS:
                    buf = np.frombuffer(mem.get_data_handle(), np.float32)
                    buf[:] = np.random.default_rng(len(a)).standard_normal(buf.size)
            prim.execute(strm, args)
            dst = args.get(dnnl.DNNL_ARG_DST, args.get(dnnl.DNNL_ARG_TO))
            outs.append(np.frombuffer(dst.get_data_handle(), np.uint8).copy())
            if name == "eltwise":
                src = np.frombuffer(args[dnnl.DNNL_ARG_SRC].get_data_handle(), np.float32)
                np.testing.assert_array_equal(
                    np.frombuffer(dst.get_data_handle(), np.float32), np.maximum(src, 0))
        np.testing.assert_array_equal(outs[0], outs[1], err_msg=name)


def test_primitive_desc_of_a_destroyed_primitive_is_dead(eng):
    """The cache keeps the implementation, but the primitive descriptor a
    primitive answers with is its own and goes with it."""
    pd = relu_pd(eng, 20)
    p1, p2 = c.dnnl_primitive_t(), c.dnnl_primitive_t()
    assert c.dnnl_primitive_create(p1, pd.get()) == c.dnnl_success
    assert c.dnnl_primitive_create(p2, pd.get()) == c.dnnl_success
    own = c.dnnl_primitive_desc_t()
    assert c.dnnl_primitive_get_primitive_desc(p1, own) == c.dnnl_success
    out = [None]
    assert c.dnnl_primitive_desc_query(own, c.dnnl_query_impl_info_str, 0, out) == 0
    assert c.dnnl_primitive_desc_next_impl(own) == c.dnnl_invalid_arguments   # read-only
    assert c.dnnl_primitive_destroy(p1) == c.dnnl_success
    assert c.dnnl_primitive_desc_query(own, c.dnnl_query_impl_info_str, 0, out) == \
        c.dnnl_invalid_arguments
    other = c.dnnl_primitive_desc_t()
    assert c.dnnl_primitive_get_primitive_desc(p2, other) == c.dnnl_success
    assert c.dnnl_primitive_desc_query(other, c.dnnl_query_impl_info_str, 0, out) == 0
    assert c.dnnl_primitive_destroy(p2) == c.dnnl_success


SCRIPT = r"""
import sys
import dnnl
from dnnl import memory, prop_kind, algorithm
eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
dnnl.set_primitive_cache_capacity(int(sys.argv[1]))
def pd(n):
    md = memory.desc([n], memory.data_type.f32, memory.format_tag.a)
    return dnnl.eltwise_forward.primitive_desc(eng, prop_kind.forward_inference,
                                               algorithm.eltwise_relu, md, md, 0.0, 0.0)
for n in sys.argv[2].split(","):
    dnnl.primitive(pd(int(n)))
    print("created", n, flush=True)
"""


def run_script(capacity, sizes, **env):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(capacity),
                          ",".join(map(str, sizes))], capture_output=True, text=True,
                         env=isa_probe.child_env(**env), timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def creates(stdout):
    """hit/miss of each primitive creation verbose reported, in order."""
    lines = [ln for ln in stdout.splitlines() if "create:cache_" in ln]
    return ["hit" if "create:cache_hit" in ln else "miss" for ln in lines]


def test_verbose_says_hit_and_lru_evicts():
    # capacity 3: A B C fill it; A hits (and is now the most recent); D
    # evicts B, the least recently used; B misses and evicts C; A still hits
    out = run_script(3, [1, 2, 3, 1, 4, 2, 1, 4], ONEDNN_VERBOSE="profile_create")
    assert creates(out) == ["miss", "miss", "miss", "hit", "miss", "miss", "hit", "hit"]
    assert "cpu,eltwise" in [ln for ln in out.splitlines() if "create:cache_hit" in ln][0]


def test_verbose_with_capacity_zero_always_misses():
    out = run_script(0, [5, 5, 5], ONEDNN_VERBOSE="profile_create")
    assert creates(out) == ["miss"] * 3


def test_capacity_from_the_environment():
    probe = ("import dnnl_c as c; out = [None]; c.dnnl_get_primitive_cache_capacity(out); "
             "print(out[0])")
    for env, want in (({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "3"}, 3),
                      ({"DNNL_PRIMITIVE_CACHE_CAPACITY": "5"}, 5),
                      ({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "0"}, 0),
                      ({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "abc"}, 1024),
                      ({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "-4"}, 1024),
                      ({}, 1024)):
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                             env=isa_probe.child_env(**env), timeout=120)
        assert out.returncode == 0, out.stderr
        assert int(out.stdout) == want, env
    # and it is what the cache then holds to
    out = run_script(1, [1, 2, 1], ONEDNN_VERBOSE="profile_create",
                     ONEDNN_PRIMITIVE_CACHE_CAPACITY="1")
    assert creates(out) == ["miss", "miss", "miss"]


@pytest.fixture(scope="module")
def threads_module(tmp_path_factory):
    from cython_build import build
    return build("cache_gemm_nogil", str(tmp_path_factory.mktemp("cache")), openmp=True)


@pytest.mark.parametrize("capacity", [3, 1024])
def test_many_openmp_threads(threads_module, capacity):
    """Primitives created, run and destroyed from 8 OpenMP threads at once,
    over 12 problems: hits, misses and (capacity 3) evictions interleave."""
    dnnl.set_primitive_cache_capacity(capacity)
    failed, first, largest = threads_module.create_in_threads(8, 150, 12)
    assert (failed, first) == (0, 0)
    assert 1 <= largest <= min(capacity, 12)
    assert size() == min(capacity, 12)


def test_many_python_threads(eng, strm):
    """dnnl_c's primitive_create runs without the GIL: Python threads race
    in the cache too."""
    dnnl.set_primitive_cache_capacity(4)
    pds = [relu_pd(eng, n) for n in range(1, 9)]
    errors = []

    def work(t):
        try:
            for r in range(60):
                n = 1 + (r + t) % 8
                prim = dnnl.primitive(pds[n - 1])
                x = np.arange(n, dtype=np.float32) - n / 2
                mem = memory(memory.desc([n], dt.f32, tag.a), eng, x)
                prim.execute(dnnl.stream(eng), {dnnl.DNNL_ARG_SRC: mem, dnnl.DNNL_ARG_DST: mem})
                if not np.array_equal(x, np.maximum(np.arange(n, dtype=np.float32) - n / 2, 0)):
                    errors.append((t, r))
        except Exception as e:      # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert size() == 4
