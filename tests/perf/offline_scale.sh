#!/usr/bin/env bash
# The offline commands at scale (issue 16, "the first thousand-node cluster"): one all-pairs run of
# NODES simulated nodes (--backend sim --sim-nodes NODES --schedule all -b 64M -e 64M -n 10), then
# wall time, CPU time and peak RSS of `podperf report` (html, csv, md, junit), `accept --from`,
# `compare` (the run against itself: text, --json, --html) and `report` rebuilding the run from events.jsonl alone, each
# REPEAT times (the median printed, every try kept in WORKDIR/times.txt), with the load average.
# Measures only: exits non-zero only when a tool fails. Every measured command runs under a
# virtual-memory limit (LIMIT_KIB, default 8 GiB: issue 16's target at 4096 nodes), so a command over
# the target fails instead of taking the machine's memory; the generating run is not limited (at 4096
# nodes it needs about 7.5 GiB and 4-5 minutes here).
# Usage: offline_scale.sh PODPERF [WORKDIR] [NODES] [REPEAT]
#   PODPERF_BEFORE=/path/to/old/podperf also times the same commands with an older build, on the same
#   files, alternating with the new one.
set -euo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [NODES] [REPEAT]}
WORK=${2:-/var/tmp/podperf-offline-scale}
NODES=${3:-1024}
REPEAT=${4:-3}
LIMIT_KIB=${LIMIT_KIB:-8388608}
RUN=$WORK/n$NODES
mkdir -p "$WORK"
if [[ ! -s "$RUN/run.json" ]]; then
  /usr/bin/time -f "%e %U %M" -o "$WORK/gen.time" "$PODPERF" pairs --backend sim --sim-nodes "$NODES" \
    --schedule all -b 64M -e 64M -n 10 --out "$WORK" --run-id "n$NODES" >/dev/null 2>"$WORK/gen.err" ||
    { cat "$WORK/gen.err"; exit 1; }
  read -r wall user kib <"$WORK/gen.time"
  echo "generated n$NODES: ${wall} s wall, $((kib / 1024)) MiB"
fi
# The crashed-run case: events.jsonl without run.json beside it.
mkdir -p "$RUN-events"
ln -sf "$RUN/events.jsonl" "$RUN-events/events.jsonl"
echo "nodes $NODES: run.json $(stat -c %s "$RUN/run.json") bytes, pairs.bin $(stat -c %s "$RUN/pairs.bin" 2>/dev/null ||
  echo none), events.jsonl $(stat -c %s "$RUN/events.jsonl") bytes"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# one BIN NAME ARGS...: runs BIN ARGS... once, appends "NAME BIN wall user rss_kib" to times.txt.
one() {
  local bin=$1 name=$2
  shift 2
  local rc=0
  (
    ulimit -v "$LIMIT_KIB"
    exec /usr/bin/time -f "%e %U %M" -o "$WORK/one.time" "$bin" "$@" >"$WORK/one.out" 2>"$WORK/one.err"
  ) || rc=$?
  if [[ $rc -gt 1 ]]; then
    echo "$name: exit $rc: $(tail -3 "$WORK/one.err")" >&2
    exit 1
  fi
  read -r wall user kib <"$WORK/one.time"
  echo "$name $bin $wall $user $kib" >>"$WORK/times.txt"
}

commands() {  # the offline commands, one per line: NAME ARGS...
  cat <<EOF
report-html report --format html --out $WORK/out.html $RUN
report-csv report --format csv --out $WORK/out.csv $RUN
report-md report --format md --out $WORK/out.md $RUN
report-junit report --format junit --out $WORK/out.xml $RUN
accept-from accept --from $RUN
compare compare $RUN $RUN
compare-json compare --json $RUN $RUN
compare-html compare --html $WORK/compare.html $RUN $RUN
report-events report --format md --out $WORK/out-events.md $RUN-events
EOF
}

: >"$WORK/times.txt"
for ((i = 0; i < REPEAT; i++)); do
  while read -r name args; do
    # shellcheck disable=SC2086
    [[ -n "${PODPERF_BEFORE:-}" ]] && one "$PODPERF_BEFORE" "$name" $args
    # shellcheck disable=SC2086
    one "$PODPERF" "$name" $args
  done < <(commands)
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %-8s %10s %10s %10s\n' command build wall_s cpu_s rss_MiB
while read -r name _; do
  for bin in ${PODPERF_BEFORE:+"$PODPERF_BEFORE"} "$PODPERF"; do
    tag=new
    [[ "$bin" == "${PODPERF_BEFORE:-}" ]] && tag=before
    awk -v n="$name" -v b="$bin" '$1 == n && $2 == b {print $3, $4, $5}' "$WORK/times.txt" |
      sort -n | awk -v n="$name" -v t="$tag" '{w[NR] = $1; u[NR] = $2; m[NR] = $3}
        END {k = int((NR + 1) / 2); printf "%-14s %-8s %10.2f %10.2f %10.0f\n", n, t, w[k], u[k], m[k] / 1024}'
  done
done < <(commands)
