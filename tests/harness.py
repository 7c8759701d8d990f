"""A shared harness for primitive tests: a family's correctness tests are a
table of cases plus a float64 NumPy reference; its bad-input tests come
generically.

Only the public APIs are used: `dnnl_c` (oneDNN's C API) and `dnnl` (the
object layer). Data go in and out of whatever layout a primitive descriptor
reports through an independent NumPy model of oneDNN's blocked layouts built
from the descriptor's queries (dims, padded dims, strides, inner blocks;
`Layout`), so no reorder of the library is trusted.

A family's test module, in short::

    import harness as H
    from harness import ATTR, ENGINE, HINT, Md

    def ref_fwd(case, src):                    # float64 in, float64 out
        return {"dst": np.where(src > 0, src, case.alpha * src)}

    FWD = H.Op("eltwise_forward", c.dnnl_eltwise_forward_primitive_desc_create,
               args=lambda case: [
                   ("engine", ENGINE), ("prop_kind", c.dnnl_forward_training),
                   ("alg_kind", c.dnnl_eltwise_relu), ("src_desc", Md("src")),
                   ("dst_desc", Md("dst")), ("alpha", case.alpha), ("beta", 0.0),
                   ("attr", ATTR)],
               inputs={"src": c.DNNL_ARG_SRC}, outputs={"dst": c.DNNL_ARG_DST},
               reference=ref_fwd, concrete=("src",),
               obj_pd=dnnl.eltwise_forward.primitive_desc, obj_prim=dnnl.eltwise_forward)

    CASES = H.product(alpha=[0.0, 0.2], dt=["f32", "bf16"],
                      layout=["plain", "cl", "b8", "b16", "any", "b16:any"],
                      shape=[[2, 11, 3, 5], [1, 3, 7, 2], [3, 5]])

    @pytest.mark.parametrize("case", CASES, ids=H.case_id)
    def test_forward(case):
        H.run(FWD, case)                       # or H.run(FWD, case, "both")

    @pytest.mark.parametrize("op,case,name", H.bad_input_params([(FWD, CASES[0])]))
    def test_bad_input(op, case, name):
        H.check_bad_input(op, case, name)

`Op(name, c_create, args, inputs, outputs, reference, ...)` describes one
primitive (one direction). `args(case)` lists the creation arguments after
the output handle, in C's order (the object layer takes the same order):
`ENGINE`, `ATTR`, `HINT` (the descriptor of `Op.hint`, built for the same
case) and `Md(tensor)` stand for handles the harness makes; anything else is
passed as it is. `inputs` / `outputs` map tensors to DNNL_ARG_*. See `Op` for
`dims`, `generate`, `tol`, `concrete`, `bad_status`.

A case is a dict (`Case`; `product(**axes)` makes a table, `unique(...)`
joins tables): `shape` (or `Op.dims(case)` giving each tensor's dims), `dt`
("f32", "bf16", ..., or {tensor: dt}), `layout`, and the family's own keys.
Layouts: "plain" (abcd), "cl" (channels last: acdb), "b8"/"b16" (aBcd8b),
"any", or a oneDNN tag name ("nChw8c", "cn", "ABcd8b8a"); "A:B" gives the
`concrete` tensors (those a primitive cannot take as `any`, e.g. a forward
src) layout A and the others B, and plain "any" means "plain:any"; a dict
maps tensors to layouts ("*" for the rest). Rows whose layout has no tag of
their rank are dropped from tables.

`run(op, case, api="c"|"obj"|"both")` creates the primitive descriptor,
walks every implementation (`dnnl_primitive_desc_next_impl` until
`dnnl_last_impl_reached`; `next_impl()` in the object layer), and for each
one creates the primitive, fills the inputs (random, bf16 rounded to nearest
even) in the queried layouts with zero padding, fills the outputs with NaN,
executes, reads the outputs back and compares them with the reference
(tolerance per data type; integers exactly), and checks that dense blocked
outputs zeroed their padding. Failures name the case, the API and the
implementation (impl_info_str). Returns the implementation names.
`run(..., alloc=f)` puts every user buffer in `f(nbytes, dtype)` instead
(tests/guard.py's `guarded`, to fault on accesses out of bounds), the
scratchpad too: the primitive takes a user scratchpad (attr) of exactly the
size its descriptor reports, filled with garbage.

`bad_input_names(op, case)` lists the generic bad-input cases of an op
(NULL, destroyed, wrongly typed and zero memory descriptors, mismatched dims
and ranks, s8 and f16 data, NULL and wrongly typed engine, output handle,
attr and hint, a hint of another primitive kind, execute with a missing,
wrongly typed or destroyed argument or no stream; through dnnl_c and through
dnnl); `check_bad_input(op, case, name)` runs one: dnnl_c must return the
expected status and say why, dnnl must raise dnnl.error with it.
`bad_input_params` makes the pytest parameters, with strict xfails for
known gaps.
"""

import itertools
import zlib

import numpy as np
import pytest

import dnnl
import dnnl_c as c
from helpers import bf16_bits, bf16_to_f32

OK, INVALID, UNIMPL = c.dnnl_success, c.dnnl_invalid_arguments, c.dnnl_unimplemented

# ------------------------------------------------------------ data types

