#pragma once
// The node model of the pair test: what each node's capacity is, with its uncertainty, from all the
// pairs and retests at the judged size. A pair runs at the speed of its slower node, times the cost
// of its path's class (crossing a level of the network, its nodes' kinds) and of the groups it
// leaves or stays in; so in logarithms
//
//   log busbw(pair a-b) = class level + group terms + min(node a, node b) + link + noise.
//
// The fit is robust (medians throughout, so slow nodes, slow links and outliers move nothing they
// are not part of), in steps:
//  - class levels: the median of each class's pairs (every measurement of a pair counts: its value is
//    the median of its measurements, a dip left out (pair_input.hpp pair_value); a retest adds evidence,
//    it replaces nothing);
//  - node terms: each node's median pair against the partners that are not slower than it (by more
//    than the partner tolerance: the larger of the threshold and 2 pair noises); a pair with a slower
//    partner runs at that partner's speed and says nothing of this node. Started from each node's
//    upper quartile, so a healthy half of the nodes is found even when the slow half are as many;
//    a slow median is contradicted by max(1, a fifth) of the node's main-class pairs at the reference
//    level and far above it (the node is then not slow, its slow pairs are links);
//  - the reference: the median node (the upper one of an even count) is 0: capacities are relative
//    to the healthy population, and the class levels are those of two such nodes;
//  - group terms, for a grouping (a topology level, or blocks found in the matrix): per group, the
//    term of its pairs leaving it (an uplink) and of its pairs inside it (a faster or slower domain),
//    each the deviation its least affected member shares (so one slow node is no group term; a slow
//    inside term is kept only when it holds without each member's pairs with slower partners, so a
//    slow node in a group of 2 or 3 is not its switch), kept
//    only beyond the threshold and beyond the noise at the family-wise level over the groups; a group
//    slow inside and out alike is its nodes' (no group term);
//  - the noise: the robust spread of the pairs between nodes at the reference level about their
//    class (conservative: it holds node-to-node variation too), pooled with a prior (noise_prior on
//    noise_prior_df degrees of freedom) so that 3 or 4 nodes cannot make it small by chance; each
//    node's standard error is 1.2533 x noise / sqrt(pairs it rests on) (a median's); each class also
//    gets its own noise (its pairs' spread, pooled with the same prior) for the test of class gaps.
// Decisions (stragglers, links, what is ambiguous) are the pair judge's (pair_judge.cpp); this is the
// fit. Floor: analysis/pairs; pure; throws nothing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace podperf {

// One pair at the judged size as the model sees it: its measurements are
// ModelInput::logs[first, first + count).
struct ModelPair {
  int a = 0;
  int b = 0;
  int cls = 0;               // index into ModelInput::class_names
  std::uint32_t first = 0;   // its measurements in ModelInput::logs
  std::uint32_t count = 0;
  double value = 0.0;        // what it says of its nodes (log GB/s): pair_value of its measurements
  double upper = 0.0;        // their upper median: a pair is slow when most of its measurements are
  std::size_t index = 0;     // the caller's (into run.pairs)
};

// Nodes in groups (a topology level, or the blocks found in the matrix), for the group terms.
struct ModelGrouping {
  std::string name;                      // "rack", "block"
  std::vector<int> group;                // per node: its group, -1 when not placed
  std::vector<std::string> group_names;  // per group
};

struct ModelParams {
  double threshold = 0.05;       // a difference smaller than this fraction is no finding
  double node_alpha = 0.001;     // family-wise level of the node decisions over the nodes
  double group_alpha = 0.001;    // ...of the group terms over the groups
  double noise_prior = 0.03;     // the pair noise (log) assumed before the run says otherwise...
  double noise_prior_df = 2.0;   // ...worth this many degrees of freedom
  double min_noise = 0.005;      // the noise is never taken below this
};

struct ModelInput {
  std::size_t nodes = 0;
  std::vector<bool> judged;  // per node: judged against the others (a comparability class of 2 or more)
  std::vector<ModelPair> pairs;
  std::vector<double> logs;  // every measurement, log GB/s
  std::vector<std::string> class_names;
  std::vector<ModelGrouping> groupings;  // outermost first; the last one's groups also get inside terms
  // Judged by another run (--baseline-from): its level per class (log; NaN: none, estimated here) and
  // each node's capacity there (log; NaN: not in it). The reference is then that run's population: no
  // re-centring, and a node none of whose pairs tells its own speed keeps the reference's. Its noise
  // and degrees of freedom replace the prior.
  bool referenced = false;
  std::vector<double> class_fixed;
  std::vector<double> node_prior;
  double reference_noise = 0.0;
  double reference_df = 0.0;
};

struct GroupTerm {
  std::size_t grouping = 0;
  int group = 0;
  bool inside = false;  // the pairs inside the group; false: the pairs leaving it
  double value = 0.0;   // log: the deviation its least affected member shares
  double se = 0.0;
  int pairs = 0;        // pairs of that member it rests on
  int members = 0;      // members with such pairs
  bool kept = false;
  bool nodes_explain = false;  // slow inside and out alike: its nodes, not the group (not kept)
};

struct NodeModel {
  std::vector<double> node;      // per node: log capacity against the reference (0: the median node)
  std::vector<double> se;        // its standard error (0 when not estimated)
  std::vector<int> support;      // pairs it rests on
  std::vector<bool> estimated;   // has a pair at all
  std::vector<double> class_level;  // per class: log busbw of a pair of two reference nodes
  std::vector<int> class_pairs;
  std::vector<GroupTerm> groups;    // every group tested (kept or not)
  std::vector<double> pair_term;    // per pair: the sum of its kept group terms (log)
  double sigma = 0.0;               // the pair noise (log) the decisions use
  double sigma_observed = 0.0;      // the run's own (before the prior; 0 when it has no degrees of freedom)
  double df = 0.0;                  // degrees of freedom of sigma (the prior's included)
  // Per class: the robust spread (log) of its pairs' values less their group terms about their median,
  // pooled with the prior, and its degrees of freedom (prior included). The class gap is tested with
  // these (Welch): a shaped or congested crossing jitters far more than the pairs inside a group, and one
  // pooled noise would lend the quiet class the noisy one's spread.
  std::vector<double> class_sigma;
  std::vector<double> class_df;
  double tolerance = 0.0;           // the partner tolerance (log)
  std::size_t judged_nodes = 0;     // judged and estimated
  double reference = 0.0;           // the shift applied (log); class levels include it
  // log busbw pair p is expected at without a link: its class, group terms and slower node.
  [[nodiscard]] double expected(const ModelInput& in, std::size_t p) const;
  // ...and between two nodes at the reference level (its class and group terms only).
  [[nodiscard]] double class_expected(const ModelInput& in, std::size_t p) const;
};

NodeModel fit_node_model(const ModelInput& input, const ModelParams& params);

// The upper median (the element at size/2 in ascending order; 0 when empty). Reorders `v`.
double upper_median_of(std::vector<double>& v);

}  // namespace podperf
