#!/usr/bin/env bash
# podperf pairs --backend sim (the modelled fabric, one process, no mpirun): the adaptive schedule on
# 256 nodes names the injected stragglers (configs/sim/stragglers.toml: nodes 3, 17, 42) in far
# fewer rounds than every pair; run.json and events.jsonl match docs/run.schema.json; the same seed
# gives the same measurements and another seed others; every output says SIMULATED; the full schedule
# measures every pair; the rack model carries its topology; bad input is exit 2 naming what and where.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK_RUN="$HERE/../mpi/check_run.py"
WORK=$(mktemp -d /tmp/podperf-sim.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

sim() {  # sim RUN_ID ARGS...: runs podperf pairs --backend sim into $WORK/RUN_ID, rc in $rc
  local id=$1
  shift
  "$PODPERF" pairs --backend sim --out "$WORK" --run-id "$id" "$@" >"$WORK/$id.out" 2>"$WORK/$id.err"
  rc=$?
}

# Adaptive search, 256 nodes, 3 slow nodes: exit 1 (stragglers), the run checks out.
sim a --sim-nodes 256 --sim-model stragglers --schedule adaptive --seed 7
if [[ $rc -eq 1 ]]; then pass "adaptive: exit 1 (stragglers found)"; else fail "adaptive: exit $rc: $(tail -3 "$WORK/a.err")"; fi
if out=$(python3 "$CHECK_RUN" "$WORK/a" --nodes 256); then pass "adaptive: $out"; else fail "adaptive: $out"; fi
if python3 - "$WORK/a/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert run["simulated"] is True and run["backend"] == "sim", (run["simulated"], run["backend"])
assert run["sim_model"].startswith("configs/sim/stragglers.toml"), run["sim_model"]
assert run["options"]["schedule"] == "adaptive" and run["options"]["seed"] == 7, run["options"]
named = sorted(s["hostname"] for s in run["stragglers"])
assert named == ["sim0003", "sim0017", "sim0042"], named
assert run["rounds_full_schedule"] == 255, run["rounds_full_schedule"]
assert 3 <= run["rounds_completed"] <= 16, run["rounds_completed"]
assert run["rounds_completed"] == run["rounds_planned"], (run["rounds_completed"], run["rounds_planned"])
rounds = {p["round"] for p in run["pairs"]}
assert max(rounds) <= run["rounds_completed"], max(rounds)
assert len(run["pairs"]) < 255 * 128 // 10, len(run["pairs"])  # a fraction of every pair
assert any(f["check"] == "pairs.adaptive_search" for f in run["findings"])
# A straggler's next step reruns the same modelled fabric, not a real network.
for s in run["stragglers"]:
    # ...complete as printed: the run's sizes and iterations, judged against this run, never itself.
    for part in ("podperf pairs --backend sim --sim-model stragglers --sim-nodes 256 --seed 7", "-b 256M -e 256M",
                 "-n 20 -w 5", "--pairs " + s["hostname"] + ":", "--baseline-from "):
        assert part in s["next_step"], (part, s["next_step"])
PY
then pass "adaptive: simulated, stragglers sim0003 sim0017 sim0042, rounds within 2*log2(256)"
else fail "adaptive: run.json facts"; fi
if grep -q "^SIMULATED (model configs/sim/stragglers.toml" "$WORK/a.out" && grep -q "adaptive schedule (seed 7): [0-9]* rounds instead of 255" "$WORK/a.out"; then
  pass "adaptive: the summary says SIMULATED and the rounds saved"
else fail "adaptive: summary: $(head -5 "$WORK/a.out")"; fi

# Same seed, same measurements; another seed, others.
sim b --sim-nodes 256 --sim-model stragglers --schedule adaptive --seed 7
sim c --sim-nodes 256 --sim-model stragglers --schedule adaptive --seed 8
if python3 - "$WORK/a/run.json" "$WORK/b/run.json" "$WORK/c/run.json" <<'PY'
import json, sys
def measured(path):
    run = json.load(open(path))
    return [(p["round"], p["nodes"], p["size_bytes"], p["samples_s"], p["retest_samples_s"]) for p in run["pairs"]]
a, b, c = (measured(p) for p in sys.argv[1:])
assert a == b, "same seed, different measurements"
assert a != c, "another seed, same measurements"
PY
then pass "same seed: identical measurements; seed 8: others"; else fail "determinism"; fi

# Reports: HTML banner, markdown, CSV column.
"$PODPERF" report "$WORK/a" --format html >/dev/null 2>&1 && grep -q 'id="simulated"' "$WORK/a/report.html" \
  && pass "HTML: simulated banner" || fail "HTML: no simulated banner"
"$PODPERF" report "$WORK/a" --format md --out - 2>/dev/null | grep -q "SIMULATED" \
  && pass "markdown: SIMULATED" || fail "markdown: no SIMULATED"
csv=$("$PODPERF" report "$WORK/a" --format csv --out - 2>/dev/null)
if head -1 <<<"$csv" | grep -q ",simulated" && sed -n 2p <<<"$csv" | grep -q ",true" ; then
  pass "CSV: simulated column"; else fail "CSV: $(head -2 <<<"$csv")"; fi

# The full schedule on the model: every pair once per size, rounds as the circle method gives, exit 0.
sim full --sim-nodes 16 --sim-model healthy --seed 1 -b 64M -e 256M
if [[ $rc -eq 0 ]]; then pass "full schedule, healthy: exit 0"; else fail "full schedule: exit $rc: $(tail -3 "$WORK/full.err")"; fi
if out=$(python3 "$CHECK_RUN" "$WORK/full" --nodes 16 --complete); then pass "full schedule: $out"; else fail "full schedule: $out"; fi

# Topology: the rack model's levels and names; the slow rack's 16 nodes are stragglers.
sim rack --sim-nodes 64 --sim-model rack --seed 3 -b 256M -e 256M
if python3 - "$WORK/rack/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert run["topology_levels"] == ["network-node-layer", "rack"], run["topology_levels"]
assert run["nodes"][40]["topology"] == ["network-node-layer-0000", "rack-0002"], run["nodes"][40]["topology"]
named = {s["hostname"] for s in run["stragglers"]}
rack = {f"sim{i:04d}" for i in range(32, 48)}
assert rack <= named, sorted(rack - named)
assert named - rack <= {"sim0052"}, sorted(named - rack)  # the flapping node, or nobody else
PY
then pass "rack model: topology in run.json, the slow rack named"; else fail "rack model: run.json facts"; fi

# --repeat 4 on the model: every round once per block (each block's own order), each pair's samples
# from 4 measurements (a fresh pair draw each: pair_cv is the block effect); compare with one run per
# side tests the blocks: healthy against healthy (another seed) is no change, exit 0; a node 20% slower
# (busbw x 0.8) is found on its pairs, exit 1 with --fail-on 5; a run without blocks against one with is
# the run as unit with a warning; --repeat with --schedule adaptive is exit 2.
sim blk1 --sim-nodes 8 --sim-model healthy --seed 1 -b 256M -e 256M --repeat 4
if out=$(python3 "$CHECK_RUN" "$WORK/blk1" --nodes 8 --complete); then pass "repeat 4: $out"; else fail "repeat 4: $out"; fi
expect_blocks=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["blocks"]["count"], len(r["pairs"][0]["samples_s"]), r["rounds_completed"])' "$WORK/blk1/run.json")
[[ "$expect_blocks" == "4 80 28" ]] && pass "repeat 4: 4 blocks, 4 x 20 samples a pair, 4 x 7 rounds" || fail "repeat 4: $expect_blocks"
grep -q "round 28/28 done.*block 4/4" "$WORK/blk1.err" && pass "repeat 4: progress counts every block" ||
  fail "repeat 4: progress: $(grep 'done' "$WORK/blk1.err" | tail -2)"
