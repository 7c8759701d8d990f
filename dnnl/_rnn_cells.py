"""dnnl.vanilla_rnn_*, dnnl.gru_*, dnnl.lbr_gru_*, dnnl.augru_* and
dnnl.lbr_augru_* (oneDNN's dnnl.hpp RNN section, the cells other than LSTM).
Their primitive descriptors check their arguments as oneDNN does; no
implementation here runs these cells yet, so a valid one raises dnnl.error
with status unimplemented (or stays empty with allow_empty=True)."""

import dnnl_c as c
from dnnl._engine import engine
from dnnl._handle import _c
from dnnl._primitive import _overloads, _wrap_c_pd, primitive
from dnnl._rnn import rnn_primitive_desc_base

_FWD = ["src_layer", "src_iter", "weights_layer", "weights_iter", "bias", "dst_layer",
        "dst_iter"]
_FWD_ATT = ["src_layer", "src_iter", "attention", "weights_layer", "weights_iter", "bias",
            "dst_layer", "dst_iter"]


def _signatures(name, activation, attention, backward, hint):
    """dnnl.hpp's overloads of the cell's primitive_desc: (aengine,
    aprop_kind, [activation,] direction, the descriptors [and their diffs],
    [alpha[, beta] (vanilla RNN)], [hint_fwd_pd,] attr, allow_empty)."""
    names = _FWD_ATT if attention else _FWD
    descs = [n + "_desc" for n in names]
    if backward:
        descs += ["diff_" + d for d in descs]
    head = ["aengine", "aprop_kind"] + (["activation"] if activation else []) + ["direction"]
    tail = (["hint_fwd_pd"] if backward else []) + ["attr", "allow_empty"]
    scalars = ([], ["alpha"], ["alpha", "beta"]) if activation else ([],)
    return _overloads(name + ".primitive_desc",
                      *[", ".join(head + descs + s + tail) for s in scalars], hint=hint), descs


class _cell_pd(rnn_primitive_desc_base):
    """What every cell's primitive_desc shares: the binding of dnnl.hpp's
    arguments and the C call."""

    _name = _c_create = _activation = _backward = _signatures = _descs = None

    def __init__(self, *args, **kwargs):
        super().__init__()
        if _wrap_c_pd(self, args, c.dnnl_rnn,
                      (c.dnnl_backward,) if self._backward else
                      (c.dnnl_forward_training, c.dnnl_forward_inference), kwargs):
            return
        a = self._signatures.bind(args, kwargs)
        head = [_c(a["aengine"], "aengine", engine), a["aprop_kind"]] + \
            ([a["activation"]] if self._activation else []) + [a["direction"]]
        mds = [a[d].get() if a[d] is not None else None for d in self._descs]
        tail = [c.dnnl_rnn_flags_undef] + \
            ([a.get("alpha", 0.0), a.get("beta", 0.0)] if self._activation else []) + \
            ([_c(a["hint_fwd_pd"])] if self._backward else []) + [_c(a["attr"])]
        pd = c.dnnl_primitive_desc_t()
        st = self._c_create(pd, *head, *mds, *tail)
        self._create(st, pd, "a %s primitive" % self._name.replace("_", " "), a["allow_empty"])

    def attention_desc(self):
        """The AUGRU cells' attention memory descriptor (zero for the others)."""
        return self.augru_attention_desc()

    def diff_attention_desc(self):
        """The gradient of the AUGRU attention (zero for the other cells)."""
        return self.diff_augru_attention_desc()


def _cell(name, create, activation, attention, backward, what):
    forward = globals().get(name.replace("backward", "forward")) if backward else None
    signatures, descs = _signatures(name, activation, attention, backward,
                                    forward.primitive_desc if forward else None)
    pd_cls = type("primitive_desc", (_cell_pd,), {
        "__doc__": "The descriptor of a %s primitive: %s; positions or C++ parameter names. "
                   "Also wraps a dnnl_c pd handle." % (name, signatures.usage()),
        "_name": name, "_c_create": staticmethod(create), "_activation": activation,
        "_backward": backward, "_signatures": signatures, "_descs": descs,
        "__qualname__": name + ".primitive_desc", "__module__": __name__})

    def __init__(self, pd=None):
        """The primitive of a primitive_desc (empty without one)."""
        primitive.__init__(self, pd)
    return type(name, (primitive,), {
        "__doc__": "%s %s. No implementation runs it yet: its primitive descriptors answer "
                   "unimplemented. oneDNN's dnnl::%s." % (what, "backward" if backward
                                                           else "forward", name),
        "primitive_desc": pd_cls, "__init__": __init__, "__module__": __name__})


vanilla_rnn_forward = _cell("vanilla_rnn_forward",
                            c.dnnl_vanilla_rnn_forward_primitive_desc_create, True, False, False,
                            "A vanilla RNN (one activation per cell),")
vanilla_rnn_backward = _cell("vanilla_rnn_backward",
                             c.dnnl_vanilla_rnn_backward_primitive_desc_create, True, False,
                             True, "A vanilla RNN,")
gru_forward = _cell("gru_forward", c.dnnl_gru_forward_primitive_desc_create, False, False,
                    False, "A GRU network,")
gru_backward = _cell("gru_backward", c.dnnl_gru_backward_primitive_desc_create, False, False,
                     True, "A GRU network,")
lbr_gru_forward = _cell("lbr_gru_forward", c.dnnl_lbr_gru_forward_primitive_desc_create,
                        False, False, False, "A linear-before-reset GRU network,")
lbr_gru_backward = _cell("lbr_gru_backward", c.dnnl_lbr_gru_backward_primitive_desc_create,
                         False, False, True, "A linear-before-reset GRU network,")
augru_forward = _cell("augru_forward", c.dnnl_augru_forward_primitive_desc_create, False, True,
                      False, "A GRU network with attention (AUGRU),")
augru_backward = _cell("augru_backward", c.dnnl_augru_backward_primitive_desc_create, False,
                       True, True, "A GRU network with attention (AUGRU),")
lbr_augru_forward = _cell("lbr_augru_forward", c.dnnl_lbr_augru_forward_primitive_desc_create,
                          False, True, False, "A linear-before-reset AUGRU network,")
lbr_augru_backward = _cell("lbr_augru_backward",
                           c.dnnl_lbr_augru_backward_primitive_desc_create, False, True, True,
                           "A linear-before-reset AUGRU network,")
