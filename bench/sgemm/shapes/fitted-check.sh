#!/usr/bin/env bash
# After splitk cuts a thin P's tiles (splitk_fitted in
# src/workloads/matmul.c): run.sh at every shape of shapes.txt (auto, the
# variants, cuBLAS in the same call), then sweep.sh at the thin shapes
# whose cut tiles fitted.sh did not measure (48 rows with 4 a work-item;
# 33 columns), beside the tiles they were cut from.
# Usage: bench/sgemm/shapes/fitted-check.sh OUTDIR   (CLMEM: a release build)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fitted-check.sh OUTDIR}
export CLMEM=${CLMEM:-./build-gpu/clmem}
mkdir -p "$out"
. "$here/../../gpu-env.sh"
BUDGET_S=${BUDGET_S:-300} "$here/run.sh" "$out/run" >/dev/null 2>"$out/run.log"
sweep() { # NAME SHAPE TILES SPLITS
    SHAPES=$2 TILES=$3 SPLITS=$4 BUDGET_S=90 "$here/sweep.sh" "$out/$1" >/dev/null
    cat "$out/$1/sweep.txt" >>"$out/sweep.txt"
}
sweep m48 48x8192x8192 "48x256:4x16:8 48x128:4x8:8 48x128:8x8:8 64x256:8x16:8" "4 8 16"
sweep n33 4097x33x6001 "128x36:8x4:8 256x36:16x4:8 128x64:8x8:8 64x36:4x4:8" "8 16 24"
cat "$out/run/table.txt"
