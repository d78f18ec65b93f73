#!/usr/bin/env bash
# Call 2 (nvidia-h200): call 1 found the strip's loads alone (loads.patch)
# at 0.74 of the copy peak, its bare copy at 0.88: which loads cost. The
# loads without the bytes either side of the strip (words.patch on loads);
# blur taking those bytes from its neighbours' words in local memory
# (local.patch on swar: one word a row loaded a work-item), at several
# strip heights; cl/ and swar again beside them.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk loads "$k/swar" loads.patch
mk words "$k/loads" words.patch
mk local "$k/swar" local.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/swar 4x8x2@$k/local 4x4x2@$k/local 4x6x2@$k/local 4x16x2@$k/local \
4x8x2@$k/loads 4x8x2@$k/words 4x4x2@$k/words 4x8x2@$k/local 4x8x2" CONSTMEM_SHAPES="" \
    bench/roofs/strips.sh "$res/2" >"$res/2.log" 2>&1
cat "$res/2/table.txt"
sass "$k/local" "$res/sass-local"
