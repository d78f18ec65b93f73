#!/usr/bin/env bash
# After regblock's and splitk's float2 path (K and N even, not multiples of
# 4): run.sh at the odd shapes of shapes.txt and at 776x1236x5680 (the
# aligned neighbour of 777x1234x5678) with cuBLAS in the same call, into
# OUTDIR/run; then splitk's 32-wide tiles (whose rates in splitk_params
# are still estimates) swept at the two thinnest shapes, into
# OUTDIR/sweep-thin (sweep.sh).
# Usage: bench/sgemm/shapes/even.sh [OUTDIR]   (default "$OUT")
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$OUT}
export CLMEM=${CLMEM:-./build-gpu/clmem}
mkdir -p "$out"
printf '%s\n' 777x1234x5678 776x1236x5680 33x4097x6001 1000x999x9001 >"$out/even.txt"
SHAPES=$out/even.txt BUDGET_S=120 "$here/run.sh" "$out/run" >/dev/null
SHAPES="8192x32x8192 32x8192x8192" TILES="128x32:8x4:8 32x128:4x8:8 32x32:4x4:8 256x32:16x4:8 32x256:4x16:8" \
    SPLITS="4 8 16 32" BUDGET_S=200 "$here/sweep.sh" "$out/sweep-thin" >/dev/null
