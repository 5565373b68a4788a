#!/usr/bin/env bash
# podperf compare on real repeated runs under mpirun (issue 19): N healthy runs of 4 virtual nodes
# (pairs -b 1M -e 4M -n 20 -w 2) and N runs with a competing CPU load (LOAD busy loops, default 1,
# for the run's whole length), interleaved (healthy, loaded, healthy, ...) so that a slow drift of
# the machine falls on both sides alike. Then, over SPLITS random 3-against-3 splits
# (compare_splits.sh): healthy against healthy, counting exit 1 (goal <= 5%); healthy against
# loaded with --fail-on 10 (goal: exit 1 in >= 90%); and one run per side on consecutive healthy
# runs (no significance may be claimed from iterations: counts the metrics called slower or faster).
# The namespaced-cluster counterpart, with a 20% link change, is compare_cluster_runs.sh.
# Measures only. Needs a quiet machine: on a machine shared with other work the "healthy" runs are
# not, and say so with the numbers.
# REPEATS="K1 K2 ..." (default "1") measures the runs once per K, each in K interleaved blocks (pairs
# --repeat K; the run stays the unit, its value the median over its blocks), in one interleaved
# sequence (healthy K1, loaded K1, healthy K2, ... for i = 1..N). Runs are WORKDIR/r<K>h<i>, r<K>l<i>.
# Usage: compare_real_runs.sh PODPERF [WORKDIR] [N=12] [SPLITS=100]   (env LOAD, SEED, REPEATS)
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [N] [SPLITS]}
WORK=${2:-/var/tmp/podperf-compare-real}
N=${3:-12}
SPLITS=${4:-100}
LOAD=${LOAD:-1}
SEED=${SEED:-1}
REPEATS=${REPEATS:-1}
read -r -a repeats <<<"$REPEATS"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=compare_splits.sh
source "$here/compare_splits.sh"
mkdir -p "$WORK"
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
run() {  # run ID REPEAT
  [[ -s "$WORK/$1/run.json" ]] && return
  mpirun --oversubscribe -np 4 "$PODPERF" pairs --virtual-nodes 4 -b 1M -e 4M -n 20 -w 2 --repeat "$2" \
    --out "$WORK" --run-id "$1" \
    >"$WORK/$1.log" 2>&1 || true
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$N"); do
  for k in "${repeats[@]}"; do
    run "r${k}h$i" "$k"
    [[ -s "$WORK/r${k}l$i/run.json" ]] && continue
    load_pids=()
    for _ in $(seq 1 "$LOAD"); do (while :; do :; done) & load_pids+=($!); done
    run "r${k}l$i" "$k"
    kill "${load_pids[@]}" 2>/dev/null
    wait "${load_pids[@]}" 2>/dev/null
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
report_splits "$PODPERF" "$WORK" "$N" "$SPLITS" "$SEED" loaded l "${repeats[@]}"
