#!/usr/bin/env bash
# blur coarsened's aligned path with and without a path of its own for
# strips whose rows are all inside the image (no check a row, rows reached
# by adding the row's bytes): kernel folders given, each strip shape forced
# through a tuning database, at the roofs' sizes, the copy peak beside.
# On the GPU machine after bench/gpu-env.sh:
#   bench/experiments/blur_interior.sh OUTDIR KERNEL_DIR...
# CLMEM (default .gpu-bin/clmem-new), DEVICE (nvidia), REPS (9), SHAPES
# (VECxROWSxSTRIP_LOAD ..., default "4x4x2 4x2x2 8x2x2 16x2x2"), SIZES
# (default "16384x16384 7680x4320").
set -uo pipefail
out=${1:?usage: blur_interior.sh OUTDIR KERNEL_DIR...}
shift
clmem=${CLMEM:-.gpu-bin/clmem-new}
device=${DEVICE:-nvidia}
reps=${REPS:-9}
mkdir -p "$out"
xdg=$(mktemp -d)
trap 'rm -rf "$xdg"' EXIT
CLMEM=$clmem DEVICE=$device
. "$(dirname "$0")/lib.sh"
"$clmem" peak --device "$device" --reps "$reps" >"$out/peak.txt" 2>&1
echo "kernels,shape,size,GB/s,status" >"$out/interior.csv"
for shape in ${SHAPES:-4x4x2 4x2x2 8x2x2 16x2x2}; do
    v=(${shape//x/ })
    force_variant "$xdg" blur coarsened GB/s VEC="${v[0]}" ROWS="${v[1]}" STRIP_LOAD="${v[2]}"
    for size in ${SIZES:-16384x16384 7680x4320}; do
        for dir in "$@"; do
            csv=$(XDG_CACHE_HOME=$xdg "$clmem" run blur --variant coarsened --device "$device" \
                --size "$size" --reps "$reps" --kernel-dir "$dir" --format csv 2>>"$out/errors.txt" | tail -1)
            echo "$(basename "$dir"),$shape,$size,$(cut -d, -f13 <<<"$csv"),$(cut -d, -f8 <<<"$csv")" |
                tee -a "$out/interior.csv"
        done
    done
done
