#include "sim/sim_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

void check_node(int node, int nodes, const std::string& where, std::string_view key) {
  if (node >= nodes) {
    throw ConfigError(fmt::format("{}: '{}' = {} but the modelled fabric has {} nodes (0 to {}; --sim-nodes)", where,
                                  key, node, nodes, nodes - 1));
  }
}

}  // namespace

std::string sim_node_label(int node) { return fmt::format("sim{:04d}", node); }

SimFabric::SimFabric(SimModel model, int nodes, std::uint64_t seed)
    : model_(std::move(model)), nodes_(nodes), rng_{seed} {
  const auto n = static_cast<std::size_t>(nodes);
  nic_.assign(n, model_.nic_factor);
  ranks_.assign(n, model_.ranks_per_node);
  for (const SimNodeKind& k : model_.node_kinds) {
    check_node(k.first + k.count - 1, nodes, k.where, "node_kind.first + count - 1");
    for (int i = k.first; i < k.first + k.count; ++i) {
      nic_[static_cast<std::size_t>(i)] *= k.factor;
      ranks_[static_cast<std::size_t>(i)] = k.ranks_per_node;
    }
  }
  flap_factor_.assign(n, 1.0);
  flap_prob_.assign(n, 0.0);
  std::set<int> faulty;
  for (const SimNodeFault& f : model_.slow_nodes) {
    check_node(f.node, nodes, f.where, "slow_node.node");
    nic_[static_cast<std::size_t>(f.node)] *= f.factor;
    faulty.insert(f.node);
  }
  for (const SimNodeFault& f : model_.flapping_nodes) {
    check_node(f.node, nodes, f.where, "flapping_node.node");
    flap_factor_[static_cast<std::size_t>(f.node)] = f.factor;
    flap_prob_[static_cast<std::size_t>(f.node)] = f.probability;
    faulty.insert(f.node);
  }
  for (const SimLinkFault& f : model_.slow_links) {
    check_node(f.nodes[1], nodes, f.where, "slow_link.nodes");
  }
  if (!model_.levels.empty()) {
    const int rack = model_.group_sizes.back();
    const int racks = (nodes + rack - 1) / rack;
    for (const SimRackFault& f : model_.slow_racks) {
      if (f.rack >= racks) {
        throw ConfigError(fmt::format("{}: 'slow_rack.rack' = {} but {} nodes in racks of {} make {} racks (0 to {})",
                                      f.where, f.rack, nodes, rack, racks, racks - 1));
      }
      for (int i = f.rack * rack; i < std::min(nodes, (f.rack + 1) * rack); ++i) {
        nic_[static_cast<std::size_t>(i)] *= f.factor;
        faulty.insert(i);
      }
    }
    for (const SimUplinkFault& f : model_.slow_uplinks) {
      const int size = model_.group_sizes[static_cast<std::size_t>(f.level)];
      const int groups = (nodes + size - 1) / size;
      if (f.group >= groups) {
        throw ConfigError(fmt::format(
            "{}: 'slow_uplink.group' = {} but {} nodes in {} groups of {} make {} groups (0 to {})", f.where, f.group,
            nodes, model_.levels[static_cast<std::size_t>(f.level)], size, groups, groups - 1));
      }
    }
  }
  // Random slow nodes: drawn from their own stream (the seed), among nodes without another fault.
  if (model_.random_slow_nodes > 0) {
    SplitMix pick{seed ^ 0x51f0f00dULL};
    std::vector<int> free;
    for (int i = 0; i < nodes; ++i) {
      if (faulty.count(i) == 0) free.push_back(i);
    }
    const int count = std::min<int>(model_.random_slow_nodes, static_cast<int>(free.size()));
    for (int k = 0; k < count; ++k) {
      const std::size_t at = pick.below(free.size() - static_cast<std::size_t>(k)) + static_cast<std::size_t>(k);
      std::swap(free[static_cast<std::size_t>(k)], free[at]);
      const int node = free[static_cast<std::size_t>(k)];
      const double factor =
          model_.random_min_factor + (model_.random_max_factor - model_.random_min_factor) * pick.uniform();
      nic_[static_cast<std::size_t>(node)] *= factor;
      faulty.insert(node);
      random_faults_.push_back(fmt::format("random slow node {} ({}): factor {:.3f}", node, sim_node_label(node), factor));
    }
  }
  faulty_nodes_.assign(faulty.begin(), faulty.end());
}

double SimFabric::node_factor(int node) const { return nic_[static_cast<std::size_t>(node)]; }

int SimFabric::ranks_per_node(int node) const {
  return ranks_[static_cast<std::size_t>(node)];
}

double SimFabric::pair_noise() {
  double z = rng_.normal();
  if (model_.pair_tail_df > 0.0) {
    // Student t: normal over the root of a chi-square / df (the sum of df squared normals, df rounded),
    // scaled to unit variance where it has one.
    const int df = std::max(1, static_cast<int>(std::lround(model_.pair_tail_df)));
    double chi2 = 0.0;
    for (int k = 0; k < df; ++k) {
      const double x = rng_.normal();
      chi2 += x * x;
    }
    z /= std::sqrt(chi2 / df);
    if (df > 2) z *= std::sqrt((df - 2.0) / df);
  }
  double f = std::max(0.05, 1.0 + model_.pair_cv * z);
  if (model_.outlier_probability > 0.0 && rng_.uniform() < model_.outlier_probability) f *= model_.outlier_factor;
  return f;
}