sim blk2 --sim-nodes 8 --sim-model healthy --seed 2 -b 256M -e 256M --repeat 4
"$PODPERF" compare "$WORK/blk1" "$WORK/blk2" --fail-on 5 >"$WORK/blk.cmp" 2>&1
crc=$?
if [[ $crc -eq 0 ]] && grep -q "the block is the unit (4 BEFORE, 4 AFTER blocks" "$WORK/blk.cmp" &&
  grep -q "Summary: 0 slower, 0 faster, 28 no change" "$WORK/blk.cmp" &&
  grep -q "WARNING: the units are blocks of one job" "$WORK/blk.cmp"; then
  pass "compare on blocks, healthy vs healthy: no change, exit 0, the launch-to-launch warning"
else fail "compare on blocks, healthy: exit $crc: $(head -5 "$WORK/blk.cmp")"; fi
sed 's/^description = .*/description = "node 3 20% slower"/' "$HERE/../../configs/sim/healthy.toml" >"$WORK/slow3.toml"
printf '\n[[slow_node]]\nnode = 3\nfactor = 0.8\n' >>"$WORK/slow3.toml"
sim blk3 --sim-nodes 8 --sim-model "$WORK/slow3.toml" --seed 3 -b 256M -e 256M --repeat 4
# One job a side: blocks cannot see launch-to-launch variance, so 20% is within the default 25%
# run-to-run allowance (no claim, exit 0) and found with --allowance 10.
"$PODPERF" compare "$WORK/blk1" "$WORK/blk3" --fail-on 5 >"$WORK/blk3.cmp" 2>&1
crc=$?
if [[ $crc -eq 0 ]] && grep -q "Summary: 0 slower, 0 faster, 28 no change" "$WORK/blk3.cmp"; then
  pass "compare on blocks, node 3 20% slower: within the 25% run-to-run allowance, exit 0"
