"""oneDNN's examples/primitives/reorder.cpp, ported to the C++-style API
(dnnl): a 3x3x227x227 NHWC f32 tensor reordered to s8 with per-channel
destination scales (dst = saturate(round(src / scale[c]))).

oneDNN applies the scales inside the reorder: a primitive attribute
(set_scales_mask(DNNL_ARG_DST, 1 << ic_dim)) and a scales memory passed as
DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, and so does this port. cydnnl's reorders
do not apply scales yet (a primitive descriptor asked for them answers
unimplemented; see the README): then the port divides the source by the
scales itself and the reorder converts f32 to s8 (rounding to nearest even
and saturating, as oneDNN's does), the same result.

scale_base and scale_step set the scales (oneDNN's: 64 + 5 c); returns the
source, the scales and the result (physical order) for checking.
"""

import os
import sys

import numpy as np

# example_utils lives one folder up, as oneDNN's examples/example_utils.hpp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dnnl import (DNNL_ARG_ATTR_SCALES, DNNL_ARG_DST, DNNL_ARG_SRC, engine,  # noqa: E402
                  error, memory, primitive_attr, reorder, status, stream)
from example_utils import (handle_example_errors, parse_engine_kind, product,  # noqa: E402
                           read_from_dnnl_memory, write_to_dnnl_memory)


def reorder_example(engine_kind, scale_base=64.0, scale_step=5.0):
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
    dst_data = np.zeros(product(src_dims), np.int8)

    # Initialize src tensor.
    src_data[:] = np.cos(np.arange(src_data.size, dtype=np.float32) / np.float32(10))

    # Create memory descriptors and memory objects for src and dst.
    src_md = memory.desc(src_dims, memory.data_type.f32, memory.format_tag.nhwc)
    dst_md = memory.desc(src_dims, memory.data_type.s8, memory.format_tag.nhwc)

    src_mem = memory(src_md, eng)
    dst_mem = memory(dst_md, eng)

    # Write data to memory object's handle.
    write_to_dnnl_memory(src_data, src_mem)

    # Per-channel scales.
    scales = (np.float32(scale_base) + np.float32(scale_step) * np.arange(IC, dtype=np.float32))

    # Dimension of the dst tensor where the output scales will be applied
    ic_dim = 1

    # Create primitive post-ops (per-channel output scales)
    reorder_attr = primitive_attr()
    reorder_attr.set_scales_mask(DNNL_ARG_DST, 1 << ic_dim)
    dst_scales_mem = memory(memory.desc([IC], memory.data_type.f32, memory.format_tag.x), eng)
    write_to_dnnl_memory(scales, dst_scales_mem)

    # Create primitive descriptor (without the scales where the library
    # cannot apply them: then the user's data is scaled first; NHWC, the
    # channel is the innermost index).
    try:
        reorder_pd = reorder.primitive_desc(eng, src_md, eng, dst_md, reorder_attr)
        scaled_in_reorder = True
    except error as e:
        if e.status != status.unimplemented:
            raise
        reorder_pd = reorder.primitive_desc(eng, src_md, eng, dst_md, primitive_attr())
        scaled_in_reorder = False
        src_data_scaled = (src_data.reshape(N, IH, IW, IC) / scales).reshape(-1)
        write_to_dnnl_memory(src_data_scaled.astype(np.float32), src_mem)

    # Create the primitive.
    reorder_prim = reorder(reorder_pd)

    # Primitive arguments.
    reorder_args = {DNNL_ARG_SRC: src_mem, DNNL_ARG_DST: dst_mem}
    if scaled_in_reorder:
        reorder_args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = dst_scales_mem

    # Primitive execution: reorder with scaled sum.
    reorder_prim.execute(engine_stream, reorder_args)

    # Wait for the computation to finalize.
    engine_stream.wait()

    # Read data from memory object's handle.
    read_from_dnnl_memory(dst_data, dst_mem)
    return {"src": src_data, "scales": scales, "dst": dst_data}


def main(argv):
    return handle_example_errors(reorder_example, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
