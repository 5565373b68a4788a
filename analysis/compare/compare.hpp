#pragma once
// Before/after comparison of runs (podperf compare), any number per side. Pure functions, no MPI: for
// every metric present on both sides (busbw per pair or collective case, filesystem MB/s, IOPS and p99
// latency per probe and per node) the change in percent and a verdict. The run is the statistical unit:
// each metric is summarized per run (its median); its run-to-run spread is moderated with the metrics of
// its kind and size (compare_noise) and tested with a t test (one run against several: a prediction
// test against the other side's spread), p adjusted within its family (compare_families), with an
// analytic interval and the minimum detectable effect at the family's real alpha; pair metrics are also
// tested as a common shift and per node (compare_pair_levels), and with one run a side against the
// spread of every pair's change. Plus the ways the runs are not comparable, the consistency of each
// side, the runs' own verdicts, and the outcome: REGRESSION, INCONCLUSIVE or no regression
// (compare_outcome), decided once in Comparison::outcome.
// The judge only: its settings are in compare_settings, its statistics in change_stats, and its printers
// in the wing (analysis/report/comparison_text, comparison_json, compare_html). Floor: analysis/.
#include <string>
#include <vector>

#include "analysis/compare/types.hpp"
#include "analysis/config/compare_settings.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// Compares every metric present on both sides (in at least one run of each). Pure; deterministic.
// Comparability is judged between the first run of each side.
Comparison compare_runs(const std::vector<Run>& before, const std::vector<Run>& after, const CompareSettings& settings);
// One run per side.
Comparison compare_runs(const Run& before, const Run& after, const CompareSettings& settings);
// Why the runs of one side are not replicates of one setup (the same run twice, or different nodes,
// sizes, ops, backend, iterations), naming the runs by `sources`; empty when they are.
std::string replicate_mismatch(const std::vector<Run>& runs, const std::vector<std::string>& sources);

// How much worse the metric got, in percent of `before`: -change for higher-is-better metrics,
// +change for latency; negative when it improved.
double regression_percent(const MetricComparison& m);
// The same comparison decided at another --fail-on (and --max-mde; < 0: none): the target of the
// sensitivity and the outcome decided again (no metric's verdict depends on either).
Comparison at_fail_on(Comparison c, double fail_on_percent, double max_mde_percent = -1.0);
// Whether the comparison would be a REGRESSION at another --fail-on (compare_outcome: regressions_at);
// the comparison's own verdict is c.outcome, decided at settings.fail_on_percent.
bool regressed_beyond(const Comparison& c, double fail_on_percent);

}  // namespace podperf
