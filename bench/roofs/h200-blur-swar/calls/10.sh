#!/usr/bin/env bash
# Call 10 (nvidia-h200): call 9's shuffles cost more than the byte loads
# they replaced, and every lane at a warp's edge still made its own byte
# load a row. shfl2.patch on cl/: in a whole warp of interior strips,
# four rows' halo bytes packed to a shuffle each way, and the edge lanes'
# bytes loaded once for the whole strip by one load of the warp, packed
# by two butterflies and handed over by one shuffle per four rows: per
# 4x8 strip 11 loads and 11 shuffles, where cl/ makes 30 loads.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk shfl2 cl shfl2.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/shfl2 4x4x2@$k/shfl2 8x4x2@$k/shfl2 8x8x2@$k/shfl2 4x8x2@$k/shfl2 4x8x2" \
    CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/10" >"$res/10.log" 2>&1
sass "$k/shfl2" "$res/10/sass-shfl2"
cat "$res/10/table.txt"
