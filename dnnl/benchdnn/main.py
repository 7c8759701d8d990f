"""The entry point (benchdnn.cpp): `python -m dnnl.benchdnn [common options]
--DRIVER [options] PROBLEM ...`. Reads the words in order as benchdnn's
state machine does: an option changes the state, a problem descriptor runs
every combination of the current state's values. A driver name may appear
again later (as in the verbose converter's output): it switches driver.
Prints one line per problem, the failed cases, and the summary

    tests:N passed:N skipped:N mistrusted:N unimplemented:N invalid_arguments:N failed:N listed:N

Unlike oneDNN's benchdnn, an `unimplemented` answer is a failure only where
cydnnl implements the problem's data types (all f32, or all bf16); f16,
int8 or mixed data types the library lacks count as unimplemented alone.
The exit status is 1 when anything failed, 0 otherwise."""

import sys
import time

import dnnl
from dnnl.benchdnn import perf
from dnnl.benchdnn.driver import STATES, TIMERS, Res, run_one
from dnnl.benchdnn.parser import (UNSUPPORTED_PREFIXES, FileLocator, UsageError,
                                  read_batch, str2bool)


def _drivers():
    from dnnl.benchdnn import conv, eltwise, lrn, pool, reorder, rnn
    return {"conv": conv.ConvDriver, "eltwise": eltwise.EltwiseDriver,
            "lrn": lrn.LrnDriver, "pool": pool.PoolDriver,
            "reorder": reorder.ReorderDriver, "rnn": rnn.RnnDriver}


MODES = {"C": "C", "P": "P", "F": "P", "L": "L", "I": "I", "R": "R"}

USAGE = """usage: python -m dnnl.benchdnn [common options] --DRIVER [options] PROBLEM ...

drivers: --conv --eltwise --lrn --pool --reorder --rnn (the LSTM cell)
common:  --mode=C|P|F|L|I|R --engine=cpu[:N] --allow-enum-tags-only=BOOL -vN
         --max-ms-per-prb=MS --fix-times-per-prb=N --repeats-per-prb=N --start=N
         --summary=[no-]failures+[no-]impl --perf-template=def|csv|TEMPLATE
any:     --batch=FILE --reset --mb=N --match=REGEX --impl=NAMES --skip-impl=NAMES
conv:    --dir --dt=SRC[:WEI:DST] --cfg --bia-dt --stag --wtag --dtag
         --strides=SRC:WEI:DST --alg=DIRECT|AUTO|WINO
eltwise: --dir --dt --tag --alg --alpha --beta --inplace
lrn:     --dir --dt --tag --alg=ACROSS|WITHIN
pool:    --dir --dt=SRC[:DST] --cfg --tag --alg=max|avg_np|avg_p
reorder: --sdt --ddt --stag --dtag --strides=SRC:DST
rnn:     --prop=FWD_I|FWD_D|BWD_DW --cfg --tag=SRC:WEI:DST --alg --direction
         --activation --flags=O --with-peephole --with-projection --trivial-strides
         --skip-nonlinear --l --t
Values separated by commas are iterated over. Input files: dnnl/benchdnn/inputs/."""


