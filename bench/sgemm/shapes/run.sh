#!/usr/bin/env bash
# SGEMM where P has few blocks for the GPU (thin, K-heavy, small squares,
# odd sizes: shapes.txt), in one call on one GPU: `clmem run matmul
# --variant auto` and every kernel variant at each shape, and cuBLAS
# through PyTorch with TF32 off (../cublas.py: the median of REPS runs,
# each timed with CUDA events) at each shape just before clmem's runs of
# it, so that both meet the GPU in the same state (cublas.csv; the table's
# anchor), and at every shape once at the start, as before
# (cublas-first.csv: beside it, how far that moves). Writes to OUTDIR one
# JSON run file per clmem run, gpu.txt, and table.txt / table.csv: per shape,
# auto's choice and GFLOP/s, the best kernel variant and its GFLOP/s,
# cuBLAS's, auto / cuBLAS, best / cuBLAS and auto / best, each row marked
# where it misses a goal (auto below GOAL_CUBLAS of cuBLAS, or more than
# 1 - GOAL_BEST slower than the best variant).
# Usage: bench/sgemm/shapes/run.sh [OUTDIR]   (default "$OUT", else
# bench/sgemm/shapes/out)
# Env: CLMEM (./build-gpu/clmem: a release build), DEVICE (gpu), SHAPES
# (shapes.txt beside this script), REPS (10), LARGE_GFLOP (20: above it
# the variants of LARGE_VARIANTS run, each alone, instead of --variant all:
# the textbook kernels take long there), LARGE_VARIANTS (regblock
# regblock_padded splitk), BUDGET_S (420: no shape starts later than this
# many seconds after the start, so that a call on an H100 ends within 8
# minutes; the table says which shapes were not run), GOAL_CUBLAS (0.9),
# GOAL_BEST (0.97), SMALL_GFLOP (1) and ROUNDS (15): a shape of fewer
# GFLOP runs auto and --variant all ROUNDS times, alternating, each in a
# process of its own, and the table takes each variant's median over the
# rounds (kernels of tens of microseconds: one process's median moves by
# up to 23-48% from one to the next, h100-small-noise/; over 5 rounds
# auto/best at 256, the same plan, still read 0.961, over 15 0.985:
# h200-tsk/third/).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-gpu}
reps=${REPS:-10}
large=${LARGE_GFLOP:-20}
small=${SMALL_GFLOP:-1}
rounds=${ROUNDS:-15}
read -r -a large_variants <<<"${LARGE_VARIANTS:-regblock regblock_padded splitk}"
budget=${BUDGET_S:-420}
mapfile -t sizes < <(sed -e 's/#.*//' "${SHAPES:-$here/shapes.txt}" | awk 'NF { print $1 }')
[ ${#sizes[@]} -gt 0 ] || { echo "run.sh: no shapes" >&2; exit 2; }
[ -x "$clmem" ] || { echo "run.sh: no clmem at '$clmem' (set CLMEM)" >&2; exit 2; }
mkdir -p "$out"
# NVIDIA's ICD, the carried libraries, this tree's kernels (a call that
# left it to its caller and did not source it ran nothing: no libcjson).
# shellcheck source=../../gpu-env.sh
. "$here/../../gpu-env.sh"
start=$SECONDS
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
    "$clmem" devices
} >"$out/gpu.txt" 2>&1
REPS=$((reps * 2)) python3 "$here/../cublas.py" "${sizes[@]}" >"$out/cublas-first.csv" ||
    echo "run.sh: cublas.py failed: $?" >&2
echo "size,median_ms,min_ms,max_ms,gflops" >"$out/cublas.csv"
# One clmem run: VARIANT at SIZE into OUTDIR/LABEL-SIZE.json.
run() {
    local variant=$1 size=$2 label=$3
    "$clmem" run matmul --device "$device" --size "$size" --variant "$variant" --reps "$reps" \
        --format json --output "$out/$label-$size.json" --quiet ||
        echo "run.sh: $variant at $size: exit $?" >&2
}
for s in "${sizes[@]}"; do
    if ((SECONDS - start > budget)); then
        echo "run.sh: past BUDGET_S=$budget s: $s and the shapes after it not run" >&2
        break
    fi
    REPS=$((reps * 2)) python3 "$here/../cublas.py" "$s" 2>>"$out/cublas.err" | tail -n +2 \
        >>"$out/cublas.csv" || echo "run.sh: cublas.py at $s failed" >&2
    run auto "$s" auto
    gflop=$(awk -v s="$s" 'BEGIN { n = split(s, d, "x"); if (n == 1) d[2] = d[3] = d[1];
                                    printf "%d", 2 * d[1] * d[2] * d[3] / 1e9 }')
    if ((gflop > large)); then
        for v in "${large_variants[@]}"; do run "$v" "$s" "$v"; done
    else
        run all "$s" all
    fi
    if awk -v s="$s" -v small="$small" 'BEGIN { n = split(s, d, "x"); if (n == 1) d[2] = d[3] = d[1]
                                               exit !(2 * d[1] * d[2] * d[3] / 1e9 < small) }'; then
        for ((r = 2; r <= rounds; r++)); do
            run auto "$s" "auto-r$r"
            run all "$s" "all-r$r"
        done
    fi
    echo "run.sh: $s done at $((SECONDS - start)) s" >&2
