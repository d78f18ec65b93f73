#!/usr/bin/env bash
# blur's and constmem's coarsened strips, each shape forced through a
# tuning database, at the size the roof is read at, against the copy peak
# measured once before them (`clmem peak`), every result verified. A shape
# VECxROWSxSTRIP_LOAD runs the tree's kernels (cl/); VECxROWSxSTRIP_LOAD@DIR
# those of the folder DIR (say, the kernels before a change, to compare in
# the same call). On the GPU machine from the tree's root, after a release
# build:
#   bench/roofs/strips.sh OUTDIR
# CLMEM (default build-gpu/clmem), DEVICE (nvidia), REPS (9), BLUR_SHAPES,
# CONSTMEM_SHAPES (lists of shapes), BLUR_SIZE (16384x16384), CONSTMEM_SIZE
# (16384).
set -uo pipefail
out=${1:?usage: bench/roofs/strips.sh OUTDIR}
CLMEM=${CLMEM:-build-gpu/clmem}
DEVICE=${DEVICE:-nvidia}
reps=${REPS:-9}
mkdir -p "$out"
. bench/gpu-env.sh
. bench/experiments/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
"$CLMEM" peak --device "$DEVICE" --reps "$reps" --quiet --format csv --output "$out/peak.csv" \
    2>"$out/errors.txt"
copy=$(python3 -c 'import csv, sys
print(next(r["metric"] for r in csv.DictReader(open(sys.argv[1])) if r["variant"] == "copy"))' \
    "$out/peak.csv") # GB/s
echo "copy peak: $copy GB/s" | tee "$out/table.txt"
echo "workload,size,shape,kernels,GB/s,of_copy,status" >"$out/strips.csv"
run() { # WORKLOAD SIZE SHAPE[@DIR]
    local csv gbs status dir=cl
    case $3 in *@*) dir=${3#*@} ;; esac
    set -- "$1" "$2" "${3%@*}" "$dir"
    force_variant "$work/xdg" "$1" coarsened GB/s VEC="${3%%x*}" \
        ROWS="$(cut -dx -f2 <<<"$3")" STRIP_LOAD="${3##*x}"
    csv=$(XDG_CACHE_HOME=$work/xdg "$CLMEM" run "$1" --variant coarsened --device "$DEVICE" \
        --size "$2" --reps "$reps" --kernel-dir "$4" --quiet --format csv 2>>"$out/errors.txt")
    # the result row's metric and status (csv: a device's name may hold a comma)
    read -r gbs status < <(python3 -c 'import csv, sys
r = list(csv.DictReader(sys.stdin))
print(r[-1]["metric"] or 0, r[-1]["status"]) if r else print(0, "none")' <<<"$csv")
    echo "$1,$2,$3,$4,$gbs,$(awk -v g="$gbs" -v c="$copy" 'BEGIN { printf "%.3f", g / c }'),$status" |
        tee -a "$out/strips.csv"
}
for shape in ${BLUR_SHAPES-4x4x2 4x8x2 4x16x2 8x4x2 8x8x2 16x4x2 16x8x2}; do
    run blur "${BLUR_SIZE:-16384x16384}" "$shape"
done
for shape in ${CONSTMEM_SHAPES-4x2x2 4x4x2 8x2x2 8x4x2}; do
    run constmem "${CONSTMEM_SIZE:-16384}" "$shape"
done
sed 's/,/\t/g' "$out/strips.csv" >>"$out/table.txt"
