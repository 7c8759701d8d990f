"""dnnl.stream (oneDNN's dnnl::stream)."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._enums import _enum
from dnnl._error import error
from dnnl._handle import _c, handle


class stream(handle):
    """An execution queue on an engine: stream(aengine[, aflags]) as in
    C++. Execution here is synchronous, so wait() only checks the stream.
    oneDNN's dnnl::stream."""

    flags = _enum("flags", "dnnl_stream_flags_t", "dnnl_stream_")
    _destroy = staticmethod(c.dnnl_stream_destroy)

    def __init__(self, aengine=None, aflags=None):
        super().__init__()
        if aengine is None:
            return
        h = c.dnnl_stream_t()
        aflags = stream.flags.default_flags if aflags is None else aflags
        error.wrap_c_api(c.dnnl_stream_create(h, _c(aengine, "aengine", engine), aflags),
                         "could not create a stream")
        self._h = h

    def get_engine(self):
        """The engine the stream runs on."""
        e = c.dnnl_engine_t()
        error.wrap_c_api(c.dnnl_stream_get_engine(self.get(), e),
                         "could not get an engine from a stream object")
        return engine(c_engine=e, weak=True)

    def wait(self):
        """Waits for the stream's work to finish (it has, when execute
        returns); returns the stream."""
        error.wrap_c_api(c.dnnl_stream_wait(self.get()), "could not wait on a stream")
        return self

    def __repr__(self):
        if not self._h:
            return "<dnnl.stream empty>"
        return "<dnnl.stream on %s>" % self.get_engine().get_kind().name
