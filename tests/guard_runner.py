"""Runs guarded cases (tests/guarded_cases.py) in this process; started by
tests/test_guarded.py through guard.Subprocess, since an access out of
bounds kills the process with SIGSEGV.

stdin: {"family": name, "shard": [i, n], "where": ["after", "before"],
"skip": [tags to leave out: ones that crashed an earlier run]}.
stdout: one JSON object per line: {"start": key} before each entry (so a
crash names the entry it died in), then {"key": key, "problems": text or
null}; {"done": count} at the end.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import guard  # noqa: E402
import guarded_cases  # noqa: E402


def main():
    job = json.load(sys.stdin)
    entries = guarded_cases.FAMILIES[job["family"]]()
    i, n = job.get("shard", [0, 1])
    skip = set(job.get("skip", []))
    count = 0
    for key, run in entries[i::n]:
        for where in job.get("where", ["after", "before"]):
            tag = "%s@%s" % (key, where)
            if tag in skip:
                continue
            print(json.dumps({"start": tag}), flush=True)
            try:
                run(lambda nbytes, dtype, where=where: guard.guarded(nbytes, dtype, where))
                problems = None
            except AssertionError as e:
                problems = str(e)
            print(json.dumps({"key": tag, "problems": problems}), flush=True)
            count += 1
    print(json.dumps({"done": count}), flush=True)


if __name__ == "__main__":
    main()
