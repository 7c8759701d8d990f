"""python -m fuzz (from tests/): the long fuzz run.

    cd tests && python -m fuzz --seed 1

runs 20,000 C-style sequences and 2,000 object-layer sequences (the issue's
done-criterion), each layer in a child process with CYDNNL_GUARD_PAGES=1;
prints progress, the time taken, and any failure with the calls that led to
it. --collect keeps going after failures and lists each distinct one (a
crash ends its chunk of sequences; the run goes on with the next).
"""

import argparse
import os
import sys
import tempfile

from fuzz.runner import run_isolated


def cli(argv=None):
    ap = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--examples", type=int, default=20000, help="C-style sequences")
    ap.add_argument("--obj-examples", type=int, default=2000, help="object-layer sequences")
    ap.add_argument("--collect", action="store_true",
                    help="go on after failures; list each distinct one at the end")
    ap.add_argument("--no-guard-pages", action="store_true",
                    help="without CYDNNL_GUARD_PAGES=1 (by default an overrun of a buffer "
                    "the library allocated crashes, and is reported)")
    ap.add_argument("--no-shrink", action="store_true",
                    help="report a failure's whole sequence instead of a minimal one")
    ap.add_argument("--skip", action="append", default=[], metavar="REGEX",
                    help="do not make calls whose logged line matches REGEX (to look past "
                    "a known crash); repeatable")
    ap.add_argument("--log-dir", default=None, help="where the call logs go (default: a "
                    "temporary directory)")
    args = ap.parse_args(argv)
    log_dir = args.log_dir or tempfile.mkdtemp(prefix="cydnnl-fuzz-")
    os.makedirs(log_dir, exist_ok=True)
    ok = True
    for layer, n in (("c", args.examples), ("obj", args.obj_examples)):
        if n <= 0:
            continue
        log = os.path.join(log_dir, "fuzz-%s-seed%d.py" % (layer, args.seed))
        print("== %s layer: %d sequences, seed %d, log %s" % (layer, n, args.seed, log),
              flush=True)
        env = {"CYDNNL_FUZZ_SKIP": "\n".join(args.skip)}
        if not args.no_guard_pages:
            env["CYDNNL_GUARD_PAGES"] = "1"
        r = run_isolated(layer, args.seed, n, log, collect=args.collect, stream_output=True,
                         shrink=not args.no_shrink, env=env)
        status = r["status"] if r["ok"] or not args.collect else \
            "%d distinct failures (listed below)" % len(r["collected"])
        print("== %s layer: %s in %.0f s (%.1f s per 1,000 sequences)"
              % (layer, status, r["seconds"], r["seconds"] * 1000 / n), flush=True)
        if r["report"] and not args.collect:
            print(r["report"])
        for sig, detail in sorted(r["collected"].items()):
            print("-- %s\n%s\n" % (sig, detail))
        ok = ok and r["ok"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(cli())
