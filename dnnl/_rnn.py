"""dnnl.rnn_primitive_desc_base, dnnl.lstm_forward and dnnl.lstm_backward
(oneDNN's dnnl.hpp RNN section)."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._error import error
from dnnl._memory import desc
from dnnl._handle import _c
from dnnl._primitive import _tail, _wrap_c_pd, primitive, primitive_desc

# The descriptors of the C++ overloads, by how many the caller passed.
_FWD = {9: ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter", "bias",
            "dst_layer", "dst_iter", "dst_iter_c"],
        10: ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter",
             "weights_peephole", "bias", "dst_layer", "dst_iter", "dst_iter_c"],
        11: ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter",
             "weights_peephole", "weights_projection", "bias", "dst_layer", "dst_iter",
             "dst_iter_c"]}
_ALL = _FWD[11]


def _split_descs(args):
    """The leading memory descriptors of args, and the rest."""
    n = 0
    while n < len(args) and isinstance(args[n], desc):
        n += 1
    return list(args[:n]), args[n:]


def _c_mds(names, mds, prefix=""):
    given = dict(zip(names, mds))
    return [_c(given[n], prefix + n + "_desc", desc) if n in given else None for n in _ALL]


class rnn_primitive_desc_base(primitive_desc):
    """oneDNN's dnnl::rnn_primitive_desc_base: the queries of every RNN
    primitive descriptor (its arguments' memory descriptors)."""

    def _arg(self, arg):
        return self.query_md(c.dnnl_query_exec_arg_md, arg)

    def src_layer_desc(self):
        return self._arg(c.DNNL_ARG_SRC_LAYER)

    def src_iter_desc(self):
        return self._arg(c.DNNL_ARG_SRC_ITER)

    def src_iter_c_desc(self):
        return self._arg(c.DNNL_ARG_SRC_ITER_C)

    def weights_layer_desc(self):
        return self._arg(c.DNNL_ARG_WEIGHTS_LAYER)

    def weights_iter_desc(self):
        return self._arg(c.DNNL_ARG_WEIGHTS_ITER)

    def weights_peephole_desc(self):
        return self._arg(c.DNNL_ARG_WEIGHTS_PEEPHOLE)

    def weights_projection_desc(self):
        return self._arg(c.DNNL_ARG_WEIGHTS_PROJECTION)

    def bias_desc(self):
        return self._arg(c.DNNL_ARG_BIAS)

    def dst_layer_desc(self):
        return self._arg(c.DNNL_ARG_DST_LAYER)

    def dst_iter_desc(self):
        return self._arg(c.DNNL_ARG_DST_ITER)

    def dst_iter_c_desc(self):
        return self._arg(c.DNNL_ARG_DST_ITER_C)

    def workspace_desc(self):
        return self._arg(c.DNNL_ARG_WORKSPACE)

    def diff_src_layer_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_SRC_LAYER)

    def diff_src_iter_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_SRC_ITER)

    def diff_src_iter_c_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_SRC_ITER_C)

    def diff_weights_layer_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_LAYER)

    def diff_weights_iter_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_ITER)

    def diff_weights_peephole_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE)

    def diff_weights_projection_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_PROJECTION)

    def diff_bias_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_BIAS)

    def diff_dst_layer_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_DST_LAYER)

    def diff_dst_iter_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_DST_ITER)

    def diff_dst_iter_c_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_DST_ITER_C)

    def augru_attention_desc(self):
        return self._arg(c.DNNL_ARG_AUGRU_ATTENTION)

    def diff_augru_attention_desc(self):
        return self._arg(c.DNNL_ARG_DIFF_AUGRU_ATTENTION)

    def cell_kind(self):
        return self.get_cell_kind()

    def direction(self):
        return self.get_direction()


class lstm_forward(primitive):
    """oneDNN's dnnl::lstm_forward."""

    class primitive_desc(rnn_primitive_desc_base):
        """(engine, prop_kind, direction, src_layer_desc, src_iter_desc, src_iter_c_desc,
        weights_layer_desc, weights_iter_desc, [weights_peephole_desc,
        [weights_projection_desc,]] bias_desc, dst_layer_desc, dst_iter_desc,
        dst_iter_c_desc[, attr])"""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_rnn,
                          (c.dnnl_forward_training, c.dnnl_forward_inference)):
                return
            mds, rest = _split_descs(args[3:]) if len(args) >= 3 else ([], ())
            if len(mds) not in _FWD:
                raise error(c.dnnl_invalid_arguments, "lstm_forward.primitive_desc takes "
                            "(engine, prop_kind, direction, 9, 10 (peephole) or 11 "
                            "(peephole, projection) memory descriptors[, attr])")
            eng, pk, direction = args[:3]
            _, _, attr = _tail(rest, 0)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lstm_forward_primitive_desc_create(
                pd, _c(eng, "engine", engine), pk, direction, *_c_mds(_FWD[len(mds)], mds),
                c.dnnl_rnn_flags_undef, _c(attr))
            self._create(st, pd, "an LSTM forward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)


class lstm_backward(primitive):
    """oneDNN's dnnl::lstm_backward."""

    class primitive_desc(rnn_primitive_desc_base):
        """(engine, prop_kind, direction, the forward's 9, 10 or 11 descriptors, their
        18, 20 or 22 with the diff ones, hint_fwd_pd[, attr])"""

        def __init__(self, *args, allow_empty=False):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_rnn, (c.dnnl_backward,)):
                return
            mds, rest = _split_descs(args[3:]) if len(args) >= 3 else ([], ())
            if len(mds) % 2 or len(mds) // 2 not in _FWD:
                raise error(c.dnnl_invalid_arguments, "lstm_backward.primitive_desc takes "
                            "(engine, prop_kind, direction, 18, 20 (peephole) or 22 "
                            "(peephole, projection) memory descriptors, hint_fwd_pd[, attr])")
            eng, pk, direction = args[:3]
            _, hint, attr = _tail(rest, 0, lstm_forward.primitive_desc)
            names = _FWD[len(mds) // 2]
            half = len(mds) // 2
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lstm_backward_primitive_desc_create(
                pd, _c(eng, "engine", engine), pk, direction, *_c_mds(names, mds[:half]),
                *_c_mds(names, mds[half:], "diff_"), c.dnnl_rnn_flags_undef, _c(hint),
                _c(attr))
            self._create(st, pd, "an LSTM backward propagation primitive", allow_empty)

    def __init__(self, pd=None):
        super().__init__(pd)
