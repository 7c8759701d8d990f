"""dnnl.vanilla_rnn_*, dnnl.gru_*, dnnl.lbr_gru_*, dnnl.augru_* and
dnnl.lbr_augru_* (oneDNN's dnnl.hpp RNN section, the cells other than LSTM).
Their primitive descriptors check their arguments as oneDNN does; no
implementation here runs these cells yet, so a valid one raises dnnl.error
with status unimplemented (or stays empty with allow_empty=True)."""

import numbers

import dnnl_c as c
from dnnl._engine import engine
from dnnl._error import error
from dnnl._handle import _c
from dnnl._memory import desc
from dnnl._primitive import _tail, _wrap_c_pd, primitive
from dnnl._rnn import _split_descs, rnn_primitive_desc_base

_FWD = ["src_layer", "src_iter", "weights_layer", "weights_iter", "bias", "dst_layer",
        "dst_iter"]
_FWD_ATT = ["src_layer", "src_iter", "attention", "weights_layer", "weights_iter", "bias",
            "dst_layer", "dst_iter"]


class _cell_pd(rnn_primitive_desc_base):
    """The construction every cell's primitive_desc shares: the C++ argument
    lists (engine, prop_kind, [activation,] direction, the descriptors (the
    diff ones too backward), [alpha, beta (vanilla RNN),] [hint_fwd_pd,] [attr])."""

    _name = _c_create = _activation = _attention = _backward = None

    def __init__(self, *args, allow_empty=False):
        super().__init__()
        if _wrap_c_pd(self, args, c.dnnl_rnn,
                      (c.dnnl_backward,) if self._backward else
                      (c.dnnl_forward_training, c.dnnl_forward_inference)):
            return
        n_head = 4 if self._activation else 3
        names = _FWD_ATT if self._attention else _FWD
        want = len(names) * (2 if self._backward else 1)
        mds, rest = _split_descs(args[n_head:]) if len(args) >= n_head else ([], ())
        if len(mds) != want:
            raise error(c.dnnl_invalid_arguments, "%s.primitive_desc takes (engine, prop_kind, "
                        "%sdirection, %d memory descriptors, ...)" % (
                            self._name, "activation, " if self._activation else "", want))
        scalars, hint, attr = _tail(rest, 2 if self._activation else 0,
                                    self._forward_pd() if self._backward else None)
        scalars = [s for s in scalars if isinstance(s, numbers.Real)] + [0.0, 0.0]
        head = [_c(args[0], "engine", engine)] + list(args[1:n_head])
        c_mds = [_c(m, (("diff_" if i >= len(names) else "") + names[i % len(names)]
                        + "_desc"), desc) for i, m in enumerate(mds)]
        tail = [c.dnnl_rnn_flags_undef] + (scalars[:2] if self._activation else []) + \
            ([_c(hint)] if self._backward else []) + [_c(attr)]
        pd = c.dnnl_primitive_desc_t()
        st = self._c_create(pd, *head, *c_mds, *tail)
        self._create(st, pd, "a %s primitive" % self._name.replace("_", " "), allow_empty)

    def _forward_pd(self):
        return globals()[self._name.replace("backward", "forward")].primitive_desc

    # the AUGRU cells' (the zero desc for the others)
    def attention_desc(self):
        return self.augru_attention_desc()

    def diff_attention_desc(self):
        return self.diff_augru_attention_desc()


def _cell(name, create, activation, attention, backward):
    pd_cls = type("primitive_desc", (_cell_pd,), {
        "__doc__": "oneDNN's dnnl::%s::primitive_desc." % name, "_name": name,
        "_c_create": staticmethod(create), "_activation": activation, "_attention": attention,
        "_backward": backward, "__qualname__": name + ".primitive_desc",
        "__module__": __name__})
    cls = type(name, (primitive,), {"__doc__": "oneDNN's dnnl::%s." % name,
                                    "primitive_desc": pd_cls, "__module__": __name__})
    return cls


vanilla_rnn_forward = _cell("vanilla_rnn_forward",
                            c.dnnl_vanilla_rnn_forward_primitive_desc_create, True, False, False)
vanilla_rnn_backward = _cell("vanilla_rnn_backward",
                             c.dnnl_vanilla_rnn_backward_primitive_desc_create, True, False, True)
gru_forward = _cell("gru_forward", c.dnnl_gru_forward_primitive_desc_create, False, False,
                    False)
gru_backward = _cell("gru_backward", c.dnnl_gru_backward_primitive_desc_create, False, False,
                     True)
lbr_gru_forward = _cell("lbr_gru_forward", c.dnnl_lbr_gru_forward_primitive_desc_create,
                        False, False, False)
lbr_gru_backward = _cell("lbr_gru_backward", c.dnnl_lbr_gru_backward_primitive_desc_create,
                         False, False, True)
augru_forward = _cell("augru_forward", c.dnnl_augru_forward_primitive_desc_create, False, True,
                      False)
augru_backward = _cell("augru_backward", c.dnnl_augru_backward_primitive_desc_create, False,
                       True, True)
lbr_augru_forward = _cell("lbr_augru_forward", c.dnnl_lbr_augru_forward_primitive_desc_create,
                          False, True, False)
lbr_augru_backward = _cell("lbr_augru_backward",
                           c.dnnl_lbr_augru_backward_primitive_desc_create, False, True, True)
