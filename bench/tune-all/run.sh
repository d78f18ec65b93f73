#!/usr/bin/env bash
# Issue 18, items 4 and 5, on one device, in one run:
#  1. "builtin": what the built-in parameters give, chosen from the
#     device's parameter rows (its own, else its family's, else its
#     vendor's: CLMEM_DEBUG=1 says which, in the .err files), with nothing
#     tuned (a fresh XDG_CACHE_HOME);
#  2. `clmem tune` of every tunable variant measured here: matmul regblock
#     at each of MATMUL_SIZES, transpose padded (its tile is every lecture
#     variant's) and vec4 at 8192, reduce's and dot's one_pass (their
#     work-group and groups per unit) at 2^26 floats;
#  3. "tuned": the same runs again, with what tune kept.
# Then a table: each variant's built-in and tuned figures and their ratio,
# and its fraction of the peak measured in the same run (--peak).
# Usage: bench/tune-all/run.sh [OUTDIR] (default "$OUT", else bench/tune-all/out)
# CLMEM (default ./build-gpu/clmem), DEVICE (default nvidia), PARTS ("matmul
# memory"), MATMUL_SIZES ("4096 8192"), TRANSPOSE_SIZE (8192), SUM_SIZE
# (67108864), CANDIDATES (tune's --max-candidates, 48), REPS (10). The tuning database is left in OUTDIR/cache/clmem (and
# copied to OUTDIR/tuning.json) for runs that follow (bench/sgemm/run.sh).
set -uo pipefail
out=${1:-${OUT:-$(dirname "$0")/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
parts=${PARTS:-matmul memory}
reps=${REPS:-10}
tsize=${TRANSPOSE_SIZE:-8192}
ssize=${SUM_SIZE:-67108864}
mkdir -p "$out/cache"
chmod 700 "$out/cache"
export XDG_CACHE_HOME=$out/cache
"$clmem" devices >"$out/devices.txt" 2>&1
has() { [[ " $parts " == *" $1 "* ]]; }
failed=0
run() { # NAME ARGS...: clmem's CSV to NAME.csv, its stderr to NAME.err
    local name=$1
    shift
    CLMEM_DEBUG=1 "$clmem" "$@" --device "$device" >"$out/$name.csv" 2>"$out/$name.err" || {
        echo "tune-all: FAILED ($?): $name" >&2
        failed=$((failed + 1))
    }
}
runs() { # PHASE
    local phase=$1
    if has matmul; then
        for s in ${MATMUL_SIZES:-4096 8192}; do
            run "$phase-matmul-$s" run matmul --variant regblock --size "$s" --reps "$reps" \
                --peak --format csv
        done
    fi
    if has memory; then
        run "$phase-transpose" run transpose --size "$tsize" --reps "$reps" --peak --format csv
        run "$phase-reduce" run reduce --size "$ssize" --reps "$reps" --peak --format csv
        run "$phase-dot" run dot --size "$ssize" --reps "$reps" --peak --format csv
    fi
}
tune() { # NAME ARGS...: tune's table to NAME.txt
    local name=$1
    shift
    "$clmem" tune "$@" --device "$device" --max-candidates "${CANDIDATES:-48}" --reps 3 \
        >"$out/$name.txt" 2>"$out/$name.err" || {
        echo "tune-all: FAILED ($?): $name" >&2
        failed=$((failed + 1))
    }
}

runs builtin
if has matmul; then
    for s in ${MATMUL_SIZES:-4096 8192}; do
        tune "tune-matmul-$s" matmul --variant regblock --size "$s"
    done
fi
if has memory; then
    tune tune-transpose transpose --size "$tsize"
    tune tune-reduce reduce --variant one_pass --size "$ssize"
    tune tune-dot dot --variant one_pass --size "$ssize"
fi
runs tuned
cp "$out/cache/clmem/tuning.json" "$out/tuning.json" 2>/dev/null || true

python3 - "$out" <<'PY' | tee "$out/table.txt"
import csv, glob, os, sys
out = sys.argv[1]
def rows(path):
    return [r for r in csv.DictReader(open(path)) if r["workload"] != "peak"] if os.path.exists(path) else []
print(f"{'workload':10} {'variant':12} {'size':10} {'built-in':>12} {'tuned':>12} {'unit':8} "
      f"{'built-in/tuned':>14} {'of peak (tuned)':>15}  parameters (tuned)")
for path in sorted(glob.glob(os.path.join(out, "builtin-*.csv"))):
    tuned = {(r["variant"], r["size"]): r for r in rows(path.replace("builtin-", "tuned-"))}
    for b in rows(path):
        t = tuned.get((b["variant"], b["size"]))
        if b["status"] != "ok" or not t or t["status"] != "ok":
            print(f"{b['workload']:10} {b['variant']:12} {b['size']:10} (not verified or missing)")
            continue
        bm, tm = float(b["metric"]), float(t["metric"])
        peak = t["peak_fraction"] or "nan"
        print(f"{b['workload']:10} {b['variant']:12} {b['size']:10} {bm:12.1f} {tm:12.1f} "
              f"{b['unit']:8} {bm / tm:14.3f} {float(peak):15.3f}  {t['params']}")
PY
exit $((failed > 0))