class Context:
    """benchdnn's global state: common options, the engine and stream, and
    the statistics."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.mode = "C"
        self.engine_name = "cpu"
        self.engine_index = 0
        self.allow_enum_tags_only = True
        self.verbose = 0
        self.max_ms = 3000.0
        self.fix_times = 0
        self.repeats = 1
        self.start = 0
        self.summary_failures = True
        self.summary_impl = True
        self.perf_template = perf.DEFAULT
        self.template_shown = False
        self.stats = {s: 0 for s in STATES}
        self.stats.update(tests=0, passed=0, failed=0, unimplemented=0)
        self.failed_cases = []
        self.impl_names = {}
        self.timers = {t: 0.0 for t in TIMERS}
        self.perf_min = self.perf_avg = 0.0
        self.locator = FileLocator()
        self._engine = None
        self.drivers = {}
        self.driver = None

    @property
    def engine(self):
        if self._engine is None:
            self._engine = dnnl.engine(dnnl.engine.kind.cpu, self.engine_index)
            self._stream = dnnl.stream(self._engine)
        return self._engine

    @property
    def stream(self):
        self.engine
        return self._stream

    def print(self, *args):
        print(*args, file=self.out)
        self.out.flush()

    def global_params(self):
        out = []
        if self.mode != "C":
            out.append("--mode=%s" % self.mode)
        if self.engine_name != "cpu" or self.engine_index:
            out.append("--engine=cpu:%d" % self.engine_index)
        if not self.allow_enum_tags_only:
            out.append("--allow-enum-tags-only=false")
        return out

    # ---------------------------------------------------------------- options

    def common_option(self, word):
        """Handles a common option; False when `word` is not one."""
        name, _, value = word[2:].partition("=")
        if word.startswith("-v") and not word.startswith("--"):
            self.verbose = int(word[2:] or 1)
        elif name == "verbose":
            self.verbose = int(value)
        elif name == "mode":
            if value.upper() not in MODES:
                raise UsageError("--mode=%s is not supported (cydnnl's benchdnn runs modes C, "
                                 "P, F, L, I and R)" % value)
            self.mode = MODES[value.upper()]
            if value.upper() == "F":
                self.max_ms = 10.0
        elif name == "engine":
            kind, _, index = value.partition(":")
            if kind != "cpu":
                raise UsageError("--engine=%s: cydnnl has only cpu engines" % value)
            self.engine_index = int(index or 0)
        elif name == "allow-enum-tags-only":
            self.allow_enum_tags_only = str2bool(value)
        elif name == "max-ms-per-prb":
            self.max_ms = min(max(float(value), 10.0), 6e4)
        elif name == "fix-times-per-prb":
            self.fix_times = int(value)
        elif name == "repeats-per-prb":
            self.repeats = int(value)
        elif name == "start":
            self.start = int(value)
        elif name == "summary":
            for item in value.split("+"):
                on = not item.startswith("no-")
                item = item[3:] if not on else item
                if item == "failures":
                    self.summary_failures = on
                elif item in ("impl", "impl-csv"):
                    self.summary_impl = on
                else:
                    raise UsageError("--summary=%s: unknown setting '%s'" % (value, item))
        elif name == "perf-template":
            self.perf_template = {"def": perf.DEFAULT}.get(value, value)
            if value == "csv":
                self.perf_template = None            # the driver's CSV template
        else:
            return False
        return True

    # ---------------------------------------------------------------- problems

    def run_test(self, driver, prb):
        for _ in range(self.repeats):
            res = Res()
            t0 = time.perf_counter()
            if self.stats["tests"] < self.start:
                res.state, res.reason = "SKIPPED", "Skip-start option hit"
            else:
                run_one(driver, prb, res)
            res.elapsed = time.perf_counter() - t0
            self.parse_result(driver, prb, res)

    def parse_result(self, driver, prb, res):
        s = self.stats
        idx = s["tests"]
        state = res.state
        failed = state in ("FAILED", "INVALID_ARGUMENTS", "UNTESTED") or res.unexpected
        s[state] += 1
        if state in ("PASSED", "INITIALIZED", "EXECUTED"):
            s["passed"] += 1
        if state == "UNIMPLEMENTED":
            s["unimplemented"] += 1
        if failed:
            s["failed"] += 1
        line = "%d:%s%s%s (%d ms) __REPRO: %s" % (
            idx, state, " (%s)" % res.reason if res.reason else "",
            " (errors:%d total:%d)" % (res.errors, res.total) if res.errors else "",
            int(res.elapsed * 1e3), prb.repro)
        if failed:
            self.failed_cases.append(line)
        for d in res.details if (failed or self.verbose >= 1 or state == "MISTRUSTED") else ():
            self.print(d.rstrip())
        if state == "EXECUTED" and self.mode == "P":
            self.perf_line(driver, prb, res, idx)
        else:
            self.print(line)
        s["tests"] += 1
        for t in TIMERS:
            self.timers[t] += res.times[t]
        if res.perf_times:
            self.perf_min += min(res.perf_times) * 1e3
            self.perf_avg += sum(res.perf_times) / len(res.perf_times) * 1e3
        if res.impl_name and state not in ("SKIPPED", "LISTED"):
            self.impl_names[res.impl_name] = self.impl_names.get(res.impl_name, 0) + 1

    def perf_line(self, driver, prb, res, idx):
        template = self.perf_template or driver.csv_template()
        if not self.template_shown:
            self.print("Template entries: %s" % template)
            self.print(perf.header(template))
            self.template_shown = True
        self.print(perf.report(template, driver, prb, res, idx))

    def summary(self, total_s):
        s = self.stats
        if self.summary_impl and self.impl_names:
            self.print("= Implementation statistics (--summary=no-impl to disable) =")
            n = sum(self.impl_names.values())
            for name, count in sorted(self.impl_names.items(), key=lambda kv: -kv[1]):
                self.print("| %s : %d (%d%%) |" % (name, count, round(100.0 * count / n)))
        if self.mode not in ("P",) and self.summary_failures and self.failed_cases:
            self.print("=" * 59)
            self.print("= Failed cases summary (--summary=no-failures to disable) =")
            self.print("=" * 59)
            for line in self.failed_cases[:10]:
                self.print(line)
            if len(self.failed_cases) > 10:
                self.print("(... %d more cases ...)" % (len(self.failed_cases) - 10))
            self.print("=" * 28)
        self.print("tests:%d passed:%d skipped:%d mistrusted:%d unimplemented:%d "
                   "invalid_arguments:%d failed:%d listed:%d" % (
                       s["tests"], s["passed"], s["SKIPPED"], s["MISTRUSTED"],
                       s["unimplemented"], s["INVALID_ARGUMENTS"], s["failed"], s["LISTED"]))
        if self.mode == "P":
            self.print("total perf: min(ms):%g avg(ms):%g" % (self.perf_min, self.perf_avg))
        parts = ["total: %.2fs;" % total_s]
        for t in TIMERS:
            if self.timers[t]:
                parts.append("%s: %.2fs (%.0f%%);" % (t, self.timers[t],
                                                      100.0 * self.timers[t] / max(total_s,
                                                                                   1e-9)))
        self.print(" ".join(parts))


def run(args, ctx):
    """Reads the words of a command line (or a batch file) in order."""
    for word in args:
        if ctx.common_option(word):
            continue
        if word.startswith("--") and word[2:] in _drivers():
            name = word[2:]
            if name not in ctx.drivers:
                ctx.drivers[name] = _drivers()[name](ctx)
            ctx.driver = ctx.drivers[name]
            continue
        if ctx.driver is None:
            raise UsageError("Error: can't parse the driver name '%s' (cydnnl's benchdnn has "
                             "--%s)" % (word, ", --".join(_drivers())))
        if word.startswith("--batch="):
            path = ctx.locator.locate(word[len("--batch="):], ctx.driver.name)
            run(read_batch(path), ctx)
        elif word == "--reset":
            ctx.driver.reset()
        elif word.startswith("--"):
            name, eq, value = word[2:].partition("=")
            if not eq or not ctx.driver.set_option(name, value):
                if any(name.startswith(p) for p in UNSUPPORTED_PREFIXES) or \
                        name in ctx.driver.unsupported:
                    raise UsageError("Error: option '--%s' is not supported by cydnnl's "
                                     "benchdnn --%s driver" % (name, ctx.driver.name))
                raise UsageError("Error: unknown option '%s' for the --%s driver"
                                 % (word, ctx.driver.name))
        else:
            ctx.driver.run_desc(word)


def main(argv=None, out=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ctx = Context(out)
    if not argv:
        ctx.print("err: no arguments passed")
        return 1
    if argv[0] in ("--help", "-h"):
        ctx.print(USAGE)
        return 0
    t0 = time.perf_counter()
    try:
        run(argv, ctx)
    except UsageError as err:
        ctx.print(str(err))
        return 2
    ctx.summary(time.perf_counter() - t0)
    return 1 if ctx.stats["failed"] else 0
