// The fastest consistent group of nodes as the judged size's baseline (see fastest_group.hpp). Floor:
// analysis; pure.
#include "analysis/pairs/fastest_group.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

bool group_pair_nodes_ok(const PairResult& p, double value) {
  return p.nodes[0] >= 0 && p.nodes[1] >= 0 && p.nodes[0] != p.nodes[1] && value > 0.0;
}

// A pair's retest as a second observation of the same pair: present, and not already standing in for
// the first measurement (check_anchor counts a lucky anchor at its retest).
bool group_retest_observed(const PairResult& p, double value) {
  return !p.retest_samples_s.empty() && p.retest_busbw_gbps > 0.0 && p.retest_busbw_gbps != value;
}

enum class GroupState {
  kNone,        // no fast group stands apart: the majority stands
  kSuggestive,  // a group stands apart by spread_factor noises, but not by the t quantile on so few
                // degrees of freedom: retests of its pairs would decide
  kAnchored,    // the group is the healthy level
};

struct GroupEvaluation {
  GroupState state = GroupState::kNone;
  Baseline baseline;                  // the group's when anchored, else the majority's
  std::vector<std::size_t> deciding;  // when suggestive: indices into pairs of the group's pairs and
                                      // the slower nodes' pairs with it
};

GroupEvaluation evaluate_group(const std::vector<PairResult>& pairs, const std::vector<std::size_t>& index,
                               const std::vector<double>& values, const Baseline& majority, const PairThresholds& t) {
  GroupEvaluation out;
  out.baseline = majority;
  if (majority.anchored || majority.value <= 0.0 || values.size() < 3 || index.size() != values.size()) return out;
  const double best = *std::max_element(values.begin(), values.end());
  if (best <= majority.value * (1.0 + t.threshold)) return out;
  // The nodes, as slots: their indices when those are dense (every real run), else (a few pairs of a
  // large cluster, or a damaged run.json naming node 2000000000) the sorted distinct indices.
  std::size_t n = 0;
  for (std::size_t i : index) {
    const PairResult& p = pairs[i];
    if (group_pair_nodes_ok(p, 1.0)) n = std::max(n, static_cast<std::size_t>(std::max(p.nodes[0], p.nodes[1])) + 1);
  }
  std::vector<int> sparse;
  if (n > 4 * values.size() + 1024) {
    for (std::size_t i : index) {
      const PairResult& p = pairs[i];
      if (group_pair_nodes_ok(p, 1.0)) sparse.push_back(p.nodes[0]), sparse.push_back(p.nodes[1]);
    }
    std::sort(sparse.begin(), sparse.end());
    sparse.erase(std::unique(sparse.begin(), sparse.end()), sparse.end());
    n = sparse.size();
  }
  const auto slot = [&](int node) {
    if (sparse.empty()) return static_cast<std::size_t>(node);
    return static_cast<std::size_t>(std::lower_bound(sparse.begin(), sparse.end(), node) - sparse.begin());
  };
  // Each node's ceiling: its best pair.
  std::vector<double> ceiling(n, -1.0);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const PairResult& p = pairs[index[k]];
    if (!group_pair_nodes_ok(p, values[k])) continue;
    for (int node : p.nodes) ceiling[slot(node)] = std::max(ceiling[slot(node)], values[k]);
  }
  // The fast group: ceilings within the threshold of the best pair; the highest ceiling below it.
  const double reach = best * (1.0 - t.threshold);
  double below = -1.0;
  for (double c : ceiling) {
    if (c >= 0.0 && c < reach) below = std::max(below, c);
  }
  if (below <= 0.0) return out;  // every node reaches the top: no slower node to stand apart from
  const auto in_group = [&](int node) { return ceiling[slot(node)] >= reach; };
  // The model's noise: a pair runs at its slower node's speed, so the pairs of each node with partners
  // at least as fast (each pair goes to its slower node) vary only by noise around that node's mean;
  // a pair's retest is one more observation. The pooled standard deviation of those groups
  // (within-group, as one-way ANOVA pools it), of the logarithms: noise scales with the level (a node
  // at 4% of the others has pairs that vary by MB/s, not by the healthy pairs' tens of MB/s).
  const auto slower_of = [&](const PairResult& p) {
    const std::size_t a = slot(p.nodes[0]), b = slot(p.nodes[1]);
    return ceiling[a] < ceiling[b] || (ceiling[a] == ceiling[b] && a < b) ? a : b;
  };
  std::vector<double> node_sum(n, 0.0);
  std::vector<int> node_count(n, 0);
  std::vector<double> group_values;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const PairResult& p = pairs[index[k]];
    if (!group_pair_nodes_ok(p, values[k])) continue;
    const std::size_t slower = slower_of(p);
    node_sum[slower] += std::log(values[k]);
    ++node_count[slower];
    if (group_retest_observed(p, values[k])) node_sum[slower] += std::log(p.retest_busbw_gbps), ++node_count[slower];
    if (in_group(p.nodes[0]) && in_group(p.nodes[1])) group_values.push_back(values[k]);
  }
  if (group_values.empty()) return out;  // the fast nodes were never measured with each other
  double squares = 0.0;
  const auto add_square = [&](std::size_t node, double v) {
    const double deviation = std::log(v) - node_sum[node] / node_count[node];
    squares += deviation * deviation;
  };
  for (std::size_t k = 0; k < values.size(); ++k) {
    const PairResult& p = pairs[index[k]];
    if (!group_pair_nodes_ok(p, values[k])) continue;
    const std::size_t slower = slower_of(p);
    add_square(slower, values[k]);
    if (group_retest_observed(p, values[k])) add_square(slower, p.retest_busbw_gbps);
  }
  long freedom = 0;
  for (int count : node_count) freedom += std::max(0, count - 1);
  if (freedom <= 0) return out;
  const double model_noise = std::sqrt(squares / static_cast<double>(freedom));  // relative
  const Baseline group =
      robust_baseline(group_values, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
  // Consistent: the group's pairs agree with each other, but for a few slow links among many pairs
  // (a group of three nodes with one pair of them slow is no group: that pair is a link, or the group
  // two nodes that ran fast).
  const auto may_drop = static_cast<std::size_t>(
      std::floor(t.fastest_group_max_link_fraction * static_cast<double>(group_values.size())));
  if (group_values.size() - group.kept > may_drop) return out;
  const double spread = std::max(model_noise, group.spread / group.value);  // relative
  // The slower ceilings beyond the threshold below the group, and the majority captured (the group's
  // level beyond the threshold above it; else the two agree and the majority, on more pairs, stands).
  if (below >= group.value * (1.0 - t.threshold) || group.value <= majority.value * (1.0 + t.threshold)) return out;
  // A clear gap: beyond what noise estimated on so few degrees of freedom allows (the t quantile;
  // spread_factor once there are many).
  const double gap = std::log(group.value / below);
  const double factor =
      std::max(t.spread_factor, student_t_quantile(t.fastest_group_confidence, static_cast<double>(freedom)));
  if (gap > factor * spread) {
    out.state = GroupState::kAnchored;
    out.baseline = group;
    out.baseline.spread = spread * group.value;
    out.baseline.total = values.size();
    out.baseline.passes = majority.passes;
    out.baseline.anchored = true;
    return out;
  }
  if (gap <= t.spread_factor * spread) return out;
  out.state = GroupState::kSuggestive;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const PairResult& p = pairs[index[k]];
    if (group_pair_nodes_ok(p, values[k]) && (in_group(p.nodes[0]) || in_group(p.nodes[1])))
      out.deciding.push_back(index[k]);
  }
  return out;
}

}  // namespace

