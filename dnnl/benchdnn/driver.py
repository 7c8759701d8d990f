"""The run of one problem and what every driver shares (benchdnn's
common.cpp, dnnl_common.hpp and utils/res.hpp, in our words).

A driver holds its options (lists: it runs every combination), parses a
problem descriptor, and for each combination builds a problem (`Prb`) and
runs it: create the primitive descriptors through the object layer, create
the primitives, fill the inputs, execute, then in correctness mode compare
every output with the NumPy reference, or in performance mode time the
execution. Each run ends in a state (PASSED, FAILED, UNIMPLEMENTED, ...)
printed as `N:STATE (reason) (time) __REPRO: <the line that reruns it>`."""

import itertools
import re
import time
import traceback
import zlib

import numpy as np

import dnnl
from dnnl.benchdnn import compare as C
from dnnl.benchdnn import dnn_types as T
from dnnl.benchdnn import perf
from dnnl.benchdnn.parser import UsageError, shared_options

STATES = ("PASSED", "MISTRUSTED", "FAILED", "SKIPPED", "UNIMPLEMENTED", "INVALID_ARGUMENTS",
          "LISTED", "INITIALIZED", "EXECUTED", "UNTESTED")
TIMERS = ("create_pd", "create_prim", "fill", "execute", "compute_ref", "compare")


class Res:
    """What happened to one problem."""

    def __init__(self):
        self.state, self.reason, self.errors, self.total = "UNTESTED", "", 0, 0
        self.impl_name, self.details = "", []
        self.times = {name: 0.0 for name in TIMERS}
        self.perf_times, self.create_times = [], []
        self.ibytes = self.obytes = 0
        self.unexpected = False     # unimplemented where cydnnl implements it


class Prb:
    """One problem: the descriptor, the option values of this combination
    (as attributes), the minibatch and the repro line."""

    def __init__(self, desc, values):
        self.desc = desc
        self.__dict__.update(values)


