#!/usr/bin/env bash
# transpose vec4's tile and rows (issue 18, goal 2), in one call on one GPU:
# every transpose variant at 8192 with the built-in parameters and --peak,
# `clmem tune transpose --variant vec4` (VEC_TILE x VEC_ROWS), then the same
# run with what tune kept. Usage: bench/transpose-vec4/run.sh [OUTDIR]
# (default "$OUT", else bench/transpose-vec4/out); CLMEM (default
# ./build-gpu/clmem), DEVICE (default nvidia).
set -uo pipefail
out=${1:-${OUT:-$(dirname "$0")/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
mkdir -p "$out"
# A tuning database of its own, so "builtin" is what no tuning gives.
mkdir -p "$out/cache"
chmod 700 "$out/cache"
export XDG_CACHE_HOME=$out/cache
run() { # NAME: the transpose table as CSV
    "$clmem" run transpose --device "$device" --size 8192 --reps 10 --peak --format csv \
        >"$out/$1.csv" 2>"$out/$1.err"
}
run builtin
timeout 200 "$clmem" tune transpose --variant vec4 --device "$device" --size 8192 \
    --max-candidates 24 --reps 3 >"$out/tune-vec4.txt" 2>&1
run tuned
for f in builtin tuned; do
    echo "$f:"
    cut -d, -f2,7,13,15 "$out/$f.csv"
done
