"""dnnl.engine (oneDNN's dnnl::engine)."""

import dnnl_c as c
from dnnl._enums import _enum
from dnnl._error import error
from dnnl._handle import handle


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
        error.wrap_c_api(c.dnnl_engine_create(h, kind, index),
                         "could not create an engine")
        self._h = h

    @staticmethod
    def get_count(kind):
        return c.dnnl_engine_get_count(kind)

    def get_kind(self):
        out = [None]
        error.wrap_c_api(c.dnnl_engine_get_kind(self.get(), out),
                         "could not get kind of an engine")
        return engine.kind(out[0])
