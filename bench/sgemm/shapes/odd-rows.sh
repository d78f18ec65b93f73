#!/usr/bin/env bash
# 777x1234x5678, the one shape of shapes.txt that splitk's plan (64x256
# tiles in 4 K slices, 33.6-33.8 TFLOP/s in every H200 call) leaves below
# 0.9 of cuBLAS in some calls (cuBLAS 35.2-38.9): 777 rows are 13 tiles of
# 64 whose last holds 9, and 1234 columns 5 of 256, 1.11x the work P
# needs. Tiles whose rows divide 777 more evenly (56, 60, 72, 80 rows of
# 256; 104 and 112 in K steps of 16, which their local memory holds), in
# 3 to 5 K slices, each forced through a tuning database (sweep.sh), beside
# the plan; cuBLAS at the start and at the end (../cublas.py, TF32 off).
# Usage: bench/sgemm/shapes/odd-rows.sh OUTDIR   (CLMEM: a release build)
set -uo pipefail
# shellcheck source=sweeps.sh
. "$(dirname "$0")/sweeps.sh"
sweeps_start "${1:?usage: odd-rows.sh OUTDIR}"
sweeps_cublas cublas-first.csv 777x1234x5678
sweeps_tiles rows 777x1234x5678 "64x256:8x16:8 72x256:8x16:8 80x256:8x16:8 56x256:4x16:8 60x256:4x16:8" "3 4 5"
sweeps_tiles tall 777x1234x5678 "104x256:8x16:16 112x256:8x16:16 128x128:8x8:8" "2 3"
sweeps_cublas cublas-last.csv 777x1234x5678
cat "$sweeps_out/sweep.txt" "$sweeps_out/cublas-first.csv" "$sweeps_out/cublas-last.csv"
