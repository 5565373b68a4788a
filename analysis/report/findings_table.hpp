#pragma once
// One host's findings for people and programs (podperf signals): a table or a JSON array. Printers'
// wing (analysis/report), pure; throws only std::bad_alloc.
#include <string>
#include <vector>

#include "analysis/base/finding.hpp"

namespace podperf {

// Findings as a JSON array of objects with the Finding field names; tag is "OK"/"CONCERN"/"INFO".
std::string findings_to_json(const std::vector<Finding>& findings);
// A readable table: TAG, CHECK, OBSERVED, NEXT STEP (one finding per line, long cells cut).
std::string findings_to_table(const std::vector<Finding>& findings);

}  // namespace podperf
