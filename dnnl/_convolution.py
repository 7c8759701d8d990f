"""dnnl.convolution_forward, convolution_backward_data and
convolution_backward_weights, with the C++ overloads (with or without bias,
with or without dilation) told apart by argument types."""

import dnnl_c as c
from dnnl._attr import primitive_attr
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c
from dnnl._memory import desc
from dnnl._primitive import _wrap_c_pd, primitive, primitive_desc, primitive_desc_base


def _parse(args, n_fixed, descs, hint_cls, usage):
    """Splits (fixed..., descs..., dims lists..., [hint], [attr]) into
    (fixed, descs, (strides, dilates, padding_l, padding_r), hint, attr)."""
    args = list(args)
    fixed, rest = args[:n_fixed], args[n_fixed:]
    mds = []
    while rest and isinstance(rest[0], desc):
        mds.append(rest.pop(0))
    dims = []
    while rest and not isinstance(rest[0], (primitive_desc_base, primitive_attr)) \
            and rest[0] is not None:
        dims.append(rest.pop(0))      # dnnl_c checks them: lists of ints
    hint = None
    if hint_cls is not None:
        if not rest or not isinstance(rest[0], hint_cls):
            raise error(c.dnnl_invalid_arguments, "expected hint_fwd_pd (a %s) in %s"
                        % (hint_cls.__qualname__, usage))
        hint = rest.pop(0)
    attr = rest.pop(0) if rest else None
    if len(fixed) < n_fixed or len(mds) not in descs or len(dims) not in (3, 4) or rest:
        raise error(c.dnnl_invalid_arguments, "bad arguments; expected %s" % usage)
    strides, dilates = dims[0], dims[1] if len(dims) == 4 else None
    return fixed, mds, (strides, dilates, dims[-2], dims[-1]), hint, attr


class convolution_forward(primitive):
    """oneDNN's dnnl::convolution_forward."""

    class primitive_desc(primitive_desc):
        _usage = ("(engine, prop_kind, algorithm, src_desc, weights_desc, [bias_desc,] dst_desc, "
                  "strides, [dilates,] padding_l, padding_r[, attr])")

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_convolution,
                          (c.dnnl_forward_training, c.dnnl_forward_inference)):
                return
            (eng, pk, alg), mds, dims, _, attr = _parse(args, 3, (3, 4), None, self._usage)
            src, wei, dst = mds[0], mds[1], mds[-1]
            bias = mds[2] if len(mds) == 4 else None
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_convolution_forward_primitive_desc_create(
                pd, _c(eng, "engine", engine), pk, alg, src.get(), wei.get(),
                bias.get(True) if bias is not None else None, dst.get(), *dims,
                _c(attr, "attr", primitive_attr))
            self._create(st, pd, "a convolution forward propagation primitive", allow_empty)

        def bias_desc(self):
            return self.weights_desc(1)

    def __init__(self, pd=None):
        super().__init__(pd)


class convolution_backward_data(primitive):
    """oneDNN's dnnl::convolution_backward_data."""

    class primitive_desc(primitive_desc):
        _usage = ("(engine, algorithm, diff_src_desc, weights_desc, diff_dst_desc, strides, "
                  "[dilates,] padding_l, padding_r, hint_fwd_pd[, attr])")

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_convolution, (c.dnnl_backward_data,)):
                return
            (eng, alg), mds, dims, hint, attr = _parse(
                args, 2, (3,), convolution_forward.primitive_desc, self._usage)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_convolution_backward_data_primitive_desc_create(
                pd, _c(eng, "engine", engine), alg, mds[0].get(), mds[1].get(), mds[2].get(),
                *dims, _c(hint), _c(attr, "attr", primitive_attr))
            self._create(st, pd, "a convolution backward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)


class convolution_backward_weights(primitive):
    """oneDNN's dnnl::convolution_backward_weights."""

    class primitive_desc(primitive_desc):
        _usage = ("(engine, algorithm, src_desc, diff_weights_desc, [diff_bias_desc,] "
                  "diff_dst_desc, strides, [dilates,] padding_l, padding_r, hint_fwd_pd"
                  "[, attr])")

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_convolution, (c.dnnl_backward_weights,)):
                return
            (eng, alg), mds, dims, hint, attr = _parse(
                args, 2, (3, 4), convolution_forward.primitive_desc, self._usage)
            src, dwei, ddst = mds[0], mds[1], mds[-1]
            dbias = mds[2] if len(mds) == 4 else None
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_convolution_backward_weights_primitive_desc_create(
                pd, _c(eng, "engine", engine), alg, src.get(), dwei.get(),
                dbias.get(True) if dbias is not None else None, ddst.get(), *dims,
                _c(hint), _c(attr, "attr", primitive_attr))
            self._create(st, pd, "a convolution weights update primitive", allow_empty)

        def diff_bias_desc(self):
            return self.diff_weights_desc(1)

    def __init__(self, pd=None):
        super().__init__(pd)
