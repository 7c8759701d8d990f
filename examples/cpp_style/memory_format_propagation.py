"""oneDNN's examples/memory_format_propagation.cpp, ported to the C++-style
API (dnnl): a convolution and a max pooling created with format_tag::any
choose their layouts, and reorders run only where those differ from the
user's (NHWC data, OIHW weights).

As in oneDNN, the tutorial writes no data. The optional src_data and
weights_data (NumPy arrays in NCHW / OIHW order) are written into the user's
memories, and the tutorial then returns the result in NCHW, for checking;
oneDNN's file has no such check.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dnnl import (DNNL_ARG_DST, DNNL_ARG_FROM, DNNL_ARG_SRC, DNNL_ARG_TO,  # noqa: E402
                  DNNL_ARG_WEIGHTS, algorithm, convolution_forward, engine, memory,
                  pooling_forward, prop_kind, reorder, stream)
from example_utils import handle_example_errors, parse_engine_kind  # noqa: E402


def memory_format_propagation_tutorial(engine_kind, src_data=None, weights_data=None):
    # [Initialize engine and stream]
    eng = engine(engine_kind, 0)
    s = stream(eng)

    # [Create placeholder memory descriptors]
    # Tensor and kernel dimensions. We use the same 3x3 kernel with padding=1
    # for both convolution and pooling primitives, which means that the
    # activation tensor shapes do not change.
    N, H, W, IC, OC, KH, KW = 1, 14, 14, 128, 256, 3, 3
    conv_src_md = memory.desc([N, IC, H, W], memory.data_type.f32,
                              memory.format_tag.any)  # let convolution choose memory format
    conv_weights_md = memory.desc([OC, IC, KH, KW], memory.data_type.f32,
                                  memory.format_tag.any)  # let convolution choose memory format
    conv_dst_md = memory.desc([N, OC, H, W], memory.data_type.f32,
                              memory.format_tag.any)  # let convolution choose memory format
    pool_dst_md = conv_dst_md  # shape does not change

    # [Create convolution and pooling primitive descriptors]
    conv_pd = convolution_forward.primitive_desc(
        eng, prop_kind.forward_inference, algorithm.convolution_auto,
        conv_src_md, conv_weights_md,
        conv_dst_md,                # shape information
        [1, 1],                     # strides
        [1, 1], [1, 1])             # left and right padding

    pool_pd = pooling_forward.primitive_desc(
        eng, prop_kind.forward_inference, algorithm.pooling_max, conv_pd.dst_desc(),
        pool_dst_md,                # shape information
        [1, 1], [KH, KW],           # strides and kernel
        [0, 0],                     # dilation
        [1, 1], [1, 1])             # left and right padding

    # [Create source and destination memory objects]
    src_mem = memory(memory.desc([N, IC, H, W], memory.data_type.f32, memory.format_tag.nhwc),
                     eng)
    weights_mem = memory(memory.desc([OC, IC, KH, KW], memory.data_type.f32,
                                     memory.format_tag.oihw), eng)
    dst_mem = memory(memory.desc([N, OC, H, W], memory.data_type.f32, memory.format_tag.nhwc),
                     eng)
    if src_data is not None:            # (not in oneDNN's tutorial: data to check)
        src_mem.write(src_data)
    if weights_data is not None:
        weights_mem.write(weights_data)

    # [Determine if source needs to be reordered]
    need_reorder_src = conv_pd.src_desc() != src_mem.get_desc()

    # [Determine if weights and destination need to be reordered]
    need_reorder_weights = conv_pd.weights_desc() != weights_mem.get_desc()
    need_reorder_dst = conv_pd.dst_desc() != dst_mem.get_desc()

    # [Allocate intermediate buffers if necessary]
    conv_src_mem = memory(conv_pd.src_desc(), eng) if need_reorder_src else src_mem
    conv_weights_mem = memory(conv_pd.weights_desc(), eng) if need_reorder_weights \
        else weights_mem
    conv_dst_mem = memory(conv_pd.dst_desc(), eng)
    pool_dst_mem = memory(pool_pd.dst_desc(), eng) if need_reorder_dst else dst_mem

    # [Perform reorders for source data if necessary]
    if need_reorder_src:
        reorder_src = reorder(src_mem, conv_src_mem)
        reorder_src.execute(s, {DNNL_ARG_FROM: src_mem, DNNL_ARG_TO: conv_src_mem})
        s.wait()  # wait for the reorder to complete

    if need_reorder_weights:
        reorder_weights = reorder(weights_mem, conv_weights_mem)
        reorder_weights.execute(s, {DNNL_ARG_FROM: weights_mem, DNNL_ARG_TO: conv_weights_mem})
        s.wait()  # wait for the reorder to complete

    # [Create and execute convolution and pooling primitives]
    conv_scratchpad_mem = memory(conv_pd.scratchpad_desc(), eng)  # noqa: F841 (as oneDNN's)
    conv = convolution_forward(conv_pd)
    conv.execute(s, {DNNL_ARG_SRC: conv_src_mem, DNNL_ARG_WEIGHTS: conv_weights_mem,
                     DNNL_ARG_DST: conv_dst_mem})
    pool_scratchpad_mem = memory(pool_pd.scratchpad_desc(), eng)  # noqa: F841
    pool = pooling_forward(pool_pd)
    pool.execute(s, {DNNL_ARG_SRC: conv_dst_mem, DNNL_ARG_DST: pool_dst_mem})
    s.wait()

    # [Reorder destination data if necessary]
    if need_reorder_dst:
        reorder_dst = reorder(pool_dst_mem, dst_mem)
        reorder_dst.execute(s, {DNNL_ARG_FROM: pool_dst_mem, DNNL_ARG_TO: dst_mem})
        s.wait()

    return {"dst": dst_mem.read(), "reordered": (need_reorder_src, need_reorder_weights,
                                                 need_reorder_dst)}


def main(argv):
    return handle_example_errors(memory_format_propagation_tutorial, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
