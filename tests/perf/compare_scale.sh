#!/usr/bin/env bash
# podperf compare at scale (issue 19): two (and 3 + 3) all-pairs runs of 1024 simulated nodes
# (--backend sim --sim-nodes 1024 --schedule all -b 64M -e 64M -n 10: 523,776 pair metrics each),
# compared one against one and three against three; prints wall time and peak memory of each compare.
# Measures only (exit non-zero only when a tool fails). Usage: compare_scale.sh PODPERF [WORKDIR] [NODES]
set -euo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [NODES]}
WORK=${2:-/var/tmp/podperf-compare-scale}
NODES=${3:-1024}
mkdir -p "$WORK"
for i in 1 2 3 4 5 6; do
  [[ -s "$WORK/r$i/run.json" ]] && continue
  "$PODPERF" pairs --backend sim --sim-nodes "$NODES" --schedule all -b 64M -e 64M -n 10 --seed "$i" \
    --out "$WORK" --run-id "r$i" >/dev/null 2>"$WORK/r$i.err" || { cat "$WORK/r$i.err"; exit 1; }
done
measure() {  # measure NAME ARGS...: wall seconds and max RSS of podperf compare ARGS
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$PODPERF" compare "$@" --json >"$WORK/$name.json" 2>/dev/null || true
  read -r wall kib <"$WORK/time"
  printf '%-8s %8.1f s %8.0f MiB  %s\n' "$name" "$wall" "$((kib / 1024))" \
    "$(jq -c '{method, summary: .summary | {slower, faster, no_change, untested}}' "$WORK/$name.json")"
}
echo "nodes $NODES, $(jq '.pairs_file.pairs // (.pairs | length)' "$WORK/r1/run.json") pair results per run"
measure 1v1 "$WORK/r1" "$WORK/r2"
measure 3v3 --before "$WORK/r1" "$WORK/r2" "$WORK/r3" --after "$WORK/r4" "$WORK/r5" "$WORK/r6"
