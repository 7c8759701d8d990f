"""oneDNN's examples/primitives/convolution.cpp, ported to the C++-style API
(dnnl): a 2-D convolution with bias and a depthwise (grouped) one, each
followed by ReLU, on NHWC data with weights in OIHW / GOIHW, the primitive
choosing its own layouts (format_tag::any) and reorders where they differ.

oneDNN fuses the ReLU as a post-op of the convolution (primitive attributes,
post_ops::append_eltwise), and so does this port. cydnnl's convolutions do not
run post-ops yet (a primitive descriptor asked for one answers
unimplemented; see the README): then the port creates the convolution
without it and runs the ReLU as an eltwise primitive in place on the
convolution's destination, the same result with one more pass over it.

Each example returns its inputs and output (the user's buffers, in their
physical order) for checking.
"""

import os
import sys

import numpy as np

# example_utils lives one folder up, as oneDNN's examples/example_utils.hpp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dnnl import (DNNL_ARG_BIAS, DNNL_ARG_DST, DNNL_ARG_SRC, DNNL_ARG_WEIGHTS,  # noqa: E402
                  algorithm, convolution_forward, eltwise_forward, engine, error, memory,
                  post_ops, primitive_attr, prop_kind, reorder, status, stream)
from example_utils import (handle_example_errors, parse_engine_kind, product,  # noqa: E402
                           read_from_dnnl_memory, write_to_dnnl_memory)


def _relu_in_place(eng, engine_stream, mem):
    """The ReLU oneDNN fuses as a post-op (alpha = beta = 0)."""
    relu_pd = eltwise_forward.primitive_desc(eng, prop_kind.forward_inference,
                                             algorithm.eltwise_relu, mem.get_desc(),
                                             mem.get_desc(), 0.0, 0.0)
    eltwise_forward(relu_pd).execute(engine_stream, {DNNL_ARG_SRC: mem, DNNL_ARG_DST: mem})


def _run(engine_kind, src_dims, weights_dims, weights_tag, bias_dims, dst_dims, strides_dims,
         padding_dims_l, padding_dims_r):
    """The body both examples share, in oneDNN's order."""
    # Create execution dnnl::engine.
    eng = engine(engine_kind, 0)

    # Create dnnl::stream.
    engine_stream = stream(eng)

    # Allocate buffers.
    src_data = np.zeros(product(src_dims), np.float32)
    weights_data = np.zeros(product(weights_dims), np.float32)
    bias_data = np.zeros(product(bias_dims), np.float32)
    dst_data = np.zeros(product(dst_dims), np.float32)

    # Initialize src, weights, and dst tensors.
    src_data[:] = np.cos(np.arange(src_data.size, dtype=np.float32) / np.float32(10))
    weights_data[:] = np.sin(np.arange(weights_data.size, dtype=np.float32) * np.float32(2))
    bias_data[:] = np.tanh(np.arange(bias_data.size, dtype=np.float32))

    # Create memory objects for tensor data (src, weights, dst). In this
    # example, NHWC layout is assumed for src and dst, and OIHW (GOIHW) for
    # weights.
    user_src_mem = memory(memory.desc(src_dims, memory.data_type.f32, memory.format_tag.nhwc),
                          eng)
    user_weights_mem = memory(memory.desc(weights_dims, memory.data_type.f32, weights_tag), eng)
    user_dst_mem = memory(memory.desc(dst_dims, memory.data_type.f32, memory.format_tag.nhwc),
                          eng)

    # Create memory descriptors with format_tag::any for the primitive. This
    # enables the convolution primitive to choose memory layouts for an
    # optimized primitive implementation, and these layouts may differ from
    # the ones provided by the user.
    conv_src_md = memory.desc(src_dims, memory.data_type.f32, memory.format_tag.any)
    conv_weights_md = memory.desc(weights_dims, memory.data_type.f32, memory.format_tag.any)
    conv_dst_md = memory.desc(dst_dims, memory.data_type.f32, memory.format_tag.any)

    # Create memory descriptor and memory object for input bias.
    user_bias_md = memory.desc() if not bias_dims else \
        memory.desc(bias_dims, memory.data_type.f32, memory.format_tag.a)
    user_bias_mem = memory(user_bias_md, eng)

    # Write data to memory object's handle.
    write_to_dnnl_memory(src_data, user_src_mem)
    write_to_dnnl_memory(weights_data, user_weights_mem)
    if bias_dims:
        write_to_dnnl_memory(bias_data, user_bias_mem)

    # Create primitive post-ops (ReLU).
    alpha = 0.0
    beta = 0.0
    conv_ops = post_ops()
    conv_ops.append_eltwise(algorithm.eltwise_relu, alpha, beta)
    conv_attr = primitive_attr()
    conv_attr.set_post_ops(conv_ops)

    # Create primitive descriptor (without the post-op where the library
    # cannot fuse it; the ReLU then runs after the convolution).
    def conv_primitive_desc(attr):
        return convolution_forward.primitive_desc(
            eng, prop_kind.forward_training, algorithm.convolution_direct, conv_src_md,
            conv_weights_md, user_bias_md, conv_dst_md, strides_dims, padding_dims_l,
            padding_dims_r, attr)
    try:
        conv_pd = conv_primitive_desc(conv_attr)
        relu_fused = True
    except error as e:
        if e.status != status.unimplemented:
            raise
        conv_pd = conv_primitive_desc(primitive_attr())
        relu_fused = False

    # For now, assume that the src, weights, and dst memory layouts generated
    # by the primitive and the ones provided by the user are identical.
    conv_src_mem = user_src_mem
    conv_weights_mem = user_weights_mem
    conv_dst_mem = user_dst_mem

    # Reorder the data in case the src and weights memory layouts generated
    # by the primitive and the ones provided by the user are different. In
    # this case, we create additional memory objects with internal buffers
    # that will contain the reordered data. The data in dst will be reordered
    # after the convolution computation has finalized.
    if conv_pd.src_desc() != user_src_mem.get_desc():
        conv_src_mem = memory(conv_pd.src_desc(), eng)
        reorder(user_src_mem, conv_src_mem).execute(engine_stream, user_src_mem, conv_src_mem)

    if conv_pd.weights_desc() != user_weights_mem.get_desc():
        conv_weights_mem = memory(conv_pd.weights_desc(), eng)
        reorder(user_weights_mem, conv_weights_mem).execute(engine_stream, user_weights_mem,
                                                            conv_weights_mem)

    if conv_pd.dst_desc() != user_dst_mem.get_desc():
        conv_dst_mem = memory(conv_pd.dst_desc(), eng)

    # Create the primitive.
    conv_prim = convolution_forward(conv_pd)

    # Primitive arguments.
    conv_args = {DNNL_ARG_SRC: conv_src_mem, DNNL_ARG_WEIGHTS: conv_weights_mem,
                 DNNL_ARG_BIAS: user_bias_mem, DNNL_ARG_DST: conv_dst_mem}

    # Primitive execution: convolution with ReLU.
    conv_prim.execute(engine_stream, conv_args)
    if not relu_fused:
        _relu_in_place(eng, engine_stream, conv_dst_mem)

    # Reorder the data in case the dst memory descriptor generated by the
    # primitive and the one provided by the user are different.
    if conv_pd.dst_desc() != user_dst_mem.get_desc():
        reorder(conv_dst_mem, user_dst_mem).execute(engine_stream, conv_dst_mem, user_dst_mem)
    else:
        user_dst_mem = conv_dst_mem

    # Wait for the computation to finalize.
    engine_stream.wait()

    # Read data from memory object's handle.
    read_from_dnnl_memory(dst_data, user_dst_mem)
    return {"src": src_data, "weights": weights_data, "bias": bias_data, "dst": dst_data}


