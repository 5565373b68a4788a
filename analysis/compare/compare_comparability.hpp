#pragma once
// The ways two runs of a comparison are not comparable (podperf compare). Floor: analysis/; pure.
#include <vector>

#include "analysis/compare/types.hpp"

namespace podperf {

// The ways `before` and `after` differ that may explain a change (or make it meaningless): command,
// backend, nodes, sizes, iterations, versions, environment, topology, filesystem and its probes.
// Empty: comparable in every way podperf can check.
std::vector<ComparabilityNote> comparability(const Run& before, const Run& after);

// A run given on both sides (same run id and start time, or the same path for runs without them), one
// note per such pair naming both entries: compared with itself it shows no change, so a shared run
// pulls the sides together and hides a change.
std::vector<ComparabilityNote> runs_on_both_sides(const std::vector<Run>& before,
                                                  const std::vector<std::string>& before_sources,
                                                  const std::vector<Run>& after,
                                                  const std::vector<std::string>& after_sources);

}  // namespace podperf
