#!/usr/bin/env bash
# Matmul over the GPUs of one 4-GPU host, end to end, with where the time
# goes: SUMMA under mpirun on 1, 2 and 4 ranks (a GPU each) at 16384 and
# 32768, the pieces through shared memory (the default on one host) and,
# on 2 and 4 ranks, broadcast with MPI (CLMEM_SUMMA_EXCHANGE=mpi) to
# compare; --split over 1 to 4 GPUs of one process at the same sizes.
# Every command runs with CLMEM_DEBUG=4: its stderr (NAME.err) has the
# per-rank (SUMMA) or per-device (--split) breakdown, its stdout
# (NAME.txt) the results, each verified against the CPU reference.
#   bench/multi-gpu/run4.sh OUTDIR
# Made for a machine with no build tools and no MPI (the GPU machines):
# CLMEM (default build-gpu-mpi/clmem) is a release MPI build made
# elsewhere, its libraries in .carry/lib (scripts/carry_libs.sh
# build-gpu-mpi) and Open MPI in .carry/ompi (scripts/carry_mpi.sh).
# NVIDIA's OpenCL driver is found through an ICD file made here. SIZES
# (default "16384 32768"), GPUS (4), DEVICES (--split's, default 0:0 to
# 0:GPUS-1), PANEL (SUMMA's, 1024; WIDE_PANEL, 2048, once more at the
# first size), REPS (3), LIMIT (seconds per command, 150) and BUDGET
# (seconds for the whole script, 450: commands not yet started then are
# left out, and said so) tune it; ICD= (empty) keeps the OpenCL drivers as
# they are (a try on PoCL: ICD= CLMEM=build/clmem SIZES="256 384" GPUS=2
# DEVICES=0:0,0:0 PANEL=32 WIDE_PANEL=64). The most telling commands run
# first. PLAN=pinned runs only SUMMA on GPUS ranks at each size, its
# pieces up from pinned shared memory (the default) and copied on the
# host first (CLMEM_SUMMA_EXCHANGE=copy) one after the other, --split at
# the first size (its one-device kernels: the best single GPU), and the
# wide panel.
set -uo pipefail
usage="usage: bench/multi-gpu/run4.sh OUTDIR"
out=${1:?$usage}
clmem=${CLMEM:-build-gpu-mpi/clmem}
sizes=${SIZES:-16384 32768}
gpus=${GPUS:-4}
panel=${PANEL:-1024}
wide_panel=${WIDE_PANEL:-2048}
reps=${REPS:-3}
limit=${LIMIT:-150}
budget=${BUDGET:-450}
mkdir -p "$out"
start=$SECONDS
say() { echo "run4: $*" >&2; }
failed=0 skipped=0

# NVIDIA's OpenCL ICD, the carried libraries and Open MPI.
if [ "${ICD-nvidia}" = nvidia ]; then
    icd=${TMPDIR:-/tmp}/clmem-run4-icd
    mkdir -p "$icd"
    echo libnvidia-opencl.so.1 >"$icd/nvidia.icd"
    export OCL_ICD_VENDORS=$icd
