#!/usr/bin/env bash
# A GPU run as a device no shipped row knows, fitted by clmem itself, in
# one call: `CLMEM_PARAMS_GENERIC=1 clmem tune` (a whole device within
# FIT_BUDGET, its fitted rows in OUTDIR/cache), then matmul `--variant
# auto` at the first SHAPES_N shapes of random-50.txt and the stencils,
# transpose and reduce, each with the shipped rows (no fitted rows: an
# empty cache) and as the fitted unknown device, back to back. Then
# summary.py (labels shipped- and fitted-). Usage: bench/params/fit.sh
# [OUTDIR]. Env: CLMEM (./build-gpu/clmem), REPS (10), SHAPES_N (12),
# FIT_BUDGET (240s), DEVICE (gpu), FITTED_ROWS (a file `clmem tune
# --export` wrote: these rows as the device's fitted rows, no tune),
# OTHERS (the other workloads and their sizes, comma-separated: "blur
# 16384x16384,constmem 16384,..."; "" none).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/out-fit}}
clmem=${CLMEM:-./build-gpu/clmem}
reps=${REPS:-10}
mapfile -t shapes < <(sed -e 's/#.*//' "$here/random-50.txt" | awk 'NF { print $1 }' | head -n "${SHAPES_N:-12}")
[ -x "$clmem" ] || { echo "fit.sh: no clmem at '$clmem' (set CLMEM)" >&2; exit 2; }
mkdir -p "$out/cache" "$out/empty"
chmod 700 "$out/cache" "$out/empty"
# shellcheck source=../gpu-env.sh
. "$here/../gpu-env.sh"
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    git -C "$here" describe --always --dirty 2>/dev/null || true
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
} >"$out/gpu.txt" 2>&1
if [ -n "${FITTED_ROWS:-}" ]; then
    # Rows an earlier fit exported, as this device's fitted rows (every
    # file of the folder is read; the rows name their device): the runs
    # below again without the fit.
    mkdir -p "$out/cache/clmem/params" && chmod -R 700 "$out/cache"
    install -m 600 "$FITTED_ROWS" "$out/cache/clmem/params/device-exported.json"
    echo "fitted rows from $FITTED_ROWS (no tune)" >"$out/tune.txt"
else
    XDG_CACHE_HOME=$out/cache CLMEM_PARAMS_GENERIC=1 "$clmem" tune --device "${DEVICE:-gpu}" \
        --budget "${FIT_BUDGET:-240s}" >"$out/tune.txt" 2>"$out/tune-err.txt"
    echo "tune exit $?" >>"$out/tune.txt"
fi
XDG_CACHE_HOME=$out/cache "$clmem" tune --device "${DEVICE:-gpu}" --export "$out/fitted-rows.json" \
    >>"$out/tune.txt" 2>&1
run() {
    local label=$1 cache=$2 generic=$3
    shift 3
    XDG_CACHE_HOME=$cache CLMEM_PARAMS_GENERIC=$generic "$clmem" run "$@" --device "${DEVICE:-gpu}" \
        --reps "$reps" --format json --output "$out/$label.json" --quiet 2>>"$out/errors.txt" ||
        echo "fit.sh: $label: exit $?" >>"$out/errors.txt"
}
echo "size,median_ms,min_ms,max_ms,gflops" >"$out/cublas.csv"
for s in "${shapes[@]}"; do
    REPS=$((reps * 2)) python3 "$here/../sgemm/cublas.py" "$s" 2>>"$out/errors.txt" | tail -n +2 \
        >>"$out/cublas.csv"
    run "shipped-matmul-$s" "$out/empty" 0 matmul --variant auto --size "$s"
    run "fitted-matmul-$s" "$out/cache" 1 matmul --variant auto --size "$s"
done
mapfile -t others < <(printf '%s\n' "${OTHERS-blur 16384x16384,constmem 16384,transpose 16384,reduce 268435456}" | tr , '\n')
for w in "${others[@]}"; do
    [ -n "${w// /}" ] || continue
    set -- $w
    run "shipped-$1-$2" "$out/empty" 0 "$1" --variant all --size "$2" --peak
    run "fitted-$1-$2" "$out/cache" 1 "$1" --variant all --size "$2" --peak
done
python3 "$here/summary.py" "$out" >"$out/summary.txt" 2>>"$out/errors.txt"
