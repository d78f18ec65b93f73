#!/usr/bin/env bash
# regblock's K loop unrolled less, so that its body fits more of the SM's
# instruction cache (cl/'s unrolls all 8 steps of a tile: 1130
# instructions, about 18 KB; bench/experiments/sass.sh), and K steps of
# 16 with 8 steps unrolled: half the barriers with cl/'s code size (cl/'s
# kernel with K steps of 16, fully unrolled, ran at 0.92-0.93 of it).
# One call on one GPU, regblock at 4096 and 8448x8192x8192 (whole waves on
# 132 units), GFLOP/s, each verified, in this order at each size:
#   cl            cl/ as it is (256x128x8, all 8 steps unrolled)
#   u4, u2        cl/ with 4 and 2 steps unrolled
#   tsk16-u8      K steps of 16 (through a tuning database), 8 unrolled
#   tsk16-u4      K steps of 16, 4 unrolled
#   cl-again      cl/ again (the call's drift)
# Then sass.sh on cl/ and u4. At 4096 cl, u4 and u2 run regblock's
# stream-K; the K steps of 16 (a tuned shape) run without it.
# Usage: bench/experiments/unroll.sh [OUTDIR]  (default "$OUT", else
# bench/experiments/out); CLMEM (default ./build-gpu/clmem), DEVICE (nvidia),
# SIZES (default above).
set -uo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out}}
export CLMEM=${CLMEM:-./build-gpu/clmem} DEVICE=${DEVICE:-nvidia}
sizes=(${SIZES:-4096 8448x8192x8192})
mkdir -p "$out"
kernels=$(mktemp -d)
cache=$(mktemp -d)
trap 'rm -rf "$kernels" "$cache"' EXIT
for u in 2 4 8; do
    mkdir -p "$kernels/u$u"
    cp cl/*.cl "$kernels/u$u/"
    sed -i "s/^#pragma unroll\$/#pragma unroll $u/" "$kernels/u$u/matmul_regblock.cl"
    grep -q "^#pragma unroll $u\$" "$kernels/u$u/matmul_regblock.cl" ||
        { echo "cl/matmul_regblock.cl's K loop pragma is no longer where unroll.sh looks" >&2; exit 1; }
done
mkdir -p "$cache/builtin"
chmod 700 "$cache/builtin"
. "$here/lib.sh"
force_params "$cache/tsk16" 256 128 16 16 8
configs=("cl cl builtin" "u4 $kernels/u4 builtin" "u2 $kernels/u2 builtin"
         "tsk16-u8 $kernels/u8 tsk16" "tsk16-u4 $kernels/u4 tsk16" "cl-again cl builtin")
run_configs "$out" "${sizes[@]}" -- "${configs[@]}"
# What the compiler made of cl/'s loop and of u4's (registers, the loop's
# instructions).
command -v nvidia-smi >/dev/null && OUT=$out/sass "$here/sass.sh" cl "$kernels/u4"
