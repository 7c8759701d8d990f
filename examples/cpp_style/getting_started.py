"""oneDNN's examples/getting_started.cpp, ported to the C++-style API
(dnnl): the basic workflow (engine, stream, memory descriptors from a tag and
from strides, memories, a ReLU primitive descriptor and primitive, execute)
on a 1x3x13x13 image stored channels-last.

The result check, which oneDNN's current file keeps in a comment, runs here.
"""

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dnnl import (DNNL_ARG_DST, DNNL_ARG_SRC, algorithm, eltwise_forward,  # noqa: E402
                  engine, memory, prop_kind, stream)
from example_utils import (handle_example_errors, parse_engine_kind,  # noqa: E402
                           read_from_dnnl_memory, write_to_dnnl_memory)


def getting_started_tutorial(engine_kind):
    """Returns the user's image and the ReLU result, both in the physical
    (NHWC) order, for checking."""
    # [Initialize engine]
    eng = engine(engine_kind, 0)

    # [Initialize stream]
    engine_stream = stream(eng)

    # [Create user's data]
    N, H, W, C = 1, 13, 13, 3

    # Compute physical strides for each dimension
    stride_N = H * W * C
    stride_H = W * C
    stride_W = C
    stride_C = 1

    # An auxiliary function that maps logical index to the physical offset
    def offset(n, h, w, c):
        return n * stride_N + h * stride_H + w * stride_W + c * stride_C

    # The image size
    image_size = N * H * W * C

    # Allocate a buffer for the image
    image = np.zeros(image_size, np.float32)

    # Initialize the image with some values
    for n in range(N):
        for h in range(H):
            for w in range(W):
                for c in range(C):
                    off = offset(n, h, w, c)  # Get the physical offset of a pixel
                    image[off] = -math.cos(off / 10.0)

    # [Init src_md]
    src_md = memory.desc(
        [N, C, H, W],               # logical dims, the order is defined by a primitive
        memory.data_type.f32,       # tensor's data type
        memory.format_tag.nhwc)     # memory format, NHWC in this case

    # [Init alt_src_md]
    alt_src_md = memory.desc(
        [N, C, H, W],               # logical dims, the order is defined by a primitive
        memory.data_type.f32,       # tensor's data type
        [stride_N, stride_C, stride_H, stride_W])   # the strides

    # Sanity check: the memory descriptors should be the same
    if src_md != alt_src_md:
        raise RuntimeError("Memory descriptor initialization mismatch.")

    # [Create memory objects]
    # src_mem contains a copy of image after write_to_dnnl_memory function
    src_mem = memory(src_md, eng)
    write_to_dnnl_memory(image, src_mem)

    # For dst_mem the library allocates buffer
    dst_mem = memory(src_md, eng)

    # [Create a ReLU primitive]
    # ReLU primitive descriptor, which corresponds to a particular
    # implementation in the library
    relu_pd = eltwise_forward.primitive_desc(
        eng,                        # an engine the primitive will be created for
        prop_kind.forward_inference, algorithm.eltwise_relu,
        src_md,                     # source memory descriptor for an operation to work on
        src_md,                     # destination memory descriptor for an operation to work on
        0.0,                        # alpha parameter means negative slope in case of ReLU
        0.0)                        # beta parameter is ignored in case of ReLU

    # ReLU primitive
    relu = eltwise_forward(relu_pd)  # !!! this can take quite some time

    # [Execute ReLU primitive]
    # Execute ReLU (out-of-place)
    relu.execute(engine_stream,     # The execution stream
                 {                  # A map with all inputs and outputs
                     DNNL_ARG_SRC: src_mem,    # Source tag and memory obj
                     DNNL_ARG_DST: dst_mem,    # Destination tag and memory obj
                 })

    # Wait the stream to complete the execution
    engine_stream.wait()

    # [Check the results]
    # Obtain a buffer for the `dst_mem` and read it as floats. This is safe
    # since we created `dst_mem` as f32 tensor with known memory format.
    relu_image = np.zeros(image_size, np.float32)
    read_from_dnnl_memory(relu_image, dst_mem)

    for n in range(N):
        for h in range(H):
            for w in range(W):
                for c in range(C):
                    off = offset(n, h, w, c)  # get the physical offset of a pixel
                    expected = 0.0 if image[off] < 0 else image[off]  # expected value
                    if relu_image[off] != expected:
                        print("At index(%d, %d, %d, %d) expect %g but got %g"
                              % (n, c, h, w, expected, relu_image[off]))
                        raise RuntimeError("Accuracy check failed.")
    return image, relu_image


def main(argv):
    return handle_example_errors(getting_started_tutorial, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