else fail "compare on blocks, 20% within the allowance: exit $crc: $(grep -m3 'Summary\|slower' "$WORK/blk3.cmp")"; fi
"$PODPERF" compare "$WORK/blk1" "$WORK/blk3" --fail-on 5 --allowance 10 --json >"$WORK/blk3.json" 2>&1
crc=$?
if [[ $crc -eq 1 ]] && python3 - "$WORK/blk3.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert c["units"] == "blocks" and c["method"] == "block_level_moderated_t", (c["units"], c["method"])
slower = sorted(m["key"]["nodes"] for m in c["metrics"] if m["verdict"] == "slower")
want = sorted("<->".join(sorted(("sim0003", f"sim{i:04d}"))) for i in range(8) if i != 3)
assert slower == want, slower
PY
then pass "compare on blocks, node 3 20% slower, --allowance 10: its 7 pairs slower, no others, exit 1"
else fail "compare on blocks, slow node: exit $crc: $(head -c 600 "$WORK/blk3.json")"; fi
sim plain --sim-nodes 8 --sim-model healthy --seed 4 -b 256M -e 256M
"$PODPERF" compare "$WORK/plain" "$WORK/blk1" >"$WORK/mixed.cmp" 2>&1
crc=$?
if [[ $crc -eq 0 ]] && grep -q "WARNING: blocks pooled: AFTER has blocks and BEFORE does not" "$WORK/mixed.cmp"; then
  pass "compare, blocks on one side only: the run is the unit, with the warning"
else fail "compare mixed: exit $crc: $(head -5 "$WORK/mixed.cmp")"; fi
"$PODPERF" compare --before "$WORK/blk1" "$WORK/plain" --after "$WORK/blk2" "$WORK/blk3" >"$WORK/mix2.cmp" 2>&1
crc=$?
if [[ $crc -eq 2 ]] && grep -q "are not repeats of one setup (4 blocks (--repeat 4) vs no blocks)" "$WORK/mix2.cmp"; then
  pass "compare, one side mixing blocks and none: exit 2 naming the runs"
