"""oneDNN's enumerations, as data (values from oneDNN v3 dnnl_types.h /
dnnl_common_types.h). generate.py turns this into the C-level .pxd, the
Python-level constants and the C tables behind the *2str functions.

Each enum: (c_type, [(name, value, str_or_None), ...]); a str of None means
"strip the enum prefix" (dnnl_f32 -> "f32"); aliases repeat a value and are
skipped by *2str.
"""

DNNL_MAX_NDIMS = 12

# Enum members that only bound a range; *2str and the C++ enums skip them.
SENTINELS = {"dnnl_data_type_max", "dnnl_format_kind_max", "dnnl_prop_kind_max",
             "dnnl_primitive_kind_max", "dnnl_query_max"}


def seq(prefix, names, start=0, step=1):
    return [(prefix + n, start + i * step, n) for i, n in enumerate(names)]


ENUMS = {}

ENUMS["dnnl_status_t"] = seq("dnnl_", [
    "success", "out_of_memory", "invalid_arguments", "unimplemented",
    "last_impl_reached", "runtime_error", "not_required", "invalid_graph",
    "invalid_graph_op", "invalid_shape", "invalid_data_type"])

ENUMS["dnnl_data_type_t"] = [
    ("dnnl_data_type_undef", 0, "undef"), ("dnnl_f16", 1, "f16"),
    ("dnnl_bf16", 2, "bf16"), ("dnnl_f32", 3, "f32"), ("dnnl_s32", 4, "s32"),
    ("dnnl_s8", 5, "s8"), ("dnnl_u8", 6, "u8"), ("dnnl_f64", 7, "f64"),
    ("dnnl_boolean", 8, "boolean"), ("dnnl_f8_e5m2", 9, "f8_e5m2"),
    ("dnnl_f8_e4m3", 10, "f8_e4m3"), ("dnnl_s4", 11, "s4"), ("dnnl_u4", 12, "u4"),
    ("dnnl_e8m0", 13, "e8m0"), ("dnnl_f4_e2m1", 14, "f4_e2m1"),
    ("dnnl_f4_e3m0", 15, "f4_e3m0"), ("dnnl_s64", 16, "s64"),
    ("dnnl_data_type_max", 0x7fff, None)]

ENUMS["dnnl_format_kind_t"] = [
    ("dnnl_format_kind_undef", 0, "undef"), ("dnnl_format_kind_any", 1, "any"),
    ("dnnl_blocked", 2, "blocked"), ("dnnl_format_kind_opaque", 3, "opaque"),
    ("dnnl_format_kind_sparse", 4, "sparse"),
    ("dnnl_format_kind_host_scalar", 5, "host_scalar"),
    ("dnnl_format_kind_max", 0x7fff, None)]

ENUMS["dnnl_prop_kind_t"] = [
    ("dnnl_prop_kind_undef", 0, "undef"),
    ("dnnl_forward_training", 64, "forward_training"),
    ("dnnl_forward_inference", 96, "forward_inference"),
    ("dnnl_forward", 64, None),
    ("dnnl_backward", 128, "backward"),
    ("dnnl_backward_data", 160, "backward_data"),
    ("dnnl_backward_weights", 192, "backward_weights"),
    ("dnnl_backward_bias", 193, "backward_bias"),
    ("dnnl_prop_kind_max", 0x7fff, None)]

ENUMS["dnnl_primitive_kind_t"] = seq("dnnl_", [
    "undefined_primitive", "reorder", "shuffle", "concat", "sum", "convolution",
    "deconvolution", "eltwise", "lrn", "batch_normalization", "inner_product",
    "rnn", "gemm", "binary", "matmul", "resampling", "pooling", "reduction",
    "prelu", "softmax", "layer_normalization", "group_normalization"])
ENUMS["dnnl_primitive_kind_t"][0] = ("dnnl_undefined_primitive", 0, "undef")
ENUMS["dnnl_primitive_kind_t"].append(("dnnl_primitive_kind_max", 0x7fff, None))

_eltwise = ["relu", "tanh", "elu", "square", "abs", "sqrt", "linear",
            "soft_relu", "hardsigmoid", "logistic", "exp", "gelu_tanh", "swish",
            "log", "clip", "clip_v2", "pow", "gelu_erf", "round", "mish",
            "hardswish"]
