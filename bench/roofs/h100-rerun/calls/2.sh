#!/usr/bin/env bash
# Where blur's 8x4x2 strip overtakes 4x4x2 on an H100 (call 1: 0.87 against
# 0.82 at 16384x16384, 0.47 against 0.56 at 7680x4320): both, and 8x2x2,
# at sizes between, through bench/roofs/strips.sh (the copy peak of each
# step measured in it). Outputs in $OUT/sizes.tgz (one folder a size).
set -u
mkdir -p "$OUT/sizes"
for size in 8192x8192 11264x11264 16384x8192 8192x16384 23168x11584; do
    BLUR_SIZE=$size BLUR_SHAPES="4x4x2 8x4x2 8x2x2 4x4x2 8x4x2" CONSTMEM_SHAPES="" \
        timeout 100 bench/roofs/strips.sh "$OUT/sizes/$size" >"$OUT/sizes/$size.log" 2>&1
    tail -n +2 "$OUT/sizes/$size/strips.csv"
done
tar -C "$OUT" -czf "$OUT/sizes.tgz" sizes && rm -rf "$OUT/sizes"
