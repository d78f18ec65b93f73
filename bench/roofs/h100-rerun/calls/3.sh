#!/usr/bin/env bash
# blur's built-in strip as the H100's rows now choose it (8x4x2 where a row
# holds 2048 strips of 8 bytes or more, else 4x4x2; calls 1 and 2):
# bench/roofs/run.sh, no tuning, the copy peak of each run (--peak), at the
# sizes of calls 1 and 2 either side of the width: $OUT/builtin.tgz.
set -u
CLMEM=build-gpu/clmem WORKLOADS=blur TUNE= SIZES_OVERRIDE="16384x16384 7680x4320 8192x8192 23168x11584 16384x8192" \
    timeout 300 bench/roofs/run.sh "$OUT/builtin" >"$OUT/builtin.log" 2>&1
cat "$OUT/builtin/table.txt"
grep -h ",coarsened," "$OUT"/builtin/*.csv | cut -d, -f4,7
tar -C "$OUT" -czf "$OUT/builtin.tgz" builtin builtin.log && rm -rf "$OUT/builtin"
