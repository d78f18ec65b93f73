#!/usr/bin/env bash
# Call 6 (nvidia-h200): the halo bytes without byte loads. In the rows
# whose boxes are all inside the image a strip's 4 output bytes start 2
# bytes after its word (shift.patch on cl/): the byte before, its 4 and the
# byte after all lie in its word and the next, two aligned word loads a
# row; the outputs are stored as two aligned 16-bit halves. cl/ beside it.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk shift cl shift.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/shift 4x4x2@$k/shift 4x6x2@$k/shift 4x16x2@$k/shift 4x4x2 \
4x8x2@$k/shift 4x8x2" CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/6" >"$res/6.log" 2>&1
cat "$res/6/table.txt"
sass "$k/shift" "$res/sass-shift"
