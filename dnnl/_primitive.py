"""dnnl.primitive_desc_base, dnnl.primitive_desc and dnnl.primitive (oneDNN's
dnnl::primitive),
and the helpers every primitive family's primitive_desc uses: _wrap_c_pd()
for the form over a dnnl_c pd handle, _tail() for the optional arguments."""

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
    """oneDNN's dnnl::primitive_desc_base: the queries every primitive
    descriptor answers."""

    _destroy = staticmethod(c.dnnl_primitive_desc_destroy)

    def __init__(self, c_pd=None, prim_kind=None, prop_kind1=None, prop_kind2=None):
        super().__init__(c_pd)
        if c_pd is not None and prim_kind is not None:
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
        md = c.dnnl_primitive_desc_query_md(self.get(), what, idx)
        if md is None:
            return desc()
        clone = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_clone(clone, md),
                         "could not clone a memory descriptor")
        return desc(clone)

    def src_desc(self, idx=0):
        return self.query_md(query.src_md, idx)

    def dst_desc(self, idx=0):
        return self.query_md(query.dst_md, idx)

    def weights_desc(self, idx=0):
        return self.query_md(query.weights_md, idx)

    def diff_src_desc(self, idx=0):
        return self.query_md(query.diff_src_md, idx)

    def diff_dst_desc(self, idx=0):
        return self.query_md(query.diff_dst_md, idx)

    def diff_weights_desc(self, idx=0):
        return self.query_md(query.diff_weights_md, idx)

    def workspace_desc(self):
        return self.query_md(query.workspace_md, 0)

    def scratchpad_desc(self):
        return self.query_md(query.scratchpad_md, 0)

    def impl_info_str(self):
        return self._query(c.dnnl_query_impl_info_str)

    def get_engine(self):
        return engine(c_engine=self._query(c.dnnl_query_engine), weak=True)

    def scratchpad_engine(self):
        return engine(c_engine=self._query(c.dnnl_query_scratchpad_engine), weak=True)

    def get_primitive_attr(self):
        a = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_desc_get_attr(self.get(), a),
                         "could not get attributes")
        clone = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_attr_clone(clone, a), "could not clone attributes")
        return primitive_attr(clone)

    def get_kind(self):
        return primitive.kind(self._query(c.dnnl_query_primitive_kind))

    def get_prop_kind(self):
        return prop_kind(self._query(c.dnnl_query_prop_kind))

    def get_algorithm(self):
        return algorithm(self._query(c.dnnl_query_alg_kind))

    def get_cell_kind(self):
        return algorithm(self._query(c.dnnl_query_cell_kind))

    def get_activation_kind(self):
        return algorithm(self._query(c.dnnl_query_activation_kind))

    def get_direction(self):
        return rnn_direction(self._query(c.dnnl_query_direction))

    def get_flags(self):
        return self._query(c.dnnl_query_flags)

    def get_alpha(self):
        return self._query(c.dnnl_query_alpha_f32)

    def get_beta(self):
        return self._query(c.dnnl_query_beta_f32)

    def get_k(self):
        return self._query(c.dnnl_query_k_f32)

    def get_local_size(self):
        return self._query(c.dnnl_query_local_size_s64)

    def get_strides(self):
        return list(self._query(c.dnnl_query_strides))

    def get_dilations(self):
        return list(self._query(c.dnnl_query_dilations))

    def get_padding_l(self):
        return list(self._query(c.dnnl_query_padding_l))

    def get_padding_r(self):
        return list(self._query(c.dnnl_query_padding_r))

    def get_kernel(self):
        return list(self._query(c.dnnl_query_kernel))

    def query_s32(self, what, idx=0):
        return self._query(what, idx)

    def query_s64(self, what, idx=0):
        return self._query(what, idx)

    # The queries of kinds this library does not implement (normalizations,
    # softmax, resampling, shuffle, group normalization): every primitive
    # descriptor here answers them with dnnl.error (unimplemented), as
    # oneDNN's do for kinds they do not apply to.
    def get_epsilon(self):
        return self._query(c.dnnl_query_epsilon_f32)

    def get_axis(self):
        return self._query(c.dnnl_query_axis_s32)

    def get_p(self):
        return self._query(c.dnnl_query_p_f32)

    def get_factors(self):
        return self._query(c.dnnl_query_factors)

    def get_group_size(self):
        return self._query(c.dnnl_query_group_size_s64)

    def get_cache_blob_id(self):
        """The cache blob id as bytes: empty, as oneDNN's CPU engine has no
        cache blobs."""
        return self._query(c.dnnl_query_cache_blob_id)

    def next_impl(self):
        """Moves to the next implementation; False when there is none."""
        st = c.dnnl_primitive_desc_next_impl(self.get())
        if st == c.dnnl_last_impl_reached:
            return False
        error.wrap_c_api(st, "could not advance to the next implementation")
        return True


