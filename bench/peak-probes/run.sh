#!/usr/bin/env bash
# The read roof and the launch probe on a GPU (issue 18, item 2), one run:
#  - clmem peak at 2^24 floats (0.1's default), 2^26 (the default now: 256
#    MiB, past any L2) and 2^28 (what --peak and bench use on GPUs), 10 runs;
#  - reduce and dot at 2^26 and 2^28 floats with --peak (their `of peak` is
#    against the read peak now), transpose at 8192 with --peak (the copy's);
#  - why the lecture's copy kernel (transpose's `copy`: one float per access)
#    sits below peak's float4 copy: peak's copy rewritten to move floats, 4
#    per work-item a grid apart (float_copy below, put into a copy of
#    cl/peak.cl), at the same sizes.
# Usage: bench/peak-probes/run.sh [OUTDIR] (default "$OUT", else bench/peak-probes/out)
# CLMEM (default ./build-gpu/clmem), DEVICE (default nvidia).
set -euo pipefail
here=$(dirname "$0")
out=${1:-${OUT:-$here/out}}
clmem=${CLMEM:-./build-gpu/clmem}
device=${DEVICE:-nvidia}
mkdir -p "$out" "$out/float-copy"
# cl/peak.cl with copy_peak moving one float per access (an experiment, not
# clmem's probe; the host still launches n / 4 + 1 work-items).
python3 - "$here/../../cl/peak.cl" "$out/float-copy/peak.cl" <<'PY'
import sys
src = open(sys.argv[1]).read()
start = src.index("__kernel void copy_peak(")
end = src.index("\n}\n", start) + 3
float_copy = """__kernel void copy_peak(__global const float4 *src4, __global float4 *dst4, int n)
{
    __global const float *src = (__global const float *)src4;
    __global float *dst = (__global float *)dst4;
    int items = get_global_size(0), i = get_global_id(0);
    for (int k = 0; k < 4; k++) {
        int j = i + k * items;
        if (j < n)
            dst[j] = src[j];
    }
}
"""
open(sys.argv[2], "w").write(src[:start] + float_copy + src[end:])
PY
run() { # NAME ARGS...: the table to NAME.txt
    local name=$1
    shift
    "$clmem" "$@" --device "$device" >"$out/$name.txt" || echo "FAILED: $name" >&2
}
for s in 16777216 67108864 268435456; do
    run peak-$s peak --reps 10 --size $s
    run peak-$s-float-copy run peak --variant copy --reps 10 --size $s \
        --kernel-dir "$out/float-copy" --no-cache
done
for s in 67108864 268435456; do
    run reduce-$s run reduce --size $s --reps 10 --peak
    run dot-$s run dot --size $s --reps 10 --peak
done
run transpose run transpose --size 8192 --reps 10 --peak
