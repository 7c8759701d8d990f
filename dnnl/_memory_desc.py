"""dnnl.memory.desc (oneDNN's dnnl::memory::desc) and the enums it uses
(memory.data_type, memory.format_tag, memory.format_kind). A desc is a
value: it compares, hashes, copies and pickles by what it describes."""

import numbers

import dnnl_c as c
from dnnl._enums import _enum
from dnnl._error import error
from dnnl._handle import _type_name, _wrapper
from dnnl_c._constants import ENUMS

data_type = _enum("data_type", "dnnl_data_type_t", "dnnl_",
                  {"dnnl_data_type_undef": "undef"})
format_tag = _enum("format_tag", "dnnl_format_tag_t", "dnnl_",
                   {"dnnl_format_tag_undef": "undef", "dnnl_format_tag_any": "any"})
format_kind = _enum("format_kind", "dnnl_format_kind_t", "dnnl_",
                    {"dnnl_format_kind_undef": "undef", "dnnl_format_kind_any": "any",
                     "dnnl_format_kind_opaque": "opaque",
                     "dnnl_format_kind_sparse": "sparse",
                     "dnnl_format_kind_host_scalar": "host_scalar"})


def _tag_names():
    """{canonical tag name: its aliases}: reprs show the first alias oneDNN
    lists after the letters (nchw for abcd, nChw8c for aBcd8b), weights the
    first weights alias (oihw, goihw, OIhw8i8o, ldigo)."""
    by_value = {}
    for name, value in ENUMS["dnnl_format_tag_t"].items():
        by_value.setdefault(value, []).append(name[len("dnnl_"):])
    return {names[0]: names[1:] or names[:1] for names in by_value.values()}


_TAG_ALIASES = _tag_names()


def _shown_tag(name, weights):
    aliases = _TAG_ALIASES[name]
    if weights:
        for alias in aliases:
            if alias[0] in "oOgGl":
                return alias
    return aliases[0]


def _list(values, name):
    """A dims-like argument as a list (its length is ndims); dnnl_c checks
    each entry."""
    if isinstance(values, (str, bytes)):
        values = None
    try:
        return list(values)
    except TypeError:
        raise error(c.dnnl_invalid_arguments, "%s must be a sequence of ints, not %s"
                    % (name, _type_name(values))) from None


_DESC_PARAMS = ("adims", "adata_type", "aformat_tag", "strides", "allow_empty")


