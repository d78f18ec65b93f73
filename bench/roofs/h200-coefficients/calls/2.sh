#!/usr/bin/env bash
# (bench/roofs/h200-coefficients/calls/: old-cl is cl/ at fb8d11e, ab/NAME-cl cl/ with kernels/NAME-*.patch)
# constmem: rolling stores (cl/) against the kernels before (old-cl/), alternating;
# the strip's access pattern with light arithmetic (ab/c1-cl: centre vectors summed,
# no halo loads; ab/c3-cl: three of five columns, halos loaded); then built-in runs.
set -u
. bench/gpu-env.sh
o=$OUT/ab2; mkdir -p $o
BLUR_SHAPES="" CONSTMEM_SHAPES="4x3x2@old-cl 4x3x2 4x3x2@old-cl 4x3x2 4x3x2@old-cl 4x3x2 4x16x2@old-cl 4x16x2 4x3x2@ab/c1-cl 4x8x2@ab/c1-cl 4x3x2@ab/c3-cl 4x8x2@ab/c3-cl" \
  bench/roofs/strips.sh $o/strips > $o/strips.log 2>&1
CONSTMEM_SIZE=8192 BLUR_SHAPES="" CONSTMEM_SHAPES="4x3x2@old-cl 4x3x2 4x3x2@old-cl 4x3x2" \
  bench/roofs/strips.sh $o/strips-8192 > $o/strips-8192.log 2>&1
CLMEM=build-gpu/clmem WORKLOADS="constmem" TUNE="" REPS=9 bench/roofs/run.sh $o/builtin > $o/builtin.log 2>&1
cat $o/strips/table.txt $o/strips-8192/table.txt; tail -20 $o/builtin.log; cat $o/builtin/table.txt 2>/dev/null
cd $OUT && tar czf ab2.tgz ab2 && rm -rf ab2
