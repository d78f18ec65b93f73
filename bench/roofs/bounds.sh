#!/usr/bin/env bash
# Which level bounds each result on a GPU (issue 58): `clmem bench` of the
# workloads the traffic model covers, at their bench sizes, each result's
# bound (docs/roofline.md), then a table of measured / predicted per
# result and how many fall in [0.7, 1.0]. From the tree's root:
#   bench/roofs/bounds.sh OUTDIR
# Env: CLMEM (./build-gpu/clmem), DEVICE (gpu), REPS (5), WORKLOADS
# (matmul,transpose,reduce,dot,blur,constmem,coalescing,pitched).
# Writes OUTDIR/bench.json (the run file), bench.txt (its table),
# bounds.txt (the summary; also on stdout).
set -uo pipefail
out=${1:?usage: bench/roofs/bounds.sh OUTDIR}
clmem=${CLMEM:-./build-gpu/clmem}
mkdir -p "$out"
# shellcheck source=../gpu-env.sh
. bench/gpu-env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$out/gpu.txt" 2>&1
"$clmem" bench --device "${DEVICE:-gpu}" --reps "${REPS:-5}" \
    --workloads "${WORKLOADS:-matmul,transpose,reduce,dot,blur,constmem,coalescing,pitched}" \
    --output "$out/bench.json" >"$out/bench.txt" 2>"$out/bench-err.txt"
echo "bench exit $?" >>"$out/bench.txt"
python3 - "$out/bench.json" <<'PY' | tee "$out/bounds.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
rows, inside = [], 0
for r in doc.get("results", []):
    b = r.get("bound")
    if not b or not r.get("verified") or not b.get("binding"):
        continue
    ratio = b.get("ratio", 0)
    ok = 0.7 <= ratio <= 1.0
    inside += ok
    rows.append("%-11s %-22s %-13s %-9s %6.3f %s%s" % (
        r["workload"], r["variant"] + (" " + r["sweep"] + "=" + str(r["sweep_value"])
                                       if r.get("sweep") else ""),
        r["size"], b["binding"], ratio, "in" if ok else "out",
        " MODEL ERROR" if b.get("model_error") else ""))
print("%s: %d results with a bound, %d in [0.7, 1.0]" % (doc.get("device", {}).get("name", "?"),
                                                        len(rows), inside))
print("%-11s %-22s %-13s %-9s %6s" % ("workload", "variant", "size", "binding", "ratio"))
print("\n".join(rows))
PY
