"""oneDNN's examples/rnn_training_f32.cpp, ported line for line to the
C++-style API (dnnl): an LSTM layer over two batches of different sequence
lengths, processed by two LSTM primitives that address one padded buffer
through sub-memories, forward and backward.
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dnnl import *  # noqa: E402,F403
from example_utils import (handle_example_errors, parse_engine_kind, product,  # noqa: E402
                           write_to_dnnl_memory)

# User input is:
#     N0 sequences of length T0
#     N1 sequences of length T1
# (1 + rand() % 31, 1 + rand() % 31, 31 + 1 + rand() % 31, 1 + rand() % 31 in
# the C++ program; glibc's unseeded rand() gives 1804289383, 846930886,
# 1681692777, 1714636915)
N0 = 11
N1 = 6
# Assume T0 > T1
T0 = 35
T1 = 8
# Memory required to hold it: N0 * T0 + N1 * T1
# However it is possible to have these coming
# as padded chunks in larger memory:
#      e.g. (N0 + N1) * T0
# We don't need to compact the data before processing,
# we can address the chunks via sub-memory and
# process the data via two RNN primitives:
#     of time lengths T1 and T0 - T1.
# The leftmost primitive will process N0 + N1 subsequences of length T1
# The rightmost primitive will process remaining N0 subsequences
# of T0 - T1 length
leftmost_batch = N0 + N1
rightmost_batch = N0
leftmost_seq_length = T1
rightmost_seq_length = T0 - T1

# Number of channels
common_feature_size = 1024

# RNN primitive characteristics
common_n_layers = 1
lstm_n_gates = 4


def simple_net(engine_kind, n_iter=1, results=None):
    """n_iter: how many times forward and backward run (the C++ program runs
    them once); results: when a dict is given, the outputs are stored there
    (for checking)."""
    tag = memory.format_tag
    dt = memory.data_type

    eng = engine(engine_kind, 0)
    s = stream(eng)

    is_training = True
    fwd_inf_train = prop_kind.forward_training if is_training else prop_kind.forward_inference

    # Input tensor holds two batches with different sequence lengths.
    # Shorter sequences are padded
    net_src_dims = [
        T0,  # time, maximum sequence length
        N0 + N1,  # n, total batch size
        common_feature_size,  # c, common number of channels
    ]

    # Two RNN primitives for different sequence lengths,
    # one unidirectional layer, LSTM-based
    leftmost_src_layer_dims = [leftmost_seq_length, leftmost_batch, common_feature_size]
    rightmost_src_layer_dims = [rightmost_seq_length, rightmost_batch, common_feature_size]
    common_weights_layer_dims = [
        common_n_layers,  # layers
        1,  # directions
        common_feature_size,  # input feature size
        lstm_n_gates,  # gates number
        common_feature_size,  # output feature size
    ]
    common_weights_iter_dims = [common_n_layers, 1, common_feature_size, lstm_n_gates,
                                common_feature_size]
    common_bias_dims = [common_n_layers, 1, lstm_n_gates, common_feature_size]
    leftmost_dst_layer_dims = [leftmost_seq_length, leftmost_batch, common_feature_size]
    rightmost_dst_layer_dims = [rightmost_seq_length, rightmost_batch, common_feature_size]

    # leftmost primitive passes its states to the next RNN iteration
    # so it needs dst_iter parameter.
    #
    # rightmost primitive will consume these as src_iter and will access the
    # memory via a sub-memory because it will have different batch dimension.
    # We have arranged our primitives so that
    # leftmost_batch >= rightmost_batch, and so the rightmost data will fit
    # into the memory allocated for the leftmost.
    leftmost_dst_iter_dims = [common_n_layers, 1, leftmost_batch, common_feature_size]
    leftmost_dst_iter_c_dims = [common_n_layers, 1, leftmost_batch, common_feature_size]
    rightmost_src_iter_dims = [common_n_layers, 1, rightmost_batch, common_feature_size]
    rightmost_src_iter_c_dims = [common_n_layers, 1, rightmost_batch, common_feature_size]

    # multiplication of tensor dimensions
    tz_volume = product

    # Create auxiliary f32 memory descriptor
    # based on user- supplied dimensions and layout.
    def formatted_md(dimensions, layout):
        return memory.desc(dimensions, dt.f32, layout)

    # Create auxiliary generic f32 memory descriptor
    # based on supplied dimensions, with format_tag::any.
    def generic_md(dimensions):
        return formatted_md(dimensions, tag.any)

    #
    # I/O memory, coming from user
    #

    # Net input
    net_src = np.full(tz_volume(net_src_dims), 1.0, np.float32)

    # NOTE: in this example we study input sequences with variable batch
    # dimension, which get processed by two separate RNN primitives, thus
    # the destination memory for the two will have different shapes: batch
    # is the second dimension currently: see format_tag::tnc.
    # We are not copying the output to some common user provided memory as we
    # suggest that the user should rather keep the two output memories separate
    # throughout the whole topology and only reorder to something else as
    # needed.
    # So there's no common net_dst, but there are two destinations instead:
    #    leftmost_dst_layer_memory
    #    rightmost_dst_layer_memory

    # Memory for the user allocated memory
    # Suppose user data is in tnc format.
    net_src_memory = memory(memory.desc(net_src_dims, dt.f32, tag.tnc), eng)
    write_to_dnnl_memory(net_src, net_src_memory)
    # src_layer memory of the leftmost and rightmost RNN primitives
    # are accessed through the respective sub-memories in larger memory.
    # View primitives compute the strides to accommodate for padding.
    user_leftmost_src_layer_md = net_src_memory.get_desc().submemory_desc(
        leftmost_src_layer_dims, [0, 0, 0])  # t, n, c offsets
    user_rightmost_src_layer_md = net_src_memory.get_desc().submemory_desc(
        rightmost_src_layer_dims, [leftmost_seq_length, 0, 0])  # t, n, c offsets
    leftmost_src_layer_memory = net_src_memory
    rightmost_src_layer_memory = net_src_memory

    # Other user provided memory arrays, descriptors and primitives with the
    # data layouts chosen by user. We'll have to reorder if RNN
    # primitive prefers it in a different format.
    user_common_weights_layer = np.full(tz_volume(common_weights_layer_dims), 1.0, np.float32)
    user_common_weights_layer_memory = memory(
        memory.desc(common_weights_layer_dims, dt.f32, tag.ldigo), eng)
    write_to_dnnl_memory(user_common_weights_layer, user_common_weights_layer_memory)

    user_common_weights_iter = np.full(  # noqa: F841 (the C++ program writes the layer's)
        tz_volume(common_weights_iter_dims), 1.0, np.float32)
    user_common_weights_iter_memory = memory(
        memory.desc(common_weights_iter_dims, dt.f32, tag.ldigo), eng)
    write_to_dnnl_memory(user_common_weights_layer, user_common_weights_iter_memory)

    user_common_bias = np.full(tz_volume(common_bias_dims), 1.0, np.float32)
    user_common_bias_memory = memory(memory.desc(common_bias_dims, dt.f32, tag.ldgo), eng)
    write_to_dnnl_memory(user_common_bias, user_common_bias_memory)

    user_leftmost_dst_layer = np.full(tz_volume(leftmost_dst_layer_dims), 1.0, np.float32)
    user_leftmost_dst_layer_memory = memory(
        memory.desc(leftmost_dst_layer_dims, dt.f32, tag.tnc), eng)
    write_to_dnnl_memory(user_leftmost_dst_layer, user_leftmost_dst_layer_memory)

    user_rightmost_dst_layer = np.full(tz_volume(rightmost_dst_layer_dims), 1.0, np.float32)
    user_rightmost_dst_layer_memory = memory(
        memory.desc(rightmost_dst_layer_dims, dt.f32, tag.tnc), eng)
    write_to_dnnl_memory(user_rightmost_dst_layer, user_rightmost_dst_layer_memory)

    # Describe layer, forward pass, leftmost primitive.
    # There are no primitives to the left from here,
    # so src_iter_desc needs to be zero memory desc
    leftmost_prim_desc = lstm_forward.primitive_desc(
        eng,  # engine
        fwd_inf_train,  # aprop_kind
        rnn_direction.unidirectional_left2right,  # direction
        user_leftmost_src_layer_md,  # src_layer_desc
        memory.desc(),  # src_iter_desc
        memory.desc(),  # src_iter_c_desc
        generic_md(common_weights_layer_dims),  # weights_layer_desc
        generic_md(common_weights_iter_dims),  # weights_iter_desc
        generic_md(common_bias_dims),  # bias_desc
        formatted_md(leftmost_dst_layer_dims, tag.tnc),  # dst_layer_desc
        generic_md(leftmost_dst_iter_dims),  # dst_iter_desc
        generic_md(leftmost_dst_iter_c_dims))  # dst_iter_c_desc

    #
    # Need to connect leftmost and rightmost via "iter" parameters.
    # We allocate memory here based on the shapes provided by RNN primitive.
    #
    leftmost_dst_iter_memory = memory(leftmost_prim_desc.dst_iter_desc(), eng)
    leftmost_dst_iter_c_memory = memory(leftmost_prim_desc.dst_iter_c_desc(), eng)

    # rightmost src_iter will be a sub-memory of dst_iter of leftmost
    rightmost_src_iter_md = leftmost_dst_iter_memory.get_desc().submemory_desc(
        rightmost_src_iter_dims, [0, 0, 0, 0])  # l, d, n, c offsets
    rightmost_src_iter_memory = leftmost_dst_iter_memory

    rightmost_src_iter_c_md = leftmost_dst_iter_c_memory.get_desc().submemory_desc(
        rightmost_src_iter_c_dims, [0, 0, 0, 0])  # l, d, n, c offsets
    rightmost_src_iter_c_memory = leftmost_dst_iter_c_memory

    # Now rightmost primitive
    # There are no primitives to the right from here,
    # so dst_iter_desc is explicit zero memory desc
    rightmost_prim_desc = lstm_forward.primitive_desc(
        eng,  # engine
        fwd_inf_train,  # aprop_kind
        rnn_direction.unidirectional_left2right,  # direction
        user_rightmost_src_layer_md,  # src_layer_desc
        rightmost_src_iter_md,  # src_iter_desc
        rightmost_src_iter_c_md,  # src_iter_c_desc
        generic_md(common_weights_layer_dims),  # weights_layer_desc
        generic_md(common_weights_iter_dims),  # weights_iter_desc
        generic_md(common_bias_dims),  # bias_desc
        formatted_md(rightmost_dst_layer_dims, tag.tnc),  # dst_layer_desc
        memory.desc(),  # dst_iter_desc
        memory.desc())  # dst_iter_c_desc

    #
    # Weights and biases, layer memory
    # Same layout should work across the layer, no reorders
    # needed between leftmost and rigthmost, only reordering
    # user memory to the RNN-friendly shapes.
    #
    common_weights_layer_memory = user_common_weights_layer_memory
    if leftmost_prim_desc.weights_layer_desc() != common_weights_layer_memory.get_desc():
        common_weights_layer_memory = memory(leftmost_prim_desc.weights_layer_desc(), eng)
        reorder(user_common_weights_layer_memory, common_weights_layer_memory).execute(
            s, user_common_weights_layer_memory, common_weights_layer_memory)

    common_weights_iter_memory = user_common_weights_iter_memory
    if leftmost_prim_desc.weights_iter_desc() != common_weights_iter_memory.get_desc():
        common_weights_iter_memory = memory(leftmost_prim_desc.weights_iter_desc(), eng)
        reorder(user_common_weights_iter_memory, common_weights_iter_memory).execute(
            s, user_common_weights_iter_memory, common_weights_iter_memory)

    common_bias_memory = user_common_bias_memory
    if leftmost_prim_desc.bias_desc() != common_bias_memory.get_desc():
        common_bias_memory = memory(leftmost_prim_desc.bias_desc(), eng)
        reorder(user_common_bias_memory, common_bias_memory).execute(
            s, user_common_bias_memory, common_bias_memory)

    #
    # Destination layer memory
    #
    leftmost_dst_layer_memory = user_leftmost_dst_layer_memory
    if leftmost_prim_desc.dst_layer_desc() != leftmost_dst_layer_memory.get_desc():
        leftmost_dst_layer_memory = memory(leftmost_prim_desc.dst_layer_desc(), eng)
        reorder(user_leftmost_dst_layer_memory, leftmost_dst_layer_memory).execute(
            s, user_leftmost_dst_layer_memory, leftmost_dst_layer_memory)

    rightmost_dst_layer_memory = user_rightmost_dst_layer_memory
    if rightmost_prim_desc.dst_layer_desc() != rightmost_dst_layer_memory.get_desc():
        rightmost_dst_layer_memory = memory(rightmost_prim_desc.dst_layer_desc(), eng)
        reorder(user_rightmost_dst_layer_memory, rightmost_dst_layer_memory).execute(
            s, user_rightmost_dst_layer_memory, rightmost_dst_layer_memory)

    # We also create workspace memory based on the information from
    # the workspace_primitive_desc(). This is needed for internal
    # communication between forward and backward primitives during
    # training.
    def create_ws(pd):
        return memory(pd.workspace_desc(), eng)

    leftmost_workspace_memory = create_ws(leftmost_prim_desc)
    rightmost_workspace_memory = create_ws(rightmost_prim_desc)

    # Construct the RNN primitive objects
    leftmost_layer = lstm_forward(leftmost_prim_desc)
    leftmost_fwd_args = {
        DNNL_ARG_SRC_LAYER: leftmost_src_layer_memory,
        DNNL_ARG_WEIGHTS_LAYER: common_weights_layer_memory,
        DNNL_ARG_WEIGHTS_ITER: common_weights_iter_memory,
        DNNL_ARG_BIAS: common_bias_memory,
        DNNL_ARG_DST_LAYER: leftmost_dst_layer_memory,
        DNNL_ARG_DST_ITER: leftmost_dst_iter_memory,
        DNNL_ARG_DST_ITER_C: leftmost_dst_iter_c_memory,
        DNNL_ARG_WORKSPACE: leftmost_workspace_memory}

    rightmost_layer = lstm_forward(rightmost_prim_desc)
    rightmost_fwd_args = {
        DNNL_ARG_SRC_LAYER: rightmost_src_layer_memory,
        DNNL_ARG_SRC_ITER: rightmost_src_iter_memory,
        DNNL_ARG_SRC_ITER_C: rightmost_src_iter_c_memory,
        DNNL_ARG_WEIGHTS_LAYER: common_weights_layer_memory,
        DNNL_ARG_WEIGHTS_ITER: common_weights_iter_memory,
        DNNL_ARG_BIAS: common_bias_memory,
        DNNL_ARG_DST_LAYER: rightmost_dst_layer_memory,
        DNNL_ARG_WORKSPACE: rightmost_workspace_memory}

    t_start = time.perf_counter()
    leftmost_layer.execute(s, leftmost_fwd_args)
    rightmost_layer.execute(s, rightmost_fwd_args)

    # No backward pass for inference
    if not is_training:
        return

    #
    # Backward primitives will reuse memory from forward
    # and allocate/describe specifics here. Only relevant for training.
    #

    # User-provided memory for backward by data output
    net_diff_src = np.full(tz_volume(net_src_dims), 1.0, np.float32)
    net_diff_src_memory = memory(formatted_md(net_src_dims, tag.tnc), eng)
    write_to_dnnl_memory(net_diff_src, net_diff_src_memory)

    # diff_src follows the same layout we have for net_src
    user_leftmost_diff_src_layer_md = net_diff_src_memory.get_desc().submemory_desc(
        leftmost_src_layer_dims, [0, 0, 0])  # t, n, c offsets
    user_rightmost_diff_src_layer_md = net_diff_src_memory.get_desc().submemory_desc(
        rightmost_src_layer_dims, [leftmost_seq_length, 0, 0])  # t, n, c offsets

    leftmost_diff_src_layer_memory = net_diff_src_memory
    rightmost_diff_src_layer_memory = net_diff_src_memory

    # User-provided memory for backpropagation by weights
    user_common_diff_weights_layer = np.full(tz_volume(common_weights_layer_dims), 1.0,
                                             np.float32)
    user_common_diff_weights_layer_memory = memory(
        formatted_md(common_weights_layer_dims, tag.ldigo), eng)
    write_to_dnnl_memory(user_common_diff_weights_layer, user_common_diff_weights_layer_memory)

    user_common_diff_bias = np.full(tz_volume(common_bias_dims), 1.0, np.float32)
    user_common_diff_bias_memory = memory(formatted_md(common_bias_dims, tag.ldgo), eng)
    write_to_dnnl_memory(user_common_diff_bias, user_common_diff_bias_memory)

    # User-provided input to the backward primitive.
    # To be updated by the user after forward pass using some cost function.
    net_diff_dst_dims = [
        T0,  # time
        N0 + N1,  # n
        common_feature_size,  # c
    ]
    # Suppose user data is in tnc format.
    net_diff_dst = np.full(tz_volume(net_diff_dst_dims), 1.0, np.float32)
    net_diff_dst_memory = memory(formatted_md(net_diff_dst_dims, tag.tnc), eng)
    write_to_dnnl_memory(net_diff_dst, net_diff_dst_memory)

    # diff_dst_layer memory of the leftmost and rightmost RNN primitives
    # are accessed through the respective sub-memory in larger memory.
    # View primitives compute the strides to accommodate for padding.
    user_leftmost_diff_dst_layer_md = net_diff_dst_memory.get_desc().submemory_desc(
        leftmost_dst_layer_dims, [0, 0, 0])  # t, n, c offsets
    user_rightmost_diff_dst_layer_md = net_diff_dst_memory.get_desc().submemory_desc(
        rightmost_dst_layer_dims, [leftmost_seq_length, 0, 0])  # t, n, c offsets
    leftmost_diff_dst_layer_memory = net_diff_dst_memory
    rightmost_diff_dst_layer_memory = net_diff_dst_memory

    # Backward leftmost primitive descriptor
    leftmost_bwd_prim_desc = lstm_backward.primitive_desc(
        eng,  # engine
        prop_kind.backward,  # aprop_kind
        rnn_direction.unidirectional_left2right,  # direction
        user_leftmost_src_layer_md,  # src_layer_desc
        memory.desc(),  # src_iter_desc
        memory.desc(),  # src_iter_c_desc
        generic_md(common_weights_layer_dims),  # weights_layer_desc
        generic_md(common_weights_iter_dims),  # weights_iter_desc
        generic_md(common_bias_dims),  # bias_desc
        formatted_md(leftmost_dst_layer_dims, tag.tnc),  # dst_layer_desc
        generic_md(leftmost_dst_iter_dims),  # dst_iter_desc
        generic_md(leftmost_dst_iter_c_dims),  # dst_iter_c_desc
        user_leftmost_diff_src_layer_md,  # diff_src_layer_desc
        memory.desc(),  # diff_src_iter_desc
        memory.desc(),  # diff_src_iter_c_desc
        generic_md(common_weights_layer_dims),  # diff_weights_layer_desc
        generic_md(common_weights_iter_dims),  # diff_weights_iter_desc
        generic_md(common_bias_dims),  # diff_bias_desc
        user_leftmost_diff_dst_layer_md,  # diff_dst_layer_desc
        generic_md(leftmost_dst_iter_dims),  # diff_dst_iter_desc
        generic_md(leftmost_dst_iter_c_dims),  # diff_dst_iter_c_desc
        leftmost_prim_desc)  # hint from forward pass

    # As the batch dimensions are different between leftmost and rightmost
    # we need to use a sub-memory. rightmost needs less memory, so it will
    # be a sub-memory of leftmost.
    leftmost_diff_dst_iter_memory = memory(leftmost_bwd_prim_desc.diff_dst_iter_desc(), eng)
    leftmost_diff_dst_iter_c_memory = memory(leftmost_bwd_prim_desc.diff_dst_iter_c_desc(),
                                             eng)

    rightmost_diff_src_iter_md = leftmost_diff_dst_iter_memory.get_desc().submemory_desc(
        rightmost_src_iter_dims, [0, 0, 0, 0])  # l, d, n, c offsets
    rightmost_diff_src_iter_memory = leftmost_diff_dst_iter_memory

    rightmost_diff_src_iter_c_md = leftmost_diff_dst_iter_c_memory.get_desc().submemory_desc(
        rightmost_src_iter_c_dims, [0, 0, 0, 0])  # l, d, n, c offsets
    rightmost_diff_src_iter_c_memory = leftmost_diff_dst_iter_c_memory

    # Backward rightmost primitive descriptor
    rightmost_bwd_prim_desc = lstm_backward.primitive_desc(
        eng,  # engine
        prop_kind.backward,  # aprop_kind
        rnn_direction.unidirectional_left2right,  # direction
        user_rightmost_src_layer_md,  # src_layer_desc
        generic_md(rightmost_src_iter_dims),  # src_iter_desc
        generic_md(rightmost_src_iter_c_dims),  # src_iter_c_desc
        generic_md(common_weights_layer_dims),  # weights_layer_desc
        generic_md(common_weights_iter_dims),  # weights_iter_desc
        generic_md(common_bias_dims),  # bias_desc
        formatted_md(rightmost_dst_layer_dims, tag.tnc),  # dst_layer_desc
        memory.desc(),  # dst_iter_desc
        memory.desc(),  # dst_iter_c_desc
        user_rightmost_diff_src_layer_md,  # diff_src_layer_desc
        rightmost_diff_src_iter_md,  # diff_src_iter_desc
        rightmost_diff_src_iter_c_md,  # diff_src_iter_c_desc
        generic_md(common_weights_layer_dims),  # diff_weights_layer_desc
        generic_md(common_weights_iter_dims),  # diff_weights_iter_desc
        generic_md(common_bias_dims),  # diff_bias_desc
        user_rightmost_diff_dst_layer_md,  # diff_dst_layer_desc
        memory.desc(),  # diff_dst_iter_desc
        memory.desc(),  # diff_dst_iter_c_desc
        rightmost_prim_desc)  # hint from forward pass

    #
    # Memory for backward pass
    #

    # src layer uses the same memory as forward
    leftmost_src_layer_bwd_memory = leftmost_src_layer_memory
    rightmost_src_layer_bwd_memory = rightmost_src_layer_memory

    # Memory for weights and biases for backward pass
    # Try to use the same memory between forward and backward, but
    # sometimes reorders are needed.
    common_weights_layer_bwd_memory = common_weights_layer_memory
    if leftmost_bwd_prim_desc.weights_layer_desc() != leftmost_prim_desc.weights_layer_desc():
        common_weights_layer_bwd_memory = memory(leftmost_bwd_prim_desc.weights_layer_desc(),
                                                 eng)
        reorder(common_weights_layer_memory, common_weights_layer_bwd_memory).execute(
            s, common_weights_layer_memory, common_weights_layer_bwd_memory)

    common_weights_iter_bwd_memory = common_weights_iter_memory
    if leftmost_bwd_prim_desc.weights_iter_desc() != leftmost_prim_desc.weights_iter_desc():
        common_weights_iter_bwd_memory = memory(leftmost_bwd_prim_desc.weights_iter_desc(), eng)
        reorder(common_weights_iter_memory, common_weights_iter_bwd_memory).execute(
            s, common_weights_iter_memory, common_weights_iter_bwd_memory)

    common_bias_bwd_memory = common_bias_memory
    if leftmost_bwd_prim_desc.bias_desc() != common_bias_memory.get_desc():
        common_bias_bwd_memory = memory(leftmost_bwd_prim_desc.bias_desc(), eng)
        reorder(common_bias_memory, common_bias_bwd_memory).execute(
            s, common_bias_memory, common_bias_bwd_memory)

    # diff_weights and biases
    common_diff_weights_layer_memory = user_common_diff_weights_layer_memory
    reorder_common_diff_weights_layer = False
    if leftmost_bwd_prim_desc.diff_weights_layer_desc() != \
            common_diff_weights_layer_memory.get_desc():
        common_diff_weights_layer_memory = memory(
            leftmost_bwd_prim_desc.diff_weights_layer_desc(), eng)
        reorder_common_diff_weights_layer = True

    common_diff_bias_memory = user_common_diff_bias_memory
    reorder_common_diff_bias = False
    if leftmost_bwd_prim_desc.diff_bias_desc() != common_diff_bias_memory.get_desc():
        common_diff_bias_memory = memory(leftmost_bwd_prim_desc.diff_bias_desc(), eng)
        reorder_common_diff_bias = True

    # dst_layer memory for backward pass
    leftmost_dst_layer_bwd_memory = leftmost_dst_layer_memory
    if leftmost_bwd_prim_desc.dst_layer_desc() != leftmost_dst_layer_bwd_memory.get_desc():
        leftmost_dst_layer_bwd_memory = memory(leftmost_bwd_prim_desc.dst_layer_desc(), eng)
        reorder(leftmost_dst_layer_memory, leftmost_dst_layer_bwd_memory).execute(
            s, leftmost_dst_layer_memory, leftmost_dst_layer_bwd_memory)

    rightmost_dst_layer_bwd_memory = rightmost_dst_layer_memory
    if rightmost_bwd_prim_desc.dst_layer_desc() != rightmost_dst_layer_bwd_memory.get_desc():
        rightmost_dst_layer_bwd_memory = memory(rightmost_bwd_prim_desc.dst_layer_desc(), eng)
        reorder(rightmost_dst_layer_memory, rightmost_dst_layer_bwd_memory).execute(
            s, rightmost_dst_layer_memory, rightmost_dst_layer_bwd_memory)

    # Similar to forward, the backward primitives are connected
    # via "iter" parameters.
    common_diff_weights_iter_memory = memory(leftmost_bwd_prim_desc.diff_weights_iter_desc(),
                                             eng)

    leftmost_dst_iter_bwd_memory = leftmost_dst_iter_memory
    if leftmost_bwd_prim_desc.dst_iter_desc() != leftmost_dst_iter_bwd_memory.get_desc():
        leftmost_dst_iter_bwd_memory = memory(leftmost_bwd_prim_desc.dst_iter_desc(), eng)
        reorder(leftmost_dst_iter_memory, leftmost_dst_iter_bwd_memory).execute(
            s, leftmost_dst_iter_memory, leftmost_dst_iter_bwd_memory)

    leftmost_dst_iter_c_bwd_memory = leftmost_dst_iter_c_memory
    if leftmost_bwd_prim_desc.dst_iter_c_desc() != leftmost_dst_iter_c_bwd_memory.get_desc():
        leftmost_dst_iter_c_bwd_memory = memory(leftmost_bwd_prim_desc.dst_iter_c_desc(), eng)
        reorder(leftmost_dst_iter_c_memory, leftmost_dst_iter_c_bwd_memory).execute(
            s, leftmost_dst_iter_c_memory, leftmost_dst_iter_c_bwd_memory)

    # Construct the RNN primitive objects for backward
    rightmost_layer_bwd = lstm_backward(rightmost_bwd_prim_desc)
    rightmost_bwd_args = {
        DNNL_ARG_SRC_LAYER: rightmost_src_layer_bwd_memory,
        DNNL_ARG_SRC_ITER: rightmost_src_iter_memory,
        DNNL_ARG_SRC_ITER_C: rightmost_src_iter_c_memory,
        DNNL_ARG_WEIGHTS_LAYER: common_weights_layer_bwd_memory,
        DNNL_ARG_WEIGHTS_ITER: common_weights_iter_bwd_memory,
        DNNL_ARG_BIAS: common_bias_bwd_memory,
        DNNL_ARG_DST_LAYER: rightmost_dst_layer_bwd_memory,
        DNNL_ARG_DIFF_SRC_LAYER: rightmost_diff_src_layer_memory,
        DNNL_ARG_DIFF_SRC_ITER: rightmost_diff_src_iter_memory,
        DNNL_ARG_DIFF_SRC_ITER_C: rightmost_diff_src_iter_c_memory,
        DNNL_ARG_DIFF_WEIGHTS_LAYER: common_diff_weights_layer_memory,
        DNNL_ARG_DIFF_WEIGHTS_ITER: common_diff_weights_iter_memory,
        DNNL_ARG_DIFF_BIAS: common_diff_bias_memory,
        DNNL_ARG_DIFF_DST_LAYER: rightmost_diff_dst_layer_memory,
        DNNL_ARG_WORKSPACE: rightmost_workspace_memory}
    rightmost_layer_bwd.execute(s, rightmost_bwd_args)

    leftmost_layer_bwd = lstm_backward(leftmost_bwd_prim_desc)
    leftmost_bwd_args = {
        DNNL_ARG_SRC_LAYER: leftmost_src_layer_bwd_memory,
        DNNL_ARG_WEIGHTS_LAYER: common_weights_layer_bwd_memory,
        DNNL_ARG_WEIGHTS_ITER: common_weights_iter_bwd_memory,
        DNNL_ARG_BIAS: common_bias_bwd_memory,
        DNNL_ARG_DST_LAYER: leftmost_dst_layer_bwd_memory,
        DNNL_ARG_DST_ITER: leftmost_dst_iter_bwd_memory,
        DNNL_ARG_DST_ITER_C: leftmost_dst_iter_c_bwd_memory,
        DNNL_ARG_DIFF_SRC_LAYER: leftmost_diff_src_layer_memory,
        DNNL_ARG_DIFF_WEIGHTS_LAYER: common_diff_weights_layer_memory,
        DNNL_ARG_DIFF_WEIGHTS_ITER: common_diff_weights_iter_memory,
        DNNL_ARG_DIFF_BIAS: common_diff_bias_memory,
        DNNL_ARG_DIFF_DST_LAYER: leftmost_diff_dst_layer_memory,
        DNNL_ARG_DIFF_DST_ITER: leftmost_diff_dst_iter_memory,
        DNNL_ARG_DIFF_DST_ITER_C: leftmost_diff_dst_iter_c_memory,
        DNNL_ARG_WORKSPACE: leftmost_workspace_memory}
    leftmost_layer_bwd.execute(s, leftmost_bwd_args)

    if reorder_common_diff_weights_layer:
        reorder(common_diff_weights_layer_memory, user_common_diff_weights_layer_memory).execute(
            s, common_diff_weights_layer_memory, user_common_diff_weights_layer_memory)

    if reorder_common_diff_bias:
        reorder(common_diff_bias_memory, user_common_diff_bias_memory).execute(
            s, common_diff_bias_memory, user_common_diff_bias_memory)

    #
    # User updates weights and bias using diffs
    #

    s.wait()
    # (not in the C++ program) more iterations, for timing; the diff weights
    # and diff bias keep accumulating, as oneDNN's do
    for _ in range(n_iter - 1):
        leftmost_layer.execute(s, leftmost_fwd_args)
        rightmost_layer.execute(s, rightmost_fwd_args)
        rightmost_layer_bwd.execute(s, rightmost_bwd_args)
        leftmost_layer_bwd.execute(s, leftmost_bwd_args)
    s.wait()
    elapsed = time.perf_counter() - t_start
    print("LSTM T0=%d T1=%d N0=%d N1=%d C=%d: %d iteration(s) in %.2f s, %.3f s per "
          "iteration (2 forward and 2 backward primitives)"
          % (T0, T1, N0, N1, common_feature_size, n_iter, elapsed, elapsed / max(n_iter, 1)))
    if results is not None:
        results["leftmost_dst_layer"] = np.asarray(leftmost_dst_layer_memory).copy()
        results["rightmost_dst_layer"] = np.asarray(rightmost_dst_layer_memory).copy()
        results["diff_src_layer"] = np.asarray(net_diff_src_memory).copy()
        results["diff_weights_layer"] = np.asarray(user_common_diff_weights_layer_memory).copy()
        results["diff_weights_iter"] = np.asarray(common_diff_weights_iter_memory).copy()
        results["diff_bias"] = np.asarray(user_common_diff_bias_memory).copy()
        results["impls"] = [p.impl_info_str() for p in (leftmost_prim_desc, rightmost_prim_desc,
                                                        leftmost_bwd_prim_desc,
                                                        rightmost_bwd_prim_desc)]


def main(argv):
    n_iter = int(argv[2]) if len(argv) > 2 else 1
    return handle_example_errors(simple_net, parse_engine_kind(argv, 1), n_iter)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