DT = {"f32": c.dnnl_f32, "bf16": c.dnnl_bf16, "f16": c.dnnl_f16, "s32": c.dnnl_s32,
      "s8": c.dnnl_s8, "u8": c.dnnl_u8}
STORAGE = {c.dnnl_f32: np.float32, c.dnnl_bf16: np.uint16, c.dnnl_s32: np.int32,
           c.dnnl_s8: np.int8, c.dnnl_u8: np.uint8}
INTEGER = (c.dnnl_s32, c.dnnl_s8, c.dnnl_u8)

# Tolerances (rtol, atol) against the float64 reference. bf16: the value
# computed in f32 and rounded once to nearest even is within half a bf16 ulp
# (2^-8 relative) of the exact result, plus the f32 computation's error.
F32_TOL = (1e-5, 1e-6)
BF16_TOL = (2.0 ** -8 * 1.001 + 1e-5, 1e-6)


def dt_of(name):
    return DT[name] if isinstance(name, str) else int(name)


def round_to(values, data_type):
    """Values as a primitive of data_type sees them (bf16: nearest even)."""
    values = np.asarray(values, np.float64)
    if data_type == c.dnnl_bf16:
        return bf16_to_f32(bf16_bits(values.astype(np.float32))).astype(np.float64)
    if data_type == c.dnnl_f32:
        return values.astype(np.float32).astype(np.float64)
    return np.rint(values)


# ------------------------------------------------------------ layouts

def _kind_tag(kind, ndims):
    letters = "abcdefghijkl"[:ndims]
    if kind == "plain":
        return letters
    if ndims < 3:
        return None
    if kind == "cl":
        return "a" + letters[2:] + "b"
    if kind in ("b8", "b16"):
        return "aB" + letters[2:] + kind[1:] + "b"
    return None


def tag_of(layout, ndims):
    """The dnnl_format_tag_t of a layout name for ndims dims, or None when
    the layout has no tag of that rank."""
    if layout == "any":
        return c.dnnl_format_tag_any
    name = _kind_tag(layout, ndims) if layout in ("plain", "cl", "b8", "b16") else layout
    if name is None:
        return None
    tag = getattr(c, "dnnl_" + name, None)
    if tag is None:
        raise ValueError("unknown layout %r" % layout)
    abstract = c.dnnl_fmt_tag2str(tag)
    if len({ch.lower() for ch in abstract if ch.isalpha()}) != ndims:
        return None
    return tag


def layout_exists(layout, ndims):
    parts = layout.split(":") if isinstance(layout, str) else list(layout.values())
    return all(tag_of(p, ndims) is not None for p in parts)


def _query(md, what):
    out = [None]
    st = c.dnnl_memory_desc_query(md, what, out)
    assert st == OK, "memory_desc_query(%s): %s" % (c.dnnl_query2str(what),
                                                    c.dnnl_status2str(st))
    return out[0]