def convolution_example(engine_kind):
    # Tensor dimensions.
    N = 3                           # batch size
    IC = 32                         # input channels
    IH = 13                         # input height
    IW = 13                         # input width
    OC = 64                         # output channels
    KH = 3                          # weights height
    KW = 3                          # weights width
    PH_L = 1                        # height padding: left
    PH_R = 1                        # height padding: right
    PW_L = 1                        # width padding: left
    PW_R = 1                        # width padding: right
    SH = 4                          # height-wise stride
    SW = 4                          # width-wise stride
    OH = (IH - KH + PH_L + PH_R) // SH + 1  # output height
    OW = (IW - KW + PW_L + PW_R) // SW + 1  # output width

    # Source (src), weights, bias, and destination (dst) tensors
    # dimensions. To simulate an empty bias use an empty list [].
    return _run(engine_kind, [N, IC, IH, IW], [OC, IC, KH, KW], memory.format_tag.oihw, [OC],
                [N, OC, OH, OW], [SH, SW], [PH_L, PW_L], [PH_R, PW_R])


def depthwise_convolution_example(engine_kind):
    # Tensor dimensions.
    N = 3                           # batch size
    G = 32                          # channel groups
    IC = 32                         # input channels
    IH = 13                         # input height
    IW = 13                         # input width
    OC = 32                         # output channels
    KH = 3                          # weights height
    KW = 3                          # weights width
    PH_L = 1                        # height padding: left
    PH_R = 1                        # height padding: right
    PW_L = 1                        # width padding: left
    PW_R = 1                        # width padding: right
    SH = 4                          # height-wise stride
    SW = 4                          # width-wise stride
    OH = (IH - KH + PH_L + PH_R) // SH + 1  # output height
    OW = (IW - KW + PW_L + PW_R) // SW + 1  # output width

    return _run(engine_kind, [N, IC, IH, IW], [G, OC // G, IC // G, KH, KW],
                memory.format_tag.goihw, [OC], [N, OC, OH, OW], [SH, SW], [PH_L, PW_L],
                [PH_R, PW_R])


def main(argv):
    exit_code = handle_example_errors(convolution_example, parse_engine_kind(argv))
    if exit_code != 0:
        return exit_code
    return handle_example_errors(depthwise_convolution_example, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