double SimFabric::pair_factor(int a, int b) const { return std::min(node_factor(a), node_factor(b)) * path_factor(a, b); }

double SimFabric::path_factor(int a, int b) const {
  double f = 1.0;
  const std::array<int, 2> key{std::min(a, b), std::max(a, b)};
  for (const SimLinkFault& l : model_.slow_links) {
    if (l.nodes == key) f *= l.factor;
  }
  for (std::size_t level = 0; level < model_.levels.size(); ++level) {
    const int size = model_.group_sizes[level];
    if (a / size != b / size) {
      f *= model_.crossing_factors[level];
      break;
    }
  }
  for (const SimUplinkFault& u : model_.slow_uplinks) {
    const int size = model_.group_sizes[static_cast<std::size_t>(u.level)];
    if ((a / size == u.group) != (b / size == u.group)) f *= u.factor;
  }
  for (const SimGroupFactor& g : model_.group_factors) {
    const int size = model_.group_sizes[static_cast<std::size_t>(g.level)];
    if (a / size == g.group && b / size == g.group) f *= g.factor;
  }
  return f;
}

std::vector<double> SimFabric::measure(int a, int b, double bus_bytes, int iters) {
  // A flapping node is slow in this measurement with its probability (a draw for each node, always,
  // so the stream does not depend on which nodes flap).
  double nic_a = node_factor(a), nic_b = node_factor(b);
  if (rng_.uniform() < flap_prob_[static_cast<std::size_t>(a)]) nic_a *= flap_factor_[static_cast<std::size_t>(a)];
  if (rng_.uniform() < flap_prob_[static_cast<std::size_t>(b)]) nic_b *= flap_factor_[static_cast<std::size_t>(b)];
  double f = std::min(nic_a, nic_b) * path_factor(a, b);
  f *= pair_noise();
  const double t = model_.latency_us * 1e-6 + bus_bytes / (model_.busbw_gbps * 1e9 * f);
  std::vector<double> samples(static_cast<std::size_t>(iters));
  for (double& s : samples) s = t * std::exp(model_.iteration_cv * rng_.normal());
  return samples;
}

std::vector<std::string> SimFabric::topology(int node) const {
  std::vector<std::string> out;
  for (std::size_t level = 0; level < model_.levels.size(); ++level) {
    out.push_back(fmt::format("{}-{:04d}", model_.levels[level], node / model_.group_sizes[level]));
  }
  return out;
}

std::vector<std::array<int, 2>> SimFabric::slow_links() const {
  std::vector<std::array<int, 2>> out;
  for (const SimLinkFault& l : model_.slow_links) out.push_back(l.nodes);
  return out;
}

std::vector<std::array<int, 2>> SimFabric::slow_uplinks() const {
  std::vector<std::array<int, 2>> out;
  for (const SimUplinkFault& u : model_.slow_uplinks) out.push_back({u.level, u.group});
  return out;
}

std::vector<std::string> SimFabric::describe_faults() const {
  std::vector<std::string> out;
  for (const SimNodeFault& f : model_.slow_nodes) {
    out.push_back(fmt::format("slow node {} ({}): factor {}", f.node, sim_node_label(f.node), f.factor));
  }
  for (const SimNodeFault& f : model_.flapping_nodes) {
    out.push_back(fmt::format("flapping node {} ({}): factor {} with probability {}", f.node, sim_node_label(f.node),
                              f.factor, f.probability));
  }
  for (const SimLinkFault& l : model_.slow_links) {
    out.push_back(fmt::format("slow link {} <-> {}: factor {}", sim_node_label(l.nodes[0]), sim_node_label(l.nodes[1]),
                              l.factor));
  }
  for (const SimRackFault& r : model_.slow_racks) {
    const int size = model_.group_sizes.back();
    out.push_back(fmt::format("slow rack {} (nodes {} to {}): factor {}", r.rack, r.rack * size,
                              std::min(nodes_, (r.rack + 1) * size) - 1, r.factor));
  }
  for (const SimUplinkFault& u : model_.slow_uplinks) {
    const int size = model_.group_sizes[static_cast<std::size_t>(u.level)];
    out.push_back(fmt::format("slow uplink of {} {} (nodes {} to {}): pairs leaving it get factor {}",
                              model_.levels[static_cast<std::size_t>(u.level)], u.group, u.group * size,
                              std::min(nodes_, (u.group + 1) * size) - 1, u.factor));
  }
  for (const SimGroupFactor& g : model_.group_factors) {
    const int size = model_.group_sizes[static_cast<std::size_t>(g.level)];
    out.push_back(fmt::format("{} {} (nodes {} to {}): pairs inside it get factor {}",
                              model_.levels[static_cast<std::size_t>(g.level)], g.group, g.group * size,
                              std::min(nodes_, (g.group + 1) * size) - 1, g.factor));
  }
  for (const SimNodeKind& k : model_.node_kinds) {
    out.push_back(fmt::format("nodes {} to {}: {} ranks each, capacity factor {}", k.first, k.first + k.count - 1,
                              k.ranks_per_node, k.factor));
  }
  for (const std::string& s : random_faults_) out.push_back(s);
  return out;
}

}  // namespace podperf
