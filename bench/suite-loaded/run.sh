#!/bin/bash
# The README's test command three times in a row from a clean clone, beside
# a busy loop, the load average logged each minute (issue 29's done-when).
# Usage: bench/suite-loaded/run.sh CLONE_DIR OUTDIR   (CLONE_DIR: a fresh
# `git clone` of the tree; OUTDIR gets summary.txt, load.txt, passN.txt).
set -u
clone=${1:?usage: run.sh CLONE_DIR OUTDIR}
out=${2:?usage: run.sh CLONE_DIR OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$clone" || exit 2
(while :; do :; done) &
busy=$!
(while :; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 60; done) >"$out/load.txt" &
load=$!
trap 'kill $busy $load' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
./scripts/setup.sh >"$out/setup.txt" 2>&1
echo "setup rc $?" >"$out/summary.txt"
for i in 1 2 3; do
    s=$(date +%s)
    meson test -C build --print-errorlogs >"$out/log$i.txt" 2>&1
    rc=$?
    grep -E '^ *[0-9]+/[0-9]+ ' "$out/log$i.txt" >"$out/pass$i.txt"
    echo "pass $i rc $rc $(($(date +%s) - s)) s $(grep -E '^(Ok|Fail|Timeout):' "$out/log$i.txt" | tr '\n' ' ')" >>"$out/summary.txt"
done
