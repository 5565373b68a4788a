#pragma once
// Per-node facts of a judged run, for outputs that show one row per node (the Prometheus textfile):
// the node's median pair busbw at the judged size, its pairs and flagged pairs there, whether the
// analysis named it a straggler, and its acceptance verdict. Pure: reads the analyzed Run (after
// judge_run, and judge_acceptance for the verdict), computes nothing the analysis did not decide.
// Analysis floor; local; throws nothing.
#include <optional>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"

namespace podperf {

struct NodeSummary {
  std::string label;  // what reports print (hostname, or hostname/vN)
  std::string hostname;
  std::string instance_type;                // "" when the node did not report one
  int pairs = 0;                            // its pairs at the judged size (any status)
  int ok_pairs = 0;                         // ... that finished ok
  int flagged_pairs = 0;                    // ... that the analysis flagged (after retests)
  std::optional<double> median_busbw_gbps;  // over its ok pairs at the judged size; none without one
  bool straggler = false;                   // named in run.stragglers
  std::string verdict;                      // PASS | WARN | FAIL from run.verdict; "" when the run was not judged
};

// One NodeSummary per node of `run`, in node order.
std::vector<NodeSummary> summarize_nodes(const Run& run);

}  // namespace podperf
