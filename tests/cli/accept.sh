#!/usr/bin/env bash
# podperf accept --from: fixed runs (tests/fixtures/runs/accept, four p5.48xlarge nodes) judged offline
# without MPI: verdict text, exit codes, the drain/reboot/replace lines of Slurm, Kubernetes and HyperPod's
# API with the nodes' scheduler names and instance ids, JUnit XML (well-formed, one failure per failed
# check), --sku and --profile switching, the profile's requirements and overrides, bad usage (exit 2).
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
expect_has "healthy: the run measured what quick asks" "$out" "Profile: PASS the run measured what profile quick asks"
read -r tests failures skipped <<<"$(junit_counts "$WORK/healthy.xml")"
expect_eq "healthy: JUnit has 4 nodes x 8 checks + 6 run-wide test cases, no failure" "$tests $failures" "38 0"

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
expect_has "straggler: HyperPod Slurm replace line" "$out" '  scontrol update node=h3 state=fail reason="Action:Replace"'
expect_has "straggler: hostnames said to stand in for Slurm's node names" "$out" "Hostnames: Slurm's node names were not"
expect_not "straggler: no kubectl line without Kubernetes node names" "$out" "kubectl"
expect_not "straggler: no HyperPod API line without EC2 instance ids" "$out" "aws sagemaker"
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
# The run measured 1G, 20 iterations and 4 GB files, less than full asks (2G, 50, 4 GiB): not passed as full.
expect_eq "fs-slow: JUnit failures h2/fs_slow_node and the profile" "$(junit_failed "$WORK/fs-slow.xml")" \
  "h2/fs_slow_node run/profile"
expect_has "fs-slow: full's unmet requirements named" "$out" "Profile: FAIL the run measured less than profile full asks"
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
# Its sizes and iterations are judged too, not the stage alone (a 1G, 20-iteration run is not full's).
expect_has "full: the acceptance size and iterations not met" "$out" \
  "Profile: FAIL the run measured less than profile full asks: sizes 256M..1G (2) judged at 1G (profile: 16M..2G, judged at 2G); 20 iterations (profile: 50); 5 warm-up (profile: 10); retest 1 (profile: 2)"

# --- wrong results: h4 FAIL, the others pass (blamed on h4)
accept wrong --from "$FIX/wrong.json" --junit "$WORK/wrong.xml"
expect_eq "wrong: exit 1" "$rc" "1"
expect_has "wrong: h4 fails with wrong results" "$out" "FAIL wrong_results: 3 of 3 pairs wrong results"
expect_has "wrong: drain h4" "$out" 'scontrol update NodeName=h4 State=DRAIN Reason="podperf accept: wrong_results"'
expect_has "wrong: HyperPod Slurm reboot line" "$out" '  scontrol update node=h4 state=fail reason="Action:Reboot"'
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

# --- HyperPod Slurm: Slurm's node names (not the hostnames worker-N), HyperPod's Action reasons, the API
#     with the instance ids; --cluster-name fills the API lines in. Each printed line runs as printed.
accept slurm-names --from "$FIX/slurm-names.json" --cluster-name my-hyperpod --junit "$WORK/names.xml"
expect_eq "slurm names: exit 1" "$rc" "1"
expect_has "slurm names: drain ip-10-1-2-3 for the straggler" "$out" \
  '  scontrol update NodeName=ip-10-1-2-3 State=DRAIN Reason="podperf accept: busbw_min,straggler"'
expect_has "slurm names: drain ip-10-1-2-4 for its Xid" "$out" \
  '  scontrol update NodeName=ip-10-1-2-4 State=DRAIN Reason="podperf accept: blocking_finding"'
expect_has "slurm names: HyperPod reboot" "$out" '  scontrol update node=ip-10-1-2-3,ip-10-1-2-4 state=fail reason="Action:Reboot"'
expect_has "slurm names: HyperPod replace" "$out" '  scontrol update node=ip-10-1-2-3,ip-10-1-2-4 state=fail reason="Action:Replace"'
expect_has "slurm names: API reboot with the instance ids" "$out" \
  "  aws sagemaker batch-reboot-cluster-nodes --cluster-name my-hyperpod --node-ids i-0123456789abcdef2 i-0123456789abcdef3"
expect_has "slurm names: API replace with the instance ids" "$out" \
  "  aws sagemaker batch-replace-cluster-nodes --cluster-name my-hyperpod --node-ids i-0123456789abcdef2 i-0123456789abcdef3"
expect_has "slurm names: replacing destroys the volumes, said" "$out" "destroys its volumes, root and secondary"
expect_not "slurm names: no hostname in a command" "$(grep -E '^  (scontrol|kubectl|aws) ' <<<"$out")" "worker-"
expect_not "slurm names: no kubectl line on a Slurm run" "$out" "kubectl"
expect_has "slurm names: the heading says what the lines do" "$out" "Drain, reboot or replace 2 FAIL nodes: worker-3 worker-4"
# Every command line parses as one shell command (bash -n), comments included.
grep -E '^  (#|scontrol|kubectl|aws) ' <<<"$out" | sed 's/^  //' >"$WORK/actions.sh"
if bash -n "$WORK/actions.sh" 2>"$WORK/bashn"; then pass "slurm names: the action lines are valid shell"; else fail "bash -n: $(cat "$WORK/bashn")"; fi
accept slurm-placeholder --from "$FIX/slurm-names.json"
expect_has "without --cluster-name: the placeholder, said to be one" "$out" "--cluster-name CLUSTER_NAME --node-ids"
expect_has "without --cluster-name: why" "$out" "CLUSTER_NAME: your HyperPod cluster's name or ARN, which podperf cannot know"

