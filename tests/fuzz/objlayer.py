"""The state machine over the `dnnl` object layer (oneDNN's C++ API): engines,
streams, memory descriptors, memories and their NumPy bridge, attributes,
every primitive_desc class (from consistent problems in C++ argument order,
sometimes with an argument broken, dropped or added, and from arbitrary
values), primitives and execute.

Bad input may raise dnnl.error, TypeError or ValueError; any other exception
escaping a call is a failure, and so is a crash.
"""

import numpy as np
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, initialize, multiple, rule

import dnnl
import dnnl_c as c

from fuzz import problems as P
from fuzz.base import FuzzMachine
from fuzz.capi_prims import MANGLES
from fuzz.values import (ARG_IDS, Expr, Fit, data_handle_arg, dims_of_len, dt_arg,
                         enum_arg, float_arg, hostile_int, int_arg, junk, ndims_and_dims,
                         np_dtype, pick, spatial, tag_arg)

ALLOWED = (dnnl.error, TypeError, ValueError)
BOGUS = st.one_of(st.sampled_from([None, 0, 3, "x", Expr("dnnl.memory.desc()"),
                                   Expr("dnnl.primitive_attr()"), Expr("np.zeros(2)"),
                                   Expr("c.dnnl_memory_desc_t()"), Expr("dnnl.engine()"),
                                   Expr("dnnl.stream()"), Expr("dnnl.memory()")]), junk)

# per family and direction: the class and its C++ arguments (kind, key) as
# in fuzz.capi_prims.SIGS; "md?" is an optional desc (left out when the
# problem has none: the overload without bias)
FAMILIES = {
    "convolution": [
        (dnnl.convolution_forward, [("eng",), ("prop",), ("alg", "alg"), ("md", "src"),
                                    ("md", "weights"), ("md?", "bias"), ("md", "dst"),
                                    ("dims", "strides"), ("dims", "dilates"),
                                    ("dims", "padding_l"), ("dims", "padding_r"), ("attr",)]),
        (dnnl.convolution_backward_data, [
            ("eng",), ("alg", "alg"), ("md", "diff_src"), ("md", "weights"), ("md", "diff_dst"),
            ("dims", "strides"), ("dims", "dilates"), ("dims", "padding_l"),
            ("dims", "padding_r"), ("hint",), ("attr",)]),
        (dnnl.convolution_backward_weights, [
            ("eng",), ("alg", "alg"), ("md", "src"), ("md", "diff_weights"),
            ("md?", "diff_bias"), ("md", "diff_dst"), ("dims", "strides"),
            ("dims", "dilates"), ("dims", "padding_l"), ("dims", "padding_r"), ("hint",),
            ("attr",)])],
    "eltwise": [
        (dnnl.eltwise_forward, [("eng",), ("prop",), ("alg", "alg"), ("md", "src"),
                                ("md", "dst"), ("float", "alpha"), ("float", "beta"),
                                ("attr",)]),
        (dnnl.eltwise_backward, [("eng",), ("alg", "alg"), ("md", "diff_src"),
                                 ("md", "diff_dst"), ("md", "src"), ("float", "alpha"),
                                 ("float", "beta"), ("hint",), ("attr",)])],
    "lrn": [
        (dnnl.lrn_forward, [("eng",), ("prop",), ("alg", "alg"), ("md", "src"), ("md", "dst"),
                            ("int", "local_size"), ("float", "alpha"), ("float", "beta"),
                            ("float", "k"), ("attr",)]),
        (dnnl.lrn_backward, [("eng",), ("alg", "alg"), ("md", "diff_src"), ("md", "diff_dst"),
                             ("md", "src"), ("int", "local_size"), ("float", "alpha"),
                             ("float", "beta"), ("float", "k"), ("hint",), ("attr",)])],
    "pooling": [
        (dnnl.pooling_forward, [("eng",), ("prop",), ("alg", "alg"), ("md", "src"),
                                ("md", "dst"), ("dims", "strides"), ("dims", "kernel"),
                                ("dims", "dilation"), ("dims", "padding_l"),
                                ("dims", "padding_r"), ("attr",)]),
        (dnnl.pooling_backward, [("eng",), ("alg", "alg"), ("md", "diff_src"),
                                 ("md", "diff_dst"), ("dims", "strides"), ("dims", "kernel"),
                                 ("dims", "dilation"), ("dims", "padding_l"),
                                 ("dims", "padding_r"), ("hint",), ("attr",)])],
    "reorder": [
        (dnnl.reorder, [("eng",), ("md", "src"), ("eng",), ("md", "dst"), ("attr",)])],
}
ALL_CLASSES = [cls for fam in FAMILIES.values() for cls, _ in fam]
PROPS = [dnnl.prop_kind.forward_training, dnnl.prop_kind.forward_inference]
PD_METHODS = ["src_desc", "dst_desc", "weights_desc", "diff_src_desc", "diff_dst_desc",
              "diff_weights_desc", "workspace_desc", "scratchpad_desc", "impl_info_str",
              "get_engine", "scratchpad_engine", "get_primitive_attr", "get_kind",
              "get_prop_kind", "get_algorithm", "get_alpha", "get_beta", "get_k",
              "get_local_size", "get_strides", "get_dilations", "get_padding_l",
              "get_padding_r", "get_kernel", "next_impl", "get_flags", "get_cell_kind"]
