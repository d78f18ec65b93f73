#!/usr/bin/env bash
# (bench/roofs/h200-coefficients/calls/: ab/NAME-cl is cl/ with kernels/NAME-constmem.patch)
# constmem 4x3x2 at 16384: the tree's kernel (cl/) against every input row
# loaded first (ab/lf-cl) and the group's rows through a local-memory tile
# (ab/tile-cl), alternating: 6-layouts/.
set -u
BLUR_SHAPES="" CONSTMEM_SHAPES="4x3x2 4x3x2@ab/lf-cl 4x3x2@ab/tile-cl 4x3x2 4x3x2@ab/lf-cl 4x3x2@ab/tile-cl 4x4x2@ab/tile-cl 4x2x2@ab/lf-cl" \
    bench/roofs/strips.sh "$OUT/6-layouts" >"$OUT/6.log" 2>&1
cat "$OUT/6-layouts/table.txt"
