#!/usr/bin/env bash
# How far one `clmem run matmul` at a small size is from the next: auto and
# splitk (at 256 and 512 auto runs splitk's plan, the same kernel and
# parameters) each run 4 times, alternating, each invocation its own
# process, with the default warm-up (1 run) and with 50 runs untimed
# first. One line a run: size, variant, warm-up, median, min and max ms of
# its samples, GFLOP/s. On the GPU machine from the tree's root, after a
# release build in build-gpu: bench/sgemm/shapes/small-noise.sh > OUT
. bench/gpu-env.sh
for s in 256 512; do
    for i in 1 2 3 4; do
        for v in auto splitk; do
            for w in 1 50; do
                build-gpu/clmem run matmul --device gpu --size $s --variant $v --reps 10 \
                    --warmup $w --quiet --format csv 2>/dev/null | python3 -c 'import csv, sys
r = list(csv.DictReader(sys.stdin))[-1]
print(sys.argv[1], sys.argv[2], "warmup", sys.argv[3], r["median_ms"], r["min_ms"], r["max_ms"], r["metric"])' $s $v $w
            done
        done
    done
done