DESC_GETTERS = ["get_ndims", "get_dims", "get_data_type", "get_format_kind", "get_padded_dims",
                "get_padded_offsets", "get_submemory_offset", "get_strides",
                "get_inner_nblks", "get_inner_blks", "get_inner_idxs", "get_size", "is_zero",
                "__repr__"]
mutation = pick((3, st.none()), st.tuples(st.sampled_from(["set", "drop", "add"]),
                                          st.integers(0, 12),
                                          st.one_of(hostile_int, junk, BOGUS, spatial())))


def _name(cls):
    return "dnnl.%s" % cls.__name__


class ObjMachine(FuzzMachine):
    layer = "dnnl"

    engines = Bundle("o_engines")
    streams = Bundle("o_streams")
    descs = Bundle("o_descs")
    mems = Bundle("o_mems")
    attrs = Bundle("o_attrs")
    pds = Bundle("o_pds")
    prims = Bundle("o_prims")
    problems = Bundle("o_problems")

    def ocall(self, src, fn, *args, **kwargs):
        """Logs and calls fn(*args, **kwargs); dnnl.error, TypeError and
        ValueError are answers, any other exception a failure."""
        parts = [self.src(a) for a in args] + ["%s=%s" % (k, self.src(v))
                                               for k, v in kwargs.items()]
        line = "%s(%s)" % (src, ", ".join(parts))
        return self.call(lambda: _guard(fn, args, kwargs), returns=None, line=line)

    def new(self, prefix, src, fn, *args, **kwargs):
        """A constructor call; the object it makes gets a name."""
        r = self.ocall(src, fn, *args, **kwargs)
        if r is None or isinstance(r, _Raised):
            return multiple()
        return self.bind(r, prefix, "r")

    @initialize(target=engines)
    def init_engine(self):
        return self.new("eng", "dnnl.engine", dnnl.engine, dnnl.engine.kind.cpu, 0)

    @initialize(target=streams, e=engines)
    def init_stream(self, e):
        return self.new("strm", "dnnl.stream", dnnl.stream, e)

    @initialize(target=descs)
    def init_desc(self):
        return self.new("d", "dnnl.memory.desc", dnnl.memory.desc)

    @initialize(target=attrs)
    def init_attr(self):
        return self.new("attr", "dnnl.primitive_attr", dnnl.primitive_attr)

    # ---------------------------------------------------------- engine, stream, attr

    @rule(target=engines, kind=enum_arg("dnnl_engine_kind_t", [dnnl.engine.kind.cpu] * 3),
          index=int_arg(st.just(0)))
    def engine(self, kind, index):
        e = self.new("eng", "dnnl.engine", dnnl.engine, self.value(kind), self.value(index))
        self.ocall("dnnl.engine.get_count", dnnl.engine.get_count, self.value(kind))
        return e

    @rule(target=streams, e=pick((2, engines), BOGUS),
          flags=st.one_of(st.none(), int_arg(st.sampled_from([1, 2, 4]))))
    def stream(self, e, flags):
        s = self.new("strm", "dnnl.stream", dnnl.stream, self.value(e), self.value(flags))
        if not isinstance(s, type(multiple())):
            self.ocall("%s.wait" % self.src(s), s.wait)
            self.ocall("%s.get_engine" % self.src(s), s.get_engine)
        return s

    @rule(target=attrs, smode=enum_arg("dnnl_scratchpad_mode_t"),
          fmode=enum_arg("dnnl_fpmath_mode_t"))
    def attr(self, smode, fmode):
        a = self.new("attr", "dnnl.primitive_attr", dnnl.primitive_attr)
        if isinstance(a, dnnl.primitive_attr):
            for m, v in (("set_scratchpad_mode", smode), ("set_fpmath_mode", fmode),
                         ("get_scratchpad_mode", None), ("get_fpmath_mode", None)):
                args = () if v is None else (self.value(v),)
                self.ocall("%s.%s" % (self.src(a), m), getattr(a, m), *args)
        return a

    # ---------------------------------------------------------- memory descriptors

    @rule(target=descs, nd_dims=ndims_and_dims(), dt=dt_arg, tag=tag_arg,
          strides=pick((2, st.none()), st.integers(0, 6).flatmap(dims_of_len)))
    def desc(self, nd_dims, dt, tag, strides):
        _, dims = nd_dims
        layout = tag if strides is None else strides
        return self.new("d", "dnnl.memory.desc", dnnl.memory.desc, self.value(dims),
                        self.value(dt), self.value(layout))

    @rule(target=descs, d=pick((3, descs), BOGUS), how=st.integers(0, 2),
          k=st.integers(0, 3), allow_empty=st.booleans(), data=st.data())
    def desc_derived(self, d, how, k, allow_empty, data):
        d = self.value(d)
        if not isinstance(d, dnnl.memory.desc):
            return multiple()
        derived = st.just(Expr("_shrunk(%s.get(True), %d)" % (self.ref(d), k)))
        dims = self.value(data.draw(pick((2, derived), st.integers(0, 5).flatmap(dims_of_len))))
        method = ["submemory_desc", "reshape", "permute_axes"][how]
        args = {0: (dims, self.value(Expr("[%d] * len(_dims(%s.get(True)))"
                                          % (k % 2, self.ref(d))))),
                1: (self.value(Expr("_split(%s.get(True))" % self.ref(d))) if k < 2 else dims,),
                2: (self.value(Expr("_perm(%s.get(True), %d)" % (self.ref(d), k)))
                    if k < 3 else dims,)}[how]
        return self.new("d", "%s.%s" % (self.src(d), method), getattr(d, method), *args,
                        allow_empty=allow_empty)

    @rule(d=pick((3, descs), BOGUS), other=descs,
          getter=st.sampled_from(DESC_GETTERS))
    def desc_query(self, d, other, getter):
        d = self.value(d)
        if isinstance(d, dnnl.memory.desc):
            self.ocall("%s.%s" % (self.src(d), getter), getattr(d, getter))
        self.ocall("%s.__eq__" % self.src(other), other.__eq__, d)

    # ---------------------------------------------------------- memories

    @rule(target=mems, d=pick((3, descs), BOGUS),
          e=pick((2, engines), BOGUS), handle=pick(st.just("<default>"), (2, data_handle_arg)))
    def memory(self, d, e, handle):
        d, e = self.value(d), self.value(e)
        if isinstance(handle, str) and handle == "<default>":
            return self.new("mem", "dnnl.memory", dnnl.memory, d, e)
        if isinstance(handle, Fit):
            handle = (handle.expr("%s.get(True)" % self.ref(d))
                      if isinstance(d, dnnl.memory.desc) else None)
        h = self.value(handle, "buf")
        return self.new("mem", "dnnl.memory", dnnl.memory, d, e, h)

    @rule(m=mems, what=st.integers(0, 9), dtype=np_dtype,
          shape=st.one_of(st.none(), st.integers(0, 4).flatmap(dims_of_len)),
          handle=st.one_of(data_handle_arg, st.none()), index=int_arg(st.just(0)))
    def memory_use(self, m, what, dtype, shape, handle, index):
        s = self.src(m)
        if what == 0:
            self.ocall(s + ".get_desc", m.get_desc)
        elif what == 1:
            self.ocall(s + ".get_engine", m.get_engine)
        elif what == 2:
            self.ocall(s + ".get_data_handle", m.get_data_handle, self.value(index))
        elif what == 3:
            h = self.value(handle.expr(s + ".get(True)") if isinstance(handle, Fit)
                           else handle, "buf")
            self.ocall(s + ".set_data_handle", m.set_data_handle, h)
        elif what == 4:
            h = self.ocall(s + ".map_data", m.map_data)
            h = None if h is None or isinstance(h, _Raised) else self.bind(h, "dh", "r")
            self.ocall(s + ".unmap_data", m.unmap_data, h)
        elif what in (5, 6):
            self.ocall("np.asarray", np.asarray, m, *([] if what == 5 else [self.value(
                Expr(dtype))]))
        elif what == 7:
            self.ocall(s + ".read", m.read, *([] if shape is None else [self.value(Expr(dtype))]))
        else:
            dims = Expr("_mdims(%s)" % s) if shape is None else shape
            arr = self.value(Expr("_arr(%s, %s)" % (self.ref(dims), dtype if what == 8
                                                    else "np.float32")), "arr")
            self.ocall(s + ".write", m.write, arr)

    # ---------------------------------------------------------- primitive descriptors

    def make_problem(self, spec):
        for role, (dims, dt, tag) in spec.tensors.items():
            spec.mds[role] = self.new("d", "dnnl.memory.desc", dnnl.memory.desc, dims, dt, tag)
        return spec

    @initialize(target=problems, spec=P.problem)
    def init_problem(self, spec):
        return self.make_problem(spec)

    @rule(target=problems, spec=P.problem)
    def problem_make(self, spec):
        return self.make_problem(spec)

    # one argument and no target: Hypothesis orders such rules first, and the
    # first rules are drawn most
    @rule(data=st.data())
    def execute_problem(self, data):
        """A problem all the way: primitive_desc, primitive, memories, execute."""
        d = data.draw
        prob, which = d(self.problems), d(st.integers(0, 2))
        fam = FAMILIES[prob.family]
        cls, sig = fam[0] if prob.fwd_pd is None and which else fam[which % len(fam)]
        pd = self.make_pd(cls, sig, prob, data, d(mutation))
        if not isinstance(pd, cls.primitive_desc):
            return
        p = self.new("prim", _name(cls), cls, pd)
        if isinstance(p, dnnl.primitive):
            self.run_execute(p, self.value(d(pick((5, self.streams), BOGUS))),
                             d(self.engines), d(st.booleans()), d(st.sampled_from(MANGLES)),
                             d(st.integers(0, 7)), d(pick(self.mems, BOGUS)),
                             d(st.integers(0, 2**16)))

    def pd_args(self, sig, prob, draw):
        args = []
        for item in sig:
            kind, key = item[0], item[-1]
            if kind == "eng":
                args.append(draw(pick((2, self.engines), BOGUS)))
            elif kind == "attr":
                if draw(st.booleans()):
                    args.append(draw(st.one_of(self.attrs, BOGUS)))
            elif kind == "prop":
                args.append(draw(st.sampled_from(PROPS)) if prob else draw(
                    enum_arg("dnnl_prop_kind_t")))
            elif kind == "hint":
                args.append(prob.fwd_pd if prob is not None and prob.fwd_pd is not None
                            else draw(st.one_of(self.pds, BOGUS)))
            elif prob is not None:
                v = prob.mds.get(key) if kind.startswith("md") else prob.params.get(key, 1.0)
                if not (kind == "md?" and v is None):
                    args.append(v if not isinstance(v, type(multiple())) else None)
            elif kind.startswith("md"):
                args.append(draw(pick((2, self.descs), BOGUS)))
            elif kind == "alg":
                args.append(draw(enum_arg("dnnl_alg_kind_t")))
            elif kind == "dims":
                args.append(draw(spatial(st.integers(0, 4), st.integers(-1, 3))))
            elif kind == "int":
                args.append(draw(int_arg(st.integers(1, 5))))
            else:
                args.append(draw(float_arg()))
        return args

    def make_pd(self, cls, sig, prob, data, broken):
        args = self.pd_args(sig, prob, data.draw)
        if broken is not None:
            how, i, v = broken
            i = i % (len(args) + 1)
            if how == "set" and i < len(args):
                args[i] = v
            elif how == "drop" and i < len(args):
                del args[i]
            else:
                args.insert(i, v)
        args = [self.value(a) for a in args]
        pd = self.new("pd", _name(cls) + ".primitive_desc", cls.primitive_desc, *args)
        if prob is not None and broken is None and isinstance(pd, cls.primitive_desc) and \
                "backward" not in cls.__name__:
            prob.fwd_pd = pd
        return pd

    @rule(target=pds, prob=problems, which=st.integers(0, 2), data=st.data(), broken=mutation)
    def pd_for_problem(self, prob, which, data, broken):
        fam = FAMILIES[prob.family]
        cls, sig = fam[0] if prob.fwd_pd is None and which else fam[which % len(fam)]
        return self.make_pd(cls, sig, prob, data, broken)

    @rule(target=pds, fam=st.sampled_from(sorted(FAMILIES)), which=st.integers(0, 2),
          data=st.data())
    def pd_any(self, fam, which, data):
        cls, sig = FAMILIES[fam][which % len(FAMILIES[fam])]
        return self.make_pd(cls, sig, None, data, None)

    @rule(pd=pds, method=st.sampled_from(PD_METHODS), q=enum_arg("dnnl_query_t"),
          idx=int_arg(st.integers(0, 2)))
    def pd_query(self, pd, method, q, idx):
        s = self.src(pd)
        self.ocall("%s.%s" % (s, method), getattr(pd, method))
        self.ocall(s + ".query_md", pd.query_md, self.value(q), self.value(idx))
        self.ocall(s + ".query_s32", pd.query_s32, self.value(q), self.value(idx))

    # ---------------------------------------------------------- primitives

    @rule(target=prims, pd=pick((3, pds), BOGUS), cls=st.sampled_from(ALL_CLASSES))
    def prim(self, pd, cls):
        pd = self.value(pd)
        # the primitive class the pd belongs to, mostly
        owner = type(pd).__qualname__.split(".")[0]
        cls = getattr(dnnl, owner) if owner in [k.__name__ for k in ALL_CLASSES] else cls
        p = self.new("prim", _name(cls), cls, pd)
        if isinstance(p, dnnl.primitive):
            self.ocall("%s.get_kind" % self.src(p), p.get_kind)
        return p

    @rule(a=pick((4, mems), BOGUS), b=pick((4, mems), BOGUS), s=pick((3, streams), BOGUS),
          attr=st.one_of(st.none(), attrs, BOGUS))
    def reorder_memories(self, a, b, s, attr):
        """dnnl.reorder over two memories, and its execute(stream, src, dst)."""
        a, b, s, attr = self.value(a), self.value(b), self.value(s), self.value(attr)
        r = self.new("prim", "dnnl.reorder", dnnl.reorder, a, b, *([] if attr is None
                                                                    else [attr]))
        if isinstance(r, dnnl.reorder):
            self.ocall(self.src(r) + ".execute", r.execute, s, a, b)

    @rule(p=prims, s=pick((2, streams), BOGUS), e=engines, user=st.booleans(),
          mangle=st.sampled_from(MANGLES), at=st.integers(0, 7), other=st.one_of(mems, BOGUS),
          noise=st.integers(0, 2**16))
    def execute(self, p, s, e, user, mangle, at, other, noise):
        self.run_execute(p, self.value(s), e, user, mangle, at, other, noise)

    def run_execute(self, p, s, e, user, mangle, at, other, noise):
        """Memories for what the primitive's descriptor asks for, then
        execute, the arguments mangled as `mangle` says."""
        ps = self.src(p)
        c_pd = self.ocall(ps + ".get_primitive_desc", p.get_primitive_desc)
        if type(c_pd) is not c.dnnl_primitive_desc_t:
            return
        c_pd = self.bind(c_pd, "cpd", "r")
        pd = self.new("pd", "dnnl.primitive_desc_base", dnnl.primitive_desc_base, c_pd)
        args = {}
        for arg in sorted(set(ARG_IDS)):
            md = self.new("d", self.src(pd) + ".query_md", pd.query_md,
                          dnnl.query.exec_arg_md, arg)
            if not isinstance(md, dnnl.memory.desc) or md.is_zero():
                continue
            h = (self.value(Expr("_noise(%s.get(), %d)" % (self.ref(md), noise + arg)), "buf")
                 if user else None)
            m = self.new("mem", "dnnl.memory", dnnl.memory, md, self.value(e),
                         *([] if h is None else [h]))
            if isinstance(m, dnnl.memory):
                args[arg] = m
        keys = sorted(args)
        if keys and mangle in ("drop", "foreign", "no_handle", "destroy", "swap"):
            k = keys[at % len(keys)]
            if mangle == "drop":
                del args[k]
            elif mangle == "foreign":
                args[k] = self.value(other)
            elif mangle == "no_handle":
                self.ocall(self.src(args[k]) + ".set_data_handle", args[k].set_data_handle, None)
            elif mangle == "destroy":
                self.ocall(self.src(args[k]) + ".reset", args[k].reset, None)
            else:
                args[k], args[keys[0]] = args[keys[0]], args[k]
        args = self.value(args, "args")
        self.ocall(ps + ".execute", p.execute, s, args)


class _Raised:
    """What an allowed exception leaves as the result of a call."""

    def __init__(self, exc):
        self.exc = exc

    def __repr__(self):
        return "raised %s: %s" % (type(self.exc).__name__, str(self.exc)[:60])


def _guard(fn, args, kwargs):
    try:
        return fn(*args, **kwargs)
    except ALLOWED as exc:
        return _Raised(exc)
