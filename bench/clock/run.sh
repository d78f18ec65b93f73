#!/usr/bin/env bash
# The device's clock checked and short kernels batched (timing that checks
# its clock), measured on the GPU machine against the build before it in
# the same call: `clmem devices` (each device's clock check), then bench on
# the GPU with both builds, their diff, and reduce at 2^20 (a run of a few
# microseconds) with both. Usage, on the GPU machine from the tree's root:
#   bench/clock/run.sh OUTDIR
# NEW and OLD name the binaries (release builds without MPI, CLBlast or
# OpenBLAS, made on the CI kind of machine and carried: default
# .gpu-bin/clmem-new and .gpu-bin/clmem-old, the latter built from eb25914).
set -uo pipefail
out=${1:?usage: bench/clock/run.sh OUTDIR [first|second]}
phase=${2:-both}
new=${NEW:-.gpu-bin/clmem-new}
old=${OLD:-.gpu-bin/clmem-old}
mkdir -p "$out"
. bench/gpu-env.sh
if [ "$phase" != second ]; then
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv >"$out/gpu.txt" 2>&1
CLMEM_DEBUG=4 "$new" devices >"$out/devices.txt" 2>&1
{
    for size in 1048576 67108864; do
        for b in old new; do
            bin=$old
            [ $b = new ] && bin=$new
            echo "== $b: run reduce --size $size"
            "$bin" run reduce --device nvidia --size "$size" --reps 9
        done
    done
} >"$out/reduce.txt" 2>&1
"$old" bench --device nvidia --output "$out/old.json" >"$out/old.txt" 2>&1
fi
[ "$phase" = first ] && exit 0
"$new" bench --device nvidia --output "$out/new.json" >"$out/new.txt" 2>&1
"$new" diff "$out/old.json" "$out/new.json" >"$out/diff.txt" 2>&1
echo "diff exit $?" >>"$out/diff.txt"
