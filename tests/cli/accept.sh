#!/usr/bin/env bash
# podperf accept --from: fixed runs (tests/fixtures/runs/accept, four p5.48xlarge nodes h1..h4) judged
# offline without MPI: verdict text, exit codes, drain lines, JUnit XML (well-formed, one failure per
# failed check), --sku and --profile switching, bad usage (exit 2).
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
FIX=$(cd "$(dirname "$0")/../fixtures/runs/accept" && pwd)
WORK=$(mktemp -d /tmp/podperf-accept.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
expect_eq() { if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }
expect_has() { if grep -qF -- "$3" <<<"$2"; then pass "$1"; else fail "$1: '$3' not in: $2"; fi; }
expect_not() { if grep -qF -- "$3" <<<"$2"; then fail "$1: '$3' in: $2"; else pass "$1"; fi; }

# accept NAME ARGS...: runs podperf accept, output in $WORK/NAME.out, exit code in $rc.
accept() {
  local name=$1
  shift
  "$PODPERF" accept "$@" >"$WORK/$name.out" 2>&1
  rc=$?
  out=$(cat "$WORK/$name.out")
}
# junit_counts FILE -> "tests failures skipped" (python3 xml.etree parses it: well-formed)
junit_counts() {
  /usr/bin/python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
print(len(cases), sum(1 for c in cases if c.find("failure") is not None),
      sum(1 for c in cases if c.find("skipped") is not None))
PY
}
# junit_failed FILE -> the failed "classname/name" test cases, space-separated
junit_failed() {
  /usr/bin/python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(" ".join(f"{c.get('classname')}/{c.get('name')}" for c in root.iter("testcase") if c.find("failure") is not None))
PY
}

# --- healthy: PASS, exit 0, no drain; the SKU from the nodes' instance type
accept healthy --from "$FIX/healthy.json" --junit "$WORK/healthy.xml"
expect_eq "healthy: exit 0" "$rc" "0"
expect_has "healthy: verdict PASS with the detected SKU" "$out" "Acceptance verdict: PASS (profile quick, SKU p5.48xlarge"
expect_has "healthy: busbw against the published figure" "$out" "minimum 393.3 (90% of published 437.0; p5.48xlarge"
expect_has "healthy: nothing to drain" "$out" "Nothing to drain."
expect_not "healthy: no scontrol line" "$out" "scontrol"
read -r tests failures skipped <<<"$(junit_counts "$WORK/healthy.xml")"
expect_eq "healthy: JUnit has 4 nodes x 8 checks + 5 run-wide test cases, no failure" "$tests $failures" "37 0"

# --- a results directory works as well as its run.json
mkdir -p "$WORK/dir"
cp "$FIX/healthy.json" "$WORK/dir/run.json"
accept dir --from "$WORK/dir"
expect_eq "results directory: exit 0" "$rc" "0"

# --- straggler: h3 FAIL (straggler, busbw below the SKU minimum), drained; exit 1
accept straggler --from "$FIX/straggler.json" --junit "$WORK/straggler.xml"
expect_eq "straggler: exit 1" "$rc" "1"
expect_has "straggler: verdict FAIL" "$out" "Acceptance verdict: FAIL (profile quick, SKU p5.48xlarge"
expect_has "straggler: h3 fails as the straggler" "$out" "FAIL straggler: 3 of 3 pairs flagged at 1G"
expect_has "straggler: h3 below the SKU minimum" "$out" "FAIL busbw_min: busbw 200.0 GB/s at 1G"
expect_has "straggler: scontrol line naming h3 only" "$out" \
  'scontrol update NodeName=h3 State=DRAIN Reason="podperf accept: busbw_min,straggler"'
expect_has "straggler: kubectl cordon h3" "$out" "kubectl cordon h3"
expect_eq "straggler: one node FAIL" "$(grep -cE '^  h[1-4] +FAIL$' <<<"$out")" "1"
expect_eq "straggler: JUnit failures are h3's two checks" "$(junit_failed "$WORK/straggler.xml")" "h3/busbw_min h3/straggler"

# --- the same run judged as p4d (no published 2-node figure): the busbw check is skipped, and the
#     nodes' own instance type disagrees (WARN); the straggler still fails
accept straggler-p4d --from "$FIX/straggler.json" --sku p4d.24xlarge
expect_eq "straggler --sku p4d: exit 1" "$rc" "1"
expect_has "--sku p4d: busbw skipped, no published figure" "$out" "SKIP busbw_min: no published 2-node busbw figure for p4d.24xlarge"
expect_has "--sku p4d: WARN that the nodes report p5" "$out" "WARN sku: judged as p4d.24xlarge but the nodes report p5.48xlarge"
expect_not "--sku p4d: h3 not drained for busbw" "$out" "busbw_min,straggler"

# --- filesystem-slow node: h2 FAIL with the full profile (pairs and filesystem)
accept fs-slow --from "$FIX/fs-slow.json" --profile full --junit "$WORK/fs-slow.xml"
expect_eq "fs-slow (full): exit 1" "$rc" "1"
expect_has "fs-slow: h2 fails as the slow filesystem node" "$out" "FAIL fs_slow_node: seq-write 225 MB/s"
expect_has "fs-slow: drain h2" "$out" 'scontrol update NodeName=h2 State=DRAIN Reason="podperf accept: fs_slow_node"'
expect_eq "fs-slow: JUnit failure h2/fs_slow_node" "$(junit_failed "$WORK/fs-slow.xml")" "h2/fs_slow_node"
accept fs-slow-quick --from "$FIX/fs-slow.json" --profile quick
expect_eq "fs-slow with quick (pairs only): exit 0" "$rc" "0"
accept fs-only --from "$FIX/fs-slow.json" --profile fs
expect_eq "fs-slow with the fs profile: exit 1" "$rc" "1"
expect_not "fs profile: no pair checks" "$out" "straggler"

# --- a profile whose stage the run lacks: run-wide FAIL, nothing to drain
accept healthy-full --from "$FIX/healthy.json" --profile full
expect_eq "healthy judged with full (no filesystem stage): exit 1" "$rc" "1"
expect_has "full: the missing stage named" "$out" "FAIL stages: profile full needs the filesystem stage"
expect_has "full: the failure is run-wide" "$out" "Nothing to drain (the failure is run-wide"

# --- wrong results: h4 FAIL, the others pass (blamed on h4)
accept wrong --from "$FIX/wrong.json" --junit "$WORK/wrong.xml"
expect_eq "wrong: exit 1" "$rc" "1"
expect_has "wrong: h4 fails with wrong results" "$out" "FAIL wrong_results: 3 of 3 pairs wrong results"
expect_has "wrong: drain h4" "$out" 'scontrol update NodeName=h4 State=DRAIN Reason="podperf accept: wrong_results"'
expect_has "wrong: kubectl cordon h4" "$out" "kubectl cordon h4"
read -r tests failures skipped <<<"$(junit_counts "$WORK/wrong.xml")"
expect_eq "wrong: JUnit well-formed with 1 failure" "$failures" "1"

# --- a profile file and bad usage (exit 2, one line naming what is wrong)
cat >"$WORK/strict.toml" <<'TOML'
[profile]
description = "strict"
stages = ["pairs"]

[pairs]
min_bytes = "256M"
max_bytes = "1G"
step_factor = 2
iters = 20
warmup = 5
retest = 1
concurrency = "round"

[judge]
blocking_findings = []
slow_link = "FAIL"
busbw_min_fraction = 1.01
TOML
accept bad-range --from "$FIX/healthy.json" --profile "$WORK/strict.toml"
expect_eq "profile file with an out-of-range value: exit 2" "$rc" "2"
expect_has "profile file error names file:line:key" "$out" "strict.toml:17: 'judge.busbw_min_fraction' = 1.01 is out of range"
sed -i 's/busbw_min_fraction = 1.01/busbw_min_fraction = 1.0/' "$WORK/strict.toml"
accept strict --from "$FIX/healthy.json" --profile "$WORK/strict.toml"
expect_eq "profile file at 100% of the published figure: h1's median 436 GB/s fails" "$rc" "1"
expect_has "profile file: h1 drained for busbw" "$out" 'scontrol update NodeName=h1 State=DRAIN Reason="podperf accept: busbw_min"'
expect_has "profile file: named by its path" "$out" "(profile $WORK/strict.toml"
accept bad-profile --from "$FIX/healthy.json" --profile quik
expect_eq "unknown profile: exit 2" "$rc" "2"
expect_has "unknown profile: lists the built-in ones" "$out" "unknown profile 'quik' (built in: fs, full, quick"
accept bad-sku --from "$FIX/healthy.json" --sku p9.huge
expect_eq "unknown SKU: exit 2" "$rc" "2"
accept bad-from --from "$WORK/none.json"
expect_eq "missing run.json: exit 2" "$rc" "2"
expect_has "missing run.json: named" "$out" "--from $WORK/none.json: No such file or directory"
accept bad-mix --from "$FIX/healthy.json" -e 64M
expect_eq "--from with a measuring option: exit 2" "$rc" "2"
expect_has "--from with -e: says why" "$out" "--from judges a finished run"
accept bad-junit --from "$FIX/healthy.json" --junit "$WORK/no/such/dir/j.xml"
expect_eq "--junit into a missing directory: exit 2" "$rc" "2"
"$PODPERF" accept --help >"$WORK/help" 2>&1
expect_has "accept --help lists --from" "$(cat "$WORK/help")" "--from"

echo "accept: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
