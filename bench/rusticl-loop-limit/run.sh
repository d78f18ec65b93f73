#!/usr/bin/env bash
# Builds loop.c and runs loop.cl on llvmpipe (rusticl) and on PoCL.
set -u
cd "$(dirname "$0")"
out=$(mktemp -d)
gcc -O2 -o "$out/loop" loop.c -lOpenCL || exit 2
echo "== llvmpipe (rusticl)"; RUSTICL_ENABLE=llvmpipe "$out/loop" loop.cl llvmpipe
echo "== PoCL"; "$out/loop" loop.cl pthread
rm -rf "$out"
