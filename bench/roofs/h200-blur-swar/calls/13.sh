#!/usr/bin/env bash
# Call 13 (nvidia-h200): call 11 found blur's arithmetic alone (no halo
# load) at 0.82 and its loads alone at 0.74: neither stage is the limit,
# how they overlap may be. cl/ compiles to 32 registers (call 1's
# sass-cl/), too few to hold a 4x8 strip's 30 loaded values at once, so
# some of its loads wait on its sums, as constmem's did before its rows
# were all loaded first (../h200-rows-first/: 0.84 to 0.91).
# rowsfirst (shfl.patch, then rowsfirst.patch: no shuffles): every word
# and halo byte of an interior strip loaded before its first sum.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk shfl cl shfl.patch
mk rowsfirst "$k/shfl" rowsfirst.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/rowsfirst 4x4x2@$k/rowsfirst 4x6x2@$k/rowsfirst 8x4x2@$k/rowsfirst 8x8x2@$k/rowsfirst 4x16x2@$k/rowsfirst 4x8x2@$k/rowsfirst 4x4x2" \
    CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/13" >"$res/13.log" 2>&1
sass "$k/rowsfirst" "$res/13/sass-rowsfirst"
cat "$res/13/table.txt"
