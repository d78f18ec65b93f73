# Sourced by calls/N.sh, from the tree's root on the GPU machine: $k, a
# folder for the kernel copies; mk NAME BASE PATCH, kernel folder $k/NAME:
# BASE's kernels with kernels/PATCH on them; $res, the outputs' folder
# under $OUT; sass KERNELS OUTDIR, the SASS of blur's 4x8x2 strip built
# from the folder KERNELS (bench/roofs/sass.sh reads the shape from a
# tuning database).
set -u
here=bench/roofs/h200-blur-swar
k=$(mktemp -d)
mk() {
    cp -r "$2" "$k/$1" && patch -s -d "$k/$1" -p2 <"$here/kernels/$3" || { echo "patch $3 failed" >&2; exit 1; }
}
res=$OUT/h200-blur-swar
mkdir -p "$res"
sass() {
    (
        . bench/gpu-env.sh
        . bench/experiments/lib.sh
        db=$(mktemp -d)
        CLMEM=build-gpu/clmem DEVICE=nvidia force_variant "$db" blur coarsened GB/s VEC=4 ROWS=8 STRIP_LOAD=2
        XDG_CACHE_HOME=$db CLMEM_KERNEL_DIR=$1 CLMEM=build-gpu/clmem ONLY=blur \
            bench/roofs/sass.sh "$2" 2>&1 | tail -14
    )
}
