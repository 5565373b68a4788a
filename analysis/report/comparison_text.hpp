#pragma once
// The terminal text of a comparison (podperf compare) and the way it writes values and p values
// (shared with the --html page). Floor: the printers' wing (analysis/report/); pure, local; throws
// nothing. A projection of the Comparison: layout only, no number is computed.
#include <string>
#include <string_view>

#include "analysis/compare/compare.hpp"

namespace podperf {

// Terminal text: the outcome on the first line (Comparison::outcome: REGRESSION, INCONCLUSIVE or no
// regression), then the summary, the other findings, what each level could see, the consistency of each
// side, the runs' own verdicts and comparability, then the slower and faster metrics (largest first;
// those a node or the common shift explains rolled up into it), then counts of the rest.
std::string comparison_text(const Comparison& c);

// A metric's value with its unit as the text prints it ("12.34 GB/s", "1234 MB/s", "812.3 us").
std::string format_metric_value(double v, std::string_view unit);
// The verdict for people ("no change within noise", "untestable").
std::string verdict_text(const std::string& verdict);
// One line naming the method and the unit ("the run is the unit (moderated t on per-run medians ...)").
std::string method_line(const Comparison& c);
// The paragraph saying how the verdicts were reached (method, runs per side, correction, settings).
std::string method_text(const Comparison& c);
// "a change of more than 4.1% would have been seen (median over these metrics; 9.0% at most)"; "" when
// no metric is no_change.
std::string mde_words(const Comparison& c);
// The pair metrics a run took from their retest ("3 pair metrics compared by the pair's retest, ...:
// BEFORE r1: pair a<->b ...; ..."), the first four named; "" when none.
std::string from_retest_note(const Comparison& c);
// One run a side, when the pairs' changes have heavy tails (transients): which pair matrices, and that a
// pair is then tested against the tail of the pairs that moved the other way; "" otherwise.
std::string heavy_tail_note(const Comparison& c);
// Where the spread between runs comes from (ComparisonSummary::iteration_share_median) and what would
// shrink it: "iterations explain about 80% of the spread between these runs (...): more iterations per
// run ..."; "" when not estimated (one run on a side, blocks as units).
std::string spread_words(const Comparison& c);
// A p value as the text prints it: "0.0123", "<0.0001", "-" when not tested (negative).
std::string format_p_value(double p);

}  // namespace podperf
