"""benchdnn's problem descriptors (tests/benchdnn/doc/knobs_desc.md and the
drivers' docs), parsed as benchdnn's str2desc functions parse them:

    conv   gXmbX_icXidXihXiwX_ocXodXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_ddXdhXdwX_nS
    pool   mbXicX_idXihXiwX_odXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_ddXdhXdwX_nS
    lrn    mbXicX_idXihXiwX_lsX_alphaF_betaF_kF_nS
    rnn    lXtXmbX_sicX_slcX_dhcX_dicX_nS
    dims   NxNxNxN[_nS]                      (eltwise, reorder)

`_` separates entries; `n` starts the name (the rest of the string, quotes
kept, as benchdnn keeps them). Defaults: g1, mb2, strides 1, dilation 0;
an output size not given is computed, a padding not given is deduced from
the output (or 0); values not given for h and w are copied from d and h
("cubic" and "square" problems). A descriptor benchdnn refuses raises
ValueError with benchdnn's reason."""

import re

_INT = r"\d+"
_FLOAT = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"


def _scan(text, int_keys, float_keys=()):
    """The entries of a descriptor: ({key: value}, name or '')."""
    keys = sorted(list(int_keys) + list(float_keys), key=len, reverse=True)
    vals, name, pos = {}, "", 0
    while pos < len(text):
        if text[pos] == "_":
            pos += 1
            continue
        for key in keys:
            if text.startswith(key, pos):
                m = re.match(_FLOAT if key in float_keys else r"[+-]?" + _INT,
                             text[pos + len(key):])
                if not m:
                    raise ValueError("no value found for `%s` in `%s`" % (key, text))
                value = float(m.group(0)) if key in float_keys else int(m.group(0))
                if value < 0:
                    raise ValueError("`%s` must be positive in `%s`" % (key, text))
                vals[key] = value
                pos += len(key) + len(m.group(0))
                break
        else:
            if text[pos] == "n":
                name = text[pos + 1:]
                break
            raise ValueError("unrecognized pattern in `%s` starting from `%s`"
                             % (text, text[pos:]))
    return vals, name


def _spatial(vals, text, keys, with_dilation, must_have_spatial=True):
    """The d/h/w lists of i, o, k, s, p, dd (benchdnn's deduction and
    sanitize_desc): returns (ndims, {key: [d, h, w] values for the spatial
    dims kept})."""
    sp = {}
    for ax in "dhw":
        got = {k: vals.get(k + ax) for k in keys}
        s = got.get("s") if got.get("s") is not None else 1
        p = got.get("p") if got.get("p") is not None else -1
        d = got.get("d") or 0
        i, o, k = got.get("i") or 0, got.get("o") or 0, got.get("k") or 0
        absent = (i | k | o | (d if with_dilation else 0)) == 0 and s == 1 and p < 1
        if s <= 0:
            raise ValueError("setting `s%s` was not specified or set to 0 in `%s`" % (ax, text))
        if not absent:
            if i <= 0 or k <= 0:
                raise ValueError("setting `%s%s` was not specified or set to 0 in `%s`"
                                 % ("i" if i <= 0 else "k", ax, text))
            ext = (k - 1) * (d + 1) + 1
            if not o:
                p = max(p, 0)
                o = (i - ext + 2 * p) // s + 1
                if o <= 0:
                    raise ValueError("`o%s` was not specified but the other dims give a "
                                     "non-positive value in `%s`" % (ax, text))
            elif p < 0:
                p = ((o - 1) * s - i + ext) // 2
        sp[ax] = dict(i=i, o=o, k=k, s=s, p=p, d=d)
    no = {ax: sp[ax]["o"] == 0 for ax in "dhw"}
    ndims = 5 - no["d"] - (no["d"] and no["h"]) - (no["d"] and no["h"] and no["w"])
    if must_have_spatial and ndims <= 2:
        raise ValueError("the problem must have at least one spatial dimension: `%s`" % text)
    if ndims == 5:
        if no["h"] and no["w"]:
            sp["h"], sp["w"] = dict(sp["d"]), dict(sp["d"])
        elif no["h"] or no["w"]:
            raise ValueError("the problem needs either all `h` and `w` dimensions or "
                             "none of them: `%s`" % text)
    elif ndims == 4 and no["w"]:
        sp["w"] = dict(sp["h"])
    axes = "dhw"[5 - ndims:]
    out = {k: [sp[ax][k] for ax in axes] for k in ("i", "o", "k", "s", "p", "d")}
    out["pr"] = [(o - 1) * s - i + (k - 1) * (d + 1) + 1 - p
                 for i, o, k, s, p, d in zip(*(out[x] for x in ("i", "o", "k", "s", "p", "d")))]
    return ndims, out


