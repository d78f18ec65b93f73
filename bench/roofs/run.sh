#!/usr/bin/env bash
# blur, constmem and pitched against the copy peak measured in the same
# run (--peak), with their variants beyond the seeds, and transpose beside
# them: first with the built-in parameters, then after `clmem tune` at the
# bench size (the GPU rows of blur's and constmem's coarsened shape are
# estimates until tuned). On the GPU machine from the tree's root:
#   bench/roofs/run.sh OUTDIR
# CLMEM (default .gpu-bin/clmem-new, a release build), DEVICE (nvidia),
# REPS (9), TUNE_LIMIT (seconds per tune, 100), WORKLOADS (default: blur
# constmem pitched transpose), TUNE (default: blur constmem; empty: none),
# SASS (1: then bench/roofs/sass.sh OUTDIR, registers and instructions of
# the tuned coarsened kernels).
set -uo pipefail
out=${1:?usage: bench/roofs/run.sh OUTDIR}
clmem=${CLMEM:-.gpu-bin/clmem-new}
device=${DEVICE:-nvidia}
reps=${REPS:-9}
tune_limit=${TUNE_LIMIT:-100}
mkdir -p "$out"
. bench/gpu-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
sizes() {
    [ -n "${SIZES_OVERRIDE:-}" ] && { echo "$SIZES_OVERRIDE"; return; }
    case $1 in
    blur) echo 7680x4320 16384x16384 ;;
    constmem) echo 8192 16384 ;;
    pitched) echo 8191x8191 ;;
    transpose) echo 8192 ;;
    esac
}
workloads=${WORKLOADS:-blur constmem pitched transpose}
tune=${TUNE-blur constmem}
measure() { # PHASE
    for w in $workloads; do
        for s in $(sizes $w); do
            "$clmem" run "$w" --device "$device" --size "$s" --reps "$reps" --peak \
                --format csv --output "$out/$1-$w-$s.csv" >"$out/$1-$w-$s.txt" 2>&1
        done
    done
}
measure builtin
for w in $tune; do
    s=$(sizes $w | awk '{ print $1 }') # the smaller: a tune builds and checks every candidate
    timeout -k 5 "$tune_limit" "$clmem" tune "$w" --device "$device" --size "$s" \
        >"$out/tune-$w.txt" 2>&1
    echo "tune exit $?" >>"$out/tune-$w.txt"
done
[ -n "$tune" ] && measure tuned
[ "${SASS:-0}" = 1 ] && CLMEM=$clmem DEVICE=$device bench/roofs/sass.sh "$out"
python3 - "$out" <<'PY' | tee "$out/table.txt"
import csv, glob, os, sys
out = sys.argv[1]
print(f"{'phase':8} {'workload':10} {'size':>12} {'variant':16} {'metric':>14} {'of copy':>7}  status")
for path in sorted(glob.glob(f"{out}/*-*-*.csv")):
    phase = os.path.basename(path).split("-")[0]
    for r in csv.DictReader(open(path)):
        if r["workload"] == "peak":
            continue
        metric = f"{float(r['metric'] or 0):.1f} {r['unit']}"
        print(f"{phase:8} {r['workload']:10} {r['size']:>12} {r['variant']:16} {metric:>14} "
              f"{r['peak_fraction']:>7}  {r['status']}")
PY
