// The common shift and the nodes of each pair matrix, the one-run-a-side pair test, and the roll-up of
// pairs into the node that explains them (see compare_pair_levels.hpp). Floor: analysis/compare; pure,
// deterministic for any thread count.
#include "analysis/compare/compare_pair_levels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

#include "analysis/base/chunks.hpp"
#include "analysis/base/units.hpp"
#include "analysis/compare/compare_noise.hpp"
#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/stats.hpp"
#include "analysis/stats/t_power.hpp"
#include "analysis/stats/tail_fit.hpp"

namespace podperf {
namespace compare_pair_levels_detail {

// The pair metrics of one op, type and size, with their nodes as local indices.
struct PairMatrix {
  std::uint32_t op = 0, dtype = 0, size_text = 0;
  std::vector<std::size_t> metrics;           // indices into Comparison::metrics
  std::vector<std::uint32_t> node_a, node_b;  // per entry of `metrics`: local node indices
  std::vector<std::uint32_t> labels;          // per local node: its label's registry string id
};

std::vector<PairMatrix> pair_matrices(const Comparison& c) {
  std::vector<PairMatrix> out;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t> index;
  std::vector<std::map<std::uint32_t, std::uint32_t>> local(0);
  for (std::size_t i = 0; i < c.metrics.size(); ++i) {
    const MetricIdentity& id = c.registry->identity(c.metrics[i].metric);
    if (id.kind != MetricKind::kPair) continue;
    const auto [it, added] = index.emplace(std::make_tuple(id.op, id.dtype, id.size_text), out.size());
    if (added) {
      out.push_back(PairMatrix{id.op, id.dtype, id.size_text, {}, {}, {}, {}});
      local.emplace_back();
    }
    const std::size_t slot = it->second;  // a lambda may not capture a structured binding (clang before 16)
    PairMatrix& m = out[slot];
    auto node = [&](std::uint32_t label) {
      const auto [at, fresh] = local[slot].emplace(label, static_cast<std::uint32_t>(m.labels.size()));
      if (fresh) m.labels.push_back(label);
      return at->second;
    };
    m.metrics.push_back(i);
    m.node_a.push_back(node(id.a));
    m.node_b.push_back(node(id.b));
  }
  return out;
}

double median_of(std::vector<double> v) {
  return sample_median(v);
}

// The values of one unit in sorted order, with each value's position there, so that the median of all
// values but a few (a node's own pairs) costs the few, not a sort.
struct SortedUnit {
  std::vector<double> sorted;
  std::vector<std::size_t> rank;  // per value: its position in `sorted`
};

SortedUnit sorted_unit(const std::vector<double>& values) {
  SortedUnit s;
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  s.sorted.resize(values.size());
  s.rank.resize(values.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    s.sorted[r] = values[order[r]];
    s.rank[order[r]] = r;
  }
  return s;
}

// The median of the unit's values without those at `excluded` (positions in the unit's values; the
// median of all values when that leaves none). `ranks` is scratch.
double median_without(const SortedUnit& u, const std::vector<std::size_t>& excluded, std::vector<std::size_t>& ranks) {
  ranks.clear();
  for (std::size_t q : excluded) ranks.push_back(u.rank[q]);
  std::sort(ranks.begin(), ranks.end());
  const std::size_t left = u.sorted.size() - ranks.size();
  if (left == 0 || ranks.size() > u.sorted.size()) {
    std::vector<double> all = u.sorted;
    return median_of(all);
  }
  // The value at position k among the values left: step over the excluded ranks at or before it.
  const auto kth = [&](std::size_t k) {
    std::size_t pos = k;
    for (std::size_t r : ranks) {
      if (r <= pos) ++pos;
      else break;
    }
    return u.sorted[pos];
  };
  return left % 2 == 1 ? kth(left / 2) : 0.5 * (kth(left / 2 - 1) + kth(left / 2));
}

// The additive model of one unit's pair values: value(a, b) = common + effect[a] + effect[b] + noise,
// fitted by median polish (the common term the median of what the effects leave, each node's effect the
// median over its pairs of what the common term and its partners' effects leave; the effects' median
// held at 0, the healthy majority). Its common term is the common shift, which a slow node's own pairs
// do not move (the median of all pairs moved with them: one node of 8 at 0.88 made "all pairs" 2.5%
// slower, a false finding beside the node).
struct PairPolish {
  double common = 0.0;
  std::vector<double> effect;  // per local node
};

PairPolish polish_pairs(const std::vector<double>& values, const std::vector<std::uint32_t>& a,
                        const std::vector<std::uint32_t>& b, std::size_t nodes,
                        const std::vector<std::vector<std::size_t>>& pairs_of) {
  PairPolish fit;
  fit.effect.assign(nodes, 0.0);
  std::vector<double> scratch(values.size()), next(nodes);
  for (int iteration = 0; iteration < 20; ++iteration) {
    for (std::size_t q = 0; q < values.size(); ++q) scratch[q] = values[q] - fit.effect[a[q]] - fit.effect[b[q]];
    fit.common = sample_median(scratch);
    std::vector<double> own;
    for (std::size_t i = 0; i < nodes; ++i) {
      own.clear();
      for (std::size_t q : pairs_of[i]) own.push_back(values[q] - fit.common - fit.effect[a[q] == i ? b[q] : a[q]]);
      next[i] = own.empty() ? 0.0 : sample_median(own);
    }
    std::vector<double> centre = next;
    const double shift = sample_median(centre);
    double moved = 0.0;
    for (std::size_t i = 0; i < nodes; ++i) {
      moved = std::max(moved, std::fabs(next[i] - shift - fit.effect[i]));
      fit.effect[i] = next[i] - shift;
    }
    fit.common += 2.0 * shift;
    if (moved < 1e-12) break;
  }
  return fit;
}

// Per node of `nodes` and per unit, the node's contrast: the median of its own pairs less the median of
// the pairs that touch neither it nor a node far out of line. First against every pair not touching it;
// then, when some nodes stand out (their contrast on a side beyond 4 robust spreads of the nodes' and
// beyond 1%; at most a quarter of the nodes), again without those nodes' pairs, in the reference and in
// the other nodes' own pairs: a slow node's pairs were a share of every other node's reference (6 of 21
// at 8 nodes) and made its partners read faster (8 nodes, 3 against 3, a node at 0.8: its partners
// +1.3% on average, 6 of 56 found changed; with the reference alone fixed -0.8% and 2 of 56; now 0.0% and
// 1 of 56).
// units [0, nb) are one side, [nb, units) the other (one run a side: one unit, the pairs' changes).
std::vector<std::vector<double>> node_contrasts(const std::vector<std::vector<double>>& logs,
                                                const std::vector<std::vector<std::size_t>>& pairs_of,
                                                const std::vector<std::size_t>& nodes,
                                                const std::vector<std::uint32_t>& a,
                                                const std::vector<std::uint32_t>& b, std::size_t nb) {
  const std::size_t units = logs.size();
  const std::size_t pairs = a.size();
  std::vector<std::vector<double>> contrast(nodes.size(), std::vector<double>(units, 0.0));
  auto pass = [&](const std::vector<char>& keep) {
    std::vector<std::size_t> position(pairs, 0);
    std::size_t kept = 0;
    for (std::size_t q = 0; q < pairs; ++q) {
      if (keep[q]) position[q] = kept++;
    }
    std::vector<SortedUnit> sorted(units);
    for (std::size_t u = 0; u < units; ++u) {
      std::vector<double> reduced;
      reduced.reserve(kept);
      for (std::size_t q = 0; q < pairs; ++q) {
        if (keep[q]) reduced.push_back(logs[u][q]);
      }
      sorted[u] = sorted_unit(reduced);
    }
    in_chunks(nodes.size(), analysis_threads(nodes.size() * pairs / 64 + 1),
              [&](std::size_t, std::size_t begin, std::size_t end) {
                std::vector<double> values;
                std::vector<std::size_t> excluded, scratch;
                for (std::size_t k = begin; k < end; ++k) {
                  excluded.clear();
                  for (std::size_t q : pairs_of[nodes[k]]) {
                    if (keep[q]) excluded.push_back(position[q]);
                  }
                  if (excluded.size() >= kept) continue;  // no pair left to measure it against: keep the first pass
                  // Its own pairs: those with a node out of line left out too (one of 7 at -20% moved the
                  // median of a partner's pairs by about 1%), unless that leaves fewer than 2 (or it is
                  // out of line itself: its pairs are all it has).
                  const bool own_all = excluded.size() < 2;
                  for (std::size_t u = 0; u < units; ++u) {
                    values.clear();
                    for (std::size_t q : pairs_of[nodes[k]]) {
                      if (own_all || keep[q]) values.push_back(logs[u][q]);
                    }
                    contrast[k][u] = sample_median(values) - median_without(sorted[u], excluded, scratch);
                  }
                }
              });
  };
  pass(std::vector<char>(pairs, 1));
  // The nodes that stand out, per side.
  std::vector<char> out_of_line(pairs_of.size(), 0);
  std::size_t count = 0;
  for (const auto& [first, last] : {std::pair<std::size_t, std::size_t>{0, nb}, {nb, units}}) {
    if (last <= first) continue;
    std::vector<double> means(nodes.size());
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      double sum = 0.0;
      for (std::size_t u = first; u < last; ++u) sum += contrast[k][u];
      means[k] = sum / static_cast<double>(last - first);
    }
    std::vector<double> copy = means;
    const double centre = sample_median(copy);
    const double spread = robust_sigma(means);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      if (std::fabs(means[k] - centre) > std::max(4.0 * spread, 0.01) && !out_of_line[nodes[k]]) {
        out_of_line[nodes[k]] = 1;
        ++count;
      }
    }
  }
  if (count == 0 || 4 * count > nodes.size()) return contrast;
  std::vector<char> keep(pairs, 1);
  for (std::size_t q = 0; q < pairs; ++q) keep[q] = !(out_of_line[a[q]] || out_of_line[b[q]]);
  pass(keep);
  return contrast;
}

