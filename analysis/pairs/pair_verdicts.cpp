// The decisions of the pair test at the judged size (see pair_verdicts.hpp). Floor: analysis/pairs;
// pure.
#include "analysis/pairs/pair_verdicts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "analysis/pairs/pair_blocks.hpp"
#include "analysis/stats/change_stats.hpp"
#include "analysis/stats/low_pair.hpp"

namespace podperf {
namespace {

// P(X >= k) for X ~ Binomial(n, p).
double binomial_upper_tail(int k, int n, double p) {
  if (k <= 0) return 1.0;
  if (k > n || p <= 0.0) return 0.0;
  if (p >= 1.0) return 1.0;
  double sum = 0.0;
  const double lp = std::log(p), lq = std::log1p(-p);
  const double lgn = std::lgamma(n + 1.0);
  for (int j = k; j <= n; ++j) {
    sum += std::exp(lgn - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) + j * lp + (n - j) * lq);
  }
  return std::min(1.0, sum);
}

double t_upper(double alpha, double df) {
  return student_t_quantile(1.0 - std::clamp(alpha, 1e-15, 0.5), std::max(1.0, df));
}

void decide_nodes(const PairThresholds& t, PairVerdicts& v) {
  const ModelInput& in = v.input.model;
  const NodeModel& m = v.model;
  const std::size_t n = in.nodes;
  const double thr = -std::log(1.0 - t.threshold);
  const auto judged = static_cast<double>(std::max<std::size_t>(1, m.judged_nodes));
  v.node_quantile = t_upper(t.node_family_alpha / judged, m.df);
  v.state.assign(n, NodeState::kNotJudged);
  v.low.assign(n, 0.0);
  v.high.assign(n, 0.0);
  v.relative = m.judged_nodes >= 3 || in.referenced;
  std::vector<double> ses;
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < n; ++i) {
    if (!m.estimated[i] || !in.judged[i]) continue;
    v.low[i] = m.node[i] - v.node_quantile * m.se[i];
    v.high[i] = m.node[i] + v.node_quantile * m.se[i];
    ses.push_back(m.se[i]);
    if (!v.relative) continue;
    v.state[i] = NodeState::kHealthy;
    if (m.node[i] < -thr && v.high[i] < 0.0) {
      candidates.push_back(i);
    } else if (m.node[i] < -thr) {
      v.state[i] = NodeState::kUndecided;
    } else if (m.node[i] > thr && v.low[i] > 0.0) {
      v.state[i] = NodeState::kFast;
    }
  }
  v.typical_se = ses.empty() ? 0.0 : upper_median_of(ses);
  // No healthy majority: only a node far below the others is named (see pair_verdicts.hpp).
  const bool half = !in.referenced && 2 * candidates.size() >= m.judged_nodes;
  const double extreme = std::log(std::max(1e-9, t.half_split_max_ratio));
  for (std::size_t i : candidates) {
    v.state[i] = !half || m.node[i] <= extreme ? NodeState::kStraggler : NodeState::kAmbiguous;
  }
  // The mirror image: two or more nodes, a third of the nodes or more, faster than the median node beyond
  // the threshold and their bound. They are fast, or the median is a slow majority (3 slow hosts of 5 look
  // the same): the nodes below them beyond the threshold are ambiguous, not healthy.
  if (in.referenced || !v.relative) return;
  double fast_floor = std::numeric_limits<double>::infinity();
  std::size_t fast = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (v.state[i] == NodeState::kFast) ++fast, fast_floor = std::min(fast_floor, m.node[i]);
  }
  if (fast < 2 || 3 * fast < m.judged_nodes) return;
  for (std::size_t i = 0; i < n; ++i) {
    const bool below = v.state[i] == NodeState::kHealthy || v.state[i] == NodeState::kUndecided;
    if (below && m.node[i] < fast_floor - thr && m.node[i] > extreme) v.state[i] = NodeState::kAmbiguous;
  }
}

