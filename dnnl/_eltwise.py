"""dnnl.eltwise_forward and dnnl.eltwise_backward."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._primitive import _overloads, _wrap_c_pd, primitive, primitive_desc


class eltwise_forward(primitive):
    """An element-wise operation (ReLU, tanh, ...) applied forward:
    dst = f(src; alpha, beta). oneDNN's dnnl::eltwise_forward."""

    class primitive_desc(primitive_desc):
        """The descriptor of an eltwise forward primitive, created from the
        problem: (aengine, aprop_kind, aalgorithm, src_desc, dst_desc[, alpha
        [, beta]][, attr][, allow_empty]); positions or C++ parameter names.
        alpha and beta default to 0. Also wraps a dnnl_c pd handle."""

        _signatures = _overloads(
            "eltwise_forward.primitive_desc",
            "aengine, aprop_kind, aalgorithm, src_desc, dst_desc, attr, allow_empty",
            "aengine, aprop_kind, aalgorithm, src_desc, dst_desc, alpha, attr, allow_empty",
            "aengine, aprop_kind, aalgorithm, src_desc, dst_desc, alpha, beta, attr, "
            "allow_empty")

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_eltwise,
                          (c.dnnl_forward_training, c.dnnl_forward_inference), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_eltwise_forward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aprop_kind"], a["aalgorithm"],
                a["src_desc"].get(), a["dst_desc"].get(), a.get("alpha", 0.0),
                a.get("beta", 0.0), _c(a["attr"]))
            self._create(st, pd, "an eltwise forward propagation primitive", a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)


class eltwise_backward(primitive):
    """The gradient of an element-wise operation: diff_src from diff_dst and
    the forward's src (or dst, for the *_use_dst_for_bwd algorithms).
    oneDNN's dnnl::eltwise_backward."""

    class primitive_desc(primitive_desc):
        """The descriptor of an eltwise backward primitive: (aengine,
        aalgorithm, diff_src_desc, diff_dst_desc, data_desc[, alpha[, beta]],
        hint_fwd_pd[, attr][, allow_empty]); positions or C++ parameter
        names. Also wraps a dnnl_c pd handle."""

        _signatures = _overloads(
            "eltwise_backward.primitive_desc",
            "aengine, aalgorithm, diff_src_desc, diff_dst_desc, data_desc, hint_fwd_pd, attr, "
            "allow_empty",
            "aengine, aalgorithm, diff_src_desc, diff_dst_desc, data_desc, alpha, hint_fwd_pd, "
            "attr, allow_empty",
            "aengine, aalgorithm, diff_src_desc, diff_dst_desc, data_desc, alpha, beta, "
            "hint_fwd_pd, attr, allow_empty",
            hint=eltwise_forward.primitive_desc)

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_eltwise, (c.dnnl_backward_data,), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_eltwise_backward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aalgorithm"],
                a["diff_src_desc"].get(), a["diff_dst_desc"].get(), a["data_desc"].get(),
                a.get("alpha", 0.0), a.get("beta", 0.0), _c(a["hint_fwd_pd"]), _c(a["attr"]))
            self._create(st, pd, "an eltwise backward propagation primitive",
                         a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)
