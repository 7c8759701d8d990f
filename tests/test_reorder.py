"""Reorder against NumPy: every format tag, blocked pairs, data-type
conversion (bf16 rounding ties, NaN, inf, subnormals, saturation) and
sub-memories on both sides."""

import numpy as np
import pytest

import dnnl_c as c
from dnnl_c._constants import ENUMS
from helpers import (NP_DTYPE, bf16_bits, bf16_to_f32, check, from_layout, make_md,
                     make_memory, memory_bytes, reorder, to_layout)

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

CANONICAL_TAGS = sorted(
    (name[5:], value) for name, value in ENUMS["dnnl_format_tag_t"].items()
    if 1 < value < 875 and name[5:] == c.dnnl_fmt_tag2str(value))
ODD_DIMS = [3, 5, 2, 7, 3, 5]


def plain_tag(ndims):
    return c.dnnl_a + ndims - 1


def test_tag_list_is_complete():
    assert len(CANONICAL_TAGS) == 850
    assert ("aBcd8b", c.dnnl_nChw8c) in CANONICAL_TAGS


@pytest.mark.parametrize("name,tag", CANONICAL_TAGS, ids=[t[0] for t in CANONICAL_TAGS])
def test_every_tag_to_and_from_plain(eng, strm, name, tag):
    ndims = len({ch.lower() for ch in name if ch.isalpha()})
    # plain tags go up to 12-D: small dims keep those cheap
    dims = ODD_DIMS[:ndims] if ndims <= 6 else [2] * ndims
    rng = np.random.default_rng(tag)
    a = rng.standard_normal(dims).astype(np.float32)
    plain_md = make_md(dims, c.dnnl_f32, plain_tag(ndims))
    md = make_md(dims, c.dnnl_f32, tag)
    src = make_memory(plain_md, eng, a)
    dst = make_memory(md, eng)
    reorder(eng, strm, plain_md, src, md, dst)
    expected = to_layout(a, name)
    got = memory_bytes(dst).view(np.float32)
    np.testing.assert_array_equal(got[:expected.size], expected)
    back = np.full(dims, np.nan, np.float32)
    reorder(eng, strm, md, dst, plain_md, make_memory(plain_md, eng, back))
    np.testing.assert_array_equal(back, a)


BLOCKED_PAIRS = [
    ([2, 19, 5, 3], "aBcd8b", "aBcd16b"), ([2, 19, 5, 3], "aBcd8b", "acdb"),
    ([2, 19, 5, 3], "aBcd16b", "bcda"), ([19, 13, 3, 3], "ABcd8b8a", "ABcd16b16a"),
    ([19, 13, 3, 3], "ABcd8b8a", "ABcd8a8b"), ([19, 13, 3, 3], "Acdb8a", "ABcd8b8a"),
    ([2, 9, 13, 3, 3], "aBCde8c8b", "abcde"), ([3, 17, 4], "aBc8b", "aBc16b"),
    ([2, 11, 3, 4, 5], "aBcde8b", "acdeb"), ([5, 2, 7, 4, 9], "abcde", "abdec"),
    # channels first <-> channels last, and channels last <-> channel blocks
    ([2, 19, 5, 3], "abcd", "acdb"), ([2, 19, 5, 3], "acdb", "abcd"),
    ([2, 19, 5, 3], "acdb", "aBcd16b"), ([3, 17, 70], "acb", "abc"),
    ([2, 11, 3, 4, 5], "abcde", "acdeb"), ([2, 11, 3, 4, 5], "acdeb", "aBcde8b"),
    # more than one register tile of the transposes (4, 8 or 16 square) and edges
    ([2, 37, 6, 7], "abcd", "acdb"), ([2, 37, 6, 7], "acdb", "abcd"),
    ([1, 35, 9, 5], "abcd", "aBcd16b"), ([3, 35, 9, 5], "aBcd16b", "abcd"),
    ([2, 21, 3, 4, 5], "abcde", "acdeb"), ([2, 21, 3, 4, 5], "acdeb", "abcde"),
    ([2, 16, 32], "abc", "acb"), ([2, 16, 32], "acb", "abc"),
    # blocks of 8 (tiles of 8 at AVX-512) and few channels out of blocks
    # (whole tiles read, the channels' rows stored)
    ([2, 19, 7, 9], "aBcd8b", "abcd"), ([2, 19, 7, 9], "abcd", "aBcd8b"),
    ([2, 3, 7, 9], "aBcd16b", "abcd"), ([2, 3, 7, 9], "aBcd8b", "abcd"),
    ([2, 11, 7, 9], "aBcd16b", "abcd"),
]


