#!/usr/bin/env bash
# podperf compare on real repeated runs of the namespaced Slurm cluster (issue 19): N healthy runs of
# `srun --mpi=pmix -N4 -n4 podperf pairs -b 4M -e 4M -n 10 -w 2` and N runs with every host's link
# shaped by tc tbf so that the median pair busbw is about TARGET (default 0.8) of the unshaped one,
# interleaved (healthy, shaped, healthy, ...). The tbf rate is calibrated first: starting from the
# unshaped median pair busbw of the first healthy run as bits per second on each veth, up to three
# calibration runs (c1..c3, not compared) scale it by TARGET over the ratio they got. Then,
# over SPLITS random 3-against-3 splits (compare_splits.sh): healthy against healthy, counting
# exit 1 (goal <= 5%); healthy against shaped with --fail-on 10 (goal: exit 1 in >= 90%); and one run
# per side on consecutive healthy runs (metrics called slower or faster: must be 0). The size of the
# change the shaping really made is printed with it (the median change of each comparison).
# Measures only. Needs root and the packages of tests/cluster/cluster.sh; brings the cluster up and
# takes it down again (only one cluster per machine: not while the cluster tests run).
# Usage: compare_cluster_runs.sh PODPERF [WORKDIR] [N=8] [SPLITS=100]   (env TARGET, SEED)
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [N] [SPLITS]}
case "$PODPERF" in /*) ;; *) PODPERF=$PWD/$PODPERF ;; esac
WORK=${2:-/var/tmp/podperf-compare-cluster}
N=${3:-8}
SPLITS=${4:-100}
TARGET=${TARGET:-0.8}
SEED=${SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
CLUSTER=$here/../cluster/cluster.sh
# shellcheck source=compare_splits.sh
source "$here/compare_splits.sh"
mkdir -p "$WORK"
"$CLUSTER" up >/dev/null || { echo "the namespaced cluster did not come up" >&2; exit 1; }
trap '"$CLUSTER" down >/dev/null 2>&1' EXIT
unshape_all() { for h in h1 h2 h3 h4; do "$CLUSTER" unshape "$h" >/dev/null 2>&1; done; }
run() {  # run ID
  [[ -s "$WORK/$1/run.json" ]] && return
  timeout -k 10 300 "$CLUSTER" srun --mpi=pmix -N4 -n4 --ntasks-per-node=1 "$PODPERF" pairs -b 4M -e 4M -n 10 -w 2 \
    --out "$WORK" --run-id "$1" >"$WORK/$1.log" 2>&1 || true
  [[ -s "$WORK/$1/run.json" ]] || echo "run $1 left no run.json (see $WORK/$1.log)" >&2
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
unshape_all
run h1
median_busbw() { jq '[.pairs[] | select(.status == "ok") | .busbw_gbps] | sort | .[length / 2 | floor]' "$WORK/$1/run.json"; }
shape_all() { for h in h1 h2 h3 h4; do "$CLUSTER" shape "$h" "$1mbit" >/dev/null; done; }
gbps=$(median_busbw h1)
rate_mbit=$(awk -v g="$gbps" 'BEGIN { printf "%d", g * 8000 }')
for c in 1 2 3; do
  shape_all "$rate_mbit"
  run "c$c"
  unshape_all
  ratio=$(awk -v a="$(median_busbw "c$c")" -v b="$gbps" 'BEGIN { printf "%.3f", a / b }')
  echo "calibration $c: tbf ${rate_mbit}mbit gave ${ratio} of the unshaped median pair busbw"
  awk -v r="$ratio" -v t="$TARGET" 'BEGIN { exit !(r > t - 0.05 && r < t + 0.05) }' && break
  rate_mbit=$(awk -v m="$rate_mbit" -v r="$ratio" -v t="$TARGET" 'BEGIN { printf "%d", m * t / (r > 0.05 ? r : 0.05) }')
done
echo "unshaped median pair busbw ${gbps} GB/s; shaped runs: tbf ${rate_mbit}mbit on every host (target $TARGET)"
for i in $(seq 1 "$N"); do
  run "h$i"
  if [[ ! -s "$WORK/s$i/run.json" ]]; then
    shape_all "$rate_mbit"
    run "s$i"
    unshape_all
  fi
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "healthy 3 vs 3: exit 1 in $(compare_splits "$PODPERF" "$WORK" h h "$N" "$SPLITS" "$SEED")"
echo "healthy 3 vs shaped 3 (--fail-on 10): exit 1 in $(compare_splits "$PODPERF" "$WORK" h s "$N" "$SPLITS" "$SEED" --fail-on 10)"
echo "healthy one vs one: $(single_run_claims "$PODPERF" "$WORK" h "$N")"
