#!/usr/bin/env bash
# P of 100 and 128 rows (100x8192x8192, 128x8192x8192), the two shapes that
# read 0.87-0.92 of cuBLAS on the H200 with splitk's plan (128x256 tiles, K
# steps of 8, in 4 slices: one work-group a unit, each streaming its own
# 2 MiB of N from memory, one K step of loads in flight). In one call:
# cuBLAS at both shapes (../cublas.py, TF32 off), then sweep.sh with the
# plan's tile beside tiles whose local memory leaves room for K steps of 16
# (twice the loads in flight a step: 128x128, and 112 or 104 rows of 256,
# which fit NVIDIA's 48 KiB where 128x256 does not), in several K slice
# counts, each forced through a tuning database; cuBLAS again at the end.
# Usage: bench/sgemm/shapes/tsk.sh OUTDIR   (CLMEM: a release build)
set -uo pipefail
# shellcheck source=sweeps.sh
. "$(dirname "$0")/sweeps.sh"
sweeps_start "${1:?usage: tsk.sh OUTDIR}"
sweeps_cublas cublas-first.csv 100x8192x8192 128x8192x8192
sweeps_tiles m100 100x8192x8192 "128x256:8x16:8 112x256:8x16:16 104x256:8x16:16 128x128:8x8:16" "4 8" 120
sweeps_tiles m128 128x8192x8192 "128x256:8x16:8 128x128:8x8:16 128x128:8x8:8" "2 4 8" 120
sweeps_cublas cublas-last.csv 100x8192x8192 128x8192x8192
cat "$sweeps_out/sweep.txt" "$sweeps_out/cublas-first.csv" "$sweeps_out/cublas-last.csv"