class primitive_desc(primitive_desc_base):
    """oneDNN's dnnl::primitive_desc: the base of the primitive descriptors
    of the primitives other than reorder, which may walk the implementations
    with next_impl()."""


def _wrap_c_pd(self, args, kind, prop_kinds=()):
    """Handles the `primitive_desc(c_pd)` form; True when it applied."""
    if len(args) == 1 and isinstance(args[0], c.dnnl_primitive_desc_t):
        # a private copy: the handle may belong to a primitive
        clone = c.dnnl_primitive_desc_t()
        error.wrap_c_api(c.dnnl_primitive_desc_clone(clone, args[0]),
                         "could not clone a primitive descriptor")
        self.reset(clone)
        self._check_kind(kind, prop_kinds)
        return True
    return False


def _tail(args, n_numbers, hint_cls=None):
    """Splits the optional C++ tail after the required arguments: up to
    n_numbers scalars, then the hint primitive descriptor (when hint_cls),
    then attr. Returns (scalars, hint, attr)."""
    scalars = []
    rest = list(args)
    while rest and len(scalars) < n_numbers and isinstance(rest[0], numbers.Real) \
            and not isinstance(rest[0], bool):
        scalars.append(rest.pop(0))
    hint = None
    if hint_cls is not None:
        if not rest or not isinstance(rest[0], hint_cls):
            raise error(c.dnnl_invalid_arguments,
                        "expected hint_fwd_pd, a %s, not %s" % (
                            hint_cls.__qualname__, _type_name(rest[0]) if rest else "nothing"))
        hint = rest.pop(0)
    attr = rest.pop(0) if rest else None
    if rest or (attr is not None and not isinstance(attr, primitive_attr)):
        raise error(c.dnnl_invalid_arguments, "unexpected arguments: %s" % ", ".join(
            _type_name(a) for a in (rest or [attr])))
    return scalars, hint, attr


class primitive(handle):
    """oneDNN's dnnl::primitive."""

    kind = primitive_kind
    _destroy = staticmethod(c.dnnl_primitive_destroy)

    def __init__(self, pd=None, cache_blob=None):
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
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_desc_query(self.get_primitive_desc(),
                                                     c.dnnl_query_primitive_kind, 0, out),
                         "could not get a primitive kind")
        return primitive.kind(out[0])

    def execute(self, astream, args):
        """args: {DNNL_ARG_*: memory}."""
        if not isinstance(args, Mapping):
            raise error(c.dnnl_invalid_arguments, "execute arguments must be a dict "
                        "{DNNL_ARG_*: memory}, not %s" % _type_name(args))
        # keys go to dnnl_c as they are: it checks that they are ints
        c_args = [(k, _c(v, "the memory of argument %r" % (k,), memory))
                  for k, v in args.items()]
        error.wrap_c_api(c.dnnl_primitive_execute(self.get(), _c(astream, "astream", stream),
                                                  len(c_args), c_args),
                         "could not execute a primitive")
