#!/usr/bin/env bash
# The shapes where auto fell short of its goals (README.md's table), in one
# call: splitk swept over tiles and K slices for each of them (sweep.sh,
# each group of shapes with the tiles and slices that fit it: M of 64 with
# tiles 64 rows high or 32, the small squares and the odd size with
# 64-256 rows and few slices), then run.sh on these shapes alone (auto,
# every variant, cuBLAS). Writes OUTDIR/sweep-*/sweep.txt and
# OUTDIR/run/table.txt.
# Usage: bench/sgemm/shapes/short.sh [OUTDIR]   (default "$OUT")
# Env: CLMEM (./build-gpu/clmem). Each group of the sweep starts no run
# past its own budget (the first argument of sweep below, seconds).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$OUT}
export CLMEM=${CLMEM:-./build-gpu/clmem}
sweep() {
    local budget=$1 name=$2 shapes=$3 tiles=$4 splits=$5
    SHAPES=$shapes TILES=$tiles SPLITS=$splits BUDGET_S=$budget \
        "$here/sweep.sh" "$out/sweep-$name" >/dev/null
}
# M of 64: 64 rows a tile (or 32), 64 to 256 columns, TSK 8 or 16.
sweep 70 thin "64x8192x8192 64x4096x4096" \
    "64x128:8x8:8 64x128:8x8:16 64x128:4x8:8 64x256:8x16:8 64x256:8x8:8 64x64:8x4:8 32x128:4x8:8" \
    "4 8 16 32"
# M of 128.
sweep 25 m128 "128x8192x8192" "128x128:8x8:8 128x256:8x16:8 128x128:8x8:16 64x256:8x16:8" "2 4 8"
# Small squares and the odd size: each tile from 64x128 to 256x128 in few slices.
tiles="256x128:16x8:8 128x256:8x16:8 128x128:8x8:8 64x256:8x16:8 64x128:8x8:8 128x64:8x8:8"
sweep 40 1536 "1536" "$tiles" "1 2 3 4 6"
sweep 35 odd "777x1234x5678" "$tiles" "1 2 4 8"
sweep 25 1024 "1024" "$tiles" "1 2 4"
printf '%s\n' 64x8192x8192 128x8192x8192 64x4096x4096 512 1024 1536 777x1234x5678 >"$out/short.txt"
SHAPES=$out/short.txt "$here/run.sh" "$out/run" >/dev/null
