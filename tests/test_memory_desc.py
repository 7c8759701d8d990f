"""Memory descriptors: oneDNN's rules for sizes, strides, padding,
sub-memories, equality, reshape and permute_axes (ONEDNN_NOTES 1.4)."""

import numpy as np
import pytest

import dnnl_c as c
from helpers import check, make_md


def q(md, what):
    out = [None]
    check(c.dnnl_memory_desc_query(md, what, out), c.dnnl_query2str(what))
    return out[0]


def test_plain_tags_have_dense_strides():
    dims = [2, 3, 5, 7]
    assert q(make_md(dims, c.dnnl_f32, c.dnnl_nchw), c.dnnl_query_strides) == (105, 35, 7, 1)
    assert q(make_md(dims, c.dnnl_f32, c.dnnl_nhwc), c.dnnl_query_strides) == (105, 1, 21, 3)
    assert q(make_md(dims, c.dnnl_f32, c.dnnl_chwn), c.dnnl_query_strides) == (1, 70, 14, 2)
    assert q(make_md(dims, c.dnnl_f32, c.dnnl_hwio), c.dnnl_query_strides) == (1, 2, 42, 6)
    md = make_md(dims, c.dnnl_bf16, c.dnnl_nchw)
    assert c.dnnl_memory_desc_get_size(md) == 2 * 3 * 5 * 7 * 2
    assert q(md, c.dnnl_query_format_kind) == c.dnnl_blocked
    assert q(md, c.dnnl_query_inner_nblks_s32) == 0


def test_blocked_tag_pads_and_blocks():
    md = make_md([2, 3, 5, 7], c.dnnl_f32, c.dnnl_nChw8c)
    assert q(md, c.dnnl_query_dims) == (2, 3, 5, 7)
    assert q(md, c.dnnl_query_padded_dims) == (2, 8, 5, 7)
    assert q(md, c.dnnl_query_padded_offsets) == (0, 0, 0, 0)
    assert q(md, c.dnnl_query_strides) == (280, 280, 56, 8)
    assert q(md, c.dnnl_query_inner_nblks_s32) == 1
    assert q(md, c.dnnl_query_inner_blks) == (8,)
    assert q(md, c.dnnl_query_inner_idxs) == (1,)
    assert c.dnnl_memory_desc_get_size(md) == 2 * 8 * 5 * 7 * 4

    w = make_md([10, 3, 3, 3], c.dnnl_f32, c.dnnl_OIhw8i8o)
    assert q(w, c.dnnl_query_padded_dims) == (16, 8, 3, 3)
    assert q(w, c.dnnl_query_inner_blks) == (8, 8)
    assert q(w, c.dnnl_query_inner_idxs) == (1, 0)
    assert q(w, c.dnnl_query_strides) == (576, 576, 192, 64)
    g = make_md([2, 5, 3, 3, 3], c.dnnl_f32, c.dnnl_gOIhw8i8o)
    assert q(g, c.dnnl_query_padded_dims) == (2, 8, 8, 3, 3)
    # double blocking of one dim: ABcd4b16a4b
    d = make_md([20, 9, 1, 1], c.dnnl_f32, c.dnnl_ABcd4b16a4b)
    assert q(d, c.dnnl_query_padded_dims) == (32, 16, 1, 1)
    assert q(d, c.dnnl_query_inner_blks) == (4, 16, 4)
    assert q(d, c.dnnl_query_inner_idxs) == (1, 0, 1)


def test_tag_values_match_onednn():
    # anchors from oneDNN's headers (ONEDNN_NOTES 1.3)
    assert (c.dnnl_nchw, c.dnnl_nhwc, c.dnnl_chwn, c.dnnl_hwio) == (5, 22, 26, 28)
    assert (c.dnnl_nChw8c, c.dnnl_nChw16c, c.dnnl_OIhw8i8o, c.dnnl_OIhw16i16o) == (102, 78, 107, 79)
    assert (c.dnnl_Ohwi8o, c.dnnl_Ohwi16o, c.dnnl_ldOi32o, c.dnnl_nCw16c) == (216, 211, 267, 56)
    assert (c.dnnl_ldigo, c.dnnl_ldgoi, c.dnnl_ldoi, c.dnnl_ntc, c.dnnl_iohw) == (6, 31, 20, 16, 25)
    assert c.dnnl_fmt_tag2str(c.dnnl_nChw8c) == "aBcd8b"
    assert c.dnnl_fmt_tag2str(c.dnnl_nchw) == "abcd"


