"""dnnl.primitive_desc_base, dnnl.primitive_desc and dnnl.primitive (oneDNN's
dnnl::primitive), and the helpers every primitive family's primitive_desc uses: _wrap_c_pd()
for the form over a dnnl_c pd handle, _overloads for the C++ overloads and
their parameter names."""

import numbers
from collections.abc import Mapping

import dnnl_c as c
from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._enums import algorithm, primitive_kind, prop_kind, query, rnn_direction
from dnnl._error import error
from dnnl._handle import _c, _type_name, handle
from dnnl._memory import desc, memory
from dnnl._stream import stream


class primitive_desc_base(handle):
    """The base of every primitive descriptor: a problem (kind, propagation,
    algorithm, memory descriptors) bound to the implementation that will
    run it, and the queries every descriptor answers. oneDNN's
    dnnl::primitive_desc_base."""

    _destroy = staticmethod(c.dnnl_primitive_desc_destroy)

    def __init__(self, pd=None, prim_kind=None, prop_kind1=None, prop_kind2=None):
        """Over a dnnl_c pd handle (C++'s pd), checked against prim_kind and
        the propagation kinds when given; empty without one."""
        super().__init__(pd)
        if pd is not None and prim_kind is not None:
            self._check_kind(prim_kind, [p for p in (prop_kind1, prop_kind2) if p is not None])

    def _check_kind(self, prim_kind, prop_kinds):
        kind = self._query(c.dnnl_query_primitive_kind)
        if kind != prim_kind:
            raise error(c.dnnl_invalid_arguments,
                        "primitive descriptor operation kind mismatch: %s, expected %s"
                        % (c.dnnl_prim_kind2str(kind), c.dnnl_prim_kind2str(prim_kind)))
        if prop_kinds:
            pk = self._query(c.dnnl_query_prop_kind)
            if pk not in [int(p) for p in prop_kinds]:
                raise error(c.dnnl_invalid_arguments,
                            "primitive descriptor propagation kind mismatch: %s"
                            % c.dnnl_prop_kind2str(pk))

    def _create(self, status, c_pd, what, allow_empty):
        """Adopts a freshly created dnnl_c pd, or raises (or stays empty)."""
        if status != c.dnnl_success:
            if allow_empty:
                return
            error.wrap_c_api(status, "could not create a primitive descriptor for %s" % what)
        self.reset(c_pd)

    def _query(self, what, index=0):
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_desc_query(self.get(), what, index, out),
                         "could not query %s" % c.dnnl_query2str(what))
        return out[0]

    def query_md(self, what, idx=0):
        """The memory descriptor a query names (query.src_md, ..., exec_arg_md
        with an argument index); the zero desc when there is none."""
        md = c.dnnl_primitive_desc_query_md(self.get(), what, idx)
        if md is None:
            return desc()
        clone = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_clone(clone, md),
                         "could not clone a memory descriptor")
        return desc(clone)

    def src_desc(self, idx=0):
        """The source memory descriptor (idx: which source)."""
        return self.query_md(query.src_md, idx)

    def dst_desc(self, idx=0):
        """The destination memory descriptor (idx: which destination)."""
        return self.query_md(query.dst_md, idx)

    def weights_desc(self, idx=0):
        """The weights memory descriptor (idx 1: the bias, where there is one)."""
        return self.query_md(query.weights_md, idx)

    def diff_src_desc(self, idx=0):
        """The gradient-of-source memory descriptor."""
        return self.query_md(query.diff_src_md, idx)

    def diff_dst_desc(self, idx=0):
        """The gradient-of-destination memory descriptor."""
        return self.query_md(query.diff_dst_md, idx)

    def diff_weights_desc(self, idx=0):
        """The gradient-of-weights memory descriptor (idx 1: diff bias)."""
        return self.query_md(query.diff_weights_md, idx)

    def workspace_desc(self):
        """The workspace a forward-training primitive leaves for its backward
        (the zero desc when none is needed)."""
        return self.query_md(query.workspace_md, 0)

    def scratchpad_desc(self):
        """The scratchpad the primitive needs when the user provides it
        (scratchpad_mode.user)."""
        return self.query_md(query.scratchpad_md, 0)

    def impl_info_str(self):
        """The name of the implementation chosen, e.g. gemm:avx2."""
        return self._query(c.dnnl_query_impl_info_str)

    def get_engine(self):
        """The engine the primitive will run on."""
        return engine(c_engine=self._query(c.dnnl_query_engine), weak=True)

    def scratchpad_engine(self):
        """The engine of the scratchpad memory."""
        return engine(c_engine=self._query(c.dnnl_query_scratchpad_engine), weak=True)

    def get_primitive_attr(self):
        """A copy of the attributes the descriptor was created with."""
        a = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_desc_get_attr(self.get(), a),
                         "could not get attributes")
        clone = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_attr_clone(clone, a), "could not clone attributes")
        return primitive_attr(clone)

    def get_kind(self):
        """The primitive kind, a primitive.kind."""
        return primitive.kind(self._query(c.dnnl_query_primitive_kind))

    def get_prop_kind(self):
        """The propagation kind, a prop_kind."""
        return prop_kind(self._query(c.dnnl_query_prop_kind))

    def get_algorithm(self):
        """The algorithm, an algorithm."""
        return algorithm(self._query(c.dnnl_query_alg_kind))

    def get_cell_kind(self):
        """The RNN cell kind, an algorithm (vanilla_lstm, ...)."""
        return algorithm(self._query(c.dnnl_query_cell_kind))

    def get_activation_kind(self):
        """The RNN activation kind, an algorithm."""
        return algorithm(self._query(c.dnnl_query_activation_kind))

    def get_direction(self):
        """The RNN direction, an rnn_direction."""
        return rnn_direction(self._query(c.dnnl_query_direction))

    def get_flags(self):
        """The RNN flags."""
        return self._query(c.dnnl_query_flags)

    def get_alpha(self):
        """The alpha parameter (eltwise, LRN)."""
        return self._query(c.dnnl_query_alpha_f32)

    def get_beta(self):
        """The beta parameter (eltwise, LRN)."""
        return self._query(c.dnnl_query_beta_f32)

    def get_k(self):
        """The k parameter (LRN)."""
        return self._query(c.dnnl_query_k_f32)

    def get_local_size(self):
        """The local size (LRN)."""
        return self._query(c.dnnl_query_local_size_s64)

    def get_strides(self):
        """The strides (convolution, pooling)."""
        return list(self._query(c.dnnl_query_strides))

    def get_dilations(self):
        """The dilations (convolution, pooling)."""
        return list(self._query(c.dnnl_query_dilations))

    def get_padding_l(self):
        """The padding at the start of each spatial dim."""
        return list(self._query(c.dnnl_query_padding_l))

    def get_padding_r(self):
        """The padding at the end of each spatial dim."""
        return list(self._query(c.dnnl_query_padding_r))

    def get_kernel(self):
        """The kernel (pooling)."""
        return list(self._query(c.dnnl_query_kernel))

    def query_s32(self, what, idx=0):
        """An int32 query."""
        return self._query(what, idx)

    def query_s64(self, what, idx=0):
        """An int64 query."""
        return self._query(what, idx)

    # The queries of kinds this library does not implement (normalizations,
    # softmax, resampling, shuffle, group normalization): every primitive
    # descriptor here answers them with dnnl.error (unimplemented), as
    # oneDNN's do for kinds they do not apply to.
    def get_epsilon(self):
        """The epsilon of a normalization (no kind here has one)."""
        return self._query(c.dnnl_query_epsilon_f32)

    def get_axis(self):
        """The axis of a softmax or shuffle (no kind here has one)."""
        return self._query(c.dnnl_query_axis_s32)

    def get_p(self):
        """The p of an LP-norm reduction (no kind here has one)."""
        return self._query(c.dnnl_query_p_f32)

    def get_factors(self):
        """The scaling factors of a resampling (no kind here has them)."""
        return self._query(c.dnnl_query_factors)

    def get_group_size(self):
        """The group size of a shuffle (no kind here has one)."""
        return self._query(c.dnnl_query_group_size_s64)

    def get_cache_blob_id(self):
        """The cache blob id as bytes: empty, as oneDNN's CPU engine has no
        cache blobs."""
        return self._query(c.dnnl_query_cache_blob_id)

    def next_impl(self):
        """Moves to the next implementation that accepts the problem; False
        (and no change) when there is none."""
        st = c.dnnl_primitive_desc_next_impl(self.get())
        if st == c.dnnl_last_impl_reached:
            return False
        error.wrap_c_api(st, "could not advance to the next implementation")
        return True

    def _describe(self):
        """'impl prop_kind algorithm src ... dst ...' for reprs."""
        words = [self.impl_info_str()]
        for what, shown in ((c.dnnl_query_prop_kind, lambda v: prop_kind(v).name),
                            (c.dnnl_query_alg_kind, lambda v: algorithm(v).name)):
            out = [None]
            if c.dnnl_primitive_desc_query(self.get(), what, 0, out) == c.dnnl_success \
                    and out[0]:
                words.append(shown(out[0]))
        for name in ("src", "weights", "dst", "diff_src", "diff_weights", "diff_dst"):
            md = getattr(self, name + "_desc")()
            if not md.is_zero():
                words.append("%s %s" % (name, md._describe(weights="weights" in name)))
        return " ".join(words)

    def __repr__(self):
        if not self._h:
            return "<%s empty>" % _type_name(self)
        return "<%s %s>" % (_type_name(self), self._describe())


