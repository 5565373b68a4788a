#pragma once
// The inference judge of the pair test: from which pairs are slow and which fast (at the judged size),
// the fewest explanations that account for the slow pairs and leave the fast ones fast. A fast pair
// clears both of its nodes; a slow pair with a cleared partner implicates its other node; a node is
// named slow only on min_cleared_partners such pairs with distinct cleared partners (one slow pair
// cannot tell the node from the link) and only when at least three nodes are cleared, or two cleared
// nodes anchor one slow node or two slow with each other (two slow hosts of four); slow pairs between cleared nodes
// are links, and links that are exactly the crossing between two node sets are that crossing (an uplink or a switch),
// not links. What the pairs cannot decide is reported as ambiguous with the retest that would decide it. Floor:
// analysis; pure (integers in, integers out); throws nothing.
#include <cstddef>
#include <functional>
#include <vector>

namespace podperf {

// A pair at the judged size: its two nodes (indices).
struct InferencePair {
  int a = 0;
  int b = 0;
  double ratio = 0.0;         // busbw / baseline (shown in findings; read only against one fast pair)
  double retest_ratio = 0.0;  // its retest's busbw / baseline; 0: not measured again
};

struct PairInferenceInput {
  std::size_t nodes = 0;
  std::vector<int> fast_pairs;            // per node: its measured pairs at the judged size not flagged
  std::vector<InferencePair> slow_pairs;  // the flagged measured pairs at the judged size
  int min_cleared_partners = 2;           // distinct cleared partners in slow pairs that name a node
  std::vector<int> measured_pairs;        // per node: its measured pairs at the judged size; empty: no
                                          // node is named by name_mostly_slow_nodes
  double mostly_slow_fraction = 0.75;     // more of them links than this share: slow after all
  // With two cleared nodes (one fast pair), a node is named only when its slow pairs with them average
  // at most this share of the baseline (InferencePair ratio and retest_ratio); nearer, undecided_slow.
  double single_pair_anchor_max_ratio = 0.5;
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
  // Nodes the rule above would name but the cleared nodes are too few to anchor "healthy": two cleared
  // (one fast pair) anchor one slow node, or two slow with each other too (two slow hosts of four);
  // more, and the one fast pair may be the odd one (a faster path between its two nodes): the run
  // cannot tell. Not named; reported as one undecided group. So too a node whose pairs with the one
  // fast pair's nodes average above single_pair_anchor_max_ratio of it: that pair may run on a faster
  // path, and the node be healthy.
  std::vector<int> undecided_slow;
  double undecided_ratio = 0.0;  // the highest such average among undecided_slow (shown in findings)
};

// The measured pairs not flagged at the judged size, asked for only when enough links could form a
// slow crossing (at scale a pass over every pair).
using FastPairList = std::function<std::vector<InferencePair>()>;

// In order: the nodes named on min_cleared_partners (above), the links, the slow crossing among them
// (find_slow_crossing, when `fast_pair_list` is given), the cleared nodes in mostly slow pairs
// (name_mostly_slow_nodes), too few cleared nodes to anchor (undecided_slow), then the ambiguous
// nodes and unexplained pairs.
PairInference infer_pair_faults(const PairInferenceInput& input, const FastPairList& fast_pair_list = {});

// After the links and find_slow_crossing: a cleared node in min_cleared_partners links or more, and
// with more than mostly_slow_fraction of its measured pairs links, is slow after all (a node only a little slow has a
// pair or two inside the threshold by chance, which cleared it; most of its pairs with healthy partners are still slow,
// while one slow link, or a node slow now and then, leaves most of them fast). Named in inference.slow (evidence: its
// link partners), uncleared, and its links leave inference.links. Runs after the crossing: every node at the edge of a
// slow crossing has more slow pairs than fast ones.
void name_mostly_slow_nodes(const PairInferenceInput& input, PairInference& inference);

// The crossing the links of `inference` form, if any: two sets of two or more nodes such that every
// link joins the two and no fast pair does (`fast_pairs`: the measured pairs not flagged at the judged
// size). Moves those links from inference.links to inference.crossings.
void find_slow_crossing(const std::vector<InferencePair>& slow_pairs, const std::vector<InferencePair>& fast_pairs,
                        PairInference& inference);

}  // namespace podperf
