#!/usr/bin/env bash
# podperf compare on real repeated runs of the namespaced Slurm cluster (issue 19): N healthy runs of
# `srun --mpi=pmix -N4 -n4 podperf pairs -b 4M -e 4M -n 10 -w 2` and N runs with every host's link
# shaped by tc tbf so that the median pair busbw is about TARGET (default 0.8) of the unshaped one,
# interleaved (healthy, shaped, healthy, ...). The tbf rate is calibrated first: starting from the
# unshaped median pair busbw of the first healthy run as bits per second on each veth, six
# calibration steps (c1..c6 shaped, ch1..ch6 healthy beside them; not compared) move it to where a
# least-squares line through the (log rate, log ratio) points meets TARGET. Then,
# over SPLITS random 3-against-3 splits (compare_splits.sh): healthy against healthy, counting
# exit 1 (goal <= 5%); healthy against shaped with --fail-on 10 (goal: exit 1 in >= 90%); and one run
# per side on consecutive healthy runs (metrics called slower or faster: must be 0). The size of the
# change the shaping really made is printed with it (the median change of each comparison).
# Measures only. Needs root and the packages of tests/cluster/cluster.sh; brings the cluster up and
# takes it down again (only one cluster per machine: not while the cluster tests run).
# REPEATS="K1 K2 ..." (default "1") measures the runs once per K, each in K interleaved blocks (pairs
# --repeat K; the run stays the unit, its value the median over its blocks, spread over the whole job),
# all in one interleaved sequence (healthy K1, shaped K1, healthy K2, ... for i = 1..N), so the settings
# are compared side by side on the same machine state. Runs are WORKDIR/r<K>h<i> and r<K>s<i>.
# Usage: compare_cluster_runs.sh PODPERF [WORKDIR] [N=8] [SPLITS=100]   (env TARGET, SEED, REPEATS)
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [N] [SPLITS]}
case "$PODPERF" in /*) ;; *) PODPERF=$PWD/$PODPERF ;; esac
WORK=${2:-/var/tmp/podperf-compare-cluster}
N=${3:-8}
SPLITS=${4:-100}
TARGET=${TARGET:-0.8}
SEED=${SEED:-1}
REPEATS=${REPEATS:-1}
read -r -a repeats <<<"$REPEATS"
here=$(cd "$(dirname "$0")" && pwd)
CLUSTER=$here/../cluster/cluster.sh
# shellcheck source=compare_splits.sh
source "$here/compare_splits.sh"
mkdir -p "$WORK"
"$CLUSTER" up >/dev/null || { echo "the namespaced cluster did not come up" >&2; exit 1; }
trap '"$CLUSTER" down >/dev/null 2>&1' EXIT
unshape_all() { for h in h1 h2 h3 h4; do "$CLUSTER" unshape "$h" >/dev/null 2>&1; done; }
run() {  # run ID [REPEAT]
  [[ -s "$WORK/$1/run.json" ]] && return
  timeout -k 10 300 "$CLUSTER" srun --mpi=pmix -N4 -n4 --ntasks-per-node=1 "$PODPERF" pairs -b 4M -e 4M -n 10 -w 2 --repeat "${2:-${repeats[0]}}" \
    --out "$WORK" --run-id "$1" >"$WORK/$1.log" 2>&1 || true
  [[ -s "$WORK/$1/run.json" ]] || echo "run $1 left no run.json (see $WORK/$1.log)" >&2
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
unshape_all
run "r${repeats[0]}h1"
median_busbw() { jq '[.pairs[] | select(.status == "ok") | .busbw_gbps] | sort | .[length / 2 | floor]' "$WORK/$1/run.json"; }
shape_all() { for h in h1 h2 h3 h4; do "$CLUSTER" shape "$h" "$1mbit" >/dev/null; done; }
gbps=$(median_busbw "r${repeats[0]}h1")
rate_mbit=$(awk -v g="$gbps" 'BEGIN { printf "%d", g * 8000 }')
# busbw is not proportional to the tbf rate (unshaped runs are bound by the CPUs, not the link), and one
# run's median varies by several percent, so each calibration step runs a healthy run (ch<c>) beside the
# shaped one (c<c>): a shaped run's ratio is to the median of all healthy calibration runs so far, and
# the next rate is where the least-squares line through every (log rate, log ratio) point meets TARGET.
cal_rates=() cal_runs=()
for c in 1 2 3 4 5 6; do
  run "ch$c"
  shape_all "$rate_mbit"
  run "c$c"
  unshape_all
  cal_rates+=("$rate_mbit") cal_runs+=("c$c")
  ref=$(for ((j = 1; j <= c; j++)); do median_busbw "ch$j"; done | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
  points=$(for ((j = 0; j < c; j++)); do echo "${cal_rates[j]} $(median_busbw "${cal_runs[j]}")"; done)
  ratio=$(awk -v a="$(median_busbw "c$c")" -v b="$ref" 'BEGIN { printf "%.3f", a / b }')
  echo "calibration $c: tbf ${rate_mbit}mbit gave ${ratio} of the unshaped median pair busbw (${ref} GB/s over $c healthy runs)"
  rate_mbit=$(awk -v ref="$ref" -v t="$TARGET" '{ x[NR] = log($1); y[NR] = log(($2 > 0 ? $2 : 1e-3) / ref) } END {
    n = NR; sx = sy = sxx = sxy = 0
    for (i = 1; i <= n; i++) { sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i] }
    slope = 1
    if (n >= 2 && n * sxx - sx * sx > 1e-9) slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    if (slope < 0.1) slope = 0.1; if (slope > 2) slope = 2
    # the line through the points mean with that slope, solved for log ratio = log TARGET
    printf "%d", exp(sx / n + (log(t) - sy / n) / slope)
  }' <<<"$points")
done
echo "unshaped median pair busbw ${gbps} GB/s; shaped runs: tbf ${rate_mbit}mbit on every host (target $TARGET)"
for i in $(seq 1 "$N"); do
  for k in "${repeats[@]}"; do
    run "r${k}h$i" "$k"
    if [[ ! -s "$WORK/r${k}s$i/run.json" ]]; then
      shape_all "$rate_mbit"
      run "r${k}s$i" "$k"
      unshape_all
    fi
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
for k in "${repeats[@]}"; do
  echo "--repeat $k:"
  echo "  healthy 3 vs 3: exit 1 in $(compare_splits "$PODPERF" "$WORK" "r${k}h" "r${k}h" "$N" "$SPLITS" "$SEED")"
  echo "  healthy 3 vs shaped 3 (--fail-on 10): exit 1 in $(compare_splits "$PODPERF" "$WORK" "r${k}h" "r${k}s" "$N" "$SPLITS" "$SEED" --fail-on 10)"
  echo "  healthy one vs one: $(single_run_claims "$PODPERF" "$WORK" "r${k}h" "$N")"
done
