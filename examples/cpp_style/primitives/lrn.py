"""oneDNN's examples/primitives/lrn.cpp, ported to the C++-style API (dnnl):
LRN across channels (local size 5, alpha 1e-4, beta 0.75, k 1), forward
training, on a 3x3x227x227 NHWC tensor, with the workspace the primitive
descriptor asks for (none here). Returns the source and the result
(physical order) for checking."""

import os
import sys

import numpy as np

# example_utils lives one folder up, as oneDNN's examples/example_utils.hpp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dnnl import (DNNL_ARG_DST, DNNL_ARG_SRC, DNNL_ARG_WORKSPACE, algorithm,  # noqa: E402
                  engine, lrn_forward, memory, prop_kind, stream)
from example_utils import (handle_example_errors, parse_engine_kind, product,  # noqa: E402
                           read_from_dnnl_memory, write_to_dnnl_memory)


def lrn_example(engine_kind):
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

    # Allocate buffers.
    src_data = np.zeros(product(src_dims), np.float32)
    dst_data = np.zeros(product(src_dims), np.float32)

    src_data[:] = np.cos(np.arange(src_data.size, dtype=np.float32) / np.float32(10))

    # Create src and dst memory descriptors and memory objects.
    src_md = memory.desc(src_dims, memory.data_type.f32, memory.format_tag.nhwc)
    dst_md = memory.desc(src_dims, memory.data_type.f32, memory.format_tag.nhwc)
    src_mem = memory(src_md, eng)
    dst_mem = memory(dst_md, eng)

    # Write data to memory object's handle.
    write_to_dnnl_memory(src_data, src_mem)

    # Create primitive descriptor.
    local_size = 5
    alpha = 1.e-4
    beta = 0.75
    k = 1.0
    lrn_pd = lrn_forward.primitive_desc(eng, prop_kind.forward_training,
                                        algorithm.lrn_across_channels, src_md, dst_md,
                                        local_size, alpha, beta, k)

    # Create workspace memory object using memory descriptors created by the
    # primitive descriptor.
    # NOTE: Here, workspace may or may not be required in forward training
    # mode, and is used to speed-up the backward propagation.
    workspace_mem = memory(lrn_pd.workspace_desc(), eng)

    # Create the primitive.
    lrn_prim = lrn_forward(lrn_pd)

    # Primitive arguments.
    lrn_args = {DNNL_ARG_SRC: src_mem, DNNL_ARG_WORKSPACE: workspace_mem,
                DNNL_ARG_DST: dst_mem}

    # Primitive execution.
    lrn_prim.execute(engine_stream, lrn_args)

    # Wait for the computation to finalize.
    engine_stream.wait()

    # Read data from memory object's handle.
    read_from_dnnl_memory(dst_data, dst_mem)
    return {"src": src_data, "dst": dst_data}


def main(argv):
    return handle_example_errors(lrn_example, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