PairLevelTest level_of(const Comparison& c, const PairMatrix& m, const std::string& level, const std::string& node,
                       std::size_t pairs) {
  PairLevelTest t;
  t.level = level;
  t.node = node;
  t.op = c.registry->text(m.op);
  t.dtype = c.registry->text(m.dtype);
  t.size_bytes = c.registry->key(c.metrics[m.metrics.front()].metric).size_bytes;
  t.pairs = pairs;
  t.verdict = "untestable";
  return t;
}

void set_test(PairLevelTest& t, double diff_log, double se_log, double df, const char* test, double confidence) {
  t.change_percent = 100.0 * std::expm1(diff_log);
  if (!(se_log > 0.0) || !(df > 0.0)) {
    t.untestable_why = "zero_variance";
    return;
  }
  const TTest r = t_test(diff_log, se_log, df, confidence);
  t.test = test;
  t.untestable_why = "";
  t.se_log = se_log;
  t.df = df;
  t.p_value = r.p_value;
  t.ci_low_percent = r.ci_low_percent;
  t.ci_high_percent = r.ci_high_percent;
}

// The entries of `m` measured in every unit of both sides (positive): their positions in m.metrics.
std::vector<std::size_t> complete_entries(const Comparison& c, const PairMatrix& m, std::size_t& units_before,
                                          std::size_t& units_after) {
  units_before = units_after = 0;
  for (std::size_t k : m.metrics) {
    units_before = std::max(units_before, c.metrics[k].runs_before.size());
    units_after = std::max(units_after, c.metrics[k].runs_after.size());
  }
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < m.metrics.size(); ++e) {
    const MetricComparison& x = c.metrics[m.metrics[e]];
    if (x.runs_before.size() != units_before || x.runs_after.size() != units_after) continue;
    if (std::string_view(x.untestable_why) == "intermittent_both_sides") continue;  // compare.cpp
    const auto positive = [](double v) { return v > 0.0 && std::isfinite(v); };
    if (std::all_of(x.runs_before.begin(), x.runs_before.end(), positive) &&
        std::all_of(x.runs_after.begin(), x.runs_after.end(), positive))
      out.push_back(e);
  }
  return out;
}

