#!/usr/bin/env bash
# podperf compare on real repeated runs of the namespaced Slurm cluster (issue 19): N healthy runs of
# `srun --mpi=pmix -N4 -n4 podperf pairs -b 4M -e 4M -n 10 -w 2` and N runs with every host's link
# shaped by tc tbf so that the median pair busbw is about TARGET (default 0.8) of the unshaped one,
# interleaved (healthy, shaped, healthy, ...). The tbf rate is calibrated first: starting from the
# unshaped median pair busbw of the first healthy run as bits per second on each veth, a grid of rates
# and then a finer one around the crossing (c*, with healthy runs ch* beside them; not compared) find
# where the monotone curve of busbw ratio against rate meets TARGET. Then,
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
# PAIRS_ARGS (default "-b 4M -e 4M -n 10 -w 2") are the pairs options of every run ("-b 4M -e 4M": podperf's
# own defaults, -n 20 -w 5).
# FACTORS="F1 F2 ..." (default "1") shapes at each factor times the calibrated rate, one set of N shaped
# runs each (r<K>x<J>s<i>, J from 0), so that one time window shows detection against the size of the
# change (the calibration finds TARGET on calibration runs; the change the runs then show varies by a
# few percent from one window to the next).
# Usage: compare_cluster_runs.sh PODPERF [WORKDIR] [N=8] [SPLITS=100]   (env TARGET, SEED, REPEATS, PAIRS_ARGS, FACTORS)
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [N] [SPLITS]}
case "$PODPERF" in /*) ;; *) PODPERF=$PWD/$PODPERF ;; esac
WORK=${2:-/var/tmp/podperf-compare-cluster}
N=${3:-8}
SPLITS=${4:-100}
TARGET=${TARGET:-0.8}
SEED=${SEED:-1}
REPEATS=${REPEATS:-1}
PAIRS_ARGS=${PAIRS_ARGS:--b 4M -e 4M -n 10 -w 2}
FACTORS=${FACTORS:-1}
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
  # shellcheck disable=SC2086 # PAIRS_ARGS is a list of options
  timeout -k 10 300 "$CLUSTER" srun --mpi=pmix -N4 -n4 --ntasks-per-node=1 "$PODPERF" pairs $PAIRS_ARGS --repeat "${2:-${repeats[0]}}" \
    --out "$WORK" --run-id "$1" >"$WORK/$1.log" 2>&1 || true
  [[ -s "$WORK/$1/run.json" ]] || echo "run $1 left no run.json (see $WORK/$1.log)" >&2
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
unshape_all
run "r${repeats[0]}h1"
median_busbw() { jq '[.pairs[] | select(.status == "ok") | .busbw_gbps] | sort | .[length / 2 | floor]' "$WORK/$1/run.json"; }
shape_all() { for h in h1 h2 h3 h4; do "$CLUSTER" shape "$h" "$1mbit" >/dev/null; done; }
gbps=$(median_busbw "r${repeats[0]}h1")
guess_mbit=$(awk -v g="$gbps" 'BEGIN { printf "%d", g * 8000 }')
# busbw is not proportional to the tbf rate (unshaped runs are bound by the CPUs, not the link) and one
# run's median varies by several percent, so one shaped run per step does not calibrate (a least-squares
# walk ended at 0.86 instead of 0.8 once). Instead: a grid of rates, 0.8 to 3.2 times (steps of 0.4) the
# unshaped busbw in bits, two shaped runs each and a healthy run beside each rate (the ratio is to the
# median of the healthy ones); the curve of median ratio per rate is made monotone (pool adjacent
# violators) and interpolated on log rate where it meets TARGET; then five rates within +-15% of that,
# two runs each, and the fit again over every point.
cal_points=()  # "rate busbw" per shaped calibration run
calibrate_at() {  # RATE_MBIT ID
  run "ch$2"
  shape_all "$1"
  run "c$2a"
  run "c$2b"
  unshape_all
  local j
  for j in a b; do [[ -s "$WORK/c$2$j/run.json" ]] && cal_points+=("$1 $(median_busbw "c$2$j")"); done
}
healthy_ref() { for d in "$WORK"/ch*/run.json; do median_busbw "$(basename "$(dirname "$d")")"; done | sort -g |
  awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