_eltwise_dst = ["relu", "tanh", "elu", "sqrt", "logistic", "exp", "clip_v2"]
ENUMS["dnnl_alg_kind_t"] = (
    [("dnnl_alg_kind_undef", 0, "undef"),
     ("dnnl_convolution_direct", 0x1, None),
     ("dnnl_convolution_winograd", 0x2, None),
     ("dnnl_convolution_auto", 0x3, None),
     ("dnnl_deconvolution_direct", 0xa, None),
     ("dnnl_deconvolution_winograd", 0xb, None)]
    + [("dnnl_eltwise_" + n, 0x20 + i, None) for i, n in enumerate(_eltwise)]
    + [("dnnl_eltwise_%s_use_dst_for_bwd" % n, 0x100 + i, None)
       for i, n in enumerate(_eltwise_dst)]
    + [("dnnl_pooling_max", 0x1ff, None),
       ("dnnl_pooling_avg_include_padding", 0x2ff, None),
       ("dnnl_pooling_avg_exclude_padding", 0x3ff, None),
       ("dnnl_lrn_across_channels", 0xaff, None),
       ("dnnl_lrn_within_channel", 0xbff, None),
       ("dnnl_vanilla_rnn", 0x1fff, None),
       ("dnnl_vanilla_lstm", 0x2fff, None),
       ("dnnl_vanilla_gru", 0x3fff, None),
       ("dnnl_lbr_gru", 0x4fff, None),
       ("dnnl_vanilla_augru", 0x5fff, None),
       ("dnnl_lbr_augru", 0x6fff, None)]
    # binary post-ops' algorithms (no binary primitive here)
    + [("dnnl_binary_" + n, 0x1fff0 + i, None) for i, n in enumerate(
        ["add", "mul", "max", "min", "div", "sub", "ge", "gt", "le", "lt", "eq", "ne",
         "select"])])

ENUMS["dnnl_engine_kind_t"] = [
    ("dnnl_any_engine", 0, "any"), ("dnnl_cpu", 1, "cpu"), ("dnnl_gpu", 2, "gpu")]

ENUMS["dnnl_stream_flags_t"] = [
    ("dnnl_stream_in_order", 0x1, "in_order"),
    ("dnnl_stream_out_of_order", 0x2, "out_of_order"),
    ("dnnl_stream_default_flags", 0x1, None)]

ENUMS["dnnl_rnn_direction_t"] = [
    ("dnnl_rnn_direction_undef", 0, "undef"),
    ("dnnl_unidirectional_left2right", 1, "unidirectional_left2right"),
    ("dnnl_unidirectional_right2left", 2, "unidirectional_right2left"),
    ("dnnl_bidirectional_concat", 3, "bidirectional_concat"),
    ("dnnl_bidirectional_sum", 4, "bidirectional_sum")]

ENUMS["dnnl_rnn_flags_t"] = [
    ("dnnl_rnn_flags_undef", 0, "undef"),
    ("dnnl_rnn_flags_diff_weights_overwrite", 1, "diff_weights_overwrite")]

ENUMS["dnnl_scratchpad_mode_t"] = [
    ("dnnl_scratchpad_mode_library", 0, "library"),
    ("dnnl_scratchpad_mode_user", 1, "user")]

ENUMS["dnnl_fpmath_mode_t"] = [
    ("dnnl_fpmath_mode_strict", 0, "strict"), ("dnnl_fpmath_mode_bf16", 1, "bf16"),
    ("dnnl_fpmath_mode_f16", 2, "f16"), ("dnnl_fpmath_mode_any", 3, "any"),
    ("dnnl_fpmath_mode_tf32", 4, "tf32")]

ENUMS["dnnl_accumulation_mode_t"] = seq("dnnl_accumulation_mode_", [
    "strict", "relaxed", "any", "s32", "f32", "f16"])

ENUMS["dnnl_rounding_mode_t"] = seq("dnnl_rounding_mode_", ["environment", "stochastic"])

ENUMS["dnnl_quantization_mode_t"] = seq("dnnl_quantization_mode_", [
    "undef", "static_sazp", "dynamic_mx", "dynamic_fp"])

