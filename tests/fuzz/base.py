"""What both fuzzing state machines share: the call log, names for the
objects a sequence makes, and `call`, which logs a call before making it and
turns an escaped exception or a wrong return type into a failure.

The log holds the current example only, as a script: `PRELUDE`, then one
line per call (`st = c.dnnl_...(md3, [2, 3], ...)`), each written and
flushed before the call, with the result as a comment after it. When the
process dies in a call, the log's last line is that call and the whole file
replays the sequence (`python <log>`).
"""

import ctypes
import itertools
import json
import os
import re
import traceback

from hypothesis.stateful import RuleBasedStateMachine

import dnnl_c as c
from dnnl_c._constants import ENUMS

from fuzz.values import PRELUDE, build, code, namespace

STATUSES = frozenset(ENUMS["dnnl_status_t"].values())
LITERALS = (type(None), bool, int, float, complex, str, bytes)


class Failure(AssertionError):
    """An escaped exception or a wrong return value: the call and why."""

    def __init__(self, signature, detail):
        super().__init__("%s\n%s" % (signature, detail))
        self.signature = signature
        self.detail = detail


class Log:
    """The per-process call log (a file the runner names, or nowhere)."""

    def __init__(self):
        self.f = None
        self.example = 0
        self.chunk = 0
        self.calls = 0           # calls made in this example
        self.on_example = None   # the runner's hang watchdog, re-armed per example

    def open(self, path):
        self.f = open(path, "w", encoding="utf-8")

    def start_example(self, layer):
        self.example += 1
        self.calls = 0
        if self.on_example is not None:
            self.on_example()
        if self.f is not None:
            self.f.seek(0)
            self.f.truncate()
            self.f.write("# %s chunk %d, example %d\n" % (layer, self.chunk, self.example))
            self.f.write(PRELUDE)
            self.f.flush()

    def write(self, line):
        if self.f is not None:
            self.f.write(line + "\n")
            self.f.flush()


LOG = Log()
# collect mode: failures are recorded (signature -> first report, also as a
# JSON line in COLLECT["file"] at once, so a later crash loses none) and the
# sequence goes on, instead of failing the example
COLLECTED = {}
COLLECT = {"on": False, "file": None}


def _selftest(n):
    """CYDNNL_FUZZ_SELFTEST=crash:N|raise:N makes call N of every example
    crash or raise, so the harness's own tests can check that both are
    reported."""
    spec = os.environ.get("CYDNNL_FUZZ_SELFTEST", "")
    if not spec:
        return
    what, _, at = spec.partition(":")
    if int(at) != n:
        return
    if what == "crash":
        ctypes.string_at(0)
    raise RuntimeError("CYDNNL_FUZZ_SELFTEST: an escaped exception")


def _skips():
    """CYDNNL_FUZZ_SKIP: regexes (one a line) of calls not to make, to look
    past known crashes (python -m fuzz --skip); each is tried on the logged
    line and on `function(repr(arg), ...)`."""
    import re
    return [re.compile(p) for p in os.environ.get("CYDNNL_FUZZ_SKIP", "").splitlines() if p]


SKIPS = _skips()


def _where(exc):
    """file:line of the innermost frame (inside the library when it is)."""
    tb = traceback.extract_tb(exc.__traceback__)
    return "%s:%s" % (os.path.basename(tb[-1].filename), tb[-1].lineno) if tb else "?"


