#!/usr/bin/env bash
# podperf compare on the fixed runs of tests/fixtures/runs/compare (made by make_fixtures.py). One run
# per side: each pair is tested against the spread of all pairs' changes and the common shift is
# untestable, so healthy twice is INCONCLUSIVE (exit 0; 4 with --max-mde), a 20% slower pair is found
# (exit 1), and --allowance (blocks only) changes nothing; with --fail-on 25 the pairs could not have seen
# 25%: INCONCLUSIVE. Three runs per side (--before/--after): the
# slow pair is exactly that pair, exit 1 with --fail-on 10 and 0 with --fail-on 25; healthy repeats are
# no change with the smallest change that would have been seen. Bad combinations (--before without
# --after, runs of other nodes or sizes on one side) are exit 2; runs of different clusters across the
# sides warn and compare the common part; a results directory works as an argument; --html writes a
# self-contained page with the charts and per-run points (exit 3 when it cannot be written); a
# truncated or missing run.json is exit 2 naming the file; a pair that hung in AFTER (a real cluster run)
# is exit 1, and reversed it is listed as fixed; a run on both sides warns; runs with no metric in
# common are exit 2.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
FIX=$(cd "$(dirname "$0")/../fixtures/runs/compare" && pwd)
WORK=$(mktemp -d /tmp/podperf-compare.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
# one_line_error NAME RC PATTERN ARGS...: `podperf compare ARGS` exits RC with exactly one line on stderr,
# matching PATTERN (grep); with RC 2 (nothing compared) nothing on stdout either.
one_line_error() {
  local name=$1 want=$2 pattern=$3 rc
  shift 3
  "$PODPERF" compare "$@" >"$WORK/error.out" 2>"$WORK/error.err"
  rc=$?
  if [[ $rc -eq $want ]] && grep -q "$pattern" "$WORK/error.err" && [[ $(wc -l <"$WORK/error.err") -eq 1 ]] &&
    { [[ $want -ne 2 ]] || [[ ! -s "$WORK/error.out" ]]; }; then
    pass "$name"
  else
    fail "$name: exit $rc: $(cat "$WORK/error.out" "$WORK/error.err")"
  fi
}
H="$FIX/healthy_1.json $FIX/healthy_2.json $FIX/healthy_3.json"
S="$FIX/slow_pair.json $FIX/slow_pair_2.json $FIX/slow_pair_3.json"

# One run per side, the same healthy cluster twice. Issue 32: one run a side used to test nothing and
# say "No regression" (exit 0) judged by a flat 25% allowance; now each pair is tested against the spread
# of all pairs' changes, and since the common shift of all pairs (and every metric that is not a pair)
# cannot be told from launch-to-launch noise with one run a side, the outcome is INCONCLUSIVE, first
# line, exit 0 (4 with --max-mde), never "No regression".
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/healthy_2.json" >"$WORK/healthy" 2>"$WORK/err"
rc=$?
if [[ $rc -eq 0 ]]; then pass "healthy twice: exit 0"; else fail "healthy twice: exit $rc: $(cat "$WORK/err")"; fi
if sed -n 1p "$WORK/healthy" | grep -q "^INCONCLUSIVE: no regression found, but this comparison could not have seen a change of 4% (twice --min-change): pairs, all pairs: 2 untestable" &&
  sed -n 3p "$WORK/healthy" | grep -q "^Summary: 0 slower, 0 faster, [1-9][0-9]* no change within noise, [1-9][0-9]* not tested" &&
  grep -q "^Runs: 1 BEFORE, 1 AFTER; one run a side: each pair's change tested against the spread of all pairs' changes" "$WORK/healthy" &&
  grep -q "no significance is claimed" "$WORK/healthy" && ! grep -q "No regression" "$WORK/healthy"; then
  pass "healthy twice, one run a side: INCONCLUSIVE first, pairs tested against their spread, the shift untestable"
else
  fail "healthy twice: $(head -4 "$WORK/healthy")"
fi
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/healthy_2.json" --max-mde 60 >"$WORK/healthy_mde" 2>&1
rc=$?
if [[ $rc -eq 4 ]] && sed -n 1p "$WORK/healthy_mde" | grep -q "^INCONCLUSIVE:"; then
  pass "healthy twice, --max-mde 60: exit 4 (a level is untestable)"
else
  fail "healthy twice --max-mde 60: exit $rc: $(head -2 "$WORK/healthy_mde")"
fi
if ! grep -q "WARNING" "$WORK/healthy"; then pass "healthy twice: comparable"; else fail "healthy twice warns: $(grep -A3 WARNING "$WORK/healthy")"; fi
# One run per side, one pair 20% slower. Issue 32: it used to be "No regression" (exit 0), within the flat
# 25% allowance; now the pair is tested against the spread of all pairs' changes and found (exit 1), the
# only slower metric. --allowance (blocks of one job only) no longer judges one run a side.
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/slow_pair.json" --fail-on 10 >"$WORK/slow1" 2>&1
rc=$?
if [[ $rc -eq 1 ]] && sed -n 1p "$WORK/slow1" | grep -q "^REGRESSION: 1 metric slower by more than 10%" &&
  [[ $(sed -n '/^Slower/,/^$/p' "$WORK/slow1" | grep -c "^  pair ") -eq 1 ]] &&
  sed -n '/^Slower/,/^$/p' "$WORK/slow1" | grep -q "^  pair node1<->node2 all_reduce float 64M busbw .* -2[0-9]\.[0-9]%"; then
  pass "slow pair, one run a side: the pair found against the pairs' spread, exit 1"
else
  fail "slow pair one run: exit $rc: $(head -4 "$WORK/slow1")"
fi
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/slow_pair.json" --fail-on 10 --allowance 10 >"$WORK/slow1a" 2>&1
rc=$?
if [[ $rc -eq 1 ]] && cmp -s "$WORK/slow1" "$WORK/slow1a"; then
  pass "slow pair, one run a side, --allowance 10: the same output (the allowance judges no run-level test)"
else
  fail "slow pair --allowance 10: exit $rc: $(diff "$WORK/slow1" "$WORK/slow1a" | head)"
fi
# --fail-on 25: the pairs could not have seen 25% with one run a side (their worst MDE is larger) and the
# common shift is untestable: INCONCLUSIVE, exit 0, and 4 with --max-mde 25.
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/slow_pair.json" --fail-on 25 >"$WORK/slow1b" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && sed -n 1p "$WORK/slow1b" | grep -q "^INCONCLUSIVE: no regression found, but this comparison could not have seen a change of 25% (--fail-on)" &&
  grep -q "^INCONCLUSIVE: could not have seen 25%: pairs, links: a change of [0-9.]*% at worst" "$WORK/slow1b"; then
  pass "slow pair, one run a side, --fail-on 25: INCONCLUSIVE naming the blind levels, exit 0"
else
  fail "slow pair one run --fail-on 25: exit $rc: $(head -3 "$WORK/slow1b")"
fi
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/slow_pair.json" --fail-on 25 --max-mde 25 >/dev/null 2>&1
rc=$?
if [[ $rc -eq 4 ]]; then pass "slow pair, --fail-on 25 --max-mde 25: exit 4"; else fail "--max-mde 25: exit $rc"; fi

# Healthy repeats, two against two: no change, with the smallest change that would have been seen.
"$PODPERF" compare --before "$FIX/healthy_1.json" "$FIX/healthy_2.json" --after "$FIX/healthy_3.json" "$FIX/healthy_4.json" >"$WORK/h22" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && grep -q "^Summary: 0 slower, 0 faster, [1-9][0-9]* no change within noise, 0 not tested" "$WORK/h22" &&
  grep -qE "^No change within noise: .*a change of more than [0-9.]+% would have been seen" "$WORK/h22" &&
  grep -q "^Runs: 2 BEFORE, 2 AFTER; the run is the unit" "$WORK/h22"; then
  pass "healthy 2 vs 2: no change, the minimum detectable effect stated"
else
  fail "healthy 2 vs 2: exit $rc: $(head -8 "$WORK/h22")"
fi

# One pair 20% slower, three runs per side.
# shellcheck disable=SC2086
"$PODPERF" compare --before $H --after $S --fail-on 10 >"$WORK/slow" 2>&1
rc=$?
if [[ $rc -eq 1 ]]; then pass "slow pair, --fail-on 10: exit 1"; else fail "slow pair --fail-on 10: exit $rc"; cat "$WORK/slow"; fi
if grep -q "^Summary: 2 slower, 0 faster" "$WORK/slow" && grep -q "^REGRESSION: 2 metrics slower by more than 10%" "$WORK/slow"; then
  pass "slow pair: 2 slower metrics (16M and 64M), named a regression"
else
  fail "slow pair summary: $(head -4 "$WORK/slow")"
fi
if [[ $(grep -c "^  pair node1<->node2 all_reduce float [0-9]*M busbw .* -[12][0-9]\.[0-9]%" "$WORK/slow") -eq 2 ]]; then
  pass "slow pair: node1<->node2 at both sizes, about -20%"
else
  fail "slow pair table: $(sed -n '/^Slower/,/^$/p' "$WORK/slow")"
fi
# shellcheck disable=SC2086
"$PODPERF" compare --before $H --after $S --fail-on 25 >"$WORK/slow25" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && grep -q "^No regression beyond 25%" "$WORK/slow25"; then
  pass "slow pair, --fail-on 25: exit 0"
else
  fail "slow pair --fail-on 25: exit $rc: $(head -3 "$WORK/slow25")"
fi
# Reversed: the pair got faster; nothing regressed.
# shellcheck disable=SC2086
"$PODPERF" compare --before $S --after $H >"$WORK/fast" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && grep -q "^Summary: 0 slower, 2 faster" "$WORK/fast"; then pass "reversed: 2 faster, exit 0"; else fail "reversed: exit $rc: $(head -3 "$WORK/fast")"; fi

# JSON output: the outcome first; the method is the moderated t (issue 32; was run_level_welch, Welch on
# each metric's own 4 degrees of freedom).
# shellcheck disable=SC2086
"$PODPERF" compare --before $H --after $S --json >"$WORK/slow.json" 2>&1
rc=$?
if [[ $rc -eq 1 ]] && jq -e '(keys_unsorted | .[0]) == "verdict" and .verdict == "REGRESSION" and
    .summary.slower == 2 and .summary.faster == 0 and .regressed == true and .method == "run_level_moderated_t" and
    .before.runs == 3 and .after.runs == 3 and
    ([.metrics[] | select(.verdict == "slower") | .key.nodes] | unique == ["node1<->node2"]) and
    all(.metrics[]; has("p_value") and has("ci_low_percent") and has("change_percent") and has("mde_percent") and
        (.runs_before | length) == 3)' "$WORK/slow.json" >/dev/null; then
  pass "--json: the slower metrics are node1<->node2, every metric has p, interval, MDE and its per-run medians"
else
  fail "--json: exit $rc: $(head -c 600 "$WORK/slow.json")"
fi
# A larger --min-change turns the -20% into noise.
# shellcheck disable=SC2086
"$PODPERF" compare --before $H --after $S --min-change 30 >"$WORK/min" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && grep -q "^Summary: 0 slower" "$WORK/min"; then pass "--min-change 30: no slower metric"; else fail "--min-change 30: exit $rc"; fi

# Bad combinations: exit 2, one line saying what.
"$PODPERF" compare --before "$FIX/healthy_1.json" >/dev/null 2>"$WORK/half.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "before without --after" "$WORK/half.err"; then pass "--before without --after: exit 2"; else fail "--before alone: exit $rc: $(cat "$WORK/half.err")"; fi
# shellcheck disable=SC2086
one_line_error "runs of another cluster on one side: exit 2 naming both" 2 \
  "healthy_1.json and .*other_cluster.json are not repeats of one setup (nodes" \
  --before "$FIX/healthy_1.json" "$FIX/other_cluster.json" --after $S
# The same run twice on one side (here a copy of it): it would halve the spread and make any difference
# look significant (three copies a side called 5 of 6 healthy pairs slower or faster before this check).
cp "$FIX/healthy_1.json" "$WORK/copy_of_healthy_1.json"
# shellcheck disable=SC2086
one_line_error "the same run twice on one side: exit 2 naming both" 2 \
  "healthy_1.json and .*copy_of_healthy_1.json are the same run (run id fixture-11" \
  --before "$FIX/healthy_1.json" "$WORK/copy_of_healthy_1.json" "$FIX/healthy_2.json" --after $S
# Real runs of the namespaced cluster (tests/cluster, pairs -b 4M -e 4M -n 10 -w 2): one healthy, one
# whose h4 link was shaped to 100 kbit/s so that its first pair hung and the watchdog ended the run
# (-T 10: status timeout, the pair h1<->h4 timeout, one pair measured). Before, the failed pair was only
# "only in BEFORE" and compare exited 0 with "No regression": a wrong OK.
"$PODPERF" compare "$FIX/cluster_healthy.json" "$FIX/cluster_timeout.json" >"$WORK/hung.out" 2>&1
rc=$?
if [[ $rc -eq 1 ]] && grep -q "^REGRESSION: 2 failures in AFTER that no BEFORE run had" "$WORK/hung.out" &&
  grep -q "^  pair h1<->h4 all_reduce float 4M busbw: timeout in run hung" "$WORK/hung.out" &&
  grep -q "^  run hung did not complete: timeout" "$WORK/hung.out" && ! grep -q "No regression" "$WORK/hung.out"; then
  pass "a pair that hung in AFTER (real cluster run): exit 1 naming the pair and the run"
else
  fail "hung pair: exit $rc: $(cat "$WORK/hung.out")"
fi
"$PODPERF" compare "$FIX/cluster_timeout.json" "$FIX/cluster_healthy.json" >"$WORK/fixed.out" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && grep -q "^Fixed: 2 failures of BEFORE that no AFTER run had" "$WORK/fixed.out" &&
  ! grep -q "Only in AFTER.*h1<->h4" "$WORK/fixed.out"; then
  pass "the same, reversed: exit 0, listed as fixed"
else
  fail "fixed pair: exit $rc: $(cat "$WORK/fixed.out")"
fi

# Runs with no metric in common (another cluster's nodes and sizes): "No regression" would be a verdict
# on nothing, so exit 2 naming the differences.
one_line_error "no metric in common: exit 2 naming the differences, nothing on stdout" 2 \
  "no metric was measured on both sides (6 only in BEFORE, 23 only in AFTER).*nodes: BEFORE only here: h1" \
  "$FIX/cluster_healthy.json" "$FIX/healthy_1.json"

# A run on both sides: compared with itself it shows no change, so it hides one; a warning naming both
# entries (a comparison with itself is legitimate as a check, so not an error).
"$PODPERF" compare --before "$FIX/healthy_1.json" "$FIX/healthy_2.json" "$FIX/healthy_3.json" \
  --after "$WORK/copy_of_healthy_1.json" "$FIX/healthy_4.json" "$FIX/slow_pair.json" >"$WORK/both_sides.out" 2>&1
rc=$?
if [[ $rc -ne 2 ]] && grep -q "the same run on both sides (run fixture-11.*BEFORE .*healthy_1.json; AFTER .*copy_of_healthy_1.json" "$WORK/both_sides.out" &&
  [[ $(grep -c "the same run on both sides" "$WORK/both_sides.out") -eq 1 ]]; then
  pass "a run on both sides: a warning naming both entries"
else
  fail "run on both sides: exit $rc: $(cat "$WORK/both_sides.out")"
fi
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/healthy_2.json" --before "$FIX/healthy_3.json" --after "$FIX/healthy_4.json" >/dev/null 2>"$WORK/both.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "not both" "$WORK/both.err"; then pass "positional and --before at once: exit 2"; else fail "both forms: exit $rc: $(cat "$WORK/both.err")"; fi

# --html: the text still on stdout, a self-contained page with a chart per pair size, the slow pair in
# red, the per-run points and the method.
# shellcheck disable=SC2086
"$PODPERF" compare --before $H --after $S --fail-on 10 --html "$WORK/compare.html" >"$WORK/html.out" 2>"$WORK/html.err"
rc=$?
if [[ $rc -eq 1 && -s "$WORK/compare.html" ]] && grep -q "^Summary: 2 slower" "$WORK/html.out" &&
  grep -q "podperf compare: wrote $WORK/compare.html" "$WORK/html.err"; then
  pass "--html: exit 1 as without it, the text on stdout, the page written"
else
  fail "--html: exit $rc: $(cat "$WORK/html.err")"
fi
if grep -q '<svg id="compare-chart-pair-all_reduce-float-16M" class="chart change-chart"' "$WORK/compare.html" &&
  [[ $(grep -c '<g class="change slower"><title>pair node1&lt;-&gt;node2 ' "$WORK/compare.html") -eq 2 ]] &&
  grep -q '<h2>REGRESSION: 2 metrics slower by more than 10% (--fail-on)</h2>' "$WORK/compare.html"; then
  pass "--html: the change charts, node1<->node2 slower at both sizes, the regression named"
else
  fail "--html: page lacks the chart or the slow pair: $(grep -o '<svg id="[^"]*"' "$WORK/compare.html" | head)"
fi
if [[ $(grep -o '<rect class="run after"' "$WORK/compare.html" | wc -l) -ge 3 ]] &&
  grep -q "Runs: 3 BEFORE, 3 AFTER" "$WORK/compare.html" && grep -q "variance is moderated with the metrics of its kind and size" "$WORK/compare.html"; then
  pass "--html: per-run points, runs per side and the method"
else
  fail "--html: no per-run points or method"
fi
if ! grep -qE "https?://|<script|<link|url\(" "$WORK/compare.html" && grep -q "Content-Security-Policy" "$WORK/compare.html"; then
  pass "--html: self-contained (no URL, script or link; CSP)"
else
  fail "--html: not self-contained: $(grep -oE "https?://[^\"]*|<script|<link|url\(" "$WORK/compare.html" | head -3)"
fi
one_line_error "--html into a missing directory: exit 3, one line naming the file" 3 \
  "podperf compare: error: $WORK/nodir/compare.html.tmp: cannot open for writing" \
  "$FIX/healthy_1.json" "$FIX/slow_pair.json" --html "$WORK/nodir/compare.html"

# Different clusters: warned (nodes, sizes, NCCL version), the common metrics compared.
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/other_cluster.json" >"$WORK/other" 2>&1
rc=$?
if [[ $rc -eq 0 ]]; then pass "other cluster: exit 0 (nothing slower)"; else fail "other cluster: exit $rc"; cat "$WORK/other"; fi
if grep -q "^WARNING: the runs are not comparable" "$WORK/other" &&
  grep -q "^  nodes: BEFORE only here: node3; AFTER only here: node4" "$WORK/other" &&
  grep -q "^  sizes: BEFORE only here: 64M; AFTER only here: 256M" "$WORK/other" &&
  grep -q "^  NCCL version: BEFORE NCCL 2.21.5; AFTER NCCL 2.18.3" "$WORK/other"; then
  pass "other cluster: nodes, sizes and NCCL version listed"
else
  fail "other cluster warnings: $(sed -n '1,12p' "$WORK/other")"
fi
if grep -q "^Summary: 0 slower, 0 faster, 0 no change within noise, [1-9][0-9]* not tested" "$WORK/other" && grep -q "^Only in BEFORE: " "$WORK/other"; then
  pass "other cluster: the common metrics compared, the rest counted"
else
  fail "other cluster summary: $(sed -n 2p "$WORK/other")"
fi

# A results directory as an argument.
mkdir -p "$WORK/results/r1"
cp "$FIX/slow_pair.json" "$WORK/results/r1/run.json"
"$PODPERF" compare "$FIX/healthy_1.json" "$WORK/results/r1" --allowance 10 >"$WORK/dir" 2>&1
rc=$?
if [[ $rc -eq 1 ]] && grep -q "AFTER $WORK/results/r1/run.json" "$WORK/dir"; then pass "directory argument: its run.json"; else fail "directory: exit $rc: $(head -2 "$WORK/dir")"; fi
mkdir -p "$WORK/empty"
"$PODPERF" compare "$FIX/healthy_1.json" "$WORK/empty" >"$WORK/empty.out" 2>&1
rc=$?
if [[ $rc -eq 2 ]] && grep -q "$WORK/empty: a directory without run.json" "$WORK/empty.out"; then pass "directory without run.json: exit 2"; else fail "empty dir: exit $rc: $(cat "$WORK/empty.out")"; fi

# Corrupt input: exit 2, one line naming the file and the position.
head -c 3000 "$FIX/healthy_2.json" >"$WORK/truncated.json"
one_line_error "truncated run.json: exit 2, one line naming the file and byte" 2 \
  "truncated.json: not valid JSON at byte [0-9][0-9]*" "$FIX/healthy_1.json" "$WORK/truncated.json"
"$PODPERF" compare "$WORK/missing.json" "$FIX/healthy_1.json" >/dev/null 2>"$WORK/missing.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "BEFORE $WORK/missing.json: No such file or directory" "$WORK/missing.err"; then pass "missing file: exit 2"; else fail "missing: exit $rc: $(cat "$WORK/missing.err")"; fi
echo '{"schema_version": 1, "pairs": 5}' >"$WORK/badfield.json"
"$PODPERF" compare "$WORK/badfield.json" "$FIX/healthy_1.json" >/dev/null 2>"$WORK/badfield.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "badfield.json: bad field" "$WORK/badfield.err"; then pass "wrong field type: exit 2"; else fail "bad field: exit $rc: $(cat "$WORK/badfield.err")"; fi
"$PODPERF" compare "$FIX/healthy_1.json" >/dev/null 2>"$WORK/usage.err"
rc=$?
if [[ $rc -eq 2 ]]; then pass "one argument: usage error, exit 2"; else fail "one argument: exit $rc"; fi
printf '[compare]\nalpha = 0.05\n' >"$WORK/bad.toml"
"$PODPERF" compare "$FIX/healthy_1.json" "$FIX/healthy_2.json" --config "$WORK/bad.toml" >/dev/null 2>"$WORK/cfg.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "bad.toml: missing key 'compare.min_change_percent'" "$WORK/cfg.err"; then pass "bad settings file: exit 2 naming it"; else fail "bad config: exit $rc: $(cat "$WORK/cfg.err")"; fi
# No MPI: runs with no launcher environment and without mpirun.
if env -i "$PODPERF" compare "$FIX/healthy_1.json" "$FIX/healthy_2.json" >/dev/null 2>&1; then pass "runs without any MPI environment"; else fail "without MPI environment"; fi

echo "compare: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
