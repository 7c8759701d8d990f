"""dnnl.lrn_forward and dnnl.lrn_backward."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._primitive import _overloads, _wrap_c_pd, primitive, primitive_desc


class lrn_forward(primitive):
    """Local response normalization, forward: each value divided by
    (k + alpha / n * sum of squares over its local_size neighbours) ** beta,
    across channels or within a channel. oneDNN's dnnl::lrn_forward."""

    class primitive_desc(primitive_desc):
        """The descriptor of an LRN forward primitive: (aengine, aprop_kind,
        aalgorithm, src_desc, dst_desc, local_size, alpha, beta, k[, attr]
        [, allow_empty]); positions or C++ parameter names. Also wraps a
        dnnl_c pd handle."""

        _signatures = _overloads(
            "lrn_forward.primitive_desc",
            "aengine, aprop_kind, aalgorithm, src_desc, dst_desc, local_size, alpha, beta, k, "
            "attr, allow_empty")

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_lrn,
                          (c.dnnl_forward_training, c.dnnl_forward_inference), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lrn_forward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aprop_kind"], a["aalgorithm"],
                a["src_desc"].get(), a["dst_desc"].get(), a["local_size"], a["alpha"],
                a["beta"], a["k"], _c(a["attr"]))
            self._create(st, pd, "an lrn forward propagation primitive", a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)


class lrn_backward(primitive):
    """The gradient of local response normalization: diff_src from
    diff_dst and the forward's src. oneDNN's dnnl::lrn_backward."""

    class primitive_desc(primitive_desc):
        """The descriptor of an LRN backward primitive: (aengine, aalgorithm,
        diff_src_desc, diff_dst_desc, src_desc, local_size, alpha, beta, k,
        hint_fwd_pd[, attr][, allow_empty]); positions or C++ parameter
        names. Also wraps a dnnl_c pd handle."""

        _signatures = _overloads(
            "lrn_backward.primitive_desc",
            "aengine, aalgorithm, diff_src_desc, diff_dst_desc, src_desc, local_size, alpha, "
            "beta, k, hint_fwd_pd, attr, allow_empty", hint=lrn_forward.primitive_desc)

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_lrn, (c.dnnl_backward_data,), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lrn_backward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aalgorithm"],
                a["diff_src_desc"].get(), a["diff_dst_desc"].get(), a["src_desc"].get(),
                a["local_size"], a["alpha"], a["beta"], a["k"], _c(a["hint_fwd_pd"]),
                _c(a["attr"]))
            self._create(st, pd, "an lrn backward propagation primitive", a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)
