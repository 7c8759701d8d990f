"""The state machine over dnnl_c, oneDNN's flat C API: a rule per function.

Handles live in Bundles, one per handle type, seeded with an empty (NULL)
handle; a rule's input handle is drawn from its own bundle (live or
destroyed), another type's bundle, or bogus values (None, ints, strings,
arrays, empty handles of another class). Output handles are fresh handle
objects, existing ones, or bogus. Every other argument comes from the hostile
ranges of `fuzz.values`. Each function must return a dnnl_status_t (or its
documented type) and never raise; `FuzzMachine.call` checks that.

`problems` holds consistent shapes (`fuzz.problems`) so primitives get made
and executed with fitted memories, sometimes with one argument broken.
"""

import math

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, initialize, multiple, rule

import dnnl_c as c

from fuzz.base import FuzzMachine
from fuzz.capi_prims import PrimitiveRules
from fuzz.values import (Expr, Fit, data_handle_arg, dims_of_len, dt_arg, enum_arg, int_arg,
                         junk, ndims_and_dims, out_list, pick, query_arg, tag_arg)

FRESH = "<fresh>"
BOGUS_HANDLES = [None, 0, 3, -1, "md", Expr("c.dnnl_engine_t()"), Expr("c.dnnl_stream_t()"),
                 Expr("c.dnnl_memory_desc_t()"), Expr("c.dnnl_memory_t()"),
                 Expr("c.dnnl_primitive_desc_t()"), Expr("c.dnnl_primitive_t()"),
                 Expr("c.dnnl_primitive_attr_t()"), Expr("c.dnnl_exec_arg_t()"),
                 Expr("np.zeros(2)"), Expr("[None]"), Expr("c.DNNL_MEMORY_ALLOCATE")]
bogus_handle = st.one_of(st.sampled_from(BOGUS_HANDLES), junk)

STR_FNS = ["dnnl_status2str", "dnnl_dt2str", "dnnl_fmt_kind2str", "dnnl_fmt_tag2str",
           "dnnl_prop_kind2str", "dnnl_prim_kind2str", "dnnl_alg_kind2str",
           "dnnl_engine_kind2str", "dnnl_rnn_direction2str", "dnnl_rnn_flags2str",
           "dnnl_scratchpad_mode2str", "dnnl_fpmath_mode2str", "dnnl_query2str"]
INT_FNS = ["dnnl_engine_get_count", "dnnl_data_type_size"]
DESTROY = {c.dnnl_engine_t: "dnnl_engine_destroy", c.dnnl_stream_t: "dnnl_stream_destroy",
           c.dnnl_memory_desc_t: "dnnl_memory_desc_destroy", c.dnnl_memory_t: "dnnl_memory_destroy",
           c.dnnl_primitive_attr_t: "dnnl_primitive_attr_destroy",
           c.dnnl_primitive_desc_t: "dnnl_primitive_desc_destroy",
           c.dnnl_primitive_t: "dnnl_primitive_destroy"}
DT_BYTES = {c.dnnl_f32: 4, c.dnnl_bf16: 2, c.dnnl_f16: 2, c.dnnl_s8: 1, c.dnnl_u8: 1,
            c.dnnl_s32: 4, c.dnnl_f64: 8, c.dnnl_s64: 8, c.dnnl_boolean: 1}
VERBOSE_LEVELS = [0, 0, 1, 2, -1, 3, 2**31, "1", None, float("nan")]


