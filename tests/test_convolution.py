"""Convolution forward, backward data and backward weights against a NumPy
computation written from oneDNN's formulas: benchdnn shapes, groups,
strides, dilation, asymmetric padding, 1-D/2-D/3-D, f32 and bf16."""

import os
import re

import numpy as np

from helpers import level_impls
import pytest

import dnnl
import dnnl_c as c
from dnnl.benchdnn.desc import ConvDesc
from dnnl.benchdnn.parser import INPUTS, read_batch
from dnnl.benchdnn.ref_conv import conv_bwd_data, conv_bwd_weights, conv_fwd
from dnnl import (algorithm, convolution_backward_data, convolution_backward_weights,
                  convolution_forward, memory, prop_kind, stream)
from helpers import bf16_round
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)

tag, dt = memory.format_tag, memory.data_type
DIRECT = algorithm.convolution_direct


def benchdnn_lines(name):
    """The problems of a benchdnn input file (dnnl/benchdnn/inputs/conv)."""
    return read_batch(os.path.join(INPUTS, "conv", name))


def parse_desc(text, mb=2):
    """A benchdnn conv descriptor (parsed by dnnl.benchdnn) as a dict: g, mb,
    ic, oc and the per-spatial-dim lists i, o, k, s, d, p (left padding) and
    pr (right padding)."""
    d = ConvDesc(text)
    return {"g": d.g, "mb": d.mb if "mb" in text else mb, "ic": d.ic, "oc": d.oc,
            "i": d.i, "o": d.o, "k": d.k, "s": d.s, "d": d.d, "p": d.p, "pr": d.pr}


