#pragma once
// The decisions of the pair test at the judged size, from the node model (node_model.hpp) of a Run's
// pairs (pair_input.hpp); nothing in the Run changes (the pair judge writes them, the retest planning
// reads them from a const Run).
//  - A node is a **straggler** when its capacity is more than the threshold below the healthy
//    population (the median node) and its upper bound is below it too: the bound is the estimate
//    plus q standard errors, q the Student t quantile at 1 - node_family_alpha / N on the noise's
//    degrees of freedom (N: the nodes judged), so over the whole run a healthy node is named with
//    probability about node_family_alpha. The cut applied to a node is therefore the larger of the
//    threshold and q standard errors, and both are printed.
//  - When half the nodes or more would be named, the healthy population is no majority (two slow
//    hosts of four, or one faster pair among four, which look the same): a node is named only at
//    half_split_max_ratio of the others or below, the rest are **ambiguous**.
//  - A node below the threshold but within the bound is **undecided** (said, not named); one above the
//    population by more than the threshold and its bound is **fast**.
//  - A node not named whose measurements are bimodal (measurements below the pair cut with
//    intermittent_min_links partners or more, more of them than chance allows at the family-wise level:
//    binomial against the run's rate of low measurements) is **intermittent**.
//  - A pair between two nodes named nothing, more than the link cut below what its class, groups and
//    nodes predict, is a **link**: the cut is the larger of the threshold and z noises, z the t
//    quantile at 1 - link_family_alpha / pairs; and it must be that low in enough measurements: the
//    fewest k (2 at least where the run retests) with f^k x pairs <= link_family_alpha, f the run's own
//    rate of first measurements below the pair cut between healthy nodes (heavy tails and outliers make
//    f larger than the normal model says; a pair twice an outlier is no link). Fewer: unconfirmed, and
//    the retest planning measures it again. A failed pair between two such nodes is a link too.
//  - A pair is **flagged** when its value (the upper median of its measurements) is low by the
//    low-pair rule (analysis/stats/low_pair.hpp) against its class level with the model's noise as the
//    spread; cleared by a retest when only its first measurement was.
// Floor: analysis/pairs; pure; throws nothing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/config/thresholds.hpp"
#include "analysis/model/run.hpp"
#include "analysis/pairs/node_model.hpp"
#include "analysis/pairs/pair_input.hpp"

namespace podperf {

enum class NodeState { kNotJudged, kHealthy, kFast, kUndecided, kAmbiguous, kIntermittent, kStraggler };

// "straggler", "healthy", ...: NodeEstimate::verdict's words.
const char* node_state_name(NodeState s);

struct PairVerdicts {
  PairInput input;
  NodeModel model;
  std::vector<NodeState> state;       // per node
  std::vector<double> low, high;      // per node: the family-wise interval of its log capacity
  std::vector<int> low_measurements;  // per node: measurements below the pair cut
  std::vector<int> measurements;      // per node
  std::vector<int> unsteady_low;      // per node: those, a pair low in every one of several measurements counted once
  std::vector<int> low_partners;      // per node: distinct partners in those
  std::vector<bool> flagged;          // per model pair
  std::vector<bool> first_flagged;    // per model pair: its first measurement alone
  std::vector<std::size_t> links;     // model pairs
  std::vector<std::size_t> unconfirmed_links;  // model pairs slow like a link, measured too few times yet
  std::vector<std::size_t> fast_pairs;         // model pairs faster than their class and nodes by the link cut
  int needed_measurements = 2;                 // measurements a link needs (pair_verdicts.hpp)
  std::vector<std::size_t> failed_links;       // indices into run.pairs (failed pairs between healthy nodes)
  std::size_t chance_flags = 0;                // flagged pairs between healthy nodes inside the link cut
  double node_quantile = 0.0;                  // q
  double typical_se = 0.0;                     // the median node's standard error (log)
  double link_cut = 0.0;                       // fraction
  double pair_cut = 0.0;                       // fraction
  double low_rate = 0.0;  // the run's share of measurements below the pair cut (counted as unsteady_low)
  bool relative = false;  // 3 judged nodes or more: relative judgement possible
  bool blocks = false;    // the classes come from blocks found in the matrix
};

// At `size` (the judged size: the largest measured).
PairVerdicts decide_pairs(const Run& run, const PairThresholds& t, std::uint64_t size);

// The model's node parameters from the thresholds.
ModelParams model_params(const PairThresholds& t);

}  // namespace podperf
