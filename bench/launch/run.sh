#!/usr/bin/env bash
# Where a launch's cost goes, and clmem's launch probe against clpeak's
# method, on the GPU machine from the tree's root:
#   bench/launch/run.sh OUTDIR
# launch_cost.c (built here) times one tiny kernel launched back to back
# several ways, and clpeak 1.1.2's kernel latency the way clpeak does.
# Then OLD (events on every launch) and NEW (an event on a run's first
# launch, a marker after its last) builds of clmem run the launch probe and
# the workloads of several launches per run, in the same call.
set -uo pipefail
out=${1:?usage: bench/launch/run.sh OUTDIR}
new=${NEW:-.gpu-bin/clmem-new}
old=${OLD:-.gpu-bin/clmem-old}
mkdir -p "$out"
. bench/gpu-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
cc -O2 -o "$out/launch_cost" bench/launch/launch_cost.c -lOpenCL &&
    "$out/launch_cost" NVIDIA >"$out/launch_cost.txt" 2>&1
for b in old new; do
    bin=$old
    [ $b = new ] && bin=$new
    {
        echo "== $b"
        "$bin" run peak --device nvidia --variant launch --reps 9
        "$bin" run reduce --device nvidia --size 67108864 --reps 9
        "$bin" run reduce --device nvidia --size 1048576 --reps 9
        "$bin" run atomics --device nvidia --reps 9
        "$bin" run dot --device nvidia --size 67108864 --reps 9
    } >"$out/$b.txt" 2>&1
done
