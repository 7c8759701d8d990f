"""The command line and input files as benchdnn reads them
(tests/benchdnn/utils/parser.cpp, common.cpp's batch() and locate_file()):
options are `--name=value`, a comma separating values to iterate over;
`--batch=FILE` reads FILE's words as if they stood on the command line
(`#` starts a comment to the end of the line, a trailing `\\` joins two
words); a file is looked up where given, then next to the files already
read, then in this package's inputs/<driver>/."""

import os

from dnnl.benchdnn import dnn_types as T

INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")


class UsageError(Exception):
    """Input benchdnn refuses, or an option cydnnl's driver does not
    support: the run stops with this message."""


def read_batch(path):
    """The words of an input file, as benchdnn's batch() splits them."""
    words = []
    joined = False
    with open(path) as f:
        for line in f:
            for j, word in enumerate(line.split()):
                if word.startswith("#"):
                    break
                if joined and words:
                    word = words.pop() + word
                joined = word.endswith("\\")
                if joined:
                    word = word[:-1]
                    if not word:
                        continue
                words.append(word)
    return words


class FileLocator:
    """benchdnn's locate_file: the path as given, then the directories of
    the files read so far, then inputs/<driver>/ of this package."""

    def __init__(self):
        self.dirs = []

    def locate(self, name, driver):
        candidates = [name] + [os.path.join(d, name) for d in self.dirs]
        candidates.append(os.path.join(INPUTS, driver, name))
        for path in candidates:
            if os.path.isfile(path):
                d = os.path.dirname(os.path.abspath(path))
                if d not in self.dirs:
                    self.dirs.append(d)
                return path
        raise UsageError("cannot open file %s (looked in the working directory, next to the "
                         "files read so far and in %s)" % (name, os.path.join(INPUTS, driver)))


# ------------------------------------------------------------ values

def str2bool(text):
    low = text.lower()
    if low in ("true", "1"):
        return True
    if low in ("false", "0"):
        return False
    raise ValueError("'%s' is not true or false" % text)


def _dt_list(text):
    return [T.str2dt(v) for v in text.split(":")]


def _int(text):
    v = int(text)
    if v < 0:
        raise ValueError("must not be negative")
    return v


def _float(text):
    return float(text)


class Option:
    """A driver option: its name on the command line, how one value parses,
    and its default values (a list: the driver iterates over them)."""

    def __init__(self, name, parse, default, show=None, split=True):
        self.name, self.parse, self.default = name, parse, list(default)
        self.show = show or str
        self.split = split

    def values(self, text):
        try:
            return [self.parse(v) for v in (text.split(",") if self.split else [text])]
        except ValueError as err:
            raise UsageError("--%s=%s: %s" % (self.name, text, err)) from None


def dir_option(allowed, default, name="dir"):
    return Option(name, lambda v: T.str2dir(v, allowed), [default])


def dt_option(default="f32", name="dt"):
    return Option(name, T.str2dt, [default])


def multi_dt_option(default=("f32",), name="dt"):
    return Option(name, _dt_list, [list(default)], show=lambda v: ":".join(v))


def tag_option(name, default):
    return Option(name, lambda v: v, [default])


def int_option(name, default):
    return Option(name, _int, [default])


def float_option(name, default):
    return Option(name, _float, list(default), show=lambda v: "%g" % v)


def bool_option(name, default):
    return Option(name, str2bool, [default], show=lambda v: "true" if v else "false")


def choice_option(name, choices, default, show=None):
    """Values from `choices` ({spelling: canonical}), case-insensitive."""
    table = {k.lower(): v for k, v in choices.items()}

    def parse(text):
        try:
            return table[text.lower()]
        except KeyError:
            raise ValueError("unknown value '%s' (one of %s)"
                             % (text, ", ".join(sorted(set(choices.values()))))) from None
    return Option(name, parse, [default], show=show)


# Options every driver has (benchdnn's base_settings_t); --reset restores
# them too, except the performance template.
def shared_options(inplace=False):
    opts = [int_option("mb", 0), Option("match", lambda v: v, [None], split=False),
            Option("impl", lambda v: v, [None], split=False),
            Option("skip-impl", lambda v: v, [None], split=False)]
    if inplace:
        opts.append(bool_option("inplace", False))
    return opts


# Option families of oneDNN's benchdnn that this driver does not implement:
# the run stops naming the option rather than ignoring it.
UNSUPPORTED_PREFIXES = ("attr-", "ctx-", "cpu-isa-hints", "buffer-prefix", "mode-modifier",
                        "memory-kind", "stream-kind", "execution-mode", "cold-cache",
                        "num-streams", "mem-check", "fast-ref", "check-ref-impl",
                        "attr-same-pd-check", "canonical")
