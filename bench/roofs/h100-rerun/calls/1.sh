#!/usr/bin/env bash
# The stencils on an H100 with the kernels and built-in rows as they stand
# (constmem's GPU row 4x6x2 and its rows loaded first, from the H200's
# calls of 2026-11-28; blur's 4x4x2), none of which an H100 has run:
# 1. bench/roofs/run.sh's built-in rows against the copy peak of the same
#    run (--peak), no tuning: builtin/.
# 2. bench/roofs/strips.sh at 16384 (blur 16384x16384): blur's 8x4x2, which
#    read 0.87 against 4x4x2's 0.82 on an H100 on 2026-11-27 (../h100-final/),
#    and its neighbours; constmem's rows around 4x6x2: strips-16384/.
# 3. The same at the smaller sizes (blur 7680x4320, constmem 8192), where a
#    wider blur strip cost before: strips-small/.
# Each step has its own time limit, so the call ends inside 10 minutes.
set -u
CLMEM=build-gpu/clmem WORKLOADS="blur constmem" TUNE= timeout 170 bench/roofs/run.sh "$OUT/builtin" \
    >"$OUT/builtin.log" 2>&1
BLUR_SHAPES="4x4x2 8x4x2 8x2x2 8x8x2 4x8x2 4x4x2 8x4x2" CONSTMEM_SHAPES="4x3x2 4x4x2 4x6x2 4x8x2 4x6x2" \
    timeout 220 bench/roofs/strips.sh "$OUT/strips-16384" >"$OUT/strips-16384.log" 2>&1
BLUR_SIZE=7680x4320 CONSTMEM_SIZE=8192 BLUR_SHAPES="4x4x2 8x4x2 8x2x2 4x4x2 8x4x2" \
    CONSTMEM_SHAPES="4x3x2 4x4x2 4x6x2 4x8x2" \
    timeout 150 bench/roofs/strips.sh "$OUT/strips-small" >"$OUT/strips-small.log" 2>&1
cat "$OUT/builtin/table.txt" "$OUT/strips-16384/strips.csv" "$OUT/strips-small/strips.csv"