class Layout:
    """Where each logical element of a memory descriptor lives in its buffer,
    computed with NumPy from the descriptor's public fields (oneDNN's
    blocked model: outer strides over padded dims plus inner blocks)."""

    def __init__(self, md):
        self.md = md
        self.size = c.dnnl_memory_desc_get_size(md)
        self.ndims = _query(md, c.dnnl_query_ndims_s32)
        self.dt = _query(md, c.dnnl_query_data_type) if self.ndims else c.dnnl_data_type_undef
        if not self.size:
            return
        assert _query(md, c.dnnl_query_format_kind) == c.dnnl_blocked, c.cydnnl_md2str(md)
        self.dims = list(_query(md, c.dnnl_query_dims))
        self.padded = list(_query(md, c.dnnl_query_padded_dims))
        poff = _query(md, c.dnnl_query_padded_offsets)
        strides = _query(md, c.dnnl_query_strides)
        nblks = _query(md, c.dnnl_query_inner_nblks_s32)
        blks = list(_query(md, c.dnnl_query_inner_blks)) if nblks else []
        idxs = list(_query(md, c.dnnl_query_inner_idxs)) if nblks else []
        self.storage = np.dtype(STORAGE[self.dt])
        self.nelems = self.size // self.storage.itemsize
        inner_stride = [int(np.prod(blks[k + 1:])) for k in range(len(blks))]
        offsets = np.full([1] * self.ndims, _query(md, c.dnnl_query_submemory_offset_s64),
                          np.int64)
        for d in range(self.ndims):
            pos = np.arange(self.dims[d], dtype=np.int64) + poff[d]
            mine = [k for k in range(len(blks)) if idxs[k] == d]
            block = int(np.prod([blks[k] for k in mine]))
            off = pos // block * strides[d]
            rem = pos % block
            for j, k in enumerate(mine):      # outermost block first
                below = int(np.prod([blks[m] for m in mine[j + 1:]]))
                off = off + (rem // below) % blks[k] * inner_stride[k]
            shape = [1] * self.ndims
            shape[d] = self.dims[d]
            offsets = offsets + off.reshape(shape)
        self.offsets = offsets
        flat = offsets.reshape(-1)
        assert flat.size == 0 or (flat.min() >= 0 and flat.max() < self.nelems), \
            "layout model out of the buffer: %s" % c.cydnnl_md2str(md)
        self.dense = int(np.prod(self.padded)) == self.nelems
        self.padding = np.ones(self.nelems, bool)
        self.padding[flat] = False

    def empty(self):
        return not self.size

    def encode(self, values):
        """Logical values to their storage words (bf16: nearest even)."""
        if self.dt == c.dnnl_bf16:
            return bf16_bits(np.asarray(values, np.float32))
        return np.asarray(values).astype(self.storage)

    def decode(self, words):
        if self.dt == c.dnnl_bf16:
            return bf16_to_f32(words).astype(np.float64)
        return np.asarray(words).astype(np.float64)

    def pack(self, values):
        """A new buffer holding values (logical dims), zeros elsewhere."""
        buf = np.zeros(self.nelems, self.storage)
        buf[self.offsets] = self.encode(values)
        return buf

    def garbage(self):
        """A buffer of NaN (or 0xAB bytes for integers): what an output must
        overwrite."""
        if self.dt == c.dnnl_f32:
            return np.full(self.nelems, np.nan, np.float32)
        if self.dt == c.dnnl_bf16:
            return np.full(self.nelems, 0x7FC0, np.uint16)
        return np.full(self.size, 0xAB, np.uint8).view(self.storage)

    def unpack(self, buf):
        return self.decode(buf[self.offsets])


# ------------------------------------------------------------ cases

class Case(dict):
    """One row of a test table: a dict with attribute access and an id."""

    def __init__(self, *args, id=None, **kw):
        super().__init__(*args, **kw)
        self._id = id

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def id(self):
        return self._id or "-".join(
            ("%s%s" % (k, v)) if isinstance(v, (int, float)) and not isinstance(v, bool)
            else _fmt(v) for k, v in self.items())

    def __str__(self):
        return self.id

    def __repr__(self):
        return "Case(%s)" % self.id

    def replace(self, **kw):
        d = Case(self, id=None)
        d.update(kw)
        return d


def _fmt(v):
    if isinstance(v, (list, tuple)):
        return "x".join(_fmt(x) for x in v)
    if isinstance(v, dict):
        return ",".join("%s=%s" % (k, _fmt(x)) for k, x in v.items())
    return getattr(v, "name", None) or str(v)


def product(filter=None, **axes):
    """The table of every combination of the axes (keyword order is the id
    order); `filter(case)` drops rows. Rows whose layout does not exist for
    their shape's rank are dropped."""
    names = list(axes)
    rows = []
    for values in itertools.product(*axes.values()):
        case = Case(zip(names, values))
        if "layout" in case and "shape" in case and \
                not layout_exists(case["layout"], len(case["shape"])):
            continue
        if filter is None or filter(case):
            rows.append(case)
    return rows


def unique(*tables):
    """Tables joined, rows with the same id kept once."""
    seen, rows = set(), []
    for table in tables:
        for case in table:
            if case.id not in seen:
                seen.add(case.id)
                rows.append(case)
    return rows


def case_id(case):
    return case.id


def prop_kind(case):
    """The case's "prop" ("forward_training" unless given) as a dnnl_prop_kind_t."""
    return getattr(c, "dnnl_" + case.get("prop", "forward_training"))


# ------------------------------------------------------------ describing primitives

class _Sentinel:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


ENGINE, ATTR, HINT = _Sentinel("ENGINE"), _Sentinel("ATTR"), _Sentinel("HINT")


class Md:
    """A memory-descriptor argument: tensor's dims, data type and layout."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __repr__(self):
        return "Md(%s)" % self.tensor


class Op:
    """One primitive (one propagation direction) of a family.

    name: for messages. c_create: the dnnl_c *_primitive_desc_create.
    args(case): [(name, value)] after the output handle (see module doc).
    inputs / outputs: {tensor: DNNL_ARG_*} for execute.
    reference(case, **inputs) -> {output tensor: float64 array}; inputs are
      float64 arrays as the primitive sees them (bf16 rounded).
    obj_pd / obj_prim: the object layer's primitive_desc class and primitive.
    hint: the forward Op whose descriptor is passed for HINT.
    dims(case) -> {tensor: dims} (default: case["shape"] for every tensor).
    generate(case, rng) -> {input tensor: array} (default uniform(-1, 1)).
    tol: {"f32": (rtol, atol), "bf16": (rtol, atol)}; a case's "tol" key
      (same form) overrides it.
    concrete: tensors that stay concrete in an "A:any" layout.
    bad_status: {bad-input name: expected status, or None to skip}.
    mismatch_dim: which dim the "dims" bad-input case changes.
    """

    def __init__(self, name, c_create, args, inputs, outputs, reference, obj_pd=None,
                 obj_prim=None, hint=None, dims=None, generate=None, tol=None, concrete=(),
                 bad_status=None, mismatch_dim=1, check_padding=True):
        self.name, self.c_create, self.args = name, c_create, args
        self.inputs, self.outputs, self.reference = dict(inputs), dict(outputs), reference
        self.obj_pd, self.obj_prim, self.hint = obj_pd, obj_prim, hint
        self.dims, self.generate = dims, generate
        self.tol = {"f32": F32_TOL, "bf16": BF16_TOL}
        self.tol.update(tol or {})
        self.concrete = tuple(concrete)
        self.bad_status = dict(bad_status or {})
        self.mismatch_dim = mismatch_dim
        self.check_padding = check_padding

    def __repr__(self):
        return self.name

    # the case's view per tensor

    def tensor_dims(self, case, tensor):
        if self.dims is not None:
            return list(self.dims(case)[tensor])
        return list(case["shape"])

    def tensor_dt(self, case, tensor):
        dts = case.get("dt", "f32")
        if isinstance(dts, dict):
            dts = dts.get(tensor, dts.get("*", "f32"))
        return dt_of(dts)

    def tensor_layout(self, case, tensor):
        layout = case.get("layout", "plain")
        if isinstance(layout, dict):
            return layout.get(tensor, layout.get("*", "plain"))
        if layout == "any":
            layout = "plain:any"
        if ":" in layout:
            concrete, other = layout.split(":")
            return concrete if tensor in self.concrete else other
        return layout

    def tensor_tag(self, case, tensor):
        dims = self.tensor_dims(case, tensor)
        tag = tag_of(self.tensor_layout(case, tensor), len(dims))
        assert tag is not None, "%s: no %s layout for %d dims" % (
            case.id, self.tensor_layout(case, tensor), len(dims))
        return tag


# ------------------------------------------------------------ engines

class _Engines:
    c_eng = c_strm = o_eng = o_strm = None


def engines():
    """(dnnl_c engine, dnnl_c stream, dnnl.engine, dnnl.stream), made once."""
    e = _Engines
    if e.c_eng is None:
        e.c_eng, e.c_strm = c.dnnl_engine_t(), c.dnnl_stream_t()
        _check(c.dnnl_engine_create(e.c_eng, c.dnnl_cpu, 0), "engine_create")
        _check(c.dnnl_stream_create(e.c_strm, e.c_eng, c.dnnl_stream_default_flags),
               "stream_create")
        e.o_eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        e.o_strm = dnnl.stream(e.o_eng)
    return e.c_eng, e.c_strm, e.o_eng, e.o_strm


def _check(status, what):
    assert status == OK, "%s: %s (%s)" % (what, c.dnnl_status2str(status),
                                          c.cydnnl_last_error())


class _Handles:
    """dnnl_c handles made for one run, destroyed at its end."""

    def __init__(self):
        self.items = []

    def add(self, handle, destroy):
        self.items.append((handle, destroy))
        return handle

    def md(self, dims, data_type, tag):
        md = c.dnnl_memory_desc_t()
        _check(c.dnnl_memory_desc_create_with_tag(md, len(dims), dims, data_type, tag),
               "memory_desc_create_with_tag(%s, %s, %s)" % (
                   dims, c.dnnl_dt2str(data_type), c.dnnl_fmt_tag2str(tag)))
        return self.add(md, c.dnnl_memory_desc_destroy)

    def close(self):
        for handle, destroy in reversed(self.items):
            destroy(handle)
        self.items = []


# ------------------------------------------------------------ creating descriptors

def _md_specs(op, case):
    """{tensor: (dims, data type, tag)} of the op's descriptor arguments."""
    specs = {}
    for _, value in op.args(case):
        if isinstance(value, Md):
            t = value.tensor
            specs[t] = (op.tensor_dims(case, t), op.tensor_dt(case, t), op.tensor_tag(case, t))
    return specs


def _c_values(op, case, handles, overrides=None):
    """The C creation arguments (after the output handle) and their names."""
    eng = engines()[0]
    names, values = [], []
    for name, value in op.args(case):
        if overrides and name in overrides:
            value = overrides[name]
        elif value is ENGINE:
            value = eng
        elif value is ATTR:
            value = None
        elif value is HINT:
            value = _c_pd(op.hint, case, handles)
        elif isinstance(value, Md):
            dims, data_type, tag = _md_specs(op, case)[value.tensor]
            value = handles.md(dims, data_type, tag)
        names.append(name)
        values.append(value)
    return names, values


def _c_pd(op, case, handles, overrides=None):
    _, values = _c_values(op, case, handles, overrides)
    pd = handles.add(c.dnnl_primitive_desc_t(), c.dnnl_primitive_desc_destroy)
    _check(op.c_create(pd, *values), "%s[%s] primitive_desc_create" % (op.name, case.id))
    return pd


def _obj_values(op, case, overrides=None):
    o_eng = engines()[2]
    names, values = [], []
    for name, value in op.args(case):
        if overrides and name in overrides:
            value = overrides[name]
        elif value is ENGINE:
            value = o_eng
        elif value is ATTR:
            continue                         # C++'s default attr
        elif value is HINT:
            value = _obj_pd(op.hint, case)
        elif isinstance(value, Md):
            dims, data_type, tag = _md_specs(op, case)[value.tensor]
            value = dnnl.memory.desc(dims, data_type, tag)
        names.append(name)
        values.append(value)
    return names, values


def _obj_pd(op, case, overrides=None):
    _, values = _obj_values(op, case, overrides)
    if overrides:
        return op.obj_pd(*values)
    try:
        return op.obj_pd(*values)
    except dnnl.error as e:
        raise AssertionError("%s[%s] %s.primitive_desc: %s (%s)" % (
            op.name, case.id, op.obj_prim.__name__, c.dnnl_status2str(e.status),
            e.message)) from None


# ------------------------------------------------------------ running

def _seed(case, op):
    return zlib.crc32(("%s/%s" % (op.name, case.id)).encode())


def _generate(op, case):
    rng = np.random.default_rng(_seed(case, op))
    if op.generate is not None:
        data = op.generate(case, rng)
    else:
        data = {t: rng.uniform(-1.0, 1.0, op.tensor_dims(case, t)) for t in op.inputs}
    return data


class _Expect:
    """The inputs as the primitive sees them, and the reference outputs;
    made at the first implementation, from its descriptors' data types."""

    def __init__(self, op, case):
        self.op, self.case = op, case
        self.raw = _generate(op, case)
        self.feed = self.want = self.dts = None

    def prepare(self, layouts):
        dts = {t: lay.dt for t, lay in layouts.items()}
        if self.dts is None:
            self.dts = dts
            needed = [t for t in self.op.inputs if not layouts[t].empty()]
            missing = [t for t in needed if t not in self.raw]
            assert not missing, "%s: generate() gave no %s" % (self.op.name, missing)
            self.feed = {t: round_to(self.raw[t], layouts[t].dt) for t in needed}
            self.want = self.op.reference(self.case, **self.feed)
            unknown = set(self.want) - set(self.op.outputs)
            assert not unknown, "%s: reference gave %s, not outputs" % (self.op.name,
                                                                          sorted(unknown))
        else:
            assert dts == self.dts, "data types differ between implementations: %s, %s" % (
                dts, self.dts)
        # every output the descriptor has must be checked
        unchecked = [t for t in self.op.outputs if not layouts[t].empty() and t not in self.want]
        assert not unchecked, "%s[%s]: the reference gives no %s" % (self.op.name, self.case.id,
                                                                     unchecked)

    def tolerance(self, data_type):
        name = c.dnnl_dt2str(data_type)
        tol = self.case.get("tol") or {}
        return tol.get(name, self.op.tol.get(name, F32_TOL))


def compare(tensor, layout, buf, want, tol, check_padding=True):
    """What is wrong with output `tensor` in `buf` (laid out as `layout`)
    against the float64 `want`: a list of messages, empty when right.
    tol: (rtol, atol) for floating-point data; integers must be equal.
    Dense blocked outputs must have zeroed their padding."""
    problems = []
    if layout.empty():
        return ["%s: the descriptor reports no %s but the reference has one"
                % (tensor, tensor)]
    got = layout.unpack(buf)
    want = np.asarray(want, np.float64)
    what = "%s (%s)" % (tensor, c.cydnnl_md2str(layout.md))
    try:
        assert got.shape == want.shape, "%s: shape %s, reference %s" % (what, got.shape,
                                                                        want.shape)
        if layout.dt in INTEGER:
            np.testing.assert_array_equal(got, want, err_msg=what)
        else:
            rtol, atol = tol
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)
    except AssertionError as e:
        text = str(e).strip()
        # NumPy's report up to its dumps of the whole arrays
        problems.append(text.split(" ACTUAL: array")[0].split(" x: array")[0].rstrip())
    if check_padding and layout.dense and layout.padding.any():
        pad = buf[layout.padding]
        if np.any(pad != 0):
            problems.append("%s: %d of %d padding elements not zeroed"
                            % (what, int(np.count_nonzero(pad != 0)), pad.size))
    return problems


