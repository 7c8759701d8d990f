"""oneDNN's examples/cnn_training_bf16.cpp, ported line for line to the
C++-style API (dnnl): AlexNet's first block in bfloat16, batch 32, user data
in f32, reorders converting the data type where the primitives chose bf16.
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dnnl import *  # noqa: E402,F403
from example_utils import (example_allows_unimplemented, handle_example_errors,  # noqa: E402
                           parse_engine_kind, product, write_to_dnnl_memory)


def simple_net(engine_kind, batch=32, n_iter=1, results=None):
    """results: when a dict is given, the diff weights and diff bias of the
    last iteration are stored there (for checking)."""
    tag = memory.format_tag
    dt = memory.data_type

    eng = engine(engine_kind, 0)
    s = stream(eng)

    # Vector of primitives and their execute arguments
    net_fwd: list[primitive] = []
    net_bwd: list[primitive] = []
    net_fwd_args: list[dict[int, memory]] = []
    net_bwd_args: list[dict[int, memory]] = []

    # float data type is used for user data
    net_src = np.empty(batch * 3 * 227 * 227, np.float32)

    # initializing non-zero values for src
    net_src[:] = np.sin(np.arange(net_src.size, dtype=np.float32))

    # AlexNet: conv
    # {batch, 3, 227, 227} (x) {96, 3, 11, 11} -> {batch, 96, 55, 55}
    # strides: {4, 4}

    conv_src_tz = [batch, 3, 227, 227]
    conv_weights_tz = [96, 3, 11, 11]
    conv_bias_tz = [96]
    conv_dst_tz = [batch, 96, 55, 55]
    conv_strides = [4, 4]
    conv_padding = [0, 0]

    # float data type is used for user data
    conv_weights = np.empty(product(conv_weights_tz), np.float32)
    conv_bias = np.empty(product(conv_bias_tz), np.float32)

    # initializing non-zero values for weights and bias
    conv_weights[:] = np.sin(np.arange(conv_weights.size, dtype=np.float32))
    conv_bias[:] = np.sin(np.arange(conv_bias.size, dtype=np.float32))

    # create memory for user data
    conv_user_src_memory = memory(memory.desc(conv_src_tz, dt.f32, tag.nchw), eng)
    write_to_dnnl_memory(net_src, conv_user_src_memory)

    conv_user_weights_memory = memory(memory.desc(conv_weights_tz, dt.f32, tag.oihw), eng)
    write_to_dnnl_memory(conv_weights, conv_user_weights_memory)

    conv_user_bias_memory = memory(memory.desc(conv_bias_tz, dt.f32, tag.x), eng)
    write_to_dnnl_memory(conv_bias, conv_user_bias_memory)

    # create memory descriptors for bfloat16 convolution data w/ no specified
    # format tag(`any`)
    # tag `any` lets a primitive(convolution in this case)
    # chose the memory format preferred for best performance.
    conv_src_md = memory.desc(conv_src_tz, dt.bf16, tag.any)
    conv_weights_md = memory.desc(conv_weights_tz, dt.bf16, tag.any)
    conv_dst_md = memory.desc(conv_dst_tz, dt.bf16, tag.any)
    # here bias data type is set to bf16.
    # additionally, f32 data type is supported for bf16 convolution.
    conv_bias_md = memory.desc(conv_bias_tz, dt.bf16, tag.any)

    # create a convolution primitive descriptor

    # check if bf16 convolution is supported
    try:
        convolution_forward.primitive_desc(eng, prop_kind.forward,
                                           algorithm.convolution_direct, conv_src_md,
                                           conv_weights_md, conv_bias_md, conv_dst_md,
                                           conv_strides, conv_padding, conv_padding)
    except error as e:
        if e.status == dnnl_unimplemented:
            raise example_allows_unimplemented(
                "No bf16 convolution implementation is available for this "
                "platform.\n"
                "Please refer to the developer guide for details.")

        # on any other error just re-throw
        raise

    conv_pd = convolution_forward.primitive_desc(eng, prop_kind.forward,
                                                 algorithm.convolution_direct, conv_src_md,
                                                 conv_weights_md, conv_bias_md, conv_dst_md,
                                                 conv_strides, conv_padding, conv_padding)

    # create reorder primitives between user input and conv src if needed
    conv_src_memory = conv_user_src_memory
    if conv_pd.src_desc() != conv_user_src_memory.get_desc():
        conv_src_memory = memory(conv_pd.src_desc(), eng)
        net_fwd.append(reorder(conv_user_src_memory, conv_src_memory))
        net_fwd_args.append({DNNL_ARG_FROM: conv_user_src_memory,
                             DNNL_ARG_TO: conv_src_memory})

    conv_weights_memory = conv_user_weights_memory
    if conv_pd.weights_desc() != conv_user_weights_memory.get_desc():
        conv_weights_memory = memory(conv_pd.weights_desc(), eng)
        net_fwd.append(reorder(conv_user_weights_memory, conv_weights_memory))
        net_fwd_args.append({DNNL_ARG_FROM: conv_user_weights_memory,
                             DNNL_ARG_TO: conv_weights_memory})

    # convert bias from f32 to bf16 as convolution descriptor is created with
    # bias data type as bf16.
    conv_bias_memory = conv_user_bias_memory
    if conv_pd.bias_desc() != conv_user_bias_memory.get_desc():
        conv_bias_memory = memory(conv_pd.bias_desc(), eng)
        net_fwd.append(reorder(conv_user_bias_memory, conv_bias_memory))
        net_fwd_args.append({DNNL_ARG_FROM: conv_user_bias_memory,
                             DNNL_ARG_TO: conv_bias_memory})

    # create memory for conv dst
    conv_dst_memory = memory(conv_pd.dst_desc(), eng)

    # finally create a convolution primitive
    net_fwd.append(convolution_forward(conv_pd))
    net_fwd_args.append({DNNL_ARG_SRC: conv_src_memory,
                         DNNL_ARG_WEIGHTS: conv_weights_memory,
                         DNNL_ARG_BIAS: conv_bias_memory,
                         DNNL_ARG_DST: conv_dst_memory})

    # AlexNet: relu
    # {batch, 96, 55, 55} -> {batch, 96, 55, 55}
    relu_data_tz = [batch, 96, 55, 55]
    negative_slope = 0.0

    # create relu primitive desc
    # keep memory format tag of source same as the format tag of convolution
    # output in order to avoid reorder
    relu_pd = eltwise_forward.primitive_desc(eng, prop_kind.forward, algorithm.eltwise_relu,
                                             conv_pd.dst_desc(), conv_pd.dst_desc(),
                                             negative_slope)

    # create relu dst memory
    relu_dst_memory = memory(relu_pd.dst_desc(), eng)

    # finally create a relu primitive
    net_fwd.append(eltwise_forward(relu_pd))
    net_fwd_args.append({DNNL_ARG_SRC: conv_dst_memory, DNNL_ARG_DST: relu_dst_memory})

    # AlexNet: lrn
    # {batch, 96, 55, 55} -> {batch, 96, 55, 55}
    # local size: 5
    # alpha: 0.0001
    # beta: 0.75
    # k: 1.0
    lrn_data_tz = [batch, 96, 55, 55]
    local_size = 5
    alpha = 0.0001
    beta = 0.75
    k = 1.0

    # create a lrn primitive descriptor
    lrn_pd = lrn_forward.primitive_desc(eng, prop_kind.forward, algorithm.lrn_across_channels,
                                        relu_pd.dst_desc(), relu_pd.dst_desc(), local_size,
                                        alpha, beta, k)

    # create lrn dst memory
    lrn_dst_memory = memory(lrn_pd.dst_desc(), eng)

    # create workspace only in training and only for forward primitive
    # query lrn_pd for workspace, this memory will be shared with forward lrn
    lrn_workspace_memory = memory(lrn_pd.workspace_desc(), eng)

    # finally create a lrn primitive
    net_fwd.append(lrn_forward(lrn_pd))
    net_fwd_args.append({DNNL_ARG_SRC: relu_dst_memory, DNNL_ARG_DST: lrn_dst_memory,
                         DNNL_ARG_WORKSPACE: lrn_workspace_memory})

    # AlexNet: pool
    # {batch, 96, 55, 55} -> {batch, 96, 27, 27}
    # kernel: {3, 3}
    # strides: {2, 2}

    pool_dst_tz = [batch, 96, 27, 27]
    pool_kernel = [3, 3]
    pool_strides = [2, 2]
    pool_dilation = [0, 0]
    pool_padding = [0, 0]

    # create memory for pool dst data in user format
    pool_user_dst_memory = memory(memory.desc(pool_dst_tz, dt.f32, tag.nchw), eng)

    # create pool dst memory descriptor in format any for bfloat16 data type
    pool_dst_md = memory.desc(pool_dst_tz, dt.bf16, tag.any)

    # create a pooling primitive descriptor
    pool_pd = pooling_forward.primitive_desc(eng, prop_kind.forward, algorithm.pooling_max,
                                             lrn_dst_memory.get_desc(), pool_dst_md,
                                             pool_strides, pool_kernel, pool_dilation,
                                             pool_padding, pool_padding)

    # create pooling workspace memory if training
    pool_workspace_memory = memory(pool_pd.workspace_desc(), eng)

    # create a pooling primitive
    net_fwd.append(pooling_forward(pool_pd))
    # leave DST unknown for now (see the next reorder)
    net_fwd_args.append({DNNL_ARG_SRC: lrn_dst_memory,
                         # delay putting DST until reorder (if needed)
                         DNNL_ARG_WORKSPACE: pool_workspace_memory})

    # create reorder primitive between pool dst and user dst format
    # if needed
    pool_dst_memory = pool_user_dst_memory
    if pool_pd.dst_desc() != pool_user_dst_memory.get_desc():
        pool_dst_memory = memory(pool_pd.dst_desc(), eng)
        net_fwd_args[-1][DNNL_ARG_DST] = pool_dst_memory

        net_fwd.append(reorder(pool_dst_memory, pool_user_dst_memory))
        net_fwd_args.append({DNNL_ARG_FROM: pool_dst_memory,
                             DNNL_ARG_TO: pool_user_dst_memory})
    else:
        net_fwd_args[-1][DNNL_ARG_DST] = pool_dst_memory

    # -----------------------------------------------------------------------
    # ----------------- Backward Stream -------------------------------------
    # ... user diff_data in float data type ...
    net_diff_dst = np.empty(batch * 96 * 27 * 27, np.float32)
    net_diff_dst[:] = np.sin(np.arange(net_diff_dst.size, dtype=np.float32))

    # create memory for user diff dst data stored in float data type
    pool_user_diff_dst_memory = memory(memory.desc(pool_dst_tz, dt.f32, tag.nchw), eng)
    write_to_dnnl_memory(net_diff_dst, pool_user_diff_dst_memory)

    # Backward pooling
    # create memory descriptors for pooling
    pool_diff_src_md = memory.desc(lrn_data_tz, dt.bf16, tag.any)
    pool_diff_dst_md = memory.desc(pool_dst_tz, dt.bf16, tag.any)

    # backward primitive descriptor needs to hint forward descriptor
    pool_bwd_pd = pooling_backward.primitive_desc(eng, algorithm.pooling_max, pool_diff_src_md,
                                                  pool_diff_dst_md, pool_strides, pool_kernel,
                                                  pool_dilation, pool_padding, pool_padding,
                                                  pool_pd)

    # create reorder primitive between user diff dst and pool diff dst
    # if required
    pool_diff_dst_memory = pool_user_diff_dst_memory
    if pool_dst_memory.get_desc() != pool_user_diff_dst_memory.get_desc():
        pool_diff_dst_memory = memory(pool_dst_memory.get_desc(), eng)
        net_bwd.append(reorder(pool_user_diff_dst_memory, pool_diff_dst_memory))
        net_bwd_args.append({DNNL_ARG_FROM: pool_user_diff_dst_memory,
                             DNNL_ARG_TO: pool_diff_dst_memory})

    # create memory for pool diff src
    pool_diff_src_memory = memory(pool_bwd_pd.diff_src_desc(), eng)

    # finally create backward pooling primitive
    net_bwd.append(pooling_backward(pool_bwd_pd))
    net_bwd_args.append({DNNL_ARG_DIFF_DST: pool_diff_dst_memory,
                         DNNL_ARG_DIFF_SRC: pool_diff_src_memory,
                         DNNL_ARG_WORKSPACE: pool_workspace_memory})

    # Backward lrn
    lrn_diff_dst_md = memory.desc(lrn_data_tz, dt.bf16, tag.any)
    lrn_diff_src_md = lrn_diff_dst_md

    # create backward lrn primitive descriptor
    lrn_bwd_pd = lrn_backward.primitive_desc(eng, algorithm.lrn_across_channels,
                                             lrn_diff_src_md, lrn_diff_dst_md,
                                             lrn_pd.src_desc(), local_size, alpha, beta, k,
                                             lrn_pd)

    # create reorder primitive between pool diff src and lrn diff dst
    # if required
    lrn_diff_dst_memory = pool_diff_src_memory
    if lrn_diff_dst_memory.get_desc() != lrn_bwd_pd.diff_dst_desc():
        lrn_diff_dst_memory = memory(lrn_bwd_pd.diff_dst_desc(), eng)
        net_bwd.append(reorder(pool_diff_src_memory, lrn_diff_dst_memory))
        net_bwd_args.append({DNNL_ARG_FROM: pool_diff_src_memory,
                             DNNL_ARG_TO: lrn_diff_dst_memory})

    # create memory for lrn diff src
    lrn_diff_src_memory = memory(lrn_bwd_pd.diff_src_desc(), eng)

    # finally create a lrn backward primitive
    # backward lrn needs src: relu dst in this topology
    net_bwd.append(lrn_backward(lrn_bwd_pd))
    net_bwd_args.append({DNNL_ARG_SRC: relu_dst_memory,
                         DNNL_ARG_DIFF_DST: lrn_diff_dst_memory,
                         DNNL_ARG_DIFF_SRC: lrn_diff_src_memory,
                         DNNL_ARG_WORKSPACE: lrn_workspace_memory})

    # Backward relu
    relu_diff_src_md = memory.desc(relu_data_tz, dt.bf16, tag.any)
    relu_diff_dst_md = memory.desc(relu_data_tz, dt.bf16, tag.any)
    relu_src_md = conv_pd.dst_desc()

    # create backward relu primitive_descriptor
    relu_bwd_pd = eltwise_backward.primitive_desc(eng, algorithm.eltwise_relu,
                                                  relu_diff_src_md, relu_diff_dst_md,
                                                  relu_src_md, negative_slope, relu_pd)

    # create reorder primitive between lrn diff src and relu diff dst
    # if required
    relu_diff_dst_memory = lrn_diff_src_memory
    if relu_diff_dst_memory.get_desc() != relu_bwd_pd.diff_dst_desc():
        relu_diff_dst_memory = memory(relu_bwd_pd.diff_dst_desc(), eng)
        net_bwd.append(reorder(lrn_diff_src_memory, relu_diff_dst_memory))
        net_bwd_args.append({DNNL_ARG_FROM: lrn_diff_src_memory,
                             DNNL_ARG_TO: relu_diff_dst_memory})

    # create memory for relu diff src
    relu_diff_src_memory = memory(relu_bwd_pd.diff_src_desc(), eng)

    # finally create a backward relu primitive
    net_bwd.append(eltwise_backward(relu_bwd_pd))
    net_bwd_args.append({DNNL_ARG_SRC: conv_dst_memory,
                         DNNL_ARG_DIFF_DST: relu_diff_dst_memory,
                         DNNL_ARG_DIFF_SRC: relu_diff_src_memory})

    # Backward convolution with respect to weights
    # create user format diff weights and diff bias memory for float data type

    conv_user_diff_weights_memory = memory(memory.desc(conv_weights_tz, dt.f32, tag.nchw), eng)
    conv_diff_bias_memory = memory(memory.desc(conv_bias_tz, dt.f32, tag.x), eng)

    # create memory descriptors for bfloat16 convolution data
    conv_bwd_src_md = memory.desc(conv_src_tz, dt.bf16, tag.any)
    conv_diff_weights_md = memory.desc(conv_weights_tz, dt.bf16, tag.any)
    conv_diff_dst_md = memory.desc(conv_dst_tz, dt.bf16, tag.any)

    # use diff bias provided by the user
    conv_diff_bias_md = conv_diff_bias_memory.get_desc()

    # create backward convolution primitive descriptor
    conv_bwd_weights_pd = convolution_backward_weights.primitive_desc(
        eng, algorithm.convolution_direct, conv_bwd_src_md, conv_diff_weights_md,
        conv_diff_bias_md, conv_diff_dst_md, conv_strides, conv_padding, conv_padding, conv_pd)

    # for best performance convolution backward might chose
    # different memory format for src and diff_dst
    # than the memory formats preferred by forward convolution
    # for src and dst respectively
    # create reorder primitives for src from forward convolution to the
    # format chosen by backward convolution
    conv_bwd_src_memory = conv_src_memory
    if conv_bwd_weights_pd.src_desc() != conv_src_memory.get_desc():
        conv_bwd_src_memory = memory(conv_bwd_weights_pd.src_desc(), eng)
        net_bwd.append(reorder(conv_src_memory, conv_bwd_src_memory))
        net_bwd_args.append({DNNL_ARG_FROM: conv_src_memory, DNNL_ARG_TO: conv_bwd_src_memory})

    # create reorder primitives for diff_dst between diff_src from relu_bwd
    # and format preferred by conv_diff_weights
    conv_diff_dst_memory = relu_diff_src_memory
    if conv_bwd_weights_pd.diff_dst_desc() != relu_diff_src_memory.get_desc():
        conv_diff_dst_memory = memory(conv_bwd_weights_pd.diff_dst_desc(), eng)
        net_bwd.append(reorder(relu_diff_src_memory, conv_diff_dst_memory))
        net_bwd_args.append({DNNL_ARG_FROM: relu_diff_src_memory,
                             DNNL_ARG_TO: conv_diff_dst_memory})

    # create backward convolution primitive
    net_bwd.append(convolution_backward_weights(conv_bwd_weights_pd))
    net_bwd_args.append({DNNL_ARG_SRC: conv_bwd_src_memory,
                         DNNL_ARG_DIFF_DST: conv_diff_dst_memory,
                         # delay putting DIFF_WEIGHTS until reorder (if needed)
                         DNNL_ARG_DIFF_BIAS: conv_diff_bias_memory})

    # create reorder primitives between conv diff weights and user diff weights
    # if needed
    conv_diff_weights_memory = conv_user_diff_weights_memory
    if conv_bwd_weights_pd.diff_weights_desc() != conv_user_diff_weights_memory.get_desc():
        conv_diff_weights_memory = memory(conv_bwd_weights_pd.diff_weights_desc(), eng)
        net_bwd_args[-1][DNNL_ARG_DIFF_WEIGHTS] = conv_diff_weights_memory

        net_bwd.append(reorder(conv_diff_weights_memory, conv_user_diff_weights_memory))
        net_bwd_args.append({DNNL_ARG_FROM: conv_diff_weights_memory,
                             DNNL_ARG_TO: conv_user_diff_weights_memory})
    else:
        net_bwd_args[-1][DNNL_ARG_DIFF_WEIGHTS] = conv_diff_weights_memory

    # didn't we forget anything?
    assert len(net_fwd) == len(net_fwd_args), "something is missing"
    assert len(net_bwd) == len(net_bwd_args), "something is missing"

    # n_iter: number of iterations for training
    # execute
    t_start = time.perf_counter()
    iterations = n_iter
    while n_iter:
        # forward
        for i in range(len(net_fwd)):
            net_fwd[i].execute(s, net_fwd_args[i])

        # update net_diff_dst
        # auto net_output = pool_user_dst_memory.get_data_handle();
        # ..user updates net_diff_dst using net_output...
        # some user defined func update_diff_dst(net_diff_dst.data(),
        # net_output)

        for i in range(len(net_bwd)):
            net_bwd[i].execute(s, net_bwd_args[i])
        # update weights and bias using diff weights and bias
        #
        # auto net_diff_weights
        #     = conv_user_diff_weights_memory.get_data_handle();
        # auto net_diff_bias = conv_diff_bias_memory.get_data_handle();
        #
        # ...user updates weights and bias using diff weights and bias...
        #
        # some user defined func update_weights(conv_weights.data(),
        # conv_bias.data(), net_diff_weights, net_diff_bias);

        n_iter -= 1

    s.wait()
    elapsed = time.perf_counter() - t_start
    print("batch %d: %d iteration(s) in %.2f s, %.3f s per iteration (%d forward and %d "
          "backward primitives)" % (batch, iterations, elapsed, elapsed / max(iterations, 1),
                                    len(net_fwd), len(net_bwd)))
    if results is not None:
        results["diff_weights"] = np.asarray(conv_user_diff_weights_memory).copy()
        results["diff_bias"] = np.asarray(conv_diff_bias_memory).copy()
        results["impls"] = [p.impl_info_str() for p in (conv_pd, relu_pd, lrn_pd, pool_pd,
                                                        pool_bwd_pd, lrn_bwd_pd, relu_bwd_pd,
                                                        conv_bwd_weights_pd)]


def main(argv):
    return handle_example_errors(simple_net, parse_engine_kind(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
