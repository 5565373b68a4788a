#pragma once
// A node slow now and then (a flapping NIC or link, throttling, a noisy neighbour) shows in a small run
// as pairs slow at first and fast in their retest: too few to be named (pairs.intermittent_node needs
// intermittent_min_links links), cleared by the retest, counted and gone. So that such a node stays
// visible, a node in at least min_cleared_partners pairs at the judged size that were flagged at first
// and cleared by their retest (PairResult::cleared_by_retest), with distinct partners, gets an INFO
// finding pairs.recovered_in_retest naming it with those pairs. It changes no verdict, exit code or
// drain: on a noisy healthy cluster such pairs happen (real 4-node runs on the namespaced cluster and
// virtual nodes: tests/perf/README.md); the node that recurs in it run after run is the intermittent
// one. Nodes already named (stragglers, pairs.intermittent_node) are not repeated. Floor: analysis;
// pure; throws nothing.
#include <string>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"

namespace podperf {

// Replaces the pairs.recovered_in_retest findings of an earlier pass. `rerun`: the command that
// measures the pairs again (pairs_rerun_command).
void add_recovered_node_findings(Run& run, const PairThresholds& t, const std::string& rerun);

}  // namespace podperf
