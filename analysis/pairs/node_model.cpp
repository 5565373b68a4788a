// The node model of the pair test (see node_model.hpp). Floor: analysis/pairs; pure.
#include "analysis/pairs/node_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "analysis/stats/change_stats.hpp"

namespace podperf {
namespace {

// The median (the mean of the two middle values of an even count); 0 when empty. Reorders `v`.
double median_of(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  double m = v[mid];
  if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid))) / 2.0;
  return m;
}

// Linear-interpolated quantile q of `v` (not empty). Sorts `v`.
double quantile_of(std::vector<double>& v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

// 1.4826 x the median absolute deviation; 0 for fewer than 2 values. Reorders `v`.
double robust_sigma_of(std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double m = median_of(v);
  for (double& x : v) x = std::abs(x - m);
  return 1.4826 * median_of(v);
}

// The deviation every member shares: the member medians' value nearest zero when all have one sign,
// else 0. `at` receives the member it came from (-1: none).
double least_affected(const std::vector<double>& medians, int& at) {
  at = -1;
  if (medians.empty()) return 0.0;
  const bool all_below = std::all_of(medians.begin(), medians.end(), [](double m) { return m < 0.0; });
  const bool all_above = std::all_of(medians.begin(), medians.end(), [](double m) { return m > 0.0; });
  if (!all_below && !all_above) return 0.0;
  double best = medians.front();
  at = 0;
  for (std::size_t i = 1; i < medians.size(); ++i) {
    if (std::abs(medians[i]) < std::abs(best)) best = medians[i], at = static_cast<int>(i);
  }
  return best;
}

class Fitter {
 public:
  Fitter(const ModelInput& in, const ModelParams& p, NodeModel& m) : in_(in), p_(p), m_(m) {
    const std::size_t n = in.nodes;
    by_node_.assign(n, {});
    for (std::size_t k = 0; k < in.pairs.size(); ++k) {
      by_node_[static_cast<std::size_t>(in.pairs[k].a)].push_back(static_cast<std::uint32_t>(k));
      by_node_[static_cast<std::size_t>(in.pairs[k].b)].push_back(static_cast<std::uint32_t>(k));
    }
    m.node.assign(n, 0.0);
    contradicted_.assign(n, 0);
    m.se.assign(n, 0.0);
    m.support.assign(n, 0);
    m.estimated.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) m.estimated[i] = !by_node_[i].empty();
    m.class_level.assign(in.class_names.size(), 0.0);
    m.class_pairs.assign(in.class_names.size(), 0);
    for (const ModelPair& q : in.pairs) ++m.class_pairs[static_cast<std::size_t>(q.cls)];
    m.pair_term.assign(in.pairs.size(), 0.0);
    threshold_log_ = -std::log(1.0 - std::clamp(p.threshold, 0.0, 0.99));
  }

  void run() {
    fit_classes(false);
    sigma_ = initial_sigma();
    fit_nodes(true);
    fit_classes(true);
    estimate_sigma();
    for (int round = 0; round < 2 && !in_.groupings.empty(); ++round) {
      fit_groups();
      fit_nodes(false);
      fit_classes(true);
      estimate_sigma();
    }
    if (in_.groupings.empty()) {  // one more pass: the node terms with the noise now known
      fit_nodes(false);
      fit_classes(true);
      estimate_sigma();
    }
    for (std::size_t i = 0; i < in_.nodes; ++i) {
      m_.se[i] = m_.support[i] > 0 ? 1.2533 * m_.sigma / std::sqrt(static_cast<double>(m_.support[i])) : 0.0;
    }
    m_.tolerance = tolerance();
    estimate_class_sigma();
  }

 private:
  double partner_node(const ModelPair& q, std::size_t node) const {
    return m_.node[static_cast<std::size_t>(static_cast<std::size_t>(q.a) == node ? q.b : q.a)];
  }
  std::size_t partner_of(const ModelPair& q, std::size_t node) const {
    return static_cast<std::size_t>(static_cast<std::size_t>(q.a) == node ? q.b : q.a);
  }
  double tolerance() const { return std::max(threshold_log_, 2.0 * sigma_); }
  bool has_prior(std::size_t node) const { return node < in_.node_prior.size() && std::isfinite(in_.node_prior[node]); }

  // The class levels: per class, the median of its pairs' values less their group terms and slower node.
  void fit_classes(bool with_nodes) {
    std::vector<std::vector<double>> values(in_.class_names.size());
    for (std::size_t k = 0; k < in_.pairs.size(); ++k) {
      const ModelPair& q = in_.pairs[k];
      double v = q.value - m_.pair_term[k];
      if (with_nodes) v -= std::min(m_.node[static_cast<std::size_t>(q.a)], m_.node[static_cast<std::size_t>(q.b)]);
      values[static_cast<std::size_t>(q.cls)].push_back(v);
    }
    for (std::size_t c = 0; c < values.size(); ++c) {
      const bool fixed = c < in_.class_fixed.size() && std::isfinite(in_.class_fixed[c]);
      m_.class_level[c] = fixed ? in_.class_fixed[c] : median_of(values[c]);
    }
  }

  // Pair k's value less its class and group terms.
  double residual_no_nodes(std::size_t k) const {
    const ModelPair& q = in_.pairs[k];
    return q.value - m_.class_level[static_cast<std::size_t>(q.cls)] - m_.pair_term[k];
  }

  double initial_sigma() const {
    std::vector<double> r;
    r.reserve(in_.pairs.size());
    for (std::size_t k = 0; k < in_.pairs.size(); ++k) r.push_back(residual_no_nodes(k));
    return std::max(p_.min_noise, robust_sigma_of(r));
  }

  // The node terms (see node_model.hpp), then the reference: the upper median node is 0. A node's term
  // is the median of its pairs' values with partners not slower than it.
  void fit_nodes(bool initial) {
    const std::size_t n = in_.nodes;
    std::vector<double> values;
    if (initial) {
      for (std::size_t i = 0; i < n; ++i) {
        values.clear();
        for (std::uint32_t k : by_node_[i]) values.push_back(residual_no_nodes(k));
        m_.node[i] = values.empty() ? 0.0 : quantile_of(values, 0.75);
        if (has_prior(i)) m_.node[i] = in_.node_prior[i];
      }
    }
    const double tol = tolerance();
    std::vector<double> next(n, 0.0);
    std::vector<int> classes;
    for (int iteration = 0; iteration < 4; ++iteration) {
      for (std::size_t i = 0; i < n; ++i) {
        values.clear();
        classes.clear();
        double ceiling = -std::numeric_limits<double>::infinity();
        for (std::uint32_t k : by_node_[i]) {
          const double r = residual_no_nodes(k);
          ceiling = std::max(ceiling, r);
          if (partner_node(in_.pairs[k], i) >= m_.node[i] - tol) {
            values.push_back(r);
            classes.push_back(in_.pairs[k].cls);
          }
        }
        m_.support[i] = static_cast<int>(values.size());
        if (by_node_[i].empty()) {
          next[i] = 0.0;
        } else if (values.empty() && has_prior(i)) {
          next[i] = in_.node_prior[i];  // every partner slower: its speed is the reference's
          m_.support[i] = 1;
        } else if (values.empty()) {
          next[i] = ceiling;  // every partner slower: it is at least as fast as its best pair
          m_.support[i] = 1;
        } else {
          next[i] = contradicted_median(values, classes, tol, i);
        }
      }
      m_.node.swap(next);
    }
    values.clear();
    for (std::size_t i = 0; i < n; ++i) {
      if (m_.estimated[i] && (in_.judged.empty() || in_.judged[i])) values.push_back(m_.node[i]);
    }
    m_.judged_nodes = values.size();
    if (in_.referenced) return;  // the reference run's population is the reference
    const double reference = values.empty() ? 0.0 : upper_median_of(values);
    for (double& v : m_.node) v -= reference;
    for (double& c : m_.class_level) c += reference;
    m_.reference += reference;
  }

  // A node's term from its pairs with partners not slower (residuals `values`): their median, unless
  // that median is slow and a share of the pairs contradicts it. A pair runs at its slower node's speed,
  // so a pair at the reference level (within the tolerance) and far above the median (by the larger of
  // the threshold and 4 pair noises) says the node is not slow: when max(1, a fifth of the pairs) say so,
  // the node's term is their median and its slow pairs are links (at 4 nodes, two slow links of a node's
  // three pairs made it a straggler, a healthy node named). Once contradicted, a node stays so while the
  // pairs clear the threshold alone: its slow links then widen the noise, which must not undo it.
  // Only pairs of the node's main class count (the class most of them are in): a pair with a partner
  // of a slower kind (half the ranks) runs at that kind's speed, which its class level already holds,
  // and says nothing of this node.
  double contradicted_median(const std::vector<double>& values, const std::vector<int>& classes, double tol,
                             std::size_t node) {
    std::map<int, std::size_t> per_class;
    for (int c : classes) ++per_class[c];
    int main_class = classes.empty() ? 0 : classes.front();
    std::size_t main_count = 0;
    for (const auto& [c, count] : per_class) {
      if (count > main_count) main_class = c, main_count = count;
    }
    std::vector<double> copy = values;  // median_of reorders; `values` stays aligned with `classes`
    const double med = median_of(copy);
    if (med >= -threshold_log_) return med;
    std::vector<double> upper;
    const double gap = contradicted_[node] ? threshold_log_ : std::max(threshold_log_, 4.0 * sigma_);
    for (std::size_t j = 0; j < values.size(); ++j) {
      const double r = values[j];
      if (classes[j] == main_class && r >= -tol && r >= med + gap) upper.push_back(r);
    }
    const auto needed = std::max<std::size_t>(1, (main_count + 4) / 5);
    if (upper.size() < needed) return med;
    contradicted_[node] = 1;
    return median_of(upper);
  }

  // A node's term without pair `skip` (the same partner filter): what the node says without that pair,
  // so the pair's residual is not shrunk by its own part in the estimate.
  double node_without(std::size_t node, std::uint32_t skip, double tol) const {
    std::vector<double> values;
    for (std::uint32_t k : by_node_[node]) {
      if (k == skip) continue;
      if (partner_node(in_.pairs[k], node) >= m_.node[node] - tol) values.push_back(residual_no_nodes(k));
    }
    return values.empty() ? m_.node[node] : median_of(values);
  }

  // The noise of a pair's value: the robust spread of the pairs between judged nodes about what the model
  // predicts of them, each node's term taken without the pair itself where it rests on few pairs (a
  // median of three would otherwise fit one of them exactly), pooled with the prior.
  void estimate_sigma() {
    constexpr int kLeaveOneOutBelow = 20;  // from this many pairs on, one pair barely moves a median
    const double tol = tolerance();
    std::vector<double> r;
    std::vector<bool> class_used(in_.class_names.size(), false);
    std::vector<bool> node_used(in_.nodes, false);
    for (std::size_t k = 0; k < in_.pairs.size(); ++k) {
      const ModelPair& q = in_.pairs[k];
      const auto a = static_cast<std::size_t>(q.a), b = static_cast<std::size_t>(q.b);
      if (!in_.judged.empty() && (!in_.judged[a] || !in_.judged[b])) continue;
      const auto k32 = static_cast<std::uint32_t>(k);
      const double na = m_.support[a] < kLeaveOneOutBelow ? node_without(a, k32, tol) : m_.node[a];
      const double nb = m_.support[b] < kLeaveOneOutBelow ? node_without(b, k32, tol) : m_.node[b];
      r.push_back(residual_no_nodes(k) - std::min(na, nb));
      class_used[static_cast<std::size_t>(q.cls)] = true;
      node_used[a] = node_used[b] = true;
    }
    const auto classes = static_cast<double>(std::count(class_used.begin(), class_used.end(), true));
    const auto nodes = static_cast<double>(std::count(node_used.begin(), node_used.end(), true));
    const auto kept = static_cast<double>(
        std::count_if(m_.groups.begin(), m_.groups.end(), [](const GroupTerm& g) { return g.kept; }));
    const double df = std::max(0.0, static_cast<double>(r.size()) - classes - kept - std::max(0.0, nodes - 1.0));
    const double observed = robust_sigma_of(r);
    m_.sigma_observed = df > 0.0 ? observed : 0.0;
    std::tie(m_.sigma, m_.df) = pooled_with_prior(observed, df);
    sigma_ = m_.sigma;
  }

  // A noise `observed` on `df` degrees of freedom pooled with the prior (noise_prior, or the reference
  // run's noise when judged against one): the pooled noise (never below min_noise) and its degrees of
  // freedom (at least 1).
  std::pair<double, double> pooled_with_prior(double observed, double df) const {
    const double prior = in_.referenced ? in_.reference_noise : p_.noise_prior;
    const double prior_df = std::max(0.0, in_.referenced ? in_.reference_df : p_.noise_prior_df);
    const double pooled_df = df + prior_df;
    const double variance =
        pooled_df > 0.0 ? (df * observed * observed + prior_df * prior * prior) / pooled_df : prior * prior;
    return {std::max(p_.min_noise, std::sqrt(variance)), std::max(1.0, pooled_df)};
  }

  // Each class's own noise: the robust spread of its pairs' values less their group terms (their nodes
  // left in: conservative, and a node term fitted on the same few pairs would make it small), on its
  // pairs less one degrees of freedom, pooled with the prior as the run's noise is.
  void estimate_class_sigma() {
    std::vector<std::vector<double>> values(in_.class_names.size());
    for (std::size_t k = 0; k < in_.pairs.size(); ++k) {
      const ModelPair& q = in_.pairs[k];
      const auto a = static_cast<std::size_t>(q.a), b = static_cast<std::size_t>(q.b);
      if (!in_.judged.empty() && (!in_.judged[a] || !in_.judged[b])) continue;
      values[static_cast<std::size_t>(q.cls)].push_back(q.value - m_.pair_term[k]);
    }
    m_.class_sigma.resize(values.size());
    m_.class_df.resize(values.size());
    for (std::size_t c = 0; c < values.size(); ++c) {
      const double df = values[c].size() > 1 ? static_cast<double>(values[c].size() - 1) : 0.0;
      std::tie(m_.class_sigma[c], m_.class_df[c]) = pooled_with_prior(robust_sigma_of(values[c]), df);
    }
  }

  // The group terms of every grouping (see node_model.hpp), from the pairs less their class, the
  // other kept terms and (for pairs leaving the group) the partner's own deficit.
  void fit_groups() {
    struct Candidate {
      GroupTerm term;
      std::vector<std::uint32_t> pairs;  // the pairs it applies to
      // Inside: the deficit its members share with the partners not slower than each (0 when fewer
      // than two members have such a pair). An inside term is kept only when this one agrees: in a
      // group of 2 or 3, one slow node is every member's inside deficit and would read as a slow switch;
      // the term itself (all pairs) is what tells a group of slow nodes from a slow uplink.
      double own = 0.0;
    };
    std::vector<Candidate> candidates;
    const double tol = tolerance();
    const std::size_t innermost = in_.groupings.size() - 1;
    // The kept terms of the previous round, by grouping and group: each candidate is estimated less
    // its own term (the pairs' other terms stay subtracted).
    std::vector<std::vector<double>> kept_out(in_.groupings.size()), kept_in(in_.groupings.size());
    for (std::size_t gi = 0; gi < in_.groupings.size(); ++gi) {
      kept_out[gi].assign(in_.groupings[gi].group_names.size(), 0.0);
      kept_in[gi].assign(in_.groupings[gi].group_names.size(), 0.0);
    }
    for (const GroupTerm& t : m_.groups) {
      if (t.kept) (t.inside ? kept_in : kept_out)[t.grouping][static_cast<std::size_t>(t.group)] = t.value;
    }
    for (std::size_t gi = 0; gi < in_.groupings.size(); ++gi) {
      const ModelGrouping& grouping = in_.groupings[gi];
      const std::size_t groups = grouping.group_names.size();
      std::vector<std::vector<int>> members(groups);
      for (std::size_t i = 0; i < in_.nodes && i < grouping.group.size(); ++i) {
        if (grouping.group[i] >= 0) members[static_cast<std::size_t>(grouping.group[i])].push_back(static_cast<int>(i));
      }
      std::size_t placed = 0;
      for (const auto& m : members) placed += m.size();
      for (std::size_t g = 0; g < groups; ++g) {
        if (members[g].size() < 2 || members[g].size() == placed) continue;
        for (bool inside : {false, true}) {
          Candidate c;
          c.term.grouping = gi;
          c.term.group = static_cast<int>(g);
          c.term.inside = inside;
          std::vector<double> medians, own_medians, own_values;
          std::vector<int> counts;
          for (int x : members[g]) {
            std::vector<double> values;
            for (std::uint32_t k : by_node_[static_cast<std::size_t>(x)]) {
              const ModelPair& q = in_.pairs[k];
              const std::size_t partner = partner_of(q, static_cast<std::size_t>(x));
              const bool partner_inside = grouping.group[partner] == static_cast<int>(g);
              if (partner_inside != inside || grouping.group[partner] < 0) continue;
              double v = residual_no_nodes(k) + (inside ? kept_in[gi][g] : kept_out[gi][g]);
              if (!inside) v -= std::min(m_.node[partner], 0.0);
              values.push_back(v);
              // Inside, a partner slower than x runs the pair at its own speed: the pair says nothing
              // of the group's own speed as x sees it.
              if (inside && m_.node[partner] >= m_.node[static_cast<std::size_t>(x)] - tol) own_values.push_back(v);
              if (!inside || x < static_cast<int>(partner)) c.pairs.push_back(k);
            }
            if (!own_values.empty()) own_medians.push_back(median_of(own_values));
            own_values.clear();
            if (values.empty()) continue;
            counts.push_back(static_cast<int>(values.size()));
            medians.push_back(median_of(values));
          }
          int at = -1;
          c.term.value = least_affected(medians, at);
          if (inside) {
            int own_at = -1;
            c.own = own_medians.size() >= 2 ? least_affected(own_medians, own_at) : 0.0;
          }
          c.term.members = static_cast<int>(medians.size());
          c.term.pairs = at >= 0 ? counts[static_cast<std::size_t>(at)] : 0;
          c.term.se = c.term.pairs > 0 ? 1.2533 * sigma_ / std::sqrt(static_cast<double>(c.term.pairs)) : 0.0;
          if (c.term.members < 2) continue;
          candidates.push_back(std::move(c));
        }
      }
    }
    const double tests = std::max<double>(1.0, static_cast<double>(candidates.size()));
    const double q = student_t_quantile(1.0 - std::min(0.5, p_.group_alpha / tests), std::max(1.0, m_.df));
    for (Candidate& c : candidates) {
      c.term.kept = std::abs(c.term.value) > threshold_log_ && std::abs(c.term.value) > q * c.term.se;
      // A slow inside term rests on at least two pairs: a group of 2 has one pair inside, which the term
      // would fit exactly (a transient in its one measurement would read as a slow switch and never be
      // retested); that pair is judged as a link instead, which must be slow in its retests too.
      if (c.term.inside && c.term.value < 0.0) {
        c.term.kept = c.term.kept && c.own < -threshold_log_ && c.pairs.size() >= 2;
      }
    }
    // A group slow inside and out alike is its nodes' (no group term): its out term and inside term
    // both kept, both negative, and within the noise of each other.
    for (Candidate& out : candidates) {
      if (out.term.inside || !out.term.kept || out.term.value >= 0.0) continue;
      for (Candidate& in : candidates) {
        if (!in.term.inside || in.term.grouping != out.term.grouping || in.term.group != out.term.group) continue;
        const double margin = std::max(threshold_log_, q * std::hypot(out.term.se, in.term.se));
        if (in.term.value < -threshold_log_ && std::abs(out.term.value - in.term.value) <= margin) {
          out.term.kept = in.term.kept = false;
          out.term.nodes_explain = in.term.nodes_explain = true;
        }
      }
    }
    // Inside terms only for the innermost grouping (an outer group's inside pairs are its inner
    // groups' pairs leaving each other).
    for (Candidate& c : candidates) {
      if (c.term.inside && c.term.grouping != innermost) c.term.kept = false;
    }
    std::fill(m_.pair_term.begin(), m_.pair_term.end(), 0.0);
    m_.groups.clear();
    for (Candidate& c : candidates) {
      if (c.term.kept) {
        for (std::uint32_t k : c.pairs) m_.pair_term[k] += c.term.value;
      }
      m_.groups.push_back(c.term);
    }
  }

  const ModelInput& in_;
  const ModelParams& p_;
  NodeModel& m_;
  std::vector<std::vector<std::uint32_t>> by_node_;
  double threshold_log_ = 0.0;
  double sigma_ = 0.0;
  std::vector<char> contradicted_;  // per node: its slow median was contradicted by pairs at the level
};

}  // namespace

double upper_median_of(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

double NodeModel::expected(const ModelInput& in, std::size_t p) const {
  const ModelPair& q = in.pairs[p];
  return class_expected(in, p) + std::min(node[static_cast<std::size_t>(q.a)], node[static_cast<std::size_t>(q.b)]);
}

double NodeModel::class_expected(const ModelInput& in, std::size_t p) const {
  return class_level[static_cast<std::size_t>(in.pairs[p].cls)] + pair_term[p];
}

NodeModel fit_node_model(const ModelInput& input, const ModelParams& params) {
  NodeModel model;
  Fitter(input, params, model).run();
  return model;
}

}  // namespace podperf