// Per local node, the positions in `complete` of its pairs.
std::vector<std::vector<std::size_t>> node_pairs(const PairMatrix& m, const std::vector<std::size_t>& complete) {
  std::vector<std::vector<std::size_t>> out(m.labels.size());
  for (std::size_t q = 0; q < complete.size(); ++q) {
    out[m.node_a[complete[q]]].push_back(q);
    out[m.node_b[complete[q]]].push_back(q);
  }
  return out;
}

// Per entry of `complete`, its two local nodes.
void entry_nodes(const PairMatrix& m, const std::vector<std::size_t>& complete, std::vector<std::uint32_t>& a,
                 std::vector<std::uint32_t>& b) {
  a.resize(complete.size());
  b.resize(complete.size());
  for (std::size_t q = 0; q < complete.size(); ++q) {
    a[q] = m.node_a[complete[q]];
    b[q] = m.node_b[complete[q]];
  }
}

// Two or more units on some side: per unit the median (centred) log value of all pairs and each node's
// median beyond it, tested as metrics are.
void levels_with_spread(Comparison& c, const PairMatrix& m, const std::vector<std::size_t>& complete, std::size_t nb,
                        std::size_t na, const CompareSettings& s) {
  const std::size_t units = nb + na;
  std::vector<std::vector<double>> logs(units, std::vector<double>(complete.size()));
  for (std::size_t q = 0; q < complete.size(); ++q) {
    const MetricComparison& x = c.metrics[m.metrics[complete[q]]];
    for (std::size_t u = 0; u < nb; ++u) logs[u][q] = std::log(x.runs_before[u]);
    for (std::size_t u = 0; u < na; ++u) logs[nb + u][q] = std::log(x.runs_after[u]);
    // Each pair centred on its own mean over all units: the medians below then pick pairs by how they
    // moved, not by their baselines (uncentred, one link 20% slower among a node's 3 pairs moved the
    // node's median from one pair to another of a lower baseline: a node "3.3% slower" whose other pairs
    // had not changed, and those pairs "faster" against it). A constant per pair: no side's values move.
    double mean = 0.0;
    for (std::size_t u = 0; u < units; ++u) mean += logs[u][q];
    mean /= static_cast<double>(units);
    for (std::size_t u = 0; u < units; ++u) logs[u][q] -= mean;
  }
  const std::vector<std::vector<std::size_t>> pairs_of = node_pairs(m, complete);
  std::vector<std::uint32_t> a, b;
  entry_nodes(m, complete, a, b);
  // Per unit the common shift: the additive model's common term.
  std::vector<double> common(units);
  in_chunks(units, analysis_threads(units * complete.size() / 4096 + 1), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t u = begin; u < end; ++u) common[u] = polish_pairs(logs[u], a, b, pairs_of.size(), pairs_of).common;
  });
  PairLevelTest all = level_of(c, m, "all pairs", "", complete.size());
  const UnitSpread g = log_unit_spread(std::span(common).first(nb), std::span(common).subspan(nb));
  set_test(all, g.diff_log, g.df > 0.0 ? std::sqrt(g.variance * (1.0 / g.nb + 1.0 / g.na)) : 0.0, g.df, "moderated_t",
           s.confidence);
  c.pair_levels.push_back(std::move(all));

  std::vector<std::size_t> nodes;
  for (std::size_t i = 0; i < pairs_of.size(); ++i) {
    if (pairs_of[i].size() >= 2) nodes.push_back(i);
  }
  if (nodes.size() < kMinLevelNodes) return;
  std::vector<UnitSpread> spreads(nodes.size());
  // Against the pairs that do not touch the node: against all pairs, the node's own N-1 pairs moved the
  // reference with it, and a node change showed as (1 - 2/N) of itself (the power at the printed MDE was
  // 64% at 16 nodes, 3 against 3).
  const std::vector<std::vector<double>> contrasts = node_contrasts(logs, pairs_of, nodes, a, b, nb);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    spreads[k] = log_unit_spread(std::span(contrasts[k]).first(nb), std::span(contrasts[k]).subspan(nb));
  }
  std::vector<double> variances, dfs;
  for (const UnitSpread& u : spreads) {
    variances.push_back(u.variance);
    dfs.push_back(u.df);
  }
  const VariancePrior prior = s.moderate_variance ? fit_variance_prior(variances, dfs) : VariancePrior{};
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const UnitSpread& u = spreads[k];
    const ModeratedVariance v =
        moderate_variance(u.variance, u.df, prior, s.variance_outlier_p / static_cast<double>(nodes.size()));
    PairLevelTest t = level_of(c, m, "node", c.registry->text(m.labels[nodes[k]]), pairs_of[nodes[k]].size());
    set_test(t, u.diff_log, std::sqrt(v.variance * (1.0 / u.nb + 1.0 / u.na)), v.df, "moderated_t", s.confidence);
    c.pair_levels.push_back(std::move(t));
  }
}

