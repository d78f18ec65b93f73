#!/usr/bin/env bash
# What clock the GPU holds while SGEMM runs, and each SGEMM's flops per
# clock: nvidia-smi samples the SM clock and the board's power every 20 ms
# while, one after another, clmem's FMA probe (peak, variant fma, 2000
# runs), regblock at 8448x8192x8192 (16 whole waves of 256x128 blocks on
# 132 units: the kernel alone, no part-full wave; 300 runs) and cuBLAS at
# the same size (cublas.py, TF32 off, 300 runs) keep the GPU busy.
# For each: GFLOP/s (median, event-timed), the median clock and power over
# its window, and the fraction of the FP32 roof at that clock (units x 128
# lanes x 2 flops a clock).
# Usage: bench/sgemm/clocks.sh [OUTDIR]  (default "$OUT", else
# bench/sgemm/out-clocks); CLMEM (default ./build-gpu/clmem), DEVICE (nvidia).
set -uo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out-clocks}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
size=8448x8192x8192
mkdir -p "$out"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader,nounits -lms 20 \
    >"$out/samples.csv" &
smi=$!
trap 'kill $smi 2>/dev/null' EXIT
sleep 1
stamp() { echo "$1,$(date +%s.%N)" >>"$out/windows.csv"; }
: >"$out/windows.csv"
stamp fma-start
"$clmem" peak --device "$device" --variant fma --reps 2000 --format csv --output "$out/fma.csv" ||
    echo "peak fma failed: $?" >&2
stamp fma-end
stamp regblock-start
"$clmem" run matmul --device "$device" --size "$size" --variant regblock --reps 300 --format csv \
    --output "$out/regblock.csv" || echo "regblock failed: $?" >&2
stamp regblock-end
stamp cublas-start
REPS=300 python3 "$here/cublas.py" "$size" >"$out/cublas.csv" || echo "cublas.py failed: $?" >&2
stamp cublas-end
sleep 0.5
kill $smi
units=$("$clmem" devices 2>/dev/null | awk -v want="$device" '
    /^  device / { on = index(tolower($0), tolower(want)) > 0 }
    on && /compute units/ { print $3; exit }')
python3 - "$out" "$units" <<'PY' | tee "$out/table.txt"
import csv, datetime, statistics, sys
out, units = sys.argv[1], int(sys.argv[2])
windows = {}
for name, t in csv.reader(open(f"{out}/windows.csv")):
    what, edge = name.rsplit("-", 1)
    windows.setdefault(what, {})[edge] = float(t)
samples = []
for row in csv.reader(open(f"{out}/samples.csv")):
    try:
        when = datetime.datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f")
        samples.append((when.timestamp(), float(row[1]), float(row[2])))
    except (ValueError, IndexError):
        pass
def metric(what):
    path = {"fma": "fma.csv", "regblock": "regblock.csv", "cublas": "cublas.csv"}[what]
    r = next(csv.DictReader(open(f"{out}/{path}")))
    return float(r["gflops"] if what == "cublas" else r["metric"])
print(f"{'kernel':>9} {'GFLOP/s':>8} {'SM MHz':>7} {'W':>5} {'of roof at that clock':>22}")
for what in ("fma", "regblock", "cublas"):
    w = windows[what]
    # The busy part of the window (not its setup or CPU verification):
    # samples drawing at least 0.6 of the window's most power.
    inside = [s for s in samples if w["start"] <= s[0] <= w["end"]]
    busy = [s for s in inside if s[2] >= 0.6 * max(x[2] for x in inside)]
    mhz = statistics.median(s[1] for s in busy)
    watts = statistics.median(s[2] for s in busy)
    g = metric(what)
    roof = units * 256 * mhz / 1e3
    print(f"{what:>9} {g:8.0f} {mhz:7.0f} {watts:5.0f} {g / roof:22.3f}")
PY
