#!/usr/bin/env bash
# What splitk's clamped loads (cl/matmul_regblock.cl, LOAD_CLAMPED: a
# block across P's edge reads float4s from clamped rows and columns,
# unchecked, where K and N are multiples of 4) are worth: each of RUNS with
# this tree's kernels ("clamped") and with the same kernels checking every
# load of such a block instead ("checked": SPLITK_CLAMP 0), and with
# BEFORE's kernels where given ("before", e.g. `git archive 7f2a6af cl |
# tar -x -C DIR`, then DIR/cl: each load tested on its own), ROUNDS times,
# alternating; cuBLAS at each shape at the start and the end
# (../cublas.py, TF32 off). One line each (shape, label, GFLOP/s, status,
# note) in OUTDIR/table.txt. loads-calls/ has what it measured, and the
# script and kernels of the call before it.
# Usage: bench/sgemm/shapes/loads.sh OUTDIR   (CLMEM: a release build)
# Env: RUNS ("SHAPE:VARIANT ...": splitk's plans across P's edge with K
# and N multiples of 4, where the clamp applies, then shapes where it does
# not), BEFORE, ROUNDS (2), REPS (10).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=sweeps.sh
. "$here/sweeps.sh"
sweeps_start "${1:?usage: loads.sh OUTDIR}"
out=$sweeps_out
export DEVICE=${DEVICE:-nvidia}
# shellcheck source=../../experiments/lib.sh
. "$here/../../experiments/lib.sh"
reps=${REPS:-10}
rounds=${ROUNDS:-2}
read -r -a runs <<<"${RUNS:-776x1236x5680:auto 100x8192x8192:auto 777x1234x5678:auto \
1000x999x9001:auto 4000:regblock 4096:auto}"
mkdir -p "$out/kernels/checked" "$out/cache"
cp cl/*.cl "$out/kernels/checked/"
sed -i 's/^#define SPLITK_CLAMP .*/#define SPLITK_CLAMP 0/' "$out/kernels/checked/matmul_splitk.cl"
grep -q '^#define SPLITK_CLAMP 0' "$out/kernels/checked/matmul_splitk.cl" ||
    { echo "loads.sh: no SPLITK_CLAMP switch in cl/matmul_splitk.cl" >&2; exit 2; }
builds=(checked clamped)
dirs=("$out/kernels/checked" "$PWD/cl")
if [ -n "${BEFORE:-}" ]; then
    builds=(before "${builds[@]}")
    dirs=("$BEFORE" "${dirs[@]}")
fi
one() { # SIZE VARIANT KERNELS LABEL
    XDG_CACHE_HOME=$out/cache "$CLMEM" run matmul --device "$DEVICE" --size "$1" --variant "$2" \
        --reps "$reps" --kernel-dir "$3" --format csv --output "$out/$4-$1.csv" --quiet ||
        echo "loads.sh: $4 at $1: exit $?" >&2
    csv_line "$out/$4-$1.csv" "$1" "$4" 26
}
mapfile -t shapes < <(printf '%s\n' "${runs[@]%%:*}" | awk '!seen[$0]++')
sweeps_cublas cublas-first.csv "${shapes[@]}"
{
    for ((r = 1; r <= rounds; r++)); do
        for run in "${runs[@]}"; do
            for i in "${!builds[@]}"; do
                one "${run%%:*}" "${run#*:}" "${dirs[$i]}" "${run#*:}-${builds[$i]}-r$r"
            done
        done
    done
} | tee "$out/table.txt"
sweeps_cublas cublas-last.csv "${shapes[@]}"
cat "$out/cublas-first.csv" "$out/cublas-last.csv"
rm -rf "$out/cache" "$out/kernels"
