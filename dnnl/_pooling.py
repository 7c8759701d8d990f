"""dnnl.pooling_forward and dnnl.pooling_backward."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._primitive import _overloads, _wrap_c_pd, primitive, primitive_desc


def _dims(a):
    return a["strides"], a["kernel"], a["dilation"], a["padding_l"], a["padding_r"]


class pooling_forward(primitive):
    """Max or average pooling, forward, over 1-D, 2-D or 3-D windows.
    oneDNN's dnnl::pooling_forward."""

    class primitive_desc(primitive_desc):
        """The descriptor of a pooling forward primitive: (aengine,
        aprop_kind, aalgorithm, src_desc, dst_desc, strides, kernel, dilation,
        padding_l, padding_r[, attr][, allow_empty]); positions or C++
        parameter names. Also wraps a dnnl_c pd handle."""

        _signatures = _overloads(
            "pooling_forward.primitive_desc",
            "aengine, aprop_kind, aalgorithm, src_desc, dst_desc, strides, kernel, dilation, "
            "padding_l, padding_r, attr, allow_empty")

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_pooling,
                          (c.dnnl_forward_training, c.dnnl_forward_inference), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_pooling_forward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aprop_kind"], a["aalgorithm"],
                a["src_desc"].get(), a["dst_desc"].get(), *_dims(a), _c(a["attr"]))
            self._create(st, pd, "a pooling forward propagation primitive", a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)


class pooling_backward(primitive):
    """The gradient of pooling: diff_src from diff_dst (and, for max, the
    forward's workspace). oneDNN's dnnl::pooling_backward."""

    class primitive_desc(primitive_desc):
        """The descriptor of a pooling backward primitive: (aengine,
        aalgorithm, diff_src_desc, diff_dst_desc, strides, kernel, dilation,
        padding_l, padding_r, hint_fwd_pd[, attr][, allow_empty]); positions
        or C++ parameter names. Also wraps a dnnl_c pd handle."""

        _signatures = _overloads(
            "pooling_backward.primitive_desc",
            "aengine, aalgorithm, diff_src_desc, diff_dst_desc, strides, kernel, dilation, "
            "padding_l, padding_r, hint_fwd_pd, attr, allow_empty",
            hint=pooling_forward.primitive_desc)

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_pooling, (c.dnnl_backward_data,), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_pooling_backward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aalgorithm"],
                a["diff_src_desc"].get(), a["diff_dst_desc"].get(), *_dims(a),
                _c(a["hint_fwd_pd"]), _c(a["attr"]))
            self._create(st, pd, "a pooling backward propagation primitive",
                         a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)
