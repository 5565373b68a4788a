#pragma once
// What the node model reads from a Run (analysis/pairs/node_model.hpp): the pairs at the judged size
// that finished and checked out, each with every measurement it has (the first, then each retest);
// the nodes' comparability classes (ranks per node and instance type: nodes of different kinds are
// judged in separate classes, and a node with no peer of its kind is not judged); each pair's class
// (its nodes' kinds and the topology level at which they differ: the run's topology, or blocks found
// in the pair matrix); and the groupings of the group terms (one per topology level, or the blocks).
// Floor: analysis/pairs; pure; throws nothing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/model/run.hpp"
#include "analysis/pairs/node_model.hpp"

namespace podperf {

struct PairInput {
  ModelInput model;
  std::string op;
  std::uint64_t size_bytes = 0;
  // Comparability: per node its kind's index, the kinds' names ("8 ranks", "4 ranks, p5.48xlarge")
  // and sizes.
  std::vector<int> node_kind;
  std::vector<std::string> kind_names;
  std::vector<std::size_t> kind_nodes;
  // Per pair class: the topology level at which its nodes differ (topology_split_level), the
  // grouping's size for "same group", -1 unknown; and whether the class is the blocks' "between".
  std::vector<int> class_split;
  std::vector<std::pair<int, int>> class_kinds;  // per pair class: its nodes' kinds (lower first)
  std::vector<bool> class_inside;                // per pair class: its nodes in one group (the reference)
  std::string structure;  // "topology" (the run's), "blocks" (found in the matrix) or "" (none)
  std::vector<std::size_t> failed;  // indices into run.pairs: measured at the judged size, not ok
};

// The pairs at `size` (the judged size); `threshold` ([pairs] threshold) for pair_value. Blocks found in the pair matrix (analysis/pairs/pair_blocks.hpp) replace a missing topology:
// `blocks` is then that grouping (else null).
PairInput collect_pair_input(const Run& run, std::uint64_t size, double threshold,
                             const ModelGrouping* blocks = nullptr);

// A pair's value from its measurements (logs): their median; of an even count whose two middle ones lie
// more than twice the threshold apart, the higher of them (the other a dip: an outlier or a flap, which
// says nothing of the nodes' capacity; the intermittent check counts it). `threshold`: a fraction.
double pair_value(std::vector<double> logs, double threshold);

// The measurements of pair `p` as GB/s: the first, the first retest, the later retests (those > 0).
std::vector<double> pair_measurements_gbps(const PairResult& p);

// Whether the run finished the pair (a watchdog or a signal may not have): an unfinished pair says
// nothing about its nodes' speed.
bool pair_measured(const PairResult& p);

}  // namespace podperf
