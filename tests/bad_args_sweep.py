"""Calls every function of dnnl_c with one argument replaced by an odd value
(NaN, 2**70, a NumPy array, a string, None, an empty list, a generator, ...)
while the others are valid, and reports every call that raised or returned
something of the wrong type. Run as a script (a crash kills only this
process): prints a JSON list of problems and exits 0 when it finished.

test_bad_arguments.py runs it in a subprocess."""

import inspect
import json
import sys

import numpy as np

import dnnl_c as c


def _check(st, what):
    if st != c.dnnl_success:
        raise RuntimeError("%s: %s" % (what, c.cydnnl_last_error()))


class Pool:
    """Live input handles shared by the calls (never destroyed by them)."""

    def __init__(self):
        self.eng = c.dnnl_engine_t()
        _check(c.dnnl_engine_create(self.eng, c.dnnl_cpu, 0), "engine")
        self.strm = c.dnnl_stream_t()
        _check(c.dnnl_stream_create(self.strm, self.eng, c.dnnl_stream_default_flags), "stream")
        self.md = c.dnnl_memory_desc_t()
        _check(c.dnnl_memory_desc_create_with_tag(self.md, 4, [2, 3, 4, 4], c.dnnl_f32,
                                                  c.dnnl_nchw), "md")
        self.mem = c.dnnl_memory_t()
        _check(c.dnnl_memory_create(self.mem, self.md, self.eng, c.DNNL_MEMORY_ALLOCATE),
               "memory")
        self.attr = c.dnnl_primitive_attr_t()
        _check(c.dnnl_primitive_attr_create(self.attr), "attr")
        self.pd = c.dnnl_primitive_desc_t()
        _check(c.dnnl_eltwise_forward_primitive_desc_create(
            self.pd, self.eng, c.dnnl_forward_training, c.dnnl_eltwise_relu, self.md, self.md,
            0.0, 0.0, None), "pd")
        self.prim = c.dnnl_primitive_t()
        _check(c.dnnl_primitive_create(self.prim, self.pd), "primitive")
        # attributes the setters change (self.attr stays default for the creators)
        self.scratch_attr = c.dnnl_primitive_attr_t()
        _check(c.dnnl_primitive_attr_create(self.scratch_attr), "scratch attr")
        self.u8_md = c.dnnl_memory_desc_t()
        _check(c.dnnl_memory_desc_create_with_tag(self.u8_md, 4, [2, 3, 4, 4], c.dnnl_u8,
                                                  c.dnnl_nchw), "u8 md")
        self.scalar_md = c.dnnl_memory_desc_t()
        _check(c.dnnl_memory_desc_create_host_scalar(self.scalar_md, c.dnnl_f32), "scalar md")
        self.scalar_mem = c.dnnl_memory_t()
        _check(c.dnnl_memory_create_host_scalar(self.scalar_mem, self.scalar_md, 2.0),
               "scalar memory")
        size = [None]
        _check(c.dnnl_memory_desc_get_blob(None, size, self.md), "blob size")
        blob = bytearray(size[0])
        _check(c.dnnl_memory_desc_get_blob(blob, size, self.md), "blob")
        self.blob = bytes(blob)
        # one post-op of each kind, at the index POST_OP_INDEX gives
        self.post_ops = c.dnnl_post_ops_t()
        _check(c.dnnl_post_ops_create(self.post_ops), "post_ops")
        _check(c.dnnl_post_ops_append_sum(self.post_ops, 1.0, 0, c.dnnl_f32), "sum")
        _check(c.dnnl_post_ops_append_eltwise(self.post_ops, c.dnnl_eltwise_relu, 0, 0), "eltwise")
        _check(c.dnnl_post_ops_append_dw(self.post_ops, c.dnnl_f32, c.dnnl_f32, c.dnnl_f32, 3, 1,
                                         1), "dw")
        _check(c.dnnl_post_ops_append_binary(self.post_ops, c.dnnl_binary_add, self.md), "binary")
        _check(c.dnnl_post_ops_append_prelu(self.post_ops, 0), "prelu")


POST_OP_INDEX = {"sum": 0, "eltwise": 1, "dw": 2, "binary": 3, "prelu": 4}


