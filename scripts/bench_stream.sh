#!/usr/bin/env bash
# clmem's STREAM kernels beside BabelStream's OpenCL model on one device, in
# the same call. From the tree's root:
#   scripts/bench_stream.sh OUTDIR
# Writes OUTDIR/summary.txt (scripts/bench_stream_summary.py: per kernel,
# each side's fastest run, their ratio, whether within 5%) and
# OUTDIR/raw.tar.gz (every run's own output, which the summary reads back).
#
# For each size of SIZES (default BabelStream's 2^25 floats and 2^28, the
# larger skipped where the device cannot hold 3 arrays of it), ROUNDS times
# (default 2): clmem run stream, one variant at a time (copy, mul, add,
# triad, dot), then BabelStream --float -s N -n REPS --csv: alternating, so
# that drift between them shows in the rounds. Both run REPS timed runs
# (default 100, BabelStream's own) after one untimed. BabelStream runs its
# five kernels in turn, as it is usually quoted (BABEL_ORDER=classic), or
# one kernel a run with -o (BABEL_ORDER=each), as clmem runs them: in its
# order a kernel may find the one before's arrays in the cache.
#
# DEVICE (default gpu) is clmem's --device; BabelStream's index is the first
# line of its --list naming the same device (BABEL_DEVICE overrides). OpenCL
# is opened through OPENCL_ENV (a file sourced first) and bench/gpu-env.sh,
# as bench/hierarchy/run.sh does. CLMEM names clmem's binary (default: a
# release build in build-stream/, made here unless it is there); BABELSTREAM
# BabelStream's (default .carry/bin/babelstream-ocl, which
# scripts/build_babelstream.sh makes).
set -uo pipefail
out=${1:?usage: scripts/bench_stream.sh OUTDIR}
device=${DEVICE:-gpu}
sizes=${SIZES:-33554432 268435456}
rounds=${ROUNDS:-2}
reps=${REPS:-100}
order=${BABEL_ORDER:-classic}
case $order in
classic | each) ;;
*) echo "BABEL_ORDER is classic or each, not '$order'" >&2; exit 2 ;;
esac
mkdir -p "$out/raw"
raw=$out/raw
if [ -n "${OPENCL_ENV:-}" ]; then
    # shellcheck disable=SC1090
    . "$OPENCL_ENV" || { echo "cannot source OPENCL_ENV '$OPENCL_ENV'" >&2; exit 2; }
fi
# shellcheck disable=SC1091
. bench/gpu-env.sh
babel=${BABELSTREAM:-.carry/bin/babelstream-ocl}
[ -x "$babel" ] || {
    echo "no BabelStream at '$babel': scripts/build_babelstream.sh makes it" >&2
    exit 2
}
clmem=${CLMEM:-}
if [ -z "$clmem" ]; then
    clmem=build-stream/clmem
    if ! {
        { [ -f build-stream/build.ninja ] || meson setup build-stream --buildtype=release \
            -Dtests=disabled -Dclblast=disabled -Dopenblas=disabled -Dmpi=disabled; } &&
            ninja -C build-stream
    } >"$raw/build.txt" 2>&1; then
        echo "the build failed: $raw/build.txt" >&2
        exit 2
    fi
fi
"$clmem" devices >"$raw/devices.txt" 2>&1
cp "$babel.txt" "$raw/babelstream-build.txt" 2>/dev/null
"$babel" --list >"$raw/babel-list.txt" 2>&1

# The device clmem picks, by name, and its global memory in bytes: from a
# run at a small size (the name as its run file gives it).
"$clmem" run stream --variant copy --size 1024 --reps 1 --device "$device" --format json \
    >"$raw/probe.json" 2>"$raw/probe.txt" || {
    echo "clmem cannot run stream on '$device': $raw/probe.txt" >&2
    exit 2
}
name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["device"])' \
    "$raw/probe.json")
index=${BABEL_DEVICE:-$(awk -v name="$name" -F': ' \
    '$1 ~ /^[0-9]+$/ && substr($0, length($1) + 3) == name { print $1; exit }' "$raw/babel-list.txt")}
[ -n "$index" ] || {
    echo "BabelStream lists no device named '$name' ($raw/babel-list.txt): set BABEL_DEVICE" >&2
    exit 2
}
read -r memory alloc < <(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))["device"]
print(d.get("global_mem_bytes", 0), d.get("max_alloc_bytes", 0))' "$raw/probe.json" 2>/dev/null || echo 0 0)
echo "device '$name': clmem --device $device, BabelStream --device $index" | tee "$raw/pair.txt"

code=0
for n in $sizes; do
    # 3 arrays of n floats, each one allocation, and a quarter of the
    # memory spare for the runtime.
    if [ "${memory:-0}" -gt 0 ] && { [ $((3 * 4 * n)) -gt $((memory * 3 / 4)) ] ||
        [ $((4 * n)) -gt "${alloc:-0}" ]; }; then
        echo "N = $n: 3 arrays of $((4 * n)) bytes, the device has $memory (allocations up to $alloc): skipped" |
            tee -a "$raw/pair.txt"
        continue
    fi
    for round in $(seq 1 "$rounds"); do
        for v in copy mul add triad dot; do
            "$clmem" run stream --variant "$v" --size "$n" --reps "$reps" --warmup 1 \
                --device "$device" --format json --output "$raw/clmem-$n-r$round-$v.json" \
                2>>"$raw/clmem.txt" || { echo "clmem $v N=$n round $round: exit $?" >&2; code=1; }
        done
        alone=$order
        if [ "$order" = classic ]; then
            "$babel" --float -s "$n" -n "$reps" --device "$index" --csv \
                >"$raw/babel-$n-r$round.csv" 2>&1 || {
                # One kernel's failure loses all five: each alone instead
                # (its dot fails on a CPU device without fp64: its group
                # size is twice the double vector width, 0 there).
                echo "BabelStream N=$n round $round: exit $?, each kernel alone instead" |
                    tee -a "$raw/pair.txt" >&2
                mv "$raw/babel-$n-r$round.csv" "$raw/babel-$n-r$round-failed.txt"
                alone=each
            }
        fi
        if [ "$alone" = each ]; then
            for k in Copy Mul Add Triad Dot; do
                "$babel" --float -s "$n" -n "$reps" --device "$index" --csv -o "$k" \
                    >"$raw/babel-$n-r$round-${k,,}.csv" 2>&1 || {
                    echo "BabelStream $k N=$n round $round: exit $?" | tee -a "$raw/pair.txt" >&2
                    mv "$raw/babel-$n-r$round-${k,,}.csv" "$raw/babel-$n-r$round-${k,,}-failed.txt"
                    code=1
                }
            done
        fi
    done
done
{
    python3 scripts/bench_stream_summary.py "$raw" && echo "run notes:" && sed 's/^/  /' "$raw/pair.txt"
} | tee "$out/summary.txt"
[ "${PIPESTATUS[0]}" = 0 ] || code=1
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$raw"
exit $code
