// Blocks in the pair matrix (see pair_blocks.hpp). Floor: analysis/pairs; pure.
#include "analysis/pairs/pair_blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "analysis/stats/change_stats.hpp"

namespace podperf {
namespace {

// Per pair of nodes: -1 not measured, 0 slow, 1 fast.
class EdgeMatrix {
 public:
  explicit EdgeMatrix(std::size_t n) : n_(n), cells_(n * n, -1) {}
  void set(int a, int b, signed char v) {
    cells_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)] = v;
    cells_[static_cast<std::size_t>(b) * n_ + static_cast<std::size_t>(a)] = v;
  }
  [[nodiscard]] signed char at(std::size_t a, std::size_t b) const { return cells_[a * n_ + b]; }

 private:
  std::size_t n_;
  std::vector<signed char> cells_;
};

// The two levels of `values` (Lloyd's iterations from the quartiles): the boundary between them and
// whether the gap clears `min_gap` and 3 spreads within the levels.
struct TwoLevels {
  double boundary = 0.0;
  double gap = 0.0;  // between the two levels' medians
  bool separated = false;
};
// `start`: the quantile the low level starts from (the high one from 1 - start): 0.25 finds two levels
// of similar weight; a smaller start finds a level of a few percent of the pairs (the pairs inside 8
// groups are 1/8 of all pairs, which a start at the quartiles splits the large level instead).
TwoLevels two_levels(std::vector<double> values, double min_gap, double start) {
  TwoLevels out;
  if (values.size() < 6) return out;
  std::sort(values.begin(), values.end());
  const auto at = [&](double q) {
    return values[std::min(values.size() - 1, static_cast<std::size_t>(q * static_cast<double>(values.size())))];
  };
  double lo = at(start), hi = at(1.0 - start);
  for (int it = 0; it < 30 && hi > lo; ++it) {
    const double cut = (lo + hi) / 2.0;
    const auto split = std::upper_bound(values.begin(), values.end(), cut);
    if (split == values.begin() || split == values.end()) return out;
    std::vector<double> low(values.begin(), split), high(split, values.end());
    const double new_lo = low[low.size() / 2], new_hi = high[high.size() / 2];
    if (new_lo == lo && new_hi == hi) break;
    lo = new_lo, hi = new_hi;
  }
  out.boundary = (lo + hi) / 2.0;
  std::vector<double> dev;
  for (double v : values) dev.push_back(std::abs(v - (v < out.boundary ? lo : hi)));
  std::nth_element(dev.begin(), dev.begin() + static_cast<std::ptrdiff_t>(dev.size() / 2), dev.end());
  const double spread = 1.4826 * dev[dev.size() / 2];
  out.gap = hi - lo;
  out.separated = hi - lo > std::max(min_gap, 3.0 * spread);
  return out;
}

// Share of `node`'s measured pairs into `block` (itself left out) that are fast; -1 when none measured.
double fast_share(const EdgeMatrix& m, std::size_t node, const std::vector<int>& block) {
  int measured = 0, fast = 0;
  for (int other : block) {
    if (static_cast<std::size_t>(other) == node) continue;
    const signed char e = m.at(node, static_cast<std::size_t>(other));
    if (e < 0) continue;
    ++measured;
    fast += e;
  }
  return measured == 0 ? -1.0 : static_cast<double>(fast) / measured;
}

