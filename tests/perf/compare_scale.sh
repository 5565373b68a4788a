#!/usr/bin/env bash
# podperf compare at scale (issue 19): two (and 3 + 3) all-pairs runs of 1024 simulated nodes
# (--backend sim --sim-nodes 1024 --schedule all -b 64M -e 64M -n 10: 523,776 pair metrics each),
# compared one against one and three against three, in text and with --json; prints wall time, CPU time
# (user + system) and peak memory of each compare, with the load average (on a shared machine CPU time
# is the number to read). PODPERF_BEFORE=OLD_BINARY times an older build on the same runs and checks
# that both print the same bytes. Measures only (exit non-zero only when a tool fails).
# Usage: compare_scale.sh PODPERF [WORKDIR] [NODES]
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
one() {  # one BIN TAG NAME ARGS...: wall, CPU seconds and max RSS of BIN compare ARGS
  local bin=$1 tag=$2 name=$3
  shift 3
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$bin" compare "$@" >"$WORK/$name.$tag.out" 2>/dev/null || true
  read -r wall user sys kib <"$WORK/time"
  printf '%-10s %-7s %8.1f s wall %7.1f s CPU %7.0f MiB  load %s\n' "$name" "$tag" "$wall" \
    "$(echo "$user + $sys" | bc)" "$((kib / 1024))" "$(cut -d' ' -f1 /proc/loadavg)"
}
measure() {  # measure NAME ARGS...: the new build (and the old one), same bytes or a note
  local name=$1
  shift
  one "$PODPERF" new "$name" "$@"
  if [[ -n "${PODPERF_BEFORE:-}" ]]; then
    one "$PODPERF_BEFORE" before "$name" "$@"
    cmp -s "$WORK/$name.new.out" "$WORK/$name.before.out" && echo "$name: same bytes" || echo "$name: OUTPUTS DIFFER"
  fi
}
echo "nodes $NODES, $(jq '.pairs_file.pairs // (.pairs | length)' "$WORK/r1/run.json") pair results per run"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
measure 1v1 "$WORK/r1" "$WORK/r2"
measure 1v1-json "$WORK/r1" "$WORK/r2" --json
measure 3v3 --before "$WORK/r1" "$WORK/r2" "$WORK/r3" --after "$WORK/r4" "$WORK/r5" "$WORK/r6"
measure 3v3-json --before "$WORK/r1" "$WORK/r2" "$WORK/r3" --after "$WORK/r4" "$WORK/r5" "$WORK/r6" --json
jq -c '{method, summary: .summary | {slower, faster, no_change, untested}}' "$WORK/1v1-json.new.out" \
  "$WORK/3v3-json.new.out"
