// What the node model reads from a Run (see pair_input.hpp). Floor: analysis/pairs; pure.
#include "analysis/pairs/pair_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/topology/topology_analysis.hpp"

namespace podperf {
namespace {

std::string kind_of(const NodeInfo& node) {
  std::string kind = fmt::format("{} rank{}", node.ranks.size(), node.ranks.size() == 1 ? "" : "s");
  if (!node.instance_type.empty() && node.instance_type != "simulated") kind += ", " + node.instance_type;
  return kind;
}

// The most common op among the measured pairs at `size` (the run's one op in practice).
std::string judged_op(const Run& run, std::uint64_t size) {
  std::map<std::string, std::size_t> count;
  for (const PairResult& p : run.pairs) {
    if (p.size_bytes == size && pair_measured(p)) ++count[p.op];
  }
  std::string best;
  std::size_t most = 0;
  for (const auto& [op, n] : count) {
    if (n > most) best = op, most = n;
  }
  return best;
}

bool placed(const Run& run) {
  return !run.topology_levels.empty() &&
         std::any_of(run.nodes.begin(), run.nodes.end(), [](const NodeInfo& n) { return !n.topology.empty(); });
}

// One grouping per topology level: a node's group is its path down to that level.
std::vector<ModelGrouping> topology_groupings(const Run& run) {
  std::vector<ModelGrouping> out;
  for (std::size_t level = 0; level < run.topology_levels.size(); ++level) {
    ModelGrouping g;
    g.name = topology_level_label(run, level);
    g.group.assign(run.nodes.size(), -1);
    std::unordered_map<std::string, int> ids;
    for (std::size_t i = 0; i < run.nodes.size(); ++i) {
      const std::vector<std::string>& path = run.nodes[i].topology;
      if (path.size() != run.topology_levels.size()) continue;
      std::string key;
      for (std::size_t l = 0; l <= level; ++l) key += path[l] + '\x1f';
      const auto [it, added] = ids.emplace(key, static_cast<int>(g.group_names.size()));
      if (added) g.group_names.push_back(path[level]);
      g.group[i] = it->second;
    }
    out.push_back(std::move(g));
  }
  return out;
}

// --baseline-from: the reference run's levels (by class name; a class it did not have, its largest
// class's) and node capacities (by label), when it was judged at this size and op.
void apply_reference(const Run& run, PairInput& in) {
  const PairReference& r = run.pair_reference;
  if (r.source.empty() || r.size_bytes != in.size_bytes || r.op != in.op || r.classes.empty()) return;
  const PairClassLevel* main = &r.classes.front();
  for (const PairClassLevel& c : r.classes) {
    if (c.pairs > main->pairs) main = &c;
  }
  in.model.referenced = true;
  in.model.class_fixed.assign(in.model.class_names.size(), std::nan(""));
  for (std::size_t c = 0; c < in.model.class_names.size(); ++c) {
    double level = main->level_gbps;
    for (const PairClassLevel& rc : r.classes) {
      if (rc.name == in.model.class_names[c]) level = rc.level_gbps;
    }
    if (level > 0.0) in.model.class_fixed[c] = std::log(level);
  }
  in.model.node_prior.assign(run.nodes.size(), std::nan(""));
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    for (const NodeEstimate& e : r.nodes) {
      if (e.label == run.nodes[i].label && e.ratio > 0.0) in.model.node_prior[i] = std::log(e.ratio);
    }
  }
  in.model.reference_noise = std::log1p(std::max(0.0, r.pair_noise));
  in.model.reference_df = r.noise_df;
  // Judged against the reference, every node with pairs is judged (its kind's peers are the reference's).
  for (std::size_t i = 0; i < run.nodes.size(); ++i) in.model.judged[i] = true;
}

}  // namespace

double pair_value(std::vector<double> logs, double threshold) {
  if (logs.empty()) return 0.0;
  std::sort(logs.begin(), logs.end());
  const std::size_t mid = logs.size() / 2;
  if (logs.size() % 2 == 1) return logs[mid];
  // Two middle measurements far apart (more than twice the threshold): one of them a dip (an outlier, a
  // flap), and the pair's capacity the higher; near each other, their mean.
  if (logs[mid] - logs[mid - 1] > -2.0 * std::log(1.0 - threshold)) return logs[mid];
  return (logs[mid - 1] + logs[mid]) / 2.0;
}

bool pair_measured(const PairResult& p) {
  return p.status.size() != 7 || (p.status != "timeout" && p.status != "aborted");
}

