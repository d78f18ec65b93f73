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
# On PoCL 3.1 (the 2-core VM) the patch with K steps of 16 fails
# verification (work-items of one column read values never stored) where
# K mod 16 is neither 0 nor 8 and the program comes from PoCL's binary
# (clmem's cache), and verifies with --no-cache; cl/'s kernel with K steps
# of 16 verifies either way. Not pursued: the GPU sizes are whole K steps,
# verified.
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
. "$here/lib.sh"
force_params "$cache/tsk16" 256 128 16 16 8
configs=("cl cl builtin" "cl-tsk16 cl tsk16" "split $kernels/split builtin"
         "split-tsk16 $kernels/split tsk16" "split-tsk16-u $kernels/split-u tsk16")
run_configs "$out" "${sizes[@]}" -- "${configs[@]}"
# What the compiler made of split's loop (K steps of 8; registers, where
# the global loads and local stores sit).
command -v nvidia-smi >/dev/null && OUT=$out/sass "$here/sass.sh" "$kernels/split"
