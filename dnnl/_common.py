"""dnnl.error, the handle base class, the C++ API's enums, engine, stream and
primitive_attr (oneDNN's dnnl_common.hpp and the top of dnnl.hpp)."""

from enum import IntEnum

import dnnl_c as c
from dnnl_c._constants import ENUMS, SENTINELS


class error(Exception):
    """oneDNN's dnnl::error: `status` is the dnnl_status_t, `message` says
    what failed and why."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message

    def what(self):
        return self.message

    @staticmethod
    def wrap_c_api(status, message):
        """Raises error(status, message + the library's reason) unless
        status is dnnl_success."""
        if status != c.dnnl_success:
            reason = c.cydnnl_last_error()
            raise error(status, "%s: %s" % (message, reason) if reason else message)


def _enum(name, ctype, strip, renames=None, extra=None):
    members = {}
    for cname, value in ENUMS[ctype].items():
        if cname in SENTINELS:
            continue
        short = (renames or {}).get(cname)
        if short is None:
            short = cname[len(strip):] if cname.startswith(strip) else cname
        members[short] = value
    members.update(extra or {})
    return IntEnum(name, members)


status = _enum("status", "dnnl_status_t", "dnnl_")
prop_kind = _enum("prop_kind", "dnnl_prop_kind_t", "dnnl_",
                  {"dnnl_prop_kind_undef": "undef"})
algorithm = _enum("algorithm", "dnnl_alg_kind_t", "dnnl_",
                  {"dnnl_alg_kind_undef": "undef"})
query = _enum("query", "dnnl_query_t", "dnnl_query_")
rnn_direction = _enum("rnn_direction", "dnnl_rnn_direction_t", "dnnl_",
                      {"dnnl_rnn_direction_undef": "undef"},
                      extra={"unidirectional": c.dnnl_unidirectional_left2right})
rnn_flags = _enum("rnn_flags", "dnnl_rnn_flags_t", "dnnl_rnn_flags_")
scratchpad_mode = _enum("scratchpad_mode", "dnnl_scratchpad_mode_t",
                        "dnnl_scratchpad_mode_")
fpmath_mode = _enum("fpmath_mode", "dnnl_fpmath_mode_t", "dnnl_fpmath_mode_")


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


class engine(handle):
    """oneDNN's dnnl::engine."""

    kind = _enum("kind", "dnnl_engine_kind_t", "dnnl_", {"dnnl_any_engine": "any"})
    _destroy = staticmethod(c.dnnl_engine_destroy)

    def __init__(self, kind=None, index=0, *, c_engine=None, weak=False):
        if kind is None:
            super().__init__(c_engine, weak)
            return
        super().__init__()
        h = c.dnnl_engine_t()
        error.wrap_c_api(c.dnnl_engine_create(h, int(kind), index),
                         "could not create an engine")
        self._h = h

    @staticmethod
    def get_count(kind):
        return c.dnnl_engine_get_count(int(kind))

    def get_kind(self):
        out = [None]
        error.wrap_c_api(c.dnnl_engine_get_kind(self.get(), out),
                         "could not get kind of an engine")
        return engine.kind(out[0])


class stream(handle):
    """oneDNN's dnnl::stream. Execution is synchronous, so wait() only
    checks the stream."""

    flags = _enum("flags", "dnnl_stream_flags_t", "dnnl_stream_")
    _destroy = staticmethod(c.dnnl_stream_destroy)

    def __init__(self, aengine=None, flags=None):
        super().__init__()
        if aengine is None:
            return
        h = c.dnnl_stream_t()
        flags = stream.flags.default_flags if flags is None else flags
        error.wrap_c_api(c.dnnl_stream_create(h, _c(aengine), int(flags)),
                         "could not create a stream")
        self._h = h

    def get_engine(self):
        e = c.dnnl_engine_t()
        error.wrap_c_api(c.dnnl_stream_get_engine(self.get(), e),
                         "could not get an engine from a stream object")
        return engine(c_engine=e, weak=True)

    def wait(self):
        error.wrap_c_api(c.dnnl_stream_wait(self.get()), "could not wait on a stream")
        return self


class primitive_attr(handle):
    """oneDNN's dnnl::primitive_attr (scratchpad and fpmath modes)."""

    _destroy = staticmethod(c.dnnl_primitive_attr_destroy)

    def __init__(self, c_attr=None):
        super().__init__()
        if c_attr is not None:
            self._h = c_attr
            return
        h = c.dnnl_primitive_attr_t()
        error.wrap_c_api(c.dnnl_primitive_attr_create(h),
                         "could not create primitive attribute")
        self._h = h

    def get_scratchpad_mode(self):
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_scratchpad_mode(self.get(), out),
                         "could not get scratchpad mode primitive attribute")
        return scratchpad_mode(out[0])

    def set_scratchpad_mode(self, mode):
        error.wrap_c_api(c.dnnl_primitive_attr_set_scratchpad_mode(self.get(), int(mode)),
                         "could not set scratchpad mode primitive attribute")

    def get_fpmath_mode(self):
        out = [None]
        error.wrap_c_api(c.dnnl_primitive_attr_get_fpmath_mode(self.get(), out),
                         "could not get fpmath mode primitive attribute")
        return fpmath_mode(out[0])

    def set_fpmath_mode(self, mode):
        error.wrap_c_api(c.dnnl_primitive_attr_set_fpmath_mode(self.get(), int(mode)),
                         "could not set fpmath mode primitive attribute")
