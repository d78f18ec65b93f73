#!/usr/bin/env bash
# Call 11 (nvidia-h200): calls 9 and 10 took the halo bytes' loads away
# (11 loads a 4x8 strip instead of 30) and read less, not more. So: blur's
# arithmetic with no halo load at all (nohalo.patch on cl/, a probe: the
# bytes either side taken from the strip's own words, every add and the
# division kept), beside the words-only probe (loads with no arithmetic,
# as calls 3-5 ran it) and cl/ in the same call.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk nohalo cl nohalo.patch
mk swar cl swar.patch
mk loads "$k/swar" loads.patch
mk words "$k/loads" words.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/nohalo 4x4x2@$k/nohalo 8x4x2@$k/nohalo 4x8x2@$k/words 4x8x2@$k/nohalo 4x8x2" \
    CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/11" >"$res/11.log" 2>&1
cat "$res/11/table.txt"
