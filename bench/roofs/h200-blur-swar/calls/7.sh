#!/usr/bin/env bash
# Call 7 (nvidia-h200): how the halo bytes' cost grows. The loads with the
# byte before the strip only (loads1.patch on loads); the words alone and
# the loads at 8x4 (wider strips: the halo bytes a word halved); blur with
# its neighbouring words loaded whole, aligned, instead of the bytes
# (nbr.patch on swar; call 3's depw made them wait for the words first).
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk loads "$k/swar" loads.patch
mk loads1 "$k/loads" loads1.patch
mk words "$k/loads" words.patch
mk nbr "$k/swar" nbr.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/loads 4x8x2@$k/loads1 4x8x2@$k/words 8x4x2@$k/words 8x4x2@$k/loads \
4x8x2@$k/nbr 4x4x2@$k/nbr 4x8x2" CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/7" >"$res/7.log" 2>&1
cat "$res/7/table.txt"
