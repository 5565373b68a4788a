#!/usr/bin/env bash
# podperf compare on real repeated runs (issue 19): N healthy runs of 4 virtual nodes under mpirun
# (pairs -b 1M -e 4M -n 20 -w 2), then N with a competing CPU load (one busy loop per core); every
# 3-against-3 split of the healthy runs (disjoint sides) compared, counting exit 1 (goal <= 5%); 3 loaded
# against 3 healthy with --fail-on 10 (goal: exit 1 in >= 90%); and one run per side on consecutive
# healthy runs (no significance claimed: every metric untested). Needs a quiet machine: on a machine
# shared with other work the "healthy" runs are not. Measures only.
# Usage: compare_real_runs.sh PODPERF [WORKDIR] [N=12]
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [N]}
WORK=${2:-/var/tmp/podperf-compare-real}
N=${3:-12}
mkdir -p "$WORK"
run() {  # run ID
  [[ -s "$WORK/$1/run.json" ]] && return
  mpirun --oversubscribe -np 4 "$PODPERF" pairs --virtual-nodes 4 -b 1M -e 4M -n 20 -w 2 --out "$WORK" --run-id "$1" \
    >"$WORK/$1.log" 2>&1 || true
}
for i in $(seq 1 "$N"); do run "h$i"; done
load_pids=()
for _ in $(seq 1 "$(nproc)"); do (while :; do :; done) & load_pids+=($!); done
for i in $(seq 1 "$N"); do run "l$i"; done
for p in "${load_pids[@]}"; do kill "$p"; done
splits=0 flagged=0
for a in $(seq 1 3 $((N - 5))); do
  for b in $(seq $((a + 3)) 3 $((N - 2))); do
    "$PODPERF" compare --before "$WORK/h$a" "$WORK/h$((a + 1))" "$WORK/h$((a + 2))" \
      --after "$WORK/h$b" "$WORK/h$((b + 1))" "$WORK/h$((b + 2))" >/dev/null 2>&1
    [[ $? -eq 1 ]] && flagged=$((flagged + 1))
    splits=$((splits + 1))
  done
done
echo "healthy 3 vs 3: exit 1 in $flagged of $splits disjoint splits"
found=0 tries=0
for a in $(seq 1 3 $((N - 2))); do
  "$PODPERF" compare --before "$WORK/h$a" "$WORK/h$((a + 1))" "$WORK/h$((a + 2))" \
    --after "$WORK/l$a" "$WORK/l$((a + 1))" "$WORK/l$((a + 2))" --fail-on 10 >/dev/null 2>&1
  [[ $? -eq 1 ]] && found=$((found + 1))
  tries=$((tries + 1))
done
echo "loaded vs healthy 3 vs 3 (--fail-on 10): exit 1 in $found of $tries"
claims=0 pairs=0
for i in $(seq 1 $((N - 1))); do
  t=$("$PODPERF" compare "$WORK/h$i" "$WORK/h$((i + 1))" --json 2>/dev/null | jq '.summary.slower + .summary.faster')
  claims=$((claims + ${t:-0}))
  pairs=$((pairs + 1))
done
echo "healthy one vs one: $claims significance claims in $pairs comparisons"
