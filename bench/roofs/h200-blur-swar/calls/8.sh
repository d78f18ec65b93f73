#!/usr/bin/env bash
# Call 8 (nvidia-h200): call 7 found the words of 8x4 strips alone at
# 0.62 (one 8-byte load a row), where 4x8's read 0.87 (a figure found
# not comparable after: that probe stores half of each 8 bytes). Strips 8 or 16
# bytes wide whose words are loaded one by one (split.patch on swar: two
# or four aligned 4-byte loads a row, each the halo bytes' 2 loads shared
# by more bytes than at 4x8); swar as it is and cl/ beside them.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk split "$k/swar" split.patch
BLUR_SHAPES="4x8x2 8x4x2@$k/split 8x8x2@$k/split 8x4x2@$k/swar 16x4x2@$k/split 4x8x2" \
    CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/8" >"$res/8.log" 2>&1
cat "$res/8/table.txt"
