#!/usr/bin/env bash
# Measures one device for bench/: `clmem bench` as JSON and as a table, the
# coalescing curves as CSV (one row per offset/stride) and the transpose
# table of the lecture. Usage:
#   scripts/bench.sh NAME DEVICE [OUTDIR] [extra 'clmem bench' options]
# e.g. scripts/bench.sh h100 nvidia bench --compare clblast
# writes OUTDIR/NAME.json, NAME.txt, NAME-coalescing.csv, NAME-transpose.txt.
# CLMEM (default ./build/clmem) names the binary.
set -euo pipefail
name=${1:?usage: scripts/bench.sh NAME DEVICE [OUTDIR] [bench options]}
device=${2:?usage: scripts/bench.sh NAME DEVICE [OUTDIR] [bench options]}
out=${3:-bench}
shift $(( $# < 3 ? $# : 3 ))
clmem=${CLMEM:-./build/clmem}
mkdir -p "$out"

"$clmem" devices >"$out/$name-devices.txt"
echo "clmem bench on '$device' -> $out/$name.json" >&2
"$clmem" bench --device "$device" --output "$out/$name.json" "$@" >"$out/$name.txt"
# The coalescing sizes of bench, as a CSV ready to plot.
size=4194304
grep -qi '"type":[[:space:]]*"cpu"' "$out/$name.json" && size=1048576
"$clmem" run coalescing --device "$device" --size "$size" --format csv \
    --output "$out/$name-coalescing.csv"
tsize=8192
[ "$size" = 1048576 ] && tsize=2048
"$clmem" run transpose --device "$device" --size "$tsize" --peak >"$out/$name-transpose.txt"