double middle(std::vector<double>& v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Groups of 2 nodes: the fast pairs (`edge_values` above `boundary`) taken fastest first, each node in
// one at most, when at least 3 of them cover three quarters of the nodes or more and at most one fast
// pair in four joins nodes already taken (a pair fast by chance, a noise tail); else none. A few pairs
// fast by chance, or one faster pair, cover too few nodes; nodes fast with several others form blocks
// of 3 or more instead.
std::optional<std::vector<std::vector<int>>> groups_of_two(const ModelInput& input,
                                                           const std::vector<double>& edge_values, double boundary) {
  const std::size_t n = input.nodes;
  std::vector<std::pair<double, std::size_t>> fast;
  for (std::size_t k = 0; k < input.pairs.size(); ++k) {
    if (edge_values[k] > boundary) fast.emplace_back(edge_values[k], k);
  }
  std::sort(fast.begin(), fast.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<bool> taken(n, false);
  std::set<std::pair<int, int>> joined;  // a pair measured twice (a retest) counts once
  std::vector<std::vector<int>> out;
  std::size_t conflicts = 0;
  for (const auto& [value, k] : fast) {
    const ModelPair& q = input.pairs[k];
    const auto a = static_cast<std::size_t>(q.a), b = static_cast<std::size_t>(q.b);
    if (joined.contains(std::minmax(q.a, q.b))) continue;
    if (taken[a] || taken[b]) {
      ++conflicts;
      continue;
    }
    taken[a] = taken[b] = true;
    joined.insert(std::minmax(q.a, q.b));
    out.push_back({q.a, q.b});
  }
  if (out.size() < 3 || 2 * out.size() * 4 < 3 * n || 4 * conflicts > out.size()) return std::nullopt;
  return out;
}

// Among a few nodes, a few pairs fast by chance can form a matching too (in healthy runs of 8 nodes at
// 3-5% pair noise, 2-3 in 1,000 did): every pair of the matching must clear, above the median of the
// other pairs, the level one chance pair among all of them reaches (t quantile at 1 - 0.05 / pairs, on
// the model's noise and its degrees of freedom). Each pair beyond its slower node's term: a slow node's
// pair inside its group runs at its speed.
bool clears_chance(const ModelInput& input, const NodeModel& first, const std::vector<double>& values,
                   const std::vector<std::vector<int>>& two) {
  std::set<std::pair<int, int>> matched;
  for (const std::vector<int>& g : two) matched.insert(std::minmax(g[0], g[1]));
  std::vector<double> others, inside;
  for (std::size_t k = 0; k < input.pairs.size(); ++k) {
    const ModelPair& q = input.pairs[k];
    const double excess =
        values[k] - std::min(first.node[static_cast<std::size_t>(q.a)], first.node[static_cast<std::size_t>(q.b)]);
    (matched.contains(std::minmax(q.a, q.b)) ? inside : others).push_back(excess);
  }
  if (inside.empty() || others.empty()) return false;
  const double base = middle(others);
  const double z = student_t_quantile(1.0 - 0.05 / static_cast<double>(input.pairs.size()), std::max(1.0, first.df));
  return *std::min_element(inside.begin(), inside.end()) - base > z * first.sigma;
}

// The grouping of `block_of`'s `blocks` blocks with the nodes in none placed. They join the block
// they are fastest with (the highest median pair into it) when they are faster with it than with the
// other blocks by half the `gap`: a slow node is slow with everyone, but slower still across. A node as
// fast with every block (its pairs all cross: a group of its own, too small for a block) is not put in
// one, where its pairs would look like slow links: such nodes form groups of their own, joined by their
// fast pairs with each other. Without `keep_apart` every node joins the block it is fastest with.
ModelGrouping with_leftovers(const ModelInput& input, const EdgeMatrix& m, const std::vector<double>& values,
                             const std::vector<int>& block_of, std::size_t blocks, double gap, bool keep_apart) {
  const std::size_t n = input.nodes;
  std::vector<int> final_block = block_of;
  std::vector<std::vector<std::vector<double>>> into_of(n);  // [leftover node][block]: its pairs' values
  for (std::size_t k = 0; k < input.pairs.size(); ++k) {
    const ModelPair& q = input.pairs[k];
    for (int side = 0; side < 2; ++side) {
      const auto i = static_cast<std::size_t>(side == 0 ? q.a : q.b);
      const auto other = static_cast<std::size_t>(side == 0 ? q.b : q.a);
      if (block_of[i] >= 0 || block_of[other] < 0) continue;
      if (into_of[i].empty()) into_of[i].resize(blocks);
      into_of[i][static_cast<std::size_t>(block_of[other])].push_back(values[k]);
    }
  }
  std::vector<std::size_t> apart;  // leftover nodes as fast with every block
  for (std::size_t i = 0; i < n; ++i) {
    if (block_of[i] >= 0) continue;
    std::vector<std::vector<double>>& into = into_of[i];
    double best_median = -1e300;
    int best = -1;
    std::vector<double> elsewhere;
    for (std::size_t b = 0; b < into.size(); ++b) {
      if (into[b].empty()) continue;
      const double med = middle(into[b]);
      if (med > best_median) best_median = med, best = static_cast<int>(b);
    }
    for (std::size_t b = 0; b < into.size(); ++b) {
      if (static_cast<int>(b) != best) elsewhere.insert(elsewhere.end(), into[b].begin(), into[b].end());
    }
    if (!keep_apart) {
      final_block[i] = best;  // -1 (no group) for a node with no measured pair into a block
    } else if (best >= 0 && (elsewhere.empty() || best_median - middle(elsewhere) > 0.5 * gap)) {
      final_block[i] = best;
    } else {
      apart.push_back(i);
    }
  }
  ModelGrouping g;
  g.name = "block";
  for (std::size_t b = 0; b < blocks; ++b) g.group_names.push_back(fmt::format("block {}", b + 1));
  // The nodes apart: groups joined by their fast pairs (each node joins the first group it is fast with).
  std::vector<std::vector<std::size_t>> groups_apart;
  for (std::size_t i : apart) {
    std::vector<std::size_t>* joined = nullptr;
    for (std::vector<std::size_t>& group : groups_apart) {
      for (std::size_t j : group) joined = m.at(i, j) == 1 ? &group : joined;
      if (joined != nullptr) break;
    }
    if (joined != nullptr) {
      joined->push_back(i);
    } else {
      groups_apart.push_back({i});
    }
  }
  for (const std::vector<std::size_t>& group : groups_apart) {
    for (std::size_t i : group) final_block[i] = static_cast<int>(g.group_names.size());
    g.group_names.push_back(fmt::format("block {}", g.group_names.size() + 1));
  }
  g.group = std::move(final_block);
  return g;
}

// The blocks the split `levels` of the pairs' `edge_values` makes (a pair is fast above its boundary),
// or none (see find_pair_blocks); `values`: the pairs about their class, which the checks read;
// `keep_apart`: whether a leftover node as fast with every block stays apart (only where most pairs
// were measured: with a few pairs per node, as the adaptive schedule measures, the comparison is noise).
std::optional<ModelGrouping> blocks_at(const ModelInput& input, const NodeModel& first,
                                       const std::vector<double>& values, const std::vector<double>& edge_values,
                                       const TwoLevels& levels, bool keep_apart) {
  const std::size_t n = input.nodes;
  EdgeMatrix m(n);
  std::vector<int> degree(n, 0);
  for (std::size_t k = 0; k < input.pairs.size(); ++k) {
    const ModelPair& q = input.pairs[k];
    const bool fast = edge_values[k] > levels.boundary;
    m.set(q.a, q.b, fast ? 1 : 0);
  }
  std::vector<int> block_of(n, -1);
  std::vector<std::vector<int>> blocks;
  std::vector<bool> tried(n, false);
  for (int seeds = 0; seeds < 64; ++seeds) {
    // The untried node with the most fast pairs among the nodes in no block.
    int seed = -1, best = 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (block_of[i] >= 0 || tried[i]) continue;
      int d = 0;
      for (std::size_t j = 0; j < n; ++j) d += block_of[j] < 0 && j != i && m.at(i, j) == 1 ? 1 : 0;
      degree[i] = d;
      if (d > best) best = d, seed = static_cast<int>(i);
    }
    if (seed < 0) break;
    tried[static_cast<std::size_t>(seed)] = true;
    std::vector<int> block{seed};
    for (std::size_t j = 0; j < n; ++j) {
      if (block_of[j] < 0 && j != static_cast<std::size_t>(seed) && m.at(static_cast<std::size_t>(seed), j) == 1) {
        block.push_back(static_cast<int>(j));
      }
    }
    for (int it = 0; it < 8; ++it) {
      std::vector<int> next;
      for (std::size_t j = 0; j < n; ++j) {
        if (block_of[j] >= 0) continue;
        if (fast_share(m, j, block) >= 0.5) next.push_back(static_cast<int>(j));
      }
      if (next == block) break;
      block = std::move(next);
    }
    if (block.size() < 3) continue;
    for (int node : block) block_of[static_cast<std::size_t>(node)] = static_cast<int>(blocks.size());
    blocks.push_back(std::move(block));
  }
  // A block is one when its own pairs inside are faster than its pairs across, by the gap: slow nodes
  // are slow with each other too (a pair runs at its slower node), so they make no block.
  std::vector<std::vector<double>> inside_of(blocks.size()), across_of(blocks.size());
  for (std::size_t k = 0; k < input.pairs.size(); ++k) {
    const ModelPair& q = input.pairs[k];
    const int ba = block_of[static_cast<std::size_t>(q.a)], bb = block_of[static_cast<std::size_t>(q.b)];
    if (ba < 0 || bb < 0) continue;
    if (ba == bb) {
      inside_of[static_cast<std::size_t>(ba)].push_back(values[k]);
    } else {
      across_of[static_cast<std::size_t>(ba)].push_back(values[k]);
      across_of[static_cast<std::size_t>(bb)].push_back(values[k]);
    }
  }
  std::vector<std::vector<int>> kept;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (inside_of[b].empty() || across_of[b].empty()) continue;
    // Dense: 80% of its measured pairs inside fast (all 3 of a block of 3): a few pairs fast by chance
    // among slow nodes make no block.
    int measured = 0, fast = 0;
    for (std::size_t x = 0; x < blocks[b].size(); ++x) {
      for (std::size_t y = x + 1; y < blocks[b].size(); ++y) {
        const signed char e = m.at(static_cast<std::size_t>(blocks[b][x]), static_cast<std::size_t>(blocks[b][y]));
        if (e >= 0) ++measured, fast += e;
      }
    }
    if (measured == 0 || fast < 0.8 * measured) continue;
    if (middle(inside_of[b]) - middle(across_of[b]) > 0.5 * levels.gap) kept.push_back(blocks[b]);
  }
  if (kept.size() < 2 && keep_apart) {
    // No two blocks of 3: groups of 2 (a node and one partner on a faster path: two nodes under one
    // switch, an NVLink pair) show as fast pairs that form a matching, no node fast with two others.
    std::optional<std::vector<std::vector<int>>> two = groups_of_two(input, edge_values, levels.boundary);
    if (two && clears_chance(input, first, values, *two)) kept = std::move(*two);
  }
  if (kept.size() < 2) return std::nullopt;
  blocks = std::move(kept);
  // ...and a group, not slow nodes: in one block at least, the nodes are faster with each other than
  // the model without blocks says they are (slow nodes are as slow with each other as with anyone).
  // Blocks of 2 have one pair inside each: their pairs inside are pooled.
  const bool pooled = std::all_of(blocks.begin(), blocks.end(), [](const std::vector<int>& b) { return b.size() == 2; });
  // Pairs beyond what the model without blocks says (`beyond`, 3 or more): faster by half the gap and
  // 4 standard errors.
  auto shows_group_effect = [&](std::vector<double>& beyond) {
    if (beyond.size() < 3) return false;
    const double se = 1.2533 * first.sigma / std::sqrt(static_cast<double>(beyond.size()));
    const double shared = middle(beyond);
    return shared > 0.5 * levels.gap && shared > 4.0 * se;
  };
  bool group_effect = false;
  std::vector<double> excess;
  for (const std::vector<int>& block : blocks) {
    if (!pooled) excess.clear();
    for (std::size_t k = 0; k < input.pairs.size(); ++k) {
      const ModelPair& q = input.pairs[k];
      if (std::find(block.begin(), block.end(), q.a) == block.end() ||
          std::find(block.begin(), block.end(), q.b) == block.end()) {
        continue;
      }
      excess.push_back(values[k] -
                       std::min(first.node[static_cast<std::size_t>(q.a)], first.node[static_cast<std::size_t>(q.b)]));
    }
    if (!pooled && shows_group_effect(excess)) group_effect = true;
  }
  if (pooled) group_effect = shows_group_effect(excess);
  if (!group_effect) return std::nullopt;
  std::fill(block_of.begin(), block_of.end(), -1);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    for (int node : blocks[b]) block_of[static_cast<std::size_t>(node)] = static_cast<int>(b);
  }
  // Fast inside, slow across.
  int inside_measured = 0, inside_fast = 0, across_measured = 0, across_fast = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      const signed char e = m.at(a, b);
      if (e < 0 || block_of[a] < 0 || block_of[b] < 0) continue;
      if (block_of[a] == block_of[b]) {
        ++inside_measured, inside_fast += e;
      } else {
        ++across_measured, across_fast += e;
      }
    }
  }
  if (inside_measured == 0 || across_measured == 0) return std::nullopt;
  if (inside_fast < 0.7 * inside_measured || across_fast > 0.3 * across_measured) return std::nullopt;
  return with_leftovers(input, m, values, block_of, blocks.size(), levels.gap, keep_apart);
}

}  // namespace

