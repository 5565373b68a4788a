#pragma once
// Joins the slow results with the findings of the hosts involved: for every straggler and slow
// link, the CONCERN findings of its host(s), ranked as likely causes; a straggler with no concern
// gets the next diagnostic step instead. Pure.
#include "analysis/run.hpp"

namespace podperf {

// Fills Straggler::likely_causes / next_step and LinkFinding::likely_causes from run.findings.
void correlate(Run& run);

}  // namespace podperf
