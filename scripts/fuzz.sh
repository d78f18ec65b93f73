#!/usr/bin/env bash
# Fuzzes what clmem parses from outside (tests/fuzz/fuzz_*.c: --size, netpbm
# images, the CLI's options) with libFuzzer, ASan and UBSan (clang), each
# harness for SECONDS (default 60) on a corpus seeded from
# tests/fuzz/corpus/NAME/ plus tests/fuzz/regressions/NAME/.
# usage: scripts/fuzz.sh [SECONDS] [NAME...]   (NAME: size, netpbm, options)
# Work goes to build-fuzz/ (FUZZ_OUT): the grown corpus in corpus/NAME/,
# crash inputs in crashes/NAME/, each run's log in NAME.log. Exit 1 when a
# harness found something: fix it, then copy the input to
# tests/fuzz/regressions/NAME/ so 'meson test fuzz_NAME' replays it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(size netpbm options tuning)
out=${FUZZ_OUT:-build-fuzz}
cc=${CLANG:-clang}
jobs=$(nproc 2>/dev/null || echo 2)

command -v "$cc" >/dev/null || {
    echo "clmem fuzz: '$cc' not found (apt-get install clang; it has libFuzzer)" >&2
    exit 2
}

cflags=(-std=c11 -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=all
        -D_POSIX_C_SOURCE=200809L -DCL_TARGET_OPENCL_VERSION=120 -DCLMEM_VERSION=\"fuzz\"
        -DCLMEM_INSTALLED_KERNEL_DIR=\"/nonexistent\" -DCLMEM_SOURCE_KERNEL_DIR=\"$PWD/cl\"
        -Iinclude -Isrc -Isrc/cli -I"$out/gen" $(pkg-config --cflags libcjson OpenCL))
libs=($(pkg-config --libs libcjson OpenCL) -lm)
if pkg-config --exists clblast; then
    cflags+=(-DCLMEM_HAVE_CLBLAST $(pkg-config --cflags clblast))
    libs+=($(pkg-config --libs clblast))
fi

# The headers Meson makes: the workloads' list (from meson.build's
# `workloads`) and the run files' git description.
mkdir -p "$out/gen"
list=$(sed -n "/^workloads = \[/,/\]/p" meson.build | grep -o "'[a-z_0-9]*'" | tr -d "'" |
    sed 's/.*/X(&)/' | tr '\n' ' ')
sed "s/@WORKLOADS@/$list/" src/workloads/workload_list.h.in >"$out/gen/workload_list.h"
sed "s/@VCS_TAG@/(not a git checkout)/" src/report/git_describe.h.in >"$out/gen/git_describe.h"

# The library and the CLI's parsing once, instrumented (fuzzer-no-link:
# coverage without a main): every layer of src/ but MPI, and src/cli
# without main.c.
sources=(src/base/*.c src/io/*.c src/opencl/*.c src/harness/*.c src/report/*.c src/compare/*.c
         src/workloads/*.c $(ls src/cli/*.c | grep -v '/main\.c$'))
rm -rf "$out/obj" "$out/libclmem-fuzz.a"
mkdir -p "$out/obj"
for s in "${sources[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    "$cc" -fsanitize=fuzzer-no-link,address,undefined "${cflags[@]}" -c "$s" \
        -o "$out/obj/$(echo "$s" | tr / _).o" &
done
wait
if [ "$(ls "$out"/obj/*.o | wc -l)" -ne "${#sources[@]}" ]; then
    echo "clmem fuzz: the library did not build (see the errors above)" >&2
    exit 2
fi
ar rcs "$out/libclmem-fuzz.a" "$out"/obj/*.o

found=0
printf '%-8s %10s %8s %9s %s\n' harness executions seconds corpus result
for name in "${names[@]}"; do
    harness=tests/fuzz/fuzz_$name.c
    [ -f "$harness" ] || { echo "clmem fuzz: no harness '$harness'" >&2; exit 2; }
    "$cc" -fsanitize=fuzzer,address,undefined "${cflags[@]}" "$harness" "$out/libclmem-fuzz.a" \
        "${libs[@]}" -o "$out/fuzz_$name"
    mkdir -p "$out/corpus/$name" "$out/crashes/$name"
    dirs=("$out/corpus/$name" "tests/fuzz/corpus/$name")
    [ -d "tests/fuzz/regressions/$name" ] && dirs+=("tests/fuzz/regressions/$name")
    start=$(date +%s)
    rc=0
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/fuzz_$name" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$out/crashes/$name/" "${dirs[@]}" \
        >"$out/$name.log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -1)
    result=ok
    if [ $rc -ne 0 ]; then
        found=1
        result="FOUND (exit $rc): $(ls -t "$out/crashes/$name" | head -1 | sed "s|^|$out/crashes/$name/|"), see $out/$name.log"
    fi
    printf '%-8s %10s %8s %9s %s\n' "$name" "${execs:-?}" "$(($(date +%s) - start))" \
        "$(ls "$out/corpus/$name" | wc -l)" "$result"
done
exit $found
