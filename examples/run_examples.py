"""Runs every example and reports how long each took."""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = [
    "c_style/cpu_cnn_training_f32.py",
    "cpp_style/cnn_training_bf16.py",
    "cpp_style/rnn_training_f32.py",
    "cpp_style/getting_started.py",
    "cpp_style/memory_format_propagation.py",
    "cpp_style/primitives/convolution.py",
    "cpp_style/primitives/eltwise.py",
    "cpp_style/primitives/lrn.py",
    "cpp_style/primitives/pooling.py",
    "cpp_style/primitives/reorder.py",
    "cpp_style/primitives/lstm.py",
    "reorder_demo.py",
]


def main():
    failed = []
    for name in EXAMPLES:
        path = os.path.join(HERE, name)
        if not os.path.exists(path):
            continue
        print("== %s" % name, flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, path])
        print("== %s: %s in %.1f s" % (name, "ok" if rc == 0 else "FAILED (exit %d)" % rc,
                                       time.perf_counter() - t0), flush=True)
        if rc != 0:
            failed.append(name)
    if failed:
        sys.exit("failed: %s" % ", ".join(failed))


if __name__ == "__main__":
    main()
