#!/usr/bin/env bash
# regblock with its next tiles fetched in halves (regblock_split_fetch.patch
# on cl/matmul_regblock.cl): each half of the next K step's tiles is loaded
# as this step's half of the multiply-adds begins and stored into the other
# local buffer as it ends. With K steps of 16 that holds the registers of
# K steps of 8 and halves the barriers, where cl/'s kernel with K steps of
# 16 holds twice the registers (bench/README.md: 0.92-0.93 of cl/'s).
# One call on one GPU, regblock (one work-group a block) at 4096, 8192 and
# 8448x8192x8192 (whole waves on 132 units), GFLOP/s, each verified:
#   cl              cl/ as it is (256x128x8 on sm_90)
#   cl-tsk16        cl/ with K steps of 16 (through a tuning database)
#   split           the patch, K steps of 8 (halves of 4: cl/'s barriers)
#   split-tsk16     the patch, K steps of 16 (the two halves a loop)
#   split-tsk16-u   the same, the two halves unrolled (twice the code)
# then sass.sh on split.
# Usage: bench/experiments/split_fetch.sh [OUTDIR]  (default "$OUT", else
# bench/experiments/out); CLMEM (default ./build-gpu/clmem), DEVICE (nvidia),
# SIZES (default above).
set -uo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out}}
export CLMEM=${CLMEM:-./build-gpu/clmem} DEVICE=${DEVICE:-nvidia}
sizes=(${SIZES:-4096 8192 8448x8192x8192})
mkdir -p "$out"
kernels=$(mktemp -d)
cache=$(mktemp -d)
trap 'rm -rf "$kernels" "$cache"' EXIT
mkdir -p "$kernels/split" "$cache/builtin"
cp cl/*.cl "$kernels/split/"
(cd "$kernels/split" && git apply -p2 "$OLDPWD/$here/regblock_split_fetch.patch") ||
    { echo "regblock_split_fetch.patch no longer applies to cl/" >&2; exit 1; }
cp -r "$kernels/split" "$kernels/split-u"
sed -i 's/^#pragma unroll 1$/#pragma unroll/' "$kernels/split-u/matmul_regblock.cl"
chmod 700 "$cache/builtin"
. "$here/force_params.sh"
force_params "$cache/tsk16" 256 128 16 16 8
configs=("cl cl builtin" "cl-tsk16 cl tsk16" "split $kernels/split builtin"
         "split-tsk16 $kernels/split tsk16" "split-tsk16-u $kernels/split-u tsk16")
for s in "${sizes[@]}"; do
    for c in "${configs[@]}"; do
        read -r label dir db <<<"$c"
        XDG_CACHE_HOME=$cache/$db "$CLMEM" run matmul --device "$DEVICE" --size "$s" \
            --variant regblock --reps 20 --kernel-dir "$dir" --format csv \
            --output "$out/$label-$s.csv" || echo "$label at $s failed: $?" >&2
        python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print("%16s %14s %9.0f %s %s" % (r["size"], sys.argv[2], float(r["metric"]), r["status"], r["note"]))' \
            "$out/$label-$s.csv" "$label"
    done
done | tee "$out/table.txt"
# What the compiler made of split's loop (K steps of 8; registers, where
# the global loads and local stores sit).
command -v nvidia-smi >/dev/null && OUT=$out/sass "$here/sass.sh" "$kernels/split"
