#!/usr/bin/env bash
# Measures the scale-out paths for bench/ (issue 7): several devices in one
# process, and ranks under mpirun. Usage:
#   scripts/bench_scale.sh NAME GPU CPU [OUTDIR]
# e.g. scripts/bench_scale.sh h100 nvidia pocl bench
# writes OUTDIR/NAME-scale/*.txt (tables) and *.json (reports). GPU and CPU
# are --device specs; CPU is PoCL. Open MPI binds each of one or two ranks to
# a single core by default, which leaves PoCL's threads one core: the PoCL
# ranks here are given CPU_CORES_PER_RANK cores each (default 4, --map-by
# slot:PE=N --bind-to core); bench's are not bound (--bind-to none), the GPU
# ranks of SUMMA bound as Open MPI chooses.
# CLMEM (default ./build/clmem, an MPI build), MPIRUN (default mpirun, with
# any options: "mpirun --oversubscribe" where ranks outnumber cores) name
# the programs; SGEMM sizes: GPU_SIZE (8192), CPU_SIZE (3072).
set -euo pipefail
usage="usage: scripts/bench_scale.sh NAME GPU CPU [OUTDIR]"
name=${1:?$usage}
gpu=${2:?$usage}
cpu=${3:?$usage}
out=${4:-bench}/$name-scale
clmem=${CLMEM:-./build/clmem}
read -r -a mpirun <<<"${MPIRUN:-mpirun}" # may hold options: "mpirun --oversubscribe"
cores=${CPU_CORES_PER_RANK:-4}
gsize=${GPU_SIZE:-8192}
csize=${CPU_SIZE:-3072}
mkdir -p "$out"
say() { echo "clmem bench_scale: $*" >&2; }
failed=0
# Open MPI's mpirun (seen with 4.1.4) hands the ranks OCL_ICD_FILENAMES cut at
# its first ':', so they lose every OpenCL driver listed after the first: the
# ranks get it as an argument of env instead.
rank_env=(env)
[ -n "${OCL_ICD_FILENAMES:-}" ] && rank_env+=("OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES")
# measure NAME COMMAND...: stdout to NAME.txt, stderr to NAME.err; a
# failure is said and counted, and the other measurements still run.
measure() {
    local name=$1
    shift
    "$@" >"$out/$name.txt" 2>"$out/$name.err" || {
        say "FAILED ($?): $name; see $out/$name.err"
        failed=$((failed + 1))
    }
}

# One process, several devices: every device at once, and matmul's rows split.
say "run dot on every device at once"
measure multi-dot "$clmem" run dot --variant coarsened --size 67108864 --device "$gpu,$cpu"
say "matmul split over the GPU twice (two contexts on one GPU)"
measure split-gpu-gpu "$clmem" run matmul --variant regblock --size "$gsize" \
    --device "$gpu,$gpu" --split
say "matmul split over the GPU and the CPU (shares 0.998, 0.002)"
measure split-gpu-cpu "$clmem" run matmul --variant regblock --size "$gsize" \
    --device "$gpu,$cpu" --split=0.998,0.002 --reps 3

# Under mpirun: bench gathered to rank 0 (rank 0 on the GPU, 1 on the CPU).
say "mpirun -n 2 bench, a rank on each device"
measure mpi-bench "${mpirun[@]}" -n 2 --bind-to none "${rank_env[@]}" "$clmem" bench \
    --device "$gpu,$cpu" --workloads transpose,reduce,dot,matmul --output "$out/mpi-bench.json"

# SUMMA: strong scaling over ranks on the CPU, each rank on cores of its own,
# beside matmul on the whole CPU in one process.
measure "cpu-one-process" "$clmem" run matmul --variant panel --device "$cpu" --size "$csize" \
    --reps 3
for n in 1 2 4; do
    say "SUMMA on $n rank(s) of $cores CPU cores each, $csize"
    measure "summa-cpu-$n" "${mpirun[@]}" -n "$n" --map-by "slot:PE=$cores" --bind-to core \
        "${rank_env[@]}" "$clmem" run matmul --variant panel --summa --device "$cpu" \
        --size "$csize" --reps 3
done
# SUMMA with ranks sharing the one GPU: what the communication and the
# sharing cost where there is nothing to scale onto.
for n in 1 2 4; do
    say "SUMMA on $n rank(s) sharing the GPU, $gsize"
    measure "summa-gpu-$n" "${mpirun[@]}" -n "$n" "${rank_env[@]}" "$clmem" run matmul \
        --variant regblock --summa --device "$gpu" --size "$gsize" --reps 5
done
say "done: $out ($failed failed)"
[ "$failed" -eq 0 ]