// Per node: its measurements, those below the pair cut against what the model predicts, and their
// distinct partners (a pair low in every one of several measurements counts once); intermittent when not named and
// bimodal beyond chance: low measurements with intermittent_min_links partners or more, more of them than the other
// nodes' rate of low measurements allows (binomial, node_family_alpha over the nodes), and, where its pairs were
// measured again, a pair both low and not (a steady slow link is low every time).
void decide_intermittent(const PairThresholds& t, PairVerdicts& v) {
  const ModelInput& in = v.input.model;
  const std::size_t n = in.nodes;
  const double cut = std::log(1.0 - v.pair_cut);
  v.measurements.assign(n, 0);
  v.low_measurements.assign(n, 0);
  v.low_partners.assign(n, 0);
  v.unsteady_low.assign(n, 0);
  std::vector<std::set<int>> partners(n);
  std::vector<bool> bimodal(n, false), retested(n, false);
  long total = 0, low = 0;
  for (std::size_t k = 0; k < in.pairs.size(); ++k) {
    const ModelPair& q = in.pairs[k];
    const double expected = v.model.expected(in, k);
    int pair_low = 0;
    for (std::uint32_t j = 0; j < q.count; ++j) pair_low += in.logs[q.first + j] - expected < cut ? 1 : 0;
    // Low in every one of several measurements: a steady slow pair (a link, judged as one) counts as
    // one low measurement, not as several: its repeats are no further evidence of a node that is
    // slow only sometimes.
    const bool steady = q.count > 1 && pair_low == static_cast<int>(q.count);
    for (std::uint32_t j = 0; j < q.count; ++j) {
      const bool is_low = in.logs[q.first + j] - expected < cut;
      const bool counted = is_low && (!steady || j == 0);
      for (int node : {q.a, q.b}) {
        const auto i = static_cast<std::size_t>(node);
        ++v.measurements[i];
        if (is_low) ++v.low_measurements[i];
        if (counted) ++v.unsteady_low[i], partners[i].insert(node == q.a ? q.b : q.a);
      }
      ++total;
      low += counted ? 1 : 0;
    }
    for (int node : {q.a, q.b}) {
      const auto i = static_cast<std::size_t>(node);
      if (q.count > 1) retested[i] = true;
      if (pair_low > 0 && pair_low < static_cast<int>(q.count)) bimodal[i] = true;
    }
  }
  for (std::size_t i = 0; i < n; ++i) v.low_partners[i] = static_cast<int>(partners[i].size());
  v.low_rate = total > 0 ? static_cast<double>(low) / static_cast<double>(total) : 0.0;
  const double alpha = t.node_family_alpha / static_cast<double>(std::max<std::size_t>(1, v.model.judged_nodes));
  for (std::size_t i = 0; i < n; ++i) {
    if (v.state[i] != NodeState::kHealthy && v.state[i] != NodeState::kUndecided && v.state[i] != NodeState::kFast) {
      continue;
    }
    if (v.low_partners[i] < t.intermittent_min_links || (retested[i] && !bimodal[i])) continue;
    // The chance of a low measurement: the other nodes' rate (this node's own would hide it in a small run).
    const long others = total - v.measurements[i];
    const double chance = std::max(
        1e-3, others > 0 ? static_cast<double>(low - v.unsteady_low[i]) / static_cast<double>(others) : v.low_rate);
    if (binomial_upper_tail(v.unsteady_low[i], v.measurements[i], chance) < alpha) {
      v.state[i] = NodeState::kIntermittent;
    }
  }
}

