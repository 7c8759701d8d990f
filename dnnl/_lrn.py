"""dnnl.lrn_forward and dnnl.lrn_backward."""

import dnnl_c as c
from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c
from dnnl._memory import desc
from dnnl._primitive import _wrap_c_pd, primitive, primitive_desc


def _trailing(args, attr, allow_empty, usage):
    """C++'s optional `attr, allow_empty` after the required arguments, given
    positionally or by keyword."""
    rest = list(args)
    if rest:
        attr = rest.pop(0)
    if rest:
        allow_empty = rest.pop(0)
    if rest or (attr is not None and not isinstance(attr, primitive_attr)) \
            or not isinstance(allow_empty, bool):
        raise error(c.dnnl_invalid_arguments, "unexpected arguments; %s" % usage)
    return attr, allow_empty


class lrn_forward(primitive):
    """oneDNN's dnnl::lrn_forward."""

    class primitive_desc(primitive_desc):
        """(engine, prop_kind, algorithm, src_desc, dst_desc, local_size, alpha, beta, k
        [, attr[, allow_empty]]), or over a dnnl_c lrn forward pd handle."""

        _usage = ("lrn_forward.primitive_desc takes (engine, prop_kind, algorithm, src_desc, "
                  "dst_desc, local_size, alpha, beta, k[, attr[, allow_empty]])")

        def __init__(self, *args, attr=None, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_lrn,
                          (c.dnnl_forward_training, c.dnnl_forward_inference)):
                return
            if len(args) < 9:
                raise error(c.dnnl_invalid_arguments, self._usage)
            eng, pk, alg, src_md, dst_md, local_size, alpha, beta, k = args[:9]
            attr, allow_empty = _trailing(args[9:], attr, allow_empty, self._usage)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lrn_forward_primitive_desc_create(
                pd, _c(eng, "engine", engine), pk, alg, _c(src_md, "src_desc", desc),
                _c(dst_md, "dst_desc", desc), local_size, alpha, beta, k, _c(attr))
            self._create(st, pd, "an lrn forward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)


class lrn_backward(primitive):
    """oneDNN's dnnl::lrn_backward."""

    class primitive_desc(primitive_desc):
        """(engine, algorithm, diff_src_desc, diff_dst_desc, src_desc, local_size, alpha,
        beta, k, hint_fwd_pd[, attr[, allow_empty]]), or over a dnnl_c lrn backward pd
        handle."""

        _usage = ("lrn_backward.primitive_desc takes (engine, algorithm, diff_src_desc, "
                  "diff_dst_desc, src_desc, local_size, alpha, beta, k, hint_fwd_pd"
                  "[, attr[, allow_empty]])")

        def __init__(self, *args, attr=None, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_lrn, (c.dnnl_backward_data,)):
                return
            if len(args) < 10:
                raise error(c.dnnl_invalid_arguments, self._usage)
            eng, alg, diff_src_md, diff_dst_md, src_md, local_size, alpha, beta, k, hint = \
                args[:10]
            if not isinstance(hint, lrn_forward.primitive_desc):
                raise error(c.dnnl_invalid_arguments, "lrn_backward: hint_fwd_pd must be an "
                            "lrn_forward.primitive_desc")
            attr, allow_empty = _trailing(args[10:], attr, allow_empty, self._usage)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lrn_backward_primitive_desc_create(
                pd, _c(eng, "engine", engine), alg, _c(diff_src_md, "diff_src_desc", desc),
                _c(diff_dst_md, "diff_dst_desc", desc), _c(src_md, "src_desc", desc),
                local_size, alpha, beta, k, _c(hint), _c(attr))
            self._create(st, pd, "an lrn backward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)
