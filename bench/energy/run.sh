#!/usr/bin/env bash
# clmem's energy figures (NVML's total-energy counter, read around each
# variant's runs) against nvidia-smi's power.draw sampled every 100 ms in
# the same call. Usage, on the GPU machine from the tree's root:
#   bench/energy/run.sh OUTDIR [OPENCL_ENV]
# OPENCL_ENV: a script to source that registers NVIDIA's OpenCL driver
# (opencl-env.sh; else bench/gpu-env.sh finds it). CLMEM names the binary
# (default build/clmem). Writes OUTDIR/gpu.txt, nvml-probe.txt (how often
# NVML's counter changes), NAME.json / NAME.err (clmem's report and its
# CLMEM_DEBUG=8 lines: the meter and each metered span in Unix time),
# NAME-smi.csv (nvidia-smi's samples) and summary.txt: clmem's power_w
# beside the mean of nvidia-smi's samples inside each metered span.
set -uo pipefail
out=${1:?usage: bench/energy/run.sh OUTDIR [OPENCL_ENV]}
env_script=${2:-${OPENCL_ENV:-}}
clmem=${CLMEM:-build/clmem}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# shellcheck disable=SC1090
[ -n "$env_script" ] && . "$env_script"
. bench/gpu-env.sh

nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,power.limit,clocks.sm \
    --format=csv >"$out/gpu.txt" 2>&1
# power.draw is averaged over a second on recent drivers; .instant, where
# the driver has it, is not.
fields=timestamp,pci.bus_id,power.draw
nvidia-smi --query-gpu=power.draw.instant --format=csv >/dev/null 2>&1 &&
    fields=$fields,power.draw.instant
echo "fields: $fields" >>"$out/gpu.txt"
python3 "$here/nvml_probe.py" >"$out/nvml-probe.txt" 2>&1

# One clmem run with nvidia-smi sampling the GPUs from a second before to
# a second after it.
run_one() {
    local name=$1
    shift
    nvidia-smi --query-gpu=$fields --format=csv,noheader,nounits -lms 100 \
        >"$out/$name-smi.csv" 2>&1 &
    local smi=$!
    sleep 1
    CLMEM_DEBUG=8 "$clmem" run "$@" --device gpu --format json >"$out/$name.json" \
        2>"$out/$name.err"
    echo "exit $?" >>"$out/$name.err"
    sleep 1
    kill "$smi"
    wait "$smi" 2>/dev/null
}
run_one matmul-8192 matmul --size 8192 --variant regblock --reps 50
# 200 runs of reduce at 2^28 floats last about 0.3 s on an H100, under the
# second NVML's counter needs (its figures are then n/a, saying so); 1000
# last about 1.5 s.
run_one reduce-200 reduce --size 268435456 --variant coarsened --reps 200
run_one reduce-1000 reduce --size 268435456 --variant coarsened --reps 1000

python3 "$here/summary.py" "$out" matmul-8192 reduce-200 reduce-1000 | tee "$out/summary.txt"
