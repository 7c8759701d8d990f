"""oneDNN's examples/primitives/pooling.cpp, ported to the C++-style API
(dnnl): max pooling, forward training, 11x11 kernel with dilation 1 and
stride 4 on a 3x3x27x27 NHWC tensor, with the workspace (the argmax) the
backward pass would read. Returns the source and the result (physical
order) for checking."""

import os
import sys

import numpy as np

# example_utils lives one folder up, as oneDNN's examples/example_utils.hpp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dnnl import (DNNL_ARG_DST, DNNL_ARG_SRC, DNNL_ARG_WORKSPACE, algorithm,  # noqa: E402
                  engine, memory, pooling_forward, prop_kind, stream)
from example_utils import (handle_example_errors, parse_engine_kind, product,  # noqa: E402
                           read_from_dnnl_memory, write_to_dnnl_memory)


def pooling_example(engine_kind):
    # Create execution dnnl::engine.
    eng = engine(engine_kind, 0)

    # Create dnnl::stream.
    engine_stream = stream(eng)

    # Tensor dimensions.
    N = 3                           # batch size
    IC = 3                          # input channels
    IH = 27                         # input tensor height
    IW = 27                         # input tensor width
    KH = 11                         # kernel height
    KW = 11                         # kernel width
    PH_L = 0                        # height padding: left
    PH_R = 0                        # height padding: right
    PW_L = 0                        # width padding: left
    PW_R = 0                        # width padding: right
    SH = 4                          # height-wise stride
    SW = 4                          # width-wise stride
    DH = 1                          # height-wise dilation
    DW = 1                          # width-wise dilation

    # oneDNN uses the following formula to calculate destination dimensions:
    # dst = (src - ((weights - 1) * (dilation_onednn + 1) + 1)) / stride + 1
    #
    # PyTorch and TensorFlow use a different formula:
    # dst = (src - ((weights - 1) * dilation_torch + 1)) / stride + 1
    #
    # As a result, the PyTorch and Tensorflow dilation parameters need to be
    # adjusted by subtracting 1:
    # dilation_onednn = dilation_torch - 1.
    #
    # Output tensor height and width.
    OH = (IH - ((KH - 1) * DH + KH) + PH_L + PH_R) // SH + 1
    OW = (IW - ((KW - 1) * DW + KW) + PW_L + PW_R) // SW + 1

    # Source (src) and destination (dst) tensors dimensions.
    src_dims = [N, IC, IH, IW]
    dst_dims = [N, IC, OH, OW]

    # Kernel dimensions.
    kernel_dims = [KH, KW]

    # Strides, padding dimensions.
    strides_dims = [SH, SW]
    padding_dims_l = [PH_L, PW_L]
    padding_dims_r = [PH_R, PW_R]
    dilation = [DH, DW]

    # Allocate buffers.
    src_data = np.zeros(product(src_dims), np.float32)
    dst_data = np.zeros(product(dst_dims), np.float32)

    src_data[:] = np.cos(np.arange(src_data.size, dtype=np.float32) / np.float32(10))

    # Create memory descriptors and memory objects for src and dst.
    src_md = memory.desc(src_dims, memory.data_type.f32, memory.format_tag.nhwc)
    src_mem = memory(src_md, eng)

    dst_md = memory.desc(dst_dims, memory.data_type.f32, memory.format_tag.nhwc)
    dst_mem = memory(dst_md, eng)

    # Write data to memory object's handle.
    write_to_dnnl_memory(src_data, src_mem)

    # Create primitive descriptor.
    pooling_pd = pooling_forward.primitive_desc(
        eng, prop_kind.forward_training, algorithm.pooling_max, src_md, dst_md, strides_dims,
        kernel_dims, dilation, padding_dims_l, padding_dims_r)

    # Create workspace memory objects using memory descriptor created by the
    # primitive descriptor.
    # NOTE: Here, the workspace is required to save the indices where maximum
    # was found, and is used in backward pooling to perform upsampling.
    workspace_mem = memory(pooling_pd.workspace_desc(), eng)

    # Create the primitive.
    pooling_prim = pooling_forward(pooling_pd)

    # Primitive arguments. Set up in-place execution by assigning src as DST.
    pooling_args = {DNNL_ARG_SRC: src_mem, DNNL_ARG_DST: dst_mem,
                    DNNL_ARG_WORKSPACE: workspace_mem}

    # Primitive execution: pooling.
    pooling_prim.execute(engine_stream, pooling_args)

    # Wait for the computation to finalize.
    engine_stream.wait()

    # Read data from memory object's handle.
    read_from_dnnl_memory(dst_data, dst_mem)
    return {"src": src_data, "dst": dst_data, "dst_dims": dst_dims}


def main(argv):
    return handle_example_errors(pooling_example, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