# --- HyperPod EKS: the Kubernetes node names, never the pods' hostnames (podperf-pairs-worker-N).
accept eks-names --from "$FIX/eks-names.json"
expect_eq "eks names: exit 1" "$rc" "1"
expect_has "eks names: cordon the node" "$out" "  kubectl cordon hyperpod-i-0fedcba9876543212"
expect_has "eks names: HyperPod EKS reboot label" "$out" \
  "  kubectl label node hyperpod-i-0fedcba9876543212 sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReboot --overwrite"
expect_has "eks names: HyperPod EKS replace label" "$out" \
  "  kubectl label node hyperpod-i-0fedcba9876543212 sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReplacement --overwrite"
expect_has "eks names: API replace" "$out" "  aws sagemaker batch-replace-cluster-nodes --cluster-name CLUSTER_NAME --node-ids i-0fedcba9876543212"
expect_not "eks names: no kubectl line names a pod" "$(grep -E '^  kubectl ' <<<"$out")" "podperf-pairs-worker"

# --- a run measured with overrides (accept --profile quick -b 1M -e 4M -n 5): WARN, not "PASS (profile quick)"
accept overridden --from "$FIX/overridden.json"
expect_eq "overridden: exit 0 (the user asked for it)" "$rc" "0"
expect_has "overridden: every override in the headline" "$out" "Acceptance verdict: WARN (profile quick with overrides -b 1M -e 4M -n 5,"
expect_has "overridden: what was not met" "$out" \
  "Profile: WARN not profile quick's acceptance: overridden on the command line: sizes 1M..4M (3) judged at 4M (profile: 256M..1G, judged at 1G); 5 iterations (profile: 20)"
expect_not "overridden: never PASS under quick's name" "$out" "Acceptance verdict: PASS"
# The same run judged against another profile: nobody asked for full's sizes to be skipped.
accept overridden-full --from "$FIX/overridden.json" --profile full
expect_eq "overridden judged as full: exit 1" "$rc" "1"
expect_has "overridden judged as full: FAIL profile" "$out" "Profile: FAIL the run measured less than profile full asks"

# --- podperf pairs' default sizes (16M..256M) on p5: judged at 256M, where p5 publishes no figure; the
#     SKU minimum is checked at 128M, the largest measured size it publishes, and the text says so.
accept pairs-default --from "$FIX/pairs-default.json"
expect_has "default pairs: busbw judged at 128M" "$out" "PASS busbw_min: busbw 3"
expect_has "default pairs: at the largest published size, said" "$out" \
  "at 128M, the largest measured size with a published figure (none at the judged 256M)"
expect_not "default pairs: the SKU check not skipped" "$out" "NOT CHECKED"
accept pairs-default-p4de --from "$FIX/pairs-default.json" --sku p4de.24xlarge
expect_has "default pairs as p4de (published at 1G, 2G only): the skip on the first screen" \
  "$(sed -n 1,6p "$WORK/pairs-default-p4de.out")" "Bandwidth against the SKU NOT CHECKED on 4 of 4 nodes (busbw_min SKIP)"

# --- the JUnit and Prometheus files of --from are the measuring command's (one place writes both)
accept both --from "$FIX/straggler.json" --junit "$WORK/both.xml" --prometheus "$WORK/both.prom"
expect_has "--from: JUnit written" "$out" "JUnit: $WORK/both.xml"
expect_has "--from: Prometheus written" "$out" "Prometheus textfile: $WORK/both.prom"
expect_eq "--from: JUnit failures" "$(junit_failed "$WORK/both.xml")" "h3/busbw_min h3/straggler"
expect_has "--from: Prometheus run verdict FAIL" "$(cat "$WORK/both.prom")" 'podperf_run_verdict{profile="quick",sku="p5.48xlarge"} 2'
# A file that cannot be written (/proc takes no new file, even from root): exit 3 after the verdict, the
# error on stderr; the Prometheus file is still written.
"$PODPERF" accept --from "$FIX/healthy.json" --junit /proc/podperf-accept-test.xml --prometheus "$WORK/ro.prom" \
  >"$WORK/ro.out" 2>"$WORK/ro.err"
rc=$?
expect_eq "--junit not writable: exit 3" "$rc" "3"
expect_has "--junit not writable: the verdict still printed" "$(cat "$WORK/ro.out")" "Acceptance verdict: PASS"
expect_has "--junit not writable: one error line naming the file" "$(cat "$WORK/ro.err")" \
  "podperf: error: /proc/podperf-accept-test.xml"
if [[ -s "$WORK/ro.prom" ]]; then pass "--junit not writable: the Prometheus file still written"; else fail "no ro.prom"; fi

# --- podperf report --format junit judges an unjudged run in the command, and says so
mkdir -p "$WORK/unjudged"
/usr/bin/python3 - "$FIX/straggler.json" "$WORK/unjudged/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["command"] = "pairs"
run["verdict"] = {"status": "", "profile": "", "sku": "", "sku_busbw": [], "nodes": [], "checks": [], "drain": []}
json.dump(run, open(sys.argv[2], "w"))
PY
"$PODPERF" report "$WORK/unjudged" --format junit --out "$WORK/unjudged.xml" >"$WORK/rep.out" 2>&1
expect_eq "report --format junit of an unjudged run: failures as accept --from" "$(junit_failed "$WORK/unjudged.xml")" \
  "h3/busbw_min h3/straggler"
expect_has "report --format junit: says it judged" "$(cat "$WORK/rep.out")" "was not judged by podperf accept: judged with profile quick"

echo "accept: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