@pytest.mark.parametrize("src_dt,dst_dt", [(c.dnnl_f32, c.dnnl_f32), (c.dnnl_f32, c.dnnl_bf16),
                                           (c.dnnl_bf16, c.dnnl_f32), (c.dnnl_bf16, c.dnnl_bf16)])
@pytest.mark.parametrize("dims,src_tag,dst_tag", BLOCKED_PAIRS)
def test_blocked_pairs(eng, strm, dims, src_tag, dst_tag, src_dt, dst_dt):
    rng = np.random.default_rng(len(dims))
    a = rng.standard_normal(dims).astype(np.float32) * 100
    src_vals = bf16_bits(a) if src_dt == c.dnnl_bf16 else a
    logical = bf16_to_f32(src_vals) if src_dt == c.dnnl_bf16 else a
    src_md = make_md(dims, src_dt, getattr(c, "dnnl_" + src_tag))
    dst_md = make_md(dims, dst_dt, getattr(c, "dnnl_" + dst_tag))
    src = make_memory(src_md, eng, to_layout(src_vals, src_tag).copy())
    dst = make_memory(dst_md, eng)
    reorder(eng, strm, src_md, src, dst_md, dst)
    got = memory_bytes(dst).view(NP_DTYPE[dst_dt])
    expected = bf16_bits(logical) if dst_dt == c.dnnl_bf16 else logical
    np.testing.assert_array_equal(got[:to_layout(expected, dst_tag).size],
                                  to_layout(expected, dst_tag))


def convert(eng, strm, values, src_dt, dst_dt, dst_tag=c.dnnl_a):
    n = len(values)
    src_md = make_md([n], src_dt, c.dnnl_a)
    dst_md = make_md([n], dst_dt, dst_tag)
    src = make_memory(src_md, eng, np.asarray(values, NP_DTYPE[src_dt]).copy())
    out = np.zeros(n, NP_DTYPE[dst_dt])
    impl = reorder(eng, strm, src_md, src, dst_md, make_memory(dst_md, eng, out))
    return out, impl


def test_f32_to_bf16_rounds_like_onednn(eng, strm):
    ulp = 2.0 ** -7
    ties = np.array([1 + ulp / 2, 1 + 3 * ulp / 2, -(1 + ulp / 2), 2 + ulp, 3.0 + 3 * ulp],
                    np.float32)
    # 1 + ulp/2 is halfway between 1 and 1 + ulp: even mantissa wins
    specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-40, -1e-40,
                         np.finfo(np.float32).max, 3.3895314e38, 1.17549435e-38], np.float32)
    nan_payload = np.array([0x7F800001, 0xFF800001, 0x7FC00000], np.uint32).view(np.float32)
    rng = np.random.default_rng(0)
    rand = (rng.standard_normal(10000) * 10.0 ** rng.integers(-30, 30, 10000)).astype(np.float32)
    # each special value alone among normal numbers too: the vector paths
    # take a group of lanes without a special one by a shorter route
    alone = np.ones((len(specials) + len(nan_payload), 37), np.float32)
    alone[:, 19] = np.concatenate([specials, nan_payload])
    values = np.concatenate([ties, specials, nan_payload, rand, alone.ravel()])
    out, impl = convert(eng, strm, values, c.dnnl_f32, c.dnnl_bf16)
    assert impl == "simple:copy"
    np.testing.assert_array_equal(out, bf16_bits(values))
    f = bf16_to_f32(out)
    np.testing.assert_array_equal(f[:5], np.array([1.0, 1 + 2 * ulp, -1.0, 2.0, 3.0 + 4 * ulp],
                                                  np.float32))
    assert np.isposinf(f[5]) and np.isneginf(f[6]) and np.isnan(f[7])
    # subnormals become zeros of the same sign; the largest float rounds to inf
    assert out[10] == 0x0000 and out[11] == 0x8000
    assert np.isposinf(f[12]) and f[13] == np.float32(3.3895314e38)
    assert np.all(np.isnan(f[15:18])) and out[15] & 0x40 and out[16] & 0x8000
    if ml_dtypes is not None:  # an independent rounding for normal numbers
        normal = np.isfinite(values) & (np.abs(values) >= np.finfo(np.float32).tiny)
        np.testing.assert_array_equal(
            out[normal], values[normal].astype(ml_dtypes.bfloat16).view(np.uint16))


