"""Small programs whose verbose output tests/test_verbose.py reads: each runs
in a process of its own (the verbose settings are read once per process),
`python verbose_cases.py NAME`. Python's own prints are flushed so that they
interleave with the library's lines in order."""

import sys

import numpy as np

import dnnl
import dnnl_c as c
from dnnl import algorithm as A, memory, prop_kind as P

tag, dt = memory.format_tag, memory.data_type
ENG = None
STRM = None


def setup():
    global ENG, STRM
    ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
    STRM = dnnl.stream(ENG)


def md(dims, dtype=dt.f32, t=None):
    return memory.desc(dims, dtype, t if t is not None else tag.any)


def plain(dims, dtype=dt.f32):
    return memory.desc(dims, dtype, {1: tag.a, 2: tag.ab, 3: tag.abc, 4: tag.abcd,
                                     5: tag.abcde}[len(dims)])


def run(prim, args):
    mems = {k: dnnl.memory(v, ENG) for k, v in args.items()}
    prim.execute(STRM, mems)
    STRM.wait()


def mark(text):
    print("MARK " + text, flush=True)


def eltwise():
    """One eltwise relu forward: one create line, one exec line."""
    setup()
    d = plain([2, 3, 4, 5])
    pd = dnnl.eltwise_forward.primitive_desc(ENG, P.forward_training, A.eltwise_relu, d, d,
                                             0.5, 0.0)
    print("IMPL " + pd.impl_info_str(), flush=True)
    run(dnnl.eltwise_forward(pd), {c.DNNL_ARG_SRC: d, c.DNNL_ARG_DST: d})


def mds():
    """Reorders between layouts that show each part of the md format."""
    setup()
    cases = [
        (plain([2, 3, 4, 5]), md([2, 3, 4, 5], t=tag.aBcd16b)),            # padded dims
        (plain([4, 8, 4, 5]).submemory_desc([2, 3, 4, 5], [1, 2, 0, 0]),  # offset0, strides
         plain([2, 3, 4, 5])),
        (plain([2, 3, 4, 5], dt.bf16), md([2, 3, 4, 5], t=tag.acdb)),      # data types
        (plain([2, 1, 4, 5]), md([2, 1, 4, 5], t=tag.acdb)),               # a stride tie
    ]
    for i, (s, d) in enumerate(cases):
        pd = dnnl.reorder.primitive_desc(ENG, s, ENG, d)
        src = dnnl.memory(plain([4, 8, 4, 5]) if i == 1 else s, ENG)
        dnnl.reorder(pd).execute(STRM, {c.DNNL_ARG_FROM: src,
                                        c.DNNL_ARG_TO: dnnl.memory(d, ENG)})
    STRM.wait()


