# Sourced by the experiment scripts (with CLMEM and DEVICE set).
#
# device_field name|driver: the name or driver version of the first
# device whose name holds $DEVICE, as the tuning database keys them.
device_field() {
    "$CLMEM" devices 2>/dev/null | awk -v want="$DEVICE" -v what="$1" '
        /^  device / { sub(/^  device [0-9]+:[0-9]+: /, ""); on = index(tolower($0), tolower(want)) > 0
                       if (on) name = $0 }
        on && /driver version/ { print (what == "name" ? name : $3); exit }'
}

# force_variant DIR WORKLOAD VARIANT UNIT NAME=VALUE...: a tuning database
# in DIR/clmem (run with XDG_CACHE_HOME=DIR) that gives WORKLOAD's VARIANT
# these parameters on $DEVICE at every size class up to 32768, as a tune
# result would; $CLMEM names the device and its driver.
force_variant() {
    local dir=$1 workload=$2 variant=$3 unit=$4
    shift 4
    mkdir -p "$dir/clmem"
    chmod 700 "$dir" "$dir/clmem"
    python3 - "$dir/clmem/tuning.json" "$(device_field name)" "$(device_field driver)" \
        "$workload" "$variant" "$unit" "$@" <<'PY'
import json, sys
path, name, driver, workload, variant, unit = sys.argv[1:7]
params = {k: int(v) for k, v in (a.split("=") for a in sys.argv[7:])}
entry = lambda c: {"device": name, "driver": driver, "workload": workload,
                   "variant": variant, "size_class": c, "metric": 1, "default_metric": 1,
                   "params": params, "unit": unit, "builtin": False}
json.dump({"clmem_tuning": 1, "entries": [entry(f"N<={1 << i}") for i in range(4, 16)]},
          open(path, "w"))
PY
    chmod 600 "$dir/clmem/tuning.json"
}

# csv_line FILE SIZE LABEL [WIDTH]: the line of a clmem CSV's first result
# (size, label padded to WIDTH (24), GFLOP/s, status, note), or "(no
# result)" where there is none.
csv_line() {
    python3 - "$1" "$2" "$3" "${4:-24}" <<'PY'
import csv, os, sys
path, size, label, width = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
r = next(csv.DictReader(open(path)), None) if os.path.exists(path) else None
if not r:
    print(f"{size:>16} {label:>{width}}  (no result)")
else:
    g = float(r["metric"]) if r["metric"] not in ("", "nan") else float("nan")
    print(f"{size:>16} {label:>{width}} {g:9.0f}  {r['status']:6}  {r['note']}")
PY
}

# force_params DIR TSM TSN TSK WPTM WPTN: regblock's parameters so.
force_params() {
    force_variant "$1" matmul regblock GFLOP/s TSM="$2" TSN="$3" TSK="$4" WPTM="$5" WPTN="$6"
}

# run_configs OUT SIZE... -- CONFIG...: each CONFIG ("LABEL KERNEL_DIR
# DB": a label, a kernel folder, a folder under $cache holding a tuning
# database or none) runs regblock at each SIZE (20 runs, verified) into
# OUT/LABEL-SIZE.csv; one line each (size, label, GFLOP/s, status, note)
# into OUT/table.txt and the output.
run_configs() {
    local out=$1 sizes=() s c label dir db
    shift
    while [ "$1" != -- ]; do sizes+=("$1"); shift; done
    shift
    for s in "${sizes[@]}"; do
        for c in "$@"; do
            read -r label dir db <<<"$c"
            XDG_CACHE_HOME=$cache/$db "$CLMEM" run matmul --device "$DEVICE" --size "$s" \
                --variant regblock --reps 20 --kernel-dir "$dir" --format csv \
                --output "$out/$label-$s.csv" || echo "$label at $s failed: $?" >&2
            python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print("%16s %14s %9.0f %s %s" % (r["size"], sys.argv[2], float(r["metric"]), r["status"], r["note"]))' \
                "$out/$label-$s.csv" "$label"
        done
    done | tee "$out/table.txt"
}
