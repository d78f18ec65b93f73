#!/usr/bin/env bash
# The read roof and the launch probe on a GPU (issue 18, item 2), one run:
#  - clmem peak at 2^24 floats (0.1's default), 2^26 (the default now: 256
#    MiB, past any L2) and 2^28 (what --peak and bench use on GPUs), 10 runs;
#  - reduce and dot at 2^26 and 2^28 floats with --peak (their `of peak` is
#    against the read peak now), transpose at 8192 with --peak (the copy's);
#  - why the lecture's copy kernel (transpose's `copy`: one float per access)
#    sits below peak's float4 copy: peak's copy rewritten to move floats, 4
#    per work-item a grid apart (scalar-copy/peak.cl), at the same size.
# Usage: bench/peak-probes/run.sh [OUTDIR] (default "$OUT", else bench/peak-probes/out)
# CLMEM (default ./build-gpu/clmem), DEVICE (default nvidia).
set -euo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
mkdir -p "$out"
run() { # NAME ARGS...: the table to NAME.txt
    local name=$1
    shift
    "$clmem" "$@" --device "$device" >"$out/$name.txt" || echo "FAILED: $name" >&2
}
for s in 16777216 67108864 268435456; do
    run peak-$s peak --reps 10 --size $s
    run peak-$s-float-copy run peak --variant copy --reps 10 --size $s \
        --kernel-dir "$here/scalar-copy" --no-cache
done
for s in 67108864 268435456; do
    run reduce-$s run reduce --size $s --reps 10 --peak
    run dot-$s run dot --size $s --reps 10 --peak
done
run transpose run transpose --size 8192 --reps 10 --peak
