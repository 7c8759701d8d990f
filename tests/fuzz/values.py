"""Hostile argument values for the fuzzers, as Python source.

A drawn value is a literal (int, float, str, None, list, tuple) or an `Expr`,
the source of a value that is built when the rule runs (arrays, NumPy
scalars, buffers sized from a memory descriptor). `code(v, names)` gives the
source of any value, so a call can be logged as a line of a script that
replays it: `PRELUDE` is that script's header, and the helpers below (`_ro`,
`_fit`, ...) are what the source may call besides numpy and dnnl_c.
"""

import ctypes
import math
import mmap
import os

import numpy as np
from hypothesis import strategies as st

import dnnl
import dnnl_c as c
from dnnl_c._constants import ENUMS

try:
    import ml_dtypes
except ImportError:  # the bf16 buffers are then left out
    ml_dtypes = None


class Expr(str):
    """Python source of a value; evaluated in `namespace()` when used."""


TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRELUDE = ("import sys; sys.path.insert(0, %r)\n"
           "import numpy as np\nimport dnnl_c as c\nimport dnnl\n"
           "from fuzz.values import *\n" % TESTS_DIR)

# buffers are capped so that a huge descriptor cannot make the fuzzer itself
# allocate gigabytes: _fit gives at most this many bytes
FIT_CAP = 1 << 22


def _ro(a):
    """A read-only view of an array."""
    a = np.asarray(a)
    a.setflags(write=False)
    return a


def _extent(md):
    """Bytes for md (or a memory's md); 0 for anything else."""
    try:
        if type(md) is c.dnnl_memory_t:
            mem, md = md, c.dnnl_memory_desc_t()
            c.dnnl_memory_get_memory_desc(mem, md)
        n = c.cydnnl_memory_desc_extent(md)
    except Exception:  # a bogus md: the extent's own fuzzing reports it
        n = 0
    return n if isinstance(n, int) else 0


def _guarded(n, dtype, front=False):
    """A zero array of n elements between PROT_NONE pages, ending at the one
    after it (front=True: starting at the one before), so a kernel reading
    or writing past a user buffer faults as it does past the library's own
    (CYDNNL_GUARD_PAGES); a plain array where that cannot be."""
    dtype = np.dtype(dtype)
    nbytes = n * dtype.itemsize
    if dtype.hasobject or _mprotect is None:
        return np.zeros(n, dtype)
    page = mmap.PAGESIZE
    body = -(-max(nbytes, 1) // page) * page
    mm = mmap.mmap(-1, body + 2 * page)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(mm))
    for at in (addr, addr + page + body):
        if _mprotect(ctypes.c_void_p(at), ctypes.c_size_t(page), 0) != 0:
            return np.zeros(n, dtype)
    start = page if front else page + body - nbytes
    return np.frombuffer(mm, np.uint8, nbytes, start).view(dtype)


try:
    _mprotect = ctypes.CDLL(None, use_errno=True).mprotect
except (OSError, AttributeError):  # not a POSIX libc: plain arrays
    _mprotect = None


