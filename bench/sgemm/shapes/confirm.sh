#!/usr/bin/env bash
# After the model's rates were set from short.sh's sweep: splitk swept
# where the new plan is one no sweep measured yet (64x256 tiles at
# 64x4096x4096, 777x1234x5678 and 33x4097x6001, beside the 64x128 of the
# plan before; 256x128 in 5 slices at 1536), then run.sh on every shape of
# shapes.txt. Writes OUTDIR/sweep-*/sweep.txt and OUTDIR/run/table.txt.
# Usage: bench/sgemm/shapes/confirm.sh [OUTDIR]   (default "$OUT")
# Env: CLMEM (./build-gpu/clmem), BUDGET_S (run.sh's; 200 here).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$OUT}
export CLMEM=${CLMEM:-./build-gpu/clmem}
sweep() {
    local budget=$1 name=$2 shapes=$3 tiles=$4 splits=$5
    SHAPES=$shapes TILES=$tiles SPLITS=$splits BUDGET_S=$budget \
        "$here/sweep.sh" "$out/sweep-$name" >/dev/null
}
sweep 20 thin4096 "64x4096x4096" "64x256:8x16:8 64x128:8x8:8" "4 8 16 32"
sweep 20 odd "777x1234x5678" "64x256:8x16:8 64x128:8x8:8" "2 4 8 16"
sweep 20 odd33 "33x4097x6001" "64x256:8x16:8 64x128:8x8:8" "8 16 23 32"
sweep 10 1536 "1536" "256x128:16x8:8" "3 5"
BUDGET_S=${BUDGET_S:-200} "$here/run.sh" "$out/run" >/dev/null