class Driver:
    """The base of a driver. A subclass sets `name`, `options` (the
    driver's own, in benchdnn's iteration order), `desc_class`, and
    implements `dts(prb)`, `run(prb, res)` and, where it has them,
    `skip(prb)` and `fields(prb)` (the perf report's driver entries)."""

    name = None
    options = []
    desc_class = None
    inplace = False
    mb_option = True
    # oneDNN benchdnn options of this driver that cydnnl's does not implement
    unsupported = ()
    # options the repro line shows even at their default (benchdnn's eltwise
    # shows alg, alpha and beta), and those it folds into the descriptor
    always_shown = ()
    folded = ("mb",)

    def __init__(self, ctx):
        self.ctx = ctx
        self.all_options = list(self.options) + shared_options(self.inplace)
        if not self.mb_option:
            self.all_options = [o for o in self.all_options if o.name != "mb"]
        self.by_name = {o.name: o for o in self.all_options}
        self.reset()

    def reset(self):
        self.values = {o.name: list(o.default) for o in self.all_options}

    def set_option(self, name, text):
        opt = self.by_name.get(name)
        if opt is None:
            return False
        self.values[name] = opt.values(text)
        return True

    # ---------------------------------------------------------------- problems

    def run_desc(self, text):
        try:
            desc = self.desc_class(text)
        except ValueError as err:
            raise UsageError("ERROR: %s" % err) from None
        self.check_settings()
        names = [o.name for o in self.all_options if o.name not in ("match", "impl",
                                                                     "skip-impl")]
        for combo in itertools.product(*(self.values[n] for n in names)):
            values = dict(zip([n.replace("-", "_") for n in names], combo))
            for n in ("match", "impl", "skip-impl"):
                values[n.replace("-", "_")] = self.values[n][0]
            prb = Prb(desc, values)
            self.finalize(prb)
            prb.repro = self.repro(prb)
            if prb.match and not re.fullmatch(prb.match, prb.repro):
                continue
            self.ctx.run_test(self, prb)

    def check_settings(self):
        """Raises UsageError for settings benchdnn refuses."""

    def finalize(self, prb):
        """Derived values of a problem (its minibatch, ...)."""
        prb.mb_value = getattr(prb, "mb", 0) or getattr(prb.desc, "mb", 0)

    def repro(self, prb):
        """benchdnn's repro line: non-default settings, then the problem."""
        parts = self.ctx.global_params() + ["--" + self.name]
        for opt in self.all_options:
            if opt.name in self.folded or opt.name == "match":
                continue
            value = getattr(prb, opt.name.replace("-", "_"))
            if value != opt.default[0] or opt.name in self.always_shown:
                parts.append("--%s=%s" % (opt.name, opt.show(value)))
        parts.append(self.desc_str(prb))
        return " ".join(parts)

    def desc_str(self, prb):
        return str(prb.desc)

    def skip(self, prb):
        """A reason to skip the problem (benchdnn's skip_invalid), or None."""
        return None

    def expected_implemented(self, prb):
        """Whether cydnnl implements every data type of the problem (then an
        `unimplemented` answer is a failure)."""
        return all(dt in T.COMPUTE_DTS for dt in self.dts(prb)) and \
            len(set(self.dts(prb))) == 1

    def fields(self, prb):
        return {}

    def ops(self, prb):
        return 0.0

    # ---------------------------------------------------------------- helpers

    def rng(self, prb):
        """The problem's random generator: the same data for the same line."""
        return np.random.default_rng(zlib.crc32(prb.repro.encode()))

    def timed(self, res, name, fn, *args):
        t0 = time.perf_counter()
        try:
            return fn(*args)
        finally:
            res.times[name] += time.perf_counter() - t0

    def create_pd(self, res, prb, fn, *args):
        """Creates a primitive descriptor (fn(*args)) and moves it to the
        implementation --impl / --skip-impl ask for; the last created is
        the problem's implementation."""
        t0 = time.perf_counter()
        pd = fn(*args)
        res.create_times.append(time.perf_counter() - t0)
        res.times["create_pd"] += res.create_times[-1]
        want = [w for w in (prb.impl or "").split(",") if w]
        avoid = [w for w in (prb.skip_impl or "").split(",") if w]
        while True:
            impl = pd.impl_info_str()
            if (not want or any(w in impl for w in want)) and \
                    not any(w in impl for w in avoid):
                break
            if not pd.next_impl():
                raise SkipImpl()
        res.impl_name = impl
        return pd

    def primitive(self, res, cls, pd):
        return self.timed(res, "create_prim", cls, pd)

    def memory(self, md):
        return dnnl.memory(md, self.ctx.engine)

    def fill(self, res, mem, array):
        self.timed(res, "fill", write, mem, array)

    def execute(self, res, prim, args):
        self.timed(res, "execute", prim.execute, self.ctx.stream, args)

    def read(self, mem):
        return read(mem)

    def check(self, res, name, mem, exp, dt, trh, **kw):
        """Compares one output with its reference; records the verdict."""
        t0 = time.perf_counter()
        got = self.read(mem)
        verdict = C.compare(name, exp, got, dt, trh, **kw)
        if check_padding(mem):
            verdict.errors += 1
            verdict.detail += "\n[%s] the padded area or the gaps of the layout are not zero" \
                % name
        res.times["compare"] += time.perf_counter() - t0
        res.errors += verdict.errors
        res.total += verdict.total
        if verdict.detail and (verdict.errors or self.ctx.verbose >= 6):
            res.details.append(verdict.detail)
        if verdict.errors:
            res.state = "FAILED"
        elif verdict.mistrusted and res.state != "FAILED":
            res.state = "MISTRUSTED"
            res.details.append("[%s] mistrusted: more than the trusted share of zeros" % name)
        return verdict

    def begin_check(self, res):
        res.state = "PASSED"

    def bytes_of(self, res, inputs, outputs):
        res.ibytes = sum(m.get_desc().get_size() for m in inputs)
        res.obytes = sum(m.get_desc().get_size() for m in outputs)

    def finish(self, res, prb, prim, args, check):
        """After the first execution: stop (modes R), check (C) or time (P)."""
        mode = self.ctx.mode
        if mode == "R":
            res.state = "EXECUTED"
        elif mode == "P":
            perf.measure(self.ctx, res, prim, args)
            res.state = "EXECUTED"
        else:
            self.begin_check(res)
            check()


