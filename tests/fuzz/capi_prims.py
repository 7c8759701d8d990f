"""The C-style machine's rules on primitives: every *_primitive_desc_create
(from consistent problems, with one argument sometimes broken, and from
arbitrary handles and values), primitive descriptor and primitive functions,
and execute (with memories fitted to what the descriptor asks, sometimes
mangled, and with random argument lists).

A mixin of `fuzz.capi.CApiMachine`; Bundles are shared by name.
"""

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, initialize, multiple, rule

import dnnl_c as c

from fuzz import problems as P
from fuzz.values import (ARG_IDS, Expr, arg_id, float_arg, enum_arg, hostile_int, int_arg,
                         junk, out_list, pick, query_arg, spatial, floats)

engines, streams, mds, mems = Bundle("engines"), Bundle("streams"), Bundle("mds"), Bundle("mems")
attrs, pds, prims, problems = Bundle("attrs"), Bundle("pds"), Bundle("prims"), Bundle("problems")

# The arguments of each create function after the output handle: (kind, key).
# Kinds: eng, prop, alg, md, dims, float, int, hint, attr; the key names the
# problem's tensor or parameter.
SIGS = {
    "dnnl_reorder_primitive_desc_create": [
        ("md", "src"), ("eng", None), ("md", "dst"), ("eng", None), ("attr", None)],
    "dnnl_convolution_forward_primitive_desc_create": [
        ("eng", None), ("prop", None), ("alg", "alg"), ("md", "src"), ("md", "weights"),
        ("md", "bias"), ("md", "dst"), ("dims", "strides"), ("dims", "dilates"),
        ("dims", "padding_l"), ("dims", "padding_r"), ("attr", None)],
    "dnnl_convolution_backward_data_primitive_desc_create": [
        ("eng", None), ("alg", "alg"), ("md", "diff_src"), ("md", "weights"),
        ("md", "diff_dst"), ("dims", "strides"), ("dims", "dilates"), ("dims", "padding_l"),
        ("dims", "padding_r"), ("hint", None), ("attr", None)],
    "dnnl_convolution_backward_weights_primitive_desc_create": [
        ("eng", None), ("alg", "alg"), ("md", "src"), ("md", "diff_weights"),
        ("md", "diff_bias"), ("md", "diff_dst"), ("dims", "strides"), ("dims", "dilates"),
        ("dims", "padding_l"), ("dims", "padding_r"), ("hint", None), ("attr", None)],
    "dnnl_eltwise_forward_primitive_desc_create": [
        ("eng", None), ("prop", None), ("alg", "alg"), ("md", "src"), ("md", "dst"),
        ("float", "alpha"), ("float", "beta"), ("attr", None)],
    "dnnl_eltwise_backward_primitive_desc_create": [
        ("eng", None), ("alg", "alg"), ("md", "diff_src"), ("md", "diff_dst"), ("md", "src"),
        ("float", "alpha"), ("float", "beta"), ("hint", None), ("attr", None)],
    "dnnl_lrn_forward_primitive_desc_create": [
        ("eng", None), ("prop", None), ("alg", "alg"), ("md", "src"), ("md", "dst"),
        ("int", "local_size"), ("float", "alpha"), ("float", "beta"), ("float", "k"),
        ("attr", None)],
    "dnnl_lrn_backward_primitive_desc_create": [
        ("eng", None), ("alg", "alg"), ("md", "diff_src"), ("md", "diff_dst"), ("md", "src"),
        ("int", "local_size"), ("float", "alpha"), ("float", "beta"), ("float", "k"),
        ("hint", None), ("attr", None)],
    "dnnl_pooling_forward_primitive_desc_create": [
        ("eng", None), ("prop", None), ("alg", "alg"), ("md", "src"), ("md", "dst"),
        ("dims", "strides"), ("dims", "kernel"), ("dims", "dilation"), ("dims", "padding_l"),
        ("dims", "padding_r"), ("attr", None)],
    "dnnl_pooling_backward_primitive_desc_create": [
        ("eng", None), ("alg", "alg"), ("md", "diff_src"), ("md", "diff_dst"),
        ("dims", "strides"), ("dims", "kernel"), ("dims", "dilation"), ("dims", "padding_l"),
        ("dims", "padding_r"), ("hint", None), ("attr", None)],
}
FAMILY_FNS = {
    "reorder": ["dnnl_reorder_primitive_desc_create"],
    "convolution": ["dnnl_convolution_forward_primitive_desc_create",
                    "dnnl_convolution_backward_data_primitive_desc_create",
                    "dnnl_convolution_backward_weights_primitive_desc_create"],
    "eltwise": ["dnnl_eltwise_forward_primitive_desc_create",
                "dnnl_eltwise_backward_primitive_desc_create"],
    "lrn": ["dnnl_lrn_forward_primitive_desc_create", "dnnl_lrn_backward_primitive_desc_create"],
    "pooling": ["dnnl_pooling_forward_primitive_desc_create",
                "dnnl_pooling_backward_primitive_desc_create"],
}
PROPS = [c.dnnl_forward_training, c.dnnl_forward_training, c.dnnl_forward_inference]
BOGUS = st.one_of(st.sampled_from([None, 0, -1, "x", Expr("c.dnnl_memory_desc_t()"),
                                   Expr("c.dnnl_engine_t()"), Expr("c.dnnl_primitive_desc_t()"),
                                   Expr("np.zeros(3)")]), junk)