def _compare(expect, tensor, layout, buf):
    want = expect.want.get(tensor)
    if want is None:
        return []
    return compare(tensor, layout, buf, want, expect.tolerance(layout.dt),
                   expect.op.check_padding)


def _impl_name_c(pd):
    out = [None]
    _check(c.dnnl_primitive_desc_query(pd, c.dnnl_query_impl_info_str, 0, out),
           "query impl_info_str")
    return out[0]


def _arg_md_c(pd, arg):
    md = c.dnnl_primitive_desc_query_md(pd, c.dnnl_query_exec_arg_md, arg)
    assert md is not None, "query exec_arg_md(%d): %s" % (arg, c.cydnnl_last_error())
    return md


def _user_buffer(data, alloc):
    """data in a buffer from alloc(nbytes, dtype), or data itself without one."""
    if alloc is None:
        return data
    buf = alloc(data.nbytes, data.dtype)
    buf[...] = data
    return buf


def _user_scratchpad_attr(op, case, handles):
    """Creation overrides giving op a user scratchpad (none if op has no attr)."""
    if "attr" not in [name for name, value in op.args(case) if value is ATTR]:
        return {}
    attr = c.dnnl_primitive_attr_t()
    _check(c.dnnl_primitive_attr_create(attr), "primitive_attr_create")
    handles.add(attr, c.dnnl_primitive_attr_destroy)
    _check(c.dnnl_primitive_attr_set_scratchpad_mode(attr, c.dnnl_scratchpad_mode_user),
           "set_scratchpad_mode")
    return {"attr": attr}


