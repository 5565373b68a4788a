#!/usr/bin/env bash
# The HTML report's pair heatmap at 64 and 256 nodes in headless Chromium: modelled runs (pairs --backend
# sim, every pair measured) rendered, then measured in the browser's own layout: no two column labels
# overlap, no two row labels overlap, every label lies inside the chart, the labels' font is at least
# 6 px, and the colour legend is drawn with a swatch per colour and mark. Exit 77 (skipped) when
# chromium is not installed or cannot start here.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
WORK=$(mktemp -d /tmp/podperf-heatmap.XXXXXX)
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
BROWSER=("$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run
  --no-default-browser-check --disable-extensions --disable-background-networking --disable-sync
  --user-data-dir="$WORK/profile")
if ! timeout 60 "${BROWSER[@]}" --dump-dom "data:text/html,<p>ok</p>" >"$WORK/probe.out" 2>"$WORK/probe.err"; then
  echo "SKIP: chromium cannot start here: $(tail -n 3 "$WORK/probe.err")"
  exit 77
fi

# The measurement, appended to a copy of the report (the report itself has no script): the browser's
# boxes of the heatmap's labels, written into the DOM as "key=value" lines.
cat >"$WORK/measure.js" <<'JS'
(() => {
  const svg = document.querySelector('#pair-heatmap');
  const out = [];
  if (!svg) { out.push('heatmap=missing'); } else {
    const box = svg.getBoundingClientRect();
    const rects = (sel) => [...svg.querySelectorAll(sel)].map((t) => t.getBoundingClientRect());
    const cols = rects('text.column-label').sort((a, b) => a.left - b.left);
    const rows = rects('text.row-label').sort((a, b) => a.top - b.top);
    let colOverlaps = 0, rowOverlaps = 0, outside = 0;
    for (let i = 1; i < cols.length; i++) if (cols[i - 1].right > cols[i].left + 0.5) colOverlaps++;
    for (let i = 1; i < rows.length; i++) if (rows[i - 1].bottom > rows[i].top + 0.5) rowOverlaps++;
    for (const r of cols.concat(rows)) {
      if (r.left < box.left - 0.5 || r.top < box.top - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5) outside++;
    }
    const label = svg.querySelector('text.column-label');
    out.push(`columns=${cols.length}`, `rows=${rows.length}`, `column_overlaps=${colOverlaps}`,
      `row_overlaps=${rowOverlaps}`, `outside=${outside}`,
      `font_px=${label ? parseFloat(getComputedStyle(label).fontSize) : 0}`,
      `legend_swatches=${svg.querySelectorAll('g.legend rect').length}`,
      `legend_text=${[...svg.querySelectorAll('g.legend text')].map((t) => t.textContent).join('|')}`);
  }
  const pre = document.createElement('pre');
  pre.id = 'heatmap-check';
  pre.textContent = out.join('\n');
  document.body.appendChild(pre);
})();
JS

for n in 64 256; do
  "$PODPERF" pairs --backend sim --sim-nodes "$n" --seed 3 -b 16M -e 16M -n 5 -w 1 --out "$WORK" --run-id "n$n" \
    >"$WORK/n$n.out" 2>"$WORK/n$n.err"
  "$PODPERF" report "$WORK/n$n" --out "$WORK/n$n.html" >"$WORK/rep$n.out" 2>&1
  rc=$?
  if [[ $rc -ne 0 || ! -s "$WORK/n$n.html" ]]; then fail "$n nodes: podperf report exit $rc: $(tail -3 "$WORK/rep$n.out")"; continue; fi
  # The copy drops the report's Content-Security-Policy (it forbids scripts) to run the measurement.
  { sed 's#<meta http-equiv="Content-Security-Policy"[^>]*>##; s#</body>##' "$WORK/n$n.html"
    printf '<script>\n'; cat "$WORK/measure.js"; printf '</script>\n</body>\n'; } >"$WORK/n$n.check.html"
  timeout 120 "${BROWSER[@]}" --dump-dom "file://$WORK/n$n.check.html" >"$WORK/n$n.dom" 2>"$WORK/n$n.dom.err"
  rc=$?
  check=$(sed -n '/<pre id="heatmap-check">/,/<\/pre>/p' "$WORK/n$n.dom" | sed 's/<[^>]*>//g')
  val() { sed -n "s/^$1=//p" <<<"$check"; }
  if [[ $rc -ne 0 || -z $check ]]; then fail "$n nodes: chromium exit $rc, no measurement: $(tail -3 "$WORK/n$n.dom.err")"; continue; fi
  if [[ $(val columns) == "$n" && $(val rows) == "$n" ]]; then pass "$n nodes: $n column and $n row labels"
  else fail "$n nodes: $(val columns) column and $(val rows) row labels"; fi
  if [[ $(val column_overlaps) == 0 ]]; then pass "$n nodes: no two column labels overlap"
  else fail "$n nodes: $(val column_overlaps) column labels overlap their neighbour"; fi
  if [[ $(val row_overlaps) == 0 ]]; then pass "$n nodes: no two row labels overlap"
  else fail "$n nodes: $(val row_overlaps) row labels overlap their neighbour"; fi
  if [[ $(val outside) == 0 ]]; then pass "$n nodes: every label inside the chart"
  else fail "$n nodes: $(val outside) labels outside the chart"; fi
  if awk -v f="$(val font_px)" 'BEGIN { exit !(f >= 6) }'; then pass "$n nodes: labels at $(val font_px) px"
  else fail "$n nodes: labels at $(val font_px) px (under 6)"; fi
  legend=$(val legend_text)
  if [[ $(val legend_swatches) -ge 10 && $legend == *"50% of the level or less"* && $legend == *"100% or more"* &&
    $legend == *failed* && $legend == *"not measured"* && $legend == *flagged* ]]; then
    pass "$n nodes: the colour legend ($(val legend_swatches) swatches: $legend)"
  else fail "$n nodes: legend $(val legend_swatches) swatches: $legend"; fi
done

echo "heatmap_browser: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
