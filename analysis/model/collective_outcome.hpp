#pragma once
// The outcome of a collective run (podperf collective): its exit code from the cases' status. Floor:
// analysis/; pure, local; throws nothing.
#include "analysis/model/run.hpp"

namespace podperf {

// 1 when any case of the run has wrong results or failed, else 0.
int collective_exit_code(const Run& run);

}  // namespace podperf
