#!/usr/bin/env bash
# How splitk's and regblock's loads cost at 777x1234x5678 (K and N even,
# not multiples of 4: float2s), the one shape of shapes.txt below 0.9 of
# cuBLAS on both GPUs. Four builds of cl/matmul_regblock.cl, made from this
# tree's by its two switches: REGBLOCK_CLAMP (a block across P's edge
# reads clamped rows and columns, unchecked, instead of checking each
# load) and REGBLOCK_SPREAD2 (float2 rows: consecutive work-items on
# consecutive float2s, so that a warp's load reads whole sectors once
# rather than half of each twice). Each runs splitk forced to its plan
# there (64x256, 8x16 a work-item, in 4 K slices) with K steps of 8 and
# of 16, twice, alternating; 776x1236x5680 (the aligned neighbour) and the
# other shapes across P's edge with `--variant auto` under the first and
# the last build; cuBLAS at the start and the end (../cublas.py, TF32 off).
# One line each (shape, label, GFLOP/s, status, note) in OUTDIR/table.txt.
# Usage: bench/sgemm/shapes/loads.sh OUTDIR   (CLMEM: a release build)
# Env: ODD (777x1234x5678), OTHERS (the shapes auto runs at: the aligned
# neighbour and the others across P's edge), REPS (10).
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
odd=${ODD:-777x1234x5678}
read -r -a others <<<"${OTHERS:-776x1236x5680 1000x999x9001 100x8192x8192 33x4097x6001}"
cache=$out/cache
mkdir -p "$cache" "$out/kernels"
build() { # NAME CLAMP SPREAD2: cl/ with those switches
    mkdir -p "$out/kernels/$1"
    cp cl/*.cl "$out/kernels/$1/"
    sed -i -e "s/^#define REGBLOCK_CLAMP .*/#define REGBLOCK_CLAMP $2/" \
        -e "s/^#define REGBLOCK_SPREAD2 .*/#define REGBLOCK_SPREAD2 $3/" \
        "$out/kernels/$1/matmul_regblock.cl"
}
build checked 0 0
build clamped 1 0
build spread 0 1
build both 1 1
for t in 8 16; do
    force_variant "$cache/t$t" matmul splitk GFLOP/s SPLITK_TSM=64 SPLITK_TSN=256 \
        SPLITK_TSK=$t SPLITK_WPTM=8 SPLITK_WPTN=16 SPLITK_SPLITS=4
done
mkdir -p "$cache/none"
one() { # SIZE VARIANT KERNELS DB LABEL
    XDG_CACHE_HOME=$cache/$4 "$CLMEM" run matmul --device "$DEVICE" --size "$1" --variant "$2" \
        --reps "$reps" --kernel-dir "$out/kernels/$3" --format csv --output "$out/$5-$1.csv" \
        --quiet || echo "loads.sh: $5 at $1: exit $?" >&2
    python3 - "$out/$5-$1.csv" "$1" "$5" <<'PY'
import csv, os, sys
path, size, label = sys.argv[1:4]
r = next(csv.DictReader(open(path)), None) if os.path.exists(path) else None
if not r:
    print(f"{size:>16} {label:>22}  (no result)")
else:
    print(f"{size:>16} {label:>22} {float(r['metric']):9.0f}  {r['status']:6}  {r['note']}")
PY
}
sweeps_cublas cublas-first.csv "$odd" "${others[@]}"
{
    for round in 1 2; do
        for k in checked clamped spread both; do
            for t in 8 16; do
                one "$odd" splitk "$k" "t$t" "$k-t$t-r$round"
            done
        done
    done
    for s in "${others[@]}" "$odd"; do
        for r in 1 2; do
            for k in checked both; do
                one "$s" auto "$k" none "auto-$k-r$r"
            done
        done
    done
} | tee "$out/table.txt"
sweeps_cublas cublas-last.csv "$odd" "${others[@]}"
cat "$out/cublas-first.csv" "$out/cublas-last.csv"
rm -rf "$cache"
