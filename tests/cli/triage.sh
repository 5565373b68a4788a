#!/usr/bin/env bash
# podperf triage end to end on tests/fixtures/triage: a FAIL log exits 1 with the root cause first, a
# healthy log exits 0, --json is valid JSON with the documented keys, --md renders, a .gz log is read as
# it is, a directory is read recursively, flight-recorder JSON dumps are compared across ranks, a podperf
# results directory is read for its captured nccl.* logs only; bad input exits 2 naming it: a missing path, an empty
# directory, a binary file alone, --json with --md.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
FIX=$(cd "$(dirname "$0")/../fixtures/triage" && pwd)
WORK=$(mktemp -d /tmp/podperf-triage.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
expect_rc() {  # NAME WANT GOT
  if [[ $3 -eq $2 ]]; then pass "$1: exit $2"; else fail "$1: exit $3, wanted $2: $(head -c 400 "$WORK/err")"; fi
}

"$PODPERF" triage "$FIX/oom_cascade_srun.log" >"$WORK/out" 2>"$WORK/err"
expect_rc "oom cascade" 1 $?
if head -1 "$WORK/out" | grep -q "^podperf triage: FAIL: GPU memory exhausted"; then
  pass "oom cascade: the first line names the root cause"
else
  fail "oom cascade: $(head -1 "$WORK/out")"
fi
first=$(grep -m1 -E '^(FAIL|WARN|INFO) P[0-2] ' "$WORK/out")
if grep -q "^FAIL P0 gpu.cuda_oom \[node-b2\].*root cause" <<<"$first"; then
  pass "oom cascade: the first finding is the OOM on node-b2"
else
  fail "oom cascade: first finding: $first"
fi
if grep -q "^first failure in time: net.peer_closed" "$WORK/out"; then
  pass "oom cascade: the consequence printed before its cause is named as the first failure"
else
  fail "oom cascade: no first-failure line: $(head -4 "$WORK/out")"
fi

"$PODPERF" triage --json "$FIX/fr_dumps" >"$WORK/json" 2>"$WORK/err"
expect_rc "flight-recorder JSON dumps" 1 $?
if jq -e '.verdict == "FAIL" and .root_cause == "pytorch.fr_behind"' "$WORK/json" >/dev/null; then
  pass "flight recorder: the rank behind is the root cause"
else
  fail "flight recorder: $(head -c 400 "$WORK/json")"
fi

mkdir -p "$WORK/results"
echo '{"schema_version": 1}' >"$WORK/results/run.json"
echo 'CONCERN nccl.errors: Connection closed by remote peer' >"$WORK/results/summary.md"
cp "$FIX/healthy_efa_ray.log" "$WORK/results/nccl.p5-node-1.4242"
"$PODPERF" triage --json "$WORK/results" >"$WORK/json" 2>"$WORK/err"
expect_rc "results directory" 0 $?
if jq -e '.verdict == "PASS" and (.files | length) == 1' "$WORK/json" >/dev/null; then
  pass "results directory: only the captured nccl.* log is read"
else
  fail "results directory: $(jq -c '[.verdict, [.files[].file]]' "$WORK/json")"
fi

"$PODPERF" triage "$FIX/healthy_efa_ray.log" >"$WORK/out" 2>"$WORK/err"
expect_rc "healthy" 0 $?
if head -1 "$WORK/out" | grep -q "^podperf triage: PASS"; then pass "healthy: PASS"; else fail "healthy: $(head -1 "$WORK/out")"; fi
if grep -q "p5-node-1 .*Libfabric .*efa .*32 of 32" "$WORK/out"; then
  pass "healthy: transport table with the NIC count against configs/skus"
else
  fail "healthy: transport table: $(tail -2 "$WORK/out")"
fi

"$PODPERF" triage --json "$FIX/ib_completion_mpirun.log" >"$WORK/json" 2>"$WORK/err"
expect_rc "json" 1 $?
if jq -e '.verdict == "FAIL" and (.findings[0] | .tag == "FAIL" and .priority == "P0" and .check == "ib.completion_error"
          and .host == "gpu-01" and (.evidence | length) == 2 and (.cause | length) > 0 and (.next_step | length) > 0)
          and (.transport | length) == 2' "$WORK/json" >/dev/null; then
  pass "json: documented keys and the root cause first"
else
  fail "json: $(head -c 600 "$WORK/json")"
fi

# Watchdog timeouts alone: the job failed, its cause is not in the log (FAIL, was INCONCLUSIVE: issue 33).
"$PODPERF" triage --md "$FIX/late_watchdog.log" >"$WORK/md" 2>"$WORK/err"
expect_rc "md, watchdog only" 1 $?
if grep -q "^## podperf triage: FAIL" "$WORK/md" && grep -q "Collect next" "$WORK/md" &&
  grep -q "root cause is not in these logs" "$WORK/md"; then
  pass "md: FAIL without its cause, with what to collect"
else
  fail "md: $(head -5 "$WORK/md")"
fi

mkdir -p "$WORK/logs/rank0"
gzip -c "$FIX/shm_pdsh.log" >"$WORK/logs/rank0/job.log.gz"
cp "$FIX/healthy_efa_ray.log" "$WORK/logs/"
"$PODPERF" triage "$WORK/logs" >"$WORK/out" 2>"$WORK/err"
expect_rc "directory with a .gz" 1 $?
if grep -q "^FAIL P0 shm.capacity" "$WORK/out"; then pass "directory: the .gz log was read"; else fail "directory: $(head -5 "$WORK/out")"; fi

printf 'ELF\0\0\0binary' >"$WORK/logs/core.bin"
"$PODPERF" triage "$WORK/logs" >"$WORK/out" 2>"$WORK/err"
expect_rc "directory with a binary file" 1 $?
if grep -q "INFO P2 input.binary_skipped" "$WORK/out" && grep -q "core.bin" "$WORK/out"; then
  pass "binary file among logs: skipped with an INFO naming it"
else
  fail "binary among logs: $(grep -i binary "$WORK/out")"
fi

"$PODPERF" triage "$WORK/logs/core.bin" >"$WORK/out" 2>"$WORK/err"
expect_rc "binary file alone" 2 $?
grep -q "binary" "$WORK/err" && pass "binary alone: said why" || fail "binary alone: $(cat "$WORK/err")"

"$PODPERF" triage "$WORK/nope.log" >"$WORK/out" 2>"$WORK/err"
expect_rc "missing path" 2 $?
grep -qi "nope.log: no such file" "$WORK/err" && pass "missing path: named" || fail "missing: $(cat "$WORK/err")"

mkdir -p "$WORK/empty"
"$PODPERF" triage "$WORK/empty" >"$WORK/out" 2>"$WORK/err"
expect_rc "empty directory" 2 $?
grep -q "holds no files" "$WORK/err" && pass "empty directory: named" || fail "empty dir: $(cat "$WORK/err")"

"$PODPERF" triage --json --md "$FIX/single_rank.log" >"$WORK/out" 2>"$WORK/err"
expect_rc "--json with --md" 2 $?

"$PODPERF" triage >"$WORK/out" 2>"$WORK/err"
expect_rc "no path" 2 $?

echo "$PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
