#pragma once
// Before/after comparison of runs (podperf compare), any number per side. Pure functions, no MPI: for
// every metric present on both sides (busbw per pair or collective case, filesystem MB/s, IOPS and p99
// latency per probe and per node) the change in percent and a verdict. The run is the statistical unit:
// each metric is summarized per run (its median), and with >= 2 runs per side the per-run medians are
// tested (Welch's t on their logarithms, p adjusted across metrics) with an analytic interval and the
// minimum detectable effect; with one run on a side nothing is tested (iterations of one run are not
// independent) and a change is judged against the run-to-run allowance. Plus the ways the runs are not
// comparable.
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
// How many metrics are slower (or slower_beyond_allowance) by more than fail_on_percent
// (regression_percent): the REGRESSION count of the printers.
int slower_beyond(const Comparison& c, double fail_on_percent);
// True when some metric's verdict is slower (or slower_beyond_allowance) and its regression_percent
// exceeds fail_on_percent, or when AFTER has a failure no BEFORE run had (summary.failures_new).
bool regressed_beyond(const Comparison& c, double fail_on_percent);

}  // namespace podperf
