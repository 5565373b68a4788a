#pragma once
// The machine projection of a comparison (podperf compare --json). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Every number is the Comparison's.
#include <iosfwd>
#include <nlohmann/json.hpp>

#include "analysis/compare/compare.hpp"

namespace podperf {

// Machine projection (podperf compare --json). p_value and the interval are null when not tested;
// mde_percent null when infinite (untestable).
nlohmann::json comparison_json(const Comparison& c);
// One element of its "metrics".
nlohmann::json metric_comparison_json(const MetricComparison& m);
// Writes comparison_json(c) with the members of `extra` added, as dump(2) and a newline, one metric at a
// time (a comparison of millions of metrics never becomes one tree), with "verdict" and "verdict_line"
// first: the first member of the output says REGRESSION, INCONCLUSIVE or NO REGRESSION.
void write_comparison_json(const Comparison& c, const nlohmann::json& extra, std::ostream& out);

}  // namespace podperf
