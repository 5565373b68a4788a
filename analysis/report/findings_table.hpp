#pragma once
// Host findings for people and programs (podperf signals): one host's as a table or a JSON array; several
// hosts' (podperf signals under srun or mpirun) as a summary with the cross-host drift. Printers' wing
// (analysis/report), pure; throws only std::bad_alloc.
#include <string>
#include <vector>

#include "analysis/base/finding.hpp"

namespace podperf {

// Findings as a JSON array of objects with the Finding field names; tag is "OK"/"CONCERN"/"INFO".
std::string findings_to_json(const std::vector<Finding>& findings);
// A readable table: TAG, CHECK, OBSERVED, NEXT STEP, one finding per line, every value whole (an
// OBSERVED over 100 characters puts its NEXT STEP on the line below).
std::string findings_to_table(const std::vector<Finding>& findings);

// Several hosts' findings (Finding::host names the host; "" for the cross-host ones, drift.*): per host
// (in `hosts` order) its counts and its CONCERN findings as a table; then the cross-host drift findings
// that are not OK, or that none differs; then the totals: CONCERN findings and on how many hosts.
std::string findings_by_host(const std::vector<std::string>& hosts, const std::vector<Finding>& findings);

}  // namespace podperf