HANDLE_OF_NAME = {
    "engine": c.dnnl_engine_t, "src_engine": c.dnnl_engine_t, "dst_engine": c.dnnl_engine_t,
    "stream": c.dnnl_stream_t, "memory": c.dnnl_memory_t, "primitive": c.dnnl_primitive_t,
    "attr": c.dnnl_primitive_attr_t, "existing_attr": c.dnnl_primitive_attr_t,
    "primitive_desc": c.dnnl_primitive_desc_t, "reorder_primitive_desc": c.dnnl_primitive_desc_t,
    "existing_primitive_desc": c.dnnl_primitive_desc_t, "hint_fwd_pd": c.dnnl_primitive_desc_t,
    "post_ops": c.dnnl_post_ops_t, "existing_post_ops": c.dnnl_post_ops_t,
}
LIST_OUTPUTS = {"kind", "mode", "result", "mapped_ptr"}
# What *_get_* functions give back in out[0] (their other arguments are inputs).
GET_OUTPUTS = {"scale", "zero_point", "data_type", "alg_kind", "alpha", "beta",
               "weights_data_type", "bias_data_type", "dst_data_type", "kernel_size",
               "stride_size", "padding_l_size", "mask", "value", "apply_to_int", "seed_dt",
               "use_offset", "use_host_scalars", "shift", "count", "scales", "size", "capacity"}


def _is_output(fn_name, params, name):
    """Handles the call fills in: the first argument of *_create / *_clone
    and the second of *_get_<handle>."""
    if name in ("memory_desc", "out_memory_desc") and ("create" in fn_name or "clone" in fn_name
                                                       or "reshape" in fn_name
                                                       or "permute" in fn_name):
        return params[0] == name
    if "_get_" in fn_name and params.index(name) == 1 and name != "handle":
        return True
    if ("get_params_binary" in fn_name and name in ("src1_desc", "src2_desc")) or (
            "get_dropout" in fn_name and name == "mask_desc"):
        return True
    return params[0] == name and ("_create" in fn_name or "_clone" in fn_name)


def _handle_class(name):
    if name in HANDLE_OF_NAME:
        return HANDLE_OF_NAME[name]
    if name.endswith("_desc") or name in ("lhs", "rhs"):
        return c.dnnl_memory_desc_t
    return None


def valid_value(pool, fn_name, params, name):
    """A valid value for argument `name` of function fn_name."""
    get = "_get_" in fn_name or "map_data" in fn_name
    if name in LIST_OUTPUTS and (get or name in ("result", "mapped_ptr")) \
            and "unmap" not in fn_name:
        return [None]
    if (get and name in GET_OUTPUTS and not ("cache_blob" in fn_name and name == "size")) \
            or name == "enabled":
        return [None]
    special = _special_value(pool, fn_name, name)
    if special is not _NONE:
        return special
    if name == "handle":
        if "get_data_handle" in fn_name:
            return [None]
        if "set_data_handle" in fn_name:
            return np.zeros(96, np.float32)
        return c.DNNL_MEMORY_ALLOCATE
    cls = _handle_class(name)
    if cls is not None:
        if fn_name.endswith("_destroy"):
            return None                          # destroying pool handles would end the sweep
        if _is_output(fn_name, params, name):
            return cls()
        return {c.dnnl_engine_t: pool.eng, c.dnnl_stream_t: pool.strm,
                c.dnnl_memory_desc_t: pool.md, c.dnnl_memory_t: pool.mem,
                c.dnnl_primitive_attr_t: pool.attr, c.dnnl_primitive_desc_t: pool.pd,
                c.dnnl_primitive_t: pool.prim, c.dnnl_post_ops_t: pool.post_ops}[cls]
    if name == "mode":
        return 0
    if name == "mapped_ptr":                     # unmap's
        return None
    if name == "kind":
        return c.dnnl_cpu
    if name in ("dims",):
        return [2, 3, 4, 4] if "reshape" in fn_name or "memory_desc" in fn_name else [1, 1]
    if name == "offsets":
        return [0, 0, 0, 0]
    if name == "strides":
        return [48, 16, 4, 1] if "memory_desc" in fn_name else [1, 1]
    if name in ("kernel",):
        return [1, 1]
    if name in ("dilates", "dilation", "padding_l", "padding_r"):
        return [0, 0]
    if name == "permutation":
        return [0, 1, 2, 3]
    if name == "ndims":
        return 4
    if name == "data_type":
        return c.dnnl_f32
    if name == "tag":
        return c.dnnl_nchw
    if name == "what":
        return c.dnnl_query_dims if "memory_desc" in fn_name else c.dnnl_query_src_md
    if name in ("index", "v", "level", "nargs"):
        return 0
    if name == "flags":
        return c.dnnl_stream_default_flags
    if name == "prop_kind":
        return c.dnnl_forward_training
    if name == "alg_kind":
        for family, alg in (("eltwise", c.dnnl_eltwise_relu),
                            ("lrn", c.dnnl_lrn_across_channels),
                            ("pooling", c.dnnl_pooling_max),
                            ("convolution", c.dnnl_convolution_direct)):
            if family in fn_name:
                return alg
    if name in ("alpha", "beta", "k"):
        return 1.0
    if name == "local_size":
        return 5
    if name == "nhandles":
        return 1
    if name == "handles":
        return [np.zeros(96, np.float32)]
    if name == "args":
        return []
    if name == "direction":
        return c.dnnl_unidirectional_left2right
    if name == "isa":
        return c.dnnl_cpu_isa_default
    if name == "isa_hints":
        return c.dnnl_cpu_isa_no_hints
    if name == "dltensor":                       # a fresh capsule, or the output list
        return np.zeros((2, 3), np.float32).__dlpack__() if "from_dlpack" in fn_name \
            else [None]
    if name == "versioned":
        return True
    raise KeyError("%s: no valid value for %s" % (fn_name, name))


