#!/usr/bin/env bash
# Call 4 (nvidia-h200): loading the bytes either side once the words are in
# (call 3) did not help. Whether the cost is the bytes that fall in the
# neighbouring warps' or groups' 128-byte lines: probes that take them
# inside the warp's own line (wclamp.patch) or the group's own bytes
# (gclamp.patch), each wrong at those bytes (FAILED; only their times
# count); and two neighbouring strips loading one aligned 8 bytes, each
# finding one of its halo bytes there (pairs.patch: two loads a row, not
# three); cl/ and swar beside them.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk wclamp "$k/swar" wclamp.patch
mk gclamp "$k/swar" gclamp.patch
mk pairs "$k/swar" pairs.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/swar 4x8x2@$k/wclamp 4x8x2@$k/gclamp 4x8x2@$k/pairs 4x4x2@$k/pairs \
4x6x2@$k/pairs 4x4x2@$k/wclamp 4x8x2" CONSTMEM_SHAPES="" \
    bench/roofs/strips.sh "$res/4" >"$res/4.log" 2>&1
cat "$res/4/table.txt"
