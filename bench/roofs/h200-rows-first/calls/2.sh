#!/usr/bin/env bash
# constmem's taller strips (call 1: 4x8x2 0.91 of the copy at 16384, 4x4x2
# 0.77 at 8192): up to 16 rows at 8192 and 16384, the built-in 4x3x2
# first. Outputs in $OUT/2-16384 and $OUT/2-8192.
set -u
BLUR_SHAPES="" CONSTMEM_SHAPES="4x3x2 4x6x2 4x8x2 4x12x2 4x16x2" \
    bench/roofs/strips.sh "$OUT/2-16384" >"$OUT/2-16384.log" 2>&1
BLUR_SHAPES="" CONSTMEM_SIZE=8192 CONSTMEM_SHAPES="4x3x2 4x4x2 4x6x2 4x8x2 4x12x2 4x16x2" \
    bench/roofs/strips.sh "$OUT/2-8192" >"$OUT/2-8192.log" 2>&1
cat "$OUT/2-16384/table.txt" "$OUT/2-8192/table.txt"