def problems():
    """A primitive of each family in shapes that use each part of its
    problem string (created, not run)."""
    setup()
    # 2D convolution, two groups, dilation, padding, stride
    src, wei, bias, dst = plain([2, 4, 9, 9]), plain([2, 3, 2, 3, 3]), plain([6]), \
        plain([2, 6, 4, 4])
    dnnl.convolution_forward(dnnl.convolution_forward.primitive_desc(
        ENG, P.forward_training, A.convolution_direct, src, wei, bias, dst,
        [2, 2], [1, 1], [1, 1], [1, 1]))
    # 1D convolution without bias, inference
    dnnl.convolution_forward(dnnl.convolution_forward.primitive_desc(
        ENG, P.forward_inference, A.convolution_direct, plain([1, 2, 7]), plain([3, 2, 3]),
        plain([1, 3, 5]), [1], [0], [0]))
    # 3D convolution backward data, weights asked for as `any`
    s5, w5 = plain([1, 2, 4, 4, 4]), md([2, 2, 1, 1, 1])
    fwd = dnnl.convolution_forward.primitive_desc(
        ENG, P.forward_training, A.convolution_direct, s5, w5, s5, [1, 1, 1], [0, 0, 0],
        [0, 0, 0])
    dnnl.convolution_backward_data(dnnl.convolution_backward_data.primitive_desc(
        ENG, A.convolution_direct, s5, w5, s5, [1, 1, 1], [0, 0, 0], [0, 0, 0], fwd))
    # 3D average pooling (inference: no workspace), 2D max pooling (training: workspace)
    dnnl.pooling_forward(dnnl.pooling_forward.primitive_desc(
        ENG, P.forward_inference, A.pooling_avg_exclude_padding, s5, plain([1, 2, 2, 2, 2]),
        [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [0, 0, 0]))
    dnnl.pooling_forward(dnnl.pooling_forward.primitive_desc(
        ENG, P.forward_training, A.pooling_max, plain([1, 2, 6, 6]), plain([1, 2, 3, 3]),
        [2, 2], [3, 3], [0, 0], [1, 1], [1, 1]))
    # LRN within a channel
    l4 = plain([1, 3, 5, 5])
    dnnl.lrn_forward(dnnl.lrn_forward.primitive_desc(
        ENG, P.forward_training, A.lrn_within_channel, l4, l4, 3, 1e-4, 0.75, 1.0))
    # eltwise: alpha and beta printed; backward on dst
    e4 = plain([2, 3, 4, 5])
    dnnl.eltwise_forward(dnnl.eltwise_forward.primitive_desc(
        ENG, P.forward_inference, A.eltwise_linear, e4, e4, 0.1, -2.5))
    efwd = dnnl.eltwise_forward.primitive_desc(
        ENG, P.forward_training, A.eltwise_relu_use_dst_for_bwd, e4, e4, 0.0, 0.0)
    dnnl.eltwise_backward(dnnl.eltwise_backward.primitive_desc(
        ENG, A.eltwise_relu_use_dst_for_bwd, e4, e4, e4, 0.0, 0.0, efwd))
    # LSTM forward: T 3, N 2, SLC 4, DHC 5, weights `any`
    T, N, SLC, DHC = 3, 2, 4, 5
    dnnl.lstm_forward(dnnl.lstm_forward.primitive_desc(
        ENG, P.forward_training, dnnl.rnn_direction.unidirectional_left2right,
        plain([T, N, SLC]), plain([1, 1, N, DHC]), plain([1, 1, N, DHC]),
        md([1, 1, SLC, 4, DHC]), md([1, 1, DHC, 4, DHC]), plain([1, 1, 4, DHC]),
        plain([T, N, DHC]), plain([1, 1, N, DHC]), plain([1, 1, N, DHC])))
    # attributes
    attr = dnnl.primitive_attr()
    attr.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    attr.set_fpmath_mode(dnnl.fpmath_mode.bf16)
    dnnl.reorder(dnnl.reorder.primitive_desc(ENG, e4, ENG, md([2, 3, 4, 5], t=tag.acdb),
                                             attr))


def bad():
    """Failed checks: creating (a dims mismatch), a common object (a memory
    descriptor with a negative dim) and executing (an argument missing)."""
    setup()
    try:
        dnnl.eltwise_forward.primitive_desc(ENG, P.forward_training, A.eltwise_relu,
                                            plain([2, 3]), plain([2, 4]))
    except dnnl.error:
        mark("create failed")
    nd = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_tag(nd, 2, [2, -3], c.dnnl_f32, c.dnnl_ab) != 0
    mark("md failed")
    d = plain([2, 3])
    prim = dnnl.eltwise_forward(dnnl.eltwise_forward.primitive_desc(
        ENG, P.forward_training, A.eltwise_relu, d, d))
    try:
        prim.execute(STRM, {c.DNNL_ARG_SRC: dnnl.memory(d, ENG)})
    except dnnl.error:
        mark("execute failed")


def engine_error():
    """An engine that does not exist: an error line even without ONEDNN_VERBOSE."""
    e = c.dnnl_engine_t()
    assert c.dnnl_engine_create(e, c.dnnl_cpu, 3) == c.dnnl_invalid_arguments
    mark("engine failed")


def set_verbose():
    """dnnl_set_verbose and dnnl.set_verbose change the level at run time."""
    setup()
    d = plain([2, 3])
    pd = dnnl.eltwise_forward.primitive_desc(ENG, P.forward_training, A.eltwise_relu, d, d)
    args = {c.DNNL_ARG_SRC: d, c.DNNL_ARG_DST: d}
    mark("level 2")
    assert c.dnnl_set_verbose(2) == c.dnnl_success
    prim = dnnl.eltwise_forward(pd)
    run(prim, args)
    mark("level 0")
    assert c.dnnl_set_verbose(0) == c.dnnl_success
    run(dnnl.eltwise_forward(pd), args)
    mark("level 1")
    dnnl.set_verbose(1)
    run(dnnl.eltwise_forward(pd), args)
    mark("level 3")
    assert c.dnnl_set_verbose(3) == c.dnnl_invalid_arguments
    run(prim, args)


def dispatch():
    """A pooling on a plain layout: the blocked implementations decline it
    (at the allowed level) or are skipped for their ISA level (above it)."""
    setup()
    s = plain([1, 16, 4, 4])
    dnnl.pooling_forward(dnnl.pooling_forward.primitive_desc(
        ENG, P.forward_inference, A.pooling_max, s, plain([1, 16, 2, 2]),
        [2, 2], [2, 2], [0, 0], [0, 0], [0, 0]))


if __name__ == "__main__":
    np.random.seed(0)
    globals()[sys.argv[1]]()
