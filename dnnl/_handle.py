"""dnnl.handle (oneDNN's dnnl::handle): the base class that owns a dnnl_c
handle, and _c(), which unwraps any object-layer object for a dnnl_c call."""

import dnnl_c as c
from dnnl._error import error


class handle:
    """Owns a dnnl_c handle RAII-style: destroyed when the last reference
    to this object goes, unless the handle is weak (borrowed)."""

    _destroy = None

    def __init__(self, c_handle=None, weak=False):
        self._h = c_handle
        self._weak = weak

    def reset(self, c_handle, weak=False):
        self._release()
        self._h = c_handle
        self._weak = weak

    def get(self, allow_empty=False):
        if not self._h and not allow_empty:
            raise error(c.dnnl_invalid_arguments, "object is not initialized")
        return self._h

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


def _c(obj):
    """The dnnl_c handle behind an object-layer object (None when empty)."""
    return obj._h if obj is not None else None
