#pragma once
// The findings of the pair inference (analysis/pairs/pair_inference.hpp) that are neither stragglers nor
// links: pairs.ambiguous (what the pairs cannot decide, with the retest that would) and
// pairs.slow_crossing (the slow path between two node sets, named as the topology names them).
// Floor: analysis; pure; throws nothing.
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "analysis/pairs/pair_inference.hpp"

namespace podperf {

// Replaces the run's pairs.ambiguous and pairs.slow_crossing findings with those of `inference`
// (`slow_pairs` as given to it, `rerun`: pairs_rerun_command of the run).
void add_inference_findings(Run& run, const PairInference& inference, const std::vector<InferencePair>& slow_pairs,
                            const std::string& rerun);

// How the topology names a set of nodes: "<level> <group>" (e.g. "switch leafA") for the deepest group
// holding all of them when it holds no other node of the run, else "" (no topology, or not one group).
std::string topology_group_name(const Run& run, const std::vector<int>& nodes);

}  // namespace podperf
