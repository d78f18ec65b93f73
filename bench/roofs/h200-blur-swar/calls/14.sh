#!/usr/bin/env bash
# Call 14 (nvidia-h200): the halo through the texture unit, the one way to
# fetch it that calls 1-13 left untried. tex.patch (kernels) reads the
# interior strips' rows through an image over the input (CL_R,
# CL_UNSIGNED_INT32: a 32-bit texel a word, read by the sampler-less
# read_imageui at integer coordinates): with TEX 1 the two halo words of a row (the texel either
# side of the strip, whose byte next to it is the halo byte), the strip's
# words from global memory as cl/ loads them; with TEX 2 every word of
# the row. tex-host.patch (clmem's host code) makes the image and passes
# it: CLMEM_BLUR_TEX=1 or 2 in the environment, a release build of the
# tree with it in build-tex/ (made where the patches were tested:
# `git apply` both, `meson setup build-tex --buildtype release
# -Dmpi=disabled -Dtests=disabled`, `ninja -C build-tex`). cl/ first, as
# call 13 ran it (no image, the same binary), then TEX 1 and TEX 2.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk tex cl tex.patch
export CLMEM=build-tex/clmem
BLUR_SHAPES="4x8x2 8x4x2" CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/14/cl" >"$res/14-cl.log" 2>&1
for t in 1 2; do
    CLMEM_BLUR_TEX=$t BLUR_SHAPES="4x8x2@$k/tex 4x4x2@$k/tex 8x4x2@$k/tex 8x8x2@$k/tex 4x8x2@$k/tex" \
        CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/14/tex$t" >"$res/14-tex$t.log" 2>&1
done
BLUR_SHAPES="4x8x2" CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/14/cl-after" >>"$res/14-cl.log" 2>&1
for t in 1 2; do
    (
        . bench/gpu-env.sh
        . bench/experiments/lib.sh
        db=$(mktemp -d)
        DEVICE=nvidia force_variant "$db" blur coarsened GB/s VEC=4 ROWS=8 STRIP_LOAD=2
        CLMEM_BLUR_TEX=$t XDG_CACHE_HOME=$db CLMEM_KERNEL_DIR=$k/tex ONLY=blur \
            bench/roofs/sass.sh "$res/14/sass-tex$t" 2>&1 | tail -14
    )
done
for d in cl tex1 tex2 cl-after; do cat "$res/14/$d/table.txt"; done