def test_bf16_to_f32_is_exact(eng, strm):
    bits = np.arange(0, 65536, 7, dtype=np.uint16)
    out, _ = convert(eng, strm, bits, c.dnnl_bf16, c.dnnl_f32)
    np.testing.assert_array_equal(out.view(np.uint32), bits.astype(np.uint32) << 16)
    out, _ = convert(eng, strm, bits, c.dnnl_bf16, c.dnnl_bf16)
    np.testing.assert_array_equal(out, bits)


def test_integer_conversions_saturate_and_round_half_even(eng, strm):
    values = np.array([2.5, 3.5, -2.5, 0.49, 300.0, -300.0, 127.5, -128.7, np.nan], np.float32)
    out, _ = convert(eng, strm, values, c.dnnl_f32, c.dnnl_s8)
    np.testing.assert_array_equal(out, [2, 4, -2, 0, 127, -128, 127, -128, 0])
    out, _ = convert(eng, strm, values, c.dnnl_f32, c.dnnl_u8)
    np.testing.assert_array_equal(out, [2, 4, 0, 0, 255, 0, 128, 0, 0])
    big = np.array([3e9, -3e9, 12345.5, 1.0e9], np.float32)
    out, _ = convert(eng, strm, big, c.dnnl_f32, c.dnnl_s32)
    np.testing.assert_array_equal(out, [2147483520, -2147483648, 12346, 1000000000])
    out, _ = convert(eng, strm, np.array([-5, 7, 200], np.int32), c.dnnl_s32, c.dnnl_u8)
    np.testing.assert_array_equal(out, [0, 7, 200])
    out, _ = convert(eng, strm, np.array([-5, 7, 100], np.int8), c.dnnl_s8, c.dnnl_bf16)
    np.testing.assert_array_equal(bf16_to_f32(out), [-5, 7, 100])


def test_unsupported_data_type_is_unimplemented(eng):
    src = make_md([4], c.dnnl_f16, c.dnnl_a)
    dst = make_md([4], c.dnnl_f32, c.dnnl_a)
    pd = c.dnnl_primitive_desc_t()
    assert c.dnnl_reorder_primitive_desc_create(pd, src, eng, dst, eng, None) \
        == c.dnnl_unimplemented
    assert "f32, bf16" in c.cydnnl_last_error()


def test_submemories_on_both_sides(eng, strm):
    parent_dims = [3, 16, 6, 7]
    rng = np.random.default_rng(5)
    a = rng.standard_normal(parent_dims).astype(np.float32)
    src_parent = make_md(parent_dims, c.dnnl_f32, c.dnnl_nChw8c)
    src_sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(src_sub, src_parent, [2, 8, 3, 5], [1, 8, 2, 1]))
    src = make_memory(src_parent, eng, to_layout(a, "aBcd8b").copy())

    dst_dims = [4, 9, 5, 6]
    dst_parent = make_md(dst_dims, c.dnnl_bf16, c.dnnl_nhwc)
    dst_sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(dst_sub, dst_parent, [2, 8, 3, 5], [2, 1, 1, 0]))
    dst_buf = np.full(int(np.prod(dst_dims)), 0x7777, np.uint16)
    dst = make_memory(dst_parent, eng, dst_buf)
    # the primitive works on the sub-descriptors, the memories hold the parents
    reorder(eng, strm, src_sub, src, dst_sub, dst)
    got = from_layout(dst_buf, "acdb", dst_dims)
    expected = np.full(dst_dims, 0x7777, np.uint16)
    expected[2:4, 1:9, 1:4, 0:5] = bf16_bits(a[1:3, 8:16, 2:5, 1:6])
    np.testing.assert_array_equal(got, expected)

    # a memory created on the sub-descriptor over the parent's buffer works too
    back_parent = make_md([2, 8, 3, 5], c.dnnl_f32, c.dnnl_nchw)
    back = np.zeros([2, 8, 3, 5], np.float32)
    sub_mem = make_memory(dst_sub, eng, dst_buf)
    reorder(eng, strm, dst_sub, sub_mem, back_parent, make_memory(back_parent, eng, back))
    np.testing.assert_array_equal(back, bf16_to_f32(bf16_bits(a[1:3, 8:16, 2:5, 1:6])))


