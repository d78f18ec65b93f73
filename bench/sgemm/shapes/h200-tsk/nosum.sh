#!/usr/bin/env bash
# What splitk's second pass (MatrixSumSlices: P = the sum of the K slices'
# sums in W) costs of its time, on the GPU machine from the tree's root
# after a release build in build-gpu/: `clmem run matmul --variant
# splitk` at the shapes where auto sits nearest 0.9 of cuBLAS, with the
# tree's kernels and with kernels/nosum.patch's (the second pass launched
# but returning at once: P unsummed, so those runs FAIL verification;
# only their time counts), alternating, twice.
# Usage: bench/sgemm/shapes/h200-tsk/nosum.sh OUTDIR
set -uo pipefail
out=${1:?usage: nosum.sh OUTDIR}
here=bench/sgemm/shapes/h200-tsk
mkdir -p "$out"
. bench/gpu-env.sh
k=$(mktemp -d)
cp -r cl "$k/nosum" && patch -s -d "$k/nosum" -p2 <"$here/kernels/nosum.patch" || exit 1
echo "size,kernels,round,status,median_ms,gflops,note" >"$out/nosum.csv"
for round in 1 2; do
    for s in 128x8192x8192 100x8192x8192 1000x999x9001 777x1234x5678; do
        for dir in cl "$k/nosum"; do
            build-gpu/clmem run matmul --variant splitk --device gpu --size "$s" --reps 20 \
                --kernel-dir "$dir" --quiet --format csv 2>>"$out/errors.txt" |
                python3 -c 'import csv, sys
for r in csv.DictReader(sys.stdin):
    print(",".join([sys.argv[1], sys.argv[2], sys.argv[3], r["status"], r["median_ms"], r["metric"], "\"" + r["note"] + "\""]))' \
                    "$s" "$(basename "$dir")" "$round" >>"$out/nosum.csv"
        done
    done
done
cat "$out/nosum.csv"
