"""oneDNN's examples/cpu_cnn_training_f32.c, ported line for line to the
C-style API (dnnl_c): AlexNet's first block (conv 11x11/4 -> ReLU -> LRN ->
max pool 3x3/2) forward and backward in f32, batch 8, 10 iterations.

Pointers the C code passes for output become handle objects filled in place,
or one-element lists for plain values (C's `&n_fwd` is `n_fwd` = [0]).
"""

import os
import sys
import time
from typing import Any, Optional

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dnnl_c import *  # noqa: E402,F403
from example_utils import CHECK, write_to_dnnl_memory  # noqa: E402

BATCH = 8
IC = 3
OC = 96
CONV_IH = 227
CONV_IW = 227
CONV_OH = 55
CONV_OW = 55
CONV_STRIDE = 4
CONV_PAD = 0
POOL_OH = 27
POOL_OW = 27
POOL_STRIDE = 2
POOL_PAD = 0


def product(arr, size):
    prod = 1
    for i in range(size):
        prod *= arr[i]
    return prod


def init_net_data(data, dim, dims):
    if dim == 1:
        data[:dims[0]] = np.arange(dims[0]) % 1637
    elif dim == 4:
        # indx = in * dims[1] * dims[2] * dims[3] + ic * dims[2] * dims[3] + ih * dims[3] + iw
        n = product(dims, 4)
        data[:n] = np.arange(n) % 1637


class args_t:
    def __init__(self):
        self.nargs = 0
        self.args: Any = None      # a list of dnnl_exec_arg_t once prepared


def prepare_arg_node(node, nargs):
    node.args = [dnnl_exec_arg_t() for _ in range(nargs)]
    node.nargs = nargs


def free_arg_node(node):
    node.args = None


def set_arg(arg, arg_idx, memory):
    arg.arg = arg_idx
    arg.memory = memory


def init_data_memory(dim, dims, user_tag, engine, data, memory):
    user_md = dnnl_memory_desc_t()
    CHECK(dnnl_memory_desc_create_with_tag(user_md, dim, dims, dnnl_f32, user_tag))
    CHECK(dnnl_memory_create(memory, user_md, engine, DNNL_MEMORY_ALLOCATE))
    CHECK(dnnl_memory_desc_destroy(user_md))
    write_to_dnnl_memory(data, memory)


def prepare_reorder(user_memory,          # in
                    prim_memory_md,       # in
                    prim_engine,          # in: primitive's engine
                    dir_is_user_to_prim,  # in: user -> prim or prim -> user
                    prim_memory,          # out: primitive's memory created
                    reorder,              # out: reorder primitive created
                    net_index,            # primitive index in net (inc if reorder created)
                    net, net_args):       # net params
    user_memory_md = const_dnnl_memory_desc_t()
    dnnl_memory_get_memory_desc(user_memory, user_memory_md)

    user_mem_engine = dnnl_engine_t()
    dnnl_memory_get_engine(user_memory, user_mem_engine)

    if not dnnl_memory_desc_equal(user_memory_md, prim_memory_md):
        CHECK(dnnl_memory_create(prim_memory, prim_memory_md, prim_engine,
                                 DNNL_MEMORY_ALLOCATE))

        reorder_pd = dnnl_primitive_desc_t()
        if dir_is_user_to_prim:
            CHECK(dnnl_reorder_primitive_desc_create(reorder_pd, user_memory_md, user_mem_engine,
                                                     prim_memory_md, prim_engine, None))
        else:
            CHECK(dnnl_reorder_primitive_desc_create(reorder_pd, prim_memory_md, prim_engine,
                                                     user_memory_md, user_mem_engine, None))
        CHECK(dnnl_primitive_create(reorder, reorder_pd))
        CHECK(dnnl_primitive_desc_destroy(reorder_pd))

        net[net_index[0]] = reorder
        prepare_arg_node(net_args[net_index[0]], 2)
        set_arg(net_args[net_index[0]].args[0], DNNL_ARG_FROM,
                user_memory if dir_is_user_to_prim else prim_memory)
        set_arg(net_args[net_index[0]].args[1], DNNL_ARG_TO,
                prim_memory if dir_is_user_to_prim else user_memory)
        net_index[0] += 1
    # else: prim_memory and reorder stay NULL

    return dnnl_success


