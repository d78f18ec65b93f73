#!/usr/bin/env bash
# constmem's variants with the built-in rows (the GPU row 4x6x2 since
# call 2) at 8192 and 16384 against the copy peak in the same run: 3-builtin/.
set -u
CLMEM=build-gpu/clmem WORKLOADS=constmem TUNE= timeout 150 bench/roofs/run.sh "$OUT/stencils" \
    >"$OUT/stencils.log" 2>&1
cat "$OUT/stencils/table.txt"
