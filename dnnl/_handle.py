"""dnnl.handle (oneDNN's dnnl::handle): the base class that owns a dnnl_c
handle, and _c(), which unwraps an object-layer object for a dnnl_c call
and is where arguments of the wrong class are refused."""

import dnnl_c as c
from dnnl._error import error


class _wrapper:
    """What every object-layer class over a dnnl_c handle has: the handle
    in _h, and get()."""

    _h = None

    def get(self, allow_empty=False):
        """The dnnl_c handle (for the C-style API); raises dnnl.error when
        the object is empty, unless allow_empty (then None)."""
        if not self._h and not allow_empty:
            raise error(c.dnnl_invalid_arguments, "object is not initialized")
        return self._h


class handle(_wrapper):
    """The base of the object-layer classes that own a dnnl_c handle
    (engine, stream, memory, primitive_attr, primitive descriptors,
    primitives): the handle is destroyed when the last reference to the
    object goes, unless it is weak (borrowed). oneDNN's dnnl::handle."""

    _destroy = None

    def __init__(self, c_handle=None, weak=False):
        self._h = c_handle
        self._weak = weak

    def reset(self, c_handle, weak=False):
        """Takes another dnnl_c handle (weak: borrowed, never destroyed),
        releasing the one held."""
        self._release()
        self._h = c_handle
        self._weak = weak

    def _release(self):
        h = getattr(self, "_h", None)
        if h and not self._weak and self._destroy is not None:
            type(self)._destroy(h)
        self._h = None

    def __del__(self):
        self._release()

    def __bool__(self):
        return bool(self._h)

    def __eq__(self, other):
        if not isinstance(other, handle):
            return NotImplemented
        return self._h == other._h

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = object.__hash__

    def __repr__(self):
        return "<%s%s>" % (_type_name(self), "" if self._h else " empty")


def _type_name(obj):
    t = type(obj)
    if t.__module__ == "builtins":
        return t.__name__
    module = t.__module__.split(".")[0]     # dnnl._memory.desc -> dnnl.memory.desc
    return "%s.%s" % (module if module in ("dnnl", "dnnl_c") else t.__module__,
                      t.__qualname__)


def _c(obj, name="argument", cls=_wrapper):
    """The dnnl_c handle behind obj, an object-layer object of class cls,
    for a dnnl_c call. None is C's NULL (dnnl_c answers it where a handle is
    required); anything else is a dnnl.error naming the argument."""
    if obj is None:
        return None
    if not isinstance(obj, cls):
        expected = "object-layer object" if cls is _wrapper else cls.__qualname__
        raise error(c.dnnl_invalid_arguments, "%s must be %s %s, not %s" % (
            name, "an" if expected[0] in "aeiou" else "a", expected, _type_name(obj)))
    return obj._h
