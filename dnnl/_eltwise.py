"""dnnl.eltwise_forward and dnnl.eltwise_backward."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c
from dnnl._memory import desc
from dnnl._primitive import _tail, _wrap_c_pd, primitive, primitive_desc


class eltwise_forward(primitive):
    """oneDNN's dnnl::eltwise_forward."""

    class primitive_desc(primitive_desc):
        """(engine, prop_kind, algorithm, src_desc, dst_desc[, alpha[, beta]][, attr])"""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_eltwise,
                          (c.dnnl_forward_training, c.dnnl_forward_inference)):
                return
            if len(args) < 5:
                raise error(c.dnnl_invalid_arguments, "eltwise_forward.primitive_desc takes "
                            "(engine, prop_kind, algorithm, src_desc, dst_desc[, alpha[, beta]]"
                            "[, attr])")
            eng, pk, alg, src_md, dst_md = args[:5]
            numbers, _, attr = _tail(args[5:], 2)
            alpha, beta = (list(numbers) + [0.0, 0.0])[:2]
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_eltwise_forward_primitive_desc_create(
                pd, _c(eng, "engine", engine), pk, alg, _c(src_md, "src_desc", desc),
                _c(dst_md, "dst_desc", desc), alpha, beta, _c(attr))
            self._create(st, pd, "an eltwise forward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)


class eltwise_backward(primitive):
    """oneDNN's dnnl::eltwise_backward."""

    class primitive_desc(primitive_desc):
        """(engine, algorithm, diff_src_desc, diff_dst_desc, data_desc[, alpha[, beta]],
        hint_fwd_pd[, attr])"""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_eltwise, (c.dnnl_backward_data,)):
                return
            if len(args) < 6:
                raise error(c.dnnl_invalid_arguments, "eltwise_backward.primitive_desc takes "
                            "(engine, algorithm, diff_src_desc, diff_dst_desc, data_desc"
                            "[, alpha[, beta]], hint_fwd_pd[, attr])")
            eng, alg, diff_src_md, diff_dst_md, data_md = args[:5]
            numbers, hint, attr = _tail(args[5:], 2, eltwise_forward.primitive_desc)
            alpha, beta = (list(numbers) + [0.0, 0.0])[:2]
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_eltwise_backward_primitive_desc_create(
                pd, _c(eng, "engine", engine), alg, _c(diff_src_md, "diff_src_desc", desc),
                _c(diff_dst_md, "diff_dst_desc", desc), _c(data_md, "data_desc", desc),
                alpha, beta, _c(hint), _c(attr))
            self._create(st, pd, "an eltwise backward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)