def shapes(p):
    sp = len(p["i"])
    g = p["g"]
    src = [p["mb"], p["ic"]] + p["i"]
    dst = [p["mb"], p["oc"]] + p["o"]
    wei = ([g, p["oc"] // g, p["ic"] // g] if g > 1 else [p["oc"], p["ic"]]) + p["k"]
    return src, wei, [p["oc"]], dst, sp


def run_conv(eng, strm, p, dts=(dt.f32,) * 4, layouts=None, with_bias=True, seed=0):
    """Runs the three directions; returns inputs and outputs as f32 arrays."""
    src_dims, wei_dims, bias_dims, dst_dims, sp = shapes(p)
    rng = np.random.default_rng(seed)
    src = rng.uniform(-1, 1, src_dims).astype(np.float32)
    wei = rng.uniform(-1, 1, wei_dims).astype(np.float32)
    bias = rng.uniform(-1, 1, bias_dims).astype(np.float32)
    dd = rng.uniform(-1, 1, dst_dims).astype(np.float32)
    sdt, wdt, bdt, ddt = dts
    if sdt == dt.bf16:
        src, wei, dd = bf16_round(src), bf16_round(wei), bf16_round(dd)
    if bdt == dt.bf16:
        bias = bf16_round(bias)
    anyl = layouts or {}
    any_md = lambda dims, d, key: memory.desc(dims, d, anyl.get(key, tag.any))  # noqa: E731
    conv_args = (p["s"], p["d"], p["p"], p["pr"])
    fpd = convolution_forward.primitive_desc(
        eng, prop_kind.forward_training, DIRECT, any_md(src_dims, sdt, "src"),
        any_md(wei_dims, wdt, "wei"), *([any_md(bias_dims, bdt, "bias")] if with_bias else []),
        any_md(dst_dims, ddt, "dst"), *conv_args)
    s_m = memory(fpd.src_desc(), eng)
    s_m.write(src)
    w_m = memory(fpd.weights_desc(), eng)
    w_m.write(wei)
    args = {dnnl.DNNL_ARG_SRC: s_m, dnnl.DNNL_ARG_WEIGHTS: w_m}
    if with_bias:
        b_m = memory(fpd.bias_desc(), eng)
        b_m.write(bias)
        args[dnnl.DNNL_ARG_BIAS] = b_m
    d_m = memory(fpd.dst_desc(), eng)
    args[dnnl.DNNL_ARG_DST] = d_m
    convolution_forward(fpd).execute(strm, args)
    out = {"src": src, "wei": wei, "bias": bias if with_bias else None, "dd": dd,
           "dst": d_m.read(np.float32), "fwd_pd": fpd}

    bdt_data = sdt                     # diff_src in the source's type
    bpd = convolution_backward_data.primitive_desc(
        eng, DIRECT, any_md(src_dims, bdt_data, "src"), any_md(wei_dims, wdt, "wei"),
        any_md(dst_dims, sdt if sdt == dt.bf16 else ddt, "dst"), *conv_args, fpd)
    dd_m = memory(bpd.diff_dst_desc(), eng)
    dd_m.write(dd)
    w2 = memory(bpd.weights_desc(), eng)
    w2.write(wei)
    ds_m = memory(bpd.diff_src_desc(), eng)
    convolution_backward_data(bpd).execute(strm, {dnnl.DNNL_ARG_DIFF_DST: dd_m,
                                                  dnnl.DNNL_ARG_WEIGHTS: w2,
                                                  dnnl.DNNL_ARG_DIFF_SRC: ds_m})
    out["diff_src"] = ds_m.read(np.float32)

    wpd = convolution_backward_weights.primitive_desc(
        eng, DIRECT, any_md(src_dims, sdt, "src"), any_md(wei_dims, wdt, "wei"),
        *([any_md(bias_dims, bdt, "bias")] if with_bias else []),
        any_md(dst_dims, sdt if sdt == dt.bf16 else ddt, "dst"), *conv_args, fpd)
    s2 = memory(wpd.src_desc(), eng)
    s2.write(src)
    dd2 = memory(wpd.diff_dst_desc(), eng)
    dd2.write(dd)
    dw_m = memory(wpd.diff_weights_desc(), eng)
    wargs = {dnnl.DNNL_ARG_SRC: s2, dnnl.DNNL_ARG_DIFF_DST: dd2,
             dnnl.DNNL_ARG_DIFF_WEIGHTS: dw_m}
    if with_bias:
        db_m = memory(wpd.diff_bias_desc(), eng)
        wargs[dnnl.DNNL_ARG_DIFF_BIAS] = db_m
    convolution_backward_weights(wpd).execute(strm, wargs)
    out["diff_wei"] = dw_m.read(np.float32)
    out["diff_bias"] = db_m.read(np.float32) if with_bias else None
    out["pds"] = (fpd, bpd, wpd)
    return out


def expected(p, r):
    g = p["g"]
    src_dims, wei_dims, _, _, _ = shapes(p)
    args = (p["s"], p["d"], p["p"], p["pr"])
    dst = conv_fwd(r["src"], r["wei"], r["bias"], *args, g=g)
    ds = conv_bwd_data(r["dd"], r["wei"], src_dims, *args, g=g)
    dw, db = conv_bwd_weights(r["src"], r["dd"], wei_dims, *args, g=g)
    return dst, ds, dw, db


def close(got, want, tol):
    scale = max(1.0, float(np.abs(want).max()))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


def check(p, r, wei_tol=1e-5, diff_bias=True):
    """The f32 results of run_conv against NumPy."""
    dst, ds, dw, db = expected(p, r)
    close(r["dst"], dst, 1e-5)
    close(r["diff_src"], ds, 1e-5)
    close(r["diff_wei"], dw, wei_tol)
    if diff_bias:
        close(r["diff_bias"], db, 1e-5)


BASIC_SHAPES = benchdnn_lines("shapes_basic")


@pytest.mark.parametrize("line", BASIC_SHAPES, ids=[ln.split('"')[1] for ln in BASIC_SHAPES])
def test_benchdnn_basic_shapes_f32(eng, strm, line):
    p = parse_desc(line, mb=2)
    r = run_conv(eng, strm, p)
    check(p, r)


@pytest.mark.parametrize("desc", [
    "mb1ic3ih227oc96oh55kh11sh4ph0n\"alexnet:conv1 mb1\"",
    "g2mb1ic96ih27oc256oh27kh5ph2n\"alexnet:conv2 mb1\"",
    "mb1ic20ih13oc24oh13kh3ph1n\"alexnet:conv3 reduced\"",
])
def test_alexnet_shapes(eng, strm, desc):
    p = parse_desc(desc)
    r = run_conv(eng, strm, p)
    check(p, r, wei_tol=2e-5)


@pytest.mark.parametrize("desc", [
    "mb1ic5iw13oc7ow5kw3sw2dw1pw1",                    # 1-D, dilation, stride
    "mb3ic4ih9iw7oc6oh4ow7kh3kw2sh2sw1dh1dw0ph1pw1",   # non-square everything
    "mb2ic3ih8oc5oh3kh3sh3ph1",                        # right padding < 0
    "g3mb2ic6ih6oc9oh6kh3dh0ph1",                      # groups
    "mb1ic2id5ih4iw6oc3od3oh4ow3kd3kh3kw2sd1sh1sw2dd0dh1dw0pd0ph1pw0",  # 3-D
    "g4mb1ic8id4oc8od4kd3pd1",                         # grouped 3-D
])
def test_strides_dilation_padding(eng, strm, desc):
    p = parse_desc(desc)
    r = run_conv(eng, strm, p)
    check(p, r)
    fpd = r["fwd_pd"]
    assert fpd.get_strides() == p["s"] and fpd.get_dilations() == p["d"]
    assert fpd.get_padding_l() == p["p"] and fpd.get_padding_r() == p["pr"]


@pytest.mark.parametrize("desc", [
    "mb1ic1iw4oc1ow5kw1pw0",                      # the outputs past the input are padding
    "mb2ic9ih3iw4oc4oh4ow4kh1kw1ph0pw0",             # channels-last src under `any`
    "mb2ic3ih3iw4oc5oh3ow6kh1kw1ph0pw0",
    "mb1ic8id2ih3iw2oc8od2oh3ow3kd1kh1kw1pd0ph0pw0",
])
@pytest.mark.parametrize("dts", [(dt.f32,) * 4, (dt.bf16, dt.bf16, dt.f32, dt.f32)])
def test_kernel_1_with_right_padding(eng, strm, desc, dts):
    # a 1x1 convolution reads src as its patch matrix only when every
    # output pixel is an input pixel; tests/test_guarded.py checks the bounds
    # (p0 given: benchdnn would deduce a left padding from the output size)
    p = parse_desc(desc)
    assert any(pr > 0 for pr in p["pr"]) and p["p"] == [0] * len(p["pr"])
    r = run_conv(eng, strm, p, dts=dts)
    dst, ds, dw, db = expected(p, r)
    bf16 = 2 ** -8 if dts[0] == dt.bf16 else 1e-5      # diff_src, diff_weights in bf16
    close(r["dst"], dst, 1e-5)
    close(r["diff_src"], ds, bf16)
    close(r["diff_wei"], dw, bf16)
    close(r["diff_bias"], db, 1e-5)


def test_asymmetric_padding_right_only(eng, strm):
    p = parse_desc("mb2ic3ih7oc4oh9kh3ph0")
    p["p"], p["pr"] = [0, 2], [2, 1]
    p["o"] = [(7 + 0 + 2 - 3) // 1 + 1, (7 + 2 + 1 - 3) // 1 + 1]
    r = run_conv(eng, strm, p)
    check(p, r, diff_bias=False)


@pytest.mark.parametrize("desc", [
    "mb2ic3ih23iw45oc5kh5kw11sh2sw4ph1pw0",     # AlexNet conv1's stride along w: 4-way phases
    "mb1ic2ih9iw61oc4kh3kw3sh1sw4ph0pw3",       # padding past a phase: rows start mid-position
    "mb2ic2ih11iw40oc3kh3kw3sh2sw2ph1pw1",      # stride 2, padding 1 (the common downsampler)
    "mb1ic3ih8iw37oc4kh2kw5sh2sw3dh1dw1ph0pw2",  # stride 3 (scalar phases), dilation
    "mb1ic2ih6iw30oc3kh3kw3sh1sw1dw2ph1pw4",     # stride 1: a copy, reach past the right edge
    "mb2ic4ih5iw70oc6kh1kw1sh1sw2ph0pw0",       # 1x1 with stride: most of each row is zeros
    "mb1ic2ih6iw40oc3oh6ow10kh3kw3sw4ph1pw0",    # right padding -1: the row's end unreached
    "mb1ic2ih60iw61oc3kh3kw5sh1sw2ph1pw1",      # 1800 pixels: blocks of 384 cut output rows
    "mb1ic2ih9iw500oc3kh3kw3sh1sw2dh1ph1pw1",   # cut rows whose kernel rows leave src (dilated)
    "mb1ic2ih4iw1000oc2kh3kw3sh1sw2ph1pw1",     # rows of 500: blocks inside one row
    "mb1ic2id5ih7iw100oc3kd3kh3kw3sd2sh1sw2pd1ph1pw1",  # 3D: cut rows across depths
    "g2mb2ic4ih9iw21oc6kh3kw3sw2ph1pw1",         # groups: each group's rows of diff_src
    "mb1ic2ih3iw90oc2kh1kw35sw2pw3",            # 35 taps: more than the phase tables hold
    "mb1ic3ih7iw19oc301kh3kw3sw2ph1pw1",        # W^T packed in two k blocks, odd (bf16 pairs)
])
@pytest.mark.parametrize("dts", [(dt.f32,) * 4, (dt.bf16, dt.bf16, dt.f32, dt.bf16)])
@pytest.mark.parametrize("images", [1, 3])
def test_backward_data_channels_first_phases(eng, strm, desc, dts, images):
    """Channels-first diff_src: the GEMM's col added by phases of the
    stride and interleaved into rows (kernels/include/col2im_phases.h), for
    every stride the phases treat apart, with padding and dilation. One
    image takes every thread into each block's GEMM; three take an image a
    thread (two in turn on one, the next one's dY asked for ahead)."""
    p = parse_desc(re.sub(r"mb\d+", "mb%d" % images, desc))
    cf = tag.ncdhw if len(p["i"]) == 3 else tag.nchw
    lay = {"src": cf, "dst": cf, "wei": tag.goihw if p["g"] > 1 else
           tag.oidhw if len(p["i"]) == 3 else tag.oihw}
    r = run_conv(eng, strm, p, dts=dts, layouts=lay)
    assert r["fwd_pd"].src_desc() == memory.desc(shapes(p)[0], dts[0], cf)
    _, ds, _, _ = expected(p, r)
    close(r["diff_src"], ds, 2 ** -8 if dts[0] == dt.bf16 else 1e-5)


@pytest.mark.parametrize("desc", [
    "mb2ic3ih35iw39oc96kh11kw11sh4sw4",         # AlexNet conv1's taps: stride 4's bf16 rows
    "mb1ic3ih227iw227oc96kh11kw11sh4sw4",       # conv1 itself, one image for all threads
    "mb3ic5ih13iw9oc7kh3kw2sh2sw3ph1pw0",       # odd oc (a pair's partner zero), 3 + 2 channels
    "mb2ic1ih20iw33oc37kh5kw5ph2pw2",           # stride 1, 37 channels: a part-filled 16 pairs
    "mb2ic4ih9iw70oc33kh1kw1sh1sw2",            # 1x1 with stride: phases without taps
    "mb1ic7ih31iw17oc9kh5kw3sh2ph2pw1",         # channel blocks 3 + 3 + 1
    "g2mb2ic6ih11iw21oc10kh3kw3sh2sw4ph1pw1",    # groups of 5 channels: pairs across groups
    "mb1ic2ih6iw40oc3oh6ow10kh3kw3sw4ph1pw0",    # right padding -1: rows' ends unreached
    "mb2ic3ih17iw17oc8kh4kw4sh4sw4ph2pw2",      # stride 4 with padding: rows start mid-position
    "mb3ic2ih40iw200oc20kh3kw3sw4ph1pw1",       # 2000 grid positions: bands cut rows
    "mb1ic3ih100iw100oc16kh3kw3ph1pw1",         # 10200 positions: one image, threads' tiles
    "mb3ic3ih100iw100oc17kh3kw3ph1pw1",         # and an image a thread, by bands
    "mb2ic2ih5iw7oc3kh5kw7sh3sw5",              # taps along w and h no more than the stride
])
@pytest.mark.parametrize("dst_tag", [tag.nchw, tag.nhwc])
@pytest.mark.parametrize("dts", [(dt.bf16, dt.bf16), (dt.bf16, dt.f32), (dt.f32, dt.f32)])
def test_backward_data_direct(eng, strm, desc, dst_tag, dts):
    """diff_dst and weights (dts[0]) into a channels-first diff_src
    (dts[1]), from either diff_dst layout: bf16 where the level has bf16
    dot products without col2im (kernels/include/bwd_data_direct.h), f32
    (and bf16 at other levels) by the GEMM and col2im's phases."""
    p = parse_desc(desc)
    src_dims, wei_dims, _, dst_dims, _ = shapes(p)
    rng = np.random.default_rng(1)
    wei = rng.uniform(-1, 1, wei_dims).astype(np.float32)
    dd = rng.uniform(-1, 1, dst_dims).astype(np.float32)
    in_dt, src_dt = dts
    if in_dt == dt.bf16:
        wei, dd = bf16_round(wei), bf16_round(dd)
    conv_args = (p["s"], p["d"], p["p"], p["pr"])
    wei_md = memory.desc(wei_dims, in_dt, tag.goihw if p["g"] > 1 else tag.oihw)
    fpd = convolution_forward.primitive_desc(
        eng, prop_kind.forward_training, DIRECT, memory.desc(src_dims, in_dt, tag.nchw),
        wei_md, memory.desc(dst_dims, in_dt, dst_tag), *conv_args)
    bpd = convolution_backward_data.primitive_desc(
        eng, DIRECT, memory.desc(src_dims, src_dt, tag.nchw), wei_md,
        memory.desc(dst_dims, in_dt, dst_tag), *conv_args, fpd)
    mems = {dnnl.DNNL_ARG_DIFF_DST: memory(bpd.diff_dst_desc(), eng),
            dnnl.DNNL_ARG_WEIGHTS: memory(bpd.weights_desc(), eng),
            dnnl.DNNL_ARG_DIFF_SRC: memory(bpd.diff_src_desc(), eng)}
    mems[dnnl.DNNL_ARG_DIFF_DST].write(dd)
    mems[dnnl.DNNL_ARG_WEIGHTS].write(wei)
    convolution_backward_data(bpd).execute(strm, mems)
    strm.wait()
    got = mems[dnnl.DNNL_ARG_DIFF_SRC].read(np.float32)
    want = conv_bwd_data(dd, wei, src_dims, *conv_args, g=p["g"])
    close(got, want, 2 ** -8 if src_dt == dt.bf16 else 1e-5)
    if src_dt == dt.bf16:
        np.testing.assert_array_equal(got, bf16_round(got))


@pytest.mark.parametrize("layouts", [
    {"src": tag.nchw, "dst": tag.nchw, "wei": tag.oihw},      # channels-first both sides
    {"src": tag.nhwc, "dst": tag.nchw, "wei": tag.ohwi},      # channels-last in, first out
    {"src": tag.nchw, "dst": tag.nhwc, "wei": tag.oihw},      # the other way round
    {"src": tag.nhwc, "dst": tag.nhwc, "wei": tag.oihw},      # weights staged to ohwi
    {"src": tag.nhwc, "dst": tag.nhwc, "wei": tag.hwio},
    {"src": tag.nChw8c, "dst": tag.nChw16c, "wei": tag.OIhw8i8o},
    {"src": tag.chwn, "dst": tag.nChw8c, "wei": tag.Ohwi8o},
])
def test_given_layouts(eng, strm, layouts):
    p = parse_desc("mb2ic13ih7oc10oh7kh3ph1")
    r = run_conv(eng, strm, p, layouts=layouts)
    fpd = r["fwd_pd"]
    assert fpd.src_desc() == memory.desc(shapes(p)[0], dt.f32, layouts["src"])
    assert fpd.weights_desc() == memory.desc(shapes(p)[1], dt.f32, layouts["wei"])
    check(p, r, diff_bias=False)


@pytest.mark.parametrize("dts", [(dt.f32,) * 4, (dt.bf16, dt.bf16, dt.f32, dt.f32)])
@pytest.mark.parametrize("mb", [1, 3])
@pytest.mark.parametrize("lay", [tag.nhwc, tag.nchw])
def test_diff_bias_layouts(eng, strm, dts, mb, lay):
    """diff_bias, summed block by block of pixels (two, of 512 at most) with
    the weight gradient (5 taps along kw: read in place) or after it (mb1 with
    threads): from a channels-last diff_dst 16 channels at a time, 37
    channels (two whole groups and 5), 570 pixels; from a channels-first one
    pixel after pixel; bf16 with bf16 dot products (mb3): by the product, a
    row of ones beside the 5 taps of a tile (gemm_pt.pyx)."""
    p = parse_desc("mb%dic3ih34iw23oc37oh30ow19kh5kw5" % mb)
    r = run_conv(eng, strm, p, dts=dts, layouts={"src": lay, "dst": lay})
    assert r["pds"][2].diff_dst_desc() == memory.desc(shapes(p)[3], dts[0], lay)
    _, _, dw, db = expected(p, r)
    close(r["diff_wei"], dw, 2 ** -8 if dts[0] == dt.bf16 else 1e-5)
    close(r["diff_bias"], db, 1e-5)


def check_bf16_weight_gradient(eng, strm, desc, lay):
    """bf16 src and diff_dst in layout lay: diff_weights and diff_bias
    against NumPy."""
    p = parse_desc(desc)
    r = run_conv(eng, strm, p, dts=(dt.bf16, dt.bf16, dt.f32, dt.bf16),
                 layouts={"src": lay, "dst": lay})
    _, _, dw, db = expected(p, r)
    close(r["diff_wei"], dw, 2 ** -8)
    close(r["diff_bias"], db, 1e-5)


@pytest.mark.parametrize("desc", ["g3mb3ic6ih9iw11oc9kh3kw3sw2ph1pw1",
                                  "g2mb1ic4ih7iw9oc6kh3kw5ph1pw2"])
@pytest.mark.parametrize("lay", [tag.nhwc, tag.nchw])
def test_bf16_weight_gradient_groups(eng, strm, desc, lay):
    """bf16 src and diff_dst of a grouped weight gradient: read as pairs with
    bf16 dot products, else widened an image at a time (each group's
    channels inside the widened image; mb3: per thread, mb1: once)."""
    check_bf16_weight_gradient(eng, strm, desc, lay)


@pytest.mark.parametrize("desc", [
    "mb2ic3ih35iw39oc40kh11kw11sh4sw4",     # AlexNet conv1's 11 taps a tile
    "mb2ic2ih9iw13oc33kh3kw5",              # 5 taps (half-height tiles), 63 pixels: odd
    "mb3ic1ih12iw20oc17kh2kw7sw2",          # 7 taps and the bias row: 8 of 12 rows
    "mb2ic1ih5iw30oc16kh2kw12",             # 12 taps: whole tiles, no row for the bias
    "mb2ic1ih3iw21oc5kh1kw11",              # 33 pixels: 17 pairs, few past the lead, odd
    "mb2ic1ih2iw12oc3kh1kw11",              # 4 pixels: fewer pairs than the lead
    "mb2ic2ih30iw40oc8kh3kw11",             # 840 pixels: two blocks
    "mb2ic11ih6iw7oc20kh2kw2",              # channels-last: 11 channels and the bias row
    "mb2ic24ih9iw9oc9kh3kw3",               # channels-last: tiles of 12 channels
])
@pytest.mark.parametrize("lay", [tag.nchw, tag.nhwc])
def test_bf16_weight_gradient_side_by_side_taps(eng, strm, desc, lay):
    """bf16 weight gradients whose tiles run along taps side by side in src
    (kw channels-first, the channels channels-last), an image a thread: with
    bf16 dot products the product with B's first panel packs the tile's
    pixel pairs as it goes (cydnnl_ukernel_bf16_packing) for the others."""
    check_bf16_weight_gradient(eng, strm, desc, lay)


@pytest.mark.parametrize("lay", [tag.nhwc, tag.nchw])
def test_bias_over_two_k_blocks(eng, strm, lay):
    """The forward bias is added with the last block of k (130 x 3 x 3 = 1170
    taps: two blocks of the patches read in place), once."""
    p = parse_desc("mb2ic130ih7iw9oc20oh5ow7kh3kw3")
    r = run_conv(eng, strm, p, layouts={"src": lay, "dst": lay})
    dst, _, _, db = expected(p, r)
    close(r["dst"], dst, 1e-5)
    close(r["diff_bias"], db, 1e-5)


def test_no_bias(eng, strm):
    p = parse_desc("mb2ic4ih6oc5oh4kh3")
    r = run_conv(eng, strm, p, with_bias=False)
    dst, ds, dw, _ = expected(p, r)
    close(r["dst"], dst, 1e-5)
    close(r["diff_wei"], dw, 1e-5)
    fpd, _, wpd = r["pds"]
    assert fpd.bias_desc().is_zero() and wpd.diff_bias_desc().is_zero()
    assert fpd.query_s32(dnnl.query.num_of_inputs_s32) == 2


# (src, weights, bias, dst) of forward; backward data and weights follow the
# table too (see run_conv)
BF16_FWD = [(dt.bf16, dt.bf16, dt.bf16, dt.bf16), (dt.bf16, dt.bf16, dt.f32, dt.f32),
            (dt.bf16, dt.bf16, dt.f32, dt.bf16), (dt.bf16, dt.bf16, dt.bf16, dt.f32)]


@pytest.mark.parametrize("dst_tag", [tag.nchw, tag.nhwc])
@pytest.mark.parametrize("dts", [BF16_FWD[0], BF16_FWD[2]])
@pytest.mark.parametrize("mb", [1, 3])
def test_bf16_dst_bias(eng, strm, dst_tag, dts, mb):
    """A bf16 dst gets the bias and its rounding in one pass over blocks of
    rows: channels of pixels (nchw) or pixels of channels (nhwc), each bias
    value on its own channel; one image split across threads (mb 1) or an
    image per thread."""
    p = parse_desc("mb%dic3ih20iw17oc37oh18ow15kh3kw3" % mb)
    r = run_conv(eng, strm, p, dts=dts, layouts={"dst": dst_tag})
    assert r["fwd_pd"].dst_desc() == memory.desc(shapes(p)[3], dt.bf16, dst_tag)
    dst, _, _, _ = expected(p, r)
    close(r["dst"], dst, 2 ** -8)


@pytest.mark.parametrize("desc", [
    "g2mb2ic6ih9oc8oh5kh3sh2ph1",               # channels-last src under `any`
    "mb2ic3ih10iw7oc5oh5ow4kh3kw3sh2sw2ph1pw1",  # channels-first src (few channels)
    "mb1ic10ih5oc7oh5kh1",                      # 1x1: src is its own patch matrix
])
@pytest.mark.parametrize("dts", BF16_FWD)
def test_bf16(eng, strm, dts, desc):
    p = parse_desc(desc)
    r = run_conv(eng, strm, p, dts=dts)
    dst, ds, dw, db = expected(p, r)
    # f32 accumulation of bf16 inputs, one rounding at the end
    tol = 2 ** -8 if dts[3] == dt.bf16 else 1e-5
    close(r["dst"], dst, tol)
    close(r["diff_src"], ds, 2 ** -8)
    close(r["diff_wei"], dw, 1e-5 if dts[1] == dt.f32 else 2 ** -8)
    close(r["diff_bias"], db, 1e-5 if dts[2] == dt.f32 else 2 ** -8)
    if dts[3] == dt.bf16:
        np.testing.assert_array_equal(r["dst"], bf16_round(r["dst"]))


@pytest.mark.parametrize("src_tag,dst_tag", [(tag.nchw, tag.nhwc), (tag.nhwc, tag.nhwc),
                                             (tag.nchw, tag.nchw)])
@pytest.mark.parametrize("ddt", [dt.f32, dt.bf16])
@pytest.mark.parametrize("desc", [
    "mb2ic3ih35iw42oc17kh11kw11sh4sw4",         # AlexNet conv1's taps, rows of 42
    "mb1ic5ih9iw10oc6kh3kw3sh1sw2ph1pw2",       # padding, an odd row tail, one image
    "g2mb3ic6ih9iw11oc8kh3kw3sh2ph1pw1",        # groups
])
def test_bf16_source_read_as_is(eng, strm, src_tag, dst_tag, ddt, desc):
    """The forward reads a bf16 src in its own layout as it is, never as an
    f32 copy of the whole tensor: with bf16 dot products in pairs, at sse41
    into channels-last dst through the bands (which widen it as they copy,
    4 elements a load along nchw's rows or nhwc's channels), elsewhere
    widened an image at a time by each thread. Every way, dst is NumPy's;
    the scratchpad does not grow with the batch."""
    p = parse_desc(desc)
    layouts = {"src": src_tag, "dst": dst_tag}
    r = run_conv(eng, strm, p, dts=(dt.bf16, dt.bf16, dt.f32, ddt), layouts=layouts)
    assert r["fwd_pd"].src_desc() == memory.desc(shapes(p)[0], dt.bf16, src_tag)
    dst, _, _, _ = expected(p, r)
    close(r["dst"], dst, 2 ** -8 if ddt == dt.bf16 else 1e-5)
    if ddt == dt.bf16:
        np.testing.assert_array_equal(r["dst"], bf16_round(r["dst"]))
    if p["g"] > 1 and ddt == dt.bf16:
        return      # a grouped bf16 dst goes through an f32 copy of dst
    # the scratchpad (the user's, to see its size) of 1 image and of 9
    attr = dnnl.primitive_attr()
    attr.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    sizes = []
    for mb in (1, 9):
        src_dims, wei_dims, _, dst_dims, _ = shapes(dict(p, mb=mb))
        pd = convolution_forward.primitive_desc(
            eng, prop_kind.forward_training, DIRECT, memory.desc(src_dims, dt.bf16, src_tag),
            memory.desc(wei_dims, dt.bf16, tag.any), memory.desc(dst_dims, ddt, dst_tag),
            p["s"], p["d"], p["p"], p["pr"], attr)
        assert pd.impl_info_str() == r["fwd_pd"].impl_info_str()
        sizes.append(pd.scratchpad_desc().get_size())
    assert sizes[0] == sizes[1], (r["fwd_pd"].impl_info_str(), sizes)


@pytest.mark.parametrize("direction,dts", [
    ("fwd", (dt.bf16, dt.f32, dt.f32, dt.f32)), ("fwd", (dt.f32, dt.f32, dt.bf16, dt.f32)),
    ("fwd", (dt.f32, dt.f32, dt.f32, dt.bf16)), ("fwd", (dt.s8, dt.s8, dt.f32, dt.f32)),
    ("bwd_w", (dt.bf16, dt.bf16, dt.bf16, dt.f32)), ("bwd_w", (dt.f32, dt.bf16, dt.f32, dt.f32)),
    ("bwd_d", (dt.bf16, dt.f32, None, dt.bf16)), ("bwd_d", (dt.f32, dt.bf16, None, dt.f32)),
])
def test_data_types_onednn_rejects(eng, direction, dts):
    p = parse_desc("mb2ic4ih6oc5oh4kh3")
    src_dims, wei_dims, bias_dims, dst_dims, _ = shapes(p)
    sdt, wdt, bdt, ddt = dts
    md = lambda dims, d: memory.desc(dims, d, tag.any)  # noqa: E731
    conv_args = (p["s"], p["p"], p["pr"])
    with pytest.raises(dnnl.error) as e:
        if direction == "fwd":
            convolution_forward.primitive_desc(eng, prop_kind.forward, DIRECT, md(src_dims, sdt),
                                               md(wei_dims, wdt), md(bias_dims, bdt),
                                               md(dst_dims, ddt), *conv_args)
        else:
            hint = convolution_forward.primitive_desc(
                eng, prop_kind.forward, DIRECT, md(src_dims, dt.f32), md(wei_dims, dt.f32),
                md(dst_dims, dt.f32), *conv_args)
            if direction == "bwd_w":
                convolution_backward_weights.primitive_desc(
                    eng, DIRECT, md(src_dims, sdt), md(wei_dims, wdt), md(bias_dims, bdt),
                    md(dst_dims, ddt), *conv_args, hint)
            else:
                convolution_backward_data.primitive_desc(
                    eng, DIRECT, md(src_dims, sdt), md(wei_dims, wdt), md(dst_dims, ddt),
                    *conv_args, hint)
    assert e.value.status == dnnl.dnnl_unimplemented


def test_bf16_disabled_by_the_project_switch(eng, monkeypatch):
    monkeypatch.setenv("CYDNNL_BF16_UNIMPLEMENTED", "1")
    md = lambda dims, d: memory.desc(dims, d, tag.any)  # noqa: E731
    with pytest.raises(dnnl.error) as e:
        convolution_forward.primitive_desc(eng, prop_kind.forward, DIRECT, md([1, 3, 5, 5], dt.bf16),
                                           md([4, 3, 3, 3], dt.bf16), md([1, 4, 3, 3], dt.bf16),
                                           [1, 1], [0, 0], [0, 0])
    assert e.value.status == dnnl.dnnl_unimplemented
    assert "CYDNNL_BF16_UNIMPLEMENTED" in e.value.message
    # f32 is unaffected
    convolution_forward.primitive_desc(eng, prop_kind.forward, DIRECT, md([1, 3, 5, 5], dt.f32),
                                       md([4, 3, 3, 3], dt.f32), md([1, 4, 3, 3], dt.f32),
                                       [1, 1], [0, 0], [0, 0])


def test_finite_differences(eng, strm):
    """Backward data and weights against central differences of the forward
    of this library itself (f32, scaled so rounding stays small)."""
    p = parse_desc("mb1ic2ih5oc3oh3kh3sh1ph0")
    r = run_conv(eng, strm, p)
    src, wei, bias, dd = (r[k].astype(np.float64) for k in ("src", "wei", "bias", "dd"))
    fpd = r["fwd_pd"]
    conv = convolution_forward(fpd)
    s = stream(eng)

    def forward(x, w):
        sm, wm, bm = memory(fpd.src_desc(), eng), memory(fpd.weights_desc(), eng), \
            memory(fpd.bias_desc(), eng)
        sm.write(x.astype(np.float32))
        wm.write(w.astype(np.float32))
        bm.write(bias.astype(np.float32))
        dm = memory(fpd.dst_desc(), eng)
        conv.execute(s, {dnnl.DNNL_ARG_SRC: sm, dnnl.DNNL_ARG_WEIGHTS: wm,
                         dnnl.DNNL_ARG_BIAS: bm, dnnl.DNNL_ARG_DST: dm})
        return float((dm.read(np.float32).astype(np.float64) * dd).sum())

    h = 1e-2
    rng = np.random.default_rng(1)
    for _ in range(6):
        idx = tuple(rng.integers(0, n) for n in src.shape)
        xp, xm = src.copy(), src.copy()
        xp[idx] += h
        xm[idx] -= h
        numeric = (forward(xp, wei) - forward(xm, wei)) / (2 * h)
        assert abs(numeric - r["diff_src"][idx]) < 1e-3 * max(1, abs(numeric))
        idx = tuple(rng.integers(0, n) for n in wei.shape)
        wp, wm_ = wei.copy(), wei.copy()
        wp[idx] += h
        wm_[idx] -= h
        numeric = (forward(src, wp) - forward(src, wm_)) / (2 * h)
        assert abs(numeric - r["diff_wei"][idx]) < 1e-3 * max(1, abs(numeric))


def test_queries_and_algorithms(eng, strm):
    p = parse_desc("mb2ic4ih6oc5oh4kh3")
    src_dims, wei_dims, bias_dims, dst_dims, _ = shapes(p)
    md = lambda dims: memory.desc(dims, dt.f32, tag.any)  # noqa: E731
    pd = convolution_forward.primitive_desc(eng, prop_kind.forward_inference,
                                            algorithm.convolution_auto, md(src_dims),
                                            md(wei_dims), md(bias_dims), md(dst_dims),
                                            [1, 1], [0, 0], [0, 0], [0, 0])
    assert pd.get_algorithm() == algorithm.convolution_direct   # auto resolves to direct
    assert pd.get_prop_kind() == prop_kind.forward_inference
    assert pd.get_dilations() == [0, 0] and pd.get_kind() == dnnl.primitive.kind.convolution
    for f in (md(src_dims), md(wei_dims), md(dst_dims)):
        assert f.get_format_kind() == memory.format_kind.any
    assert pd.src_desc().get_format_kind() == memory.format_kind.blocked
    assert pd.query_s32(dnnl.query.num_of_inputs_s32) == 3
    assert pd.query_s32(dnnl.query.num_of_outputs_s32) == 1
    with pytest.raises(dnnl.error) as e:
        convolution_forward.primitive_desc(eng, prop_kind.forward, algorithm.convolution_winograd,
                                           md(src_dims), md(wei_dims), md(dst_dims), [1, 1],
                                           [0, 0], [0, 0])
    assert e.value.status == dnnl.dnnl_unimplemented
    prim = convolution_forward(pd)
    wrapped = convolution_forward.primitive_desc(prim.get_primitive_desc())
    assert wrapped.weights_desc() == pd.weights_desc()
    with pytest.raises(dnnl.error):
        convolution_backward_data.primitive_desc(pd.get())      # a forward pd, wrong kind


BAD_FWD = [
    ("wrong output size", dict(dst=[2, 5, 5, 4]), dnnl.dnnl_invalid_arguments, "spatial dim 0"),
    ("channel mismatch", dict(wei=[5, 3, 3, 3]), dnnl.dnnl_invalid_arguments, "channels"),
    ("batch mismatch", dict(dst=[3, 5, 4, 4]), dnnl.dnnl_invalid_arguments, "batch"),
    ("bias size", dict(bias=[4]), dnnl.dnnl_invalid_arguments, "bias_desc"),
    ("2-D src", dict(src=[2, 4], wei=[5, 4], dst=[2, 5]), dnnl.dnnl_invalid_arguments, "3 to 5"),
    ("zero stride", dict(strides=[0, 1]), dnnl.dnnl_invalid_arguments, "stride"),
    ("negative padding", dict(pl=[-1, 0]), dnnl.dnnl_invalid_arguments, "padding"),
    ("prop backward", dict(prop=prop_kind.backward_data), dnnl.dnnl_invalid_arguments,
     "prop_kind"),
]


@pytest.mark.parametrize("what,change,status,words", BAD_FWD, ids=[b[0] for b in BAD_FWD])
def test_bad_forward_descriptors(eng, what, change, status, words):
    a = dict(src=[2, 4, 6, 6], wei=[5, 4, 3, 3], bias=[5], dst=[2, 5, 4, 4], strides=[1, 1],
             pl=[0, 0], pr=[0, 0], prop=prop_kind.forward)
    a.update(change)
    md = lambda dims: memory.desc(dims, dt.f32, tag.any)  # noqa: E731
    with pytest.raises(dnnl.error) as e:
        convolution_forward.primitive_desc(eng, a["prop"], DIRECT, md(a["src"]), md(a["wei"]),
                                           md(a["bias"]), md(a["dst"]), a["strides"], a["pl"],
                                           a["pr"])
    assert e.value.status == status
    assert words in e.value.message


def test_bad_input_through_the_c_api(eng, strm):
    keep = []

    def mk(dims, d=dt.f32):
        keep.append(memory.desc(dims, d, tag.any))
        return keep[-1].get()
    pd = c.dnnl_primitive_desc_t()
    e = eng.get()
    src, wei, dst = mk([2, 4, 6, 6]), mk([5, 4, 3, 3]), mk([2, 5, 4, 4])
    ok = c.dnnl_convolution_forward_primitive_desc_create
    assert ok(pd, e, c.dnnl_forward, c.dnnl_convolution_direct, src, wei, None, dst, [1, 1],
              None, [0, 0], [0, 0], None) == c.dnnl_success
    assert ok(pd, e, c.dnnl_forward, c.dnnl_convolution_direct, src, wei, None, dst, None,
              None, [0, 0], [0, 0], None) == c.dnnl_invalid_arguments
    assert ok(pd, e, c.dnnl_forward, c.dnnl_convolution_direct, src, wei, None, dst, [1],
              None, [0, 0], [0, 0], None) == c.dnnl_invalid_arguments      # too short
    assert ok(pd, e, c.dnnl_forward, c.dnnl_convolution_direct, None, wei, None, dst, [1, 1],
              None, [0, 0], [0, 0], None) == c.dnnl_invalid_arguments
    assert ok(pd, e, c.dnnl_forward, 0x20, src, wei, None, dst, [1, 1], None, [0, 0], [0, 0],
              None) == c.dnnl_invalid_arguments
    assert ok(pd, None, c.dnnl_forward, c.dnnl_convolution_direct, src, wei, None, dst, [1, 1],
              None, [0, 0], [0, 0], None) == c.dnnl_invalid_arguments
    fwd = c.dnnl_primitive_desc_t()
    assert ok(fwd, e, c.dnnl_forward, c.dnnl_convolution_direct, src, wei, None, dst, [1, 1],
              None, [0, 0], [0, 0], None) == c.dnnl_success
    elt = c.dnnl_primitive_desc_t()
    nchw = memory.desc([2, 4, 6, 6], dt.f32, tag.nchw)
    md = nchw.get()
    assert c.dnnl_eltwise_forward_primitive_desc_create(elt, e, c.dnnl_forward, c.dnnl_eltwise_relu,
                                                        md, md, 0.0, 0.0, None) == 0
    bw = c.dnnl_convolution_backward_weights_primitive_desc_create
    assert bw(pd, e, c.dnnl_convolution_direct, src, wei, None, dst, [1, 1], None, [0, 0],
              [0, 0], elt, None) == c.dnnl_invalid_arguments      # hint of another kind
    assert bw(pd, e, c.dnnl_convolution_direct, src, wei, None, dst, [1, 1], None, [0, 0],
              [0, 0], None, None) == c.dnnl_success                # oneDNN needs no hint here
    assert bw(pd, e, c.dnnl_convolution_direct, src, wei, None, mk([2, 5, 3, 4]), [1, 1], None,
              [0, 0], [0, 0], fwd, None) == c.dnnl_invalid_arguments
    bd = c.dnnl_convolution_backward_data_primitive_desc_create
    assert bd(pd, e, c.dnnl_convolution_direct, src, wei, dst, [1, 1], None, [0, 0], [0, 0],
              fwd, None) == c.dnnl_success
    prim = c.dnnl_primitive_t()
    assert c.dnnl_primitive_create(prim, pd) == 0
    diff_src = c.dnnl_memory_t()
    q = c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_diff_src_md, 0)
    assert c.dnnl_memory_create(diff_src, q, e, c.DNNL_MEMORY_ALLOCATE) == 0
    assert c.dnnl_primitive_execute(prim, strm.get(), 1, [(c.DNNL_ARG_DIFF_SRC, diff_src)]) \
        == c.dnnl_invalid_arguments
    assert "DNNL_ARG_WEIGHTS" in c.cydnnl_last_error()


@pytest.mark.parametrize("desc", ["g2mb3ic6ih7oc4oh4kh3sh2ph1", "mb1ic5iw9oc3ow9kw1",
                                  "mb4ic3id4oc5od2kd2sd2", "mb2ic16ih6oc8oh6kh1"])
def test_every_implementation_agrees_with_numpy(eng, strm, desc):
    """Walks the implementation list (GEMM first, the reference last) for
    each direction and checks every implementation against NumPy."""
    p = parse_desc(desc)
    src_dims, wei_dims, bias_dims, dst_dims, _ = shapes(p)
    rng = np.random.default_rng(7)
    x, w, b, dd = (rng.uniform(-1, 1, d).astype(np.float32)
                   for d in (src_dims, wei_dims, bias_dims, dst_dims))
    args = (p["s"], p["d"], p["p"], p["pr"])
    want_dst = conv_fwd(x, w, b, *args, g=p["g"])
    want_ds = conv_bwd_data(dd, w, src_dims, *args, g=p["g"])
    want_dw, want_db = conv_bwd_weights(x, dd, wei_dims, *args, g=p["g"])
    md = lambda dims: memory.desc(dims, dt.f32, tag.any)  # noqa: E731
    fwd = convolution_forward.primitive_desc(eng, prop_kind.forward, DIRECT, md(src_dims),
                                             md(wei_dims), md(bias_dims), md(dst_dims), *args)
    pds = {
        "fwd": fwd,
        "bwd_d": convolution_backward_data.primitive_desc(eng, DIRECT, md(src_dims),
                                                          md(wei_dims), md(dst_dims), *args, fwd),
        "bwd_w": convolution_backward_weights.primitive_desc(
            eng, DIRECT, md(src_dims), md(wei_dims), md(bias_dims), md(dst_dims), *args, fwd),
    }
    for name, pd in pds.items():
        seen = []
        while True:
            seen.append(pd.impl_info_str())
            mems = {}
            if name == "fwd":
                for arg, val, d in ((dnnl.DNNL_ARG_SRC, x, pd.src_desc()),
                                    (dnnl.DNNL_ARG_WEIGHTS, w, pd.weights_desc()),
                                    (dnnl.DNNL_ARG_BIAS, b, pd.bias_desc())):
                    mems[arg] = memory(d, eng)
                    mems[arg].write(val)
                mems[dnnl.DNNL_ARG_DST] = out = memory(pd.dst_desc(), eng)
                convolution_forward(pd).execute(strm, mems)
                close(out.read(), want_dst, 1e-5)
            elif name == "bwd_d":
                for arg, val, d in ((dnnl.DNNL_ARG_WEIGHTS, w, pd.weights_desc()),
                                    (dnnl.DNNL_ARG_DIFF_DST, dd, pd.diff_dst_desc())):
                    mems[arg] = memory(d, eng)
                    mems[arg].write(val)
                mems[dnnl.DNNL_ARG_DIFF_SRC] = out = memory(pd.diff_src_desc(), eng)
                convolution_backward_data(pd).execute(strm, mems)
                close(out.read(), want_ds, 1e-5)
            else:
                for arg, val, d in ((dnnl.DNNL_ARG_SRC, x, pd.src_desc()),
                                    (dnnl.DNNL_ARG_DIFF_DST, dd, pd.diff_dst_desc())):
                    mems[arg] = memory(d, eng)
                    mems[arg].write(val)
                mems[dnnl.DNNL_ARG_DIFF_WEIGHTS] = out = memory(pd.diff_weights_desc(), eng)
                mems[dnnl.DNNL_ARG_DIFF_BIAS] = outb = memory(pd.diff_bias_desc(), eng)
                convolution_backward_weights(pd).execute(strm, mems)
                close(out.read(), want_dw, 1e-5)
                close(outb.read(), want_db, 1e-5)
            if not pd.next_impl():
                break
        assert seen == level_impls("gemm") + ["ref:any"], (name, seen)


def test_batch_one_and_thread_counts_agree(eng, strm, monkeypatch):
    """Batch 1 takes the parallel-GEMM path, larger batches split images
    across threads; both agree with NumPy."""
    for mb in (1, 2, 5):
        p = parse_desc("mb%dic4ih9oc6oh5kh3sh2ph1" % mb)
        r = run_conv(eng, strm, p)
        check(p, r)
