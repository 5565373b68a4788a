#!/usr/bin/env bash
# Options of podperf pairs under mpirun: sequential concurrency, retesting chosen pairs (by index and
# by name), threshold override, sizes from -b/-e/-f, the adaptive schedule (rank 0 decides each step
# and broadcasts it).
source "$(dirname "$0")/lib.sh" "$1"
host=$(hostname)
common=(--virtual-nodes 4 -n 3 -w 1 --out "$WORK/res")

podperf_mpirun 4 pairs "${common[@]}" -b 16K -e 256K -f 4 --concurrency sequential --run-id seq
expect_match "sequential: ran" "$?" "^[01]$"
expect_match "sequential: one pair per step in the progress" "$(cat "$WORK/out")" "pair 6/6 done"
run="$WORK/res/seq/run.json"
expect_eq "sequential: 3 circle rounds recorded" "$(jq .rounds_completed "$run")" "3"
expect_eq "sequential: sizes 16K 64K 256K" "$(jq -c .options.sizes_bytes "$run")" "[16384,65536,262144]"
expect_eq "sequential: 6 events of one pair" "$(grep -c '"event":"round"' "$WORK/res/seq/events.jsonl")" "6"
expect_eq "sequential: 18 pair results" "$(jq '.pairs | length' "$run")" "18"

podperf_mpirun 4 pairs "${common[@]}" -b 64K -e 64K --pairs 0:3,1:2,0:1 --run-id retest --threshold 0.2
expect_match "retest: ran" "$?" "^[01]$"
run="$WORK/res/retest/run.json"
expect_eq "retest: only the chosen pairs" "$(jq -c '[.pairs[].nodes] | sort' "$run")" "[[0,1],[0,3],[1,2]]"
expect_eq "retest: packed into 2 rounds" "$(jq .rounds_planned "$run")" "2"
expect_eq "retest: threshold override recorded" "$(jq .options.threshold "$run")" "0.2"

podperf_mpirun 4 pairs "${common[@]}" -b 64K -e 64K --pairs "$host/v1:$host/v3" --run-id byname -c 0
expect_match "retest by name: ran" "$?" "^[01]$"
expect_eq "retest by name: the named pair" "$(jq -c '[.pairs[].nodes]' "$WORK/res/byname/run.json")" "[[1,3]]"
expect_eq "-c 0 recorded" "$(jq .options.check "$WORK/res/byname/run.json")" "false"
# --schedule adaptive on the host backend: every rank follows rank 0's steps; screening matchings,
# then retests; run.json checks out and records the schedule, the seed and the search's account.
podperf_mpirun 6 pairs --virtual-nodes 6 -n 3 -w 1 --out "$WORK/res" -b 64K -e 64K --schedule adaptive --seed 5 \
  --run-id adaptive
expect_match "adaptive: ran" "$?" "^[01]$"
if out=$(python3 "$TESTS_DIR/check_run.py" "$WORK/res/adaptive" --nodes 6); then pass "adaptive: $out"; else fail "adaptive: $out"; fi
if python3 - "$WORK/res/adaptive" <<'PY'
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["options"]["schedule"] == "adaptive" and run["options"]["seed"] == 5, run["options"]
assert run["rounds_completed"] >= 3 and run["rounds_completed"] == run["rounds_planned"], run["rounds_completed"]
assert run["rounds_full_schedule"] == 5
# Each step is one event (a pair met before runs as a retest of its first measurement).
by_round = {}
for line in open(sys.argv[1] + "/events.jsonl"):
    ev = json.loads(line)
    if ev["event"] in ("round", "retest"):
        by_round.setdefault(ev["round"], []).extend(n for p in ev["pairs"] for n in p["nodes"])
for r in (1, 2, 3):  # screening: perfect matchings of the 6 nodes
    assert sorted(by_round[r]) == list(range(6)), (r, by_round.get(r))
assert any(f["check"] == "pairs.adaptive_search" for f in run["findings"])
PY
then pass "adaptive: 3 screening matchings, rounds and seed recorded, the search's finding"
else fail "adaptive: run.json facts"; fi

# --repeat 2: every step in 2 blocks, each block its own shuffled order (seed 3); run.json records the
# blocks and every pair holds both blocks' iterations; the events say the block; compare uses the blocks.
podperf_mpirun 4 pairs "${common[@]}" -b 16K -e 64K -f 4 --repeat 2 --seed 3 --retest 0 --run-id blocks
expect_match "repeat 2: ran" "$?" "^[01]$"
expect_match "repeat 2: progress counts both blocks" "$(cat "$WORK/out")" "round 6/6 done.*block 2/2"
if out=$(python3 "$TESTS_DIR/check_run.py" "$WORK/res/blocks" --nodes 4 --complete); then pass "repeat 2: $out"; else fail "repeat 2: $out"; fi
if python3 - "$WORK/res/blocks" <<'PY'
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
b = run["blocks"]
assert b["count"] == 2 and b["seed"] == 3 and b["cases"] == "steps", b
assert len(b["order"]) == 2 and all(sorted(o) == [0, 1, 2] for o in b["order"]), b["order"]
assert all(len(p["samples_s"]) == 2 * 3 for p in run["pairs"]), [len(p["samples_s"]) for p in run["pairs"]]
assert run["rounds_planned"] == 6 and run["rounds_completed"] == 6, (run["rounds_planned"], run["rounds_completed"])
events = [json.loads(l) for l in open(sys.argv[1] + "/events.jsonl")]
rounds = [(e["block"], e["round"]) for e in events if e["event"] == "round"]
assert sorted(rounds) == [(k, r) for k in (1, 2) for r in (1, 2, 3)], rounds
assert [r for k, r in rounds if k == 1] == [o + 1 for o in b["order"][0]], (rounds, b["order"])
PY
then pass "repeat 2: 2 blocks recorded, each in its order, 6 samples per pair, block events"
else fail "repeat 2: run.json facts"; fi
"$PODPERF" compare "$WORK/res/blocks" "$WORK/res/blocks" --json > "$WORK/cmp.json"
expect_match "repeat 2: compare on blocks exits 0" "$?" "^0$"
expect_eq "repeat 2: compare's units are the blocks" "$(jq -r '[.units, .units_before, .method] | join(" ")' "$WORK/cmp.json")" \
  "blocks 2 block_level_moderated_t"
podperf_mpirun 4 pairs "${common[@]}" -b 64K -e 64K --repeat 2 --schedule adaptive --run-id blocks-adaptive
expect_eq "repeat with adaptive: usage error" "$?" "2"
expect_match "repeat with adaptive: says why" "$(cat "$WORK/out")" "--repeat 2 and --schedule adaptive exclude each other"

for op in all_gather reduce_scatter alltoall broadcast reduce sendrecv; do
  podperf_mpirun 4 pairs "${common[@]}" -b 64K -e 64K --op "$op" -d double --run-id "op-$op"
  expect_match "pairs --op $op: ran" "$?" "^[01]$"
  expect_eq "pairs --op $op -d double: every pair checked, wrong 0" \
    "$(jq -c '[.pairs[] | [.op, .dtype, .status, .wrong]] | unique' "$WORK/res/op-$op/run.json")" "[[\"$op\",\"double\",\"ok\",0]]"
done
finish
