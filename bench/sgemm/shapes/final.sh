#!/usr/bin/env bash
# The last check, after splitk's model counts waves of UNITS groups a unit
# (64x256 tiles two a unit): run.sh at the shapes whose plan that moved
# (64x8192x8192, 64x4096x4096, 777x1234x5678, 33x4097x6001), and at
# 33x4097x6001 the new plan (64x256 in 15 slices) forced beside the one
# before the 64x256 row (64x128 in 16). Writes OUTDIR/run/table.txt and
# OUTDIR/sweep-odd33/sweep.txt.
# Usage: bench/sgemm/shapes/final.sh [OUTDIR]   (default "$OUT")
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$OUT}
export CLMEM=${CLMEM:-./build-gpu/clmem}
mkdir -p "$out"
printf '%s\n' 64x8192x8192 64x4096x4096 777x1234x5678 33x4097x6001 >"$out/final.txt"
SHAPES=$out/final.txt BUDGET_S=120 "$here/run.sh" "$out/run" >/dev/null
SHAPES=33x4097x6001 TILES=64x256:8x16:8 SPLITS=15 BUDGET_S=20 "$here/sweep.sh" "$out/sweep-odd33" >/dev/null
SHAPES=33x4097x6001 TILES=64x128:8x8:8 SPLITS=16 BUDGET_S=20 "$here/sweep.sh" "$out/sweep-odd33b" >/dev/null
