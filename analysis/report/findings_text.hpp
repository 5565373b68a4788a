#pragma once
// Terminal lines for a run's findings: CONCERNs with their likely effect and next step, INFO lines
// briefly, OK summaries counted. A projection of the Run.
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

// `prefix` starts every line ("" for the pairs summary, "# " inside the nccl-tests table).
std::string render_findings(const Run& run, const std::string& prefix);

// CONCERN findings about `host` (or run-wide ones), e.g. to explain a slow pair.
std::vector<const Finding*> concerns_for(const Run& run, const std::string& host);

}  // namespace podperf
