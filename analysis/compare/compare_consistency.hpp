#pragma once
// Whether the runs of each side agree with each other (podperf compare): one bad job in three widens
// every metric's spread until nothing can be told, and "no change" would hide that the AFTER side became
// inconsistent. Per run, its typical offset from its side (the median over the metrics of its log value
// minus the metric's mean over the side's runs); per side, the spread of those offsets; the two sides'
// spreads compared by the F test. A side whose spread is at least settings.consistency_ratio times the
// other's, significantly (p < alpha), with a run at least twice --min-change away from the others, is
// named less consistent, with that run. Runs as units only (2 or more runs per side).
// Floor: analysis/compare; pure, deterministic.
#include <string>
#include <vector>

#include "analysis/compare/types.hpp"

namespace podperf {

// `ids_before`, `ids_after`: the run ids in the order the runs were given (the order of each metric's
// runs_before/runs_after).
ConsistencyVerdict judge_consistency(const Comparison& c, const std::vector<std::string>& ids_before,
                                     const std::vector<std::string>& ids_after, const CompareSettings& settings);

}  // namespace podperf
