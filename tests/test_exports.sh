#!/usr/bin/env bash
# libclmem exports what clmem.h declares with CLMEM_API and nothing else
# (its layers are compiled with hidden visibility), the header defines no
# struct but struct clmem_error (the rest are opaque handles), and its
# version macros are meson.build's project version.
# Usage: test_exports.sh LIBCLMEM.so clmem.h VERSION
set -euo pipefail
lib=${1:?usage: test_exports.sh LIB HEADER VERSION}
header=${2:?usage: test_exports.sh LIB HEADER VERSION}
version=${3:?usage: test_exports.sh LIB HEADER VERSION}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Defined, global symbols of the library (names starting with '_' are the
# toolchain's: _init, _fini, a sanitizer's).
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | grep -v '^_' | sort -u \
    >"$tmp/exported"
# Every function the header declares: the name before the first '(' of a
# declaration at the start of a line (its arguments may wrap); a typedef of
# a callback's type declares none.
grep -E '^(CLMEM_API )?[a-z][a-z_ *]*[ *]clmem_[a-z0-9_]+\(' "$header" | grep -v '^typedef ' |
    sed -E 's/\(.*//; s/.*[ *]([A-Za-z_][A-Za-z0-9_]*)$/\1/' | sort -u >"$tmp/declared"
status=0
# Each marked for export.
if grep -E '^[a-z][a-z_ *]*[ *]clmem_[a-z0-9_]+\(' "$header" | grep -v '^CLMEM_API \|^typedef ' >"$tmp/unmarked"; then
    echo "FAIL: declared in $header without CLMEM_API:"
    cat "$tmp/unmarked"
    status=1
fi
if ! diff -u "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
    echo "FAIL: libclmem's exports differ from clmem.h's functions (- declared only, + exported only):"
    tail -n +3 "$tmp/diff" | grep '^[-+]'
    status=1
fi
# Every struct a handle: declared, never defined, but the error record
# that a program allocates.
if grep -nE '^(typedef )?struct [a-z_]+ \{' "$header" | grep -v 'struct clmem_error {' >"$tmp/defined"; then
    echo "FAIL: structs defined in $header (make them opaque handles with accessors):"
    cat "$tmp/defined"
    status=1
fi
declared=$(wc -l <"$tmp/declared")
[ "$declared" -ge 20 ] || { echo "FAIL: only $declared CLMEM_API functions found in $header"; status=1; }
major=$(sed -n 's/^#define CLMEM_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")
minor=$(sed -n 's/^#define CLMEM_VERSION_MINOR \([0-9]*\)$/\1/p' "$header")
patch=$(sed -n 's/^#define CLMEM_VERSION_PATCH \([0-9]*\)$/\1/p' "$header")
if [ "$major.$minor.$patch" != "$version" ]; then
    echo "FAIL: clmem.h says version $major.$minor.$patch, meson.build $version"
    status=1
fi
[ $status -eq 0 ] && echo "$declared functions exported, as clmem.h declares; version $version"
exit $status