def _user_scratchpad_arg(pd, alloc, handles):
    """The pd's scratchpad as an execute argument in a garbage-filled buffer
    from alloc, or None when it needs none."""
    md = _arg_md_c(pd, c.DNNL_ARG_SCRATCHPAD)
    size = c.dnnl_memory_desc_get_size(md)
    if not size:
        return None
    buf = alloc(size, np.uint8)
    buf[...] = 0xAB
    mem = c.dnnl_memory_t()
    _check(c.dnnl_memory_create(mem, md, engines()[0], buf), "memory_create (scratchpad)")
    handles.add(mem, c.dnnl_memory_destroy)
    return c.dnnl_exec_arg_t(c.DNNL_ARG_SCRATCHPAD, mem)


def _walk_c(op, case, expect, alloc=None):
    """Every implementation through dnnl_c: [(impl, problems)]."""
    c_eng, c_strm = engines()[:2]
    handles = _Handles()
    results = []
    try:
        pd = _c_pd(op, case, handles,
                   _user_scratchpad_attr(op, case, handles) if alloc else None)
        while True:
            impl = _impl_name_c(pd)
            prim = c.dnnl_primitive_t()
            _check(c.dnnl_primitive_create(prim, pd), "primitive_create (%s)" % impl)
            handles.add(prim, c.dnnl_primitive_destroy)
            tensors = dict(op.inputs, **op.outputs)
            layouts = {t: Layout(_arg_md_c(pd, arg)) for t, arg in tensors.items()}
            expect.prepare(layouts)
            bufs, args = {}, []
            for t, arg in tensors.items():
                lay = layouts[t]
                if lay.empty():
                    continue
                bufs[t] = _user_buffer(lay.pack(expect.feed[t]) if t in op.inputs
                                       else lay.garbage(), alloc)
                mem = c.dnnl_memory_t()
                _check(c.dnnl_memory_create(mem, lay.md, c_eng, bufs[t]), "memory_create")
                handles.add(mem, c.dnnl_memory_destroy)
                args.append(c.dnnl_exec_arg_t(arg, mem))
            scratchpad = _user_scratchpad_arg(pd, alloc, handles) if alloc else None
            if scratchpad is not None:
                args.append(scratchpad)
            st = c.dnnl_primitive_execute(prim, c_strm, len(args), args)
            if st != OK:
                problems = ["execute: %s (%s)" % (c.dnnl_status2str(st), c.cydnnl_last_error())]
            else:
                _check(c.dnnl_stream_wait(c_strm), "stream_wait")
                problems = []
                for t in op.outputs:
                    problems += _compare(expect, t, layouts[t], bufs.get(t))
            results.append((impl, problems))
            st = c.dnnl_primitive_desc_next_impl(pd)
            if st == c.dnnl_last_impl_reached:
                break
            _check(st, "primitive_desc_next_impl after %s" % impl)
    finally:
        handles.close()
    return results


