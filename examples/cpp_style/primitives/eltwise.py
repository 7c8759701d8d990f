"""oneDNN's examples/primitives/eltwise.cpp, ported to the C++-style API
(dnnl): ReLU forward (training) on a 3x3x227x227 NHWC tensor, out of place.
Returns the source and the result (physical order) for checking."""

import os
import sys

import numpy as np

# example_utils lives one folder up, as oneDNN's examples/example_utils.hpp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dnnl import (DNNL_ARG_DST, DNNL_ARG_SRC, algorithm, eltwise_forward, engine,  # noqa: E402
                  memory, prop_kind, stream)
from example_utils import (handle_example_errors, parse_engine_kind, product,  # noqa: E402
                           read_from_dnnl_memory, write_to_dnnl_memory)


def eltwise_example(engine_kind):
    # Create execution dnnl::engine.
    eng = engine(engine_kind, 0)

    # Create dnnl::stream.
    engine_stream = stream(eng)

    # Tensor dimensions.
    N = 3                           # batch size
    IC = 3                          # channels
    IH = 227                        # tensor height
    IW = 227                        # tensor width

    # Source (src) and destination (dst) tensors dimensions.
    src_dims = [N, IC, IH, IW]
    dst_dims = [N, IC, IH, IW]

    # Allocate buffers. In this example, out-of-place primitive execution is
    # demonstrated since both src and dst are required for later backward
    # propagation.
    src_data = np.zeros(product(src_dims), np.float32)
    dst_data = np.zeros(product(dst_dims), np.float32)

    # Initialize src tensor.
    src_data[:] = np.cos(np.arange(src_data.size, dtype=np.float32) / np.float32(10))

    # Create src and dst memory descriptors and memory objects.
    src_md = memory.desc(src_dims, memory.data_type.f32, memory.format_tag.nhwc)
    dst_md = memory.desc(dst_dims, memory.data_type.f32, memory.format_tag.nhwc)

    src_mem = memory(src_md, eng)
    dst_mem = memory(dst_md, eng)

    # Write data to memory object's handle.
    write_to_dnnl_memory(src_data, src_mem)

    # Create primitive descriptor.
    eltwise_pd = eltwise_forward.primitive_desc(eng, prop_kind.forward_training,
                                                algorithm.eltwise_relu, src_md, dst_md, 0.0,
                                                0.0)

    # Create the primitive.
    eltwise_prim = eltwise_forward(eltwise_pd)

    # Primitive arguments.
    eltwise_args = {DNNL_ARG_SRC: src_mem, DNNL_ARG_DST: dst_mem}

    # Primitive execution: element-wise (ReLU).
    eltwise_prim.execute(engine_stream, eltwise_args)

    # Wait for the computation to finalize.
    engine_stream.wait()

    # Read data from memory object's handle.
    read_from_dnnl_memory(dst_data, dst_mem)
    return {"src": src_data, "dst": dst_data}


def main(argv):
    return handle_example_errors(eltwise_example, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
