"""dnnl.engine (oneDNN's dnnl::engine)."""

import dnnl_c as c
from dnnl._enums import _enum
from dnnl._error import error
from dnnl._handle import handle


class engine(handle):
    """A device that primitives run on and memories live on; this library
    has CPU engines (index 0). engine(akind, index) as in C++; engine() is
    empty. oneDNN's dnnl::engine."""

    kind = _enum("kind", "dnnl_engine_kind_t", "dnnl_", {"dnnl_any_engine": "any"})
    _destroy = staticmethod(c.dnnl_engine_destroy)

    def __init__(self, akind=None, index=0, *, c_engine=None, weak=False):
        if akind is None:
            super().__init__(c_engine, weak)
            return
        super().__init__()
        h = c.dnnl_engine_t()
        error.wrap_c_api(c.dnnl_engine_create(h, akind, index),
                         "could not create an engine")
        self._h = h

    @staticmethod
    def get_count(akind):
        """How many engines of kind akind there are (1 CPU, 0 GPU)."""
        return c.dnnl_engine_get_count(akind)

    def get_kind(self):
        """The engine's kind, an engine.kind."""
        out = [None]
        error.wrap_c_api(c.dnnl_engine_get_kind(self.get(), out),
                         "could not get kind of an engine")
        return engine.kind(out[0])

    def __repr__(self):
        if not self._h:
            return "<dnnl.engine empty>"
        return "<dnnl.engine %s>" % self.get_kind().name