def _walk_obj(op, case, expect, alloc=None):
    """Every implementation through the object layer: [(impl, problems)]."""
    o_eng, o_strm = engines()[2:]
    pd = _obj_pd(op, case)
    results = []
    while True:
        impl = pd.impl_info_str()
        prim = op.obj_prim(pd)
        tensors = dict(op.inputs, **op.outputs)
        mds = {t: pd.query_md(dnnl.query.exec_arg_md, arg) for t, arg in tensors.items()}
        layouts = {t: Layout(md.get()) for t, md in mds.items()}
        expect.prepare(layouts)
        bufs, args = {}, {}
        for t, arg in tensors.items():
            lay = layouts[t]
            if lay.empty():
                continue
            bufs[t] = _user_buffer(lay.pack(expect.feed[t]) if t in op.inputs
                                   else lay.garbage(), alloc)
            args[arg] = dnnl.memory(mds[t], o_eng, bufs[t])
        try:
            prim.execute(o_strm, args)
            o_strm.wait()
        except dnnl.error as e:
            results.append((impl, ["execute: %s (%s)" % (c.dnnl_status2str(e.status),
                                                         e.message)]))
        else:
            problems = []
            for t in op.outputs:
                problems += _compare(expect, t, layouts[t], bufs.get(t))
            results.append((impl, problems))
        if not pd.next_impl():
            break
    return results


def run(op, case, api="c", alloc=None):
    """Checks every implementation of op for case against the reference,
    through dnnl_c ("c"), the object layer ("obj") or both ("both", which
    also checks that both list the same implementations). Raises
    AssertionError naming each failing implementation; returns the names."""
    expect = _Expect(op, case)
    walks = {"c": [_walk_c], "obj": [_walk_obj], "both": [_walk_c, _walk_obj]}[api]
    lists, failures = [], []
    for walk in walks:
        which = "dnnl_c" if walk is _walk_c else "dnnl"
        results = walk(op, case, expect, alloc)
        assert results, "%s[%s]: no implementation" % (op.name, case.id)
        lists.append([impl for impl, _ in results])
        for impl, problems in results:
            for p in problems:
                failures.append("%s[%s] via %s, implementation %r:\n  %s"
                                % (op.name, case.id, which, impl, p.replace("\n", "\n  ")))
    if failures:
        raise AssertionError("\n".join(failures))
    if len(lists) == 2:
        assert lists[0] == lists[1], "dnnl_c walks %s, dnnl walks %s" % tuple(lists)
    return lists[0]


# ------------------------------------------------------------ bad input

def _md_arg_names(op, case):
    return [(name, value.tensor) for name, value in op.args(case) if isinstance(value, Md)]


