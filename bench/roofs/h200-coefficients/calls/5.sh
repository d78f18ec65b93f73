#!/usr/bin/env bash
# constmem with the built-in rows, the copy peak in each command
# (bench/roofs/run.sh), on the tree as committed: 5-builtin/.
set -u
CLMEM=build-gpu/clmem WORKLOADS="constmem" TUNE="" REPS=9 bench/roofs/run.sh "$OUT/5-builtin" >"$OUT/5.log" 2>&1
cat "$OUT/5-builtin/table.txt"
