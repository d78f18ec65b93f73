#!/usr/bin/env bash
# Call 9 (nvidia-h200): the strip's halo bytes without their loads. Each
# lane takes them from the words its neighbouring lanes loaded, by a warp
# shuffle (inline PTX, NVIDIA only: its OpenCL has no sub-groups), and
# loads them only at a warp's edge or beside a strip that left early
# (shfl.patch on cl/; every word of the strip loaded first, then the
# shuffles, then the sums). shflnv: the same with the shuffles not
# volatile, free to move. The SASS of shfl's 4x8x2 strip, to see its SHFLs.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk shfl cl shfl.patch
mk shflnv "$k/shfl" shflnv.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/shfl 4x4x2@$k/shfl 8x4x2@$k/shfl 4x16x2@$k/shfl 4x8x2@$k/shflnv 8x4x2@$k/shflnv 4x4x2" \
    CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/9" >"$res/9.log" 2>&1
sass "$k/shfl" "$res/9/sass-shfl"
cat "$res/9/table.txt"