class CApiMachine(FuzzMachine, PrimitiveRules):
    layer = "dnnl_c"

    engines = Bundle("engines")
    streams = Bundle("streams")
    mds = Bundle("mds")
    mems = Bundle("mems")
    attrs = Bundle("attrs")
    pds = Bundle("pds")
    prims = Bundle("prims")
    dhs = Bundle("dhs")
    problems = Bundle("problems")

    # ---------------------------------------------------------- helpers

    def out(self, v, cls, prefix):
        """An output handle: a fresh one (named and logged) or the drawn value."""
        if isinstance(v, str) and v == FRESH:
            return self.bind(cls(), prefix, "c.%s()" % cls.__name__)
        return self.value(v)

    @staticmethod
    def keep_if(obj, cls):
        """What a rule adds to its bundle: the output handle when it is one
        and not NULL (each bundle starts with a NULL handle already)."""
        return obj if type(obj) is cls and obj else multiple()

    def check_size(self, md, dims):
        """A created descriptor's size holds its padded elements: a size
        computation that wrapped around shows here before any buffer does.
        Checked where the dims are huge, the only place it can wrap."""
        if not (isinstance(dims, list) and any(type(d) is int and d > 2**20 for d in dims)):
            return
        padded, dt = self.value(Expr("[None]"), "res"), self.value(Expr("[None]"), "res")
        if self.call("dnnl_memory_desc_query", md, c.dnnl_query_padded_dims, padded) != 0 or \
                self.call("dnnl_memory_desc_query", md, c.dnnl_query_data_type, dt) != 0:
            return
        size = self.call("dnnl_memory_desc_get_size", md, returns="int")
        nbytes = DT_BYTES.get(dt[0])
        if nbytes and isinstance(padded[0], tuple) and isinstance(size, int) \
                and size < math.prod(padded[0]) * nbytes:
            self.fail("dnnl_memory_desc_get_size wrapped around",
                      "padded dims %s of %d-byte elements, but get_size(%s) = %d"
                      % (padded[0], nbytes, self.src(md), size))

    def outlist(self, v):
        return self.value(v, "res")

    def from_out(self, res, cls, prefix):
        """out[0] of a result list, named, when it is a cls."""
        try:
            got = res[0]
        except Exception:  # noqa: BLE001 - bogus out containers
            return multiple()
        if type(got) is not cls:
            return multiple()
        return self.bind(got, prefix, "%s[0]" % self.src(res))

    # ---------------------------------------------------------- initial handles

    @initialize(target=engines)
    def init_engine(self):
        e = self.bind(c.dnnl_engine_t(), "eng", "c.dnnl_engine_t()")
        self.call("dnnl_engine_create", e, c.dnnl_cpu, 0)
        return e

    @initialize(target=streams, engine=engines)
    def init_stream(self, engine):
        s = self.bind(c.dnnl_stream_t(), "strm", "c.dnnl_stream_t()")
        self.call("dnnl_stream_create", s, engine, c.dnnl_stream_default_flags)
        return s

    @initialize(target=mds)
    def init_md(self):
        return self.bind(c.dnnl_memory_desc_t(), "md", "c.dnnl_memory_desc_t()")

    @initialize(target=mems)
    def init_mem(self):
        return self.bind(c.dnnl_memory_t(), "mem", "c.dnnl_memory_t()")

    @initialize(target=attrs)
    def init_attr(self):
        return self.bind(c.dnnl_primitive_attr_t(), "attr", "c.dnnl_primitive_attr_t()")

    @initialize(target=pds)
    def init_pd(self):
        return self.bind(c.dnnl_primitive_desc_t(), "pd", "c.dnnl_primitive_desc_t()")

    @initialize(target=prims)
    def init_prim(self):
        return self.bind(c.dnnl_primitive_t(), "prim", "c.dnnl_primitive_t()")

    @initialize(target=dhs)
    def init_dh(self):
        return self.value(Expr("np.zeros(16, np.float32)"), "buf")

    # ---------------------------------------------------------- engines, streams

    @rule(target=engines, out=pick((2, st.just(FRESH)), bogus_handle),
          kind=enum_arg("dnnl_engine_kind_t", [c.dnnl_cpu] * 3), index=int_arg(st.just(0)))
    def engine_create(self, out, kind, index):
        e = self.out(out, c.dnnl_engine_t, "eng")
        self.call("dnnl_engine_create", e, kind, index)
        return self.keep_if(e, c.dnnl_engine_t)

    @rule(kind=enum_arg("dnnl_engine_kind_t"), res=out_list,
          engine=pick((2, engines), streams, bogus_handle))
    def engine_get_kind(self, kind, res, engine):
        self.call("dnnl_engine_get_count", kind, returns="int")
        self.call("dnnl_engine_get_kind", engine, self.outlist(res))

    @rule(target=streams, out=pick((2, st.just(FRESH)), streams, bogus_handle),
          engine=pick((3, engines), mems, bogus_handle),
          flags=int_arg(st.sampled_from([1, 1, 2, 3, 4, 0x40])))
    def stream_create(self, out, engine, flags):
        s = self.out(out, c.dnnl_stream_t, "strm")
        self.call("dnnl_stream_create", s, self.value(engine), flags)
        return self.keep_if(s, c.dnnl_stream_t)

    @rule(target=engines, stream=pick((2, streams), engines, bogus_handle),
          out=pick((2, st.just(FRESH)), bogus_handle))
    def stream_get_engine(self, stream, out):
        e = self.out(out, c.dnnl_engine_t, "eng")
        self.call("dnnl_stream_get_engine", self.value(stream), e)
        return self.keep_if(e, c.dnnl_engine_t)

    @rule(stream=pick((2, streams), engines, bogus_handle))
    def stream_wait(self, stream):
        self.call("dnnl_stream_wait", self.value(stream))

    @rule(h=pick((2, engines), streams, (2, mds), (2, mems), attrs, (2, pds), (2, prims),
                 bogus_handle),
          fn=st.sampled_from(sorted(DESTROY.values())), matched=st.integers(0, 3))
    def destroy(self, h, fn, matched):
        """Mostly the destroy function of the handle's type, else any."""
        if matched and type(h) in DESTROY:
            fn = DESTROY[type(h)]
        self.call(fn, self.value(h))

    # ---------------------------------------------------------- memory descriptors

    def md_out(self, out):
        return self.out(out, c.dnnl_memory_desc_t, "md")

    md_outs = pick((3, st.just(FRESH)), mds, bogus_handle)
    md_ins = pick((4, mds), mems, pds, bogus_handle)

    @rule(target=mds, out=md_outs, nd_dims=ndims_and_dims(), dt=dt_arg, tag=tag_arg)
    def md_create_with_tag(self, out, nd_dims, dt, tag):
        md = self.md_out(out)
        nd, dims = nd_dims
        dims = self.value(dims)
        if self.call("dnnl_memory_desc_create_with_tag", md, nd, dims, dt, tag) == 0:
            self.check_size(md, dims)
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(target=mds, out=md_outs, nd_dims=ndims_and_dims(), dt=dt_arg, data=st.data())
    def md_create_with_strides(self, out, nd_dims, dt, data):
        md = self.md_out(out)
        nd, dims = nd_dims
        n = nd if isinstance(nd, int) and 0 <= nd <= 12 else 2
        strides = data.draw(pick(st.none(), (2, dims_of_len(n)), st.just(Expr("None"))),
                            "strides")
        self.call("dnnl_memory_desc_create_with_strides", md, nd, self.value(dims), dt,
                  self.value(strides))
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(target=mds, out=md_outs, parent=md_ins, data=st.data())
    def md_create_submemory(self, out, parent, data):
        md = self.md_out(out)
        p = self.ref(parent)
        forms = st.sampled_from(["_dims(%s)", "_shrunk(%s, 1)", "_shrunk(%s, 2)",
                                 "[1] * len(_dims(%s))", "[0] * len(_dims(%s))"])
        derived = forms.map(lambda f: Expr(f % p))
        dims = data.draw(pick((2, derived), any_dims_s), "dims")
        offs = data.draw(pick((2, derived), any_dims_s), "offsets")
        self.call("dnnl_memory_desc_create_submemory", md, parent, self.value(dims),
                  self.value(offs))
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(target=mds, out=md_outs, src=md_ins, data=st.data())
    def md_reshape(self, out, src, data):
        md = self.md_out(out)
        dims = data.draw(st.one_of(st.just(Expr("_split(%s)" % self.ref(src))),
                                   st.just(Expr("_dims(%s)" % self.ref(src))), any_dims_s))
        nd = data.draw(int_arg(st.just(Expr("len(list(%s))" % dims)) if isinstance(dims, Expr)
                               else st.integers(0, 6)), "ndims")
        self.call("dnnl_memory_desc_reshape", md, src, self.value(nd), self.value(dims))
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(target=mds, out=md_outs, src=md_ins, k=st.integers(0, 5), data=st.data())
    def md_permute_axes(self, out, src, k, data):
        md = self.md_out(out)
        perm = data.draw(pick((2, st.just(Expr("_perm(%s, %d)" % (self.ref(src), k)))),
                              any_dims_s), "permutation")
        self.call("dnnl_memory_desc_permute_axes", md, src, self.value(perm))
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(target=mds, out=md_outs, src=md_ins)
    def md_clone(self, out, src):
        md = self.md_out(out)
        self.call("dnnl_memory_desc_clone", md, self.value(src))
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(md=md_ins, what=query_arg, index=int_arg(st.integers(0, 2)), res=out_list)
    def md_query(self, md, what, index, res):
        md = self.value(md)
        self.call("dnnl_memory_desc_query", md, what, self.outlist(res))
        self.call("dnnl_memory_desc_query_v2", md, what, index, self.outlist(res))

    @rule(a=md_ins, b=md_ins, index=int_arg(st.just(0)))
    def md_compare_and_size(self, a, b, index):
        a, b = self.value(a), self.value(b)
        self.call("dnnl_memory_desc_equal", a, b, returns="int")
        self.call("dnnl_memory_desc_get_size", a, returns="int")
        self.call("dnnl_memory_desc_get_size_v2", b, index, returns="int")
        self.call("cydnnl_memory_desc_extent", a, returns="int")
        self.call("cydnnl_md2str", b, returns="str")

    # ---------------------------------------------------------- memories

    mem_ins = pick((4, mems), mds, bogus_handle)

    def handle_value(self, h, md):
        """A data handle argument: a Fit is sized for md."""
        if isinstance(h, Fit):
            return self.value(h.expr(self.ref(md)), "buf")
        if isinstance(h, Expr) and h != "c.DNNL_MEMORY_ALLOCATE":
            return self.value(h, "buf")
        return self.value(h)

    @rule(target=mems, out=pick((2, st.just(FRESH)), mems, bogus_handle),
          md=md_ins, engine=pick((3, engines), bogus_handle),
          handle=st.one_of(data_handle_arg, dhs), v2=st.integers(0, 3),
          nhandles=int_arg(st.just(1)))
    def memory_create(self, out, md, engine, handle, v2, nhandles):
        m = self.out(out, c.dnnl_memory_t, "mem")
        md, engine, h = self.value(md), self.value(engine), self.handle_value(handle, md)
        if v2 == 0:
            self.call("dnnl_memory_create_v2", m, md, engine, nhandles, self.value([h]))
        else:
            self.call("dnnl_memory_create", m, md, engine, h)
        return self.keep_if(m, c.dnnl_memory_t)

    @rule(target=mds, mem=mem_ins, out=md_outs)
    def memory_get_memory_desc(self, mem, out):
        md = self.md_out(out)
        self.call("dnnl_memory_get_memory_desc", self.value(mem), md)
        return self.keep_if(md, c.dnnl_memory_desc_t)

    @rule(target=engines, mem=mem_ins, out=st.one_of(st.just(FRESH), bogus_handle))
    def memory_get_engine(self, mem, out):
        e = self.out(out, c.dnnl_engine_t, "eng")
        self.call("dnnl_memory_get_engine", self.value(mem), e)
        return self.keep_if(e, c.dnnl_engine_t)

    @rule(target=dhs, mem=mem_ins, res=out_list, how=st.integers(0, 2),
          index=int_arg(st.just(0)))
    def memory_get_data_handle(self, mem, res, how, index):
        mem, res = self.value(mem), self.outlist(res)
        if how == 0:
            self.call("dnnl_memory_get_data_handle", mem, res)
        elif how == 1:
            self.call("dnnl_memory_get_data_handle_v2", mem, res, index)
        else:
            self.call("dnnl_memory_map_data", mem, res)
        dh = self.from_out(res, c.data_handle, "dh")
        if how == 2:
            self.call("dnnl_memory_unmap_data", mem, None if isinstance(dh, type(multiple()))
                      else dh)
        return dh

    @rule(mem=mem_ins, handle=pick((2, dhs), data_handle_arg), v2=st.booleans(),
          index=int_arg(st.just(0)))
    def memory_set_data_handle(self, mem, handle, v2, index):
        mem = self.value(mem)
        h = self.handle_value(handle, mem)   # _fit sizes for a memory's md too
        if v2:
            self.call("dnnl_memory_set_data_handle_v2", mem, h, index)
        else:
            self.call("dnnl_memory_set_data_handle", mem, h)

    # ---------------------------------------------------------- attributes

    attr_ins = pick((3, attrs), pds, bogus_handle)

    @rule(target=attrs, out=pick((2, st.just(FRESH)), attrs, bogus_handle),
          src=st.one_of(st.none(), attr_ins))
    def attr_create_or_clone(self, out, src):
        a = self.out(out, c.dnnl_primitive_attr_t, "attr")
        if src is None:
            self.call("dnnl_primitive_attr_create", a)
        else:
            self.call("dnnl_primitive_attr_clone", a, self.value(src))
        return self.keep_if(a, c.dnnl_primitive_attr_t)

    @rule(attr=attr_ins, smode=enum_arg("dnnl_scratchpad_mode_t"),
          fmode=enum_arg("dnnl_fpmath_mode_t"), res=out_list)
    def attr_set_get(self, attr, smode, fmode, res):
        attr = self.value(attr)
        self.call("dnnl_primitive_attr_set_scratchpad_mode", attr, smode)
        self.call("dnnl_primitive_attr_get_scratchpad_mode", attr, self.outlist(res))
        self.call("dnnl_primitive_attr_set_fpmath_mode", attr, fmode)
        self.call("dnnl_primitive_attr_get_fpmath_mode", attr, self.outlist(res))

    # ---------------------------------------------------------- misc

    @rule(fn=st.sampled_from(STR_FNS), v=int_arg(st.integers(-1, 300)))
    def to_str(self, fn, v):
        self.call(fn, self.value(v), returns="str")

    @rule(fn=st.sampled_from(INT_FNS), v=int_arg())
    def int_functions(self, fn, v):
        self.call(fn, self.value(v), returns="int")

    @rule(level=st.sampled_from(VERBOSE_LEVELS))
    def set_verbose(self, level):
        self.call("dnnl_set_verbose", level)
        self.call("cydnnl_last_error", returns="str")
        self.call("dnnl_version", returns=type(c.dnnl_version()))


any_dims_s = st.integers(0, 6).flatmap(dims_of_len)
