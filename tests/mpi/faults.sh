#!/usr/bin/env bash
# Faults during a run: a rank stopped with SIGSTOP (a hung pair) and a rank killed with SIGKILL.
# The run must end (watchdog or launcher), keep every finished round in events.jsonl and run.json,
# and name the pair that did not finish.
source "$(dirname "$0")/lib.sh" "$1"

# start_run RUN_ID TIMEOUT: 4 virtual nodes, rounds long enough to interrupt (about a second each).
start_run() {
  (timeout 120 mpirun --oversubscribe -np 4 "$PODPERF" pairs --virtual-nodes 4 -b 4M -e 4M -n 80 -w 1 \
    --timeout "$2" --out "$WORK/res" --run-id "$1" >"$WORK/$1.out" 2>&1
   echo $? >"$WORK/$1.rc") &
  for _ in $(seq 1 300); do
    grep -q '"event":"round"' "$WORK/res/$1/events.jsonl" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "$1: round 1 never finished"
  return 1
}

# signal_rank RUN_ID SIGNAL RANK
signal_rank() {
  local p
  for p in $(pgrep -f -- "--run-id $1"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$3"; then
      kill "-$2" "$p" && return 0
    fi
  done
  fail "$1: rank $3 not found"
  return 1
}

wait_run() {  # sets $took: seconds until the launcher returned
  local start=$SECONDS
  wait
  took=$((SECONDS - start))
}

# --- hung pair: rank 3 stopped; rank 0's watchdog ends the run after --timeout.
if start_run hang 6 && signal_rank hang STOP 3; then
  wait_run
  expect_eq "hung pair: exit 3" "$(cat "$WORK/hang.rc")" "3"
  if ((took <= 6 + 15)); then pass "hung pair: ended ${took}s after the stop (timeout 6s)"; else fail "took ${took}s"; fi
  run="$WORK/res/hang/run.json"
  expect_eq "hung pair: status" "$(jq -r .status "$run")" "timeout"
  expect_match "hung pair: rank 3's pair named unfinished" "$(jq -r '.unfinished[]' "$run")" "v3.*ranks .*3"
  expect_match "hung pair: error names the round and timeout" "$(jq -r .error "$run")" "round [0-9]+ did not finish within 6 s"
  rounds=$(grep -c '"event":"round"' "$WORK/res/hang/events.jsonl")
  if ((rounds >= 1)); then pass "hung pair: $rounds finished round(s) in events.jsonl"; else fail "no rounds kept"; fi
  ok_pairs=$(jq '[.pairs[] | select(.status == "ok")] | length' "$run")
  if ((ok_pairs >= 2)); then pass "hung pair: $ok_pairs measured pairs kept in run.json"; else fail "ok pairs $ok_pairs"; fi
  expect_eq "hung pair: no node judged from unfinished pairs" \
    "$(jq '[.stragglers[] | select(.total_pairs == 0)] | length' "$run")" "0"
  expect_match "hung pair: message on stderr" "$(cat "$WORK/hang.out")" "podperf: error: round [0-9]+ did not finish"
  /usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/hang" --nodes 4 >/dev/null &&
    pass "hung pair: partial run.json valid against the schema" || fail "partial run.json invalid"
fi
pkill -CONT -f -- "--run-id hang" 2>/dev/null; pkill -KILL -f -- "--run-id hang" 2>/dev/null

# --- hung pair in block 2 of --repeat 2: the watchdog ends the run; the pairs that had not reported
# keep their block-1 measurement (80 samples), the others both blocks' (160); the unfinished line says
# the block.
(timeout 120 mpirun --oversubscribe -np 4 "$PODPERF" pairs --virtual-nodes 4 -b 4M -e 4M -n 80 -w 1 --repeat 2 \
  --retest 0 --timeout 6 --out "$WORK/res" --run-id hangb2 >"$WORK/hangb2.out" 2>&1
 echo $? >"$WORK/hangb2.rc") &
started=0
for _ in $(seq 1 600); do
  if grep -q '"block":2' "$WORK/res/hangb2/events.jsonl" 2>/dev/null; then started=1; break; fi
  sleep 0.1
done
if ((started)) && signal_rank hangb2 STOP 3; then
  wait_run
  expect_eq "hung pair in block 2: exit 3" "$(cat "$WORK/hangb2.rc")" "3"
  run="$WORK/res/hangb2/run.json"
  expect_eq "hung pair in block 2: status" "$(jq -r .status "$run")" "timeout"
  expect_match "hung pair in block 2: unfinished names the block" "$(jq -r '.unfinished[]' "$run")" "^block 2, round [0-9]+: .*v3"
  expect_eq "hung pair in block 2: every pair once, with 1 or 2 blocks of samples" \
    "$(jq -c '[(.pairs | length), ([.pairs[] | .samples_s | length] | unique)]' "$run")" "[6,[80,160]]"
  expect_eq "hung pair in block 2: every pair still ok" "$(jq '[.pairs[] | select(.status != "ok")] | length' "$run")" "0"
else
  fail "hung pair in block 2: block 2 never started"
fi
pkill -CONT -f -- "--run-id hangb2" 2>/dev/null; pkill -KILL -f -- "--run-id hangb2" 2>/dev/null

# --- killed rank: the launcher ends the job; rank 0 keeps what was measured. mpirun sends SIGTERM,
# then SIGKILL after odls_base_sigkill_timeout (1 s by default); on this loaded 2-core machine the
# write can miss that window now and then, so the test gives it 5 s (as a user on a slow filesystem
# would; the README says so).
export OMPI_MCA_odls_base_sigkill_timeout=5
if start_run kill 60 && signal_rank kill KILL 3; then
  wait_run
  rc=$(cat "$WORK/kill.rc")
  # mpirun reports the first failed process: the killed rank (128+9); podperf's own ranks exit 3.
  if [[ $rc -ne 0 ]]; then pass "killed rank: job failed (exit $rc)"; else fail "killed rank: exit 0"; fi
  if ((took <= 20)); then pass "killed rank: ended ${took}s after the kill"; else fail "took ${took}s"; fi
  run="$WORK/res/kill/run.json"
  expect_eq "killed rank: status" "$(jq -r .status "$run")" "aborted"
  expect_match "killed rank: pair of rank 3 named unfinished" "$(jq -r '.unfinished[]' "$run")" "v3.*ranks .*3"
  rounds=$(grep -c '"event":"round"' "$WORK/res/kill/events.jsonl")
  if ((rounds >= 1)); then pass "killed rank: $rounds finished round(s) in events.jsonl"; else fail "no rounds kept"; fi
  expect_eq "killed rank: end event written" "$(tail -1 "$WORK/res/kill/events.jsonl" | jq -r .status)" "aborted"
  # As after a crash that left no run.json (and no end event): podperf report rebuilds the run from
  # events.jsonl alone.
  mkdir -p "$WORK/crashed" && grep -v '"event":"end"' "$WORK/res/kill/events.jsonl" >"$WORK/crashed/events.jsonl"
  "$PODPERF" report "$WORK/crashed" --format md --out - >"$WORK/rebuilt.md" 2>"$WORK/rebuilt.err"
  expect_eq "crashed run: report from events.jsonl alone exits 0" "$?" "0"
  expect_match "crashed run: it says it was rebuilt" "$(cat "$WORK/rebuilt.err")" "rebuilt from .*events.jsonl .*no end event"
  expect_eq "crashed run: every pair result of events.jsonl is in the rebuilt report" \
    "$("$PODPERF" report "$WORK/crashed" --format csv --out - 2>/dev/null | grep -c '^pair,')" \
    "$(grep '"event":"round"' "$WORK/crashed/events.jsonl" | jq '.pairs | length' | jq -s add)"
  "$PODPERF" report "$WORK/crashed" >/dev/null 2>&1
  if [[ -s "$WORK/crashed/report.html" ]]; then pass "crashed run: report.html written beside events.jsonl"; else fail "crashed run: no report.html"; fi
fi
finish