def _plain(md):
    return md.get_format_kind() == dnnl.memory.format_kind.blocked and \
        md.get_inner_nblks() == 0


def _bf16_bits(values):
    bits = np.asarray(T.round_to(values, "bf16"), dtype=np.float32).view(np.uint32)
    return (bits >> 16).astype(np.uint16)


def write(mem, array):
    """Puts a float64 array of exactly representable values into a memory:
    through a NumPy view where the layout is plain (no library code on the
    way), through the library's reorder otherwise."""
    md = mem.get_desc()
    array = np.asarray(array, dtype=np.float64)
    if _plain(md):
        view = np.asarray(mem)
        view[...] = _bf16_bits(array) if view.dtype == np.uint16 else array
        return
    dt = md.get_data_type()
    mem.write(array.astype(np.float32) if dt in (dnnl.memory.data_type.f32,
                                                 dnnl.memory.data_type.bf16,
                                                 dnnl.memory.data_type.f16)
              else array.astype(dnnl.numpy_dtype(dt)))


def read(mem):
    """A memory's contents in logical order as float64 (a view where the
    layout is plain, the library's reorder to f32 otherwise)."""
    md = mem.get_desc()
    if _plain(md):
        view = np.asarray(mem)
        if view.dtype == np.uint16:             # bf16 without ml_dtypes
            return (view.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        return view.astype(np.float64)
    return mem.read(np.float32).astype(np.float64)


class SkipImpl(Exception):
    """No implementation passes --impl / --skip-impl."""


def check_padding(mem):
    """True when anything but the logical elements of a memory is non-zero:
    the padded area of a blocked layout, or the gaps between strides. The
    library allocates memories zero-filled, so a non-zero there is a write
    out of the tensor."""
    md = mem.get_desc()
    dims, padded = md.get_dims(), md.get_padded_dims()
    if dims == padded and md.get_size() == _dense_bytes(md):
        return False
    dt = md.get_data_type()
    if dt == dnnl.memory.data_type.bf16:
        raw = np.frombuffer(mem.get_data_handle(), dtype=np.uint16) & 0x7FFF
    else:
        raw = np.frombuffer(mem.get_data_handle(), dtype=dnnl.numpy_dtype(dt))
    return np.count_nonzero(raw) != np.count_nonzero(read(mem))


def _dense_bytes(md):
    n = int(np.prod(md.get_dims())) if md.get_dims() else 0
    return n * dnnl.numpy_dtype(md.get_data_type()).itemsize


def status_state(err):
    if err.status == dnnl.status.unimplemented:
        return "UNIMPLEMENTED"
    if err.status == dnnl.status.invalid_arguments:
        return "INVALID_ARGUMENTS"
    return "FAILED"


def run_one(driver, prb, res):
    """Runs a problem through the driver; the state lands in res."""
    try:
        reason = driver.skip(prb)
        if reason:
            res.state, res.reason = "SKIPPED", reason
            return
        if driver.ctx.mode == "L":
            res.state = "LISTED"
            return
        driver.run(prb, res)
    except SkipImpl:
        res.state, res.reason = "SKIPPED", "Skip-impl option hit"
    except T.TagError as err:
        res.state, res.reason = "SKIPPED", str(err)
    except dnnl.error as err:
        res.state = status_state(err)
        res.details.append(err.message)
        if res.state == "UNIMPLEMENTED" and driver.expected_implemented(prb):
            res.reason = "cydnnl implements these data types"
            res.unexpected = True
    except UsageError:
        raise
    except Exception:
        res.state = "UNTESTED"
        res.details.append(traceback.format_exc())
