#pragma once
// A modelled fabric of N nodes (see sim/sim_model.hpp for the model): per-iteration times of a pair,
// drawn from one seeded stream in call order, so the same plan and seed give the same numbers.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/sim_model.hpp"
#include "sweep/splitmix.hpp"

namespace podperf {

class SimFabric {
 public:
  // ConfigError (file:line) when a fault names a node or rack the N-node fabric does not have.
  SimFabric(SimModel model, int nodes, std::uint64_t seed);

  int nodes() const { return nodes_; }
  const SimModel& model() const { return model_; }

  // One measurement of pair (a, b) at one size: `iters` per-iteration times in seconds for moving
  // `bus_bytes` (the message size times the op's bus factor).
  std::vector<double> measure(int a, int b, double bus_bytes, int iters);

  // Ranks on a node (the model's ranks_per_node, or its [[node_kind]]'s).
  int ranks_per_node(int node) const;

  // Without noise or flapping: a node's NIC factor (slow node, slow rack, its kind) and a pair's factor.
  double node_factor(int node) const;
  double pair_factor(int a, int b) const;
  // The node's group name at each topology level ("layer-1-0003"); empty without a topology.
  std::vector<std::string> topology(int node) const;

  // What was injected (the truth a detector should find): nodes with a node-level fault (slow, in a
  // slow rack, flapping, random), ascending; slow links.
  const std::vector<int>& faulty_nodes() const { return faulty_nodes_; }
  std::vector<std::array<int, 2>> slow_links() const;
  // Slow uplinks: {level index, group index} each, as injected.
  std::vector<std::array<int, 2>> slow_uplinks() const;
  // One line per injected fault, for the run's log.
  std::vector<std::string> describe_faults() const;

 private:
  double path_factor(int a, int b) const;  // slow link x topology crossing x group factors
  double pair_noise();                     // 1 + the pair noise (normal or Student t) x outliers

  SimModel model_;
  int nodes_ = 0;
  SplitMix rng_;
  std::vector<double> nic_;          // static NIC factor per node
  std::vector<double> flap_factor_;  // 1: not flapping
  std::vector<double> flap_prob_;
  std::vector<int> ranks_;
  std::vector<int> faulty_nodes_;
  std::vector<std::string> random_faults_;
};

// "sim0042": the label of simulated node 42.
std::string sim_node_label(int node);

}  // namespace podperf