class primitive_desc(primitive_desc_base):
    """The base of the primitive descriptors of every primitive but
    reorder; next_impl() walks their implementations. oneDNN's
    dnnl::primitive_desc."""


def _wrap_c_pd(self, args, kind, prop_kinds=(), kwargs=None):
    """Handles C++'s `primitive_desc(dnnl_primitive_desc_t pd)` form (pd
    positional or by name); True when it applied."""
    kwargs = kwargs or {}
    if len(args) == 1 and not kwargs:
        c_pd = args[0]
    elif not args and list(kwargs) == ["pd"]:
        c_pd = kwargs["pd"]
    else:
        return False
    if not isinstance(c_pd, c.dnnl_primitive_desc_t):
        return False
    # a private copy: the handle may belong to a primitive
    clone = c.dnnl_primitive_desc_t()
    error.wrap_c_api(c.dnnl_primitive_desc_clone(clone, c_pd),
                     "could not clone a primitive descriptor")
    self.reset(clone)
    self._check_kind(kind, prop_kinds)
    return True


# Kinds of C++ parameters the binder tells apart by name; a parameter not
# named here takes anything (dnnl_c checks engines, enums and numbers).
_DIMS = ("strides", "dilates", "dilation", "kernel", "padding_l", "padding_r")
_FLOATS = ("alpha", "beta", "k")
_OPTIONAL_DESCS = ("bias_desc", "diff_bias_desc")


