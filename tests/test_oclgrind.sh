#!/usr/bin/env bash
# Every variant of every workload (as 'clmem list' names them) runs under
# Oclgrind at small odd sizes: no data race, no uninitialized or out-of-bounds
# access, no OpenCL API error. Oclgrind prints its diagnostics to stderr, and
# a clean clmem run prints nothing there, so any stderr output fails a run.
# The racy atomics variant must be reported racy, and a planted transpose
# kernel without its barrier (made here from cl/transpose.cl) must be reported too.
# Env: CLMEM_BIN, OCLGRIND (empty: not installed, the test skips), SOURCE_DIR.
set -u

if [ -z "${OCLGRIND:-}" ]; then
    echo "oclgrind is not installed (apt-get install oclgrind): kernel checks skipped"
    exit 77 # meson's SKIP
fi
clmem=${CLMEM_BIN:?CLMEM_BIN not set}
src=${SOURCE_DIR:?SOURCE_DIR not set}

# Sizes per workload: the first for every variant, the next ones for the
# variants the first one skips (matmul tiled needs multiples of its tile).
# A workload that 'clmem list' names and this table lacks fails the test.
declare -A sizes=(
    [matmul]="33x17x9 64x32x96"
    [transpose]="33x17"
    [reduce]="1000"
    [dot]="1000"
    [pi]="1000"
    [atomics]="1000"
    [blur]="17x9"
    [constmem]="17x9"
    [coalescing]="100"
    [pitched]="33x7"
    [peak]="1000"
)

# Oclgrind 21.10's --uninitialized plugin does not know LLVM's 'freeze'
# instruction (a fatal error in matmul regblock and blur tiled), so kernels
# are built unoptimized. Two variants run without the plugin, where it fails
# on its own: pitched's clEnqueueWriteBufferRect stores one row at a time, and
# the plugin gives a buffer's shadow the size of each host store from the
# buffer's start, so every row after the first reads as uninitialized; peak
# fma crashes the plugin when optimized and takes over 5 minutes unoptimized.
checks=(--data-races --uninitialized --check-api --build-options -cl-opt-disable)
declare -A own_checks=(
    [pitched/pitched]="--data-races --check-api --build-options -cl-opt-disable"
    [peak/fma]="--data-races --check-api"
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
    local args=(run "$workload" --variant "$variant" --size "$size" --device oclgrind
        --reps 1 --warmup 0 --format csv)
    [ -n "$dir" ] && args+=(--kernel-dir "$dir")
    out=$("$OCLGRIND" "${flags[@]}" "$clmem" "${args[@]}" 2>"$tmp/err")
    code=$?
    err=$(cat "$tmp/err")
}

# The CSV's status column (8th) of every result row, one per line.
statuses() { printf '%s\n' "$out" | tail -n +2 | cut -d, -f8; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mapfile -t variants < <("$clmem" list | awk '/^  [a-z]/ {print $1 "/" $2}')
[ ${#variants[@]} -gt 0 ] || fail "'clmem list' named no variants"

checked=0
for wv in "${variants[@]}"; do
    workload=${wv%/*}
    variant=${wv#*/}
    if [ -z "${sizes[$workload]:-}" ]; then
        fail "no Oclgrind size for workload '$workload': add one to tests/test_oclgrind.sh"
        continue
    fi
    ran=""
    for size in ${sizes[$workload]}; do
        start=$SECONDS
        run_variant "$workload" "$variant" "$size"
        # Refused before any work (exit 2, clmem's one line): a textbook
        # kernel that cannot take this size, or a library clmem lacks.
        if [ "$code" = 2 ] && ! grep -qv '^clmem: ' <<<"$err"; then
            if grep -q "built without" <<<"$err"; then
                ran="${err#clmem: }"
                break
            fi
            continue
        fi
        if [ "$wv" = atomics/racy ]; then
            # The lecture's race: Oclgrind must see it, and nothing else.
            if ! grep -q "data race" <<<"$err"; then
                fail "$wv $size: Oclgrind reported no data race for the racy kernel"
                ran=yes
                break
            elif grep -v -e "data race" -e $'^\t' -e "^$" -e "errors generated" <<<"$err" |
                grep -q .; then
                fail "$wv $size: Oclgrind reported more than the race:"$'\n'"$(head -c 4000 <<<"$err")"
                ran=yes
                break
            fi
        elif [ -n "$err" ]; then
            fail "$wv $size (exit $code):"$'\n'"$(head -c 4000 <<<"$err")"
            ran=yes
            break
        fi
        if [ "$code" != 0 ]; then
            fail "$wv $size: exit $code"
            ran=yes
            break
        fi
        if statuses | grep -qv -e '^ok$' -e '^skipped$'; then
            fail "$wv $size: a result is not ok:"$'\n'"$out"
            ran=yes
            break
        fi
        if statuses | grep -qx ok; then
            note=""
            [ "$wv" = atomics/racy ] && note=", its race reported"
            echo "ok   $wv $size ($((SECONDS - start)) s$note)"
            checked=$((checked + 1))
            ran=yes
            break
        fi
    done
    case "$ran" in
    yes) ;;
    "") fail "$wv: refused or skipped at every size (${sizes[$workload]}), its kernel was not checked" ;;
    *) echo "--   $wv not checked: $ran" ;;
    esac
done

# The planted bug: cl/transpose.cl with transposeCoalesced's first barrier
# taken out must be reported. Made here, so it follows the real kernel.
broken=$tmp/broken-kernels
mkdir -p "$broken"
awk '/void transposeCoalesced/ { inside = 1 }
     inside && !done && /^ *barrier\(CLK_LOCAL_MEM_FENCE\);$/ { done = 1; next }
     { print }' "$src/cl/transpose.cl" >"$broken/transpose.cl"
removed=$(diff "$src/cl/transpose.cl" "$broken/transpose.cl" | grep -c '^<')
if [ "$removed" != 1 ]; then
    fail "could not take transposeCoalesced's first barrier out of cl/transpose.cl"
fi
run_variant transpose coalesced 33x17 "$broken"
if grep -q "data race" <<<"$err"; then
    echo "ok   the planted missing barrier is reported as a data race"
else
    fail "the planted missing barrier was not reported as a data race"
fi

echo "$checked variants checked under Oclgrind in $SECONDS s"
exit $failed
