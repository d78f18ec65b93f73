#!/usr/bin/env bash
# The shared libraries a release build of clmem needs beyond what a bare GPU
# machine has (its OpenCL loader and NVIDIA's driver): copied into
# .carry/lib, to travel with build-gpu/ (docs/development.md, "The GPU machines"; run there
# with LD_LIBRARY_PATH=$PWD/.carry/lib). Usage: scripts/carry_libs.sh [BUILD]
# (default build-gpu).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
mkdir -p .carry/lib
# Every library ldd resolves for the binary, but glibc's own, the C++
# runtime (the machine's is as new or newer, and its drivers need it) and
# OpenCL's loader (the machine's must be used: it finds the machine's drivers).
ldd "$build/clmem" | awk '$3 ~ /^\// { print $3 }' |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s|libOpenCL)\.so' |
    while read -r lib; do
        cp -L "$lib" .carry/lib/
        echo "carried $lib"
    done
