#!/usr/bin/env bash
# --prometheus FILE (pairs, run, accept, accept --from): the node-exporter textfile, checked by a parser
# of the exposition format (prometheus_check.py: names, label escaping, HELP/TYPE once per family,
# finite values) on real runs of --backend sim and on fixture run.json files, with the values that
# matter: the straggler nodes, the verdict per node, busbw at the judged size, filesystem MB/s. Written
# atomically (no .tmp left); a missing directory is exit 2 before anything runs.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="$HERE/prometheus_check.py"
FIX="$HERE/../fixtures/runs/accept"
WORK=$(mktemp -d /tmp/podperf-prom.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
check() {  # check NAME FILE EXPECT...: the parser accepts FILE and finds every expected series
  local name=$1 file=$2
  shift 2
  if out=$(python3 "$CHECK" "$file" "$@"); then pass "$name: $out"; else fail "$name: $out"; fi
}

# pairs on the modelled fabric, 64 nodes, stragglers 3, 17 and 42.
"$PODPERF" pairs --backend sim --sim-nodes 64 --sim-model stragglers -b 64M -e 64M -n 3 -w 0 --out "$WORK" --run-id sim \
  --prometheus "$WORK/sim.prom" >"$WORK/sim.out" 2>"$WORK/sim.err"
rc=$?
if [[ $rc -eq 1 ]]; then pass "sim pairs: exit 1 (stragglers)"; else fail "sim pairs: exit $rc: $(tail -3 "$WORK/sim.err")"; fi
check "sim pairs" "$WORK/sim.prom" 'podperf_run_info{command=pairs,backend=sim,simulated=true}=1' \
  'podperf_node_straggler{host=sim0003}=1' 'podperf_node_straggler{host=sim0000}=0' \
  'podperf_run_judged_size_bytes=67108864' 'podperf_node_pairs{host=sim0005}=63'
if python3 - "$WORK/sim.prom" "$WORK/sim/run.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
run = json.load(open(sys.argv[2]))
named = {s["hostname"] for s in run["stragglers"]}
flag = {m.group(1): float(m.group(2)) for m in re.finditer(r'^podperf_node_straggler\{host="([^"]+)",[^}]*\} (\S+)$', text, re.M)}
assert len(flag) == 64 and {h for h, v in flag.items() if v == 1} == named, (named, flag)
assert re.search(r"^podperf_run_stragglers %d$" % len(named), text, re.M), len(named)
busbw = {m.group(1): float(m.group(2)) for m in re.finditer(r'^podperf_node_busbw_gbps\{host="([^"]+)",[^}]*size_bytes="67108864"\} (\S+)$', text, re.M)}
assert len(busbw) == 64, len(busbw)
healthy = sorted(v for h, v in busbw.items() if h not in ("sim0003", "sim0017", "sim0042"))
assert busbw["sim0003"] < healthy[len(healthy) // 2], (busbw["sim0003"], healthy[len(healthy) // 2])
assert "podperf_node_verdict" not in text, "a pairs run has no verdict"
PY
then pass "sim pairs: the stragglers of run.json, busbw per node at 64M (the slowest straggler below the median), no verdict series"
else fail "sim pairs: busbw series"; fi
grep -q "^Prometheus textfile: $WORK/sim.prom$" "$WORK/sim.out" && pass "sim pairs: the summary names the file" ||
  fail "sim pairs: $(tail -3 "$WORK/sim.out")"
if compgen -G "$WORK/*.tmp" >/dev/null; then fail "a .tmp file left"; else pass "written atomically: no .tmp left"; fi

# accept on the modelled fabric, judged against a SKU: a verdict per node.
"$PODPERF" accept --backend sim --sim-nodes 16 --sim-model healthy --sku p5.48xlarge --out "$WORK" --run-id acc \
  --prometheus "$WORK/acc.prom" >"$WORK/acc.out" 2>"$WORK/acc.err"
rc=$?
if [[ $rc -le 1 ]]; then pass "sim accept: exit $rc"; else fail "sim accept: exit $rc: $(tail -3 "$WORK/acc.err")"; fi
check "sim accept" "$WORK/acc.prom" 'podperf_run_info{command=accept,backend=sim}=1'
if python3 "$CHECK" "$WORK/acc.prom" >/dev/null && python3 - "$WORK/acc.prom" "$WORK/acc/run.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
run = json.load(open(sys.argv[2]))
code = {"PASS": 0, "WARN": 1, "FAIL": 2}
for v in run["verdict"]["nodes"]:
    m = re.search(r'^podperf_node_verdict\{host="%s",instance_type="[^"]*"\} (\S+)$' % re.escape(v["node"]), text, re.M)
    assert m and float(m.group(1)) == code[v["status"]], (v, m and m.group(0))
m = re.search(r'^podperf_run_verdict\{profile="[^"]*",sku="p5.48xlarge"\} (\S+)$', text, re.M)
assert m and float(m.group(1)) == code[run["verdict"]["status"]], m
PY
then pass "sim accept: the verdict of every node and of the run, as run.json has them"
else fail "sim accept: verdict series: $(grep verdict "$WORK/acc.prom" | head -3)"; fi

# accept --from fixture runs: a straggler FAILs; the filesystem MB/s per node and probe.
"$PODPERF" accept --from "$FIX/straggler.json" --prometheus "$WORK/from.prom" >"$WORK/from.out" 2>&1
rc=$?
if [[ $rc -eq 1 ]]; then pass "--from straggler: exit 1"; else fail "--from straggler: exit $rc: $(tail -3 "$WORK/from.out")"; fi
check "--from straggler" "$WORK/from.prom" 'podperf_run_verdict=2' 'podperf_node_verdict{instance_type=p5.48xlarge}'
"$PODPERF" accept --from "$FIX/fs-slow.json" --profile fs --prometheus "$WORK/fs.prom" >"$WORK/fs.out" 2>&1
rc=$?
if [[ $rc -le 1 ]]; then pass "--from fs-slow: exit $rc"; else fail "--from fs-slow: exit $rc: $(tail -3 "$WORK/fs.out")"; fi
if python3 "$CHECK" "$WORK/fs.prom" >/dev/null && python3 - "$WORK/fs.prom" "$FIX/fs-slow.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
run = json.load(open(sys.argv[2]))
n = 0
for p in run["fs"]["probes"]:
    for node in p.get("nodes", []):
        if p["probe"].startswith("meta-") or node["mb_per_s"] <= 0:
            continue
        m = re.search(r'^podperf_fs_node_mb_per_second\{host="%s",instance_type="[^"]*",probe="%s"\} (\S+)$'
                      % (re.escape(node["label"]), p["probe"]), text, re.M)
        assert m and abs(float(m.group(1)) - node["mb_per_s"]) <= 1e-9 * node["mb_per_s"], (p["probe"], node["label"], m)
        n += 1
assert n > 0
PY
then pass "--from fs-slow: MB/s of every node and probe as run.json has them"
else fail "--from fs-slow: fs series: $(grep fs_node "$WORK/fs.prom" | head -3)"; fi

# Bad paths: exit 2 before anything runs.
"$PODPERF" pairs --backend sim --sim-nodes 4 --out "$WORK" --run-id nodir --prometheus "$WORK/no/such/x.prom" \
  >/dev/null 2>"$WORK/bad.err"
rc=$?
if [[ $rc -eq 2 && ! -e "$WORK/nodir" ]] && grep -q "^podperf: error: --prometheus $WORK/no/such/x.prom: its directory" "$WORK/bad.err"; then
  pass "a missing directory: exit 2, one line, nothing run"
else fail "missing directory: exit $rc: $(cat "$WORK/bad.err")"; fi
"$PODPERF" accept --from "$FIX/healthy.json" --prometheus '' >/dev/null 2>"$WORK/bad.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "^podperf: error: --prometheus '': must not be empty" "$WORK/bad.err"; then
  pass "an empty path: exit 2"
else fail "empty path: exit $rc: $(cat "$WORK/bad.err")"; fi

echo "prometheus: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