void ok_pairs_at(const std::vector<PairResult>& pairs, const std::string& op, std::uint64_t size,
                 std::vector<std::size_t>& index, std::vector<double>& values) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const PairResult& p = pairs[i];
    if (p.size_bytes == size && p.op == op && status_ok(p.status)) index.push_back(i), values.push_back(p.busbw_gbps);
  }
}

Baseline fastest_group_baseline(const std::vector<PairResult>& pairs, const std::vector<std::size_t>& index,
                                const std::vector<double>& values, const Baseline& majority, const PairThresholds& t) {
  return evaluate_group(pairs, index, values, majority, t).baseline;
}

Baseline judged_size_baseline(const std::vector<PairResult>& pairs, const std::vector<std::size_t>& index,
                              const std::vector<double>& values, const PairThresholds& t) {
  const Baseline majority = robust_baseline(values, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
  const Baseline anchored = anchored_baseline(values, majority, t.threshold, t.anchor_gap_fraction, t.spread_factor);
  return fastest_group_baseline(pairs, index, values, anchored, t);
}

std::vector<std::array<int, 2>> fastest_group_pairs_to_retest(const Run& analyzed, const PairThresholds& t) {
  std::vector<std::array<int, 2>> out;
  std::set<std::string> ops;
  for (const PairResult& p : analyzed.pairs) {
    if (judged_ok(analyzed, p)) ops.insert(p.op);
  }
  for (const std::string& op : ops) {
    std::vector<std::size_t> index;
    std::vector<double> values;
    ok_pairs_at(analyzed.pairs, op, analyzed.judged_size_bytes, index, values);
    const Baseline majority = robust_baseline(values, t.threshold, t.baseline_max_passes, t.baseline_min_kept_fraction);
    const Baseline anchored = anchored_baseline(values, majority, t.threshold, t.anchor_gap_fraction, t.spread_factor);
    const GroupEvaluation e = evaluate_group(analyzed.pairs, index, values, anchored, t);
    if (e.state != GroupState::kSuggestive) continue;
    for (std::size_t i : e.deciding) {
      if (analyzed.pairs[i].retest_samples_s.empty()) out.push_back(analyzed.pairs[i].nodes);
    }
  }
  return out;
}

}  // namespace podperf
