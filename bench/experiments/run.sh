#!/usr/bin/env bash
# Kernel experiments that were measured and not kept (bench/README.md,
# "Experiments measured and not kept"), in one call on one GPU: each runs
# in place of cl/'s kernel through --kernel-dir, verified like it, beside
# cl/'s own in the same call.
#   transpose: cl/ and transpose_vec4_regs.cl at 8192 (--peak), then the
#              experiment's VEC_TILE x VEC_ROWS tuned and run again;
#              transpose_vec4_diagonal.sed applied, at 8192; cl/ and the diagonal
#              order at 8000 (not a power of two); the copy probe at 2^26
#              floats, the bytes a transpose of 8192 moves (clmem peak);
#   SGEMM:     regblock_m_by_rows.sed applied to cl/matmul_regblock.cl,
#              bench/sgemm/run.sh at 4096 and 8192 beside cl/ (cuBLAS in the same call).
# Usage: bench/experiments/run.sh [OUTDIR]  (default "$OUT", else
# bench/experiments/out); CLMEM (default ./build-gpu/clmem), DEVICE (nvidia).
set -uo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
mkdir -p "$out"
# Its own tuning database, empty and temporary (nothing of OUTDIR's is
# removed): only the tuned run below uses what tune keeps.
kernels=$(mktemp -d)
cache=$(mktemp -d)
trap 'rm -rf "$kernels" "$cache"' EXIT
export XDG_CACHE_HOME=$cache
mkdir -p "$kernels/cl-regs" "$kernels/cl-diagonal" "$kernels/cl-m-by-rows"
for d in cl-regs cl-diagonal cl-m-by-rows; do cp cl/*.cl "$kernels/$d/"; done
cp "$here/transpose_vec4_regs.cl" "$kernels/cl-regs/transpose_vec4.cl"
sed -i -f "$here/transpose_vec4_diagonal.sed" "$kernels/cl-diagonal/transpose_vec4.cl"
sed -i -f "$here/regblock_m_by_rows.sed" "$kernels/cl-m-by-rows/matmul_regblock.cl"
transpose() { # NAME KERNEL_DIR [SIZE]
    "$clmem" run transpose --device "$device" --size "${3:-8192}" --reps 10 --peak --format csv \
        --kernel-dir "$2" >"$out/transpose-$1.csv" 2>"$out/transpose-$1.err"
}
"$clmem" peak --device "$device" --size 67108864 --reps 10 >"$out/peak-67108864.txt" 2>&1
transpose cl cl
transpose regs "$kernels/cl-regs"
transpose diagonal "$kernels/cl-diagonal"
transpose cl-8000 cl 8000
transpose diagonal-8000 "$kernels/cl-diagonal" 8000
timeout 90 "$clmem" tune transpose --variant vec4 --device "$device" --size 8192 \
    --max-candidates 12 --reps 3 --kernel-dir "$kernels/cl-regs" >"$out/tune-regs.txt" 2>&1
transpose regs-tuned "$kernels/cl-regs"
SIZES="4096 8192" KERNEL_DIRS="cl $kernels/cl-m-by-rows" CLMEM=$clmem DEVICE=$device \
    "$here/../sgemm/run.sh" "$out/sgemm-m-by-rows"
for f in "$out"/transpose-*.csv; do
    echo "$f:"
    cut -d, -f2,7,13,15 "$f"
done
