#!/usr/bin/env bash
# blur's and constmem's roofs on one GPU after a change to their kernels:
# bench/roofs/run.sh with the built-in rows (each run with the copy peak
# measured in the same command), then bench/roofs/strips.sh comparing the
# kernels before the change (a folder OLD of .cl files, at their built-in
# rows: blur 4x4x2, constmem 4x2x2) with the tree's (blur 4x4x2 and 4x8x2,
# constmem 4x3x2), blur at both its sizes. On the GPU machine from the
# tree's root, after a release build in build-gpu:
#   bench/roofs/compare.sh OUTDIR OLD
set -u
out=${1:?usage: bench/roofs/compare.sh OUTDIR OLD}
old=${2:?usage: bench/roofs/compare.sh OUTDIR OLD}
export CLMEM=build-gpu/clmem
WORKLOADS="blur constmem" TUNE="" REPS=9 bench/roofs/run.sh "$out"
BLUR_SHAPES="4x4x2@$old 4x4x2 4x8x2" CONSTMEM_SHAPES="4x2x2@$old 4x3x2" \
    bench/roofs/strips.sh "$out/strips"
BLUR_SIZE=7680x4320 BLUR_SHAPES="4x4x2@$old 4x4x2 4x8x2" CONSTMEM_SHAPES="" \
    bench/roofs/strips.sh "$out/strips-7680"
