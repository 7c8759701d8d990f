"""dnnl.reorder (oneDNN's dnnl::reorder)."""

import dnnl_c as c
from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c, _type_name
from dnnl._memory import desc, memory
from dnnl._primitive import _wrap_c_pd, primitive, primitive_desc_base


class reorder(primitive):
    """oneDNN's dnnl::reorder: reorder(pd), reorder(src, dst[, attr])."""

    class primitive_desc(primitive_desc_base):
        """reorder.primitive_desc(src_engine, src_md, dst_engine, dst_md[, attr]),
        reorder.primitive_desc(src, dst[, attr]) on memories, or over a
        dnnl_c reorder pd handle."""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_reorder):
                return
            if len(args) in (2, 3) and isinstance(args[0], memory):
                src, dst = args[0], args[1]
                if not isinstance(dst, memory):
                    raise error(c.dnnl_invalid_arguments, "reorder: dst must be a memory, not "
                                "%s" % _type_name(dst))
                attr = args[2] if len(args) > 2 else None
                args = (src.get_engine(), src.get_desc(), dst.get_engine(), dst.get_desc(),
                        attr)
            if len(args) not in (4, 5):
                raise error(c.dnnl_invalid_arguments,
                            "reorder.primitive_desc takes (src_engine, src_md, dst_engine, "
                            "dst_md[, attr]) or (src, dst[, attr])")
            src_engine, src_md, dst_engine, dst_md = args[:4]
            attr = args[4] if len(args) == 5 else None
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_reorder_primitive_desc_create(
                pd, _c(src_md, "src_md", desc), _c(src_engine, "src_engine", engine),
                _c(dst_md, "dst_md", desc), _c(dst_engine, "dst_engine", engine),
                _c(attr, "attr", primitive_attr))
            self._create(st, pd, "a reorder primitive", allow_empty)

        def get_src_engine(self):
            return engine(c_engine=self._query(c.dnnl_query_reorder_src_engine), weak=True)

        def get_dst_engine(self):
            return engine(c_engine=self._query(c.dnnl_query_reorder_dst_engine), weak=True)

    def __init__(self, *args):
        if len(args) >= 2 and isinstance(args[0], memory):
            args = (reorder.primitive_desc(*args),)
        super().__init__(*args)

    def execute(self, astream, *args):
        """execute(stream, src, dst) or execute(stream, {arg: memory})."""
        if len(args) == 2:
            args = ({c.DNNL_ARG_FROM: args[0], c.DNNL_ARG_TO: args[1]},)
        super().execute(astream, *args)
