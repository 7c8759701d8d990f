"""No leaks and no races: create/execute/destroy loops keep the resident set
flat, and primitives executed from several threads at once (execute drops
the GIL) give bit-identical results to one thread."""

import os
import subprocess
import sys
import threading

import numpy as np

import dnnl_c as c

HERE = os.path.dirname(os.path.abspath(__file__))

LOOP = r"""
import os, sys
import numpy as np
from dnnl_c import *

def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024

eng, strm = dnnl_engine_t(), dnnl_stream_t()
dnnl_engine_create(eng, dnnl_cpu, 0)
dnnl_stream_create(strm, eng, dnnl_stream_default_flags)
data = np.random.default_rng(0).standard_normal(2 * 16 * 5 * 5).astype(np.float32)

def once():
    src_md, dst_md, any_md = dnnl_memory_desc_t(), dnnl_memory_desc_t(), dnnl_memory_desc_t()
    assert dnnl_memory_desc_create_with_tag(src_md, 4, [2, 16, 5, 5], dnnl_f32, dnnl_nchw) == 0
    assert dnnl_memory_desc_create_with_tag(dst_md, 4, [2, 16, 5, 5], dnnl_bf16, dnnl_nChw16c) == 0
    assert dnnl_memory_desc_create_with_tag(any_md, 4, [2, 16, 5, 5], dnnl_f32, dnnl_format_tag_any) == 0
    src, dst, out = dnnl_memory_t(), dnnl_memory_t(), dnnl_memory_t()
    assert dnnl_memory_create(src, src_md, eng, data) == 0
    assert dnnl_memory_create(dst, dst_md, eng, DNNL_MEMORY_ALLOCATE) == 0
    pd, prim = dnnl_primitive_desc_t(), dnnl_primitive_t()
    assert dnnl_reorder_primitive_desc_create(pd, src_md, eng, dst_md, eng, None) == 0
    assert dnnl_primitive_create(prim, pd) == 0
    assert dnnl_primitive_execute(prim, strm, 2, [(DNNL_ARG_FROM, src), (DNNL_ARG_TO, dst)]) == 0
    epd, eprim = dnnl_primitive_desc_t(), dnnl_primitive_t()
    assert dnnl_lrn_forward_primitive_desc_create(
        epd, eng, dnnl_forward_training, dnnl_lrn_across_channels, src_md, any_md,
        5, 1e-4, 0.75, 1.0, None) == 0
    while dnnl_primitive_desc_next_impl(epd) == 0:
        pass
    assert dnnl_primitive_create(eprim, epd) == 0
    assert dnnl_memory_create(out, dnnl_primitive_desc_query_md(epd, dnnl_query_dst_md, 0),
                              eng, DNNL_MEMORY_ALLOCATE) == 0
    assert dnnl_primitive_execute(eprim, strm, 2, [(DNNL_ARG_SRC, src), (DNNL_ARG_DST, out)]) == 0
    for h in (prim, eprim):
        dnnl_primitive_destroy(h)
    for h in (pd, epd):
        dnnl_primitive_desc_destroy(h)
    for h in (src, dst, out):
        dnnl_memory_destroy(h)
    for h in (src_md, dst_md, any_md):
        dnnl_memory_desc_destroy(h)

n = int(sys.argv[1])
for _ in range(n // 10):
    once()
before = rss_kib()
for _ in range(n):
    once()
print(rss_kib() - before)
"""


def test_create_execute_destroy_loops_do_not_leak():
    # each iteration allocates ~10 KiB of buffers and a dozen handles: a leak of
    # any of them over 20000 iterations would exceed the bound by far (40 MiB for memories alone)
    out = subprocess.run([sys.executable, "-c", LOOP, "20000"], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    growth_kib = int(out.stdout.split()[-1])
    assert growth_kib < 2048, "resident set grew by %d KiB over 20000 iterations" % growth_kib


def _conv_problem(eng):
    import dnnl
    from dnnl import algorithm, convolution_forward, memory, prop_kind
    tag, dt = memory.format_tag, memory.data_type
    pd = convolution_forward.primitive_desc(
        eng, prop_kind.forward, algorithm.convolution_direct,
        memory.desc([4, 8, 13, 11], dt.f32, tag.any), memory.desc([16, 8, 3, 3], dt.f32, tag.any),
        memory.desc([16], dt.f32, tag.any), memory.desc([4, 16, 6, 5], dt.f32, tag.any),
        [2, 2], [1, 1], [0, 0])
    return dnnl, pd, convolution_forward(pd)


def test_concurrent_execution_is_bit_exact():
    import dnnl
    from dnnl import engine, memory, stream
    eng = engine(engine.kind.cpu, 0)
    _, pd, prim = _conv_problem(eng)
    rng = np.random.default_rng(1)
    nthreads, rounds = 4, 20

    def make():
        mems = {c.DNNL_ARG_SRC: memory(pd.src_desc(), eng), c.DNNL_ARG_WEIGHTS:
                memory(pd.weights_desc(), eng), c.DNNL_ARG_BIAS: memory(pd.bias_desc(), eng),
                c.DNNL_ARG_DST: memory(pd.dst_desc(), eng)}
        for arg in (c.DNNL_ARG_SRC, c.DNNL_ARG_WEIGHTS, c.DNNL_ARG_BIAS):
            m = mems[arg]
            n = m.get_desc().get_size() // 4
            m.write(rng.standard_normal(n).astype(np.float32).reshape(m.get_desc().get_dims())
                    if arg != c.DNNL_ARG_BIAS else rng.standard_normal(n).astype(np.float32))
        return mems

    sets = [make() for _ in range(nthreads)]
    expected = []
    s = stream(eng)
    for mems in sets:
        prim.execute(s, mems)
        expected.append(mems[c.DNNL_ARG_DST].read(np.float32).copy())
    errors = []

    def work(i):
        try:
            ts = stream(eng)
            for _ in range(rounds):
                prim.execute(ts, sets[i])
                got = sets[i][c.DNNL_ARG_DST].read(np.float32)
                if not np.array_equal(got, expected[i]):
                    errors.append("thread %d: results differ" % i)
                    return
        except Exception as e:  # noqa: BLE001 - report any failure of a thread
            errors.append("thread %d: %r" % (i, e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
