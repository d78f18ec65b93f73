#!/usr/bin/env bash
# Call 1 (nvidia-h200): blur's strips with the rows summed down before
# across (swar.patch on cl/), against cl/ as it stands, in the same call;
# with the row pitch fixed at build time (width.patch on swar, 16384-byte
# rows only); the strip's bare copy (copy.patch: its centre words, nothing
# else) at several shapes; its loads alone (loads.patch). Then the SASS of
# both interiors (bench/roofs/sass.sh). Outputs under $OUT (one archive).
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk width "$k/swar" width.patch
mk copy "$k/swar" copy.patch
mk loads "$k/swar" loads.patch
BLUR_SHAPES="4x4x2 4x8x2 4x4x2@$k/swar 4x8x2@$k/swar 4x16x2@$k/swar 8x4x2@$k/swar 8x8x2@$k/swar \
4x4x2@$k/width 4x8x2@$k/width 4x8x2@$k/loads \
4x1x2@$k/copy 4x2x2@$k/copy 4x4x2@$k/copy 4x8x2@$k/copy 4x16x2@$k/copy 8x2x2@$k/copy 16x1x2@$k/copy 16x2x2@$k/copy \
4x4x2 4x8x2@$k/swar" CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/1" >"$res/1.log" 2>&1
cat "$res/1/table.txt"
# The SASS of the interior, cl/ and swar, at 4x8x2 (sass.sh reads the
# shape from a tuning database).
for kd in "$PWD/cl" "$k/swar"; do
    sass "$kd" "$res/sass-$(basename "$kd")"
done