def test_padding_of_a_right_border_submemory_is_zeroed(eng, strm):
    dims = [1, 13, 2, 2]
    parent = make_md(dims, c.dnnl_f32, c.dnnl_nChw8c)
    sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(sub, parent, [1, 5, 2, 2], [0, 8, 0, 0]))
    buf = np.full(1 * 16 * 2 * 2, 9.0, np.float32)
    dst = make_memory(parent, eng, buf)
    src_md = make_md([1, 5, 2, 2], c.dnnl_f32, c.dnnl_nchw)
    src = make_memory(src_md, eng, np.ones([1, 5, 2, 2], np.float32))
    reorder(eng, strm, src_md, src, sub, dst)
    blocks = buf.reshape(2, 2, 2, 8)
    assert np.all(blocks[0] == 9.0)          # the first channel block is untouched
    assert np.all(blocks[1][..., :5] == 1.0) and np.all(blocks[1][..., 5:] == 0.0)


@pytest.mark.parametrize("dst_dt", [c.dnnl_f32, c.dnnl_bf16])
@pytest.mark.parametrize("block", ["aBcd8b", "aBcd16b"])
@pytest.mark.parametrize("ch", [3, 11, 21])
def test_few_channels_into_blocks_zero_the_padding(eng, strm, ch, block, dst_dt):
    """A first layer's few channels into channel blocks: the transposes' tiles
    read the rows past the channels as zeros, so the padding lanes are written
    (the dst starts as NaN), over 63 pixels (a band of tiles and an edge)."""
    dims = [2, ch, 7, 9]
    a = np.random.default_rng(ch).standard_normal(dims).astype(np.float32)
    src_md = make_md(dims, c.dnnl_f32, c.dnnl_abcd)
    dst_md = make_md(dims, dst_dt, getattr(c, "dnnl_" + block))
    blk = 8 if block == "aBcd8b" else 16
    size = 2 * -(-ch // blk) * blk * 63
    np_dt = np.float32 if dst_dt == c.dnnl_f32 else np.uint16
    buf = np.full(size, np.nan if dst_dt == c.dnnl_f32 else 0x7fc1, np_dt)
    reorder(eng, strm, src_md, make_memory(src_md, eng, a), dst_md,
            make_memory(dst_md, eng, buf))
    want = to_layout(bf16_bits(a) if dst_dt == c.dnnl_bf16 else a, block)
    np.testing.assert_array_equal(buf, want)


def test_zero_volume_and_impl_order(eng, strm):
    md = make_md([2, 0, 3], c.dnnl_f32, c.dnnl_abc)
    md2 = make_md([2, 0, 3], c.dnnl_f32, c.dnnl_acb)
    reorder(eng, strm, md, make_memory(md, eng), md2, make_memory(md2, eng))
    a = make_md([4, 4], c.dnnl_f32, c.dnnl_ab)
    b = make_md([4, 4], c.dnnl_bf16, c.dnnl_ab)
    pd = c.dnnl_primitive_desc_t()
    check(c.dnnl_reorder_primitive_desc_create(pd, a, eng, b, eng, None))
    out = [None]
    c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out)
    assert out[0] == "simple:copy"
    check(c.dnnl_primitive_desc_next_impl(pd))
    c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out)
    assert out[0] == "ref:any"
    assert c.dnnl_primitive_desc_next_impl(pd) == c.dnnl_last_impl_reached
    c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out)
    assert out[0] == "ref:any"


