#!/usr/bin/env bash
# The parameter database on a GPU, in one call: matmul `--variant auto`
# with the shipped rows and as a device no shipped row knows
# (CLMEM_PARAMS_GENERIC=1), beside cuBLAS (../sgemm/cublas.py: PyTorch, TF32
# off, just before clmem at each shape), at the shapes of SHAPES (the 50 of
# random-50.txt, drawn by draw_shapes.py; the first GENERIC_SHAPES of them
# also run as the unknown device), and the stencils, transpose and reduce
# both ways against their own copy peak (--peak). Then summary.py writes
# table.csv and summary.txt. Usage: bench/params/run.sh [OUTDIR]
# Env: CLMEM (./build-gpu/clmem), REPS (10), GENERIC_SHAPES (12), BUDGET_S
# (400: no shape starts later than this many seconds after the start), OTHERS
# (the other workloads and their sizes, comma-separated, as fit.sh takes
# them; "" none).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/out}}
clmem=${CLMEM:-./build-gpu/clmem}
reps=${REPS:-10}
generic_shapes=${GENERIC_SHAPES:-12}
budget=${BUDGET_S:-400}
mapfile -t shapes < <(sed -e 's/#.*//' "${SHAPES:-$here/random-50.txt}" | awk 'NF { print $1 }')
[ -x "$clmem" ] || { echo "run.sh: no clmem at '$clmem' (set CLMEM)" >&2; exit 2; }
mkdir -p "$out"
# shellcheck source=../gpu-env.sh
. "$here/../gpu-env.sh"
start=$SECONDS
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    git -C "$here" describe --always --dirty 2>/dev/null || true
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
    "$clmem" devices
} >"$out/gpu.txt" 2>&1
# Which rows each table took, from which file (CLMEM_DEBUG's database lines).
for generic in 0 1; do
    CLMEM_PARAMS_GENERIC=$generic CLMEM_DEBUG=1 "$clmem" run matmul --device "${DEVICE:-gpu}" --variant auto \
        --size 4096 --reps 3 --quiet >/dev/null 2>"$out/debug-generic$generic.txt"
done
# One run: LABEL-NAME.json, the unknown device's where GENERIC is 1.
run() {
    local generic=$1 label=$2
    shift 2
    CLMEM_PARAMS_GENERIC=$generic "$clmem" run "$@" --device "${DEVICE:-gpu}" --reps "$reps" --format json \
        --output "$out/$label.json" --quiet 2>>"$out/errors.txt" ||
        echo "run.sh: $label: exit $?" >>"$out/errors.txt"
}
echo "size,median_ms,min_ms,max_ms,gflops" >"$out/cublas.csv"
for i in "${!shapes[@]}"; do
    s=${shapes[$i]}
    if ((SECONDS - start > budget)); then
        echo "run.sh: past BUDGET_S=$budget s: $s and the shapes after it not run" >>"$out/errors.txt"
        break
    fi
    REPS=$((reps * 2)) python3 "$here/../sgemm/cublas.py" "$s" 2>>"$out/errors.txt" | tail -n +2 \
        >>"$out/cublas.csv"
    run 0 "shipped-matmul-$s" matmul --variant auto --size "$s"
    ((i < generic_shapes)) && run 1 "generic-matmul-$s" matmul --variant auto --size "$s"
done
mapfile -t others < <(printf '%s\n' "${OTHERS-blur 16384x16384,constmem 16384,transpose 16384,reduce 268435456,matmul 8192}" | tr , '\n')
for w in "${others[@]}"; do
    [ -n "${w// /}" ] || continue
    set -- $w
    run 0 "shipped-$1-$2" "$1" --variant all --size "$2" --peak
    run 1 "generic-$1-$2" "$1" --variant all --size "$2" --peak
done
python3 "$here/summary.py" "$out" >"$out/summary.txt" 2>>"$out/errors.txt"
