"""dnnl.rnn_primitive_desc_base, dnnl.lstm_forward and dnnl.lstm_backward
(oneDNN's dnnl.hpp RNN section)."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._primitive import _overloads, _wrap_c_pd, primitive, primitive_desc

# The descriptors of the C++ overloads: plain, with peephole, with peephole
# and projection (dnnl.hpp lists them the other way round).
_FWD = [["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter", "bias",
         "dst_layer", "dst_iter", "dst_iter_c"],
        ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter",
         "weights_peephole", "bias", "dst_layer", "dst_iter", "dst_iter_c"],
        ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter",
         "weights_peephole", "weights_projection", "bias", "dst_layer", "dst_iter",
         "dst_iter_c"]]
_ALL = _FWD[2]
_HEAD = "aengine, aprop_kind, direction, "


def _descs(names, prefix=""):
    return ", ".join(prefix + n + "_desc" for n in names) + ", "


def _c_mds(a, prefix=""):
    """The C call's eleven descriptors; those the overload lacks are NULL."""
    mds = [a.get(prefix + n + "_desc") for n in _ALL]
    return [md.get() if md is not None else None for md in mds]


class rnn_primitive_desc_base(primitive_desc):
    """The base of every RNN primitive descriptor: the memory descriptors of
    its arguments (layer, iteration and cell states, weights, bias, their
    gradients, the AUGRU attention). oneDNN's dnnl::rnn_primitive_desc_base."""

    def _arg(self, arg):
        return self.query_md(c.dnnl_query_exec_arg_md, arg)

    def src_layer_desc(self):
        """The src layer memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_SRC_LAYER)

    def src_iter_desc(self):
        """The src iter memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_SRC_ITER)

    def src_iter_c_desc(self):
        """The src iter c memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_SRC_ITER_C)

    def weights_layer_desc(self):
        """The weights layer memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_WEIGHTS_LAYER)

    def weights_iter_desc(self):
        """The weights iter memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_WEIGHTS_ITER)

    def weights_peephole_desc(self):
        """The weights peephole memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_WEIGHTS_PEEPHOLE)

    def weights_projection_desc(self):
        """The weights projection memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_WEIGHTS_PROJECTION)

    def bias_desc(self):
        """The bias memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_BIAS)

    def dst_layer_desc(self):
        """The dst layer memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DST_LAYER)

    def dst_iter_desc(self):
        """The dst iter memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DST_ITER)

    def dst_iter_c_desc(self):
        """The dst iter c memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DST_ITER_C)

    def workspace_desc(self):
        """The workspace memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_WORKSPACE)

    def diff_src_layer_desc(self):
        """The diff src layer memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_SRC_LAYER)

    def diff_src_iter_desc(self):
        """The diff src iter memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_SRC_ITER)

    def diff_src_iter_c_desc(self):
        """The diff src iter c memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_SRC_ITER_C)

    def diff_weights_layer_desc(self):
        """The diff weights layer memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_LAYER)

    def diff_weights_iter_desc(self):
        """The diff weights iter memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_ITER)

    def diff_weights_peephole_desc(self):
        """The diff weights peephole memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE)

    def diff_weights_projection_desc(self):
        """The diff weights projection memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_WEIGHTS_PROJECTION)

    def diff_bias_desc(self):
        """The diff bias memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_BIAS)

    def diff_dst_layer_desc(self):
        """The diff dst layer memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_DST_LAYER)

    def diff_dst_iter_desc(self):
        """The diff dst iter memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_DST_ITER)

    def diff_dst_iter_c_desc(self):
        """The diff dst iter c memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_DST_ITER_C)

    def augru_attention_desc(self):
        """The augru attention memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_AUGRU_ATTENTION)

    def diff_augru_attention_desc(self):
        """The diff augru attention memory descriptor (zero when the problem has none)."""
        return self._arg(c.DNNL_ARG_DIFF_AUGRU_ATTENTION)

    def cell_kind(self):
        """The cell kind, an algorithm (vanilla_lstm, ...)."""
        return self.get_cell_kind()

    def direction(self):
        """The direction, an rnn_direction."""
        return self.get_direction()


class lstm_forward(primitive):
    """A long short-term memory (LSTM) network over a sequence, forward:
    layers, directions, optional peephole and projection. oneDNN's
    dnnl::lstm_forward."""

    class primitive_desc(rnn_primitive_desc_base):
        """The descriptor of an LSTM forward primitive: (aengine, aprop_kind,
        direction, src_layer_desc, src_iter_desc, src_iter_c_desc,
        weights_layer_desc, weights_iter_desc, [weights_peephole_desc,
        [weights_projection_desc,]] bias_desc, dst_layer_desc, dst_iter_desc,
        dst_iter_c_desc[, attr][, allow_empty]); positions or C++ parameter
        names; a zero desc (memory.desc()) leaves an optional tensor out.
        Also wraps a dnnl_c pd handle."""

        _signatures = _overloads("lstm_forward.primitive_desc",
                                 *[_HEAD + _descs(n) + "attr, allow_empty" for n in _FWD])

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_rnn,
                          (c.dnnl_forward_training, c.dnnl_forward_inference), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lstm_forward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aprop_kind"], a["direction"],
                *_c_mds(a), c.dnnl_rnn_flags_undef, _c(a["attr"]))
            self._create(st, pd, "an LSTM forward propagation primitive", a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)


class lstm_backward(primitive):
    """The gradients of an LSTM network: diff src, iter and weights from the
    diff dst and the forward's workspace. oneDNN's dnnl::lstm_backward."""

    class primitive_desc(rnn_primitive_desc_base):
        """The descriptor of an LSTM backward primitive: (aengine,
        aprop_kind, direction, the forward's 9, 10 or 11 descriptors, their
        diff_* counterparts, hint_fwd_pd[, attr][, allow_empty]); positions or
        C++ parameter names. Also wraps a dnnl_c pd handle."""

        _signatures = _overloads(
            "lstm_backward.primitive_desc",
            *[_HEAD + _descs(n) + _descs(n, "diff_") + "hint_fwd_pd, attr, allow_empty"
              for n in _FWD], hint=lstm_forward.primitive_desc)

        def __init__(self, *args, **kwargs):
            super().__init__()
            if _wrap_c_pd(self, args, c.dnnl_rnn, (c.dnnl_backward,), kwargs):
                return
            a = self._signatures.bind(args, kwargs)
            pd = c.dnnl_primitive_desc_t()
            st = c.dnnl_lstm_backward_primitive_desc_create(
                pd, _c(a["aengine"], "aengine", engine), a["aprop_kind"], a["direction"],
                *_c_mds(a), *_c_mds(a, "diff_"), c.dnnl_rnn_flags_undef,
                _c(a["hint_fwd_pd"]), _c(a["attr"]))
            self._create(st, pd, "an LSTM backward propagation primitive", a["allow_empty"])

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        super().__init__(pd)