_NONE = object()


def _special_value(pool, fn_name, name):
    """Values for the arguments of attribute, post-ops, host scalar, blob,
    cache and service functions (_NONE: the general rules apply)."""
    if name == "attr" and ("primitive_attr_set" in fn_name or "primitive_attr_get" in fn_name):
        return pool.scratch_attr          # the setters change it; pool.attr stays default
    if name == "post_ops" and not fn_name.endswith(("_create", "_clone", "_destroy",
                                                    "get_post_ops")):
        return pool.post_ops
    if name == "index" and "get_params_" in fn_name:
        kind = fn_name.split("get_params_")[1].split("_v2")[0]
        return POST_OP_INDEX[kind]
    if name == "mask_desc":
        return pool.u8_md
    if name == "memory_desc" and "host_scalar" in fn_name and "_create_host_scalar" in fn_name \
            and "memory_desc_create" not in fn_name:
        return pool.scalar_md
    if name == "memory" and "host_scalar_value" in fn_name:
        return pool.scalar_mem
    table = {
        "capacity": 1024, "enable": 0, "dir": "/tmp", "arg": c.DNNL_ARG_DST, "mask": 3,
        "group_ndims": 2, "group_dims": [1, 1], "is_on_host": 0,
        "qmode": c.dnnl_quantization_mode_static_sazp, "apply_to_int": 0, "value": 1,
        "seed_dt": c.dnnl_s32, "use_offset": 0, "use_host_scalars": 0, "scale": 1.0,
        "shift": 0.0, "zero_point": 0, "count": 1, "scales": [1.0], "scalar": 1.0,
        "weights_data_type": c.dnnl_f32, "bias_data_type": c.dnnl_f32,
        "dst_data_type": c.dnnl_f32, "kernel_size": 3, "stride_size": 1,
        "padding_l_size": 1, "cache_blob": None if "get_cache_blob" in fn_name else b"x",
        "size": [None] if "get_cache_blob" in fn_name or "get_blob" in fn_name else 1,
        "blob": None if "get_blob" in fn_name else pool.blob,
    }
    if "gemm" in fn_name:
        bf16 = "bf16" in fn_name
        ab = {"bf16": np.uint16, "u8s8": np.uint8, "s8s8": np.int8}
        a_dt = next((v for k, v in ab.items() if k in fn_name), np.float32)
        int8 = a_dt in (np.uint8, np.int8)
        gemm = {"transa": "N", "transb": "N", "M": 2, "N": 2, "K": 2, "lda": 2, "ldb": 2,
                "ldc": 2, "bf16": 0, "offsetc": "F", "ao": 0, "bo": 0,
                "co": np.zeros(4, np.int32),
                "C": np.zeros(4, np.int32 if int8 else np.float32), "A": np.ones(4, a_dt),
                "B": np.ones(4, np.int8 if int8 else (np.uint16 if bf16 else np.float32))}
        if name in gemm:
            return gemm[name]
    if name == "arg" and "precomputed" in fn_name:
        return c.DNNL_ARG_SRC
    if name == "data_type" and ("zero_points" in fn_name or "precomputed" in fn_name):
        return c.dnnl_s32
    if name == "flags" and "jit" in fn_name:
        return c.DNNL_JIT_PROFILE_VTUNE
    if name == "value" and "host_scalar" in fn_name:
        return 1.0
    if name == "activation":
        return c.dnnl_eltwise_tanh
    if name == "alg_kind" and "binary" in fn_name:
        return c.dnnl_binary_add
    return table.get(name, _NONE)