// One run a side: the common shift untestable; nodes, then pairs, against the spread of the pairs'
// changes.
void levels_one_run_a_side(Comparison& c, const PairMatrix& m, const std::vector<std::size_t>& complete,
                           const CompareSettings& s) {
  const std::size_t pairs = complete.size();
  std::vector<double> delta(pairs);
  for (std::size_t q = 0; q < pairs; ++q) {
    const MetricComparison& x = c.metrics[m.metrics[complete[q]]];
    delta[q] = std::log(x.runs_after[0] / x.runs_before[0]);
  }
  const std::vector<std::vector<std::size_t>> pairs_of = node_pairs(m, complete);
  const std::size_t nodes = pairs_of.size();
  std::vector<std::uint32_t> a, b;
  entry_nodes(m, complete, a, b);
  // The common shift: the additive model's common term.
  const double shift = polish_pairs(delta, a, b, nodes, pairs_of).common;
  PairLevelTest all = level_of(c, m, "all pairs", "", pairs);
  all.change_percent = 100.0 * std::expm1(shift);
  all.untestable_why = "one_run_a_side";
  c.pair_levels.push_back(std::move(all));
  auto untestable_pairs = [&](const char* why) {
    for (std::size_t k : m.metrics) c.metrics[k].untestable_why = why;
  };
  if (pairs < kMinSpreadPairs) {
    untestable_pairs("too_few_pairs");
    return;
  }
  // Each node's change beyond the common shift: the median of its pairs' changes against the median
  // of the pairs that do not touch it (its own pairs would move that reference with it).
  std::vector<double> effect(nodes, 0.0);
  {
    std::vector<std::size_t> all_nodes;
    for (std::size_t i = 0; i < nodes; ++i) {
      if (!pairs_of[i].empty()) all_nodes.push_back(i);
    }
    const std::vector<std::vector<double>> contrasts = node_contrasts({delta}, pairs_of, all_nodes, a, b, 0);
    for (std::size_t k = 0; k < all_nodes.size(); ++k) effect[all_nodes[k]] = contrasts[k][0];
  }
  if (nodes >= kMinSpreadNodes) {
    std::vector<double> pure(pairs);
    for (std::size_t q = 0; q < pairs; ++q) {
      pure[q] = delta[q] - shift - effect[m.node_a[complete[q]]] - effect[m.node_b[complete[q]]];
    }
    // Taking out two node effects fitted on the same values shrinks the pairs' spread (by 20% at 8
    // nodes, 4% at 64: the power at the printed MDE was 57% at 16 nodes); divided by that shrinkage
    // (fitted by simulation of normal changes at 8 to 128 nodes, within 1%).
    const double fitted = static_cast<double>(nodes - 1);
    const double shrinkage = 1.0 - 2.51 / fitted + 7.85 / (fitted * fitted);
    const double pair_sigma = robust_sigma(pure) / shrinkage;
    const double node_sigma = robust_sigma(effect);
    const double node_df = kMadEfficiency * static_cast<double>(nodes - 1);
    const double pure_df = kMadEfficiency * static_cast<double>(pairs - nodes);
    for (std::size_t i = 0; i < nodes; ++i) {
      PairLevelTest t = level_of(c, m, "node", c.registry->text(m.labels[i]), pairs_of[i].size());
      // The spread a node's median of its pairs less the median of the other pairs has from pair noise
      // alone (the standard error of a median is sqrt(pi/2) sigma / sqrt(n)), or the spread of the
      // nodes themselves when larger (nodes that vary from run to run on their own).
      const double own = static_cast<double>(std::max<std::size_t>(1, pairs_of[i].size()));
      const double others = static_cast<double>(std::max<std::size_t>(1, pairs - pairs_of[i].size()));
      const double from_pairs = std::numbers::pi / 2.0 * pair_sigma * pair_sigma * (1.0 / own + 1.0 / others);
      const double from_nodes = node_sigma * node_sigma;
      // The nodes' own spread (few degrees of freedom) replaces the pairs' only when it is beyond
      // chance (an F test at 1%): taken whenever larger, it was taken in about half of the healthy
      // comparisons, and the printed MDE jumped between 6% and 19% from one seed to the next.
      const bool nodes_wider = from_nodes > from_pairs * f_quantile(0.99, std::max(1.0, node_df), std::max(1.0, pure_df));
      set_test(t, effect[i], std::sqrt(std::max(from_pairs, from_nodes)),
               std::max(1.0, nodes_wider ? node_df : pure_df), "pair_spread", s.confidence);
      c.pair_levels.push_back(std::move(t));
    }
  } else {
    for (std::size_t i = 0; i < nodes; ++i) {
      PairLevelTest t = level_of(c, m, "node", c.registry->text(m.labels[i]), pairs_of[i].size());
      t.change_percent = 100.0 * std::expm1(effect[i]);
      t.untestable_why = "too_few_nodes";
      c.pair_levels.push_back(std::move(t));
    }
  }
  // The pairs are tested in the second stage (test_pairs_beyond_levels), once the nodes are judged.
  for (std::size_t q = 0; q < pairs; ++q) c.metrics[m.metrics[complete[q]]].test = "pair_spread";
}

