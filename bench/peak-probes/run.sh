#!/usr/bin/env bash
# The read roof and the launch probe on a GPU (issue 18, item 2), one run:
#  - clmem peak at its default size (2^24 floats) and at 2^26 (256 MiB, past
#    any L2), 10 runs each;
#  - reduce and dot at 2^26 floats with --peak (their `of peak` is against
#    the read peak now), transpose at 8192 with --peak (against the copy);
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
run peak-default peak --reps 10
run peak-2p26 peak --reps 10 --size 67108864
run peak-scalar-copy run peak --variant copy --reps 10 --size 67108864 \
    --kernel-dir "$here/scalar-copy" --no-cache
run reduce run reduce --size 67108864 --reps 10 --peak
run dot run dot --size 67108864 --reps 10 --peak
run transpose run transpose --size 8192 --reps 10 --peak
