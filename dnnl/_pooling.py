"""dnnl.pooling_forward and dnnl.pooling_backward."""

import dnnl_c as c
from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c, _type_name
from dnnl._memory import desc
from dnnl._primitive import _wrap_c_pd, primitive, primitive_desc


def _attr_arg(rest, what):
    if len(rest) > 1 or (rest and rest[0] is not None
                         and not isinstance(rest[0], primitive_attr)):
        raise error(c.dnnl_invalid_arguments, "%s: unexpected arguments: %s"
                    % (what, ", ".join(_type_name(a) for a in rest)))
    return rest[0] if rest else None


class pooling_forward(primitive):
    """oneDNN's dnnl::pooling_forward."""

    class primitive_desc(primitive_desc):
        """(engine, prop_kind, algorithm, src_desc, dst_desc, strides, kernel, dilation,
        padding_l, padding_r[, attr]), or over a dnnl_c pooling forward pd handle."""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_pooling,
                          (c.dnnl_forward_training, c.dnnl_forward_inference)):
                return
            what = "pooling_forward.primitive_desc"
            if len(args) not in (10, 11):
                raise error(c.dnnl_invalid_arguments,
                            "%s takes (engine, prop_kind, algorithm, src_desc, dst_desc, "
                            "strides, kernel, dilation, padding_l, padding_r[, attr])" % what)
            eng, pk, alg, src_md, dst_md = args[:5]
            dims = args[5:10]        # dnnl_c checks them: lists of ints
            attr = _attr_arg(args[10:], what)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_pooling_forward_primitive_desc_create(
                pd, _c(eng, "engine", engine), pk, alg, _c(src_md, "src_desc", desc),
                _c(dst_md, "dst_desc", desc), *dims, _c(attr))
            self._create(st, pd, "a pooling forward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)


class pooling_backward(primitive):
    """oneDNN's dnnl::pooling_backward."""

    class primitive_desc(primitive_desc):
        """(engine, algorithm, diff_src_desc, diff_dst_desc, strides, kernel, dilation,
        padding_l, padding_r, hint_fwd_pd[, attr]), or over a dnnl_c pooling backward
        pd handle."""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_pooling, (c.dnnl_backward_data,)):
                return
            what = "pooling_backward.primitive_desc"
            if len(args) not in (10, 11):
                raise error(c.dnnl_invalid_arguments,
                            "%s takes (engine, algorithm, diff_src_desc, diff_dst_desc, "
                            "strides, kernel, dilation, padding_l, padding_r, hint_fwd_pd"
                            "[, attr])" % what)
            eng, alg, diff_src_md, diff_dst_md = args[:4]
            dims = args[4:9]
            hint = args[9]
            if not isinstance(hint, pooling_forward.primitive_desc):
                raise error(c.dnnl_invalid_arguments,
                            "%s: hint_fwd_pd must be a pooling_forward.primitive_desc" % what)
            attr = _attr_arg(args[10:], what)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_pooling_backward_primitive_desc_create(
                pd, _c(eng, "engine", engine), alg, _c(diff_src_md, "diff_src_desc", desc),
                _c(diff_dst_md, "diff_dst_desc", desc), *dims, hint.get(), _c(attr))
            self._create(st, pd, "a pooling backward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)
