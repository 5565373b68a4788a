#pragma once
// Joins the slow results with the findings of the hosts involved: for every straggler and slow
// link, the CONCERN findings of its host(s), ranked as likely causes; a straggler with no concern
// gets the next diagnostic step instead. Pure.
#include "analysis/run.hpp"

namespace podperf {

// Fills Straggler::likely_causes / next_step and LinkFinding::likely_causes from run.findings, and,
// with at least `min_nodes` hosts, adds a finding for each host signal in run.node_metrics whose
// Spearman rank correlation with the hosts' median pair busbw (at the judged size) reaches
// |rho| >= 0.7: INFO when it is the expected direction (more errors, lower busbw), noted as such.
void correlate(Run& run, std::size_t min_nodes = 6);

// Spearman rank correlation of two equal-length samples (average ranks for ties); 0 when either is
// constant or shorter than 3.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace podperf