def odd_values(pool):
    """What users pass by mistake."""
    return [
        ("empty list", lambda: []), ("nan", lambda: float("nan")), ("1.5", lambda: 1.5),
        ("2**70", lambda: 2 ** 70), ("-2**70", lambda: -2 ** 70), ("2**40", lambda: 2 ** 40),
        ("-1", lambda: -1), ("True", lambda: True), ("str", lambda: "x"),
        ("bytes", lambda: b"xy"), ("None", lambda: None), ("object", object),
        ("dict", lambda: {1: 2}), ("set", lambda: {1}),
        ("generator", lambda: (i for i in range(2))),
        ("tuple3", lambda: (1, 2, 3)), ("nested", lambda: [[1, 2], [3, 4]]),
        ("np 1-d", lambda: np.array([1, 2])), ("np 2-d", lambda: np.zeros((2, 2))),
        ("np 0-d", lambda: np.array(3)), ("np float64 scalar", lambda: np.float64(1.0)),
        ("np int64 2**40", lambda: np.int64(2 ** 40)), ("np object", lambda: np.zeros(96, object)),
        ("np float64 buffer", lambda: np.zeros(96, np.float64)),
        ("empty handle", c.dnnl_engine_t), ("wrong handle", lambda: pool.strm),
        ("exec arg", lambda: c.dnnl_exec_arg_t(c.DNNL_ARG_SRC, pool.mem)),
        ("odd pairs", lambda: [(1,), ("a", pool.mem), (1, 2, 3), {1: pool.mem}]),
    ]


# Values no argument of a status-returning function accepts (floats only
# where C takes a float; unmap ignores mapped_ptr, as oneDNN's CPU engine does).
NEVER_VALID = {"nan", "1.5", "str", "bytes", "object", "set", "np 2-d", "np object"}
FLOAT_PARAMS = {"alpha", "beta", "k", "scale", "shift", "scalar", "value"}
# Arguments a str or bytes is a valid value of.
TEXT_PARAMS = {"dir"}
NON_STATUS = ("_get_size", "_get_size_v2", "_equal", "type_size", "get_count", "query_s32",
              "_extent", "2str", "query_md", "cpu_isa_info", "cpu_isa_has", "post_ops_len",
              "post_ops_get_kind", "gemm_isa")


def failure_value(name):
    """The type a function's answer must have."""
    if name.endswith("2str") or name in ("cydnnl_md2str", "cydnnl_cpu_isa_info"):
        return str
    if name in ("dnnl_memory_desc_equal", "dnnl_memory_desc_get_size",
                "dnnl_memory_desc_get_size_v2", "dnnl_data_type_size", "dnnl_engine_get_count",
                "dnnl_primitive_desc_query_s32", "cydnnl_memory_desc_extent",
                "cydnnl_cpu_isa_has"):
        return int
    if name == "dnnl_primitive_desc_query_md":
        return (type(None), c.dnnl_memory_desc_t)
    return int        # a dnnl_status_t


def functions():
    for name in sorted(dir(c)):
        fn = getattr(c, name)
        if name.startswith(("dnnl_", "cydnnl_")) and callable(fn) and not isinstance(fn, type):
            params = list(inspect.signature(fn).parameters)
            if params:
                yield name, fn, params


def sweep():
    pool = Pool()
    problems, calls = [], 0
    for name, fn, params in functions():
        for i, param in enumerate(params):
            for label, make in odd_values(pool):
                args = [valid_value(pool, name, params, p) for p in params]
                args[i] = make()
                calls += 1
                try:
                    r = fn(*args)
                except BaseException as e:  # noqa: B902 -- the point is that nothing escapes
                    problems.append("%s(%s=%s) raised %s: %s"
                                    % (name, param, label, type(e).__name__, e))
                    continue
                if not isinstance(r, failure_value(name)) or isinstance(r, bool):
                    problems.append("%s(%s=%s) returned %r" % (name, param, label, r))
                elif name.endswith(NON_STATUS):
                    continue
                elif r == c.dnnl_success and label in NEVER_VALID and param != "mapped_ptr" \
                        and not (param in FLOAT_PARAMS and label in ("nan", "1.5")) \
                        and not (param in TEXT_PARAMS and label in ("str", "bytes")):
                    problems.append("%s(%s=%s) succeeded" % (name, param, label))
                elif r == c.dnnl_invalid_arguments and not c.cydnnl_last_error():
                    problems.append("%s(%s=%s): invalid_arguments without a message"
                                    % (name, param, label))
    return problems, calls


if __name__ == "__main__":
    found, n = sweep()
    json.dump({"calls": n, "problems": found}, sys.stdout)
