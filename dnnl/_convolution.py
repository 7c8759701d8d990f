"""dnnl.convolution_forward, convolution_backward_data and
convolution_backward_weights, with the C++ overloads (with or without bias,
with or without dilation) told apart by the arguments' kinds."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._primitive import _overloads, _wrap_c_pd, primitive, primitive_desc


def _signatures(what, head, bias, descs, tail, hint=None):
    """C++'s overloads: head, [bias,] descs, strides, [dilates,] padding_l,
    padding_r, tail; with the bias first, then without, as dnnl.hpp lists
    them."""
    sigs = []
    for dil in ("", "dilates, "):
        for b in ((bias, "") if bias else ("",)):
            sigs.append("%s%s%sstrides, %spadding_l, padding_r, %s" % (head, b, descs, dil, tail))
    return _overloads(what, *sigs, hint=hint)


def _dims(a):
    return a["strides"], a.get("dilates"), a["padding_l"], a["padding_r"]


def _opt(md):
    """An optional descriptor: None and the zero desc both mean absent."""
    return md.get(True) if md is not None else None


class convolution_forward(primitive):
    """A 1-D, 2-D or 3-D convolution, forward: dst = conv(src, weights) +
    bias. oneDNN's dnnl::convolution_forward."""

    class primitive_desc(primitive_desc):
        """The descriptor of a convolution forward primitive: (aengine,
        aprop_kind, aalgorithm, src_desc, weights_desc, [bias_desc,] dst_desc,
        strides, [dilates,] padding_l, padding_r[, attr][, allow_empty]);
        positions or C++ parameter names. Also wraps a dnnl_c pd handle."""

        _signatures = _signatures(
            "convolution_forward.primitive_desc",
            "aengine, aprop_kind, aalgorithm, src_desc, weights_desc, ", "bias_desc, ",
            "dst_desc, ", "attr, allow_empty")

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_convolution,
                          (c.dnnl_forward_training, c.dnnl_forward_inference), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_convolution_forward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aprop_kind"], a["aalgorithm"],
                a["src_desc"].get(), a["weights_desc"].get(), _opt(a.get("bias_desc")),
                a["dst_desc"].get(), *_dims(a), _c(a["attr"]))
            self._create(st, pd, "a convolution forward propagation primitive",
                         a["allow_empty"])

        def bias_desc(self):
            """The bias memory descriptor (zero when the problem has none)."""
            return self.weights_desc(1)

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)


class convolution_backward_data(primitive):
    """The gradient of a convolution with respect to its source: diff_src
    from diff_dst and the weights. oneDNN's dnnl::convolution_backward_data."""

    class primitive_desc(primitive_desc):
        """The descriptor of a convolution backward-data primitive: (aengine,
        aalgorithm, diff_src_desc, weights_desc, diff_dst_desc, strides,
        [dilates,] padding_l, padding_r, hint_fwd_pd[, attr][, allow_empty]);
        positions or C++ parameter names. Also wraps a dnnl_c pd handle."""

        _signatures = _signatures(
            "convolution_backward_data.primitive_desc",
            "aengine, aalgorithm, diff_src_desc, weights_desc, diff_dst_desc, ", "", "",
            "hint_fwd_pd, attr, allow_empty", hint=convolution_forward.primitive_desc)

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_convolution, (c.dnnl_backward_data,), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_convolution_backward_data_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aalgorithm"],
                a["diff_src_desc"].get(), a["weights_desc"].get(), a["diff_dst_desc"].get(),
                *_dims(a), _c(a["hint_fwd_pd"]), _c(a["attr"]))
            self._create(st, pd, "a convolution backward propagation primitive",
                         a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)


class convolution_backward_weights(primitive):
    """The gradient of a convolution with respect to its weights and bias:
    diff_weights and diff_bias from src and diff_dst. oneDNN's
    dnnl::convolution_backward_weights."""

    class primitive_desc(primitive_desc):
        """The descriptor of a convolution backward-weights primitive:
        (aengine, aalgorithm, src_desc, diff_weights_desc, [diff_bias_desc,]
        diff_dst_desc, strides, [dilates,] padding_l, padding_r, hint_fwd_pd
        [, attr][, allow_empty]); positions or C++ parameter names. Also wraps
        a dnnl_c pd handle."""

        _signatures = _signatures(
            "convolution_backward_weights.primitive_desc",
            "aengine, aalgorithm, src_desc, diff_weights_desc, ", "diff_bias_desc, ",
            "diff_dst_desc, ", "hint_fwd_pd, attr, allow_empty",
            hint=convolution_forward.primitive_desc)

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_convolution, (c.dnnl_backward_weights,), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_convolution_backward_weights_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aalgorithm"], a["src_desc"].get(),
                a["diff_weights_desc"].get(), _opt(a.get("diff_bias_desc")),
                a["diff_dst_desc"].get(), *_dims(a), _c(a["hint_fwd_pd"]), _c(a["attr"]))
            self._create(st, pd, "a convolution weights update primitive", a["allow_empty"])

        def diff_bias_desc(self):
            """The diff bias memory descriptor (zero when the problem has none)."""
            return self.diff_weights_desc(1)

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)
