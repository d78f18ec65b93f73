# Sourced by the bench scripts on a GPU machine, from the tree's root:
# NVIDIA's OpenCL driver registered with the ICD loader (an ICD file made
# here, beside the machine's own, where OCL_ICD_VENDORS is not set yet:
# what ../shared/device/opencl-env.sh does, where shared/ is not there), the
# carried libraries (scripts/carry_libs.sh) on the library path, the
# kernels of this tree and a kernel cache of the run's own (XDG_CACHE_HOME,
# unless given), and its parameter database (CLMEM_DATA_DIR).
for env in ../shared/device/opencl-env.sh shared/device/opencl-env.sh; do
    [ -z "${OCL_ICD_VENDORS:-}" ] && [ -f "$env" ] && . "$env" && break
done
if [ -z "${OCL_ICD_VENDORS:-}" ]; then
    icd=$(mktemp -d)
    echo libnvidia-opencl.so.1 >"$icd/nvidia.icd"
    cp /etc/OpenCL/vendors/*.icd "$icd/" 2>/dev/null
    export OCL_ICD_VENDORS=$icd
fi
export LD_LIBRARY_PATH=$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CLMEM_KERNEL_DIR=$PWD/cl
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(mktemp -d)}
export CLMEM_DATA_DIR=$PWD/data
