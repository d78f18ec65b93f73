#!/usr/bin/env bash
# Call 0 (nvidia-h200), before the others: the SM and memory clocks and the
# power while the copy peak and blur's built-in strip run (nvidia-smi every
# 50 ms into $OUT/smi.txt: timestamp, SM clock, memory clock, power,
# temperature); then whether Nsight Compute reads an OpenCL kernel (it
# printed "==WARNING== No kernels were profiled."; tried in the first,
# failed try of call 1, run here as it ran there).
. bench/gpu-env.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv,noheader -lms 50 >"$OUT/smi.txt" &
smi=$!
sleep 1
build-gpu/clmem peak --device nvidia --reps 9 --quiet --format csv 2>&1 | grep -i copy
sleep 1
build-gpu/clmem run blur --device nvidia --variant coarsened --size 16384x16384 --reps 60 \
    --format csv 2>&1 | tail -2
sleep 1
kill "$smi"
timeout 60 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum -c 2 \
    build-gpu/clmem run blur --device nvidia --variant coarsened --size 4096x4096 --reps 1 2>&1 |
    tail -3
