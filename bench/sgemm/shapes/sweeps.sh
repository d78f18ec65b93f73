# shellcheck shell=bash
# Sourced by the tile sweeps of this folder (fitted.sh, fitted-check.sh,
# tsk.sh, tsk2.sh, odd-rows.sh), on the GPU machine from the tree's root:
#   sweeps_start OUTDIR         the folder, the GPU's environment
#                               (../../gpu-env.sh), CLMEM (default
#                               ./build-gpu/clmem, a release build), gpu.txt
#   sweeps_cublas FILE SIZE...  cuBLAS at each SIZE (../cublas.py, TF32 off,
#                               20 runs each) into OUTDIR/FILE
#   sweeps_tiles NAME SHAPE TILES SPLITS [BUDGET_S]
#                               sweep.sh at SHAPE with TILES in SPLITS K
#                               slices (BUDGET_S 150) into OUTDIR/NAME, its
#                               lines appended to OUTDIR/sweep.txt
sweeps_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sweeps_start() {
    sweeps_out=$1
    export CLMEM=${CLMEM:-./build-gpu/clmem}
    mkdir -p "$sweeps_out"
    . "$sweeps_here/../../gpu-env.sh"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader \
        >"$sweeps_out/gpu.txt" 2>&1
}
sweeps_cublas() {
    local file=$1
    shift
    REPS=20 python3 "$sweeps_here/../cublas.py" "$@" >"$sweeps_out/$file" ||
        echo "sweeps: cublas.py failed: $?" >&2
}
sweeps_tiles() {
    SHAPES=$2 TILES=$3 SPLITS=$4 BUDGET_S=${5:-150} "$sweeps_here/sweep.sh" "$sweeps_out/$1" \
        >/dev/null
    cat "$sweeps_out/$1/sweep.txt" >>"$sweeps_out/sweep.txt"
}