std::vector<ModelGrouping> find_pair_blocks(const ModelInput& input, const NodeModel& first, double threshold) {
  const std::vector<double>& class_level = first.class_level;
  const std::size_t n = input.nodes;
  std::vector<ModelGrouping> out;
  if (n < 6 || n > kMaxBlockNodes || input.pairs.empty()) return out;
  std::vector<double> values;
  values.reserve(input.pairs.size());
  for (const ModelPair& q : input.pairs) values.push_back(q.value - class_level[static_cast<std::size_t>(q.cls)]);
  // The pairs about their class, and beyond their slower node's term too: slow nodes inside a group
  // then no longer look like crossings, which a fault as large as the crossing gap would otherwise make
  // them.
  std::vector<double> beyond_nodes(values.size());
  for (std::size_t k = 0; k < input.pairs.size(); ++k) {
    const ModelPair& q = input.pairs[k];
    beyond_nodes[k] =
        values[k] - std::min(first.node[static_cast<std::size_t>(q.a)], first.node[static_cast<std::size_t>(q.b)]);
  }
  // Two levels of similar weight (a few large groups), and a fast level of a few percent of the pairs
  // (many small groups): every split that makes blocks, each grouping once. A sparse matrix (under half
  // the pairs measured: the adaptive schedule) gets the one split of similar weights: with a few pairs
  // per node the other splits fit the noise (measured: more healthy nodes named at 64 nodes).
  std::set<std::pair<int, int>> distinct;
  for (const ModelPair& q : input.pairs) distinct.insert(std::minmax(q.a, q.b));
  const bool dense = 2.0 * static_cast<double>(distinct.size()) >= 0.5 * static_cast<double>(n * (n - 1));
  const std::vector<const std::vector<double>*> edge_sets =
      dense ? std::vector<const std::vector<double>*>{&values, &beyond_nodes}
            : std::vector<const std::vector<double>*>{&values};
  const std::vector<double> starts = dense ? std::vector<double>{0.25, 0.10, 0.05} : std::vector<double>{0.25};
  for (const std::vector<double>* edge_values : edge_sets) {
    for (double start : starts) {
      const TwoLevels levels = two_levels(*edge_values, -std::log(1.0 - threshold), start);
      if (!levels.separated) continue;
      std::optional<ModelGrouping> g = blocks_at(input, first, values, *edge_values, levels, dense);
      if (!g) continue;
      const bool seen =
          std::any_of(out.begin(), out.end(), [&](const ModelGrouping& o) { return o.group == g->group; });
      if (!seen) out.push_back(std::move(*g));
    }
  }
  return out;
}

}  // namespace podperf