def _fit(md, dtype, delta=0, how="exact"):
    """A zero array of `dtype` holding md's extent (capped) plus `delta`
    elements; how: exact (ending at a guard page), strided (every other
    element), ro, fortran."""
    dtype = np.dtype(dtype)
    n = max(0, -(-min(_extent(md), FIT_CAP) // dtype.itemsize) + delta)
    if how == "strided":
        return np.zeros(2 * n, dtype)[::2]
    if how == "exact":
        return _guarded(n, dtype)
    a = np.zeros(n, dtype)
    if how == "ro":
        return _ro(a)
    if how == "fortran" and n % 2 == 0 and n > 0:
        return np.zeros((2, n // 2), dtype, order="F")
    return a


def _noise(md, seed):
    """Random bytes for md's extent (capped): NaNs, infinities, denormals,
    indexes out of any range; guarded after the end, or (odd seeds) before
    the start."""
    n = min(_extent(md), FIT_CAP)
    a = _guarded(n, np.uint8, front=seed % 2 == 1)
    a[:] = np.random.default_rng(seed).integers(0, 256, size=n, dtype=np.uint8)
    return a


def _arr(shape, dtype, fill=1):
    """An array of shape (a small one when shape is not a small shape)."""
    try:
        a = np.full(shape, fill, dtype)
        if a.size <= FIT_CAP:
            return a
    except (TypeError, ValueError, OverflowError, MemoryError):
        pass
    return np.full(3, fill, dtype)


def _mdims(mem):
    """A dnnl.memory's dims ([2] when it has none to give)."""
    try:
        return mem.get_desc().get_dims()
    except Exception:  # an empty or reset memory: the fuzzed calls test that
        return [2]


def _dims(md):
    """md's dims as a list ([] for anything that is not a live md)."""
    out = [None]
    try:
        if c.dnnl_memory_desc_query(md, c.dnnl_query_dims, out) != c.dnnl_success:
            return []
    except Exception:
        return []
    return list(out[0]) if isinstance(out[0], tuple) else []


def _shrunk(md, k):
    """md's dims, each k smaller (at least 0)."""
    return [max(d - k, 0) for d in _dims(md)]


def _perm(md, k):
    """The k-th rotation of md's axes, reversed when k is odd."""
    n = len(_dims(md))
    p = [(i + k) % n for i in range(n)] if n else []
    return p[::-1] if k % 2 else p


def _split(md):
    """A reshape of md: all dims multiplied into one, split in two when even."""
    total = math.prod(_dims(md)) if _dims(md) else 1
    return [2, total // 2] if total % 2 == 0 and total > 1 else [total]


HELPERS = ["ml_dtypes", "_ro", "_fit", "_noise", "_arr", "_mdims", "_dims", "_shrunk", "_perm",
           "_split"]
__all__ = HELPERS     # what the replay script imports


def namespace():
    """Where Expr source is evaluated (and the log replays)."""
    ns = {"np": np, "c": c, "dnnl": dnnl}
    ns.update((k, globals()[k]) for k in HELPERS)
    return ns


def code(v, names):
    """Source for a value: an Expr as it is, a named object by its name
    (names: id -> name), literals and containers recursively."""
    if isinstance(v, Expr):
        return str(v)
    name = names.get(id(v))
    if name is not None:
        return name
    if isinstance(v, float):
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('%sinf')" % ("-" if v < 0 else "")
        return repr(v)
    if isinstance(v, list):
        return "[%s]" % ", ".join(code(x, names) for x in v)
    if isinstance(v, dict):
        return "{%s}" % ", ".join("%s: %s" % (code(k, names), code(x, names))
                                  for k, x in v.items())
    if isinstance(v, tuple):
        return "(%s%s)" % (", ".join(code(x, names) for x in v), "," if len(v) == 1 else "")
    if v is c.DNNL_MEMORY_ALLOCATE:
        return "c.DNNL_MEMORY_ALLOCATE"
    if isinstance(v, bool):
        return repr(v)
    if isinstance(v, int):
        return repr(int(v))     # an IntEnum's repr is not source
    if v is None or isinstance(v, (str, bytes, complex)):
        return repr(v)
    return "<%s>" % type(v).__name__  # not replayable; says what it was


def build(v, ns):
    """The value a drawn literal or Expr stands for."""
    if isinstance(v, Expr):
        try:
            return eval(v, ns)  # noqa: S307 - source the fuzzer generated itself
        except SyntaxError:
            raise AssertionError("fuzzer bug: bad source %r" % str(v)) from None
    if isinstance(v, list):
        return [build(x, ns) for x in v]
    if isinstance(v, tuple):
        return tuple(build(x, ns) for x in v)
    if isinstance(v, dict):
        return {build(k, ns): build(x, ns) for k, x in v.items()}
    return v


# ------------------------------------------------------------ numbers

INT_EDGES = [0, 1, 2, 3, 7, 16, -1, -2, 2**31 - 1, 2**31, 2**31 + 1, -2**31, -2**31 - 1,
             2**32, 2**32 + 1, 2**62, 2**63 - 1, -2**63, 2**63, 2**64, 2**64 + 1,
             10**30, -10**30, c.DNNL_RUNTIME_DIM_VAL]

JUNK = [None, 1.5, -0.0, float("nan"), float("inf"), float("-inf"), 1e300, "3", "", b"\x01",
        True, [], (), Expr("{}"), Expr("object()"), Expr("np.int64(3)"),
        Expr("np.int32(-1)"), Expr("np.uint64(2**64 - 1)"), Expr("np.float64('nan')"),
        Expr("np.float32(2.5)"), Expr("np.array(3)"), Expr("np.array([1, 2])"),
        Expr("np.bool_(True)"), Expr("complex(1, 1)"), Expr("c.DNNL_MEMORY_ALLOCATE")]

hostile_int = st.one_of(st.integers(-3, 16), st.sampled_from(INT_EDGES))
junk = st.sampled_from(JUNK)
floats = st.one_of(st.floats(-4, 4, width=32), st.sampled_from(
    [0.0, 1.0, -1.0, 1e-45, 3.4e38, 1e39, float("nan"), float("inf"), float("-inf"), 2**64]),
    st.integers(-3, 3))


def pick(*alternatives):
    """One of the alternatives, each a strategy or (weight, strategy). (st.one_of
    does not weigh: repeating a branch there does not make it likelier.)"""
    pairs = [a if isinstance(a, tuple) else (1, a) for a in alternatives]
    index = [i for i, (w, _) in enumerate(pairs) for _ in range(w)]
    return st.sampled_from(index).flatmap(lambda i: pairs[i][1])


def favour(good, bad, times=3):
    """good drawn `times` as often as bad."""
    return pick((times, good), bad)


def int_arg(good=None):
    """Mostly `good` (default small ints), sometimes a hostile int or junk."""
    good = st.integers(0, 8) if good is None else good
    return favour(good, st.one_of(hostile_int, junk))


def enum_values(ctype):
    return sorted(set(ENUMS[ctype].values()))


def enum_arg(ctype, favoured=()):
    """A value of the C enum (the favoured ones most), else hostile."""
    good = st.sampled_from(enum_values(ctype))
    if favoured:
        good = st.one_of(st.sampled_from(list(favoured)), good)
    return int_arg(good)


def float_arg():
    return favour(floats, junk)


# ------------------------------------------------------------ dims


small_dim = st.integers(1, 6)
dim_value = pick((3, small_dim), st.integers(0, 17), hostile_int, junk)


def container(items):
    """A list of items, sometimes another sequence type, or not a sequence."""
    as_other = items.map(lambda xs: Expr("np.array(%s, dtype=np.int64)" % (
        [x if type(x) is int and -2**63 <= x < 2**63 else 0 for x in xs],)))
    return pick((4, items), items.map(tuple), as_other, st.sampled_from(
        [None, 3, "ab", Expr("iter([1, 2])"), Expr("{0: 1}"), Expr("np.array([1.5, 2.5])"),
         Expr("np.array([2, 3], dtype=np.uint64)"), Expr("np.array([[1, 2]])"),
         Expr("range(2)")]))


def dims_of_len(n):
    return container(st.lists(dim_value, min_size=n, max_size=n))


@st.composite
def ndims_and_dims(draw, max_nd=6):
    """(ndims, dims): a consistent pair mostly; else each hostile."""
    nd = draw(int_arg(st.integers(0, max_nd)))
    n = nd if isinstance(nd, int) and 0 <= nd <= 13 else draw(st.integers(0, 6))
    if draw(st.integers(0, 9)) == 0:
        n = draw(st.integers(0, 13))
    return nd, draw(dims_of_len(n))


any_dims = st.integers(0, 6).flatmap(dims_of_len)


def spatial(n_strategy=st.integers(0, 4), value=None):
    """A per-spatial-dim argument (strides, padding, ...), or None."""
    value = st.integers(-1, 3) if value is None else value
    item = pick((3, value), hostile_int, junk)
    return st.one_of(n_strategy.flatmap(
        lambda n: container(st.lists(item, min_size=n, max_size=n))), st.none())


# ------------------------------------------------------------ enums and tags

TAG_VALUES = ENUMS["dnnl_format_tag_t"]
DATA_TYPES = enum_values("dnnl_data_type_t")
COMMON_DTS = [c.dnnl_f32, c.dnnl_f32, c.dnnl_bf16, c.dnnl_s8, c.dnnl_u8, c.dnnl_s32,
              c.dnnl_f16]


def tags_for(nd):
    """Format tags for nd dims: plain, channels last, blocked, any."""
    letters = "abcdef"[:nd]
    names = [letters]
    if nd >= 3:
        names.append("a" + letters[2:] + "b")
        rest = letters[2:]
        names += ["aB%s8b" % rest, "aB%s16b" % rest, "AB%s16a16b" % rest, "Ab%s8a" % letters[1:]]
    elif nd == 2:
        names += ["ba", "Ab16a", "aB8b", "AB16b16a"]
    out = [TAG_VALUES["dnnl_" + n] for n in names if "dnnl_" + n in TAG_VALUES]
    return out + [c.dnnl_format_tag_any]


ALL_TAGS = sorted(set(TAG_VALUES.values()))
tag_arg = int_arg(st.one_of(st.integers(0, 6).map(tags_for).flatmap(st.sampled_from),
                            st.sampled_from(ALL_TAGS)))
dt_arg = int_arg(st.one_of(st.sampled_from(COMMON_DTS), st.sampled_from(DATA_TYPES)))

ARG_IDS = [c.DNNL_ARG_SRC, c.DNNL_ARG_DST, c.DNNL_ARG_WEIGHTS, c.DNNL_ARG_BIAS,
           c.DNNL_ARG_DIFF_SRC, c.DNNL_ARG_DIFF_DST, c.DNNL_ARG_DIFF_WEIGHTS,
           c.DNNL_ARG_DIFF_BIAS, c.DNNL_ARG_WORKSPACE, c.DNNL_ARG_SCRATCHPAD,
           c.DNNL_ARG_FROM, c.DNNL_ARG_TO]
arg_id = int_arg(st.sampled_from(ARG_IDS + [c.DNNL_ARG_UNDEF, c.DNNL_ARG_SRC_1,
                                            c.DNNL_ARG_ATTR_SCALES, 0x7fffffff]))
query_arg = enum_arg("dnnl_query_t")

# ------------------------------------------------------------ outputs and buffers

OUT_LISTS = ["[None]"] * 6 + ["[]", "[None, None]", "(None,)", "None", "{}", "np.zeros(1)",
                              "np.zeros(0)", "'x'", "bytearray(1)", "[0]", "3"]
out_list = st.sampled_from(OUT_LISTS).map(Expr)

NP_DTYPES = ["np.float32", "np.float64", "np.float16", "np.int8", "np.int32", "np.int64",
             "np.uint8", "np.uint16", "np.bool_", "object", "np.complex64"]
if ml_dtypes is not None:
    NP_DTYPES.append("ml_dtypes.bfloat16")
np_dtype = st.sampled_from(NP_DTYPES)


@st.composite
def free_buffer(draw):
    """A buffer unrelated to any descriptor: any dtype, size and kind."""
    dt = draw(np_dtype)
    n = draw(st.sampled_from([0, 1, 2, 3, 24, 120, 4096]))
    kind = draw(st.sampled_from(["plain", "plain", "strided", "ro", "2d", "bytearray",
                                 "bytes", "memoryview", "scalar"]))
    src = {"plain": "np.zeros(%d, %s)" % (n, dt),
           "strided": "np.zeros(%d, %s)[::2]" % (2 * n, dt),
           "ro": "_ro(np.zeros(%d, %s))" % (n, dt),
           "2d": "np.zeros((%d, 3), %s)[:, :2]" % (n, dt),
           "bytearray": "bytearray(%d)" % (n * 4),
           "bytes": "bytes(%d)" % (n * 4),
           "memoryview": "memoryview(bytearray(%d))" % (n * 4),
           "scalar": "np.float32(1)"}[kind]
    return Expr(src)


class Fit:
    """A buffer sized for an md the rule knows: `_fit(md, dtype, delta, how)`."""

    def __init__(self, dtype, delta, how):
        self.dtype, self.delta, self.how = dtype, delta, how

    def expr(self, md_name):
        return Expr("_fit(%s, %s, %d, %r)" % (md_name, self.dtype, self.delta, self.how))


fit_buffer = st.builds(Fit, st.one_of(st.just("np.float32"), np_dtype),
                       st.sampled_from([0, 0, 0, 1, -1, -2, 64]),
                       st.sampled_from(["exact", "exact", "exact", "strided", "ro", "fortran"]))

# a memory's data handle: allocate, none, a buffer fitted to the md, any buffer, junk
data_handle_arg = pick((2, st.just(Expr("c.DNNL_MEMORY_ALLOCATE"))), st.none(), (2, fit_buffer),
                       free_buffer(), hostile_int, junk)