// A node none of whose pairs finished ok, failed with min_cleared_partners distinct partners or more
// (that are themselves judged or have pairs): no bandwidth at all, but the node to blame, not its links.
void decide_dead_nodes(const Run& run, const PairThresholds& t, PairVerdicts& v) {
  const std::size_t n = v.input.model.nodes;
  if (v.state.size() != n) return;
  std::vector<int> ok(n, 0);
  std::vector<std::set<int>> failed(n);
  for (const ModelPair& q : v.input.model.pairs)
    ++ok[static_cast<std::size_t>(q.a)], ++ok[static_cast<std::size_t>(q.b)];
  for (std::size_t index : v.input.failed) {
    const PairResult& p = run.pairs[index];
    failed[static_cast<std::size_t>(p.nodes[0])].insert(p.nodes[1]);
    failed[static_cast<std::size_t>(p.nodes[1])].insert(p.nodes[0]);
  }
  std::size_t dead = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (ok[i] == 0 && static_cast<int>(failed[i].size()) >= t.min_cleared_partners) ++dead;
  }
  // Half the nodes or more failing everything: the run, not a node (no healthy majority to blame one).
  if (dead == 0 || 2 * dead >= n) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (ok[i] == 0 && static_cast<int>(failed[i].size()) >= t.min_cleared_partners) v.state[i] = NodeState::kStraggler;
  }
}

bool names_nothing(NodeState s) {
  return s == NodeState::kHealthy || s == NodeState::kFast || s == NodeState::kUndecided;
}

void decide_pairs_and_links(const Run& run, const PairThresholds& t, PairVerdicts& v) {
  const ModelInput& in = v.input.model;
  const LowPairRule rule{t.threshold, t.spread_factor, t.max_spread_fraction};
  const double spread = std::expm1(v.model.sigma);
  v.pair_cut = low_pair_cut(rule, spread);
  const double pair_cut = std::log(1.0 - v.pair_cut);
  const double pairs = static_cast<double>(std::max<std::size_t>(1, in.pairs.size() + v.input.failed.size()));
  const double z = t_upper(t.link_family_alpha / pairs, v.model.df);
  v.link_cut = std::max(t.threshold, -std::expm1(-z * v.model.sigma));
  const double link_cut = std::log(1.0 - v.link_cut);
  v.flagged.assign(in.pairs.size(), false);
  v.first_flagged.assign(in.pairs.size(), false);
  std::size_t healthy_pairs = 0, healthy_first_flagged = 0;
  for (std::size_t k = 0; k < in.pairs.size(); ++k) {
    const ModelPair& q = in.pairs[k];
    const double level = v.model.class_expected(in, k);
    // ...and beyond the pair's own noise (noise_factor x the robust sigma of its iterations, filled by the
    // judge): a pair whose iterations spread +-30% is not low on a 7% gap.
    const PairResult& measured = run.pairs[q.index];
    const double gap_gbps = std::exp(level) - measured.busbw_gbps;
    const bool beyond_own_noise = measured.noise_gbps <= 0.0 || gap_gbps > t.noise_factor * measured.noise_gbps;
    v.flagged[k] = q.upper - level < pair_cut && beyond_own_noise;
    v.first_flagged[k] = in.logs[q.first] - level < pair_cut && beyond_own_noise;
    const auto a = static_cast<std::size_t>(q.a), b = static_cast<std::size_t>(q.b);
    if (v.relative && names_nothing(v.state[a]) && names_nothing(v.state[b])) {
      ++healthy_pairs;
      healthy_first_flagged += v.first_flagged[k] ? 1 : 0;
    }
  }
  // A link is low in each of its measurements. A healthy pair is low in one measurement with the run's own
  // rate f (first measurements below the pair cut between healthy nodes: noise, its heavy tail, outliers),
  // so in k with about f^k: a link needs the fewest k measurements with f^k x pairs <= link_family_alpha
  // (at least 2 where the run retests: one slow measurement cannot tell a link from an outlier).
  const double f = healthy_pairs > 0
                       ? std::max(1.0 / static_cast<double>(healthy_pairs),
                                  static_cast<double>(healthy_first_flagged) / static_cast<double>(healthy_pairs))
                       : 1.0;
  v.needed_measurements = run.options.retest <= 0 ? 1 : 2;
  while (v.needed_measurements < 6 && std::pow(f, v.needed_measurements) * pairs > t.link_family_alpha) {
    ++v.needed_measurements;
  }
  if (run.options.retest <= 0) v.needed_measurements = 1;  // no retests: the one measurement is all there is
  for (std::size_t k = 0; k < in.pairs.size(); ++k) {
    const ModelPair& q = in.pairs[k];
    const auto a = static_cast<std::size_t>(q.a), b = static_cast<std::size_t>(q.b);
    if (!v.relative || !names_nothing(v.state[a]) || !names_nothing(v.state[b])) continue;
    // Faster than its nodes say in every measurement, beyond the link cut: a faster path (one switch,
    // NVLink) the run has no class for, or the other pairs slow.
    const double worst = *std::min_element(in.logs.begin() + q.first, in.logs.begin() + q.first + q.count);
    if (worst - v.model.expected(in, k) > -link_cut) v.fast_pairs.push_back(k);
    if (!v.flagged[k]) continue;
    // A link: flagged against its class (most of its measurements there), every measurement beyond the
    // link cut against what its nodes predict, and measured enough times (above).
    const double best = *std::max_element(in.logs.begin() + q.first, in.logs.begin() + q.first + q.count);
    if (best - v.model.expected(in, k) < link_cut) {
      if (static_cast<int>(q.count) >= v.needed_measurements) {
        v.links.push_back(k);
      } else {
        v.unconfirmed_links.push_back(k);
      }
    } else {
      ++v.chance_flags;
    }
  }
  for (std::size_t index : v.input.failed) {
    const PairResult& p = run.pairs[index];
    const auto a = static_cast<std::size_t>(p.nodes[0]), b = static_cast<std::size_t>(p.nodes[1]);
    const bool explained = !v.state.empty() && (!names_nothing(v.state[a]) || !names_nothing(v.state[b]));
    if (!explained) v.failed_links.push_back(index);
  }
}

