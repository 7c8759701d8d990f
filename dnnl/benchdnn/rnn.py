"""--rnn (benchdnn's rnn driver, doc/driver_rnn.md) for the cell cydnnl has,
VANILLA_LSTM (with peephole and projection): --prop=FWD_I, FWD_D (forward
training) or BWD_DW (forward training, then backward), every direction,
--cfg f32, bf16 or bf16f32, --tag=SRC:WEI:DST (tnc, ntc or any), and
--trivial-strides=false's padded strides. Other cells answer unimplemented;
--skip-nonlinear=true needs the library's testing-only rnn_tparams
attribute and is skipped.

Filling follows benchdnn's: activations, states and bias in [0, 1) (no
cancellation), weights sparse (one 1/4 per gate column, at a position
varying with the column), so sums are short; the threshold is benchdnn's,
4 * log2(accumulation length) epsilons, doubled for backward and for a
bidirectional sum, with a norm check past one layer and one step. Diff
weights and bias accumulate into what they held unless --flags=O."""

import numpy as np

import dnnl
import dnnl_c as c
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import parser as P
from dnnl.benchdnn import ref_rnn as R
from dnnl.benchdnn.desc import RnnDesc
from dnnl.benchdnn.driver import Driver

ALGS = {a.lower(): a for a in ("VANILLA_RNN", "VANILLA_LSTM", "VANILLA_GRU", "LBR_GRU",
                               "VANILLA_AUGRU", "LBR_AUGRU")}
DIRECTIONS = {"left2right": "unidirectional_left2right",
              "right2left": "unidirectional_right2left",
              "concat": "bidirectional_concat", "sum": "bidirectional_sum"}
ACTIVATIONS = {a.lower(): a for a in ("RELU", "LOGISTIC", "TANH", "UNDEF")}
FWD = ["src_layer", "src_iter", "src_iter_c", "weights_layer", "weights_iter",
       "weights_peephole", "weights_projection", "bias", "dst_layer", "dst_iter", "dst_iter_c"]
_BF16 = {"src_layer", "src_iter", "weights_layer", "weights_iter", "dst_iter", "dst_layer"}
_ARG = {name: getattr(dnnl, "DNNL_ARG_" + name.upper()) for name in FWD}
_ARG.update({"diff_" + name: getattr(dnnl, "DNNL_ARG_DIFF_" + name.upper()) for name in FWD})


def cfg_dt(cfg, name):
    """The data type --cfg gives a tensor (rnn/cfg.cpp); diffs are f32
    except in f16."""
    if name.startswith("diff_"):
        return "f16" if cfg == "f16" else "f32"
    if cfg == "bf16":
        return "f32" if name in ("weights_peephole", "weights_projection") else "bf16"
    if cfg == "bf16f32":
        return "bf16" if name in _BF16 else "f32"
    if cfg in ("f32", "f16"):
        return cfg
    # int8 configurations: u8 data, s8 weights, f32 the rest
    if name in ("weights_layer", "weights_iter", "weights_projection"):
        return "s8"
    if name in ("src_layer", "src_iter", "dst_iter", "dst_layer"):
        return "f32" if name == "dst_layer" and cfg.endswith("f32") else "u8"
    return "f32"


def _cfg(text):
    if text not in ("f32", "bf16", "bf16f32", "f16", "u8u8u8u8", "u8u8u8f32", "f32u8f32u8",
                    "f32u8f32f32", "s8s8s8s8", "s8s8s8f32"):
        raise ValueError("unknown configuration '%s'" % text)
    return text


def _tags(text):
    tags = text.split(":")
    if len(tags) not in (1, 3):
        raise ValueError("`tag` option expects either a single input or three inputs in "
                         "SRC:WEI:DST format")
    return tags * 3 if len(tags) == 1 else tags


def _flags(text):
    if any(ch != "O" for ch in text):
        raise ValueError("--flags option doesn't support value '%s'" % text)
    return text


