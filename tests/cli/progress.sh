#!/usr/bin/env bash
# Progress that tells the truth (bench/progress, bench/schedule_driver), on the modelled fabric: the
# printed counter "round K/N done" never passes its total, and ends at it; retests are counted, the
# line that plans a retest pass says how much the total grows, and each retest step says which pass,
# which of its steps and which pairs it measures (no two retest lines alike); an adaptive search that
# decides before its round budget says so. Runs --sim-nodes 1024 --schedule adaptive as the issue did.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
WORK=$(mktemp -d /tmp/podperf-progress.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

# check_progress NAME: the counter lines of $WORK/NAME.err, checked; prints why when they fail.
check_progress() {
  python3 - "$WORK/$1.err" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
counter = re.compile(r"^podperf: (round|pair) (\d+)/(\d+) done, elapsed .*; (.*)$")
plan = re.compile(r"^podperf: retest (\d+): (\d+) flagged pairs? at \S+, measured again: (\d+) more (round|pair)s?, (\d+) in all \(was (\d+)\)$")
finish = re.compile(r"^podperf: (\d+) (round|pair)s? in all, not (\d+): ")
seen = []
last_k, total, retest_steps = 0, None, []
for line in lines:
    m = counter.match(line)
    if m:
        k, n, what = int(m.group(2)), int(m.group(3)), m.group(4)
        assert k <= n, f"counter past its total: {line}"
        assert k > last_k, f"counter did not advance: {line}"
        assert total is None or n == total, f"total {n} changed without a line saying so: {line}"
        last_k, total = k, n
        if what.startswith("retest "):
            assert re.match(r"retest \d+, step \d+/\d+: \d+ flagged pairs? \d+:\d+", what), what
            retest_steps.append(what)
        seen.append(line)
        continue
    m = plan.match(line)
    if m:
        more, new, was = int(m.group(3)), int(m.group(5)), int(m.group(6))
        assert new == last_k + more, f"planned total {new} is not {last_k} done + {more}: {line}"
        assert total is None or was == total, f"'was {was}' is not the total {total}: {line}"
        total = new
        continue
    m = finish.match(line)
    if m:
        assert int(m.group(1)) == last_k and int(m.group(3)) == total, f"{line} after {last_k}/{total}"
        total = last_k
assert seen, "no progress lines"
assert last_k == total, f"ended at {last_k} of {total}"
assert len(retest_steps) == len(set(retest_steps)), f"retest lines repeat: {retest_steps}"
print(f"{len(seen)} counter lines, ended at {last_k}/{total}, {len(retest_steps)} distinct retest lines")
PY
}

# --schedule all with retests (random4: slow pairs that retests measure again).
"$PODPERF" pairs --backend sim --sim-nodes 32 --sim-model random4 --schedule all -b 1M -e 1M -n 3 -w 0 --retest 2 \
  --out "$WORK" --run-id all >/dev/null 2>"$WORK/all.err"
rc=$?
if [[ $rc -le 1 ]]; then pass "all: exit $rc"; else fail "all: exit $rc: $(tail -3 "$WORK/all.err")"; fi
if out=$(check_progress all 2>&1); then pass "all: $out"; else fail "all: $out"; fi
if grep -q "^podperf: retest 1: .* more rounds, .* in all (was 31)$" "$WORK/all.err" &&
  grep -q "^podperf: round 32/.* done, .*; retest 1, step 1/" "$WORK/all.err"; then
  pass "all: the retest pass is planned after round 31 of 31 and counted from 32"
else fail "all: retest lines: $(grep retest "$WORK/all.err" | head -3)"; fi

# --concurrency sequential: one pair per step, retests too.
"$PODPERF" pairs --backend sim --sim-nodes 16 --sim-model random4 --schedule all --concurrency sequential -b 1M -e 1M \
  -n 3 -w 0 --out "$WORK" --run-id seq >/dev/null 2>"$WORK/seq.err"
if out=$(check_progress seq 2>&1); then pass "sequential: $out"; else fail "sequential: $out"; fi

# 1024 nodes, adaptive (the issue's run): the search decides in fewer rounds than its budget.
"$PODPERF" pairs --backend sim --sim-nodes 1024 --sim-model stragglers --schedule adaptive -b 64M -e 64M -n 3 -w 0 \
  --out "$WORK" --run-id adaptive >/dev/null 2>"$WORK/adaptive.err"
rc=$?
if [[ $rc -eq 1 ]]; then pass "adaptive 1024: exit 1 (stragglers)"; else fail "adaptive 1024: exit $rc: $(tail -3 "$WORK/adaptive.err")"; fi
if out=$(check_progress adaptive 2>&1); then pass "adaptive 1024: $out"; else fail "adaptive 1024: $out"; fi
if grep -Eq "^podperf: [0-9]+ rounds in all, not [0-9]+: the adaptive search decided in [0-9]+ of its [0-9]+ rounds$" "$WORK/adaptive.err"; then
  pass "adaptive 1024: says the search decided before its budget"
else fail "adaptive 1024: $(grep -v '^podperf: round' "$WORK/adaptive.err" | tail -3)"; fi

echo "progress: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
