#!/usr/bin/env bash
# CPUs against OpenBLAS (issue 18, item 3): every matmul variant on PoCL's
# CPU device beside OpenBLAS's cblas_sgemm on the same host inputs and the
# same cores (clmem run matmul --compare openblas), at 512 and 1024 (SIZES),
# three runs each (the machine's load moves both alike within one run), and
# the peaks. Usage: bench/cpu-openblas/run.sh [OUTDIR] (default "$OUT", else
# bench/cpu-openblas/out). CLMEM (default ./build/clmem, built with
# libopenblas-dev), DEVICE (default cpu), VARIANT (default all: one variant
# is quicker, e.g. VARIANT=cpu_blocked SIZES="1024 2048 1000x1037x999").
set -euo pipefail
out=${1:-${OUT:-$(dirname "$0")/out}}
clmem=${CLMEM:-./build/clmem}
device=${DEVICE:-cpu}
mkdir -p "$out"
# The host, its widest vectors, and the kernels OpenBLAS chose for it (it
# says with OPENBLAS_VERBOSE=2; OPENBLAS_CORETYPE overrides its choice).
{
    nproc
    grep -m1 'model name' /proc/cpuinfo
    grep -o -w -E 'avx512f|avx2' /proc/cpuinfo | sort -u | tr '\n' ' '
    echo
    OPENBLAS_VERBOSE=2 "$clmem" run matmul --device "$device" --size 64 --variant openblas 2>&1 |
        grep -i '^core' || true
} >"$out/cpu.txt"
"$clmem" peak --device "$device" --size 16777216 >"$out/peak.txt"
for s in ${SIZES:-512 1024}; do
    for i in 1 2 3; do
        "$clmem" run matmul --device "$device" --size $s --variant "${VARIANT:-all}" --compare openblas --reps 5 \
            --format csv >"$out/matmul-$s-$i.csv" || echo "FAILED: matmul $s run $i" >&2
    done
done
# Each run's best verified clmem variant over OpenBLAS (`baseline_fraction`).
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, glob, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "matmul-*.csv"))):
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok"]
    ob = [r for r in rows if r["variant"] == "openblas"]
    best = max((r for r in rows if r["variant"] != "openblas"), key=lambda r: float(r["metric"]))
    print(f"{os.path.basename(path)}: best {best['variant']} {float(best['metric']):.1f} GFLOP/s, "
          f"OpenBLAS {float(ob[0]['metric']) if ob else float('nan'):.1f}, "
          f"ratio {float(best['baseline_fraction']):.3f}")
PY
