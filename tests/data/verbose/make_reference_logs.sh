#!/usr/bin/env bash
# How the onednn313_*.log files here were made: the three reference programs
# (../shared/reference/ next to the repository: cpu_cnn_training_f32.c,
# cnn_training_bf16.cpp, rnn_training_f32.cpp, oneDNN's own examples) built
# against the real oneDNN 3.13 and run with ONEDNN_VERBOSE=profile_create,profile_exec.
# Not run by the tests (they read the logs); kept so the logs can be remade.
#
# oneDNN 3.13 is PyPI's `onednn` wheel (2026.1.0 = oneDNN v3.13.2, SYCL CPU
# runtime, TBB threading), with `onednn-devel` for the headers and `tbb-devel`
# for the TBB header oneDNN's example_utils.hpp includes. The examples'
# example_utils.h/.hpp come from oneDNN's repository at tag v3.13.1.
set -euo pipefail
REF=${REF:-../../../../shared/reference}     # the reference programs
VENV=${VENV:-/tmp/onednn313}
WORK=${WORK:-/tmp/onednn313-logs}
ONEDNN_SRC=${ONEDNN_SRC:-}                   # a oneDNN checkout (for example_utils.h*)
OUT=$(cd "$(dirname "$0")" && pwd)

python3 -m venv "$VENV"
"$VENV/bin/pip" install onednn==2026.1.0 onednn-devel==2026.1.0 tbb-devel==2023.2.0
mkdir -p "$WORK/inc"
git -C "$ONEDNN_SRC" show v3.13.1:examples/example_utils.h > "$WORK/inc/example_utils.h"
git -C "$ONEDNN_SRC" show v3.13.1:examples/example_utils.hpp > "$WORK/inc/example_utils.hpp"

FLAGS=(-O2 -I"$WORK/inc" -I"$VENV/include" -L"$VENV/lib" -Wl,-rpath,"$VENV/lib")
gcc "${FLAGS[@]}" -o "$WORK/cpu_cnn_training_f32" "$REF/cpu_cnn_training_f32.c" -ldnnl
for p in cnn_training_bf16 rnn_training_f32; do
    g++ -std=c++17 -DSYCL_DISABLE_FSYCL_SYCLHPP_WARNING "${FLAGS[@]}" -o "$WORK/$p" \
        "$REF/$p.cpp" -ldnnl -ltbb -lsycl
done

# The SYCL runtime finds the CPU through Intel's OpenCL CPU driver in the venv.
export LD_LIBRARY_PATH="$VENV/lib" OCL_ICD_FILENAMES="$VENV/lib/libintelocl.so"
for p in cpu_cnn_training_f32 cnn_training_bf16 rnn_training_f32; do
    {
        echo "# The real oneDNN v3.13.2 (PyPI onednn 2026.1.0, SYCL CPU runtime) running"
        echo "# $p from ../shared/reference/ (oneDNN's example, unchanged), built with"
        echo "# $(gcc --version | head -1), on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs),"
        echo "# ONEDNN_VERBOSE=profile_create,profile_exec. Made by make_reference_logs.sh."
        ONEDNN_VERBOSE=profile_create,profile_exec OMP_NUM_THREADS=2 "$WORK/$p"
    } > "$OUT/onednn313_$p.log"
done
