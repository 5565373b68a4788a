#!/usr/bin/env bash
# podperf pairs under mpirun with N ranks as N virtual nodes: every pair once per size, wrong = 0,
# run.json and events.jsonl valid against docs/run.schema.json. Usage: PODPERF NP
source "$(dirname "$0")/lib.sh" "$1"
np=${2:?NP}
podperf_mpirun "$np" pairs --virtual-nodes "$np" -b 64K -e 1M -f 4 -n 5 -w 1 --out "$WORK/res" --run-id r
rc=$?
if [[ $rc -le 1 ]]; then pass "exit $rc (0 or 1) with $np virtual nodes"; else fail "exit $rc"; cat "$WORK/out"; fi
out=$(/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/r" --nodes "$np" --complete)
expect_match "run.json and events.jsonl complete and valid" "$out" "check_run: OK"
if [[ -s "$WORK/res/r/report.html" && -s "$WORK/res/r/report.md" ]] && grep -q 'id="pair-heatmap"' "$WORK/res/r/report.html"; then
  pass "report.html (with the pair heatmap) and report.md beside run.json"
else
  fail "reports missing: $(ls "$WORK/res/r")"
fi
expect_match "summary prints the pair matrix" "$(cat "$WORK/out")" "Pair busbw \(GB/s\) at 1M"
expect_match "summary says the nodes are virtual" "$(cat "$WORK/out")" "VIRTUAL nodes"
expect_match "progress reports rounds" "$(cat "$WORK/out")" "round $((np % 2 == 0 ? np - 1 : np))/$((np % 2 == 0 ? np - 1 : np)) done"
finish
