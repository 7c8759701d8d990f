"""dnnl.reorder (oneDNN's dnnl::reorder)."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._memory import memory
from dnnl._primitive import _overloads, _wrap_c_pd, primitive, primitive_desc_base


class reorder(primitive):
    """Copies data from one memory to another, converting layout and data
    type on the way: reorder(pd), or reorder(src, dst[, attr]) from two
    memories. oneDNN's dnnl::reorder."""

    class primitive_desc(primitive_desc_base):
        """The descriptor of a reorder: (src_engine, src_md, dst_engine,
        dst_md[, attr][, allow_empty]) or (src, dst[, attr][, allow_empty])
        from two memories; positions or C++ parameter names. Also wraps a
        dnnl_c reorder pd handle."""

        _signatures = _overloads(
            "reorder.primitive_desc",
            "src_engine, src_md, dst_engine, dst_md, attr, allow_empty",
            "src, dst, attr, allow_empty")

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_reorder, (), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            if "src" in a:
                src, dst = a["src"], a["dst"]
                a.update(src_engine=src.get_engine(), src_md=src.get_desc(),
                         dst_engine=dst.get_engine(), dst_md=dst.get_desc())
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_reorder_primitive_desc_create(
                pd, a["src_md"].get(), _c(a["src_engine"], "src_engine", engine),
                a["dst_md"].get(), _c(a["dst_engine"], "dst_engine", engine), _c(a["attr"]))
            self._create(st, pd, "a reorder primitive", a["allow_empty"])

        def get_src_engine(self):
            """The engine of the source memory."""
            return engine(c_engine=self._query(c.dnnl_query_reorder_src_engine), weak=True)

        def get_dst_engine(self):
            """The engine of the destination memory."""
            return engine(c_engine=self._query(c.dnnl_query_reorder_dst_engine), weak=True)

    _signatures = _overloads("reorder", "pd", "src, dst, attr")
    _execute_signature = _overloads("reorder.execute", "src, dst")

    def __init__(self, *args, **kwargs):
        """reorder(pd), reorder(src, dst[, attr]), or an empty reorder."""
        if not args and not kwargs:
            super().__init__()
            return
        a = self._signatures.bind(args, kwargs)
        if "src" in a:
            super().__init__(reorder.primitive_desc(a["src"], a["dst"], a["attr"]))
        else:
            super().__init__(a["pd"])

    def execute(self, astream, *args, **kwargs):
        """execute(astream, src, dst), or execute(astream, args) with args
        {DNNL_ARG_FROM: memory, DNNL_ARG_TO: memory}, as primitive.execute."""
        if len(args) == 2 and not kwargs:   # the common call, without the binder's 3 us
            src, dst = args
            if isinstance(src, memory) and isinstance(dst, memory):     # no dict either
                self._run(astream, [(c.DNNL_ARG_FROM, src._h), (c.DNNL_ARG_TO, dst._h)])
                return
            args = ({c.DNNL_ARG_FROM: src, c.DNNL_ARG_TO: dst},)
        elif len(args) + len(kwargs) == 2:
            a = self._execute_signature.bind(args, kwargs)
            args = ({c.DNNL_ARG_FROM: a["src"], c.DNNL_ARG_TO: a["dst"]},)
            kwargs = {}
        super().execute(astream, *args, **kwargs)
