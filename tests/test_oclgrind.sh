#!/usr/bin/env bash
# Every variant of every workload (as 'clmem list' names them) runs under
# Oclgrind at small odd sizes: no data race, no uninitialized or out-of-bounds
# access, no OpenCL API error. Oclgrind prints its diagnostics to stderr, and
# a clean clmem run prints nothing there, so any stderr output fails a run.
#
# usage: test_oclgrind.sh GROUP    (matmul, memory, other, hierarchy or edges)
# The workloads are split into groups, each a meson test of its own
# (oclgrind_matmul, ...) with its own timeout; every run also has its own
# time limit ($OCLGRIND_RUN_LIMIT seconds, default 100), and one that runs
# past it is a failure named here, so a slow kernel cannot hide the others.
# A workload's group follows from its metric's unit, as 'clmem list' gives
# it: matmul holds those counted in flops (the slowest under Oclgrind),
# memory those in bytes per second, other the rest. A new workload needs
# no edit here. Group edges runs only the sizes that extra_sizes adds (a
# few seconds each, so in the default suite: oclgrind_edges).
#
# Each group also checks that Oclgrind still sees a planted bug, made here
# from cl/ so it follows the real kernels: matmul, regblock's float4 load
# reading one float past a row (load4's .w guard '<' made '<='); memory,
# transposeCoalesced without its first barrier (a data race); other, the
# racy atomics variant, which must be reported as a race and nothing else;
# hierarchy, hier_chase_local reading one word past its input; edges,
# splitk's clamped edge load reading one row past M (min(row, nrows - 1)
# made min(row, nrows)).
# Env: CLMEM_BIN, OCLGRIND (empty: not installed, the test skips), SOURCE_DIR.
set -u

group=${1:-}
case "$group" in
matmul | memory | other | hierarchy | edges) ;;
*)
    echo "usage: test_oclgrind.sh matmul|memory|other|hierarchy|edges" >&2
    exit 2
    ;;
esac
if [ -z "${OCLGRIND:-}" ]; then
    echo "oclgrind is not installed (apt-get install oclgrind): kernel checks skipped"
    exit 77 # meson's SKIP
fi
clmem=${CLMEM_BIN:?CLMEM_BIN not set}
src=${SOURCE_DIR:?SOURCE_DIR not set}
limit=${OCLGRIND_RUN_LIMIT:-100}

