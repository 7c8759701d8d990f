"""What benchdnn's drivers share about data types, directions and format
tags (oneDNN's tests/benchdnn/dnn_types.cpp and knobs_dt/dir/tag.md): their
names on the command line, the library values they stand for, rounding a
reference value to a data type, and memory descriptors from a tag or
strides."""

import re

import numpy as np

import dnnl

from dnnl.benchdnn.ref_rnn import round_bf16

# ------------------------------------------------------------ data types

DT_NAMES = ("undef", "f32", "bf16", "f16", "s8", "u8", "s32", "f64", "s4", "u4",
            "f8_e5m2", "f8_e4m3", "e8m0", "f4_e2m1", "f4_e3m0", "s64")


def str2dt(name):
    if name not in DT_NAMES or not hasattr(dnnl.memory.data_type, name):
        raise ValueError("unknown data type '%s'" % name)
    return name


# The data types every primitive of cydnnl computes in; a library answer of
# `unimplemented` for a problem in only these is a failure, not a gap.
COMPUTE_DTS = ("f32", "bf16")


def dnnl_dt(name):
    return dnnl.memory.data_type.undef if name == "undef" else getattr(dnnl.memory.data_type,
                                                                       name)


def digits(dt):
    """Mantissa digits (with the implicit one), as std::numeric_limits."""
    return {"f32": 24, "bf16": 8, "f16": 11, "f64": 53, "s32": 31, "s8": 7, "u8": 8,
            "f8_e5m2": 3, "f8_e4m3": 4}.get(dt, 24)


def epsilon(dt):
    """std::numeric_limits<T>::epsilon() of the type (0 for integers, whose
    results must be exact)."""
    if dt in ("s8", "u8", "s32"):
        return 0.0
    return 2.0 ** (1 - digits(dt))


def lowest(dt):
    """std::numeric_limits<T>::lowest() of the type."""
    if dt in INT_RANGE:
        return float(INT_RANGE[dt][0])
    return {"bf16": -(2 - 2.0 ** -7) * 2.0 ** 127, "f16": -65504.0,
            "f64": -float(np.finfo(np.float64).max)}.get(dt, -float(np.finfo(np.float32).max))


INT_RANGE = {"s8": (-128, 127), "u8": (0, 255), "s32": (-2 ** 31, 2 ** 31 - 1)}


def round_to(values, dt):
    """A float64 array of `values` as the data type stores them: f32 and f16
    to nearest, bf16 to nearest even (subnormals flushed, as oneDNN does),
    integers rounded half to even and saturated."""
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        return _round_to(v, dt)


def _round_to(v, dt):
    if dt == "f32":
        return v.astype(np.float32).astype(np.float64)
    if dt == "bf16":
        return round_bf16(v)
    if dt == "f16":
        return v.astype(np.float16).astype(np.float64)
    if dt in INT_RANGE:
        lo, hi = INT_RANGE[dt]
        return np.clip(np.nan_to_num(np.rint(v), nan=0.0, posinf=hi, neginf=lo), lo, hi)
    return v


# ------------------------------------------------------------ directions

DIRS = {
    "FWD_B": ("forward_training", True), "FWD_D": ("forward_training", False),
    "FWD_I": ("forward_inference", False), "BWD_D": ("backward_data", False),
    "BWD_W": ("backward_weights", False), "BWD_WB": ("backward_weights", True),
    "BWD_DW": ("backward", False),
}


def str2dir(name, allowed):
    name = name.upper()
    if name not in allowed:
        raise ValueError("unknown or unsupported direction '%s' (this driver takes %s)"
                         % (name, ", ".join(allowed)))
    return name


def is_fwd(direction):
    return direction.startswith("FWD")


def prop_kind(direction):
    return getattr(dnnl.prop_kind, DIRS[direction][0])


# ------------------------------------------------------------ format tags