class desc(_wrapper):
    """A memory descriptor: a tensor's logical dims, data type and layout
    (format tag, strides, or the blocking a primitive chose), without any
    data. oneDNN's dnnl::memory::desc.

    desc() is the zero descriptor; desc(adims, adata_type, aformat_tag) and
    desc(adims, adata_type, strides) take C++'s parameters by position or
    name, with allow_empty=True giving an empty desc instead of raising;
    desc(blob) reads get_blob()'s bytes; desc.host_scalar(adata_type) describes
    one value on the host. Two descs are equal when they
    describe the same memory (oneDNN's rules), and equal descs hash alike;
    copy, deepcopy and pickle keep the value."""

    def __init__(self, *args, **kwargs):
        self._h = None
        if len(args) == 1 and not kwargs and isinstance(args[0], c.dnnl_memory_desc_t):
            self._h = args[0]
            return
        if (len(args) == 1 and not kwargs) or (not args and list(kwargs) == ["blob"]):
            self._h = self._from_blob(args[0] if args else kwargs["blob"])
            return
        a = self._bind(args, kwargs)
        allow_empty = a.pop("allow_empty", False)
        h = c.dnnl_memory_desc_t()
        if not a:
            st = c.dnnl_memory_desc_create_with_tag(h, 0, [], c.dnnl_data_type_undef,
                                                    c.dnnl_format_tag_undef)
        elif "aformat_tag" in a:
            dims = _list(a["adims"], "dims")
            st = c.dnnl_memory_desc_create_with_tag(h, len(dims), dims, a["adata_type"],
                                                    a["aformat_tag"])
        else:
            dims, strides = _list(a["adims"], "dims"), _list(a["strides"], "strides")
            if len(strides) != len(dims):
                raise error(c.dnnl_invalid_arguments,
                            "memory.desc: %d strides for %d dims" % (len(strides), len(dims)))
            st = c.dnnl_memory_desc_create_with_strides(h, len(dims), dims, a["adata_type"],
                                                        strides)
        if st != c.dnnl_success and allow_empty:
            return
        error.wrap_c_api(st, "could not construct a memory descriptor")
        self._h = h

    @staticmethod
    def _bind(args, kwargs):
        """C++'s (adims, adata_type, aformat_tag | strides[, allow_empty]):
        the third argument is a tag when it is an int, strides when it is a
        sequence."""
        if len(args) > 4 or any(k not in _DESC_PARAMS for k in kwargs):
            raise error(c.dnnl_invalid_arguments, "memory.desc takes (), (adims, adata_type, "
                        "aformat_tag[, allow_empty]), (adims, adata_type, strides"
                        "[, allow_empty]) or (blob); got %d arguments and keywords %s"
                        % (len(args), sorted(kwargs)))
        a = dict(zip(("adims", "adata_type", None, "allow_empty"), args))
        if len(args) >= 3:
            layout = a.pop(None)
            if isinstance(layout, numbers.Integral):
                a["aformat_tag"] = layout
            elif isinstance(layout, (str, bytes)) or not hasattr(layout, "__len__"):
                raise error(c.dnnl_invalid_arguments,
                            "memory.desc: the third argument must be a memory.format_tag or a "
                            "list of strides, not %s" % _type_name(layout))
            else:
                a["strides"] = layout
        for k, v in kwargs.items():
            if k in a:
                raise error(c.dnnl_invalid_arguments, "memory.desc: %s given twice" % k)
            a[k] = v
        given = set(a) - {"allow_empty"}
        if given and (not {"adims", "adata_type"} <= given or len(given) != 3):
            raise error(c.dnnl_invalid_arguments, "memory.desc needs adims, adata_type and "
                        "one of aformat_tag or strides; got %s" % sorted(given))
        return a

    @staticmethod
    def _from_blob(blob):
        if isinstance(blob, (list, tuple)):          # C++'s std::vector<uint8_t>
            try:
                blob = bytes(blob)
            except (TypeError, ValueError):
                raise error(c.dnnl_invalid_arguments,
                            "memory.desc: a blob is bytes (from get_blob())") from None
        h = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_create_with_blob(h, blob),
                         "could not create a memory descriptor from blob")
        return h

    def __del__(self):
        if getattr(self, "_h", None):
            c.dnnl_memory_desc_destroy(self._h)

    def get_blob(self):
        """The descriptor as bytes, which desc(blob) turns back into an
        equal descriptor (in this library; the bytes are not oneDNN's)."""
        size = [None]
        error.wrap_c_api(c.dnnl_memory_desc_get_blob(None, size, self.get()),
                         "could not get memory descriptor blob size")
        blob = bytearray(size[0])
        error.wrap_c_api(c.dnnl_memory_desc_get_blob(blob, size, self.get()),
                         "could not get memory descriptor blob")
        return bytes(blob)

    def _derived(self, fn, what, allow_empty, *args):
        h = c.dnnl_memory_desc_t()
        st = fn(h, self.get(), *args)
        if st != c.dnnl_success and allow_empty:
            empty = desc.__new__(desc)
            empty._h = None
            return empty
        error.wrap_c_api(st, what)
        return desc(h)

    def submemory_desc(self, adims, offsets, allow_empty=False):
        """The descriptor of the region of adims starting at offsets inside
        this one (same layout, an offset into the same buffer)."""
        return self._derived(c.dnnl_memory_desc_create_submemory,
                             "could not construct a sub-memory", allow_empty,
                             _list(adims, "dims"), _list(offsets, "offsets"))

    def reshape(self, adims, allow_empty=False):
        """The same data seen with other dims (as numpy.reshape, where the
        layout allows it without moving data)."""
        adims = _list(adims, "dims")
        return self._derived(c.dnnl_memory_desc_reshape,
                             "could not reshape a memory descriptor", allow_empty,
                             len(adims), adims)

    def permute_axes(self, permutation, allow_empty=False):
        """The same data with its axes renamed: axis i becomes axis
        permutation[i]."""
        return self._derived(c.dnnl_memory_desc_permute_axes,
                             "could not permute axes of a memory descriptor", allow_empty,
                             _list(permutation, "permutation"))

    def _query(self, what, default):
        out = [default]
        if c.dnnl_memory_desc_query(self.get(), what, out) != c.dnnl_success:
            return default
        return out[0]

    def get_ndims(self):
        """The number of dims (0 for the zero descriptor)."""
        return self._query(c.dnnl_query_ndims_s32, 0)

    def get_dims(self):
        """The logical dims, as a list."""
        return list(self._query(c.dnnl_query_dims, ()))

    def get_data_type(self):
        """The data type, a memory.data_type."""
        return data_type(self._query(c.dnnl_query_data_type, 0))

    def get_format_kind(self):
        """blocked (strides and blocks), any (for a primitive to choose) or
        undef (the zero descriptor)."""
        return format_kind(self._query(c.dnnl_query_format_kind, 0))

    def get_padded_dims(self):
        """The dims rounded up to whole blocks."""
        return list(self._query(c.dnnl_query_padded_dims, ()))

    def get_padded_offsets(self):
        """Where the dims start within the padded dims."""
        return list(self._query(c.dnnl_query_padded_offsets, ()))

    def get_submemory_offset(self):
        """The offset, in elements, of the first element from the handle."""
        return self._query(c.dnnl_query_submemory_offset_s64, 0)

    def get_strides(self):
        """The strides of the outer (per-block) dims, in elements."""
        return list(self._query(c.dnnl_query_strides, ()))

    def get_inner_nblks(self):
        """How many inner blocks the layout has (0 for a plain layout)."""
        return self._query(c.dnnl_query_inner_nblks_s32, 0)

    def get_inner_blks(self):
        """The sizes of the inner blocks, outermost first."""
        return list(self._query(c.dnnl_query_inner_blks, ()))

    def get_inner_idxs(self):
        """The dim each inner block splits."""
        return list(self._query(c.dnnl_query_inner_idxs, ()))

    def get_size(self, index=0):
        """The bytes a memory of this descriptor needs."""
        return c.dnnl_memory_desc_get_size_v2(self.get(), index)

    def get_num_handles(self):
        """How many buffers a memory of this descriptor has (1: dense)."""
        out = [0]
        c.dnnl_memory_desc_query_v2(self.get(), c.dnnl_query_num_handles_s32, 0, out)
        return out[0]

    @staticmethod
    def host_scalar(adata_type):
        """A descriptor of one value of adata_type held on the host (for
        scales or zero points given at execution)."""
        h = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_create_host_scalar(h, adata_type),
                         "could not create a memory descriptor describing host side scalar")
        return desc(h)

    def is_zero(self):
        """True for the zero descriptor (no dims)."""
        return self.get_ndims() == 0

    def __eq__(self, other):
        if not isinstance(other, desc):
            return NotImplemented
        return c.dnnl_memory_desc_equal(self.get(allow_empty=True),
                                        other.get(allow_empty=True)) != 0

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        # what equal descriptors share (oneDNN's equality ignores the
        # strides of size-1 dims, so strides are left out)
        if not self._h or self.is_zero():
            return hash(())
        return hash((self.get_data_type(), self.get_format_kind(), self.get_submemory_offset(),
                     tuple(self.get_dims()), tuple(self.get_padded_dims()),
                     tuple(self.get_padded_offsets())))

    def __reduce__(self):
        if not self._h:
            return (desc, ())
        return (desc, (self.get_blob(),))

    def __copy__(self):
        if not self._h:
            return desc()
        clone = c.dnnl_memory_desc_t()
        error.wrap_c_api(c.dnnl_memory_desc_clone(clone, self._h),
                         "could not clone a memory descriptor")
        return desc(clone)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def _layout(self, weights=False):
        """The layout as reprs show it: a format tag (oneDNN's more familiar
        alias: nchw, nChw8c; oihw for weights), 'any', or the strides and
        blocks."""
        kind = self.get_format_kind()
        if kind != format_kind.blocked:
            return kind.name
        dims, strides = self.get_dims(), self.get_strides()
        blks, idxs = self.get_inner_blks(), self.get_inner_idxs()
        letters = "abcdefghijkl"
        outer = sorted(range(len(dims)), key=lambda d: -strides[d])   # stable on ties
        name = "".join(letters[d].upper() if d in idxs else letters[d] for d in outer)
        name += "".join("%d%s" % (b, letters[i]) for b, i in zip(blks, idxs))
        if name in _TAG_ALIASES and self.get_submemory_offset() == 0:
            dense = desc(dims, self.get_data_type(), getattr(format_tag, name),
                         allow_empty=True)
            if dense._h and dense == self:
                return _shown_tag(name, weights)
        shown = "strides=[%s]" % ",".join(str(s) for s in strides)
        if blks:
            shown += " blocks=%s" % "".join("%d%s" % (b, letters[i]) for b, i in zip(blks, idxs))
        if self.get_padded_dims() != dims:
            shown += " padded=[%s]" % ",".join(str(d) for d in self.get_padded_dims())
        if self.get_submemory_offset():
            shown += " offset0=%d" % self.get_submemory_offset()
        return shown

    def _describe(self, weights=False):
        return "%s [%s] %s" % (self.get_data_type().name,
                               ",".join(str(d) for d in self.get_dims()),
                               self._layout(weights))

    def __repr__(self):
        if not self._h:
            return "<dnnl.memory.desc empty>"
        if self.get_format_kind() == format_kind.host_scalar:
            return "<dnnl.memory.desc %s host_scalar>" % self.get_data_type().name
        if self.is_zero():
            return "<dnnl.memory.desc zero>"
        return "<dnnl.memory.desc %s>" % self._describe()


# as messages name it, and where pickle finds it: dnnl.memory.desc
desc.__module__, desc.__qualname__ = "dnnl", "memory.desc"