# "WORKLOAD UNIT" per workload, from the JSON listing (the CSV's rows are
# variants, without the unit).
declare -A group_of=()
while read -r workload unit; do
    case "$workload/$unit" in
    # 23 probes, 20 s a run under Oclgrind on 2 busy cores: a group of its own.
    hierarchy/*) group_of[$workload]=hierarchy ;;
    */*FLOP/s) group_of[$workload]=matmul ;;
    */*B/s) group_of[$workload]=memory ;;
    *) group_of[$workload]=other ;;
    esac
done < <("$clmem" list --format json |
    python3 -c 'import json, sys
for w in json.load(sys.stdin):
    print(w["workload"], w["unit"])')

# The sizes each variant runs at are the workload's data (check_sizes in
# src/workloads/*.c: small sizes that reach every edge of the kernels), read
# from `clmem list --format csv`; each variant runs at every size of its
# list that it takes (a textbook kernel refuses the others) and must run at
# one at least.

# Sizes beyond a variant's check_sizes, run in its group and in group
# edges: splitk's clamped float4 loads (K and N multiples of 4, a block
# across P's bottom edge, as Oclgrind's plan cuts the tile to 36 rows) in
# whole K steps (33x68x16) and before a partial last one (33x68x20): no
# check size takes them, and a load one row past M went unseen.
declare -A extra_sizes=(
    [matmul/splitk]="33x68x16 33x68x20"
)

# Oclgrind 21.10's --uninitialized plugin does not know LLVM's 'freeze'
# instruction (a fatal error in matmul regblock and blur tiled), so kernels
# are built unoptimized. pitched and vec4 run without the plugin, where it fails on
# its own: its clEnqueueWriteBufferRect stores one row at a time, and the
# plugin gives a buffer's shadow the size of each host store from the
# buffer's start, so every row after the first reads as uninitialized.
checks=(--data-races --uninitialized --check-api --build-options -cl-opt-disable)
# reduce's and dot's one_pass: their last group reads the partials that
# the other groups wrote, ordered by an atomic counter and a fence, which
# OpenCL 1.2 does not promise (and Oclgrind reports as races between
# groups); they run without the race plugin, the rest of the checks on.
declare -A own_checks=(
    [pitched/pitched]="--data-races --check-api --build-options -cl-opt-disable"
    [pitched/vec4]="--data-races --check-api --build-options -cl-opt-disable"
    [reduce/one_pass]="--uninitialized --check-api --build-options -cl-opt-disable"
    [dot/one_pass]="--uninitialized --check-api --build-options -cl-opt-disable"
    # Oclgrind 21.10's --uninitialized plugin takes every read_imagef for
    # an uninitialized value (a minimal program's crashed under it).
    [hierarchy/image_read]="--data-races --check-api --build-options -cl-opt-disable"
)

failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

# Runs one variant under Oclgrind at one size; sets $code, $out (CSV), $err.
run_variant() {
    local workload=$1 variant=$2 size=$3 dir=${4:-}
    local flags
    if [ -n "${own_checks[$workload/$variant]:-}" ]; then
        read -ra flags <<<"${own_checks[$workload/$variant]}"
    else
        flags=("${checks[@]}")
    fi
    # --quiet: stderr is Oclgrind's reports and clmem's errors alone, not
    # each result's line.
    local args=(run "$workload" --variant "$variant" --size "$size" --device oclgrind
        --reps 1 --warmup 0 --format csv --quiet)
    [ -n "$dir" ] && args+=(--kernel-dir "$dir")
    out=$(timeout "$limit" "$OCLGRIND" "${flags[@]}" "$clmem" "${args[@]}" 2>"$tmp/err")
    code=$?
    err=$(cat "$tmp/err")
}

# The CSV's status column (8th) of every result row, one per line.
statuses() { printf '%s\n' "$out" | tail -n +2 | cut -d, -f8; }

# A copy of cl/ in $1 whose file $2 has its first line that contains $4
# after the line that contains $3 edited by the awk statement $5 (which may
# be 'next', to take the line out); fails unless exactly one line changed.
plant() {
    local dir=$1 file=$2 after=$3 line=$4 edit=$5
    mkdir -p "$dir"
    cp "$src"/cl/*.cl "$src"/cl/*.h "$dir"/
    AFTER=$after LINE=$line awk '
        index($0, ENVIRON["AFTER"]) { inside = 1 }
        inside && !done && index($0, ENVIRON["LINE"]) { done = 1; '"$edit"' }
        { print }' "$src/cl/$file" >"$dir/$file"
    local changed
    changed=$(diff "$src/cl/$file" "$dir/$file" | grep -c '^<')
    [ "$changed" = 1 ] || fail "could not plant the bug in cl/$file ($changed lines changed)"
}

# Runs $1 $2 at $3 on the kernels of $tmp/broken (plant's): Oclgrind must
# report $4 (a grep pattern); $5 names the planted bug, $6 what it is
# reported as.
expect_reported() {
    local workload=$1 variant=$2 size=$3 pattern=$4 what=$5 as=$6
    run_variant "$workload" "$variant" "$size" "$tmp/broken"
    if grep -q "$pattern" <<<"$err"; then
        echo "ok   $what is reported as $as"
    else
        fail "$what was not reported as $as (exit $code):"$'\n'"$(head -c 2000 <<<"$err")"
    fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# workload,variant,check_sizes per line (the CSV's columns 1, 2 and 6;
# no field before the summary holds a comma).
mapfile -t variants < <("$clmem" list --format csv | tail -n +2 | cut -d, -f1,2,6)
[ ${#variants[@]} -gt 0 ] || fail "'clmem list --format csv' named no variants"

checked=0
for row in "${variants[@]}"; do
    IFS=, read -r workload variant list <<<"$row"
    wv=$workload/$variant
    if [ -z "${group_of[$workload]:-}" ]; then
        fail "no Oclgrind group for workload '$workload': 'clmem list --format json' gave no unit"
        continue
    fi
    if [ "$group" = edges ]; then
        [ -n "${extra_sizes[$wv]:-}" ] || continue
        list=${extra_sizes[$wv]}
    else
        [ "${group_of[$workload]}" = "$group" ] || continue
        if [ -z "$list" ]; then
            fail "$wv has no check_sizes (src/workloads/$workload.c)"
            continue
        fi
        list="$list ${extra_sizes[$wv]:-}"
    fi
    ran=""
    for size in $list; do
        start=$SECONDS
        run_variant "$workload" "$variant" "$size"
        if [ "$code" = 124 ]; then
            fail "$wv $size: still running after ${limit} s (OCLGRIND_RUN_LIMIT)"
            ran=yes
            continue
        fi
        # Refused before any work (exit 2, clmem's one line): a textbook
        # kernel that cannot take this size, a library clmem lacks, or an
        # extension the simulated device lacks (cl_khr_fp16: said, not run).
        if [ "$code" = 2 ] && ! grep -qv '^clmem: ' <<<"$err"; then
            if grep -q -e "built without" -e "which '.*' does not report" <<<"$err"; then
                ran="${err#clmem: }"
                break
            fi
            echo "--   $wv $size refused: ${err#clmem: }"
            continue
        fi
        ran=yes
        if [ "$wv" = atomics/racy ]; then
            # The lecture's race: Oclgrind must see it, and nothing else.
            if ! grep -q "data race" <<<"$err"; then
                fail "$wv $size: Oclgrind reported no data race for the racy kernel"
                continue
            elif grep -v -e "data race" -e $'^\t' -e "^$" -e "errors generated" <<<"$err" |
                grep -q .; then
                fail "$wv $size: Oclgrind reported more than the race:"$'\n'"$(head -c 4000 <<<"$err")"
                continue
            fi
        elif [ -n "$err" ]; then
            fail "$wv $size (exit $code):"$'\n'"$(head -c 4000 <<<"$err")"
            continue
        fi
        if [ "$code" != 0 ]; then
            fail "$wv $size: exit $code"
            continue
        fi
        if statuses | grep -qv -e '^ok$' -e '^skipped$'; then
            fail "$wv $size: a result is not ok:"$'\n'"$out"
            continue
        fi
        if statuses | grep -qx ok; then
            note=""
            [ "$wv" = atomics/racy ] && note=", its race reported"
            echo "ok   $wv $size ($((SECONDS - start)) s$note)"
            checked=$((checked + 1))
        fi
    done
    case "$ran" in
    yes) ;;
    "") fail "$wv: refused or skipped at every size ($list), its kernel was not checked" ;;
    *) echo "--   $wv not checked: $ran" ;;
    esac
done

# The group's planted bug must be reported.
case "$group" in
matmul)
    # load4's fourth load guarded with '<=': at 7x7x7 (K = 7, 3 mod 4) the
    # last row of M is read one float past its end.
    plant "$tmp/broken" matmul_regblock.cl "static float4 load4(" "v.w = col + 3 < ncols" \
        'sub(/col \+ 3 < ncols/, "col + 3 <= ncols")'
    expect_reported matmul regblock 7x7x7 "Invalid read" "the planted '<=' in regblock's load4" \
        "an invalid read"
    # Every variant at once, in one program per file, as a plain run: Oclgrind
    # charges a kernel the local memory of each kernel whose name begins with
    # its own, and regblock's failed so (CL_OUT_OF_RESOURCES) until no name
    # in matmul_regblock.cl began with another.
    run_variant matmul all 7x7x7
    if [ "$code" != 0 ] || statuses | grep -qv -e '^ok$' -e '^skipped$'; then
        fail "matmul, every variant at 7x7x7 (exit $code):"$'\n'"$(head -c 2000 <<<"$err")"
    else
        echo "ok   matmul, every variant at 7x7x7"
    fi
    ;;
memory)
    # transposeCoalesced without its first barrier.
    plant "$tmp/broken" transpose.cl "void transposeCoalesced" "barrier(CLK_LOCAL_MEM_FENCE);" \
        'next'
    expect_reported transpose coalesced 33x17 "data race" "the planted missing barrier" \
        "a data race"
    ;;
other) ;; # atomics racy above: a race that must be reported
edges)
    # splitk's clamped load of M's rows clamped to one past the last: at
    # 33x68x16 the rows of the tile past P's 33 read past M's end.
    plant "$tmp/broken" matmul_regblock.cl "static float4 load4(" "min(row, nrows - 1)" \
        'sub(/min\(row, nrows - 1\)/, "min(row, nrows)")'
    expect_reported matmul splitk 33x68x16 "Invalid read" \
        "the planted clamp to one row past M in splitk's edge loads" "an invalid read"
    ;;
hierarchy)
    # hier_chase_local copying the cycle into __local memory one word on:
    # the last work-item reads past the end of next[].
    plant "$tmp/broken" hierarchy.cl "void hier_chase_local(" "tile[i] = next[i];" \
        'sub(/next\[i\]/, "next[i + 1]")'
    expect_reported hierarchy chase_local 300 "Invalid read" \
        "the planted read past the end of hier_chase_local's next[]" "an invalid read"
    ;;
esac

echo "$checked variant runs of group '$group' checked under Oclgrind in $SECONDS s"
exit $failed