class RnnDriver(Driver):
    name = "rnn"
    desc_class = RnnDesc
    unsupported = ("scaling", "scaling-proj")
    folded = ("mb", "l", "t")
    options = [
        P.choice_option("prop", {"FWD_I": "FWD_I", "FWD_D": "FWD_D", "BWD_DW": "BWD_DW"},
                        "FWD_I"),
        P.Option("cfg", _cfg, ["f32"]),
        P.Option("tag", _tags, [["any", "any", "any"]], show=lambda v: ":".join(v)),
        P.choice_option("alg", ALGS, "VANILLA_RNN"),
        P.bool_option("with-peephole", False), P.bool_option("with-projection", False),
        P.choice_option("direction", {k: k for k in DIRECTIONS}, "left2right"),
        P.choice_option("activation", ACTIVATIONS, "RELU"),
        P.bool_option("skip-nonlinear", False), P.bool_option("trivial-strides", False),
        P.Option("flags", _flags, [""]),
        P.int_option("l", 0), P.int_option("t", 0),
    ]

    def finalize(self, prb):
        d = prb.desc
        prb.L = prb.l or d.n_layer
        prb.T = prb.t or d.n_iter
        prb.mb_value = prb.mb or d.mb
        prb.D = 2 if prb.direction in ("concat", "sum") else 1
        prb.DLC = (2 if prb.direction == "concat" else 1) * d.dic
        prb.bwd = prb.prop == "BWD_DW"

    def desc_str(self, prb):
        return prb.desc.format(prb.mb_value, prb.L, prb.T)

    def dts(self, prb):
        return sorted({cfg_dt(prb.cfg, n) for n in FWD})

    def expected_implemented(self, prb):
        return prb.alg == "VANILLA_LSTM" and prb.cfg in ("f32", "bf16", "bf16f32")

    def fields(self, prb):
        return {"prop": prb.prop, "dir": prb.prop, "cfg": prb.cfg, "tag": ":".join(prb.tag),
                "alg": prb.alg, "direction": prb.direction, "activation": prb.activation,
                "attr": "", "flags": prb.flags}

    def csv_template(self):
        return ("perf,%engine%,%impl%,%name%,%prop%,%cfg%,%alg%,%activation%,%direction%,"
                "%attr%,%desc%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%")

    def ops(self, prb):
        d = prb.desc
        cell = 2 * 4 * d.dhc * prb.mb_value * (d.sic + d.slc)
        if prb.with_projection:
            cell += 2 * d.dhc * prb.mb_value * d.dic
        return float((2 if prb.bwd else 1) * prb.D * prb.L * prb.T * cell)

    def skip(self, prb):
        d = prb.desc
        if prb.skip_nonlinear:
            return ("--skip-nonlinear=true needs oneDNN's testing-only rnn_tparams attribute, "
                    "which cydnnl does not have")
        if not prb.trivial_strides and "any" in (prb.tag[0], prb.tag[2]):
            return "Invalid case"
        if (not prb.with_projection and d.dhc != d.dic) or (prb.L > 1 and d.slc != d.dic) \
                or (prb.T > 1 and d.sic != d.dic):
            return "Invalid case"
        if (prb.with_peephole or prb.with_projection) and prb.alg != "VANILLA_LSTM":
            return "Invalid case"
        if prb.with_projection and cfg_dt(prb.cfg, "src_layer") in ("bf16", "f16"):
            return "Case not supported"
        return None

    # ---------------------------------------------------------------- tensors

    def dims(self, prb):
        d, L, D, N, T_ = prb.desc, prb.L, prb.D, prb.mb_value, prb.T
        return {"src_layer": [T_, N, d.slc], "src_iter": [L, D, N, d.sic],
                "src_iter_c": [L, D, N, d.dhc], "weights_layer": [L, D, d.slc, 4, d.dhc],
                "weights_iter": [L, D, d.sic, 4, d.dhc], "weights_peephole": [L, D, 3, d.dhc],
                "weights_projection": [L, D, d.dhc, d.dic], "bias": [L, D, 4, d.dhc],
                "dst_layer": [T_, N, prb.DLC], "dst_iter": [L, D, N, d.dic],
                "dst_iter_c": [L, D, N, d.dhc]}

    def mds(self, prb, diff):
        """The tensors' memory descriptors (benchdnn's init_pd): layer
        tensors by --tag, the biggest stride one longer unless
        --trivial-strides; iter tensors ldnc, their batch stride one longer
        unless --trivial-strides; weights by --tag (any on backward),
        bias and projection any, peephole ldgo."""
        dims = self.dims(prb)
        extra = 0 if prb.trivial_strides else 1
        out = {}
        for name in FWD:
            if name == "weights_peephole" and not prb.with_peephole or \
                    name == "weights_projection" and not prb.with_projection:
                continue
            full = ("diff_" if diff else "") + name
            dt = cfg_dt(prb.cfg, full)
            shape = dims[name]
            if name in ("src_layer", "dst_layer"):
                tag = prb.tag[0 if name == "src_layer" else 2]
                out[full] = self._strided(shape, dt, tag, extra, biggest=True)
            elif name.endswith(("iter", "iter_c")) and not name.startswith("weights"):
                out[full] = self._strided(shape, dt, "abcd", extra, biggest=False)
            elif name in ("weights_layer", "weights_iter"):
                out[full] = T.md(shape, dt, "any" if (prb.bwd or diff) else prb.tag[1])
            elif name == "weights_peephole":
                out[full] = T.md(shape, dt, "abcd")
            else:
                out[full] = T.md(shape, dt, "any")
        return out

    def _strided(self, shape, dt, tag, extra, biggest):
        md = T.md(shape, dt, tag)
        if tag == "any" or not extra:
            return md
        strides = md.get_strides()
        if biggest:
            strides[int(np.argmax(strides))] += extra
        else:
            strides[2] = shape[3] + extra
            strides[1] = strides[2] * shape[2]
            strides[0] = strides[1] * shape[1]
        return T.md(shape, dt, strides=strides)

    def _create(self, res, prb, prop, mds, diff_mds=None, hint=None):
        """An LSTM pd through the C API (dnnl.hpp has no rnn flags), then
        held by the object layer's class."""
        direction = getattr(dnnl.rnn_direction, DIRECTIONS[prb.direction])
        flags = c.dnnl_rnn_flags_diff_weights_overwrite if "O" in prb.flags else \
            c.dnnl_rnn_flags_undef
        pd = c.dnnl_primitive_desc_t()

        def h(mdict, name):
            md = mdict.get(name)
            return md.get() if md is not None else None
        eng = self.ctx.engine.get()
        if diff_mds is None:
            st = c.dnnl_lstm_forward_primitive_desc_create(
                pd, eng, prop, direction, *[h(mds, n) for n in FWD], flags, None)
            cls = dnnl.lstm_forward.primitive_desc
        else:
            st = c.dnnl_lstm_backward_primitive_desc_create(
                pd, eng, prop, direction, *[h(mds, n) for n in FWD],
                *[h(diff_mds, "diff_" + n) for n in FWD], flags, hint.get(), None)
            cls = dnnl.lstm_backward.primitive_desc
        dnnl.error.wrap_c_api(st, "could not create an LSTM primitive descriptor")
        try:
            return cls(pd)
        finally:
            c.dnnl_primitive_desc_destroy(pd)

    # ---------------------------------------------------------------- run

    def fill_values(self, rng, name, shape, dt):
        """A tensor's logical values (see the module doc)."""
        base = name[5:] if name.startswith("diff_") else name
        if base in ("weights_layer", "weights_iter", "weights_projection"):
            L, D, I = shape[:3]
            G, O = (1, shape[3]) if base == "weights_projection" else (shape[3], shape[4])
            w = np.zeros((L, D, I, G, O))
            l, d, g, o = np.meshgrid(np.arange(L), np.arange(D), np.arange(G), np.arange(O),
                                     indexing="ij")
            w[l, d, (19 * o + 7 * g + 11 * d + 13 * l) % I, g, o] = 1.0 / G
            return T.round_to(w.reshape(shape), dt)
        return T.round_to(rng.uniform(0.0, 1.0, shape), dt)

    def run(self, prb, res):
        if prb.alg != "VANILLA_LSTM":
            raise dnnl.error(dnnl.status.unimplemented,
                             "cydnnl implements the LSTM cell only, not %s" % prb.alg)
        train = prb.bwd or prb.prop == "FWD_D"
        prop = dnnl.prop_kind.forward_training if train else dnnl.prop_kind.forward_inference
        mds = self.mds(prb, False)
        if prb.bwd:
            fwd_pd = self._create(res, prb, prop, mds)
            diff_mds = self.mds(prb, True)
            pd = self.create_pd(res, prb, self._create, res, prb, dnnl.prop_kind.backward,
                                mds, diff_mds, fwd_pd)
        else:
            fwd_pd = pd = self.create_pd(res, prb, self._create, res, prb, prop, mds)
        if self.ctx.mode == "I":
            res.state = "INITIALIZED"
            return
        rng = self.rng(prb)
        data = {n: self.fill_values(rng, n, self.dims(prb)[n], cfg_dt(prb.cfg, n))
                for n in FWD if n in mds and not n.startswith("dst")}
        mems = {}
        for name in mds:
            mems[name] = self.memory(fwd_pd.query_md(dnnl.query.exec_arg_md, _ARG[name]))
            if name in data:
                self.fill(res, mems[name], data[name])
        args = {_ARG[n]: m for n, m in mems.items()}
        ws_md = fwd_pd.workspace_desc()
        if not ws_md.is_zero():
            args[dnnl.DNNL_ARG_WORKSPACE] = self.memory(ws_md)
        fwd = self.primitive(res, dnnl.lstm_forward, fwd_pd)
        self.execute(res, fwd, args)
        direction = DIRECTIONS[prb.direction]
        outs = ("dst_layer", "dst_iter", "dst_iter_c")
        if not prb.bwd:
            self.bytes_of(res, [m for n, m in mems.items() if n not in outs],
                          [mems[n] for n in outs])

            def check():
                exp = self.timed(res, "compute_ref", R.lstm_forward, data, direction)
                for n in outs:
                    self._check(res, prb, n, mems[n], exp[n])
            self.finish(res, prb, fwd, args, check)
            return
        self._run_bwd(prb, res, pd, data, mems, args, direction)

    def _as(self, res, mem, md):
        """mem itself when it has layout md, else a copy in that layout."""
        if mem.get_desc() == md:
            return mem
        out = self.memory(md)
        self.fill(res, out, self.read(mem))
        return out

    def _run_bwd(self, prb, res, pd, data, mems, fwd_args, direction):
        rng = self.rng(prb)
        dims = self.dims(prb)
        bargs = {dnnl.DNNL_ARG_WORKSPACE: fwd_args[dnnl.DNNL_ARG_WORKSPACE]}
        for name, mem in mems.items():
            bargs[_ARG[name]] = self._as(res, mem, pd.query_md(dnnl.query.exec_arg_md,
                                                               _ARG[name]))
        init, dmems = {}, {}
        for name in mems:
            full = "diff_" + name
            dmems[full] = self.memory(pd.query_md(dnnl.query.exec_arg_md, _ARG[full]))
            bargs[_ARG[full]] = dmems[full]
            if name.startswith("dst") or name.startswith("weights") or name == "bias":
                init[full] = self.fill_values(rng, full, dims[name], "f32")
                self.fill(res, dmems[full], init[full])
        prim = self.primitive(res, dnnl.lstm_backward, pd)
        self.execute(res, prim, bargs)
        ins = [m for n, m in dmems.items() if n.startswith("diff_dst")]
        self.bytes_of(res, ins + [m for n, m in mems.items()],
                      [m for n, m in dmems.items() if not n.startswith("diff_dst")])

        def check():
            ref_in = dict(data)
            ref_in.update({n: v for n, v in init.items() if n.startswith("diff_dst")})
            grads = self.timed(res, "compute_ref", R.lstm_backward, ref_in, direction)
            for name, exp in grads.items():
                if name not in dmems:
                    continue
                if name in init and "O" not in prb.flags:
                    exp = exp + init[name]          # diff weights and bias accumulate
                self._check(res, prb, name, dmems[name], exp)
        self.finish(res, prb, prim, bargs, check)

    def _check(self, res, prb, name, mem, exp):
        """benchdnn's rnn threshold (rnn.cpp setup_cmp)."""
        acc = 2 * 4 + 1
        if prb.bwd:
            acc *= max(4 * prb.desc.dhc, prb.mb_value)
        eps = T.epsilon("bf16" if prb.cfg.startswith("bf16") else "f32")
        trh = 4 * (1 + prb.bwd) * (1 + (prb.direction == "sum")) * \
            np.ceil(np.log2(acc * prb.T)) * eps
        extra = (lambda e, got, diff, rel: diff < trh) if prb.bwd else None
        self.check(res, name.upper(), mem, exp, cfg_dt(prb.cfg, name), trh, extra_ok=extra,
                   norm_check=not (prb.L == 1 and prb.T == 1))