def bad_input_names(op, case):
    """The generic bad-input cases of op, as names for parametrization."""
    names = []
    mds = _md_arg_names(op, case)
    arg_names = [name for name, _ in op.args(case)]
    for name, _ in mds:
        for kind in ("null", "destroyed", "wrongtype", "zero", "rank"):
            names.append("c-%s-%s" % (kind, name))
        if len(mds) > 1:
            names.append("c-dims-%s" % name)
    names += ["c-s8", "c-f16", "c-null-engine", "c-wrongtype-engine", "c-null-output",
              "c-wrongtype-output"]
    if "attr" in arg_names:
        names += ["c-wrongtype-attr", "c-destroyed-attr"]
    hint = [n for n, v in op.args(case) if v is HINT]
    if hint:
        names += ["c-wrongtype-%s" % hint[0], "c-destroyed-%s" % hint[0],
                  "c-otherkind-%s" % hint[0]]
    for t in list(op.inputs) + list(op.outputs):
        names += ["c-exec-missing-%s" % t, "c-exec-wrongdt-%s" % t]
    names += ["c-exec-destroyed-%s" % list(op.inputs)[0], "c-exec-null-stream"]
    if op.obj_pd is not None:
        for name, _ in mds:
            names += ["obj-null-%s" % name, "obj-wrongtype-%s" % name,
                      "obj-destroyed-%s" % name]
            if len(mds) > 1:
                names.append("obj-dims-%s" % name)
        names += ["obj-s8"]
        if hint:
            names += ["obj-otherkind-%s" % hint[0]]
        for t in list(op.inputs) + list(op.outputs):
            names.append("obj-exec-missing-%s" % t)
    return [n for n in names if op.bad_status.get(n, 0) is not None]


def bad_input_params(ops_and_cases, xfail=None):
    """pytest params (op, case, name) of every generic bad-input case of the
    given (op, case) pairs, ids "op-name". xfail: {name or name prefix:
    reason} marks known gaps as strict xfails."""
    params = []
    for op, case in ops_and_cases:
        for name in bad_input_names(op, case):
            marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)
                     for key, reason in (xfail or {}).items() if name.startswith(key)]
            params.append(pytest.param(op, case, name, id="%s-%s" % (op.name, name),
                                       marks=marks[:1]))
    return params


def _default_status(name):
    kind = name.split("-")[1]
    return UNIMPL if kind in ("s8", "f16") else INVALID


def _mutated_spec(op, case, kind, tensor):
    """(dims, data type, tag) of tensor's descriptor for a mutation."""
    dims, data_type, tag = _md_specs(op, case)[tensor]
    if kind == "dims":
        dims = list(dims)
        d = op.mismatch_dim if op.mismatch_dim < len(dims) else 0
        dims[d] += 1
    elif kind == "rank":
        dims = list(dims[:-1]) if len(dims) > 1 else list(dims) + [1]
        tag = c.dnnl_format_tag_any if tag == c.dnnl_format_tag_any else \
            tag_of("plain", len(dims))
    return dims, data_type, tag


def _reorder_pd_c(handles):
    md = handles.md([2, 3], c.dnnl_f32, c.dnnl_ab)
    pd = handles.add(c.dnnl_primitive_desc_t(), c.dnnl_primitive_desc_destroy)
    _check(c.dnnl_reorder_primitive_desc_create(pd, md, engines()[0], md, engines()[0], None),
           "reorder pd")
    return pd


def _bad_c_create(op, case, kind, target, handles):
    """The status of a creation call with one argument made bad."""
    arg_tensors = dict(_md_arg_names(op, case))
    overrides = {}
    output = handles.add(c.dnnl_primitive_desc_t(), c.dnnl_primitive_desc_destroy)
    if kind in ("s8", "f16"):
        for name, t in arg_tensors.items():
            dims, _, tag = _md_specs(op, case)[t]
            overrides[name] = handles.md(dims, DT[kind], tag)
    elif target == "output":
        output = None if kind == "null" else handles.md([2], c.dnnl_f32, c.dnnl_a)
    elif kind == "null":
        overrides[target] = None
    elif kind == "wrongtype":
        # a handle of another type where this one is expected
        overrides[target] = (handles.md([2], c.dnnl_f32, c.dnnl_a) if target == "engine"
                             else engines()[0])
    elif kind == "destroyed":
        if target in arg_tensors:
            dead = c.dnnl_memory_desc_t()
            dims, data_type, tag = _md_specs(op, case)[arg_tensors[target]]
            _check(c.dnnl_memory_desc_create_with_tag(dead, len(dims), dims, data_type, tag),
                   "md")
            _check(c.dnnl_memory_desc_destroy(dead), "md destroy")
        elif target == "attr":
            dead = c.dnnl_primitive_attr_t()
            _check(c.dnnl_primitive_attr_create(dead), "attr")
            _check(c.dnnl_primitive_attr_destroy(dead), "attr destroy")
        else:                                   # the hint
            dead = c.dnnl_primitive_desc_t()
            _, values = _c_values(op.hint, case, handles)
            _check(op.hint.c_create(dead, *values), "hint")
            _check(c.dnnl_primitive_desc_destroy(dead), "hint destroy")
        overrides[target] = dead
    elif kind == "zero":
        zero = c.dnnl_memory_desc_t()
        _check(c.dnnl_memory_desc_create_with_tag(zero, 0, [], c.dnnl_data_type_undef,
                                                  c.dnnl_format_tag_undef), "zero md")
        overrides[target] = handles.add(zero, c.dnnl_memory_desc_destroy)
    elif kind in ("dims", "rank"):
        overrides[target] = handles.md(*_mutated_spec(op, case, kind, arg_tensors[target]))
    elif kind == "otherkind":
        overrides[target] = _reorder_pd_c(handles)
    else:
        raise ValueError(kind)
    _, values = _c_values(op, case, handles, overrides)
    return op.c_create(output, *values)


