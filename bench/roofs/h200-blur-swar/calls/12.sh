#!/usr/bin/env bash
# Call 12 (nvidia-h200): two probes. shfl2zero (shfl2.patch, then
# shfl2zero.patch): call 10's shuffle path writes zeros, so that the
# count of wrong bytes in errors.txt says how many strips took it (its
# time: the words, the edge load and the shuffles, no arithmetic).
# nodiv (on cl/): the division by 9 left out, each lane's sum's low byte
# stored: what the division costs of call 11's arithmetic.
. bench/roofs/h200-blur-swar/calls/lib.sh
mk shfl2 cl shfl2.patch
mk shfl2zero "$k/shfl2" shfl2zero.patch
mk nodiv cl nodiv.patch
BLUR_SHAPES="4x8x2 4x8x2@$k/shfl2zero 4x8x2@$k/nodiv 4x4x2@$k/nodiv 4x8x2@$k/shfl2" \
    CONSTMEM_SHAPES="" bench/roofs/strips.sh "$res/12" >"$res/12.log" 2>&1
cat "$res/12/table.txt"
grep -h "verification failed" "$res/12/errors.txt"
