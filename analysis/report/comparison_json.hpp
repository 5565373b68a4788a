#pragma once
// The machine projection of a comparison (podperf compare --json). Floor: the printers' wing
// (analysis/report/); pure, local; throws nothing. Every number is the Comparison's.
#include <nlohmann/json.hpp>

#include "analysis/compare.hpp"

namespace podperf {

// Machine projection (podperf compare --json). p_value and the interval are null when not tested.
nlohmann::json comparison_json(const Comparison& c);

}  // namespace podperf