fit_rate() {  # prints the rate where the monotone curve meets TARGET; stdin: "rate busbw" lines
  python3 -c '
import math, statistics, sys
ref, target = float(sys.argv[1]), float(sys.argv[2])
by = {}
for line in sys.stdin:
    r, b = map(float, line.split())
    by.setdefault(r, []).append(b / ref)
xs = sorted(by)
blocks = [[math.log(x), statistics.median(by[x]), 1] for x in xs]  # pool adjacent violators
i = 0
while i < len(blocks) - 1:
    if blocks[i][1] > blocks[i + 1][1]:
        a, b = blocks[i], blocks[i + 1]
        w = a[2] + b[2]
        blocks[i:i + 2] = [[(a[0] * a[2] + b[0] * b[2]) / w, (a[1] * a[2] + b[1] * b[2]) / w, w]]
        i = max(i - 1, 0)
    else:
        i += 1
if target <= blocks[0][1]: print(int(math.exp(blocks[0][0]))); sys.exit()
for (x0, y0, _), (x1, y1, _) in zip(blocks, blocks[1:]):
    if y0 <= target <= y1:
        print(int(math.exp(x0 + (x1 - x0) * (target - y0) / (y1 - y0) if y1 > y0 else x0))); sys.exit()
print(int(math.exp(blocks[-1][0])))
' "$(healthy_ref)" "$TARGET"
}
k=0
for f in 0.8 1.2 1.6 2.0 2.4 2.8 3.2; do
  k=$((k + 1))
  calibrate_at "$(awk -v g="$guess_mbit" -v f="$f" 'BEGIN { printf "%d", g * f }')" "g$k"
done
rate_mbit=$(printf '%s\n' "${cal_points[@]}" | fit_rate)
echo "calibration, grid: tbf ${rate_mbit}mbit meets $TARGET"
k=0
for f in 0.85 0.92 1.0 1.08 1.15; do
  k=$((k + 1))
  calibrate_at "$(awk -v r="$rate_mbit" -v f="$f" 'BEGIN { printf "%d", r * f }')" "f$k"
done
rate_mbit=$(printf '%s\n' "${cal_points[@]}" | fit_rate)
echo "calibration: $(printf '%s\n' "${cal_points[@]}" | sort -n | awk -v ref="$(healthy_ref)" '{ printf "%s %.3f; ", $1, $2 / ref }')"
echo "unshaped median pair busbw ${gbps} GB/s; shaped runs: tbf ${rate_mbit}mbit on every host (target $TARGET)"
# One shaped level per factor of FACTORS (the calibrated rate times it), each its own set of runs, all
# interleaved with the healthy ones: detection against the size of the change, in one time window.
read -r -a factors <<<"$FACTORS"
tag() { ((${#factors[@]} == 1)) && echo s || echo "x$1s"; }  # the shaped runs of factor index J: r<K><tag><i>
for i in $(seq 1 "$N"); do
  for k in "${repeats[@]}"; do
    run "r${k}h$i" "$k"
    for j in "${!factors[@]}"; do
      [[ -s "$WORK/r${k}$(tag "$j")$i/run.json" ]] && continue
      shape_all "$(awk -v r="$rate_mbit" -v f="${factors[j]}" 'BEGIN { printf "%d", r * f }')"
      run "r${k}$(tag "$j")$i" "$k"
      unshape_all
    done
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
tags=()
for j in "${!factors[@]}"; do
  tags+=("$(tag "$j")")
  ((${#factors[@]} == 1)) || echo "shaped runs r<K>$(tag "$j")<i>: ${factors[j]} x ${rate_mbit}mbit"
done
report_splits "$PODPERF" "$WORK" "$N" "$SPLITS" "$SEED" shaped "${tags[*]}" "${repeats[@]}"
