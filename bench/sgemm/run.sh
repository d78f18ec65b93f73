#!/usr/bin/env bash
# SGEMM against the vendor libraries, in one run on one GPU (issue 18):
# clmem's regblock (direct: bounds checks in the kernel) and
# regblock_padded (indirect: copies padded to whole tiles, timed with it),
# CLBlast (clmem run --compare clblast) and cuBLAS
# through PyTorch with TF32 off (cublas.py), at square sizes, sizes that are
# not multiples of any tile (odd, prime), rectangular and thin ones.
# Usage: bench/sgemm/run.sh [OUTDIR]   (default "$OUT", else bench/sgemm/out)
# CLMEM (default ./build-gpu/clmem: a release build with -Dclblast=enabled);
# DEVICE (default nvidia); KERNEL_DIRS: space-separated kernel folders to
# compare (default: cl), each labelled by its folder name (a folder whose
# matmul_regblock.cl has no stream-K kernel, an older one or an experiment,
# runs regblock alone). 8448x8192x8192 is 16 whole waves of 256x128 blocks
# on 132 units, where 8192 is 15.5: what a part-full last wave costs.
set -euo pipefail
out=${1:-${OUT:-bench/sgemm/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
read -r -a kdirs <<<"${KERNEL_DIRS:-cl}"
sizes=(${SIZES:-1024 2048 4096 8192 8448x8192x8192 4000 4001 4095 7919 8000 3000x5000x2000 8192x8192x256 8192x256x8192})
mkdir -p "$out"
python3 "$(dirname "$0")/cublas.py" "${sizes[@]}" >"$out/cublas.csv"
for dir in "${kdirs[@]}"; do
    label=$(basename "$dir")
    for s in "${sizes[@]}"; do
        "$clmem" run matmul --device "$device" --size "$s" --variant regblock --compare clblast \
            --reps 20 --kernel-dir "$dir" --format csv --output "$out/$label-$s.csv" ||
            echo "clmem run at $s ($label) failed: $?" >&2
        grep -q -e MatrixMulStreamKPadded -e MatrixMulRegisterBlockedStreamK "$dir/matmul_regblock.cl" || continue
        "$clmem" run matmul --device "$device" --size "$s" --variant regblock_padded \
            --reps 20 --kernel-dir "$dir" --format csv --output "$out/$label-$s-padded.csv" ||
            echo "clmem run of regblock_padded at $s ($label) failed: $?" >&2
    done
done
# One table: clmem's two and CLBlast beside cuBLAS, as GFLOP/s and ratios.
python3 - "$out" "${kdirs[@]}" <<'PY' | tee "$out/table.txt"
import csv, os, sys
out, dirs = sys.argv[1], sys.argv[2:]
cublas = {r["size"]: float(r["gflops"]) for r in csv.DictReader(open(f"{out}/cublas.csv"))}
print(f"{'size':>16} {'kernels':>10} {'regblock':>9} {'padded':>9} {'clblast':>9} {'cuBLAS':>9} "
      f"{'rb/cuBLAS':>9} {'pad/cuBLAS':>10} {'best/CLBlast':>12}  verified")
def read(path):
    return {r["variant"]: r for r in csv.DictReader(open(path))} if os.path.exists(path) else {}
for d in dirs:
    label = os.path.basename(d)
    for size, cb in cublas.items():
        rows = read(f"{out}/{label}-{size}.csv") | read(f"{out}/{label}-{size}-padded.csv")
        if not rows:
            print(f"{size:>16} {label:>10}  (no result)")
            continue
        def g(v):
            return float(rows[v]["metric"]) if v in rows and rows[v]["metric"] not in ("", "nan") else float("nan")
        rb, pad, cl = g("regblock"), g("regblock_padded"), g("clblast")
        best = max(x for x in (rb, pad) if x == x) if rb == rb or pad == pad else float("nan")
        ok = ",".join(rows[v]["status"] for v in ("regblock", "regblock_padded", "clblast") if v in rows)
        print(f"{size:>16} {label:>10} {rb:9.0f} {pad:9.0f} {cl:9.0f} {cb:9.0f} {rb / cb:9.3f} "
              f"{pad / cb:10.3f} {best / cl:12.3f}  {ok}")
PY