// The tail of the values of `rest` on one side (sign +1: above 0, -1: below), mirrored about 0.
TailFit side_tail(const std::vector<double>& rest, double sign) {
  std::vector<double> mirrored;
  for (double r : rest) {
    if (r * sign <= 0.0) continue;
    mirrored.push_back(r);
    mirrored.push_back(-r);
  }
  return fit_symmetric_tail(mirrored);
}

// Whether level test `t` is of matrix `m` (its op, type and size).
class OfMatrix {
 public:
  OfMatrix(const Comparison& c, const PairMatrix& m)
      : op_(c.registry->text(m.op)),
        dtype_(c.registry->text(m.dtype)),
        size_(c.registry->key(c.metrics[m.metrics.front()].metric).size_bytes) {}
  bool operator()(const PairLevelTest& t) const { return t.op == op_ && t.dtype == dtype_ && t.size_bytes == size_; }

 private:
  std::string op_, dtype_;
  std::uint64_t size_;
};

// The "all pairs" level of matrix `m` (one run a side: set by levels_one_run_a_side), or null.
PairLevelTest* common_level(Comparison& c, const PairMatrix& m) {
  const OfMatrix of(c, m);
  for (PairLevelTest& t : c.pair_levels) {
    if (t.level == "all pairs" && of(t)) return &t;
  }
  return nullptr;
}

