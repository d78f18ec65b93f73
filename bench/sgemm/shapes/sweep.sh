#!/usr/bin/env bash
# splitk's plans against what it could have run: at each shape, splitk
# with each tile of TILES in each number of K slices of SPLITS, each forced
# through a tuning database (bench/experiments/lib.sh's force_variant, as a
# tune result would be), beside splitk's own plan; one line each (shape,
# label TSMxTSN-wWPTMxWPTN-tTSK-kSLICES, GFLOP/s, status, note) in
# OUTDIR/sweep.txt.
# What it is for: the model's rates in src/workloads/matmul.c
# (splitk_params: RATE1 a unit running one work-group of the tile, RATEU
# running UNITS) are measured only for 256x128, 128x128 and 64x128 at one
# group a unit; where run.sh shows splitk's plan short of cuBLAS, this
# says which tile and slices do better, and at how many groups a unit.
# Usage: bench/sgemm/shapes/sweep.sh [OUTDIR]   (default "$OUT", else
# bench/sgemm/shapes/out-sweep)
# Env: CLMEM (./build-gpu/clmem), DEVICE (nvidia: part of the device's
# name, as lib.sh's device_field takes it), SHAPES (default: four of
# shapes.txt's categories), TILES ("TSMxTSN:WPTMxWPTN:TSK" each; default
# sm_90's rows), SPLITS (1 2 4 8 16 32), REPS (10), BUDGET_S (480).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/out-sweep}}
export CLMEM=${CLMEM:-./build-gpu/clmem} DEVICE=${DEVICE:-nvidia}
reps=${REPS:-10}
budget=${BUDGET_S:-480}
read -r -a shapes <<<"${SHAPES:-64x8192x8192 512x512x16384 1536 777x1234x5678}"
read -r -a tiles <<<"${TILES:-256x128:16x8:8 128x256:8x16:8 128x128:8x8:8 64x256:8x16:8 64x128:8x8:8 128x64:8x8:8 32x128:4x8:8 128x32:8x4:8 32x32:4x4:8}"
read -r -a splits <<<"${SPLITS:-1 2 4 8 16 32}"
# shellcheck source=../../experiments/lib.sh
source "$here/../../experiments/lib.sh"
mkdir -p "$out"
start=$SECONDS
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
# One run of splitk at SIZE (with the database in DIR, or none) into
# OUTDIR/LABEL-SIZE.csv; its line on stdout.
one() {
    local size=$1 label=$2 dir=$3
    XDG_CACHE_HOME=$dir "$CLMEM" run matmul --device "$DEVICE" --size "$size" --variant splitk \
        --reps "$reps" --format csv --output "$out/$label-$size.csv" --quiet ||
        echo "sweep.sh: $label at $size: exit $?" >&2
    csv_line "$out/$label-$size.csv" "$size" "$label"
}
{
    for s in "${shapes[@]}"; do
        one "$s" plan "$cache/none"
        for t in "${tiles[@]}"; do
            IFS=':x' read -r tsm tsn wptm wptn tsk <<<"$t"
            for k in "${splits[@]}"; do
                if ((SECONDS - start > budget)); then
                    echo "sweep.sh: past BUDGET_S=$budget s, stopped at $s $t $k" >&2
                    exit 0
                fi
                db="$cache/$tsm-$tsn-$wptm-$wptn-$tsk-$k"
                force_variant "$db" matmul splitk GFLOP/s SPLITK_TSM="$tsm" SPLITK_TSN="$tsn" \
                    SPLITK_TSK="$tsk" SPLITK_WPTM="$wptm" SPLITK_WPTN="$wptn" SPLITK_SPLITS="$k"
                one "$s" "${tsm}x${tsn}-w${wptm}x${wptn}-t${tsk}-k$k" "$db"
            done
        done
    done
} | tee "$out/sweep.txt"
