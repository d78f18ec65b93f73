#!/usr/bin/env bash
# Tiles fitted to a thin P: where M (or N) is less than a tile's rows
# (columns), the tile cut to M rounded up to its work-item's rows (WPTM),
# so that the block computes no rows that P lacks (33x4097x6001 on 64-row
# tiles computes 64 rows for 33). In one call: cuBLAS at each shape
# (../cublas.py, TF32 off), then sweep.sh at each shape with sm_90's tile
# and the fitted ones, in several K slice counts, each forced through a
# tuning database, beside splitk's own plan.
# Usage: bench/sgemm/shapes/fitted.sh OUTDIR   (CLMEM: a release build)
set -uo pipefail
# shellcheck source=sweeps.sh
. "$(dirname "$0")/sweeps.sh"
sweeps_start "${1:?usage: fitted.sh OUTDIR}"
sweeps_cublas cublas.csv 33x4097x6001 100x8192x8192 8192x100x8192 48x8192x8192
sweeps_tiles m33 33x4097x6001 "64x256:8x16:8 40x256:8x16:8 36x256:4x16:8 36x256:4x8:8 36x128:4x8:8 36x128:4x4:8" "8 12 15 20 24"
sweeps_tiles m100 100x8192x8192 "128x256:8x16:8 128x128:8x8:8 104x256:8x16:8 104x128:8x8:8 100x256:4x16:8" "2 4 8"
sweeps_tiles n100 8192x100x8192 "256x128:16x8:8 128x128:8x8:8 256x104:16x8:8 128x104:8x8:8" "2 4 8"
sweeps_tiles m48 48x8192x8192 "64x256:8x16:8 64x128:8x8:8 48x256:8x16:8 48x128:8x8:8" "4 8 16"
cat "$sweeps_out/cublas.csv"
