#!/usr/bin/env bash
# Every offline command refuses a damaged run.json the same way (analysis/io/run_checks): exit 2, one
# line on stderr naming the file, the field and the value, nothing on stdout. The classes: a negative
# busbw, a pair naming a node the run does not have, an impossible size, a node listed twice, a file
# holding only a schema_version, a recorded threshold out of range.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
HERE=$(cd "$(dirname "$0")" && pwd)
GOOD="$HERE/../fixtures/runs/compare/healthy_1.json"
WORK=$(mktemp -d /tmp/podperf-bad-runs.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

damage() {  # NAME PYTHON-EDIT-OF-j: writes $WORK/NAME/run.json
  mkdir -p "$WORK/$1"
  python3 - "$GOOD" "$WORK/$1/run.json" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(j, open(sys.argv[2], "w"))
PY
}
damage negative_busbw 'j["pairs"][3]["busbw_gbps"] = -12.5'
damage unknown_node 'j["pairs"][2]["nodes"][1] = 99999999'
damage huge_size 'j["pairs"][1]["size_bytes"] = 1e30'
damage node_twice 'j["nodes"][3] = j["nodes"][1]'
damage only_version 'j = {"schema_version": 1}'
damage bad_threshold 'j["thresholds"] = {"pairs": {"threshold": 3.0}, "source": "x"}'
expect() {  # CASE FIELD VALUE
  local case=$1 field=$2 value=$3 file="$WORK/$1/run.json" cmd rc out err
  for cmd in "report $file --format md --out $WORK/out.md" "compare $file $GOOD" "compare $GOOD $file" \
    "accept --from $file"; do
    # shellcheck disable=SC2086
    out=$("$PODPERF" $cmd 2>"$WORK/err")
    rc=$?
    err=$(cat "$WORK/err")
    if [[ $rc -eq 2 && -z $out && $(wc -l <"$WORK/err") -eq 1 ]] && grep -qF "$file" <<<"$err" &&
      grep -qF "$field" <<<"$err" && grep -qF -- "$value" <<<"$err"; then
      pass "$case: podperf ${cmd%% *}: exit 2 naming $field"
    else
      fail "$case: podperf $cmd: exit $rc, stdout '${out:0:200}', stderr '$err'"
    fi
  done
}
expect negative_busbw "pairs[3].busbw_gbps" "-12.5"
expect unknown_node "pairs[2].nodes[1]" "99999999"
expect huge_size "pairs[1].size_bytes" "out of range"
expect node_twice "nodes[3]" "index"
expect only_version "run_id" "missing"
expect bad_threshold "pairs.threshold" "3"
echo "bad_runs: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