else fail "compare mixed side: exit $crc: $(cat "$WORK/mix2.cmp")"; fi
sim blkad --sim-nodes 16 --schedule adaptive --repeat 2
if [[ $rc -eq 2 ]] && grep -q "\-\-repeat 2 and --schedule adaptive exclude each other" "$WORK/blkad.err"; then
  pass "--repeat with --schedule adaptive: exit 2"; else fail "--repeat adaptive: exit $rc: $(cat "$WORK/blkad.err")"; fi

# Bad input: exit 2, naming what and where; nothing measured.
sim both --sim-nodes 16 --schedule adaptive --pairs 0:1
if [[ $rc -eq 2 ]] && grep -q "exclude each other" "$WORK/both.err"; then
  pass "--pairs with --schedule adaptive: exit 2"; else fail "--pairs adaptive: exit $rc: $(cat "$WORK/both.err")"; fi
printf '[model]\ndescription = "x"\nranks_per_node = 1\nlatency_us = 1.0\nbusbw_gbps = 10.0\nnic_factor = 1.0\n[noise]\npair_cv = 0.0\niteration_cv = 0.0\n[[slow_node]]\nnode = 99\nfactor = 0.5\n' >"$WORK/bad.toml"
sim bad --sim-nodes 32 --sim-model "$WORK/bad.toml"
if [[ $rc -eq 2 ]] && grep -q "bad.toml:11: 'slow_node.node' = 99 but the modelled fabric has 32 nodes" "$WORK/bad.err"; then
  pass "a fault beyond --sim-nodes: exit 2 with file:line"; else fail "bad model: exit $rc: $(cat "$WORK/bad.err")"; fi
[[ ! -e "$WORK/bad" ]] && pass "bad model: no results directory" || fail "bad model left $WORK/bad"
sim unknown --sim-model nosuch
if [[ $rc -eq 2 ]] && grep -q "nosuch" "$WORK/unknown.err" && grep -q "healthy" "$WORK/unknown.err"; then
  pass "unknown model: exit 2 listing the built-in ones"; else fail "unknown model: exit $rc: $(cat "$WORK/unknown.err")"; fi

# --threshold is the run's own: recorded in run.json and the start event, and the rebuild from
# events.jsonl judges with it (it judged with the built-in 5% and named a node 8% slow).
cat >"$WORK/slow92.toml" <<'TOML'
[model]
description = "one node at 92%"
ranks_per_node = 8
latency_us = 30.0
busbw_gbps = 300.0
nic_factor = 1.0
[noise]
pair_cv = 0.01
iteration_cv = 0.03
[[slow_node]]
node = 5
factor = 0.92
TOML
sim thr --sim-nodes 16 --sim-model "$WORK/slow92.toml" -b 64M -e 64M -n 10 --threshold 0.1 --seed 3
"$PODPERF" report "$WORK/thr/run.json" --format md --out "$WORK/thr-run.md" 2>/dev/null
"$PODPERF" report "$WORK/thr/events.jsonl" --format md --out "$WORK/thr-rebuilt.md" 2>"$WORK/thr-rebuilt.err"
if [[ $rc -eq 0 ]] && grep -q 'node cut 10.0%: the threshold' "$WORK/thr.out" &&
  grep -q '"threshold": 0.1' "$WORK/thr/run.json" && head -1 "$WORK/thr/events.jsonl" | grep -q '"thresholds":' &&
  cmp -s "$WORK/thr-run.md" "$WORK/thr-rebuilt.md" && grep -q "judged with the run's thresholds" "$WORK/thr-rebuilt.err"; then
  pass "--threshold 0.1: the run, its run.json and its rebuild from events.jsonl judge alike (exit 0, 10%)"
else
  fail "--threshold 0.1: exit $rc; rebuild: $(cat "$WORK/thr-rebuilt.err"); $(diff "$WORK/thr-run.md" "$WORK/thr-rebuilt.md" | head -5)"
fi

echo "sim_pairs: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
