#!/usr/bin/env bash
# K steps of 8 against 16 in splitk's tiles at the shapes of few blocks
# (2026-11-28, H200): tsk.sh found 104x256 tiles in K steps of 16 1.03x
# splitk's plan (128x256 in steps of 8) at 100x8192x8192. Here, at each
# shape of shapes.txt that splitk runs, the plan's own tile (or, for P of
# 100 rows, 104 of them) in its own number of K slices, in steps of 8 and
# of 16 (two buffers of a 128x256 or 256x128 tile of 16 steps are 48 KiB,
# NVIDIA's local memory, exactly), each forced through a tuning database,
# beside the plan; cuBLAS at each shape at the start (../cublas.py, TF32
# off). One line a run in OUTDIR/sweep.txt.
# Usage: bench/sgemm/shapes/tsk2.sh OUTDIR   (CLMEM: a release build)
set -uo pipefail
# shellcheck source=sweeps.sh
. "$(dirname "$0")/sweeps.sh"
sweeps_start "${1:?usage: tsk2.sh OUTDIR}"
sweeps_cublas cublas.csv 33x4097x6001 48x8192x8192 64x8192x8192 32x8192x8192 64x4096x4096 \
    100x8192x8192 128x8192x8192 8192x100x8192 8192x32x8192 777x1234x5678 512x512x16384 \
    1000x999x9001 1536
sweeps_tiles m33 33x4097x6001 "36x256:4x16:8 36x256:4x16:16" 15 60
sweeps_tiles m48 48x8192x8192 "48x256:4x16:8 48x256:4x16:16" 8 60
sweeps_tiles m64 64x8192x8192 "64x256:8x16:8 64x256:8x16:16" 8 60
sweeps_tiles m32 32x8192x8192 "32x128:4x8:8 32x128:4x8:16" 8 60
sweeps_tiles m64s 64x4096x4096 "64x256:8x16:8 64x256:8x16:16" 16 60
sweeps_tiles m100 100x8192x8192 "128x256:8x16:8 128x256:8x16:16 104x256:8x16:16" 4 60
sweeps_tiles m128 128x8192x8192 "128x256:8x16:8 128x256:8x16:16" 4 60
sweeps_tiles n100 8192x100x8192 "256x128:16x8:8 256x128:16x8:16 256x104:16x8:16" 4 60
sweeps_tiles n32 8192x32x8192 "128x32:8x4:8 128x32:8x4:16" 8 60
sweeps_tiles odd 777x1234x5678 "64x256:8x16:8 64x256:8x16:16" 4 60
sweeps_tiles k16 512x512x16384 "256x128:16x8:8 256x128:16x8:16" 16 60
sweeps_tiles k9 1000x999x9001 "256x128:16x8:8 256x128:16x8:16" 4 60
sweeps_tiles s1536 1536 "256x128:16x8:8 256x128:16x8:16" 5 60
cat "$sweeps_out/sweep.txt" "$sweeps_out/cublas.csv"