bool changed(const std::string& verdict) {
  return verdict == "slower" || verdict == "faster";
}

}  // namespace compare_pair_levels_detail

using namespace compare_pair_levels_detail;

std::string pair_level_name(const PairLevelTest& t) {
  return fmt::format("{} {} {} {}", t.level == "node" ? "node " + t.node : std::string("all pairs"), t.op, t.dtype,
                     format_size(t.size_bytes));
}

void test_pair_levels(Comparison& c, const CompareSettings& settings) {
  if (!c.registry) return;
  for (const PairMatrix& m : pair_matrices(c)) {
    std::size_t nb = 0, na = 0;
    const std::vector<std::size_t> complete = complete_entries(c, m, nb, na);
    if (complete.size() < 3) continue;
    const std::size_t df = (nb > 1 ? nb - 1 : 0) + (na > 1 ? na - 1 : 0);
    if (df > 0) {
      levels_with_spread(c, m, complete, nb, na, settings);
    } else {
      levels_one_run_a_side(c, m, complete, settings);
    }
  }
}

namespace compare_pair_levels_detail {

// The levels of one matrix the first stage found: the common shift (log; NaN when not found) and per
// local node its level's index (-1 when not found).
struct FoundLevels {
  double common_log = std::nan("");
  long common = -1;
  std::vector<long> node;
};

FoundLevels found_levels(const Comparison& c, const PairMatrix& m) {
  FoundLevels f;
  f.node.assign(m.labels.size(), -1);
  const OfMatrix of(c, m);
  std::map<std::string, std::size_t> by_label;
  for (std::size_t i = 0; i < c.pair_levels.size(); ++i) {
    const PairLevelTest& t = c.pair_levels[i];
    if (!changed(t.verdict) || !of(t)) continue;
    if (t.level == "all pairs") {
      f.common = static_cast<long>(i);
      f.common_log = std::log1p(t.change_percent / 100.0);
    } else {
      by_label[t.node] = i;
    }
  }
  for (std::size_t i = 0; i < m.labels.size(); ++i) {
    const auto it = by_label.find(c.registry->text(m.labels[i]));
    if (it != by_label.end()) f.node[i] = static_cast<long>(it->second);
  }
  return f;
}

// The found levels a pair touches: their log change together and their names ("sim0005", "sim0003 and
// sim0009", "all pairs"); with_common: the common shift counts (runs on a side).
double touching(const Comparison& c, const FoundLevels& f, std::uint32_t a, std::uint32_t b, bool with_common,
                std::string& names) {
  double shift = 0.0;
  names.clear();
  for (std::uint32_t node : {a, b}) {
    if (f.node[node] < 0) continue;
    const PairLevelTest& t = c.pair_levels[static_cast<std::size_t>(f.node[node])];
    shift += std::log1p(t.change_percent / 100.0);
    names += (names.empty() ? "" : " and ") + t.node;
  }
  if (with_common && f.common >= 0) {
    shift += f.common_log;
    if (names.empty()) names = "all pairs";
  }
  return shift;
}

// The test of a pair's change `change_log` (beyond its levels); `interval`: the interval is of that
// change too (one run a side: there is no interval of the pair's own change), else the interval of the
// pair's own change stays as its own test gave it.
void set_pair_test(MetricComparison& x, double change_log, double se, double df, double confidence, bool interval) {
  const TTest r = t_test(change_log, se, df, confidence);
  x.tested_change_percent = 100.0 * std::expm1(change_log);
  x.p_value = r.p_value;
  if (!interval) return;
  x.ci_low_percent = r.ci_low_percent;
  x.ci_high_percent = r.ci_high_percent;
}

// A candidate for being explained: its own change (marginal, or beyond the common shift with one run a
// side) at least --min-change and in the direction of the levels it touches.
void mark_candidate(MetricComparison& x, double own_log, double level_log, const std::string& names,
                    const CompareSettings& s) {
  x.explained_by.clear();
  const bool same_direction = (own_log < 0.0) == (level_log < 0.0) && level_log != 0.0;
  if (names.empty() || !same_direction || std::fabs(100.0 * std::expm1(own_log)) < s.min_change_percent) return;
  x.explained_by = names;
  x.explained_change_percent = 100.0 * std::expm1(level_log);
}

}  // namespace compare_pair_levels_detail

