#!/usr/bin/env bash
# blur with its built-in strip as it stands (8x4x2 on an H100 where a row
# holds 16 KiB or more, 4x4x2 below: calls 1 and 2), no tuning, against
# the copy peak of each run (--peak): bench/roofs/run.sh at the sizes of
# calls 1 and 2. Outputs in $OUT/builtin3.tgz.
set -u
CLMEM=build-gpu/clmem WORKLOADS=blur TUNE= \
    SIZES_OVERRIDE="16384x16384 23168x11584 16384x8192 11264x11264 8192x16384 7680x4320" \
    timeout 200 bench/roofs/run.sh "$OUT/builtin3" >"$OUT/builtin3.log" 2>&1
cat "$OUT/builtin3/table.txt"
tar -C "$OUT" -czf "$OUT/builtin3.tgz" builtin3 builtin3.log && rm -rf "$OUT/builtin3"