def _print_spatial(parts, ndims, names):
    """benchdnn's print_dhw: the d/h/w entries to print; h and w are left
    out where they repeat d (cubic) or h (square)."""
    lists = [v for _, v in parts]
    cubic = all(len(set(v)) == 1 for v in lists)
    square = all(v[-1] == v[-2] for v in lists) if ndims >= 4 else True
    show = {"d": ndims == 5, "h": ndims == 4 or (ndims == 5 and not cubic),
            "w": ndims == 3 or (ndims == 5 and not cubic) or (ndims == 4 and not square)}
    axes = "dhw"[5 - ndims:]
    out = []
    for prefix, v in parts:
        out.append("".join("%s%s%d" % (prefix, ax, v[j]) for j, ax in enumerate(axes)
                           if show[ax]))
    return out


class ConvDesc:
    """A convolution (groups true when g was given) or pooling problem."""

    kind = "conv"

    def __init__(self, text):
        keys = ["g", "mb", "ic", "oc"] + [a + b for a in "iokspd" for b in "dhw"]
        vals, self.name = _scan(text, keys)
        self.has_groups = "g" in vals
        self.g = vals.get("g", 1)
        if self.g <= 0:
            raise ValueError("setting `g` was not specified or set to 0 in `%s`" % text)
        self.mb = vals.get("mb", 2)
        self.ic, self.oc = vals.get("ic", 0), vals.get("oc", 0)
        if self.ic <= 0 or self.oc <= 0:
            raise ValueError("setting `%s` was not specified or set to 0 in `%s`"
                             % ("ic" if self.ic <= 0 else "oc", text))
        self.ndims, sp = _spatial(vals, text, "ioskpd", with_dilation=True)
        self.__dict__.update(sp)

    def src_dims(self, mb):
        return [mb, self.ic] + self.i

    def dst_dims(self, mb):
        return [mb, self.oc] + self.o

    def wei_dims(self):
        lead = [self.g, self.oc // self.g] if self.has_groups else [self.oc]
        return lead + [self.ic // self.g] + self.k

    def __str__(self):
        return self.format(self.mb)

    def format(self, mb):
        sp = _print_spatial([("i", self.i), ("o", self.o), ("k", self.k), ("s", self.s),
                             ("p", self.p), ("d", self.d)], self.ndims, None)
        i, o, k, s, p, d = sp
        text = ("g%d" % self.g if self.has_groups else "") + ("mb%d" % mb if mb != 2 else "")
        text += "ic%d%soc%d%s%s" % (self.ic, i, self.oc, o, k)
        if any(v != 1 for v in self.s):
            text += s
        text += p
        if any(v != 0 for v in self.d):
            text += d
        return text + ("n" + self.name if self.name else "")


class PoolDesc(ConvDesc):
    kind = "pool"

    def __init__(self, text):
        keys = ["mb", "ic"] + [a + b for a in "iokspd" for b in "dhw"]
        vals, self.name = _scan(text, keys)
        self.mb, self.ic = vals.get("mb", 2), vals.get("ic", 0)
        if self.ic <= 0:
            raise ValueError("setting `ic` was not specified or set to 0 in `%s`" % text)
        self.g, self.oc, self.has_groups = 1, self.ic, False
        self.ndims, sp = _spatial(vals, text, "ioskpd", with_dilation=False)
        self.__dict__.update(sp)

    def format(self, mb):
        i, o, k, s, p, d = _print_spatial(
            [("i", self.i), ("o", self.o), ("k", self.k), ("s", self.s), ("p", self.p),
             ("d", self.d)], self.ndims, None)
        text = ("mb%d" % mb if mb != 2 else "") + "ic%d_%s%s%s" % (self.ic, i, o, k)
        if any(v != 1 for v in self.s):
            text += s
        text += p
        if any(v != 0 for v in self.d):
            text += d
        return text + ("n" + self.name if self.name else "")


class LrnDesc:
    kind = "lrn"

    def __init__(self, text):
        vals, self.name = _scan(text, ["mb", "ic", "id", "ih", "iw", "ls"],
                                ["alpha", "beta", "k"])
        self.mb, self.ic = vals.get("mb", 2), vals.get("ic", 0)
        self.ls = vals.get("ls", 5)
        self.alpha = vals.get("alpha", 1.0 / 8192)
        self.beta = vals.get("beta", 0.75)
        self.k = vals.get("k", 1.0)
        if self.ic <= 0:
            raise ValueError("setting `ic` was not specified or set to 0 in `%s`" % text)
        d, h, w = vals.get("id", 0), vals.get("ih", 0), vals.get("iw", 0)
        self.ndims = 5 if d else 4 if h else 3 if w else 2
        if self.ndims == 5:
            if not h and not w:
                h = w = d
            elif not h or not w:
                raise ValueError("the problem needs either all `h` and `w` dimensions or "
                                 "none of them: `%s`" % text)
        elif self.ndims == 4 and not w:
            w = h
        self.i = [d, h, w][5 - self.ndims:] if self.ndims > 2 else []

    def src_dims(self, mb):
        return [mb, self.ic] + self.i

    def format(self, mb):
        text = ("mb%d" % mb if mb != 2 else "") + "ic%d" % self.ic
        text += "".join("i%s%d" % (ax, v) for ax, v in zip("dhw"[5 - self.ndims:], self.i))
        if self.ls != 5:
            text += "ls%d" % self.ls
        for key, default in (("alpha", 1.0 / 8192), ("beta", 0.75), ("k", 1.0)):
            if getattr(self, key) != default:
                text += "%s%g" % (key, getattr(self, key))
        return text + ("n" + self.name if self.name else "")

    def __str__(self):
        return self.format(self.mb)


class RnnDesc:
    kind = "rnn"

    def __init__(self, text):
        vals, self.name = _scan(text, ["l", "t", "mb", "sic", "slc", "dhc", "dic"])
        self.n_layer, self.n_iter = vals.get("l", 1), vals.get("t", 1)
        self.mb = vals.get("mb", 2)
        self.sic = vals.get("sic", 0)
        if self.sic <= 0:
            raise ValueError("setting `sic` was not specified or set to 0 in `%s`" % text)
        self.slc = vals.get("slc") or self.sic
        self.dhc = vals.get("dhc") or self.sic
        self.dic = vals.get("dic") or self.dhc
        if min(self.n_layer, self.n_iter, self.mb) <= 0:
            raise ValueError("l, t and mb must be positive in `%s`" % text)

    def format(self, mb, n_layer=None, n_iter=None):
        return "l%dt%dmb%dsic%dslc%ddhc%ddic%d%s" % (
            n_layer or self.n_layer, n_iter or self.n_iter, mb, self.sic, self.slc,
            self.dhc, self.dic, "n" + self.name if self.name else "")

    def __str__(self):
        return self.format(self.mb)


class DimsDesc:
    """NxNx...: eltwise's and reorder's problems."""

    kind = "dims"

    def __init__(self, text):
        m = re.fullmatch(r"(\d+(?:x\d+)*)_?(?:n(.*))?", text)
        if not m:
            raise ValueError("`%s` is not a dims descriptor (NxNx...)" % text)
        self.dims = [int(v) for v in m.group(1).split("x")]
        self.name = m.group(2) or ""
        self.mb = self.dims[0]
        self.ndims = len(self.dims)

    def with_mb(self, mb):
        return [mb or self.dims[0]] + self.dims[1:]

    def format(self, mb):
        return "x".join(map(str, self.with_mb(mb))) + ("_n" + self.name if self.name else "")

    def __str__(self):
        return self.format(0)
