"""Performance mode (benchdnn's --mode=P and utils/perf_report.cpp): the
primitive runs until --max-ms-per-prb has passed and it ran at least 5
times, or exactly --fix-times-per-prb times; the report follows
--perf-template, whose %entries% are replaced per problem:

    %[mode][unit]name%   mode: - min (default), 0 avg, + max;
                         unit: K, M or G (1e3, 1e6, 1e9)
    time (ms), ctime / cpdtime / cptime (creation, ms), ops, flops (ops / s),
    ibytes, obytes, iobytes, bw (bytes / s); engine, impl, name, prb, desc,
    driver, idx, mb, and the driver's own (dir, dt, tag, alg, ...).
"""

import re
import time

from dnnl.benchdnn.parser import UsageError

DEFAULT = "perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%," \
          "%0Gflops%"
MIN_TIMES = 5


def measure(ctx, res, prim, args):
    """Times prim.execute(stream, args) into res.perf_times (seconds)."""
    times = []
    total = 0.0
    while True:
        t0 = time.perf_counter()
        prim.execute(ctx.stream, args)
        ctx.stream.wait()
        dt = time.perf_counter() - t0
        times.append(dt)
        total += dt
        if ctx.fix_times:
            if len(times) >= ctx.fix_times:
                break
        elif total * 1e3 >= ctx.max_ms and len(times) >= MIN_TIMES:
            break
    res.perf_times = times
    res.times["execute"] += total


def _stat(values, mode):
    if not values:
        return 0.0
    if mode == "-":
        return min(values)
    if mode == "+":
        return max(values)
    return sum(values) / len(values)


def header(template):
    """benchdnn's second header line: the template without `%`, the time
    modifiers spelled min_ / avg_ / max_."""
    def name(m):
        mode = {"-": "min_", "0": "avg_", "+": "max_"}.get(m.group(1), "")
        return mode + m.group(2)
    return re.sub(r"%([-0+]?)([^%]*)%", name, template)


def report(template, driver, prb, res, idx):
    """One perf line."""
    fields = dict(driver.fields(prb))
    fields.update(engine=driver.ctx.engine_name, impl=res.impl_name, prb=prb.repro,
                  driver=driver.name, idx=str(idx), desc=driver.desc_str(prb),
                  name=getattr(prb.desc, "name", ""), mb=str(getattr(prb, "mb", 0)), attr="")
    ops = driver.ops(prb)

    def entry(m):
        user_mode, unit_c, key = m.group(1), m.group(2), m.group(3)
        mode = user_mode or "-"
        unit = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9}[unit_c]
        t = _stat(res.perf_times, mode)
        if key == "time":
            return "%g" % (t * 1e3 / unit)
        if key in ("ctime", "cpdtime", "cptime"):
            # creation: the slowest (no cache hit) unless a mode is asked
            return "%g" % (_stat(res.create_times, user_mode or "+") * 1e3 / unit)
        if key == "ops":
            return "%g" % (ops / unit)
        if key == "flops":
            return "%g" % (ops / t / unit if t else 0.0)
        if key in ("ibytes", "obytes", "iobytes"):
            b = {"ibytes": res.ibytes, "obytes": res.obytes,
                 "iobytes": res.ibytes + res.obytes}[key]
            return "%g" % (b / unit)
        if key == "bw":
            return "%g" % ((res.ibytes + res.obytes) / t / unit if t else 0.0)
        if unit_c or user_mode:
            key = (user_mode or "") + unit_c + key
        if key in fields:
            return fields[key]
        raise KeyError(key)

    try:
        return re.sub(r"%([-0+]?)([KMG]?)([a-z_-]+)%", entry, template)
    except KeyError as err:
        raise UsageError("Error: perf report option \"%s\" is not supported by the %s driver"
                         % (err.args[0], driver.name)) from None
