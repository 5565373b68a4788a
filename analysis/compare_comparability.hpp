#pragma once
// The ways two runs of a comparison are not comparable (podperf compare). Floor: analysis/; pure.
#include <vector>

#include "analysis/compare.hpp"

namespace podperf {

// The ways `before` and `after` differ that may explain a change (or make it meaningless): command,
// backend, nodes, sizes, iterations, versions, environment, topology, filesystem and its probes.
// Empty: comparable in every way podperf can check.
std::vector<ComparabilityNote> comparability(const Run& before, const Run& after);

}  // namespace podperf
