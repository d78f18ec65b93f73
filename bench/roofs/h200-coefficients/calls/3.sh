#!/usr/bin/env bash
# (bench/roofs/h200-coefficients/calls/: old-cl is cl/ at fb8d11e, ab/NAME-cl cl/ with kernels/NAME-*.patch)
# The SM clock and power while each kernel runs back to back (nvidia-smi
# sampled every 50 ms during a run of 2000 timed launches): whether the
# stencils run at a lower clock than the copy.
set -u
. bench/gpu-env.sh
o=$OUT/ab3; mkdir -p $o
run() { # NAME ARGS...
    local name=$1; shift
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader,nounits -lms 50 >"$o/$name.smi.csv" &
    local smi=$!
    build-gpu/clmem "$@" --device nvidia --reps 2000 --format csv >"$o/$name.csv" 2>"$o/$name.err"
    kill $smi; wait $smi 2>/dev/null
    python3 - "$o/$name.smi.csv" "$name" <<'PY'
import sys, statistics as st
rows = [l.split(",") for l in open(sys.argv[1]) if l.count(",") == 4]
busy = [r for r in rows if float(r[3]) > 200]  # samples while a kernel ran (power above idle)
if not busy: print(sys.argv[2], "no busy samples"); sys.exit()
print(f"{sys.argv[2]:24s} samples {len(busy):4d}  sm clock median {st.median(float(r[1]) for r in busy):6.0f} MHz (min {min(float(r[1]) for r in busy):.0f})  power median {st.median(float(r[3]) for r in busy):6.1f} W  temp max {max(float(r[4]) for r in busy):.0f} C")
PY
}
run copy peak --variant copy
run fma peak --variant fma
run constmem run constmem --variant coarsened --size 16384
run blur run blur --variant coarsened --size 16384x16384
run constmem-c1 run constmem --variant coarsened --size 16384 --kernel-dir ab/c1-cl
cat $o/*.err | grep -v "^$" | head -20
cd $OUT && tar czf ab3.tgz ab3 && rm -rf ab3
