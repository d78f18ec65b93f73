#!/usr/bin/env bash
# Where blur's and constmem's coarsened kernels spend their time, without a
# profiler (NVIDIA's do not read OpenCL kernels): each strip shape is forced
# through a tuning database and run as it is and with a stage taken out,
# on copies of the kernels edited here (H200.md's method: time variants
# that leave one stage out, take differences). Those copies compute wrong
# images (status FAILED): only their times count.
#   full   the kernel as it is
#   nodiv  blur: an output byte is its centre byte (no vertical sums, no
#          division); constmem: an output is its input (no multiply-adds)
#   nosum  blur: a row's sums are its own bytes (no halo loads, no
#          horizontal sums)
#   copy   blur: both, the strip's loads and stores with no arithmetic
# On the GPU machine, after bench/gpu-env.sh: bench/roofs/stages.sh OUTDIR
# CLMEM (default .gpu-bin/clmem-new), DEVICE (nvidia), REPS (9), BLUR_SIZES
# (7680x4320 16384x16384), CONSTMEM_SIZES (8192).
set -uo pipefail
out=${1:?usage: bench/roofs/stages.sh OUTDIR}
clmem=${CLMEM:-.gpu-bin/clmem-new}
device=${DEVICE:-nvidia}
reps=${REPS:-9}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The kernel copies: cl/ with one edit each (python: exact text, or fail).
edit() { # NAME FILE OLD NEW [OLD NEW]...
    local name=$1 file=$2
    shift 2
    [ -d "$work/$name" ] || cp -r cl "$work/$name"
    python3 - "$work/$name/$file" "$@" <<'PY' || exit 1
import sys
path, pairs = sys.argv[1], sys.argv[2:]
s = open(path).read()
for old, new in zip(pairs[::2], pairs[1::2]):
    if s.count(old) != 1:
        sys.exit(f"{path}: expected one '{old}'")
    s = s.replace(old, new)
open(path, "w").write(s)
PY
}
div_old='word |= (pixVal / (BOX * BOX)) << (8 * n);'
div_new='word |= (win[BLUR_SIZE][4 * k + n] & 0xffu) << (8 * n);'
sum_old='            sum += e[j + b * CHANNELS];'
sum_new='            sum = e[HALO + j];'
halo_old='        e[k] = p[k - HALO];
        e[HALO + VEC + k] = p[VEC + k];'
halo_new='        e[k] = 0;
        e[HALO + VEC + k] = 0;'
cp -r cl "$work/full"
edit nodiv blur.cl "$div_old" "$div_new"
edit nosum blur.cl "$sum_old" "$sum_new" "$halo_old" "$halo_new"
edit copy blur.cl "$div_old" "$div_new" "$sum_old" "$sum_new" "$halo_old" "$halo_new"
edit nodiv constmem.cl 'sum[r] += f[fRow * FILTER_WIDTH + fCol + FILTER_RADIUS] * v;' 'sum[r] = v;'

# A tuning database that forces a strip shape (bench/experiments/lib.sh).
CLMEM=$clmem DEVICE=$device
. bench/experiments/lib.sh
force() { # WORKLOAD VEC ROWS STRIP_LOAD: a database of that shape alone
    force_variant "$work/xdg" "$1" coarsened GB/s VEC="$2" ROWS="$3" STRIP_LOAD="$4"
}

"$clmem" peak --device "$device" --reps "$reps" >"$out/peak.txt" 2>&1
echo "workload,size,shape,stage,GB/s,status,params" >"$out/stages.csv"
run() { # WORKLOAD SIZE SHAPE STAGE
    local csv
    csv=$(XDG_CACHE_HOME=$work/xdg "$clmem" run "$1" --variant coarsened --device "$device" \
        --size "$2" --reps "$reps" --kernel-dir "$work/$4" --format csv 2>>"$out/errors.txt" | tail -1)
    # metric (13th column), status (8th) and parameters (7th) of the result row
    echo "$1,$2,$3,$4,$(cut -d, -f13 <<<"$csv"),$(cut -d, -f8 <<<"$csv"),$(cut -d, -f7 <<<"$csv")" |
        tee -a "$out/stages.csv"
}
# Shapes VECxROWSxSTRIP_LOAD; the edits are in the aligned-load path
# (STRIP_LOAD 2), so a STRIP_LOAD 1 shape runs as it is only. The first
# shape's kernel then goes to bench/roofs/sass.sh (registers, instructions).
sweep() { # WORKLOAD "SHAPES" "SIZES" "STAGES": every shape at every size and stage
    local w=$1 shape size stage stages
    for shape in $2; do
        force "$w" ${shape//x/ }
        stages=$4
        [ "${shape##*x}" = 2 ] || stages=full
        for size in $3; do
            for stage in $stages; do
                run "$w" "$size" "$shape" "$stage"
            done
        done
        [ "$shape" = "${2%% *}" ] && XDG_CACHE_HOME=$work/xdg CLMEM=$clmem ONLY=$w bench/roofs/sass.sh "$out"
    done
}
sweep blur "4x4x2 4x2x2 8x2x2 16x1x2 16x2x2 4x2x1" "${BLUR_SIZES:-7680x4320 16384x16384}" \
    "full nodiv nosum copy"
sweep constmem "4x2x2 4x4x2 4x1x2 8x1x2 2x8x1" "${CONSTMEM_SIZES:-8192}" "full nodiv"
