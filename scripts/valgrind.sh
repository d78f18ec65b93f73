#!/usr/bin/env bash
# valgrind memcheck over the CLI's main paths on PoCL: devices, list, run,
# bench and a usage error. Fails (exit 1) on any memcheck error or definite
# leak outside the OpenCL driver (scripts/valgrind.supp names what is
# skipped: libOpenCL, PoCL and LLVM internals only). Needs a plain build
# (./scripts/setup.sh); CLMEM_BIN overrides the binary. Logs go to
# $VALGRIND_LOGS (default build/valgrind). Kernels PoCL has not cached yet are
# compiled under valgrind, which is slow: run the tests first to warm the cache.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${CLMEM_BIN:-build/clmem}
logs=${VALGRIND_LOGS:-build/valgrind}
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not installed" >&2; exit 3; }
[ -x "$bin" ] || { echo "valgrind.sh: no '$bin' (run ./scripts/setup.sh)" >&2; exit 3; }
mkdir -p "$logs"

# name, expected exit code, then clmem's arguments
cases=(
    "devices|0|devices"
    "list|0|list"
    "run|0|run matmul --size 33 --device cpu"
    "bench|0|bench --workloads transpose,reduce --reps 1 --device cpu"
    "usage|2|run matmul --size 0x7"
)
failed=0
for c in "${cases[@]}"; do
    IFS='|' read -r name want args <<<"$c"
    start=$SECONDS
    # shellcheck disable=SC2086
    valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite \
        --error-exitcode=99 --num-callers=40 --suppressions=scripts/valgrind.supp \
        --log-file="$logs/$name.log" "$bin" $args >"$logs/$name.out" 2>"$logs/$name.err"
    rc=$?
    summary=$(grep -h "ERROR SUMMARY" "$logs/$name.log" | sed 's/^==[0-9]*== //')
    if [ "$rc" -ne "$want" ]; then
        echo "valgrind.sh: FAIL '$bin $args': exit $rc, expected $want ($summary; see $logs/$name.log)" >&2
        failed=1
    else
        echo "valgrind.sh: ok   '$bin $args' in $((SECONDS - start))s ($summary)" >&2
    fi
done
exit $failed