def test_large_tensor_in_parallel(eng, strm):
    dims = [8, 3, 227, 227]
    a = np.arange(np.prod(dims), dtype=np.float32).reshape(dims) % 1637
    src_md = make_md(dims, c.dnnl_f32, c.dnnl_nchw)
    dst_md = make_md(dims, c.dnnl_bf16, c.dnnl_nChw8c)
    dst = make_memory(dst_md, eng)
    reorder(eng, strm, src_md, make_memory(src_md, eng, a), dst_md, dst)
    np.testing.assert_array_equal(memory_bytes(dst).view(np.uint16),
                                  to_layout(bf16_bits(a), "aBcd8b"))


@pytest.mark.parametrize("dims,src_tag,dst_tag", BLOCKED_PAIRS + [
    ([2, 13, 5, 3], "abcd", "aBcd8b"), ([2, 13, 5, 3], "aBcd16b", "abcd"),
    ([3, 4], "ab", "ba"), ([4, 6], "ab", "ab")])
def test_every_implementation_agrees_with_numpy(eng, strm, dims, src_tag, dst_tag):
    """next_impl walks the list: the fast paths and the reference alike."""
    a = np.random.default_rng(9).standard_normal(dims).astype(np.float32)
    src_md = make_md(dims, c.dnnl_f32, getattr(c, "dnnl_" + src_tag))
    dst_md = make_md(dims, c.dnnl_bf16, getattr(c, "dnnl_" + dst_tag))
    src = make_memory(src_md, eng, to_layout(a, src_tag).copy())
    pd = c.dnnl_primitive_desc_t()
    check(c.dnnl_reorder_primitive_desc_create(pd, src_md, eng, dst_md, eng, None))
    seen = []
    while True:
        out = [None]
        check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out))
        seen.append(out[0])
        prim = c.dnnl_primitive_t()
        check(c.dnnl_primitive_create(prim, pd))
        dst = make_memory(dst_md, eng)
        check(c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM, src),
                                                       (c.DNNL_ARG_TO, dst)]))
        expected = to_layout(bf16_bits(a), dst_tag)
        np.testing.assert_array_equal(memory_bytes(dst).view(np.uint16)[:expected.size],
                                      expected, err_msg=out[0])
        if c.dnnl_primitive_desc_next_impl(pd) == c.dnnl_last_impl_reached:
            break
    assert seen[-1] == "ref:any"


def test_writing_a_channel_sub_memory_keeps_the_rest_of_its_block(eng, strm):
    """Channels 0..4 of a 16-channel nChw8c tensor: the reorder writes them
    and leaves the parent's channels 5..7 of the same block alone."""
    parent = make_md([2, 16, 3, 3], c.dnnl_f32, c.dnnl_nChw8c)
    sub = c.dnnl_memory_desc_t()
    check(c.dnnl_memory_desc_create_submemory(sub, parent, [2, 5, 3, 3], [0, 0, 0, 0]))
    assert c.cydnnl_memory_desc_extent(sub) > 0
    assert c.dnnl_memory_desc_get_size(sub) > 0
    buf = np.full(2 * 16 * 9, 42.0, np.float32)
    dst = make_memory(parent, eng, buf)
    src_md = make_md([2, 5, 3, 3], c.dnnl_f32, c.dnnl_nchw)
    a = np.arange(90, dtype=np.float32).reshape(2, 5, 3, 3)
    pd = c.dnnl_primitive_desc_t()
    check(c.dnnl_reorder_primitive_desc_create(pd, src_md, eng, sub, eng, None))
    while True:
        buf[:] = 42.0
        prim = c.dnnl_primitive_t()
        check(c.dnnl_primitive_create(prim, pd))
        check(c.dnnl_primitive_execute(prim, strm, 2, [(c.DNNL_ARG_FROM,
                                                        make_memory(src_md, eng, a)),
                                                       (c.DNNL_ARG_TO, dst)]))
        got = from_layout(buf, "aBcd8b", [2, 16, 3, 3])
        np.testing.assert_array_equal(got[:, :5], a)
        assert np.all(got[:, 5:] == 42.0)
        if c.dnnl_primitive_desc_next_impl(pd) != c.dnnl_success:
            break
