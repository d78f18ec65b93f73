#!/usr/bin/env bash
# Issue 19's measurements: matmul over several devices of one host, end to
# end (inputs from the host, P back to it), with the transfers overlapped
# and without (--no-overlap): --split (strong and weak scaling, one process)
# and SUMMA (mpirun, one rank per device).
#   bench/multi-gpu/run.sh OUTDIR DEVICES
# DEVICES: the devices as --device takes a list, e.g. 1:0,1:1 (two GPUs of
# platform 1) or 0:0,0:0 (PoCL twice). RANK_DEVICES (default DEVICES;
# empty: each rank takes a GPU of its host, by its rank there) is SUMMA's
# --device. CLMEM (default build/clmem, an MPI
# build), SIZES (default "16384 32768"), WEAK_SIZE (16384; empty: none), PANEL (SUMMA's,
# 1024), REPS (5), LIMIT (seconds per command, 300), PARTS (which runs:
# "split summa") tune it. Without
# mpirun on the PATH the SUMMA runs are left out, and said so. Each
# command's output goes to OUTDIR/NAME.txt, its errors to NAME.err.
set -uo pipefail
usage="usage: bench/multi-gpu/run.sh OUTDIR DEVICES"
out=${1:?$usage}
devices=${2:?$usage}
clmem=${CLMEM:-build/clmem}
sizes=${SIZES:-16384 32768}
weak=${WEAK_SIZE-16384}
panel=${PANEL:-1024}
reps=${REPS:-5}
limit=${LIMIT:-300}
rank_devices=${RANK_DEVICES-$devices}
parts=${PARTS:-split summa}
n_devices=$(($(tr -cd , <<<"$devices" | wc -c) + 1))
mkdir -p "$out"
say() { echo "multi-gpu: $*" >&2; }
failed=0
measure() {
    local name=$1
    shift
    say "$name: $*"
    local t0=$SECONDS
    timeout -k 10 "$limit" "$@" >"$out/$name.txt" 2>"$out/$name.err" || {
        say "FAILED ($?): $name; see $out/$name.err"
        failed=$((failed + 1))
    }
    say "$name: $((SECONDS - t0)) s"
}
"$clmem" devices >"$out/devices.txt" 2>&1
command -v nvidia-smi >/dev/null && nvidia-smi topo -m >"$out/topo.txt" 2>&1

for size in $sizes; do
    [[ " $parts " == *" split "* ]] || break
    measure "split-$size" "$clmem" run matmul --variant regblock --size "$size" \
        --device "$devices" --split --reps "$reps"
    measure "split-$size-no-overlap" "$clmem" run matmul --variant regblock --size "$size" \
        --device "$devices" --split --no-overlap --reps "$reps"
done
[ -n "$weak" ] && [[ " $parts " == *" split "* ]] && measure "weak-$weak" "$clmem" run matmul --variant regblock --size "$weak" \
    --device "$devices" --split --weak --reps "$reps"

if [[ " $parts " != *" summa "* ]]; then
    say "done: $out ($failed failed)"
    exit $((failed > 0))
fi
if ! command -v mpirun >/dev/null; then
    say "no mpirun: SUMMA left out"
    exit $((failed > 0))
fi
# Root may run the ranks (the GPU machines run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The ranks get OCL_ICD_FILENAMES as it is here, as an argument: Open
# MPI's mpirun hands it on cut at its first ':' (libpocl.so.2 alone, on the
# GPU machine), which hides every driver after the first.
rank_env=(env)
if [ -n "${OCL_ICD_FILENAMES+set}" ]; then
    rank_env+=("OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES")
else
    rank_env+=(-u OCL_ICD_FILENAMES)
fi
mpirun -n 1 "${rank_env[@]}" "$clmem" devices >"$out/rank-devices.txt" 2>&1
for size in $sizes; do
    for ((n = 1; n <= n_devices; n *= 2)); do
        for overlap in "" --no-overlap; do
            measure "summa-$n-$size${overlap:+-no-overlap}" mpirun -n "$n" --bind-to none \
                "${rank_env[@]}" "$clmem" run matmul --variant regblock --summa --size "$size" --panel "$panel" \
                ${rank_devices:+--device "$rank_devices"} --reps 3 $overlap
        done
    done
done
say "done: $out ($failed failed)"
[ "$failed" -eq 0 ]
