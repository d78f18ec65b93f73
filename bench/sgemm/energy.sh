#!/usr/bin/env bash
# SGEMM's speed and energy against cuBLAS's in one call (issue 56's goal:
# clmem at >= 1.0 of cuBLAS in GFLOP/s and in GFLOP/J at 8192): ROUNDS
# rounds, each `clmem run matmul --variant auto --reps REPS` (NVML's counter
# around the runs: its energy object) then cublas_energy.py (torch.mm back
# to back for 2 s, the same counter), so both see the GPU as warm. Prints
# per round and the medians; writes OUTDIR/clmem-N.json, cublas.csv and
# summary.txt. Usage, from the tree's root: bench/sgemm/energy.sh OUTDIR
# Env: CLMEM (./build-gpu/clmem), SIZE (8192), ROUNDS (3), REPS (100).
set -uo pipefail
out=${1:?usage: bench/sgemm/energy.sh OUTDIR}
clmem=${CLMEM:-./build-gpu/clmem}
size=${SIZE:-8192}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# shellcheck source=../gpu-env.sh
. "$here/../gpu-env.sh"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader \
    >"$out/gpu.txt" 2>&1
: >"$out/cublas.csv"
for round in $(seq "${ROUNDS:-3}"); do
    "$clmem" run matmul --device gpu --variant auto --size "$size" --reps "${REPS:-100}" \
        --format json --output "$out/clmem-$round.json" --quiet 2>>"$out/errors.txt" ||
        echo "energy.sh: clmem round $round: exit $?" >>"$out/errors.txt"
    python3 "$here/cublas_energy.py" "$size" 2>>"$out/errors.txt" |
        { [ "$round" = 1 ] && cat || tail -n +2; } >>"$out/cublas.csv"
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, glob, json, statistics, sys
out = sys.argv[1]
mine = []
for path in sorted(glob.glob(f"{out}/clmem-*.json")):
    for r in json.load(open(path)).get("results", []):
        e = r.get("energy") or {}
        if r.get("verified") and e.get("efficiency"):
            mine.append((r["metric"], e["efficiency"], e["power_w"], r.get("note", "")))
theirs = [(float(r["gflops"]), float(r["gflop_per_j"]), float(r["power_w"]))
          for r in csv.DictReader(open(f"{out}/cublas.csv"))]
for i, (g, j, w, note) in enumerate(mine):
    print(f"clmem  round {i + 1}: {g:9.1f} GFLOP/s {j:7.2f} GFLOP/J {w:6.1f} W  {note}")
for i, (g, j, w) in enumerate(theirs):
    print(f"cuBLAS round {i + 1}: {g:9.1f} GFLOP/s {j:7.2f} GFLOP/J {w:6.1f} W")
if mine and theirs:
    mg, mj = statistics.median(m[0] for m in mine), statistics.median(m[1] for m in mine)
    tg, tj = statistics.median(t[0] for t in theirs), statistics.median(t[1] for t in theirs)
    print(f"medians: clmem {mg:.1f} GFLOP/s {mj:.2f} GFLOP/J; cuBLAS {tg:.1f} GFLOP/s {tj:.2f} GFLOP/J; "
          f"clmem / cuBLAS: speed {mg / tg:.3f}, GFLOP/J {mj / tj:.3f}")
PY
