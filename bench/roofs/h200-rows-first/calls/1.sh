#!/usr/bin/env bash
# constmem's strip shapes with every row loaded first (the kernel as it
# stands): taller and wider strips than the built-in 4x3x2 at 16384, the
# first shape again at the end; then 8192. Outputs in $OUT/1-16384 and
# $OUT/1-8192 (bench/roofs/strips.sh's table.txt and strips.csv).
set -u
BLUR_SHAPES="" CONSTMEM_SHAPES="4x3x2 4x4x2 4x5x2 4x6x2 4x8x2 8x2x2 8x3x2 8x4x2 16x2x2 4x3x2" \
    bench/roofs/strips.sh "$OUT/1-16384" >"$OUT/1-16384.log" 2>&1
BLUR_SHAPES="" CONSTMEM_SIZE=8192 CONSTMEM_SHAPES="4x3x2 4x4x2 8x2x2 8x3x2 4x3x2" \
    bench/roofs/strips.sh "$OUT/1-8192" >"$OUT/1-8192.log" 2>&1
cat "$OUT/1-16384/table.txt" "$OUT/1-8192/table.txt"