class FuzzMachine(RuleBasedStateMachine):
    """Names objects, builds drawn values, logs and checks calls."""

    layer = "?"

    def __init__(self):
        super().__init__()
        self.ns = namespace()
        self.names = {}          # id(obj) -> source that names it
        self.keep = []           # objects with a name, alive so their ids stay theirs
        self.counter = itertools.count()
        LOG.start_example(self.layer)

    # ---------------------------------------------------------- names

    def bind(self, obj, prefix, src=None):
        """Gives obj a variable name; logs `name = src` when src is given.
        Literals and singletons keep their source: a name would stick to
        every later use of the same object."""
        if isinstance(obj, LITERALS) or obj is c.DNNL_MEMORY_ALLOCATE:
            return obj
        name = "%s%d" % (prefix, next(self.counter))
        if src is not None:
            LOG.write("%s = %s" % (name, src))
        self.ns[name] = obj
        self.names[id(obj)] = name
        self.keep.append(obj)
        return obj

    def value(self, v, prefix=None):
        """The object a drawn value stands for. Built objects get their
        source remembered (a name when prefix is given, logged then)."""
        src = code(v, self.names)
        obj = build(v, self.ns)
        if prefix is not None:
            return self.bind(obj, prefix, src)
        if id(obj) not in self.names and not isinstance(obj, LITERALS) and \
                obj is not c.DNNL_MEMORY_ALLOCATE:
            self.names[id(obj)] = src
            self.keep.append(obj)
        return obj

    def src(self, v):
        return code(v, self.names)

    def ref(self, v):
        """v's source for use inside an Expr: "None" when it has none."""
        s = code(v, self.names)
        return "None" if s.startswith("<") else s

    # ---------------------------------------------------------- calls

    def call(self, fn, *args, returns="status", prefix="c.", line=None):
        """Logs and makes the call fn(*args); the result must be of the
        `returns` kind (a dnnl_status_t value by default; None: anything).
        fn is a dnnl_c function or its name; `line` the source to log when
        fn is not (the object layer's calls)."""
        args = tuple(self.value(a) for a in args)   # drawn Exprs become their values
        if line is None:
            name = fn if isinstance(fn, str) else fn.__name__
            line = "%s%s(%s)" % (prefix, name, ", ".join(self.src(a) for a in args))
        else:   # d12.reshape(...) -> d.reshape, for the signature
            name = re.sub(r"\d+", "", line.split("(")[0])
        if SKIPS:   # matched on the source line and on the values' reprs
            shown = "%s(%s)" % (name, ", ".join(_short(repr(a)) for a in args))
            if any(p.search(line) or p.search(shown) for p in SKIPS):
                LOG.write("# skipped: " + line)
                return None
        LOG.write("r = " + line)
        LOG.calls += 1
        try:
            _selftest(LOG.calls)
            func = getattr(c, name) if isinstance(fn, str) else fn
            result = func(*args)
        except Exception as exc:  # noqa: BLE001 - every escape is a finding
            self.fail("%s raised %s at %s" % (name, type(exc).__name__, _where(exc)),
                      "%s\n  -> %s: %s" % (line, type(exc).__name__, exc))
            return None
        LOG.write("#  = %s" % _short(result))
        problem = self.check_return(name, result, returns)
        if problem:
            self.fail("%s returned %s" % (name, problem),
                      "%s\n  -> returned %r (%s)" % (line, result, problem))
        return result

    @staticmethod
    def check_return(name, r, returns):
        if returns == "status":
            if type(r) is not int or r not in STATUSES:
                return "not a dnnl_status_t"
        elif returns == "int":
            if type(r) is not int:
                return "not an int"
        elif returns == "str":
            if type(r) is not str:
                return "not a str"
        elif returns == "md_or_none":
            if r is not None and type(r) is not c.dnnl_memory_desc_t:
                return "neither a memory desc nor None"
        elif returns is not None and not isinstance(r, returns):
            return "not a %s" % returns.__name__
        return None

    def fail(self, signature, detail):
        LOG.write("# FAILURE: " + signature.replace("\n", " "))
        if COLLECT["on"]:
            if signature not in COLLECTED:
                COLLECTED[signature] = detail
                if COLLECT["file"] is not None:
                    COLLECT["file"].write(json.dumps({"signature": signature,
                                                      "detail": detail}) + "\n")
                    COLLECT["file"].flush()
            return
        raise Failure(signature, detail)

    def teardown(self):
        c.dnnl_set_verbose(0)   # the level is global; the next example starts quiet


def _short(v):
    s = repr(v)
    return s if len(s) <= 80 else s[:77] + "..."