void test_pairs_beyond_levels(Comparison& c, const CompareSettings& s) {
  if (!c.registry) return;
  for (const PairMatrix& m : pair_matrices(c)) {
    const FoundLevels found = found_levels(c, m);
    std::size_t nb = 0, na = 0;
    const std::vector<std::size_t> complete = complete_entries(c, m, nb, na);
    const bool spread = (nb > 1 ? nb - 1 : 0) + (na > 1 ? na - 1 : 0) > 0;
    std::string names;
    if (spread) {
      for (std::size_t e = 0; e < m.metrics.size(); ++e) {
        MetricComparison& x = c.metrics[m.metrics[e]];
        if (std::string_view(x.test) != "moderated_t") continue;
        const double level = touching(c, found, m.node_a[e], m.node_b[e], true, names);
        if (names.empty()) continue;
        const double own = std::log1p(x.change_percent / 100.0);
        x.beyond_level = true;
        set_pair_test(x, own - level, x.se_log, x.df, s.confidence, false);
        mark_candidate(x, own, level, names, s);
      }
      continue;
    }
    // One run a side: every pair against the spread of the pairs' changes beyond the common shift and the
    // nodes found (nodes first: a changed node's pairs do not widen the spread the others are tested by).
    const std::size_t pairs = complete.size();
    if (pairs < kMinSpreadPairs) continue;
    std::vector<double> delta(pairs), level(pairs), rest(pairs);
    std::vector<std::string> touched(pairs);
    for (std::size_t q = 0; q < pairs; ++q) {
      const MetricComparison& x = c.metrics[m.metrics[complete[q]]];
      delta[q] = std::log(x.runs_after[0] / x.runs_before[0]);
    }
    // The common shift the levels were measured against, so that each pair's change beyond it and its
    // nodes is on the same terms.
    PairLevelTest* common = common_level(c, m);
    const double shift = common ? std::log1p(common->change_percent / 100.0) : median_of(delta);
    for (std::size_t q = 0; q < pairs; ++q) {
      level[q] = touching(c, found, m.node_a[complete[q]], m.node_b[complete[q]], false, touched[q]);
      rest[q] = delta[q] - shift - level[q];
    }
    const double sigma = robust_sigma(rest);
    const double df = std::max(1.0, kMadEfficiency * static_cast<double>(pairs - 1));
    // Under no change the two jobs are exchangeable, so the pairs' changes are symmetric: the pairs that
    // moved up show how far chance (a transient of either job) moves a pair, and a pair that moved down
    // is tested against the tail of those (and the other way round), never against a normal tail that
    // transients have outgrown. The side a pair moved to is left out of its own reference, so a real
    // slow link does not widen the tail it is tested against.
    const TailFit up = side_tail(rest, +1.0), down = side_tail(rest, -1.0);
    if (common) {
      common->tail_df_faster = up.heavy ? up.df : 0.0;
      common->tail_df_slower = down.heavy ? down.df : 0.0;
      for (double r : rest) {
        if (sigma > 0.0 && r > 4.0 * sigma) ++common->tail_pairs_faster;
        if (sigma > 0.0 && r < -4.0 * sigma) ++common->tail_pairs_slower;
      }
    }
    for (std::size_t q = 0; q < pairs; ++q) {
      MetricComparison& x = c.metrics[m.metrics[complete[q]]];
      if (!(sigma > 0.0)) {
        x.test = "untestable";
        x.untestable_why = "zero_variance";
        continue;
      }
      x.test = "pair_spread";
      x.untestable_why = "";
      double se = sigma, dof = df;
      const TailFit& other_side = rest[q] < 0.0 ? up : down;
      if (other_side.heavy && other_side.scale > 0.0 &&
          t_two_sided_p(rest[q] / other_side.scale, other_side.df) > t_two_sided_p(rest[q] / sigma, df)) {
        se = other_side.scale;
        dof = other_side.df;
      }
      x.se_log = se;
      x.df = dof;
      x.beyond_level = !touched[q].empty();
      set_pair_test(x, rest[q], se, dof, s.confidence, true);
      // Every measurement of the job where the pair is slower must agree (its retest and later retests:
      // a transient only lowers busbw, and the run's own link rule asks every measurement of a link to be
      // low): its best measurement must also be beyond the pairs' spread, at kBestMeasurementAlpha on
      // its own (both must hold: an intersection-union test, no larger than either). A pair hit by a
      // transient in its measurement and its retest, and at its speed in a later retest, is no change.
      const double best = rest[q] < 0.0 ? std::min(0.0, rest[q] + std::log(static_cast<double>(x.best_ratio_after)))
                                        : std::max(0.0, rest[q] - std::log(static_cast<double>(x.best_ratio_before)));
      if (best != rest[q]) {
        const double p_best = t_two_sided_p(best / se, dof);
        if (p_best >= kBestMeasurementAlpha) x.p_value = std::max(x.p_value, p_best);
      }
      mark_candidate(x, delta[q] - shift, level[q], touched[q], s);
    }
  }
}

