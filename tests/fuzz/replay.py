"""python -m fuzz.replay LOG: runs a fuzzer's call log line by line, going on
past lines that raise (collect mode logs calls after an escaped exception;
`python LOG` stops at the first). Prints each line with -v."""

import sys


def replay(path, verbose=False):
    ns = {"__name__": "__replay__"}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if verbose:
            print("%d: %s" % (n, line), flush=True)
        try:
            exec(compile(line, "%s:%d" % (path, n), "exec"), ns)  # noqa: S102 - our own log
        except Exception as exc:  # noqa: BLE001 - the log's escapes, shown and passed
            print("%d: %s\n  -> %s: %s" % (n, line, type(exc).__name__, exc), flush=True)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) != 1:
        sys.exit("usage: python -m fuzz.replay [-v] LOG")
    replay(args[0], "-v" in sys.argv)