ENUMS["dnnl_query_t"] = (
    seq("dnnl_query_", [
        "undef", "engine", "primitive_kind", "num_of_inputs_s32",
        "num_of_outputs_s32", "time_estimate_f64", "memory_consumption_s64",
        "scratchpad_engine", "impl_info_str", "reorder_src_engine",
        "reorder_dst_engine", "prop_kind", "cache_blob_id_size_s64",
        "cache_blob_id", "strides", "dilations", "padding_l", "padding_r",
        "epsilon_f32", "flags", "alg_kind", "alpha_f32", "beta_f32",
        "axis_s32", "local_size_s64", "k_f32", "p_f32", "factors",
        "cell_kind", "direction", "activation_kind", "kernel",
        "group_size_s64"])
    + seq("dnnl_query_", [
        "some_md", "src_md", "diff_src_md", "weights_md", "diff_weights_md",
        "dst_md", "diff_dst_md", "workspace_md", "scratchpad_md"], 128)
    + [("dnnl_query_exec_arg_md", 255, "exec_arg_md")]
    + seq("dnnl_query_", [
        "ndims_s32", "dims", "data_type", "submemory_offset_s64",
        "padded_dims", "padded_offsets", "format_kind", "inner_nblks_s32",
        "inner_blks", "inner_idxs", "sparse_encoding", "nnz_s64",
        "num_handles_s32"], 256)
    + [("dnnl_query_max", 0x7fff, None)])


# dnnl_cpu_isa_t: bit masks, a level's bits include those of the levels below
# it; the avx512_core_* / *_512 names are aliases of the avx10 values.
ENUMS["dnnl_cpu_isa_t"] = [
    ("dnnl_cpu_isa_default", 0x0, None), ("dnnl_cpu_isa_sse41", 0x1, None),
    ("dnnl_cpu_isa_avx", 0x3, None), ("dnnl_cpu_isa_avx2", 0x7, None),
    ("dnnl_cpu_isa_avx2_vnni", 0xf, None), ("dnnl_cpu_isa_avx2_vnni_2", 0x1f, None),
    ("dnnl_cpu_isa_avx512_core", 0x27, None),
    ("dnnl_cpu_isa_avx512_core_vnni", 0x67, None),
    ("dnnl_cpu_isa_avx512_core_bf16", 0xe7, None),
    ("dnnl_cpu_isa_avx10_1_512", 0x1ef, None),
    ("dnnl_cpu_isa_avx512_core_fp16", 0x1ef, None),
    ("dnnl_cpu_isa_avx10_1_512_amx", 0xfef, None),
    ("dnnl_cpu_isa_avx512_core_amx", 0xfef, None),
    ("dnnl_cpu_isa_avx10_1_512_amx_fp16", 0x1fef, None),
    ("dnnl_cpu_isa_avx512_core_amx_fp16", 0x1fef, None),
    ("dnnl_cpu_isa_avx10_2", 0x201ff, None),
    ("dnnl_cpu_isa_avx10_2_512", 0x201ff, None),
    ("dnnl_cpu_isa_avx10_2_amx_2", 0x22fff, None),
    ("dnnl_cpu_isa_avx10_2_512_amx_2", 0x22fff, None)]

ENUMS["dnnl_cpu_isa_hints_t"] = [
    ("dnnl_cpu_isa_no_hints", 0x0, None), ("dnnl_cpu_isa_prefer_ymm", 0x1, None)]