hostile = st.one_of(hostile_int, junk, BOGUS, floats, spatial())
# (index of the argument to break, what to put there), or nothing broken
mutation = pick((3, st.none()), st.tuples(st.integers(0, 11), hostile))
# how execute_fitted mangles its argument list
MANGLES = [None] * 6 + ["drop", "dup", "swap", "foreign", "nargs+1", "nargs-1", "no_handle",
                        "destroy", "zero_md"]


def _is_fwd(fn):
    return "forward" in fn


class PrimitiveRules:
    """Rules on primitive descriptors, primitives and execute."""

    # ---------------------------------------------------------- creation

    def make_problem(self, spec):
        """Creates the problem's memory descriptors (logged calls)."""
        for role, (dims, dt, tag) in spec.tensors.items():
            md = self.bind(c.dnnl_memory_desc_t(), "md", "c.dnnl_memory_desc_t()")
            if self.call("dnnl_memory_desc_create_with_tag", md, len(dims), dims, dt, tag) == 0:
                self.check_size(md, dims)
            spec.mds[role] = md
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
        """A problem all the way: descriptor, primitive, fitted memories, execute."""
        d = data.draw
        prob, which = d(problems), d(st.integers(0, 2))
        pd = self.create_pd(self.problem_fn(prob, which), prob, "<fresh>", data, d(mutation))
        if type(pd) is not c.dnnl_primitive_desc_t or not pd:
            return
        prim = self.bind(c.dnnl_primitive_t(), "prim", "c.dnnl_primitive_t()")
        if self.call("dnnl_primitive_create", prim, pd) == c.dnnl_success:
            self.run_fitted(prim, self.value(d(pick((5, streams), BOGUS))),
                            self.value(d(pick((5, engines), BOGUS))), d(st.integers(0, 2**16)),
                            d(st.booleans()), d(st.sampled_from(MANGLES)), d(st.integers(0, 7)),
                            d(mems))

    def arg_for(self, kind, key, prob, draw):
        """One creation argument: from the problem when there is one."""
        # with a problem, arguments are right unless `broken` breaks one
        if kind == "eng":
            return draw(engines if prob is not None else pick((3, engines), BOGUS))
        if kind == "attr":
            return draw(pick((2, st.none()), attrs) if prob is not None
                        else pick((2, st.none()), attrs, BOGUS))
        if kind == "prop":
            return draw(enum_arg("dnnl_prop_kind_t", PROPS) if prob is None
                        else st.sampled_from(PROPS))
        if kind == "hint":
            if prob is not None and prob.fwd_pd is not None and draw(st.integers(0, 4)):
                return prob.fwd_pd
            return draw(pick(st.none(), (2, pds), BOGUS))
        if prob is not None:
            if kind == "md":
                return prob.mds.get(key)
            return prob.params.get(key, 1.0)
        if kind == "md":
            return draw(pick((3, mds), st.none(), BOGUS))
        if kind == "alg":
            return draw(enum_arg("dnnl_alg_kind_t"))
        if kind == "dims":
            return draw(spatial(st.integers(0, 4), st.integers(-2, 4)))
        if kind == "int":
            return draw(int_arg(st.integers(1, 7)))
        return draw(float_arg())

    def create_pd(self, fn, prob, out, data, broken):
        args = [self.arg_for(kind, key, prob, data.draw) for kind, key in SIGS[fn]]
        if broken is not None:
            i, v = broken
            args[i % len(args)] = v
        pd = self.out(out, c.dnnl_primitive_desc_t, "pd")
        args = [self.value(a) for a in args]
        st_ = self.call(fn, pd, *args)
        if prob is not None and st_ == c.dnnl_success and _is_fwd(fn) and broken is None:
            prob.fwd_pd = pd
        return self.keep_if(pd, c.dnnl_primitive_desc_t)

    pd_outs = pick((3, st.just("<fresh>")), pds, BOGUS)

    @rule(target=pds, prob=problems, which=st.integers(0, 2), out=pd_outs, data=st.data(),
          broken=mutation)
    def pd_create_for_problem(self, prob, which, out, data, broken):
        return self.create_pd(self.problem_fn(prob, which), prob, out, data, broken)

    @staticmethod
    def problem_fn(prob, which):
        fns = FAMILY_FNS[prob.family]
        # forward first while there is none, so backward gets a hint
        return fns[0] if prob.fwd_pd is None and which else fns[which % len(fns)]

    @rule(target=pds, fn=st.sampled_from(sorted(SIGS)), out=pd_outs, data=st.data())
    def pd_create_any(self, fn, out, data):
        return self.create_pd(fn, None, out, data, None)

    # ---------------------------------------------------------- primitive descriptors

    pd_ins = pick((4, pds), prims, mds, BOGUS)

    @rule(pd=pd_ins, n=st.integers(1, 3))
    def pd_next_impl(self, pd, n):
        pd = self.value(pd)
        for _ in range(n):
            self.call("dnnl_primitive_desc_next_impl", pd)

    @rule(target=pds, pd=pd_ins, out=pd_outs)
    def pd_clone(self, pd, out):
        o = self.out(out, c.dnnl_primitive_desc_t, "pd")
        self.call("dnnl_primitive_desc_clone", o, self.value(pd))
        return self.keep_if(o, c.dnnl_primitive_desc_t)

    @rule(pd=pd_ins, what=query_arg, index=int_arg(st.integers(0, 3)), res=out_list)
    def pd_query(self, pd, what, index, res):
        pd = self.value(pd)
        self.call("dnnl_primitive_desc_query", pd, what, index, self.outlist(res))
        self.call("dnnl_primitive_desc_query_s32", pd, what, index, returns="int")

    @rule(target=mds, pd=pd_ins, index=int_arg(st.integers(0, 2)),
          what=int_arg(st.one_of(st.integers(c.dnnl_query_some_md, c.dnnl_query_exec_arg_md),
                                 st.sampled_from(ARG_IDS))))
    def pd_query_md(self, pd, what, index):
        what_md = c.dnnl_query_exec_arg_md if what in ARG_IDS else what
        index = what if what in ARG_IDS else index
        md = self.call("dnnl_primitive_desc_query_md", self.value(pd), what_md, index,
                       returns="md_or_none")
        return self.bind(md, "md", "r") if type(md) is c.dnnl_memory_desc_t else multiple()

    @rule(target=attrs, pd=pd_ins, out=st.one_of(st.just("<fresh>"), BOGUS))
    def pd_get_attr(self, pd, out):
        a = self.out(out, c.dnnl_primitive_attr_t, "attr")
        self.call("dnnl_primitive_desc_get_attr", self.value(pd), a)
        return self.keep_if(a, c.dnnl_primitive_attr_t)

    # ---------------------------------------------------------- primitives

    @rule(target=prims, pd=pd_ins, out=pick((2, st.just("<fresh>")), prims, BOGUS))
    def prim_create(self, pd, out):
        p = self.out(out, c.dnnl_primitive_t, "prim")
        self.call("dnnl_primitive_create", p, self.value(pd))
        return self.keep_if(p, c.dnnl_primitive_t)

    @rule(target=pds, prim=pick((2, prims), pds, BOGUS),
          out=st.one_of(st.just("<fresh>"), BOGUS))
    def prim_get_pd(self, prim, out):
        pd = self.out(out, c.dnnl_primitive_desc_t, "pd")
        self.call("dnnl_primitive_get_primitive_desc", self.value(prim), pd)
        return self.keep_if(pd, c.dnnl_primitive_desc_t)

    exec_item = st.one_of(
        st.tuples(arg_id, pick((3, mems), BOGUS)),
        st.tuples(st.sampled_from(ARG_IDS), mems).map(lambda t: ("exec_arg",) + t),
        junk)

    @rule(prim=pick((3, prims), BOGUS), stream=pick((2, streams), BOGUS),
          items=st.lists(exec_item, max_size=6), nargs=st.one_of(st.none(), hostile_int, junk))
    def execute_random(self, prim, stream, items, nargs):
        args = []
        for it in items:
            if isinstance(it, tuple) and it and it[0] == "exec_arg":
                ea = c.dnnl_exec_arg_t(it[1], it[2])
                self.names[id(ea)] = "c.dnnl_exec_arg_t(%d, %s)" % (it[1], self.src(it[2]))
                self.keep.append(ea)
                args.append(ea)
            else:
                args.append(self.value(it))
        args = self.value(args, "args")
        n = len(args) if nargs is None else self.value(nargs)
        self.call("dnnl_primitive_execute", self.value(prim), self.value(stream), n, args)

    @rule(prim=pick((4, prims), BOGUS), stream=pick((3, streams), BOGUS),
          engine=pick((3, engines), BOGUS),
          noise=st.integers(0, 2**16), user=st.booleans(), mangle=st.sampled_from(MANGLES),
          at=st.integers(0, 7), other=mems)
    def execute_fitted(self, prim, stream, engine, noise, user, mangle, at, other):
        self.run_fitted(self.value(prim), self.value(stream), self.value(engine), noise, user,
                        mangle, at, other)

    def run_fitted(self, prim, stream, engine, noise, user, mangle, at, other):
        """Memories for every argument the primitive's descriptor asks for
        (random bytes in user buffers, or library buffers), then execute,
        the argument list mangled as `mangle` says."""
        pd = self.bind(c.dnnl_primitive_desc_t(), "pd", "c.dnnl_primitive_desc_t()")
        self.call("dnnl_primitive_get_primitive_desc", prim, pd)
        args = []
        for arg in sorted(set(ARG_IDS)):
            md = self.call("dnnl_primitive_desc_query_md", pd, c.dnnl_query_exec_arg_md, arg,
                           returns="md_or_none")
            if type(md) is not c.dnnl_memory_desc_t:
                continue
            md = self.bind(md, "md", "r")
            if self.call("dnnl_memory_desc_get_size", md, returns="int") in (0, None):
                continue
            mem = self.bind(c.dnnl_memory_t(), "mem", "c.dnnl_memory_t()")
            h = (self.value(Expr("_noise(%s, %d)" % (self.ref(md), noise + arg)), "buf")
                 if user else self.value(Expr("c.DNNL_MEMORY_ALLOCATE")))
            if mangle == "zero_md" and at % 4 == 0:
                md = None
            self.call("dnnl_memory_create", mem, md, engine, h)
            args.append((arg, mem))
        n = len(args)
        if args:
            k = at % len(args)
            if mangle == "drop":
                del args[k]
            elif mangle == "dup":
                args.append(args[k])
            elif mangle == "swap" and len(args) > 1:
                args[0], args[k] = (args[0][0], args[k][1]), (args[k][0], args[0][1])
            elif mangle == "foreign":
                args[k] = (args[k][0], other)
            elif mangle == "no_handle":
                self.call("dnnl_memory_set_data_handle", args[k][1], None)
            elif mangle == "destroy":
                self.call("dnnl_memory_destroy", args[k][1])
        n = {"nargs+1": n + 1, "nargs-1": n - 1}.get(mangle, len(args))
        args = self.value(args, "args")
        self.call("dnnl_primitive_execute", prim, stream, n, args)