PairVerdicts fit(const Run& run, const PairThresholds& t, std::uint64_t size, const ModelGrouping* blocks) {
  PairVerdicts v;
  v.input = collect_pair_input(run, size, t.threshold, blocks);
  v.model = fit_node_model(v.input.model, model_params(t));
  return v;
}

}  // namespace

const char* node_state_name(NodeState s) {
  switch (s) {
    case NodeState::kNotJudged: return "not judged";
    case NodeState::kHealthy: return "healthy";
    case NodeState::kFast: return "fast";
    case NodeState::kUndecided: return "undecided";
    case NodeState::kAmbiguous: return "ambiguous";
    case NodeState::kIntermittent: return "intermittent";
    case NodeState::kStraggler: return "straggler";
  }
  return "?";
}

ModelParams model_params(const PairThresholds& t) {
  ModelParams p;
  p.threshold = t.threshold;
  p.node_alpha = t.node_family_alpha;
  p.group_alpha = t.node_family_alpha;
  p.noise_prior = t.noise_prior;
  p.noise_prior_df = t.noise_prior_df;
  p.min_noise = t.min_pair_noise;
  return p;
}

PairVerdicts decide_pairs(const Run& run, const PairThresholds& t, std::uint64_t size) {
  PairVerdicts v = fit(run, t, size, nullptr);
  // No topology: blocks in the matrix, if any, become the classes and groups, and the model is fitted
  // again with them; of several groupings, the one that leaves the least pair noise.
  if (v.input.structure.empty()) {
    std::optional<PairVerdicts> best;
    for (const ModelGrouping& blocks : find_pair_blocks(v.input.model, v.model, t.threshold)) {
      PairVerdicts with = fit(run, t, size, &blocks);
      if (!best || with.model.sigma_observed < best->model.sigma_observed) best = std::move(with);
    }
    if (best) {
      v = std::move(*best);
      v.blocks = true;
    }
  }
  decide_nodes(t, v);
  decide_dead_nodes(run, t, v);
  // The pair cut first (the intermittent check counts measurements below it).
  const LowPairRule rule{t.threshold, t.spread_factor, t.max_spread_fraction};
  v.pair_cut = low_pair_cut(rule, std::expm1(v.model.sigma));
  decide_intermittent(t, v);
  decide_pairs_and_links(run, t, v);
  return v;
}

}  // namespace podperf
