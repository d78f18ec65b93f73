#!/usr/bin/env bash
# What stream-K wins back, by how full the last wave of 256x128 blocks is
# on an H100 (132 units, one block each): regblock (a work-group per
# block) and regblock_padded (stream-K where the last wave is part full),
# at 8448x8192x8192 (16 whole waves), 8704x8192x8192 (16.5), 8192 (15.5),
# 4096 (3.9) and 4224x4096x4096 (4.1: a last wave of 16 blocks).
# Usage: bench/sgemm/waves.sh [OUTDIR]  (default "$OUT", else
# bench/sgemm/out-waves); CLMEM (default ./build-gpu/clmem), DEVICE (nvidia).
set -uo pipefail
out=${1:-${OUT:-bench/sgemm/out-waves}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
mkdir -p "$out"
for s in 8448x8192x8192 8704x8192x8192 8192 4096 4224x4096x4096; do
    for v in regblock regblock_padded; do
        "$clmem" run matmul --device "$device" --size "$s" --variant "$v" --reps 20 --format csv \
            --output "$out/$v-$s.csv" || echo "$v at $s failed: $?" >&2
        python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["size"], r["variant"], round(float(r["metric"])), r["status"], r["note"])' "$out/$v-$s.csv"
    done
done | tee "$out/table.txt"
