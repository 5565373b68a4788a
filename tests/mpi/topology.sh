#!/usr/bin/env bash
# podperf pairs --topology under mpirun (4 virtual nodes placed by a CSV, one left out): run.json
# carries the topology and the topology findings and validates against docs/run.schema.json; the
# summary and report.html show the per-level table; a broken topology file is exit 2 naming
# file:line before anything is measured; podperf report re-reports the run with a Slurm topology.
source "$(dirname "$0")/lib.sh" "$1"
host=$(hostname)
printf 'node,spine,leaf\n%s/v0,s1,l1\n%s/v1,s1,l1\n%s/v2,s1,l2\n' "$host" "$host" "$host" >"$WORK/racks.csv"
podperf_mpirun 4 pairs --virtual-nodes 4 -b 64K -e 256K -f 4 -n 3 -w 1 --retest 0 --topology "$WORK/racks.csv" \
  --out "$WORK/res" --run-id t
rc=$?
if [[ $rc -le 1 ]]; then pass "pairs with --topology: exit $rc (0 or 1)"; else fail "exit $rc"; cat "$WORK/out"; fi
out=$(/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/t" --nodes 4 --complete)
expect_match "run.json valid against the schema" "$out" "check_run: OK"
facts=$(/usr/bin/python3 - "$WORK/res/t/run.json" "$WORK/racks.csv" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
checks = {f["check"]: f for f in run["findings"]}
print("levels=" + ",".join(run["topology_levels"]))
print("source=" + str(run["topology_source"] == sys.argv[2]))
print("paths=" + ";".join("/".join(n["topology"]) for n in run["nodes"]))
print("cross=" + checks.get("topology.cross_layer", {}).get("tag", "missing"))
print("unmatched=" + checks.get("topology.unmatched", {}).get("observed", "missing"))
PY
)
expect_match "topology levels from the CSV header" "$facts" "^levels=spine,leaf$"
expect_match "topology_source is the file" "$facts" "^source=True$"
expect_match "nodes placed by label, v3 not in the file" "$facts" "^paths=s1/l1;s1/l1;s1/l2;$"
expect_match "topology.cross_layer finding" "$facts" "^cross=(INFO|CONCERN)$"
expect_match "topology.unmatched names v3" "$facts" "^unmatched=1 of 4 nodes not found in .*: $host/v3$"
# The judge's classes of pairs are the per-level table (the pair judge models each class's level).
expect_match "summary shows the per-level table" "$(cat "$WORK/out")" "Classes of pairs"
expect_match "summary lists the classes" "$(cat "$WORK/out")" "(same leaf|crosses leaf|topology unknown) +[0-9]+ pairs"
if grep -q 'id="topology"' "$WORK/res/t/report.html" && grep -q '<line class="group"' "$WORK/res/t/report.html"; then
  pass "report.html has the topology table and group lines in the heatmap"
else
  fail "report.html lacks the topology section or the heatmap's group lines"
fi

printf 'node,leaf\n%s/v0,l1\n%s/v0,l2\n' "$host" "$host" >"$WORK/dup.csv"
podperf_mpirun 4 pairs --virtual-nodes 4 -b 64K -e 64K -n 1 -w 0 --topology "$WORK/dup.csv" --out "$WORK/res" --run-id dup
rc=$?
expect_eq "duplicate node in the topology: exit 2" "$rc" "2"
expect_match "the error names file:line" "$(cat "$WORK/out")" "dup.csv:3: node '$host/v0' is listed twice \(first on line 2\)"
if [[ ! -e "$WORK/res/dup" ]]; then pass "nothing measured, no results directory"; else fail "results directory left: $(ls "$WORK/res/dup")"; fi

# Offline: the same run re-reported with a Slurm tree (hostlist of the virtual labels).
printf 'SwitchName=top Switches=a,b\nSwitchName=a Nodes=%s/v[0-1]\nSwitchName=b Nodes=%s/v[2-3]\n' "$host" "$host" \
  >"$WORK/topology.conf"
md=$("$PODPERF" report "$WORK/res/t" --format md --out - --topology "$WORK/topology.conf" 2>&1)
expect_match "report --topology: the markdown has the topology table" "$md" "### Topology at 256K"
expect_match "report --topology: pairs under two leaf switches, named as Slurm names them" "$md" "\| crosses a, b under top \| [0-9]+ \|"
bad=$("$PODPERF" report "$WORK/res/t" --format md --out - --topology "$WORK/racks.csv" --topology-format slurm 2>&1)
expect_eq "report with a wrong --topology-format: exit 2" "$?" "2"
expect_match "...naming file:line" "$bad" "racks.csv:1: 'node,spine,leaf' is not KEY=VALUE"
acc=$("$PODPERF" accept --from "$WORK/res/t" --topology "$WORK/topology.conf" 2>&1)
rc=$?
if [[ $rc -le 1 ]] && ! grep -q "error" <<<"$acc"; then pass "accept --from takes --topology (exit $rc)"; else fail "accept --from --topology: exit $rc: $acc"; fi
acc=$("$PODPERF" accept --from "$WORK/res/t" --topology "$WORK/dup.csv" 2>&1)
expect_eq "accept --from with a broken topology: exit 2" "$?" "2"
expect_match "...naming file:line" "$acc" "dup.csv:3: node"
# --schedule adaptive with the topology (layered by default): rank 0 alone reads the CSV and plans;
# every rank follows its broadcast steps. Screening pairs stay inside a leaf, the across matchings
# leave it; a level the topology lacks is exit 2 naming the levels, on every rank, before measuring.
printf 'node,spine,leaf\n' >"$WORK/leaves.csv"
for i in 0 1 2 3 4 5; do printf '%s/v%d,s1,l%d\n' "$host" "$i" $((i / 2)) >>"$WORK/leaves.csv"; done
podperf_mpirun 6 pairs --virtual-nodes 6 -n 3 -w 1 -b 64K -e 64K --schedule adaptive --seed 4 \
  --topology "$WORK/leaves.csv" --out "$WORK/res" --run-id layered
expect_match "adaptive layered under mpirun: ran" "$?" "^[01]$"
out=$(/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/layered" --nodes 6)
expect_match "adaptive layered: run.json valid" "$out" "check_run: OK"
if /usr/bin/python3 - "$WORK/res/layered" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1] + "/run.json"))
search = [f for f in run["findings"] if f["check"] == "pairs.adaptive_search"][0]["observed"]
assert "scope layered at level leaf: 3 screening rounds inside groups, " in search, search
across = int(re.search(r"(\d+) across groups", search).group(1))  # 2, fewer when noise made suspects
by_round = {}
for line in open(sys.argv[1] + "/events.jsonl"):
    ev = json.loads(line)
    if ev["event"] in ("round", "retest"):
        by_round.setdefault(ev["round"], []).extend(tuple(p["nodes"]) for p in ev["pairs"])
for r in (1, 2, 3):  # inside each leaf of 2: always the same 3 pairs
    assert sorted(by_round[r]) == [(0, 1), (2, 3), (4, 5)], (r, by_round.get(r))
for r in range(4, 4 + across):  # across leaves
    assert by_round[r] and all(a // 2 != b // 2 for a, b in by_round[r]), (r, by_round.get(r))
PY
then pass "adaptive layered: screening inside leaves, then across them; the search's account names the scope"
else fail "adaptive layered: run.json/events facts"; fi
podperf_mpirun 4 pairs --virtual-nodes 4 -n 2 -w 1 -b 64K -e 64K --schedule adaptive --topology "$WORK/leaves.csv" \
  --adaptive-level rack --out "$WORK/res" --run-id badlevel
expect_eq "--adaptive-level rack: exit 2" "$?" "2"
expect_match "...naming the levels" "$(cat "$WORK/out")" "adaptive-level rack: not a level of the topology \(levels: spine, leaf\)"
[[ ! -e "$WORK/res/badlevel" ]] && pass "bad level: no results directory" || fail "bad level left $WORK/res/badlevel"
finish
