#!/usr/bin/env bash
# Call 5 (nvidia-h200): calls 1-4 read the strip's time in its loads a
# work-item (4x4 copies 0.90, 4x16 0.78; the 10 words of a 4x8 strip 0.87,
# with their 20 halo bytes 0.74) and the halo bytes in every warp's own
# line cost as much (wclamp). Fewer loads a work-item with the bytes still
# 16 or more: short strips, wide or not (cl/ and swar), and the words alone
# at 8x2 (words.patch).
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk loads "$k/swar" loads.patch
mk words "$k/loads" words.patch
BLUR_SHAPES="4x8x2 4x2x2 4x3x2 8x2x2 8x3x2 16x1x2 16x2x2 8x2x2@$k/swar 8x3x2@$k/swar 4x3x2@$k/swar \
8x2x2@$k/words 8x2x2@$k/loads 4x8x2" CONSTMEM_SHAPES="" \
    bench/roofs/strips.sh "$res/5" >"$res/5.log" 2>&1
cat "$res/5/table.txt"
