#pragma once
// The failed measurements and incomplete runs of each side of a comparison (podperf compare): a pair
// or collective case that errored, hung or returned wrong results, a filesystem probe with a failed
// rank, a run that timed out or was aborted. Such a metric has no value in that run, so without this
// it would only be "only in BEFORE" and a change that broke it would pass as no regression.
// Floor: analysis/; pure, deterministic.
#include <string>
#include <vector>

#include "analysis/compare/types.hpp"

namespace podperf {

// The registry ids of the metrics that failed in some run of `runs`, as a flag per id (size `count`).
std::vector<char> failed_metric_flags(const std::vector<RunMetricSummary>& runs, std::size_t count);

// The failures of each side, grouped by metric (the runs it failed in, its first status and
// message), in the order the runs list them, each marked other_side_too when the other side has it
// too (`failed_before`, `failed_after`: failed_metric_flags of each side); runs that did not complete
// come first.
void list_failures(const std::vector<RunMetricSummary>& before, const std::vector<std::string>& ids_before,
                   const std::vector<char>& failed_before, const std::vector<RunMetricSummary>& after,
                   const std::vector<std::string>& ids_after, const std::vector<char>& failed_after,
                   const MetricRegistry& registry, std::vector<ComparedFailure>& failures_before,
                   std::vector<ComparedFailure>& failures_after);

}  // namespace podperf
