#!/usr/bin/env bash
# podperf triage on the real, anonymised public logs of tests/fixtures/triage/real (INDEX.tsv: the verdict
# a careful reader gives each): runs `triage --json` on every file, prints each miss with the expected and
# the given verdict and class, and fails when fewer logs are right than the recorded score (MIN_RIGHT) or
# when any failed or degraded log (FAIL or WARN in the index) is given PASS, the worst miss a triage can
# make. Usage: triage_corpus.sh PODPERF_BINARY [CORPUS_DIR]
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY [CORPUS_DIR]}
DIR=${2:-$(cd "$(dirname "$0")/../fixtures/triage/real" && pwd)}
# The recorded score on this corpus (docs/triage.md, "Scored on real logs"): raise it when rules improve,
# never lower it to make a change pass.
MIN_RIGHT=276
WORK=$(mktemp -d /tmp/podperf-triage-corpus.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

total=0
right=0
pass_on_bad=0
declare -A miss_by_class=()
while IFS= read -r row; do
  # Tabs are IFS whitespace (empty fields would merge): split at a unit separator instead.
  IFS=$'\x1f' read -r id file want class host _url _why <<<"${row//$'\t'/$'\x1f'}"
  [[ $id == id ]] && continue
  [[ -z $file ]] && continue
  total=$((total + 1))
  "$PODPERF" triage --json "$DIR/$file" >"$WORK/out.json" 2>"$WORK/err"
  rc=$?
  if [[ $rc -ne 0 && $rc -ne 1 ]]; then
    echo "ERROR: $file: exit $rc: $(head -c 300 "$WORK/err")"
    miss_by_class[$class]=$((${miss_by_class[$class]:-0} + 1))
    continue
  fi
  got=$(jq -r .verdict "$WORK/out.json")
  # The exit code agrees with the verdict: 1 for FAIL and INCONCLUSIVE, 0 for PASS and WARN.
  want_rc=0
  [[ $got == FAIL || $got == INCONCLUSIVE ]] && want_rc=1
  if [[ $rc -ne $want_rc ]]; then
    echo "ERROR: $file: verdict $got but exit $rc"
    miss_by_class[$class]=$((${miss_by_class[$class]:-0} + 1))
    continue
  fi
  if [[ $got == "$want" ]]; then
    right=$((right + 1))
  else
    root=$(jq -r '.root_cause // ""' "$WORK/out.json")
    first=$(jq -r '[.findings[] | select(.tag != "INFO") | .check][0] // "-"' "$WORK/out.json")
    echo "MISS: $file: want $want ($class${host:+ on $host}), got $got (root ${root:--}, first $first)"
    miss_by_class[$class]=$((${miss_by_class[$class]:-0} + 1))
    if [[ $got == PASS && ($want == FAIL || $want == WARN) ]]; then
      pass_on_bad=$((pass_on_bad + 1))
      echo "  ^ a failed or degraded log given PASS"
    fi
  fi
done <"$DIR/INDEX.tsv"

for c in "${!miss_by_class[@]}"; do echo "misses in $c: ${miss_by_class[$c]}"; done | sort
echo "right $right of $total (recorded score $MIN_RIGHT); failed or degraded logs given PASS: $pass_on_bad"
[[ $total -gt 0 && $right -ge $MIN_RIGHT && $pass_on_bad -eq 0 ]]
