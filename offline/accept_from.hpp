#pragma once
// `podperf accept --from run.json|DIR`: a finished run re-judged offline with a profile and a SKU, the
// verdict and the drain list printed, --junit FILE written. Offline floor: no MPI, nothing measured.
#include <iosfwd>

#include "analysis/accept/acceptance.hpp"

namespace podperf {

// Judges the run `o.from` names (run.json, or a results directory holding it), after `o.topology` if
// given. Returns 0 every node passes (PASS or WARN), 1 not accepted (FAIL), 2 bad usage, profile, SKU,
// topology or run file (a measuring option given with --from included), 3 the JUnit or --prometheus
// file not written.
// Errors are one line on `err` (run_offline_command); under a launcher, usage errors only on rank 0.
int run_accept_from(const AcceptanceOptions& o, std::ostream& out, std::ostream& err);

}  // namespace podperf
