#!/usr/bin/env bash
# One GPU machine's run files for bench/runs/ and bench/hierarchy/, in one
# call, from the tree's root:
#   bench/runs/gpu.sh NAME OUTDIR
# writes OUTDIR/runs/NAME.json (+ .txt, -devices.txt, -coalescing.csv,
# -transpose.txt: scripts/bench.sh on the first NVIDIA device with CLBlast
# beside clmem; each result's energy from NVML where the driver has it) and
# OUTDIR/hierarchy/NAME/ (bench/hierarchy/run.sh: clmem hierarchy, peak,
# PyTorch's copies and clpeak). CLMEM names the binary (default
# build-gpu/clmem, a release build carried with scripts/carry_libs.sh).
set -uo pipefail
name=${1:?usage: bench/runs/gpu.sh NAME OUTDIR}
out=${2:?usage: bench/runs/gpu.sh NAME OUTDIR}
export CLMEM=${CLMEM:-build-gpu/clmem}
. bench/gpu-env.sh
mkdir -p "$out/runs" "$out/hierarchy/$name"
start=$SECONDS
scripts/bench.sh "$name" nvidia "$out/runs" --compare clblast 2>"$out/runs/$name.err"
echo "bench: exit $? in $((SECONDS - start)) s" >>"$out/runs/$name.err"
DEVICE=nvidia bench/hierarchy/run.sh "$out/hierarchy/$name"
