#pragma once
// The HTML page of a comparison (podperf compare --html): one self-contained file like the run report
// (the same Content-Security-Policy; no network, scripts or fonts; inline SVG with <title> tooltips).
// The outcome first (Comparison::outcome: REGRESSION, INCONCLUSIVE or no regression, as the text's first
// line), the summary (slower, faster, no change, not tested), what each level could see, the consistency
// of each side and the runs' own verdicts, then
// the ways the runs are not comparable, then a change chart per group of metrics (ids
// "compare-chart-<group>": pair busbw per op, type and size; collectives; filesystem per probe; per
// node): a dot at the change in percent, a whisker over its interval, the +-min_change noise band, red
// slower, green faster, grey no change, an open dot when not tested. Groups with more rows than fit
// show every slower and faster metric (up to a cap) and the largest few of the rest, and say how many
// were left out. Then a table of the slower and faster metrics and the method. A projection of the
// Comparison: layout only, no number is computed. Deterministic: the same Comparison gives the same bytes.
#include <string>

#include "analysis/compare/compare.hpp"

namespace podperf {

std::string render_compare_html(const Comparison& c);

}  // namespace podperf
