#pragma once
// The spread the pair verdicts leave unexplained. A pair runs at the speed of its slower node, so a
// node's best pair (its ceiling) is its own speed once it has one faster partner. A slow majority of
// unequal slow nodes (each 10-40% slower) spreads its pairs over 60-90% of the healthy figure with no
// gap a baseline could anchor on: the baseline settles among them and most are never flagged. Yet
// every such node has a ceiling below that of the fastest nodes. After the inference, a node is
// **lagging** when it has at least two measured pairs at the judged size, is not already explained
// (named, ambiguous, undecided, at the edge of a slow crossing), and its ceiling is more than the pair
// threshold below the reference ceiling (the level at least lagging_reference_nodes nodes reach) and more
// than spread_factor spreads below it (the spread of the pairs among the nodes that reach it, at
// least the median pair's own noise). Lagging nodes give one pairs.ambiguous finding: the run cannot
// tell (no consistent fast group of nodes), with the retest that decides. Nothing is named or
// drained for it. Retests count in a node's favour (its ceiling is the higher of the measurement and
// its retest). Floor: analysis; pure; throws nothing.
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/pairs/pair_inference.hpp"

namespace podperf {

struct LaggingNodes {
  std::vector<int> nodes;        // ascending
  std::vector<double> ceilings;  // per lagging node: its best pair's busbw (GB/s)
  std::vector<int> reference;    // the nodes at or above the reference ceiling, fastest first
  double reference_gbps = 0.0;   // the reference ceiling
  double spread_gbps = 0.0;      // the spread it is judged against
};

// The lagging nodes of an analyzed run at the judged size (above). `inference`: judge_pairs' own.
LaggingNodes find_lagging_nodes(const Run& run, const PairInference& inference, const PairThresholds& t);

// Replaces the run's lagging-node finding (a pairs.ambiguous) with that of `lagging`, if any
// (`rerun`: pairs_rerun_command of the run).
void add_lagging_node_findings(Run& run, const LaggingNodes& lagging, const std::string& rerun);

}  // namespace podperf
