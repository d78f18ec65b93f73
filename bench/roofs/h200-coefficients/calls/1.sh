#!/usr/bin/env bash
# (bench/roofs/h200-coefficients/calls/: old-cl is cl/ at fb8d11e, ab/NAME-cl cl/ with kernels/NAME-*.patch)
# A/B: float blur and rolling-store constmem (cl/) against the kernels before (old-cl/)
set -u
. bench/gpu-env.sh
o=$OUT/ab1; mkdir -p $o
BLUR_SHAPES="4x4x2@old-cl 4x8x2@old-cl 4x4x2 4x8x2 4x16x2 8x4x2 8x8x2 16x4x2 16x8x2 4x4x2@old-cl 4x4x2 4x8x2" \
CONSTMEM_SHAPES="4x3x2@old-cl 4x3x2 4x4x2 4x8x2 4x16x2 8x4x2 8x8x2 4x3x2@old-cl 4x8x2" \
  bench/roofs/strips.sh $o/strips > $o/strips.log 2>&1
CLMEM=build-gpu/clmem bench/roofs/sass.sh $o/sass-new > $o/sass.log 2>&1
cat $o/strips/table.txt; cat $o/sass.log
cd $OUT && tar czf ab1.tgz ab1 && rm -rf ab1
