#pragma once
// The inference judge of the pair test: from which pairs are slow and which fast (at the judged size),
// the fewest explanations that account for the slow pairs and leave the fast ones fast. A fast pair
// clears both of its nodes; a slow pair with a cleared partner implicates its other node; a node is
// named slow only on min_cleared_partners such pairs with distinct cleared partners (one slow pair
// cannot tell the node from the link); slow pairs between cleared nodes are links, and links that are
// exactly the crossing between two node sets are that crossing (an uplink or a switch), not links.
// What the pairs cannot decide is reported as ambiguous with the retest that would decide it.
// Floor: analysis; pure (integers in, integers out); throws nothing.
#include <cstddef>
#include <vector>

namespace podperf {

// A pair at the judged size: its two nodes (indices).
struct InferencePair {
  int a = 0;
  int b = 0;
  double ratio = 0.0;  // busbw / baseline (shown in findings; the inference reads only the nodes)
};

struct PairInferenceInput {
  std::size_t nodes = 0;
  std::vector<int> fast_pairs;            // per node: its measured pairs at the judged size not flagged
  std::vector<InferencePair> slow_pairs;  // the flagged measured pairs at the judged size
  int min_cleared_partners = 2;           // distinct cleared partners in slow pairs that name a node
};

// A node the pairs do not decide: all its measured pairs are slow, but too few of them have a
// cleared partner to tell the node from its links.
struct AmbiguousNode {
  int node = 0;
  std::vector<int> cleared_partners;  // its slow pairs' partners that are cleared (a link may be slow)
  std::vector<int> other_partners;    // its slow pairs' partners that are not cleared either
  int retest_partner = -1;            // a cleared node it has not been measured with, or -1: none known
};

// The slow pairs that are exactly the pairs measured between two node sets (each of two or more):
// one slow path between them (an uplink of one side, or the switch above both), no node or link.
struct SlowCrossing {
  std::vector<int> side_a;  // ascending; side_a.front() < side_b.front()
  std::vector<int> side_b;
  std::vector<std::size_t> pairs;  // indices into slow_pairs
};

struct PairInference {
  std::vector<bool> cleared;                    // in at least one fast pair
  std::vector<bool> slow;                       // named slow nodes
  std::vector<std::vector<int>> slow_evidence;  // per slow node: its distinct cleared partners in slow pairs
  std::vector<std::size_t> links;               // slow pairs between cleared nodes, outside any crossing
  std::vector<SlowCrossing> crossings;
  std::vector<AmbiguousNode> ambiguous;
  std::vector<std::size_t> unexplained;  // slow pairs between two ambiguous nodes (no cleared partner)
};

PairInference infer_pair_faults(const PairInferenceInput& input);

// The crossing the links of `inference` form, if any: two sets of two or more nodes such that every
// link joins the two and no fast pair does (`fast_pairs`: the measured pairs not flagged at the judged
// size). Moves those links from inference.links to inference.crossings.
void find_slow_crossing(const std::vector<InferencePair>& slow_pairs, const std::vector<InferencePair>& fast_pairs,
                        PairInference& inference);

}  // namespace podperf
