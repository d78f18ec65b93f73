#!/usr/bin/env bash
# After splitk cuts a thin P's tiles (splitk_fitted in
# src/workloads/matmul.c): run.sh at every shape of shapes.txt (auto, the
# variants, cuBLAS in the same call), then sweep.sh at the thin shapes
# whose cut tiles fitted.sh did not measure (48 rows with 4 a work-item;
# 33 columns), beside the tiles they were cut from.
# Usage: bench/sgemm/shapes/fitted-check.sh OUTDIR   (CLMEM: a release build)
set -uo pipefail
# shellcheck source=sweeps.sh
. "$(dirname "$0")/sweeps.sh"
sweeps_start "${1:?usage: fitted-check.sh OUTDIR}"
BUDGET_S=${BUDGET_S:-300} "$sweeps_here/run.sh" "$sweeps_out/run" >/dev/null 2>"$sweeps_out/run.log"
sweeps_tiles m48 48x8192x8192 "48x256:4x16:8 48x128:4x8:8 48x128:8x8:8 64x256:8x16:8" "4 8 16" 90
sweeps_tiles n33 4097x33x6001 "128x36:8x4:8 256x36:16x4:8 128x64:8x8:8 64x36:4x4:8" "8 16 24" 90
cat "$sweeps_out/run/table.txt"
