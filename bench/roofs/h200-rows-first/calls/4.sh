#!/usr/bin/env bash
# calls/3.sh at 16384 alone, in the session's last call: 4-builtin/.
set -u
CLMEM=build-gpu/clmem WORKLOADS=constmem TUNE= SIZES_OVERRIDE=16384 timeout 60 \
    bench/roofs/run.sh "$OUT/stencils" >"$OUT/stencils.log" 2>&1
cat "$OUT/stencils/table.txt"
