#!/usr/bin/env bash
# clmem hierarchy on a GPU machine, beside its anchors. From the tree's root:
#   bench/hierarchy/run.sh OUTDIR
# It builds clmem (build-hierarchy/, no tests, no optional libraries) unless
# CLMEM names a binary; opens OpenCL through OPENCL_ENV (a file sourced
# first, e.g. ../shared/device/opencl-env.sh, wherever it is on that
# machine), else bench/gpu-env.sh's search; then records:
#   devices.txt        clmem devices (each device's clock check)
#   gpu.txt            nvidia-smi: name, driver, SM and memory clocks
#   hierarchy.json     clmem hierarchy --device $DEVICE: the run file with
#   hierarchy.txt      its levels; the table and the summary on stdout
#   progress.txt       its progress lines, with the time each step began
#   peak.txt           clmem peak: the device-memory bandwidth to set the
#                      last plateau against
#   torch.txt          PyTorch's copies (pinned and pageable, host to device
#                      and back, device to device) timed with CUDA events:
#                      the anchor of the copy probes (torch_copies.py)
#   clpeak.txt, .json  clpeak's global, local, image and transfer bandwidth
#                      and kernel latency on every OpenCL device (where
#                      CLPEAK names its binary, or .carry/bin/clpeak is
#                      there: clpeak built from krrishnarraj/clpeak with
#                      only its OpenCL backend, carried as build-gpu is)
# DEVICE (default gpu) and EXTENT (default: clmem's, 1 GiB on GPUs) pass to
# clmem; TORCH=0 leaves PyTorch out.
set -uo pipefail
out=${1:?usage: bench/hierarchy/run.sh OUTDIR}
device=${DEVICE:-gpu}
mkdir -p "$out"
if [ -n "${OPENCL_ENV:-}" ]; then
    # shellcheck disable=SC1090
    . "$OPENCL_ENV" || { echo "cannot source OPENCL_ENV '$OPENCL_ENV'" >&2; exit 2; }
fi
. bench/gpu-env.sh
clmem=${CLMEM:-}
if [ -z "$clmem" ]; then
    if [ ! -f build-hierarchy/build.ninja ]; then
        meson setup build-hierarchy --buildtype=release -Dtests=disabled -Dclblast=disabled \
            -Dopenblas=disabled -Dmpi=disabled >"$out/build.txt" 2>&1 || {
            echo "meson setup failed: $out/build.txt" >&2
            exit 2
        }
    fi
    ninja -C build-hierarchy >>"$out/build.txt" 2>&1 || {
        echo "the build failed: $out/build.txt" >&2
        exit 2
    }
    clmem=build-hierarchy/clmem
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem \
    --format=csv >"$out/gpu.txt" 2>&1
"$clmem" devices >"$out/devices.txt" 2>&1
extent=()
[ -n "${EXTENT:-}" ] && extent=(--size "$EXTENT")
start=$SECONDS
"$clmem" hierarchy --device "$device" ${extent[@]+"${extent[@]}"} --progress --format json \
    --output "$out/hierarchy.json" \
    >"$out/hierarchy.txt" 2>"$out/progress.txt"
code=$?
echo "clmem hierarchy: exit $code in $((SECONDS - start)) s" | tee -a "$out/progress.txt"
"$clmem" peak --device "$device" >"$out/peak.txt" 2>&1
if [ "${TORCH:-1}" != 0 ]; then
    python3 bench/hierarchy/torch_copies.py >"$out/torch.txt" 2>&1 ||
        echo "torch_copies.py failed (is torch installed?)" >>"$out/torch.txt"
fi
clpeak=${CLPEAK:-}
[ -z "$clpeak" ] && [ -x .carry/bin/clpeak ] && clpeak=.carry/bin/clpeak
if [ -n "$clpeak" ]; then
    "$clpeak" --version >"$out/clpeak.txt" 2>&1
    "$clpeak" --opencl --bandwidth --latency --json-file "$out/clpeak.json" \
        >>"$out/clpeak.txt" 2>&1 || echo "clpeak: exit $?" >>"$out/clpeak.txt"
fi
exit $code
