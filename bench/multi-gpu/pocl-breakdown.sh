#!/usr/bin/env bash
# SUMMA's per-rank breakdown (CLMEM_DEBUG=4) on PoCL ranks, two builds side
# by side: BEFORE (broadcasts in inner order, two slots) and AFTER (shared
# memory, and AFTER with CLMEM_SUMMA_EXCHANGE=mpi), on 2 and 4 ranks, a
# few rounds in turn so that a busy machine's noise shows.
#   bench/multi-gpu/pocl-breakdown.sh OUTDIR BEFORE_CLMEM AFTER_CLMEM
# Each rank's PoCL runs one thread (POCL_MAX_PTHREAD_COUNT=1); SIZE (768),
# PANEL (32), REPS (5), ROUNDS (3) tune it. OUTDIR/summa-R-WHICH-rN.txt
# has the result, .err the breakdown.
set -uo pipefail
usage="usage: bench/multi-gpu/pocl-breakdown.sh OUTDIR BEFORE_CLMEM AFTER_CLMEM"
out=${1:?$usage} before=${2:?$usage} after=${3:?$usage}
mkdir -p "$out"
icd=$(mktemp -d)
cp /etc/OpenCL/vendors/pocl.icd "$icd/"
export OCL_ICD_VENDORS=$icd OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
for ((round = 1; round <= ${ROUNDS:-3}; round++)); do
    for n in 2 4; do
        for which in before after after-mpi; do
            clmem=$after exchange=shared
            [ "$which" = before ] && clmem=$before
            [ "$which" = after-mpi ] && exchange=mpi
            mpirun --oversubscribe -n "$n" --bind-to none -x OCL_ICD_VENDORS -x CLMEM_DEBUG=4 \
                -x POCL_MAX_PTHREAD_COUNT=1 -x CLMEM_SUMMA_EXCHANGE=$exchange \
                "$clmem" run matmul --variant regblock --summa --size "${SIZE:-768}" \
                --panel "${PANEL:-32}" --reps "${REPS:-5}" --device pocl \
                >"$out/summa-$n-$which-r$round.txt" 2>"$out/summa-$n-$which-r$round.err"
        done
    done
done
rm -r "$icd"