std::vector<double> pair_measurements_gbps(const PairResult& p) {
  std::vector<double> out;
  if (p.busbw_gbps > 0.0) out.push_back(p.busbw_gbps);
  if (!p.retest_samples_s.empty() && p.retest_busbw_gbps > 0.0) out.push_back(p.retest_busbw_gbps);
  for (double r : p.later_retest_busbw_gbps) {
    if (r > 0.0) out.push_back(r);
  }
  return out;
}

PairInput collect_pair_input(const Run& run, std::uint64_t size, double threshold, const ModelGrouping* blocks) {
  PairInput in;
  const std::size_t n = run.nodes.size();
  in.size_bytes = size;
  in.op = judged_op(run, in.size_bytes);
  // Comparability: the nodes' kinds.
  std::map<std::string, int> kinds;
  in.node_kind.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto [it, added] = kinds.emplace(kind_of(run.nodes[i]), static_cast<int>(kinds.size()));
    if (added) in.kind_names.push_back(it->first), in.kind_nodes.push_back(0);
    in.node_kind[i] = it->second;
    ++in.kind_nodes[static_cast<std::size_t>(it->second)];
  }
  in.model.nodes = n;
  in.model.judged.assign(n, false);
  for (std::size_t i = 0; i < n; ++i)
    in.model.judged[i] = in.kind_nodes[static_cast<std::size_t>(in.node_kind[i])] >= 2;
  // Structure: the run's topology, else the blocks given.
  const bool topology = placed(run);
  if (topology) {
    in.structure = "topology";
    in.model.groupings = topology_groupings(run);
  } else if (blocks != nullptr) {
    in.structure = "blocks";
    in.model.groupings = {*blocks};
  }
  const bool several_kinds = in.kind_names.size() > 1;
  std::map<std::tuple<int, int, int>, int> class_index;
  const auto class_of = [&](int a, int b) {
    int ka = in.node_kind[static_cast<std::size_t>(a)], kb = in.node_kind[static_cast<std::size_t>(b)];
    if (ka > kb) std::swap(ka, kb);
    int split = -1;
    std::string relation = "all pairs";
    if (topology) {
      split = topology_split_level(run, a, b);
      relation = topology_class_name(run, split);
    } else if (blocks != nullptr) {
      const int ga = blocks->group[static_cast<std::size_t>(a)], gb = blocks->group[static_cast<std::size_t>(b)];
      split = ga < 0 || gb < 0 ? -1 : (ga == gb ? 1 : 0);
      relation = split < 0 ? "outside the blocks" : (split == 1 ? "inside a block" : "between blocks");
    }
    const auto [it, added] = class_index.emplace(std::tuple{ka, kb, split}, static_cast<int>(class_index.size()));
    if (added) {
      in.model.class_names.push_back(several_kinds
                                         ? fmt::format("{} with {}: {}", in.kind_names[static_cast<std::size_t>(ka)],
                                                       in.kind_names[static_cast<std::size_t>(kb)], relation)
                                         : relation);
      in.class_split.push_back(split);
      in.class_kinds.emplace_back(ka, kb);
      in.class_inside.push_back(topology ? split == static_cast<int>(run.topology_levels.size()) : split == 1);
    }
    return it->second;
  };
  std::vector<double> logs;
  for (std::size_t k = 0; k < run.pairs.size(); ++k) {
    const PairResult& p = run.pairs[k];
    if (p.size_bytes != in.size_bytes || p.op != in.op || !pair_measured(p)) continue;
    const int a = p.nodes[0], b = p.nodes[1];
    if (a < 0 || b < 0 || a == b || static_cast<std::size_t>(a) >= n || static_cast<std::size_t>(b) >= n) continue;
    if (!status_ok(p.status)) {
      in.failed.push_back(k);
      continue;
    }
    const std::vector<double> gbps = pair_measurements_gbps(p);
    if (gbps.empty()) continue;
    ModelPair q;
    q.a = a;
    q.b = b;
    q.cls = class_of(a, b);
    q.first = static_cast<std::uint32_t>(in.model.logs.size());
    q.count = static_cast<std::uint32_t>(gbps.size());
    logs.clear();
    for (double v : gbps) logs.push_back(std::log(v)), in.model.logs.push_back(std::log(v));
    q.upper = upper_median_of(logs);
    q.value = pair_value(logs, threshold);
    q.index = k;
    in.model.pairs.push_back(q);
  }
  apply_reference(run, in);
  return in;
}

}  // namespace podperf
