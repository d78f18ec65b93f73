#!/usr/bin/env bash
# Whether the row pitch sets blur's and constmem's fraction of the copy
# peak: each coarsened kernel (built-in row) at 16384 columns, a power of
# two (a row 16 KiB of bytes, 64 KiB of floats), and at 16320 and 16448
# (64 bytes less and more), 16384 rows each, with the copy peak measured
# in the same command (--peak), every result verified.
# On the GPU machine from the tree's root, after a release build:
#   bench/roofs/pitch.sh OUTDIR   (CLMEM: build-gpu/clmem, DEVICE: nvidia, REPS: 9)
set -uo pipefail
out=${1:?usage: bench/roofs/pitch.sh OUTDIR}
CLMEM=${CLMEM:-build-gpu/clmem}
DEVICE=${DEVICE:-nvidia}
mkdir -p "$out"
. bench/gpu-env.sh
echo "workload,size,GB/s,of_copy,status" >"$out/pitch.csv"
for w in blur constmem; do
    for s in 16384x16384 16320x16384 16448x16384 16384x16384; do
        "$CLMEM" run "$w" --variant coarsened --device "$DEVICE" --size "$s" --reps "${REPS:-9}" \
            --peak --quiet --format csv --output "$out/$w-$s.csv" 2>>"$out/errors.txt"
        python3 -c 'import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x["variant"] == "coarsened"][-1]
print("%s,%s,%.1f,%s,%s" % (sys.argv[2], sys.argv[3], float(r["metric"]), r["peak_fraction"], r["status"]))' \
            "$out/$w-$s.csv" "$w" "$s" | tee -a "$out/pitch.csv"
    done
done
