#!/usr/bin/env bash
# `clmem run matmul --variant auto` at the shapes of auto-shapes.txt, beside
# cuBLAS through PyTorch with TF32 off (cublas.py, as run.sh runs it), and,
# unless ALTERNATIVES=0, beside regblock and regblock_padded each run alone,
# so that a rule that chose the slower of the two shows (auto / best < 1).
# Prints one table: shape, auto's choice, its GFLOP/s, cuBLAS's, the ratio,
# the two variants' GFLOP/s and auto over the faster of them.
# Usage: bench/sgemm/auto.sh [OUTDIR]   (default "$OUT", else bench/sgemm/out-auto)
# CLMEM (default ./build-gpu/clmem: a release build); DEVICE (default
# nvidia); SHAPES (default auto-shapes.txt beside this script); REPS (20).
# Run from the tree's root: it sources ../gpu-env.sh (NVIDIA's driver, the
# carried libraries, this tree's kernels), as run.sh does.
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=../gpu-env.sh
. "$here/../gpu-env.sh"
out=${1:-${OUT:-bench/sgemm/out-auto}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
reps=${REPS:-20}
alternatives=${ALTERNATIVES:-1}
mapfile -t sizes < <(sed -e 's/#.*//' "${SHAPES:-$here/auto-shapes.txt}" | awk 'NF { print $1 }')
[ ${#sizes[@]} -gt 0 ] || { echo "auto.sh: no shapes" >&2; exit 2; }
mkdir -p "$out"
REPS=$reps python3 "$here/cublas.py" "${sizes[@]}" >"$out/cublas.csv"
variants=(auto)
[ "$alternatives" = 0 ] || variants+=(regblock regblock_padded)
for s in "${sizes[@]}"; do
    for v in "${variants[@]}"; do
        "$clmem" run matmul --device "$device" --size "$s" --variant "$v" --reps "$reps" \
            --format csv --output "$out/$v-$s.csv" ||
            echo "clmem run of $v at $s failed: $?" >&2
    done
done
python3 - "$out" "${sizes[@]}" <<'PY' | tee "$out/table.txt"
import csv, math, os, sys
out, sizes = sys.argv[1], sys.argv[2:]
cublas = {r["size"]: float(r["gflops"]) for r in csv.DictReader(open(f"{out}/cublas.csv"))}
def result(variant, size):
    path = f"{out}/{variant}-{size}.csv"
    if not os.path.exists(path):
        return None
    return next(csv.DictReader(open(path)), None)
def gflops(r):
    return float(r["metric"]) if r and r["metric"] not in ("", "nan") else math.nan
print(f"{'shape':>16} {'auto chose':>16} {'auto':>8} {'cuBLAS':>8} {'auto/cuBLAS':>11} "
      f"{'regblock':>8} {'padded':>8} {'auto/best':>9}  status  why")
for size in sizes:
    a = result("auto", size)
    note = a["note"] if a else ""
    choice, why = "(no result)", ""
    if note.startswith("auto: "):
        choice, _, why = note[len("auto: "):].partition(" (")
        why = why.split(")")[0]
    g, cb = gflops(a), cublas.get(size, math.nan)
    rb, pad = gflops(result("regblock", size)), gflops(result("regblock_padded", size))
    best = max((x for x in (rb, pad) if x == x), default=math.nan)
    status = a["status"] if a else "-"
    print(f"{size:>16} {choice:>16} {g:8.0f} {cb:8.0f} {g / cb:11.3f} {rb:8.0f} {pad:8.0f} "
          f"{g / best:9.3f}  {status:6}  {why}")
PY