def _bad_c_execute(op, case, kind, target, handles):
    c_eng, c_strm = engines()[:2]
    pd = _c_pd(op, case, handles)
    prim = handles.add(c.dnnl_primitive_t(), c.dnnl_primitive_destroy)
    _check(c.dnnl_primitive_create(prim, pd), "primitive_create")
    args, strm = [], c_strm
    for t, arg in dict(op.inputs, **op.outputs).items():
        lay = Layout(_arg_md_c(pd, arg))
        if lay.empty():
            continue
        md = lay.md
        if t == target and kind == "missing":
            continue
        if t == target and kind == "wrongdt":
            other = c.dnnl_bf16 if lay.dt == c.dnnl_f32 else c.dnnl_f32
            md = handles.md(lay.dims, other, tag_of("plain", lay.ndims))
        mem = c.dnnl_memory_t()
        _check(c.dnnl_memory_create(mem, md, c_eng, c.DNNL_MEMORY_ALLOCATE), "memory_create")
        if t == target and kind == "destroyed":
            _check(c.dnnl_memory_destroy(mem), "memory_destroy")
        else:
            handles.add(mem, c.dnnl_memory_destroy)
        args.append((arg, mem))
    if kind == "null" and target == "stream":
        strm = None
    return c.dnnl_primitive_execute(prim, strm, len(args), args)


def _bad_obj(op, case, kind, target):
    """Makes the object-layer call with one thing bad (it should raise)."""
    o_eng, o_strm = engines()[2:]
    arg_tensors = dict(_md_arg_names(op, case))
    overrides = {}
    if kind == "exec":
        t = target.split("-", 1)[1]           # "missing-<tensor>"
        pd = _obj_pd(op, case)
        args = {}
        for tensor, arg in dict(op.inputs, **op.outputs).items():
            md = pd.query_md(dnnl.query.exec_arg_md, arg)
            if md.is_zero() or tensor == t:
                continue
            args[arg] = dnnl.memory(md, o_eng)
        op.obj_prim(pd).execute(o_strm, args)
        return None
    if kind == "s8":
        for name, t in arg_tensors.items():
            dims, _, tag = _md_specs(op, case)[t]
            overrides[name] = dnnl.memory.desc(dims, c.dnnl_s8, tag)
    elif kind == "null":
        overrides[target] = None
    elif kind == "wrongtype":
        overrides[target] = o_eng
    elif kind == "destroyed":
        dims, data_type, tag = _md_specs(op, case)[arg_tensors[target]]
        dead = c.dnnl_memory_desc_t()
        _check(c.dnnl_memory_desc_create_with_tag(dead, len(dims), dims, data_type, tag), "md")
        _check(c.dnnl_memory_desc_destroy(dead), "md destroy")
        overrides[target] = dnnl.memory.desc(dead)
    elif kind == "dims":
        overrides[target] = dnnl.memory.desc(*_mutated_spec(op, case, kind,
                                                            arg_tensors[target]))
    elif kind == "otherkind":
        md = dnnl.memory.desc([2, 3], c.dnnl_f32, c.dnnl_ab)
        overrides[target] = dnnl.reorder.primitive_desc(o_eng, md, o_eng, md)
    else:
        raise ValueError(kind)
    _obj_pd(op, case, overrides)


def check_bad_input(op, case, name):
    """Runs bad-input case `name` (from bad_input_names) of op on a valid
    case: dnnl_c must return the expected status (and say why), the object
    layer must raise dnnl.error with it. Never anything else."""
    expected = op.bad_status.get(name, _default_status(name))
    api, rest = name.split("-", 1)
    # the case itself must be valid, or every bad variant passes for nothing
    if api == "c":
        handles = _Handles()
        try:
            _c_pd(op, case, handles)
        finally:
            handles.close()
    else:
        _obj_pd(op, case)
    if api == "c":
        kind, _, target = rest.partition("-")
        handles = _Handles()
        try:
            if kind == "exec":
                kind, _, target = target.partition("-")
                st = _bad_c_execute(op, case, kind, target, handles)
            else:
                st = _bad_c_create(op, case, kind, target, handles)
            why = c.cydnnl_last_error()
        finally:
            handles.close()
        assert st == expected, "%s %s: status %s, expected %s (%s)" % (
            op.name, name, c.dnnl_status2str(st), c.dnnl_status2str(expected), why)
        if st != OK:
            assert why, "%s %s: no error message" % (op.name, name)
        return
    kind, _, target = rest.partition("-")
    try:
        _bad_obj(op, case, kind, target)
    except dnnl.error as e:
        assert e.status == expected, "%s %s: dnnl.error status %s, expected %s (%s)" % (
            op.name, name, c.dnnl_status2str(e.status), c.dnnl_status2str(expected),
            e.message)
        assert e.message
        return
    except Exception as e:
        raise AssertionError("%s %s: raised %s: %s, not dnnl.error (expected %s)" % (
            op.name, name, type(e).__name__, e, c.dnnl_status2str(expected))) from e
    raise AssertionError("%s %s: no dnnl.error raised (expected %s)"
                         % (op.name, name, c.dnnl_status2str(expected)))
