#!/usr/bin/env bash
# SGEMM kernel designs measured and not kept (bench/README.md, "Experiments
# measured and not kept"), in one call on one GPU, each verified and run
# beside cl/'s own through bench/sgemm/run.sh (cuBLAS in the same call), at
# 4096, 8192 and 8448x8192x8192 (16 whole waves of 256x128 blocks on 132
# units: no part-full last wave, so the kernels' own speed):
#   async:      regblock_async.cl, tiles copied by NVIDIA's cp.async (inline
#               PTX) into as many local buffers as 48 KiB holds (4 stages),
#               and async3, 3 stages; then tune's search of it (24
#               candidates at 4096);
#   read-ahead: regblock_read_ahead.patch on cl/matmul_regblock.cl, the next
#               step's local reads during this step's multiply-adds and the
#               barrier before a tile's last step;
#   tsk16:      cl/'s kernel with K steps of 16 (256x128x16, 16x8 a work-item,
#               given through a tuning database), regblock at whole waves;
# then sass.sh on cl/ and read-ahead: what the compiler made of each.
# Usage: bench/experiments/sgemm.sh [OUTDIR]  (default "$OUT", else
# bench/experiments/out); CLMEM (default ./build-gpu/clmem), DEVICE (nvidia).
set -uo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out}}
export CLMEM=${CLMEM:-./build-gpu/clmem} DEVICE=${DEVICE:-nvidia}
mkdir -p "$out"
kernels=$(mktemp -d)
cache=$(mktemp -d)
trap 'rm -rf "$kernels" "$cache"' EXIT
export XDG_CACHE_HOME=$cache/run
mkdir -p "$kernels/async" "$kernels/async3" "$kernels/read-ahead"
for d in async async3 read-ahead; do cp cl/*.cl "$kernels/$d/"; done
cp "$here/regblock_async.cl" "$kernels/async/matmul_regblock.cl"
{ echo "#define STAGES 3"; cat "$here/regblock_async.cl"; } >"$kernels/async3/matmul_regblock.cl"
(cd "$kernels/read-ahead" && git apply -p2 "$OLDPWD/$here/regblock_read_ahead.patch") ||
    echo "regblock_read_ahead.patch no longer applies to cl/" >&2
SIZES="4096 8192 8448x8192x8192" KERNEL_DIRS="cl $kernels/async $kernels/async3 $kernels/read-ahead" \
    "$here/../sgemm/run.sh" "$out/sgemm"
timeout 150 "$CLMEM" tune matmul --variant regblock --device "$DEVICE" --size 4096 \
    --max-candidates 24 --reps 5 --kernel-dir "$kernels/async" >"$out/tune-async.txt" 2>&1
# TSK 16: the tuning database's entry for this device at these sizes.
. "$here/lib.sh"
force_params "$cache/tsk16" 256 128 16 16 8
for s in 4096 8192 8448x8192x8192; do
    XDG_CACHE_HOME=$cache/tsk16 "$CLMEM" run matmul --device "$DEVICE" --size "$s" \
        --variant regblock --reps 20 --format csv --output "$out/tsk16-$s.csv" ||
        echo "TSK 16 at $s failed: $?" >&2
done
for f in "$out"/tsk16-*.csv; do
    echo "$f: $(tail -1 "$f" | cut -d, -f2,4,13)"
done
tail -1 "$out/tune-async.txt"
OUT=$out/sass "$here/sass.sh" cl "$kernels/read-ahead"
