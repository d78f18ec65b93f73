#!/usr/bin/env bash
# BabelStream's OpenCL model, built here to travel to a GPU machine with no
# internet and maybe no cmake (as clpeak does: docs/development.md, "The GPU
# machines"). Usage, from anywhere:
#   scripts/build_babelstream.sh [SRC]
# SRC (or BABELSTREAM_SRC) is a BabelStream work tree; without either, a
# clone of the local mirror (MIRROR, default
# /work/.mirror/UoB-HPC+BabelStream/repo) in a temporary folder. Writes
# .carry/bin/babelstream-ocl and, beside it, babelstream-ocl.txt: the source
# commit, the cmake options and the libraries the binary needs.
#
# Its own CMake build with -DMODEL=ocl, Release (-O3), but:
#   BUILD_NATIVE=OFF     no -march=native: the binary runs on another CPU
#   the OpenCL headers   this machine's (/usr/include/CL) in place of the
#                        Khronos release CMake would download
#   -static-libstdc++ -static-libgcc: the C++ runtime inside, so the
#                        machine's own libstdc++ does not matter; OpenCL's
#                        loader stays dynamic (the machine's must be used: it
#                        finds the machine's drivers).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-${BABELSTREAM_SRC:-}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$src" ]; then
    mirror=${MIRROR:-/work/.mirror/UoB-HPC+BabelStream/repo}
    git clone -q "$mirror" "$work/src"
    src=$work/src
fi
[ -f "$src/src/ocl/OCLStream.cpp" ] || {
    echo "build_babelstream: '$src' is not a BabelStream tree (no src/ocl/OCLStream.cpp)" >&2
    exit 2
}
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
[ -d /usr/include/CL ] || {
    echo "build_babelstream: no OpenCL headers in /usr/include/CL (opencl-c-headers)" >&2
    exit 2
}
# Its model.cmake registers OpenCL_LIBRARY empty, which hides the library
# from find_package: named here (OPENCL_LIBRARY overrides the linker's).
opencl=${OPENCL_LIBRARY:-$(realpath -m "$(c++ -print-file-name=libOpenCL.so)")}
[ -f "$opencl" ] || {
    echo "build_babelstream: no libOpenCL.so (ocl-icd-opencl-dev), or set OPENCL_LIBRARY" >&2
    exit 2
}
# The folder FetchContent would have filled: the headers' CL/ and nothing
# else, so /usr/include itself never becomes an include path.
mkdir -p "$work/opencl-headers"
ln -s /usr/include/CL "$work/opencl-headers/CL"
options=(-DMODEL=ocl -DCMAKE_BUILD_TYPE=Release -DBUILD_NATIVE=OFF
    -DFETCHCONTENT_FULLY_DISCONNECTED=ON "-DOpenCL_LIBRARY=$opencl"
    "-DFETCHCONTENT_SOURCE_DIR_OPENCL_HEADER=$work/opencl-headers"
    "-DCXX_EXTRA_LINK_FLAGS=-static-libstdc++ -static-libgcc")
cmake -S "$src" -B "$work/build" "${options[@]}" >"$work/cmake.txt" 2>&1 || {
    cat "$work/cmake.txt" >&2
    exit 2
}
cmake --build "$work/build" -j "$(nproc)" >"$work/make.txt" 2>&1 || {
    cat "$work/make.txt" >&2
    exit 2
}
mkdir -p "$root/.carry/bin"
bin=$root/.carry/bin/babelstream-ocl
# The executable's name is the model's (ocl-stream): cmake says it.
exe=$(sed -n 's/^-- Executable *: *//p' "$work/cmake.txt")
cp "$work/build/${exe:-ocl-stream}" "$bin"
origin=$src
[ "$src" = "$work/src" ] && origin="a clone of $mirror"
shown=("${options[@]/#-DFETCHCONTENT_SOURCE_DIR_OPENCL_HEADER=*/-DFETCHCONTENT_SOURCE_DIR_OPENCL_HEADER=DIR}")
{
    echo "BabelStream $commit, from $origin"
    echo "cmake ${shown[*]}"
    echo "  (DIR: a folder holding only a link CL -> /usr/include/CL)"
    grep -E '^-- (CXX Flags|Link Flags|CXX vendor)' "$work/cmake.txt" || true
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $(c++ --version | head -1)"
    echo "needs:"
    ldd "$bin" | awk '{ print "  " $1 }'
} >"$bin.txt"
echo "built $bin ($commit)"
