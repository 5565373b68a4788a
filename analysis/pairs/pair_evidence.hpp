#pragma once
// What two node checks of the pair test share (analysis/pairs/pair_stalls, analysis/pairs/retest_recovered): per
// node, the pairs at the judged size that the check picked, how many pairs the node measured there,
// its distinct partners among the picked, and the text listing them with the --pairs value that
// measures them again. Floor: analysis; pure; throws nothing.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct NodePairs {
  std::vector<std::vector<std::size_t>> picked;  // per node: indices into run.pairs, in run order
  std::vector<int> measured;                     // per node: its ok pairs at the judged size
};

// Over the ok pairs at run.judged_size_bytes whose two nodes are both in run.nodes: each counted for
// both its nodes, and listed under both when `pick(index into run.pairs)` says so.
NodePairs pick_pairs_by_node(const Run& run, const std::function<bool(std::size_t)>& pick);

// The other node of `p` (p holds `node`).
int pair_partner(const PairResult& p, int node);

// How many distinct partners `node` has in `pairs` (indices into run.pairs).
std::size_t distinct_partners(const Run& run, const std::vector<std::size_t>& pairs, int node);

struct PairListText {
  std::string shown;   // the first pairs, "; "-joined, then "and N more"
  std::string option;  // "node3:node0,node3:node1": the --pairs value of the pairs shown
};

// The first `max_shown` of `pairs` (indices into run.pairs, all holding `node`), each as
// `describe(index, partner's label)`.
PairListText pair_list_text(const Run& run, int node, const std::vector<std::size_t>& pairs, std::size_t max_shown,
                            const std::function<std::string(std::size_t, const std::string&)>& describe);

}  // namespace podperf
