#!/usr/bin/env bash
# (bench/roofs/h200-coefficients/calls/: old-cl is cl/ at fb8d11e, ab/NAME-cl cl/ with kernels/NAME-*.patch)
# constmem: the filter read four coefficients a load (cl/) against one a load (old-cl/), alternating;
# the rolling stores with (ab/rollvec-cl) and without (ab/roll-cl) it; SASS of cl/.
set -u
. bench/gpu-env.sh
o=$OUT/ab4; mkdir -p $o
BLUR_SHAPES="" CONSTMEM_SHAPES="4x3x2@old-cl 4x3x2 4x3x2@old-cl 4x3x2 4x3x2@old-cl 4x3x2 4x4x2 4x2x2 8x3x2 4x3x2@ab/rollvec-cl 4x8x2@ab/rollvec-cl 4x3x2@ab/roll-cl" \
  bench/roofs/strips.sh $o/strips > $o/strips.log 2>&1
cat $o/strips/table.txt
CLMEM=build-gpu/clmem ONLY=constmem bench/roofs/sass.sh $o/sass > $o/sass.log 2>&1; cat $o/sass.log
cd $OUT && tar czf ab4.tgz ab4 && rm -rf ab4
