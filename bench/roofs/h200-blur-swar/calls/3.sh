#!/usr/bin/env bash
# Call 3 (nvidia-h200): call 2 found the strip's loads without the bytes
# either side of it at 0.87 of the copy peak (words.patch), with them 0.74,
# and those bytes from local memory slower still (0.63). Here the bytes are
# loaded once the strip's words are in (dep.patch on swar: their address
# depends on the words through a zero the compiler cannot see), as bytes
# and as whole neighbouring words (depw.patch), at several strip shapes;
# cl/ beside them. Then NVIDIA's device extensions (sub-groups?).
. bench/roofs/h200-blur-swar/calls/lib.sh
mk swar cl swar.patch
mk dep "$k/swar" dep.patch
mk depw "$k/swar" depw.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/dep 4x4x2@$k/dep 4x16x2@$k/dep 8x4x2@$k/dep 8x8x2@$k/dep 16x4x2@$k/dep \
4x8x2@$k/depw 4x4x2@$k/depw 8x4x2@$k/depw 4x8x2 4x8x2@$k/dep" CONSTMEM_SHAPES="" \
    bench/roofs/strips.sh "$res/3" >"$res/3.log" 2>&1
cat "$res/3/table.txt"
(. bench/gpu-env.sh && clinfo 2>/dev/null | grep -iE "Device Name|Device Extensions  |sub.?group" |
    cut -c1-2000 >"$res/3/clinfo.txt")
cat "$res/3/clinfo.txt"
sass "$k/dep" "$res/sass-dep"