def _kind(name):
    if name in _OPTIONAL_DESCS:
        return "desc?"
    if name.endswith(("_desc", "_md")):
        return "desc"
    if name in _DIMS:
        return "dims"
    if name in _FLOATS:
        return "float"
    if name in ("src", "dst"):
        return "memory"
    if name in ("hint_fwd_pd", "attr", "allow_empty"):
        return name
    return "any"


class _overloads:
    """The C++ overloads of a constructor, each a list of dnnl.hpp's parameter
    names ("attr" and "allow_empty" optional, as C++'s defaults). bind()
    takes positional and keyword arguments, as C++ positions or by name, and
    picks the first overload they fit, told apart by the arguments' kinds
    (memory.desc, dims, numbers, hint, attr)."""

    def __init__(self, what, *signatures, hint=None):
        self.what = what
        self.hint = hint
        self.signatures = [[p.strip() for p in sig.split(",")] for sig in signatures]

    def usage(self):
        return " or ".join("(%s)" % ", ".join(
            p + ("=None" if p == "attr" else "=False" if p == "allow_empty" else "")
            for p in sig) for sig in self.signatures)

    def _mismatch(self, name, value):
        """Why value cannot be parameter `name`, or None when it can."""
        kind = _kind(name)
        if kind == "desc?" and value is None:
            return None
        if kind in ("desc", "desc?") and not isinstance(value, desc):
            return "%s must be a memory.desc, not %s" % (name, _type_name(value))
        if kind == "memory" and not isinstance(value, memory):
            return "%s must be a memory, not %s" % (name, _type_name(value))
        if kind == "dims" and (value is None or isinstance(
                value, (desc, memory, primitive_desc_base, primitive_attr))):
            return "%s must be a list of ints, not %s" % (name, _type_name(value))
        if kind == "float" and (not isinstance(value, numbers.Real) or isinstance(value, bool)):
            return "%s must be a number, not %s" % (name, _type_name(value))
        if kind == "hint_fwd_pd" and not isinstance(value, self.hint):
            return "expected hint_fwd_pd, a %s, not %s" % (self.hint.__qualname__,
                                                           _type_name(value))
        if kind == "attr" and value is not None and not isinstance(value, primitive_attr):
            return "unexpected arguments: %s (attr must be a primitive_attr)" \
                % _type_name(value)
        if kind == "allow_empty" and not isinstance(value, (bool, int)):
            return "unexpected arguments: %s (allow_empty must be a bool)" % _type_name(value)
        return None

    def bind(self, args, kwargs):
        """{parameter: value} of the first overload the arguments fit, with
        attr and allow_empty always present; raises dnnl.error naming the
        argument that fits no overload."""
        best = None          # (position, message) of the mismatch found last
        for sig in self.signatures:
            if len(args) > len(sig) or any(k not in sig for k in kwargs):
                continue
            bound = dict(zip(sig, args))
            if any(k in bound for k in kwargs):
                continue
            bound.update(kwargs)
            bound.setdefault("attr", None)
            bound.setdefault("allow_empty", False)
            if any(p not in bound for p in sig):
                continue
            for pos, name in enumerate(sig):
                why = self._mismatch(name, bound[name])
                if why is not None:
                    if best is None or pos > best[0]:
                        best = (pos, why)
                    break
            else:
                bound["allow_empty"] = bool(bound["allow_empty"])
                return bound
        if best is not None:
            raise error(c.dnnl_invalid_arguments, "%s: %s" % (self.what, best[1]))
        unknown = [k for k in kwargs if not any(k in sig for sig in self.signatures)]
        raise error(c.dnnl_invalid_arguments, "%s %s; it takes %s" % (
            self.what, "has no parameter %s" % ", ".join(unknown) if unknown else
            "got %d positional and %d keyword arguments" % (len(args), len(kwargs)),
            self.usage()))