def simple_net(n_iter=10):
    """Builds and runs the net; returns the diff weights and diff bias of the
    last iteration (NumPy copies), for checking."""
    engine = dnnl_engine_t()
    CHECK(dnnl_engine_create(engine, dnnl_cpu, 0))  # idx

    # build a simple net
    n_fwd, n_bwd = [0], [0]
    net_fwd: list[Any] = [None] * 10      # C's dnnl_primitive_t net_fwd[10]
    net_bwd: list[Any] = [None] * 10
    net_fwd_args, net_bwd_args = [args_t() for _ in range(10)], [args_t() for _ in range(10)]

    ndims = 4
    net_src_sizes = [BATCH, IC, CONV_IH, CONV_IW]
    net_dst_sizes = [BATCH, OC, POOL_OH, POOL_OW]

    net_src = np.empty(product(net_src_sizes, ndims), np.float32)
    net_dst = np.empty(product(net_dst_sizes, ndims), np.float32)

    init_net_data(net_src, ndims, net_src_sizes)
    net_dst[:] = 0

    # ----------------------------------------------------------------------
    # ----------------- Forward Stream -------------------------------------
    # AlexNet: conv
    # {BATCH, IC, CONV_IH, CONV_IW} (x) {OC, IC, 11, 11} ->
    # {BATCH, OC, CONV_OH, CONV_OW}
    # strides: {CONV_STRIDE, CONV_STRIDE}
    conv_user_src_sizes = [0] * ndims
    for i in range(ndims):
        conv_user_src_sizes[i] = net_src_sizes[i]
    conv_user_weights_sizes = [OC, IC, 11, 11]
    conv_bias_sizes = [OC]
    conv_user_dst_sizes = [BATCH, OC, CONV_OH, CONV_OW]
    conv_strides = [CONV_STRIDE, CONV_STRIDE]
    conv_dilation = [0, 0]
    conv_padding = [CONV_PAD, CONV_PAD]

    conv_src = net_src
    conv_weights = np.empty(product(conv_user_weights_sizes, ndims), np.float32)
    conv_bias = np.empty(product(conv_bias_sizes, 1), np.float32)

    init_net_data(conv_weights, ndims, conv_user_weights_sizes)
    init_net_data(conv_bias, 1, conv_bias_sizes)

    # create memory for user data
    conv_user_src_memory, conv_user_weights_memory, conv_user_bias_memory = (
        dnnl_memory_t(), dnnl_memory_t(), dnnl_memory_t())
    init_data_memory(ndims, conv_user_src_sizes, dnnl_nchw, engine, conv_src,
                     conv_user_src_memory)
    init_data_memory(ndims, conv_user_weights_sizes, dnnl_oihw, engine, conv_weights,
                     conv_user_weights_memory)
    init_data_memory(1, conv_bias_sizes, dnnl_x, engine, conv_bias, conv_user_bias_memory)

    # create a convolution
    conv_pd = dnnl_primitive_desc_t()

    if True:
        # create data descriptors for convolution w/ no specified format
        # (Optional: C's block scope ends here; the names are reused below for
        # queried descriptors, which may be NULL)
        conv_src_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        conv_weights_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        conv_bias_md = dnnl_memory_desc_t()
        conv_dst_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        CHECK(dnnl_memory_desc_create_with_tag(conv_src_md, ndims, conv_user_src_sizes,
                                               dnnl_f32, dnnl_format_tag_any))
        CHECK(dnnl_memory_desc_create_with_tag(conv_weights_md, ndims, conv_user_weights_sizes,
                                               dnnl_f32, dnnl_format_tag_any))
        CHECK(dnnl_memory_desc_create_with_tag(conv_bias_md, 1, conv_bias_sizes, dnnl_f32,
                                               dnnl_x))
        CHECK(dnnl_memory_desc_create_with_tag(conv_dst_md, ndims, conv_user_dst_sizes,
                                               dnnl_f32, dnnl_format_tag_any))

        CHECK(dnnl_convolution_forward_primitive_desc_create(
            conv_pd, engine, dnnl_forward, dnnl_convolution_direct, conv_src_md,
            conv_weights_md, conv_bias_md, conv_dst_md, conv_strides, conv_dilation,
            conv_padding, conv_padding, None))

        CHECK(dnnl_memory_desc_destroy(conv_src_md))
        CHECK(dnnl_memory_desc_destroy(conv_weights_md))
        CHECK(dnnl_memory_desc_destroy(conv_bias_md))
        CHECK(dnnl_memory_desc_destroy(conv_dst_md))

    conv_internal_src_memory, conv_internal_weights_memory, conv_internal_dst_memory = (
        dnnl_memory_t(), dnnl_memory_t(), dnnl_memory_t())

    # create memory for dst data, we don't need to reorder it to user data
    conv_dst_md = dnnl_primitive_desc_query_md(conv_pd, dnnl_query_dst_md, 0)
    CHECK(dnnl_memory_create(conv_internal_dst_memory, conv_dst_md, engine,
                             DNNL_MEMORY_ALLOCATE))

    # create reorder primitives between user data and convolution srcs
    # if required
    conv_reorder_src, conv_reorder_weights = dnnl_primitive_t(), dnnl_primitive_t()

    conv_src_md = dnnl_primitive_desc_query_md(conv_pd, dnnl_query_src_md, 0)
    CHECK(prepare_reorder(conv_user_src_memory, conv_src_md, engine, 1,
                          conv_internal_src_memory, conv_reorder_src, n_fwd, net_fwd,
                          net_fwd_args))

    conv_weights_md = dnnl_primitive_desc_query_md(conv_pd, dnnl_query_weights_md, 0)
    CHECK(prepare_reorder(conv_user_weights_memory, conv_weights_md, engine, 1,
                          conv_internal_weights_memory, conv_reorder_weights, n_fwd, net_fwd,
                          net_fwd_args))

    conv_src_memory = conv_internal_src_memory if conv_internal_src_memory \
        else conv_user_src_memory
    conv_weights_memory = conv_internal_weights_memory if conv_internal_weights_memory \
        else conv_user_weights_memory

    # finally create a convolution primitive
    conv = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(conv, conv_pd))
    net_fwd[n_fwd[0]] = conv
    prepare_arg_node(net_fwd_args[n_fwd[0]], 4)
    set_arg(net_fwd_args[n_fwd[0]].args[0], DNNL_ARG_SRC, conv_src_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[1], DNNL_ARG_WEIGHTS, conv_weights_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[2], DNNL_ARG_BIAS, conv_user_bias_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[3], DNNL_ARG_DST, conv_internal_dst_memory)
    n_fwd[0] += 1

    # AlexNet: relu
    # {BATCH, OC, CONV_OH, CONV_OW} -> {BATCH, OC, CONV_OH, CONV_OW}

    negative_slope = 0.0

    # keep memory format of source same as the format of convolution
    # output in order to avoid reorder
    relu_src_md = conv_dst_md
    relu_dst_md = relu_src_md

    # create a relu primitive descriptor
    relu_pd = dnnl_primitive_desc_t()
    CHECK(dnnl_eltwise_forward_primitive_desc_create(relu_pd, engine, dnnl_forward,
                                                     dnnl_eltwise_relu, relu_src_md,
                                                     relu_dst_md, negative_slope, 0, None))

    # create relu dst memory
    relu_dst_memory = dnnl_memory_t()
    CHECK(dnnl_memory_create(relu_dst_memory, relu_dst_md, engine, DNNL_MEMORY_ALLOCATE))

    # finally create a relu primitive
    relu = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(relu, relu_pd))
    net_fwd[n_fwd[0]] = relu
    prepare_arg_node(net_fwd_args[n_fwd[0]], 2)
    set_arg(net_fwd_args[n_fwd[0]].args[0], DNNL_ARG_SRC, conv_internal_dst_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[1], DNNL_ARG_DST, relu_dst_memory)
    n_fwd[0] += 1

    # AlexNet: lrn
    # {BATCH, OC, CONV_OH, CONV_OW} -> {BATCH, OC, CONV_OH, CONV_OW}
    # local size: 5
    # alpha: 0.0001
    # beta: 0.75
    # k: 1.0
    local_size = 5
    alpha = 0.0001
    beta = 0.75
    k = 1.0

    # create lrn src memory descriptor using dst memory descriptor
    #  from previous primitive
    lrn_src_md = relu_dst_md
    lrn_dst_md = lrn_src_md

    # create a lrn primitive descriptor
    lrn_pd = dnnl_primitive_desc_t()
    CHECK(dnnl_lrn_forward_primitive_desc_create(lrn_pd, engine, dnnl_forward,
                                                 dnnl_lrn_across_channels, lrn_src_md,
                                                 lrn_dst_md, local_size, alpha, beta, k, None))

    # create primitives for lrn dst and workspace memory
    lrn_dst_memory, lrn_ws_memory = dnnl_memory_t(), dnnl_memory_t()

    CHECK(dnnl_memory_create(lrn_dst_memory, lrn_dst_md, engine, DNNL_MEMORY_ALLOCATE))

    # create workspace only in training and only for forward primitive
    # query lrn_pd for workspace, this memory will be shared with forward lrn
    lrn_ws_md = dnnl_primitive_desc_query_md(lrn_pd, dnnl_query_workspace_md, 0)
    CHECK(dnnl_memory_create(lrn_ws_memory, lrn_ws_md, engine, DNNL_MEMORY_ALLOCATE))

    # finally create a lrn primitive
    lrn = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(lrn, lrn_pd))
    net_fwd[n_fwd[0]] = lrn
    prepare_arg_node(net_fwd_args[n_fwd[0]], 3)
    set_arg(net_fwd_args[n_fwd[0]].args[0], DNNL_ARG_SRC, relu_dst_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[1], DNNL_ARG_DST, lrn_dst_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[2], DNNL_ARG_WORKSPACE, lrn_ws_memory)
    n_fwd[0] += 1

    # AlexNet: pool
    # {BATCH, OC, CONV_OH, CONV_OW} -> {BATCH, OC, POOL_OH, POOL_OW}
    # kernel: {3, 3}
    # strides: {POOL_STRIDE, POOL_STRIDE}
    # dilation: {0, 0}
    pool_dst_sizes = [0] * ndims
    for i in range(ndims):
        pool_dst_sizes[i] = net_dst_sizes[i]
    pool_kernel = [3, 3]
    pool_strides = [POOL_STRIDE, POOL_STRIDE]
    pool_padding = [POOL_PAD, POOL_PAD]
    pool_dilation = [0, 0]

    # create memory for user dst data
    pool_user_dst_memory = dnnl_memory_t()
    init_data_memory(4, pool_dst_sizes, dnnl_nchw, engine, net_dst, pool_user_dst_memory)

    # create a pooling primitive descriptor
    pool_pd = dnnl_primitive_desc_t()

    if True:
        # create pooling src memory descriptor using dst descriptor
        #  from previous primitive
        pool_src_md = lrn_dst_md

        # create descriptors for dst pooling data
        pool_dst_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        CHECK(dnnl_memory_desc_create_with_tag(pool_dst_md, 4, pool_dst_sizes, dnnl_f32,
                                               dnnl_format_tag_any))

        CHECK(dnnl_pooling_forward_primitive_desc_create(
            pool_pd, engine, dnnl_forward, dnnl_pooling_max, pool_src_md, pool_dst_md,
            pool_strides, pool_kernel, pool_dilation, pool_padding, pool_padding, None))
        CHECK(dnnl_memory_desc_destroy(pool_dst_md))

    # create memory for workspace
    pool_ws_memory = dnnl_memory_t()
    pool_ws_md = dnnl_primitive_desc_query_md(pool_pd, dnnl_query_workspace_md, 0)
    CHECK(dnnl_memory_create(pool_ws_memory, pool_ws_md, engine, DNNL_MEMORY_ALLOCATE))

    # create reorder primitives between pooling dsts and user format dst
    # if required
    pool_reorder_dst = dnnl_primitive_t()
    pool_internal_dst_memory = dnnl_memory_t()
    pool_dst_md = dnnl_primitive_desc_query_md(pool_pd, dnnl_query_dst_md, 0)
    n_fwd[0] += 1  # tentative workaround: preserve space for pooling that should
    # happen before the reorder
    CHECK(prepare_reorder(pool_user_dst_memory, pool_dst_md, engine, 0,
                          pool_internal_dst_memory, pool_reorder_dst, n_fwd, net_fwd,
                          net_fwd_args))
    n_fwd[0] -= 2 if pool_reorder_dst else 1

    pool_dst_memory = pool_internal_dst_memory if pool_internal_dst_memory \
        else pool_user_dst_memory

    # finally create a pooling primitive
    pool = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(pool, pool_pd))
    net_fwd[n_fwd[0]] = pool
    prepare_arg_node(net_fwd_args[n_fwd[0]], 3)
    set_arg(net_fwd_args[n_fwd[0]].args[0], DNNL_ARG_SRC, lrn_dst_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[1], DNNL_ARG_DST, pool_dst_memory)
    set_arg(net_fwd_args[n_fwd[0]].args[2], DNNL_ARG_WORKSPACE, pool_ws_memory)
    n_fwd[0] += 1

    if pool_reorder_dst:
        n_fwd[0] += 1

    # -----------------------------------------------------------------------
    # ----------------- Backward Stream -------------------------------------
    # -----------------------------------------------------------------------

    # ... user diff_data ...
    net_diff_dst = np.empty(product(pool_dst_sizes, 4), np.float32)

    init_net_data(net_diff_dst, 4, pool_dst_sizes)

    # create memory for user diff dst data
    pool_user_diff_dst_memory = dnnl_memory_t()
    init_data_memory(4, pool_dst_sizes, dnnl_nchw, engine, net_diff_dst,
                     pool_user_diff_dst_memory)

    # Pooling Backward
    # pooling diff src memory descriptor
    pool_diff_src_md = lrn_dst_md

    # pooling diff dst memory descriptor
    pool_diff_dst_md = pool_dst_md

    # backward primitive descriptor needs to hint forward descriptor
    pool_bwd_pd = dnnl_primitive_desc_t()
    CHECK(dnnl_pooling_backward_primitive_desc_create(
        pool_bwd_pd, engine, dnnl_pooling_max, pool_diff_src_md, pool_diff_dst_md,
        pool_strides, pool_kernel, pool_dilation, pool_padding, pool_padding, pool_pd, None))

    # create reorder primitive between user diff dst and pool diff dst
    # if required
    pool_diff_dst_memory, pool_internal_diff_dst_memory = dnnl_memory_t(), dnnl_memory_t()
    pool_reorder_diff_dst = dnnl_primitive_t()
    CHECK(prepare_reorder(pool_user_diff_dst_memory, pool_diff_dst_md, engine, 1,
                          pool_internal_diff_dst_memory, pool_reorder_diff_dst, n_bwd, net_bwd,
                          net_bwd_args))

    pool_diff_dst_memory = pool_internal_diff_dst_memory if pool_internal_diff_dst_memory \
        else pool_user_diff_dst_memory

    # create memory for pool diff src data
    pool_diff_src_memory = dnnl_memory_t()
    CHECK(dnnl_memory_create(pool_diff_src_memory, pool_diff_src_md, engine,
                             DNNL_MEMORY_ALLOCATE))

    # finally create backward pooling primitive
    pool_bwd = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(pool_bwd, pool_bwd_pd))
    net_bwd[n_bwd[0]] = pool_bwd
    prepare_arg_node(net_bwd_args[n_bwd[0]], 3)
    set_arg(net_bwd_args[n_bwd[0]].args[0], DNNL_ARG_DIFF_DST, pool_diff_dst_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[1], DNNL_ARG_WORKSPACE, pool_ws_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[2], DNNL_ARG_DIFF_SRC, pool_diff_src_memory)
    n_bwd[0] += 1

    # Backward lrn
    lrn_diff_dst_md = pool_diff_src_md
    lrn_diff_src_md = lrn_diff_dst_md

    # create backward lrn descriptor
    lrn_bwd_pd = dnnl_primitive_desc_t()
    CHECK(dnnl_lrn_backward_primitive_desc_create(
        lrn_bwd_pd, engine, dnnl_lrn_across_channels, lrn_diff_src_md, lrn_diff_dst_md,
        lrn_src_md, local_size, alpha, beta, k, lrn_pd, None))

    # create memory for lrn diff src
    lrn_diff_src_memory = dnnl_memory_t()
    CHECK(dnnl_memory_create(lrn_diff_src_memory, lrn_diff_src_md, engine,
                             DNNL_MEMORY_ALLOCATE))

    # finally create backward lrn primitive
    lrn_bwd = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(lrn_bwd, lrn_bwd_pd))
    net_bwd[n_bwd[0]] = lrn_bwd
    prepare_arg_node(net_bwd_args[n_bwd[0]], 4)
    set_arg(net_bwd_args[n_bwd[0]].args[0], DNNL_ARG_SRC, relu_dst_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[1], DNNL_ARG_DIFF_DST, pool_diff_src_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[2], DNNL_ARG_WORKSPACE, lrn_ws_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[3], DNNL_ARG_DIFF_SRC, lrn_diff_src_memory)
    n_bwd[0] += 1

    # Backward relu
    relu_diff_src_md = lrn_diff_src_md
    relu_diff_dst_md = lrn_diff_src_md

    # create backward relu descriptor
    relu_bwd_pd = dnnl_primitive_desc_t()
    CHECK(dnnl_eltwise_backward_primitive_desc_create(
        relu_bwd_pd, engine, dnnl_eltwise_relu, relu_diff_src_md, relu_diff_dst_md,
        relu_src_md, negative_slope, 0, relu_pd, None))

    # create memory for relu diff src
    relu_diff_src_memory = dnnl_memory_t()
    CHECK(dnnl_memory_create(relu_diff_src_memory, relu_diff_src_md, engine,
                             DNNL_MEMORY_ALLOCATE))

    # finally create backward relu primitive
    relu_bwd = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(relu_bwd, relu_bwd_pd))
    net_bwd[n_bwd[0]] = relu_bwd
    prepare_arg_node(net_bwd_args[n_bwd[0]], 3)
    set_arg(net_bwd_args[n_bwd[0]].args[0], DNNL_ARG_SRC, conv_internal_dst_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[1], DNNL_ARG_DIFF_DST, lrn_diff_src_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[2], DNNL_ARG_DIFF_SRC, relu_diff_src_memory)
    n_bwd[0] += 1

    # Backward convolution with respect to weights
    conv_diff_bias_buffer = np.empty(product(conv_bias_sizes, 1), np.float32)
    conv_user_diff_weights_buffer = np.empty(product(conv_user_weights_sizes, 4), np.float32)

    # initialize memory for diff weights in user format
    conv_user_diff_weights_memory = dnnl_memory_t()
    init_data_memory(4, conv_user_weights_sizes, dnnl_oihw, engine,
                     conv_user_diff_weights_buffer, conv_user_diff_weights_memory)

    # create backward convolution primitive descriptor
    conv_bwd_weights_pd = dnnl_primitive_desc_t()

    if True:
        # memory descriptors should be in format `any` to allow backward
        # convolution for
        # weights to chose the format it prefers for best performance
        # (Optional: as above)
        conv_diff_src_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        conv_diff_weights_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        conv_diff_bias_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        conv_diff_dst_md: Optional[dnnl_memory_desc_t] = dnnl_memory_desc_t()
        CHECK(dnnl_memory_desc_create_with_tag(conv_diff_src_md, 4, conv_user_src_sizes,
                                               dnnl_f32, dnnl_format_tag_any))
        CHECK(dnnl_memory_desc_create_with_tag(conv_diff_weights_md, 4, conv_user_weights_sizes,
                                               dnnl_f32, dnnl_format_tag_any))
        CHECK(dnnl_memory_desc_create_with_tag(conv_diff_bias_md, 1, conv_bias_sizes, dnnl_f32,
                                               dnnl_x))
        CHECK(dnnl_memory_desc_create_with_tag(conv_diff_dst_md, 4, conv_user_dst_sizes,
                                               dnnl_f32, dnnl_format_tag_any))

        # create backward convolution descriptor
        CHECK(dnnl_convolution_backward_weights_primitive_desc_create(
            conv_bwd_weights_pd, engine, dnnl_convolution_direct, conv_diff_src_md,
            conv_diff_weights_md, conv_diff_bias_md, conv_diff_dst_md, conv_strides,
            conv_dilation, conv_padding, conv_padding, conv_pd, None))

        CHECK(dnnl_memory_desc_destroy(conv_diff_src_md))
        CHECK(dnnl_memory_desc_destroy(conv_diff_weights_md))
        CHECK(dnnl_memory_desc_destroy(conv_diff_bias_md))
        CHECK(dnnl_memory_desc_destroy(conv_diff_dst_md))

    # for best performance convolution backward might chose
    # different memory format for src and diff_dst
    # than the memory formats preferred by forward convolution
    # for src and dst respectively
    # create reorder primitives for src from forward convolution to the
    # format chosen by backward convolution
    conv_bwd_reorder_src = dnnl_primitive_t()
    conv_bwd_internal_src_memory = dnnl_memory_t()
    conv_diff_src_md = dnnl_primitive_desc_query_md(conv_bwd_weights_pd, dnnl_query_src_md, 0)
    CHECK(prepare_reorder(conv_src_memory, conv_diff_src_md, engine, 1,
                          conv_bwd_internal_src_memory, conv_bwd_reorder_src, n_bwd, net_bwd,
                          net_bwd_args))

    conv_bwd_weights_src_memory = conv_bwd_internal_src_memory \
        if conv_bwd_internal_src_memory else conv_src_memory

    # create reorder primitives for diff_dst between diff_src from relu_bwd
    # and format preferred by conv_diff_weights
    conv_reorder_diff_dst = dnnl_primitive_t()
    conv_internal_diff_dst_memory = dnnl_memory_t()
    conv_diff_dst_md = dnnl_primitive_desc_query_md(conv_bwd_weights_pd,
                                                    dnnl_query_diff_dst_md, 0)

    CHECK(prepare_reorder(relu_diff_src_memory, conv_diff_dst_md, engine, 1,
                          conv_internal_diff_dst_memory, conv_reorder_diff_dst, n_bwd, net_bwd,
                          net_bwd_args))

    conv_diff_dst_memory = conv_internal_diff_dst_memory \
        if conv_internal_diff_dst_memory else relu_diff_src_memory

    # create reorder primitives for conv diff weights memory
    conv_reorder_diff_weights = dnnl_primitive_t()
    conv_internal_diff_weights_memory = dnnl_memory_t()
    conv_diff_weights_md = dnnl_primitive_desc_query_md(conv_bwd_weights_pd,
                                                        dnnl_query_diff_weights_md, 0)
    n_bwd[0] += 1  # tentative workaround: preserve space for conv_bwd_weights
    # that should happen before the reorder

    CHECK(prepare_reorder(conv_user_diff_weights_memory, conv_diff_weights_md, engine, 0,
                          conv_internal_diff_weights_memory, conv_reorder_diff_weights, n_bwd,
                          net_bwd, net_bwd_args))
    n_bwd[0] -= 2 if conv_reorder_diff_weights else 1

    conv_diff_weights_memory = conv_internal_diff_weights_memory \
        if conv_internal_diff_weights_memory else conv_user_diff_weights_memory

    # create memory for diff bias memory
    conv_diff_bias_memory = dnnl_memory_t()
    conv_diff_bias_md = dnnl_primitive_desc_query_md(conv_bwd_weights_pd,
                                                     dnnl_query_diff_weights_md, 1)
    CHECK(dnnl_memory_create(conv_diff_bias_memory, conv_diff_bias_md, engine,
                             DNNL_MEMORY_ALLOCATE))
    CHECK(dnnl_memory_set_data_handle(conv_diff_bias_memory, conv_diff_bias_buffer))

    # finally created backward convolution weights primitive
    conv_bwd_weights = dnnl_primitive_t()
    CHECK(dnnl_primitive_create(conv_bwd_weights, conv_bwd_weights_pd))
    net_bwd[n_bwd[0]] = conv_bwd_weights
    prepare_arg_node(net_bwd_args[n_bwd[0]], 4)
    set_arg(net_bwd_args[n_bwd[0]].args[0], DNNL_ARG_SRC, conv_bwd_weights_src_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[1], DNNL_ARG_DIFF_DST, conv_diff_dst_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[2], DNNL_ARG_DIFF_WEIGHTS, conv_diff_weights_memory)
    set_arg(net_bwd_args[n_bwd[0]].args[3], DNNL_ARG_DIFF_BIAS, conv_diff_bias_memory)
    n_bwd[0] += 1

    if conv_reorder_diff_weights:
        n_bwd[0] += 1

    # output from backward stream
    net_diff_weights: list[Any] = [None]   # C's void *, filled by the call
    net_diff_bias: list[Any] = [None]

    stream = dnnl_stream_t()
    CHECK(dnnl_stream_create(stream, engine, dnnl_stream_default_flags))
    # Execute the net
    t_start = time.perf_counter()
    for i in range(n_iter):
        for i in range(n_fwd[0]):
            CHECK(dnnl_primitive_execute(net_fwd[i], stream, net_fwd_args[i].nargs,
                                         net_fwd_args[i].args))

        # Update net_diff_dst
        net_output: list[Any] = [None]  # output from forward stream:
        CHECK(dnnl_memory_get_data_handle(pool_user_dst_memory, net_output))
        # ...user updates net_diff_dst using net_output...
        # some user defined func update_diff_dst(net_diff_dst, net_output)

        # Backward pass
        for i in range(n_bwd[0]):
            CHECK(dnnl_primitive_execute(net_bwd[i], stream, net_bwd_args[i].nargs,
                                         net_bwd_args[i].args))

        # ... update weights ...
        CHECK(dnnl_memory_get_data_handle(conv_user_diff_weights_memory, net_diff_weights))
        CHECK(dnnl_memory_get_data_handle(conv_diff_bias_memory, net_diff_bias))
        # ...user updates weights and bias using diff weights and bias...
        # some user defined func update_weights(conv_user_weights_memory,
        # conv_bias_memory,
        #      net_diff_weights, net_diff_bias);
    CHECK(dnnl_stream_wait(stream))
    elapsed = time.perf_counter() - t_start
    print("%d iterations in %.2f s: %.3f s per iteration (forward %d primitives, backward %d)"
          % (n_iter, elapsed, elapsed / max(n_iter, 1), n_fwd[0], n_bwd[0]))
    result = (np.frombuffer(net_diff_weights[0], np.float32).copy(),
              np.frombuffer(net_diff_bias[0], np.float32).copy())

    dnnl_stream_destroy(stream)

    # clean up nets
    for i in range(n_fwd[0]):
        free_arg_node(net_fwd_args[i])
    for i in range(n_bwd[0]):
        free_arg_node(net_bwd_args[i])

    # Cleanup forward
    CHECK(dnnl_primitive_desc_destroy(pool_pd))
    CHECK(dnnl_primitive_desc_destroy(lrn_pd))
    CHECK(dnnl_primitive_desc_destroy(relu_pd))
    CHECK(dnnl_primitive_desc_destroy(conv_pd))

    del net_src, net_dst

    dnnl_memory_destroy(conv_user_src_memory)
    dnnl_memory_destroy(conv_user_weights_memory)
    dnnl_memory_destroy(conv_user_bias_memory)
    dnnl_memory_destroy(conv_internal_src_memory)
    dnnl_memory_destroy(conv_internal_weights_memory)
    dnnl_memory_destroy(conv_internal_dst_memory)
    dnnl_primitive_destroy(conv_reorder_src)
    dnnl_primitive_destroy(conv_reorder_weights)
    dnnl_primitive_destroy(conv)

    del conv_weights, conv_bias

    dnnl_memory_destroy(relu_dst_memory)
    dnnl_primitive_destroy(relu)

    dnnl_memory_destroy(lrn_ws_memory)
    dnnl_memory_destroy(lrn_dst_memory)
    dnnl_primitive_destroy(lrn)

    dnnl_memory_destroy(pool_user_dst_memory)
    dnnl_memory_destroy(pool_internal_dst_memory)
    dnnl_memory_destroy(pool_ws_memory)
    dnnl_primitive_destroy(pool_reorder_dst)
    dnnl_primitive_destroy(pool)

    # Cleanup backward
    CHECK(dnnl_primitive_desc_destroy(pool_bwd_pd))
    CHECK(dnnl_primitive_desc_destroy(lrn_bwd_pd))
    CHECK(dnnl_primitive_desc_destroy(relu_bwd_pd))
    CHECK(dnnl_primitive_desc_destroy(conv_bwd_weights_pd))

    dnnl_memory_destroy(pool_user_diff_dst_memory)
    dnnl_memory_destroy(pool_diff_src_memory)
    dnnl_memory_destroy(pool_internal_diff_dst_memory)
    dnnl_primitive_destroy(pool_reorder_diff_dst)
    dnnl_primitive_destroy(pool_bwd)

    del net_diff_dst

    dnnl_memory_destroy(lrn_diff_src_memory)
    dnnl_primitive_destroy(lrn_bwd)

    dnnl_memory_destroy(relu_diff_src_memory)
    dnnl_primitive_destroy(relu_bwd)

    dnnl_memory_destroy(conv_user_diff_weights_memory)
    dnnl_memory_destroy(conv_diff_bias_memory)
    dnnl_memory_destroy(conv_bwd_internal_src_memory)
    dnnl_primitive_destroy(conv_bwd_reorder_src)
    dnnl_memory_destroy(conv_internal_diff_dst_memory)
    dnnl_primitive_destroy(conv_reorder_diff_dst)
    dnnl_memory_destroy(conv_internal_diff_weights_memory)
    dnnl_primitive_destroy(conv_reorder_diff_weights)
    dnnl_primitive_destroy(conv_bwd_weights)

    del conv_diff_bias_buffer, conv_user_diff_weights_buffer

    dnnl_engine_destroy(engine)
    return result


def main(argv):
    n_iter = int(argv[1]) if len(argv) > 1 else 10
    simple_net(n_iter)
    print("Example passed on CPU.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