def normalize_tag(tag, ndims):
    """benchdnn's meta-tags (abx, axb, aBx16b, ...: `x` stands for the
    spatial letters) made concrete for `ndims` dims; other tags as given
    (named aliases such as nchw stay as they are)."""
    if tag in ("any", "undef") or ndims == 0:
        return tag
    if tag == "x":
        return "a"
    if "x" not in tag:
        return tag
    # Non-grouped tags start `x` at `c`; grouped weights (abxc, ...) later.
    letters = [ch for ch in tag.lower() if ch.isalpha() and ch != "x"]
    start = max([ord("b")] + [ord(ch) for ch in letters]) + 1
    tail = "".join(chr(start + i) for i in range(max(0, ndims - (start - ord("a")))))
    full = tag.replace("x", tail, 1)
    return _trim(full, ndims)


def _trim(tag, ndims):
    """Drops the letters (and their blocks) of dims past ndims."""
    out = []
    i = 0
    while i < len(tag):
        m = re.match(r"(\d*)([a-zA-Z])", tag[i:])
        if not m:
            break
        block, letter = m.group(1), m.group(2)
        if ord(letter.lower()) - ord("a") < ndims:
            out.append(block + letter)
        i += len(m.group(0))
    return "".join(out)


def tag_letters(tag):
    """The dims a concrete tag spans (its highest letter), or None."""
    letters = [ch.lower() for ch in tag if ch.isalpha()]
    return ord(max(letters)) - ord("a") + 1 if letters else None


def _plain_strides(tag, dims):
    """Dense strides of a plain (lower-case, no blocks) permutation tag."""
    order = [ord(ch) - ord("a") for ch in tag]
    strides = [0] * len(dims)
    s = 1
    for d in reversed(order):
        strides[d] = s
        s *= max(dims[d], 1)
    return strides


def md(dims, dt, tag="any", strides=None):
    """A dnnl.memory.desc from a benchdnn tag (meta, named, or any plain
    permutation such as acdb, with --allow-enum-tags-only=false) or from
    strides; None for the `undef` tag (no descriptor: an absent tensor)."""
    dims = list(dims)
    if strides:
        return dnnl.memory.desc(dims, dnnl_dt(dt), list(strides))
    tag = normalize_tag(tag, len(dims))
    if tag == "undef":
        return None
    enum = getattr(dnnl.memory.format_tag, tag, None)
    if enum is not None:
        return dnnl.memory.desc(dims, dnnl_dt(dt), enum)
    if re.fullmatch(r"[a-l]+", tag) and sorted(tag) == [chr(97 + i) for i in range(len(dims))]:
        return dnnl.memory.desc(dims, dnnl_dt(dt), _plain_strides(tag, dims))
    raise TagError("format tag %s has no dnnl_format_tag_t value (the library makes "
                   "descriptors from those and from strides only)" % tag)


class TagError(ValueError):
    """A tag the public API cannot express for these dims."""


def check_tag(tag, enum_only):
    """Raises ValueError for a tag benchdnn would refuse at parse time."""
    if tag in ("any", "undef") or "x" in tag:
        return tag
    if not re.fullmatch(r"(\d*[a-lA-L])+", tag) and not hasattr(dnnl.memory.format_tag, tag):
        raise ValueError("'%s' is not a format tag" % tag)
    if enum_only and not hasattr(dnnl.memory.format_tag, tag):
        raise ValueError("format tag '%s' is not in dnnl_format_tag_t "
                         "(--allow-enum-tags-only=false accepts it)" % tag)
    return tag


def parse_strides(text, n):
    """--strides=SRC[:WEI]:DST, each NxNx... or empty: a list of n lists
    (`--strides=` alone is all empty, as `--strides=:`)."""
    parts = text.split(":") if text else [""] * n
    if len(parts) != n:
        raise ValueError("--strides takes %d colon-separated entries, got '%s'" % (n, text))
    return [[int(v) for v in p.split("x")] if p else [] for p in parts]
