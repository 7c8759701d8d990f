"""dnnl.lstm_forward / dnnl.lstm_backward: the C++ overloads (9, 10, 11
descriptors forward; 18, 20, 22 backward), `any`, queries, errors."""

import numpy as np
import pytest

import dnnl
from dnnl import lstm_backward, lstm_forward, memory, prop_kind, rnn_direction
from object_fixtures import object_engine, object_stream  # noqa: F401 (eng, strm)
from test_lstm import L2R, np_grads, np_lstm, shapes

tag, dt = memory.format_tag, memory.data_type
FWD9 = ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter", "bias",
        "dst_layer", "dst_iter", "dst_iter_c"]
ARG = {n: getattr(dnnl, "DNNL_ARG_" + n.upper()) for n in FWD9 + ["weights_peephole",
                                                                  "weights_projection"]}
ARG.update({"diff_" + k: getattr(dnnl, "DNNL_ARG_DIFF_" + k.upper()) for k in list(ARG)})


def names_for(peephole, projection):
    n = list(FWD9)
    if peephole:
        n.insert(5, "weights_peephole")
    if projection:
        n.insert(6, "weights_projection")
    return n


@pytest.mark.parametrize("peephole,projection", [(False, False), (True, False), (True, True)])
def test_forward_backward_overloads(eng, strm, peephole, projection):
    s = shapes(1, 1, 3, 2, 3, 4, 3 if projection else None, peephole, projection)
    names = names_for(peephole, projection)
    rng = np.random.default_rng(1)
    a = {k: rng.standard_normal(v) * 0.5 for k, v in s.items() if not k.startswith("dst")}
    any_md = {k: memory.desc(list(v), dt.f32, tag.any) for k, v in s.items()}
    fpd = lstm_forward.primitive_desc(eng, prop_kind.forward_training,
                                      rnn_direction.unidirectional_left2right,
                                      *[any_md[k] for k in names])
    assert fpd.cell_kind() == dnnl.algorithm.vanilla_lstm
    assert fpd.direction() == rnn_direction.unidirectional_left2right
    assert fpd.weights_layer_desc() == memory.desc(list(s["weights_layer"]), dt.f32, tag.ldigo)
    assert fpd.src_layer_desc() == memory.desc(list(s["src_layer"]), dt.f32, tag.tnc)
    if peephole:
        assert fpd.weights_peephole_desc().get_dims() == list(s["weights_peephole"])
    mems = {}
    for k in names:
        mems[k] = memory(getattr(fpd, k + "_desc")(), eng)
        if k in a:
            mems[k].write(a[k])
    ws = memory(fpd.workspace_desc(), eng)
    lstm_forward(fpd).execute(strm, {**{ARG[k]: m for k, m in mems.items()},
                                     dnnl.DNNL_ARG_WORKSPACE: ws})
    ref = np_lstm(a, L2R)
    np.testing.assert_allclose(np.asarray(mems["dst_layer"]), ref[0], rtol=1e-4, atol=1e-5)
    bpd = lstm_backward.primitive_desc(eng, prop_kind.backward,
                                       rnn_direction.unidirectional_left2right,
                                       *[any_md[k] for k in names], *[any_md[k] for k in names],
                                       fpd)
    assert bpd.diff_weights_iter_desc() == memory.desc(list(s["weights_iter"]), dt.f32,
                                                       tag.ldigo)
    # backward's `any` weights are ldgoi, as oneDNN's: reordered from forward's
    bwd_mems = dict(mems)
    for k in ("weights_layer", "weights_iter"):
        assert getattr(bpd, k + "_desc")() == memory.desc(list(s[k]), dt.f32, tag.ldgoi)
        bwd_mems[k] = memory(getattr(bpd, k + "_desc")(), eng)
        dnnl.reorder(mems[k], bwd_mems[k]).execute(strm, mems[k], bwd_mems[k])
    dd = {k: rng.standard_normal(s[k]) for k in ("dst_layer", "dst_iter", "dst_iter_c")}
    dm = {}
    for k in names:
        dm[k] = memory(getattr(bpd, "diff_" + k + "_desc")(), eng)
        dm[k].write(dd.get(k, np.zeros(s[k])))     # diff weights accumulate into zeros
    lstm_backward(bpd).execute(strm, {**{ARG[k]: m for k, m in bwd_mems.items()},
                                      **{ARG["diff_" + k]: m for k, m in dm.items()},
                                      dnnl.DNNL_ARG_WORKSPACE: ws})
    grads = np_grads(a, L2R, dd)
    for k, g in grads.items():
        np.testing.assert_allclose(np.asarray(dm[k]), g, rtol=2e-3, atol=2e-4, err_msg=k)


def test_errors(eng):
    s = shapes(1, 1, 3, 2, 3, 4)
    md = {k: memory.desc(list(v), dt.f32, tag.any) for k, v in s.items()}
    bad = dict(md, dst_layer=memory.desc([3, 2, 7], dt.f32, tag.any))
    with pytest.raises(dnnl.error):
        lstm_forward.primitive_desc(eng, prop_kind.forward_training,
                                    rnn_direction.unidirectional_left2right,
                                    *[bad[k] for k in FWD9])
    with pytest.raises(dnnl.error):
        lstm_forward.primitive_desc(eng, prop_kind.forward_training,
                                    rnn_direction.unidirectional_left2right,
                                    *[md[k] for k in FWD9[:8]])
    fpd = lstm_forward.primitive_desc(eng, prop_kind.forward_inference,
                                      rnn_direction.unidirectional_left2right,
                                      *[md[k] for k in FWD9])
    with pytest.raises(dnnl.error):     # an inference hint has no workspace
        lstm_backward.primitive_desc(eng, prop_kind.backward,
                                     rnn_direction.unidirectional_left2right,
                                     *[md[k] for k in FWD9], *[md[k] for k in FWD9], fpd)
    assert fpd.workspace_desc().get_size() == 0