void explain_pairs(Comparison& c) {
  if (!c.registry) return;
  std::map<std::string, std::vector<std::size_t>> level_index;  // "op dtype size node" -> pair_levels indices
  for (MetricComparison& x : c.metrics) {
    if (x.explained_by.empty()) continue;
    if (changed(x.verdict)) {
      x.explained_by.clear();  // beyond the levels it touches: its own finding
      continue;
    }
    if (x.verdict != "no_change") {
      x.explained_by.clear();
      continue;
    }
    const bool better = x.higher_is_better ? x.explained_change_percent > 0.0 : x.explained_change_percent < 0.0;
    x.verdict = better ? "faster" : "slower";
  }
  // Each level's count of the pairs it explains.
  for (PairLevelTest& t : c.pair_levels) t.explains = 0;
  for (const PairMatrix& m : pair_matrices(c)) {
    const FoundLevels found = found_levels(c, m);
    for (std::size_t e = 0; e < m.metrics.size(); ++e) {
      const MetricComparison& x = c.metrics[m.metrics[e]];
      if (x.explained_by.empty()) continue;
      bool by_node = false;
      for (std::uint32_t node : {m.node_a[e], m.node_b[e]}) {
        if (found.node[node] < 0) continue;
        ++c.pair_levels[static_cast<std::size_t>(found.node[node])].explains;
        by_node = true;
      }
      if (!by_node && found.common >= 0) ++c.pair_levels[static_cast<std::size_t>(found.common)].explains;
    }
  }
}

}  // namespace podperf