fi
[ -d .carry/lib ] && export LD_LIBRARY_PATH=$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
command -v mpirun >/dev/null || { [ -f .carry/ompi/env.sh ] && . .carry/ompi/env.sh; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The kernels from this tree (the build's own path to them is the build
# machine's), the compiled programs built once for every command.
export CLMEM_KERNEL_DIR=${CLMEM_KERNEL_DIR:-$PWD/cl}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-${TMPDIR:-/tmp}/clmem-run4-cache}
# The ranks get the OpenCL variables as arguments: Open MPI's mpirun hands
# OCL_ICD_FILENAMES on cut at its first ':'.
rank_env=(env)
[ -n "${OCL_ICD_FILENAMES+set}" ] || rank_env+=(-u OCL_ICD_FILENAMES)
rank_env+=("LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}" "XDG_CACHE_HOME=$XDG_CACHE_HOME"
    "CLMEM_KERNEL_DIR=$CLMEM_KERNEL_DIR" CLMEM_DEBUG=4)
[ -n "${OCL_ICD_FILENAMES+set}" ] && rank_env+=("OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES")
[ -n "${OCL_ICD_VENDORS+set}" ] && rank_env+=("OCL_ICD_VENDORS=$OCL_ICD_VENDORS")

# measure NAME COMMAND...: stdout to NAME.txt, stderr (the breakdown) to
# NAME.err, the seconds it took to the log; nothing once BUDGET is spent.
measure() {
    local name=$1
    shift
    if ((SECONDS - start + 20 > budget)); then
        say "$name: left out (budget of $budget s spent)"
        skipped=$((skipped + 1))
        return
    fi
    say "$name: $*"
    local t0=$SECONDS
    timeout -k 10 "$limit" "$@" >"$out/$name.txt" 2>"$out/$name.err" || {
        say "FAILED ($?): $name; see $out/$name.err"
        failed=$((failed + 1))
    }
    say "$name: $((SECONDS - t0)) s"
}

{
    nvidia-smi topo -m
    nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.max.sm,power.limit --format=csv
} >"$out/topo.txt" 2>&1
"$clmem" devices >"$out/devices.txt" 2>&1
nproc >"$out/host.txt" 2>&1
lscpu >>"$out/host.txt" 2>&1
# --split's devices: the first GPUS of the NVIDIA platform, whose index
# depends on the drivers listed before it (PoCL's came first: 0:1 was no
# device on the 4x H200 machine).
platform=$(sed -n 's/^platform \([0-9]*\): NVIDIA.*/\1/p' "$out/devices.txt" | head -n 1)
devices=${DEVICES:-$(seq -s, -f "${platform:-0}:%g" 0 $((gpus - 1)))}

summa() { # summa RANKS SIZE [EXCHANGE]
    local n=$1 size=$2 exchange=${3:-}
    measure "summa-$n-$size${exchange:+-$exchange}" mpirun -n "$n" --bind-to none \
        "${rank_env[@]}" ${exchange:+CLMEM_SUMMA_EXCHANGE=$exchange} \
        "$clmem" run matmul --variant regblock --summa --size "$size" --panel "$panel" \
        --reps "$reps" --warmup 1
}
split() { # split SIZE: one result per device count, 1 to GPUS
    measure "split-$1" env CLMEM_DEBUG=4 "$clmem" run matmul --variant regblock --size "$1" \
        --device "$devices" --split --reps "$reps" --warmup 1
}

first=${sizes%% *}
wide() {
    measure "summa-$gpus-$first-panel$wide_panel" mpirun -n "$gpus" --bind-to none \
        "${rank_env[@]}" "$clmem" run matmul --variant regblock --summa --size "$first" \
        --panel "$wide_panel" --reps "$reps" --warmup 1
}
# One line per result, for a quick look; the exit status.
finish() {
    grep -H -E '^matmul ' "$out"/*.txt >"$out/summary.txt" 2>/dev/null
    say "done in $((SECONDS - start)) s: $out ($failed failed, $skipped left out)"
    [ "$failed" -eq 0 ]
    exit
}
if [ "${PLAN:-full}" = pinned ]; then
    for size in $sizes; do
        summa "$gpus" "$size"
        summa "$gpus" "$size" copy
        if [ "$size" = "$first" ]; then
            split "$size"
            wide
        fi
    done
    finish
fi

# The 4-GPU figures first, then what they are compared with.
for size in $sizes; do
    summa "$gpus" "$size"
    split "$size"
done
for size in $sizes; do
    summa "$gpus" "$size" mpi
    summa 1 "$size"
done
for size in $sizes; do
    summa 2 "$size"
    summa 2 "$size" mpi
done
# A wider panel at the smaller size, where the pieces are shortest: half
# as many accumulations and exchanges, a longer fill.
wide
finish
