#!/usr/bin/env bash
# Installs what clmem needs (Debian/Ubuntu packages), configures and builds it
# in ./build. Safe to rerun. In CI (CI=true) warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."

# The OpenCL ICD loader and headers, PoCL (a CPU OpenCL device, so clmem runs
# with no GPU), Meson/Ninja, cJSON (JSON output), cmocka (tests), clinfo, and
# CLBlast and OpenBLAS (optional: 'run/bench --compare clblast', and
# '--compare openblas' on CPU devices; clmem builds without them),
# gnuplot (optional: the pictures of 'clmem compare'; tables without it).
packages=(gcc pkg-config meson ninja-build ocl-icd-opencl-dev opencl-headers
          pocl-opencl-icd libcjson-dev libcmocka-dev clinfo libclblast-dev gnuplot-nox
          libopenblas-dev)
packages+=(oclgrind) # the oclgrind_* tests run every kernel under Oclgrind
packages+=(mesa-opencl-icd) # Mesa's rusticl (llvmpipe): the tests of suite 'rusticl'
packages+=(valgrind) # scripts/valgrind.sh: memcheck of the CLI's main paths
packages+=(python3-jsonschema) # the 'schema' test: run files against schema/run.schema.json
# Open MPI: 'mpirun -n R clmem ...' (docs/usage.md, "Many hosts: MPI"); the build
# below enables it. A build without MPI needs none of it: meson's default.
packages+=(libopenmpi-dev openmpi-bin)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "clmem setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

werror=false
[ "${CI:-}" = "true" ] && werror=true
if [ -d build/meson-private ]; then
    meson configure build -Dwerror=$werror -Dmpi=enabled >/dev/null
else
    meson setup build -Dwerror=$werror -Dmpi=enabled >/dev/null
fi
ninja -C build >/dev/null
echo "clmem setup: built ./build/clmem" >&2