def test_any_and_zero_descriptors():
    md = make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_format_tag_any)
    assert q(md, c.dnnl_query_format_kind) == c.dnnl_format_kind_any
    assert q(md, c.dnnl_query_padded_dims) == (2, 3, 4, 5)
    assert c.dnnl_memory_desc_get_size(md) == 0
    assert c.dnnl_memory_desc_query(md, c.dnnl_query_strides, [None]) == c.dnnl_invalid_arguments
    for zero in (make_md([], c.dnnl_data_type_undef, c.dnnl_format_tag_undef),
                 make_md([2, 3], c.dnnl_f32, c.dnnl_format_tag_undef)):
        assert q(zero, c.dnnl_query_ndims_s32) == 0
        assert q(zero, c.dnnl_query_format_kind) == c.dnnl_format_kind_undef
        assert c.dnnl_memory_desc_get_size(zero) == 0
    zero_dim = make_md([2, 0, 3], c.dnnl_f32, c.dnnl_abc)
    assert c.dnnl_memory_desc_get_size(zero_dim) == 0


def test_strides_descriptor():
    md = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_with_strides(md, 3, [2, 3, 4], c.dnnl_f32, None))
    assert q(md, c.dnnl_query_strides) == (12, 4, 1)
    gap = make_md([2, 3, 4], c.dnnl_f32, strides=[100, 1, 20])
    assert q(gap, c.dnnl_query_strides) == (100, 1, 20)
    assert c.dnnl_memory_desc_get_size(gap) == 200 * 4
    assert c.cydnnl_memory_desc_extent(gap) == (100 + 2 + 60 + 1) * 4
    bcast = make_md([2, 3], c.dnnl_f32, strides=[0, 1])
    assert q(bcast, c.dnnl_query_strides) == (0, 1)
    md = c.dnnl_memory_desc_t()
    assert c.dnnl_memory_desc_create_with_strides(md, 2, [2, 3], c.dnnl_f32, [1, 1]) \
        == c.dnnl_invalid_arguments
    assert c.dnnl_memory_desc_create_with_strides(md, 2, [2, 3], c.dnnl_f32, [-3, 1]) \
        == c.dnnl_invalid_arguments
    # strides of size-1 dims are free
    assert c.dnnl_memory_desc_create_with_strides(md, 2, [1, 3], c.dnnl_f32, [1, 1]) \
        == c.dnnl_success


def test_submemory_offsets_and_padding():
    parent = make_md([4, 16, 6, 6], c.dnnl_f32, c.dnnl_nChw8c)
    sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(sub, parent, [2, 8, 3, 4], [1, 8, 2, 1]))
    strides = q(parent, c.dnnl_query_strides)
    assert q(sub, c.dnnl_query_strides) == strides
    assert q(sub, c.dnnl_query_dims) == (2, 8, 3, 4)
    assert q(sub, c.dnnl_query_padded_dims) == (2, 8, 3, 4)
    assert q(sub, c.dnnl_query_submemory_offset_s64) == 1 * strides[0] + 1 * strides[1] \
        + 2 * strides[2] + 1 * strides[3]
    # at the right border the parent's padding belongs to the sub-memory
    p3 = make_md([2, 13, 3, 3], c.dnnl_f32, c.dnnl_nChw8c)
    check(c.dnnl_memory_desc_create_submemory(sub, p3, [2, 5, 3, 3], [0, 8, 0, 0]))
    assert q(sub, c.dnnl_query_padded_dims) == (2, 8, 3, 3)
    # offsets must respect blocks; bounds are checked
    assert c.dnnl_memory_desc_create_submemory(sub, parent, [2, 8, 3, 4], [0, 4, 0, 0]) \
        == c.dnnl_unimplemented
    assert c.dnnl_memory_desc_create_submemory(sub, parent, [2, 8, 3, 4], [3, 0, 0, 0]) \
        == c.dnnl_invalid_arguments
    assert c.dnnl_memory_desc_create_submemory(sub, parent, [2, 8, 3, -1], [0, 0, 0, 0]) \
        == c.dnnl_invalid_arguments
    any_md = make_md([4, 4], c.dnnl_f32, c.dnnl_format_tag_any)
    assert c.dnnl_memory_desc_create_submemory(sub, any_md, [2, 2], [0, 0]) \
        == c.dnnl_unimplemented


def eq(a, b):
    return c.dnnl_memory_desc_equal(a, b)


def test_equality_rules():
    a = make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nchw)
    assert eq(a, make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nchw)) == 1
    assert eq(a, a) == 1
    assert eq(a, make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nhwc)) == 0
    assert eq(a, make_md([2, 3, 4, 5], c.dnnl_bf16, c.dnnl_nchw)) == 0
    assert eq(a, make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_format_tag_any)) == 0
    assert eq(a, None) == 0 and eq(None, a) == 0
    # strides of size-1 dims are ignored: nchw == nhwc when C == 1 or H == W == 1
    assert eq(make_md([2, 1, 4, 5], c.dnnl_f32, c.dnnl_nchw),
              make_md([2, 1, 4, 5], c.dnnl_f32, c.dnnl_nhwc)) == 1
    assert eq(make_md([2, 3, 1, 1], c.dnnl_f32, c.dnnl_nchw),
              make_md([2, 3, 1, 1], c.dnnl_f32, c.dnnl_nhwc)) == 1
    # ... but not when padding makes the dim bigger than 1
    assert eq(make_md([2, 1, 4, 5], c.dnnl_f32, c.dnnl_nchw),
              make_md([2, 1, 4, 5], c.dnnl_f32, c.dnnl_nChw8c)) == 0
    zero1 = make_md([], c.dnnl_data_type_undef, c.dnnl_format_tag_undef)
    zero2 = make_md([3], c.dnnl_f32, c.dnnl_format_tag_undef)
    assert eq(zero1, zero2) == 1
    sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(sub, a, [2, 3, 4, 5], [0, 0, 0, 0]))
    assert eq(a, sub) == 1
    check(c.dnnl_memory_desc_create_submemory(sub, a, [2, 3, 4, 4], [0, 0, 0, 1]))
    assert eq(a, sub) == 0


