#!/usr/bin/env bash
# blur coarsened's aligned path with and without a path of its own for
# strips whose rows are all inside the image (no check a row, rows reached
# by adding the row's bytes): kernel folders given, each strip shape forced
# through a tuning database, at the roofs' sizes, the copy peak beside.
# On the GPU machine after bench/gpu-env.sh:
#   bench/experiments/blur_interior.sh OUTDIR KERNEL_DIR...
# CLMEM (default .gpu-bin/clmem-new), DEVICE (nvidia), REPS (9).
set -uo pipefail
out=${1:?usage: blur_interior.sh OUTDIR KERNEL_DIR...}
shift
clmem=${CLMEM:-.gpu-bin/clmem-new}
device=${DEVICE:-nvidia}
reps=${REPS:-9}
mkdir -p "$out"
xdg=$(mktemp -d)
trap 'rm -rf "$xdg"' EXIT
field() {
    "$clmem" devices 2>/dev/null | awk -v want="$device" -v what="$1" '
        /^  device / { sub(/^  device [0-9]+:[0-9]+: /, ""); on = index(tolower($0), tolower(want)) > 0
                       if (on) name = $0 }
        on && /driver version/ { print (what == "name" ? name : $3); exit }'
}
name=$(field name)
driver=$(field driver)
"$clmem" peak --device "$device" --reps "$reps" >"$out/peak.txt" 2>&1
echo "kernels,shape,size,GB/s,status" >"$out/interior.csv"
for shape in 4x4x2 4x2x2 8x2x2 16x2x2; do
    mkdir -p "$xdg/clmem"
    chmod 700 "$xdg" "$xdg/clmem"
    python3 - "$xdg/clmem/tuning.json" "$name" "$driver" ${shape//x/ } <<'PY'
import json, sys
path, name, driver = sys.argv[1:4]
params = dict(zip(("VEC", "ROWS", "STRIP_LOAD"), map(int, sys.argv[4:7])))
entry = lambda c: {"device": name, "driver": driver, "workload": "blur", "variant": "coarsened",
                   "size_class": c, "metric": 1, "default_metric": 1, "params": params,
                   "unit": "GB/s", "builtin": False}
json.dump({"clmem_tuning": 1, "entries": [entry(f"N<={1 << i}") for i in range(4, 16)]},
          open(path, "w"))
PY
    chmod 600 "$xdg/clmem/tuning.json"
    for size in 16384x16384 7680x4320; do
        for dir in "$@"; do
            csv=$(XDG_CACHE_HOME=$xdg "$clmem" run blur --variant coarsened --device "$device" \
                --size "$size" --reps "$reps" --kernel-dir "$dir" --format csv 2>>"$out/errors.txt" | tail -1)
            echo "$(basename "$dir"),$shape,$size,$(cut -d, -f13 <<<"$csv"),$(cut -d, -f8 <<<"$csv")" |
                tee -a "$out/interior.csv"
        done
    done
done