# Plain #defines of dnnl_types.h / dnnl_common_types.h.
ARGS = [
    ("DNNL_ARG_UNDEF", 0), ("DNNL_ARG_SRC_0", 1), ("DNNL_ARG_SRC", 1),
    ("DNNL_ARG_SRC_LAYER", 1), ("DNNL_ARG_FROM", 1), ("DNNL_ARG_SRC_1", 2),
    ("DNNL_ARG_SRC_ITER", 2), ("DNNL_ARG_SRC_2", 3), ("DNNL_ARG_SRC_ITER_C", 3),
    ("DNNL_ARG_SRC_3", 4), ("DNNL_ARG_AUGRU_ATTENTION", 4),
    ("DNNL_ARG_DST_0", 17), ("DNNL_ARG_DST", 17), ("DNNL_ARG_TO", 17),
    ("DNNL_ARG_DST_LAYER", 17), ("DNNL_ARG_DST_1", 18), ("DNNL_ARG_DST_ITER", 18),
    ("DNNL_ARG_DST_2", 19), ("DNNL_ARG_DST_ITER_C", 19),
    ("DNNL_ARG_WEIGHTS_0", 33), ("DNNL_ARG_WEIGHTS", 33),
    ("DNNL_ARG_WEIGHTS_LAYER", 33), ("DNNL_ARG_WEIGHTS_1", 34),
    ("DNNL_ARG_WEIGHTS_ITER", 34), ("DNNL_ARG_WEIGHTS_2", 35),
    ("DNNL_ARG_WEIGHTS_PEEPHOLE", 35), ("DNNL_ARG_WEIGHTS_3", 36),
    ("DNNL_ARG_WEIGHTS_PROJECTION", 36), ("DNNL_ARG_BIAS", 41),
    ("DNNL_ARG_REDUCE", 42), ("DNNL_ARG_MEAN", 49), ("DNNL_ARG_VARIANCE", 50),
    ("DNNL_ARG_SCALE", 51), ("DNNL_ARG_SHIFT", 52), ("DNNL_ARG_WORKSPACE", 64),
    ("DNNL_ARG_SCRATCHPAD", 80), ("DNNL_ARG_DIFF_SRC_0", 129),
    ("DNNL_ARG_DIFF_SRC", 129), ("DNNL_ARG_DIFF_SRC_LAYER", 129),
    ("DNNL_ARG_DIFF_SRC_1", 130), ("DNNL_ARG_DIFF_SRC_ITER", 130),
    ("DNNL_ARG_DIFF_SRC_2", 131), ("DNNL_ARG_DIFF_SRC_ITER_C", 131),
    ("DNNL_ARG_DIFF_SRC_3", 132), ("DNNL_ARG_DIFF_AUGRU_ATTENTION", 132),
    ("DNNL_ARG_DIFF_DST_0", 145), ("DNNL_ARG_DIFF_DST", 145),
    ("DNNL_ARG_DIFF_DST_LAYER", 145), ("DNNL_ARG_DIFF_DST_1", 146),
    ("DNNL_ARG_DIFF_DST_ITER", 146), ("DNNL_ARG_DIFF_DST_2", 147),
    ("DNNL_ARG_DIFF_DST_ITER_C", 147), ("DNNL_ARG_DIFF_WEIGHTS_0", 161),
    ("DNNL_ARG_DIFF_WEIGHTS", 161), ("DNNL_ARG_DIFF_WEIGHTS_LAYER", 161),
    ("DNNL_ARG_DIFF_WEIGHTS_1", 162), ("DNNL_ARG_DIFF_WEIGHTS_ITER", 162),
    ("DNNL_ARG_DIFF_WEIGHTS_2", 163), ("DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE", 163),
    ("DNNL_ARG_DIFF_WEIGHTS_3", 164), ("DNNL_ARG_DIFF_WEIGHTS_PROJECTION", 164),
    ("DNNL_ARG_DIFF_BIAS", 169), ("DNNL_ARG_DIFF_SCALE", 255),
    ("DNNL_ARG_DIFF_SHIFT", 256), ("DNNL_ARG_MULTIPLE_SRC", 1024),
    ("DNNL_ARG_MULTIPLE_DST", 2048), ("DNNL_ARG_ATTR_SCALES", 4096),
    ("DNNL_ARG_ATTR_ZERO_POINTS", 8192), ("DNNL_ARG_ATTR_POST_OP_DW", 16384),
    ("DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE", 32768)]

DEFINES = [("DNNL_MAX_NDIMS", DNNL_MAX_NDIMS), ("DNNL_RUNTIME_DIM_VAL", -(2**63)),
           ("DNNL_RUNTIME_SIZE_VAL", 2**63),
           ("DNNL_JIT_PROFILE_NONE", 0), ("DNNL_JIT_PROFILE_VTUNE", 1),
           ("DNNL_JIT_PROFILE_LINUX_PERFMAP", 2), ("DNNL_JIT_PROFILE_LINUX_JITDUMP", 4),
           ("DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC", 8), ("DNNL_JIT_PROFILE_LINUX_PERF", 6)]


def format_tags(path):
    """(canonical names in enum order, {alias: canonical})."""
    names, aliases, in_aliases = [], {}, False
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        if line == "aliases:":
            in_aliases = True
            continue
        if in_aliases:
            for pair in line.split():
                alias, canonical = pair.split("=")
                aliases[alias] = canonical
        else:
            names += line.split()
    return names, aliases


# oneDNN v3.13.1 has 875 tags before format_tag_last; the list above (read
# from an earlier v3 header) ends at 852. The 23 later tags are not known here.
FORMAT_TAG_LAST = 875


def parse_tag(name):
    """Blocking of a canonical tag name such as 'aBcd8b' or 'ABcd8b8a':
    (ndims, outer order as dim indices, [(block, dim), ...] outer to inner)."""
    i = 0
    while i < len(name) and name[i].isalpha():
        i += 1
    outer = [ord(c.lower()) - ord("a") for c in name[:i]]
    blocks, rest = [], name[i:]
    while rest:
        j = 0
        while rest[j].isdigit():
            j += 1
        blocks.append((int(rest[:j]), ord(rest[j]) - ord("a")))
        rest = rest[j + 1:]
    ndims = len(outer)
    assert sorted(outer) == list(range(ndims)), name
    assert all(d < ndims for _, d in blocks), name
    return ndims, outer, blocks