class primitive(handle):
    """The base of the primitives: an operation made from a primitive
    descriptor, executed on a stream with memories for its arguments.
    oneDNN's dnnl::primitive."""

    kind = primitive_kind
    _destroy = staticmethod(c.dnnl_primitive_destroy)

    def __init__(self, pd=None, cache_blob=None):
        """The primitive of pd (a primitive_desc or a dnnl_c pd handle);
        empty without one. cache_blob: oneDNN's CPU engine has no cache
        blobs, so one given is dnnl.error (unimplemented)."""
        super().__init__()
        if pd is None:
            return
        c_pd = pd if isinstance(pd, c.dnnl_primitive_desc_t) else \
            _c(pd, "pd", primitive_desc_base)
        h = c.dnnl_primitive_t()
        if cache_blob is not None:      # the CPU engine has none: dnnl.error (unimplemented)
            blob = bytes(cache_blob)
            error.wrap_c_api(c.dnnl_primitive_create_from_cache_blob(h, c_pd, len(blob), blob),
                             "could not create a primitive from a cache blob")
        error.wrap_c_api(c.dnnl_primitive_create(h, c_pd), "could not create a primitive")
        self._h = h

    def get_cache_blob(self):
        """oneDNN's CPU engine has no cache blobs: dnnl.error (unimplemented)."""
        size = [None]
        error.wrap_c_api(c.dnnl_primitive_get_cache_blob(self.get(), size, None),
                         "could not get cache blob size from a primitive")
        return b""

    def get_primitive_desc(self):
        """The primitive's own descriptor, as a dnnl_c handle (C++ returns
        const_dnnl_primitive_desc_t)."""
        pd = c.dnnl_primitive_desc_t()
        error.wrap_c_api(c.dnnl_primitive_get_primitive_desc(self.get(), pd),
                         "could not get a primitive descriptor from a primitive")
        return pd

    def get_kind(self):
        """The primitive kind, a primitive.kind."""
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_desc_query(self.get_primitive_desc(),
                                                     c.dnnl_query_primitive_kind, 0, out),
                         "could not get a primitive kind")
        return primitive.kind(out[0])

    def execute(self, astream, args):
        """Runs the primitive on astream with args, {DNNL_ARG_*: memory} for
        every argument its descriptor asks for; it has finished when execute
        returns."""
        # a dict first: the ABC's isinstance takes 0.2 us, a tenth of a tiny
        # primitive's execute
        if type(args) is not dict and not isinstance(args, Mapping):
            raise error(c.dnnl_invalid_arguments, "execute arguments must be a dict "
                        "{DNNL_ARG_*: memory}, not %s" % _type_name(args))
        # keys go to dnnl_c as they are: it checks that they are ints. Messages
        # are made only on errors: execute is on every step's path (a small
        # reorder takes 30 us, formatting them took 1).
        self._run(astream, [(k, v._h if isinstance(v, memory) else
                             _c(v, "the memory of argument %r" % (k,), memory))
                            for k, v in args.items()])

    def _run(self, astream, c_args):
        """execute's call into dnnl_c: c_args (arg, dnnl_c memory) pairs."""
        status = c.dnnl_primitive_execute(
            self._h or self.get(), astream._h if isinstance(astream, stream) else
            _c(astream, "astream", stream), len(c_args), c_args)
        if status != c.dnnl_success:
            error.wrap_c_api(status, "could not execute a primitive")

    def __repr__(self):
        if not self._h:
            return "<%s empty>" % _type_name(self)
        pd = primitive_desc_base()
        pd.reset(self.get_primitive_desc(), weak=True)     # the primitive's own
        return "<%s %s>" % (_type_name(self), pd._describe())
