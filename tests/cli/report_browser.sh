#!/usr/bin/env bash
# podperf report in a real browser: headless Chromium opens the HTML report of a fixed run
# (tests/fixtures/runs/report_run.json: pairs with a straggler and a slow link, filesystem probes
# with a slow node, findings), renders it without errors (no console message at all: the page has no
# script, so anything logged is an error or a refused load), and its DOM has the heatmap, the busbw chart
# and the filesystem bars. A screenshot is kept as a test artifact ($PODPERF_TEST_ARTIFACTS, default
# tests/artifacts/ in the build tree). The same for podperf compare --html (tests/fixtures/runs/compare:
# one pair 20% slower): no console message, the change charts in the DOM with the slow pair in red.
# Also: --format md/csv to stdout, and bad input is exit 2.
# Exit 77 (skipped) when chromium is not installed or cannot start here.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
FIXTURE=$(cd "$(dirname "$0")/../fixtures/runs" && pwd)/report_run.json
COMPARE_FIX=$(cd "$(dirname "$0")/../fixtures/runs/compare" && pwd)
ARTIFACTS=${PODPERF_TEST_ARTIFACTS:-$PWD/tests/artifacts}
WORK=$(mktemp -d /tmp/podperf-report.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$CHROMIUM" ]]; then
  echo "SKIP: chromium not installed (scripts/setup.sh installs the Debian package chromium)"
  exit 77
fi
# Root needs --no-sandbox; a private profile keeps runs independent; no first-run work or network.
BROWSER=("$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run
  --no-default-browser-check --disable-extensions --disable-background-networking --disable-sync
  --user-data-dir="$WORK/profile")
if ! timeout 60 "${BROWSER[@]}" --dump-dom "data:text/html,<p>ok</p>" >"$WORK/probe.out" 2>"$WORK/probe.err"; then
  echo "SKIP: chromium cannot start here: $(tail -n 3 "$WORK/probe.err")"
  exit 77
fi

mkdir -p "$WORK/run"
cp "$FIXTURE" "$WORK/run/run.json"
"$PODPERF" report "$WORK/run" >"$WORK/report.out" 2>"$WORK/report.err"
rc=$?
if [[ $rc -eq 0 && -s "$WORK/run/report.html" ]]; then
  pass "podperf report RUN_DIR: exit 0, report.html beside run.json"
else
  fail "podperf report: exit $rc, $(cat "$WORK/report.err")"
fi
HTML="$WORK/run/report.html"

# Render: the DOM after layout, and the console (any error logged by the page).
timeout 90 "${BROWSER[@]}" --enable-logging=stderr --v=0 --dump-dom "file://$HTML" >"$WORK/dom.html" 2>"$WORK/dom.err"
rc=$?
if [[ $rc -eq 0 ]]; then pass "chromium --dump-dom: exit 0"; else fail "chromium --dump-dom: exit $rc: $(tail -n 5 "$WORK/dom.err")"; fi
for id in pair-heatmap busbw-chart-all_reduce fs-bars-seq-write fs-bars-meta-create; do
  if grep -q "<svg id=\"$id\"" "$WORK/dom.html"; then pass "DOM has <svg id=\"$id\">"; else fail "DOM lacks svg #$id"; fi
done
cells=$(grep -o '<g class="cell' "$WORK/dom.html" | wc -l)
if [[ $cells -eq 36 ]]; then pass "heatmap: 6 x 6 cells"; else fail "heatmap: $cells cells, expected 36"; fi
if grep -q '<title>node4 &lt;-&gt; node0 at 1G: busbw' "$WORK/dom.html"; then
  pass "heatmap cells carry hover titles with the numbers"
else
  fail "no hover title on the heatmap"
fi
if grep -q 'Verdict: FLAGGED' "$WORK/dom.html"; then pass "the verdict is shown"; else fail "no verdict in the DOM"; fi
if grep -E "Uncaught|:CONSOLE|Refused to|Failed to load|net::ERR" "$WORK/dom.err" >"$WORK/console"; then
  fail "console errors: $(head -c 600 "$WORK/console")"
else
  pass "no console errors, nothing refused or loaded from elsewhere"
fi

# Screenshot: a PNG of the page, kept as an artifact.
(cd "$WORK" && timeout 90 "${BROWSER[@]}" --hide-scrollbars --window-size=1400,2000 --screenshot="$WORK/report.png" \
  "file://$HTML" >"$WORK/shot.out" 2>"$WORK/shot.err")
rc=$?
size=$(stat -c %s "$WORK/report.png" 2>/dev/null || echo 0)
if [[ $rc -eq 0 && $size -gt 20000 ]] && head -c 8 "$WORK/report.png" | od -An -tx1 | grep -q "89 50 4e 47"; then
  pass "screenshot: a PNG of $size bytes"
else
  fail "screenshot: exit $rc, $size bytes: $(tail -n 3 "$WORK/shot.err")"
fi
mkdir -p "$ARTIFACTS" && cp "$WORK/report.png" "$ARTIFACTS/report_browser.png" 2>/dev/null &&
  cp "$HTML" "$ARTIFACTS/report_browser.html" && echo "artifacts: $ARTIFACTS/report_browser.png, report_browser.html"

# podperf compare --html in the browser.
"$PODPERF" compare --before "$COMPARE_FIX"/healthy_{1,2,3}.json --after "$COMPARE_FIX"/slow_pair{,_2,_3}.json \
  --html "$WORK/compare.html" >"$WORK/compare.out" 2>"$WORK/compare.err"
rc=$?
if [[ $rc -eq 1 && -s "$WORK/compare.html" ]]; then
  pass "podperf compare --html: exit 1 (a slower pair), the page written"
else
  fail "podperf compare --html: exit $rc, $(cat "$WORK/compare.err")"
fi
timeout 90 "${BROWSER[@]}" --enable-logging=stderr --v=0 --dump-dom "file://$WORK/compare.html" >"$WORK/cdom.html" \
  2>"$WORK/cdom.err"
rc=$?
if [[ $rc -eq 0 ]]; then pass "compare page: chromium --dump-dom exit 0"; else fail "compare page: chromium exit $rc: $(tail -n 5 "$WORK/cdom.err")"; fi
for id in compare-chart-pair-all_reduce-float-16M compare-chart-pair-all_reduce-float-64M compare-chart-fs-probes; do
  if grep -q "<svg id=\"$id\"" "$WORK/cdom.html"; then pass "compare DOM has <svg id=\"$id\">"; else fail "compare DOM lacks svg #$id"; fi
done
slower=$(grep -o '<g class="change slower"><title>pair node1&lt;-&gt;node2 ' "$WORK/cdom.html" | wc -l)
if [[ $slower -eq 2 ]]; then pass "compare DOM: node1<->node2 slower at both sizes, with hover titles"; else fail "compare DOM: $slower slower rows of node1<->node2, expected 2"; fi
if grep -q 'REGRESSION: 2 metrics slower by more than 0%' "$WORK/cdom.html"; then pass "compare DOM: the summary"; else fail "compare DOM: no summary"; fi
if grep -E "Uncaught|:CONSOLE|Refused to|Failed to load|net::ERR" "$WORK/cdom.err" >"$WORK/cconsole"; then
  fail "compare page console errors: $(head -c 600 "$WORK/cconsole")"
else
  pass "compare page: no console errors, nothing refused or loaded from elsewhere"
fi
(cd "$WORK" && timeout 90 "${BROWSER[@]}" --hide-scrollbars --window-size=1100,2400 --screenshot="$WORK/compare.png" \
  "file://$WORK/compare.html" >"$WORK/cshot.out" 2>"$WORK/cshot.err")
rc=$?
size=$(stat -c %s "$WORK/compare.png" 2>/dev/null || echo 0)
if [[ $rc -eq 0 && $size -gt 20000 ]]; then pass "compare page screenshot: a PNG of $size bytes"; else fail "compare screenshot: exit $rc, $size bytes"; fi
mkdir -p "$ARTIFACTS" && cp "$WORK/compare.png" "$ARTIFACTS/compare_browser.png" 2>/dev/null &&
  cp "$WORK/compare.html" "$ARTIFACTS/compare_browser.html" && echo "artifacts: $ARTIFACTS/compare_browser.png, compare_browser.html"

# The other formats, and bad input.
"$PODPERF" report "$WORK/run/run.json" --format md --out - >"$WORK/out.md" 2>"$WORK/md.err"
if [[ $? -eq 0 ]] && grep -q "^## podperf run run-fixed: FLAGGED" "$WORK/out.md"; then
  pass "--format md --out -: the summary on stdout"
else
  fail "--format md: $(head -c 300 "$WORK/out.md") $(cat "$WORK/md.err")"
fi
"$PODPERF" report "$WORK/run" --format csv >/dev/null 2>&1
if [[ $? -eq 0 ]] && head -n 1 "$WORK/run/report.csv" | grep -q "^kind,run_id,op,"; then
  pass "--format csv: report.csv beside run.json"
else
  fail "--format csv"
fi
printf '{"schema_version": 1, "nodes": [' >"$WORK/bad.json"
"$PODPERF" report "$WORK/bad.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "bad.json: not valid JSON at byte" "$WORK/bad.err" && [[ $(wc -l <"$WORK/bad.err") -eq 1 ]]; then
  pass "bad run.json: exit 2, one line naming the file and the byte"
else
  fail "bad run.json: exit $rc: $(cat "$WORK/bad.err")"
fi
"$PODPERF" report "$WORK/run" --format junit --out "$WORK/junit.xml" 2>"$WORK/fmt.err"
rc=$?
if [[ $rc -eq 0 ]]; then pass "--format junit: exit 0"; else fail "--format junit: exit $rc: $(cat "$WORK/fmt.err")"; fi
if /usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag == "testsuites" and len(r.findall(".//testcase")) > 0' "$WORK/junit.xml"; then
  pass "--format junit: well-formed JUnit with test cases (the run judged with the quick profile)"
else
  fail "--format junit: not JUnit XML"
fi
"$PODPERF" report "$WORK/run" --format pdf >/dev/null 2>"$WORK/fmt.err"
rc=$?
if [[ $rc -eq 2 ]]; then pass "--format pdf: exit 2"; else fail "--format pdf: exit $rc"; fi

echo "report_browser: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