def test_clone_is_independent():
    a = make_md([2, 3], c.dnnl_f32, c.dnnl_ab)
    b = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_clone(b, a))
    assert eq(a, b) == 1
    check(c.dnnl_memory_desc_destroy(a))
    assert q(b, c.dnnl_query_dims) == (2, 3)


def test_reshape():
    a = make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nchw)
    r = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_reshape(r, a, 2, [6, 20]))
    assert eq(r, make_md([6, 20], c.dnnl_f32, c.dnnl_ab)) == 1
    check(c.dnnl_memory_desc_reshape(r, a, 5, [1, 2, 3, 4, 5]))
    assert eq(r, make_md([1, 2, 3, 4, 5], c.dnnl_f32, c.dnnl_abcde)) == 1
    # blocked dims stay whole; other dims may merge
    b = make_md([2, 16, 3, 4], c.dnnl_f32, c.dnnl_nChw8c)
    check(c.dnnl_memory_desc_reshape(r, b, 3, [2, 16, 12]))
    assert q(r, c.dnnl_query_strides) == (16 * 12, 12 * 8, 8)
    assert q(r, c.dnnl_query_inner_idxs) == (1,)
    assert c.dnnl_memory_desc_reshape(r, b, 3, [32, 3, 4]) == c.dnnl_invalid_arguments
    assert c.dnnl_memory_desc_reshape(r, a, 2, [6, 21]) == c.dnnl_invalid_arguments
    nhwc = make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nhwc)
    assert c.dnnl_memory_desc_reshape(r, nhwc, 3, [6, 4, 5]) == c.dnnl_invalid_arguments
    any_md = make_md([2, 3], c.dnnl_f32, c.dnnl_format_tag_any)
    check(c.dnnl_memory_desc_reshape(r, any_md, 1, [6]))
    assert q(r, c.dnnl_query_format_kind) == c.dnnl_format_kind_any


def test_permute_axes():
    a = make_md([2, 3, 4, 5], c.dnnl_f32, c.dnnl_nchw)
    p = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_permute_axes(p, a, [0, 3, 1, 2]))
    # logical dim d moves to perm[d]: (N, C, H, W) -> (N, H, W, C) with nchw memory order
    assert q(p, c.dnnl_query_dims) == (2, 4, 5, 3)
    assert q(p, c.dnnl_query_strides) == (60, 5, 1, 20)
    b = make_md([2, 16, 3, 4], c.dnnl_f32, c.dnnl_nChw8c)
    check(c.dnnl_memory_desc_permute_axes(p, b, [1, 0, 2, 3]))
    assert q(p, c.dnnl_query_inner_idxs) == (0,)
    assert c.dnnl_memory_desc_permute_axes(p, a, [0, 0, 1, 2]) == c.dnnl_invalid_arguments


def test_query_v2_and_sizes():
    md = make_md([3, 5], c.dnnl_bf16, c.dnnl_ba)
    out = [None]
    check(c.dnnl_memory_desc_query_v2(md, c.dnnl_query_num_handles_s32, 0, out))
    assert out[0] == 1
    check(c.dnnl_memory_desc_query_v2(md, c.dnnl_query_data_type, 0, out))
    assert out[0] == c.dnnl_bf16
    assert c.dnnl_memory_desc_query_v2(md, c.dnnl_query_data_type, 1, out) \
        == c.dnnl_invalid_arguments
    assert c.dnnl_memory_desc_query(md, c.dnnl_query_engine, out) == c.dnnl_unimplemented
    assert c.dnnl_memory_desc_get_size_v2(md, 0) == 30
    assert [c.dnnl_data_type_size(dt) for dt in
            (c.dnnl_f32, c.dnnl_bf16, c.dnnl_s32, c.dnnl_s8, c.dnnl_u8, c.dnnl_f16)] \
        == [4, 2, 4, 1, 1, 2]


@pytest.mark.parametrize("ndims", range(1, 13))
def test_every_plain_ndims(ndims):
    dims = [2 + (d % 3) for d in range(ndims)]
    tag = c.dnnl_a + ndims - 1
    md = make_md(dims, c.dnnl_f32, tag)
    strides = q(md, c.dnnl_query_strides)
    assert strides == tuple(np.zeros(dims, np.float32).strides[d] // 4 for d in range(ndims))
