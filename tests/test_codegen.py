"""The generated declarations are current, and a sample of oneDNN's enum
values is right."""

import filecmp
import os
import subprocess
import sys

import pytest

import dnnl_c as c

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "codegen", "generate.py")),
                    reason="needs the source tree")
def test_generated_files_are_current(tmp_path):
    subprocess.check_call([sys.executable, os.path.join(ROOT, "codegen", "generate.py"),
                           str(tmp_path)])
    for name in ("dnnl_types.pxd", "_constants.py", "_tables.h"):
        assert filecmp.cmp(tmp_path / name, os.path.join(ROOT, "dnnl_c", name), shallow=False), name


def test_enum_values():
    assert (c.dnnl_success, c.dnnl_out_of_memory, c.dnnl_invalid_arguments, c.dnnl_unimplemented,
            c.dnnl_last_impl_reached, c.dnnl_runtime_error, c.dnnl_not_required) == tuple(range(7))
    assert (c.dnnl_f16, c.dnnl_bf16, c.dnnl_f32, c.dnnl_s32, c.dnnl_s8, c.dnnl_u8) == (1, 2, 3, 4,
                                                                                       5, 6)
    assert (c.dnnl_forward_training, c.dnnl_forward_inference, c.dnnl_backward,
            c.dnnl_backward_data, c.dnnl_backward_weights, c.dnnl_backward_bias) \
        == (64, 96, 128, 160, 192, 193)
    assert (c.dnnl_convolution_direct, c.dnnl_convolution_auto, c.dnnl_eltwise_relu,
            c.dnnl_eltwise_hardswish, c.dnnl_eltwise_relu_use_dst_for_bwd,
            c.dnnl_eltwise_clip_v2_use_dst_for_bwd) == (1, 3, 0x20, 52, 0x100, 262)
    assert (c.dnnl_pooling_max, c.dnnl_pooling_avg_include_padding,
            c.dnnl_pooling_avg_exclude_padding) == (0x1ff, 0x2ff, 0x3ff)
    assert (c.dnnl_lrn_across_channels, c.dnnl_lrn_within_channel, c.dnnl_vanilla_lstm) \
        == (0xaff, 0xbff, 0x2fff)
    assert (c.dnnl_query_engine, c.dnnl_query_impl_info_str, c.dnnl_query_kernel,
            c.dnnl_query_src_md, c.dnnl_query_workspace_md, c.dnnl_query_exec_arg_md,
            c.dnnl_query_ndims_s32, c.dnnl_query_num_handles_s32) \
        == (1, 8, 31, 129, 135, 255, 256, 268)
    assert (c.DNNL_ARG_SRC, c.DNNL_ARG_SRC_ITER_C, c.DNNL_ARG_DST, c.DNNL_ARG_WEIGHTS_PROJECTION,
            c.DNNL_ARG_BIAS, c.DNNL_ARG_WORKSPACE, c.DNNL_ARG_SCRATCHPAD, c.DNNL_ARG_DIFF_SRC,
            c.DNNL_ARG_DIFF_DST_ITER_C, c.DNNL_ARG_DIFF_WEIGHTS, c.DNNL_ARG_DIFF_BIAS) \
        == (1, 3, 17, 36, 41, 64, 80, 129, 147, 161, 169)
    assert (c.dnnl_reorder, c.dnnl_convolution, c.dnnl_eltwise, c.dnnl_lrn, c.dnnl_rnn,
            c.dnnl_pooling) == (1, 5, 7, 8, 11, 16)
    assert c.DNNL_MAX_NDIMS == 12 and c.DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) == 32768
