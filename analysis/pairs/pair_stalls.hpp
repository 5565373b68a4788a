#pragma once
// A node whose link or NIC drops out for moments (a flapping port, a link retraining, a host stalling
// its I/O) leaves its pairs' medians where they were: a stall of two seconds among fifty iterations
// moves the median not at all, so neither a straggler nor a slow link is named. It shows in the
// iterations: some many times slower than their pair's median. A stalled pair is one with at least
// [pairs] stall_min_iterations iterations (first measurement and retest, each against its own median)
// slower than stall_factor times the median; a node in stalled pairs with at least min_cleared_partners
// distinct partners is named in a CONCERN, pairs.stalling_node, with the pairs and the worst stall (one
// stalled pair cannot tell the node from the link). Measured on the namespaced cluster with h3's link
// shaped to 300mbit for 2 s of every 6 (tests/perf/README.md): h3's pairs had iterations up to 19x
// their median and cv 160-200% while the other pairs stayed under 1.9x, and no healthy real run on this
// machine had a single pair with two iterations beyond 5x. Stragglers are not repeated. Floor:
// analysis; pure; throws nothing.
#include <string>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// Replaces the pairs.stalling_node findings of an earlier pass. `rerun`: pairs_rerun_command.
void add_stalling_node_findings(Run& run, const PairThresholds& t, const std::string& rerun);

// The iterations of `samples_s` slower than `factor` times their median (0 when empty).
int stalled_iterations(const std::vector<double>& samples_s, double factor);

}  // namespace podperf