done
python3 - "$out" "${GOAL_CUBLAS:-0.9}" "${GOAL_BEST:-0.97}" "${sizes[@]}" <<'PY' | tee "$out/table.txt"
import csv, glob, json, math, os, re, statistics, sys
out, goal_cublas, goal_best, sizes = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
def anchor(name):
    """cuBLAS's GFLOP/s by shape, from OUTDIR/NAME."""
    if not os.path.exists(f"{out}/{name}"):
        return {}
    return {r["size"]: float(r["gflops"]) for r in csv.DictReader(open(f"{out}/{name}"))}
cublas, cublas_first = anchor("cublas.csv"), anchor("cublas-first.csv")
def results(size):
    """Every result at this size, by variant, a list of one a round:
    LABEL-SIZE.json, LABEL a variant's name, "auto" or "all", then
    "-rN" for round N past the first."""
    found = {}
    for path in sorted(glob.glob(f"{out}/*-{size}.json")):
        label = os.path.basename(path)[: -len(f"-{size}.json")]
        if not re.fullmatch(r"[a-z_]+(-r[0-9]+)?", label):
            continue
        try:
            doc = json.load(open(path))
        except (OSError, ValueError):
            continue
        for r in doc.get("results", []):
            found.setdefault(r["variant"], []).append(r)
    return found
def gflops(rs):
    """The median GFLOP/s of a variant's verified results, one a round
    (NaN if any round failed)."""
    ok = [r for r in rs or [] if r.get("status") == "ok" and r.get("verified") and r.get("metric")]
    return statistics.median(float(r["metric"]) for r in ok) if ok and len(ok) == len(rs) else math.nan
rows = []
head = (f"{'shape':>16} {'auto chose':>15} {'auto':>7} {'best':>15} {'GFLOP/s':>7} {'cuBLAS':>7} "
        f"{'auto/cuBLAS':>11} {'best/cuBLAS':>11} {'auto/best':>9}  goals  auto's note")
print(head)
for size in sizes:
    found = results(size)
    a = found.get("auto")
    rounds = len(a) if a else 0
    if not found:
        print(f"{size:>16}  (not run)")
        rows.append({"size": size})
        continue
    note = a[0].get("note", "") if a else ""
    choice = note[len("auto: "):].split(" ")[0] if note.startswith("auto: ") else "-"
    g = gflops(a)
    kernels = {v: gflops(r) for v, r in found.items() if v != "auto"}
    kernels = {v: x for v, x in kernels.items() if x == x}
    best = max(kernels, key=kernels.get) if kernels else "-"
    bg = kernels.get(best, math.nan)
    cb = cublas.get(size, math.nan)
    miss = []
    if not g / cb >= goal_cublas:
        miss.append("cuBLAS")
    if not g / bg >= goal_best:
        miss.append("best")
    goals = "miss " + ",".join(miss) if miss else "met"
    print(f"{size:>16} {choice:>15} {g:7.0f} {best:>15} {bg:7.0f} {cb:7.0f} {g / cb:11.3f} "
          f"{bg / cb:11.3f} {g / bg:9.3f}  {goals:6} {f'[median of {rounds} rounds] ' if rounds > 1 else ''}"
          f"{note[len('auto: '):] if note else ''}")
    rows.append({"size": size, "auto_choice": choice, "auto_gflops": g, "best_variant": best,
                 "best_gflops": bg, "cublas_gflops": cb, "auto_over_cublas": g / cb,
                 "best_over_cublas": bg / cb, "auto_over_best": g / bg, "goals": goals,
                 "auto_note": note, "rounds": rounds,
                 "cublas_first_gflops": cublas_first.get(size, math.nan)})
with open(f"{out}/table.csv", "w", newline="") as f:
    fields = ["size", "auto_choice", "auto_gflops", "best_variant", "best_gflops", "cublas_gflops",
              "auto_over_cublas", "best_over_cublas", "auto_over_best", "goals", "auto_note",
              "rounds", "cublas_first_gflops"]
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    for r in rows:
        w.writerow(r)
PY
echo "run.sh: $((SECONDS - start)) s in all" >&2
